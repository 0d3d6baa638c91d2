// test_colour_ranges.cpp — an exported figure is colored on the range the window uses: signed maps on the
// tensor's ±max|x| over every head (not the exported head's own), attention weights on the chosen probability
// scale. The window's side is ui::SummaryCache (signed) and matrixSlice + colormap::probabilityRange (weights);
// the export's is exporting::panelContent.
#include "export/panel_content.h"
#include "ui/views/matrix_info.h"
#include "ui/views/view_context.h"

#include <doctest/doctest.h>

#include <algorithm>

namespace attnviz::test {
namespace {

using colormap::ProbabilityScale;
using core::TensorId;

core::ModelRun randomRun() {
    core::ModelSpec spec;
    spec.sentences = {"The animal didn't cross the street because it was too tired"};
    return core::runModel(spec);  // the seeded layer: d_model 64, 8 heads, diffuse heads (weights below 0.35)
}

exporting::PanelContent exported(const core::ModelRun& run, TensorId tensor, int head, ProbabilityScale scale) {
    exporting::FigureStyle style;
    style.probabilityScale = scale;
    return exporting::panelContent(run, {tensor, head, false}, 0, style, std::nullopt, false);
}

}  // namespace

TEST_CASE("colour ranges: an exported head's scores use the window's range over every head") {
    const core::ModelRun run = randomRun();
    ui::SummaryCache window;
    for (TensorId tensor : {TensorId::Scores, TensorId::ScaledScores}) {
        const colormap::Range screen = window.get(run, tensor).range;
        for (int head : {0, 3, 7}) {
            const colormap::Range figure = exported(run, tensor, head, ProbabilityScale::MapMax).range;
            CHECK(figure.lo == screen.lo);
            CHECK(figure.hi == screen.hi);
        }
    }
    // Head 0's own extremes are smaller than all heads': the range the export used before (±2.16 vs ±2.674).
    const exporting::PanelContent head0 = exported(run, TensorId::ScaledScores, 0, ProbabilityScale::MapMax);
    CHECK(head0.values.cwiseAbs().maxCoeff() < head0.range.hi);
}

TEST_CASE("colour ranges: attention weights on 0 … map max, each row ÷ its max, or fixed 0 … 1, as in the window") {
    const core::ModelRun run = randomRun();
    const ui::MatrixRef weights{ui::MatrixSource::Trace, TensorId::AttentionWeights, 2};
    const render::MatrixSlice slice = ui::matrixSlice(run, weights, 0);
    const float largest = *std::max_element(slice.values.begin(), slice.values.end());
    REQUIRE(largest < 0.5f);  // a diffuse head: on a fixed scale it would be one dark colour

    const exporting::PanelContent map = exported(run, TensorId::AttentionWeights, 2, ProbabilityScale::MapMax);
    CHECK(map.range.lo == 0.0f);
    CHECK(map.range.hi == doctest::Approx(largest));
    CHECK(map.range.hi == colormap::probabilityRange(slice.values, ProbabilityScale::MapMax).hi);  // what the window draws
    CHECK(map.colorValues.size() == 0);

    const exporting::PanelContent rows = exported(run, TensorId::AttentionWeights, 2, ProbabilityScale::RowMax);
    CHECK(rows.range.hi == 1.0f);
    REQUIRE(rows.colorValues.rows() == rows.values.rows());
    for (Eigen::Index r = 0; r < rows.colorValues.rows(); ++r) CHECK(rows.colorValues.row(r).maxCoeff() == doctest::Approx(1.0f));
    CHECK(rows.values.row(0).maxCoeff() < 0.5f);  // the numbers printed stay the weights

    CHECK(exported(run, TensorId::AttentionWeights, 2, ProbabilityScale::Fixed).range.hi == 1.0f);
}

}  // namespace attnviz::test
