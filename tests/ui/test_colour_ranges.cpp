// test_colour_ranges.cpp — an exported figure is colored on the range the window uses: signed maps on the
// tensor's ±max|x| over every head (not the exported head's own), attention weights on the chosen probability
// scale. The window's side is ui::SummaryCache (signed) and matrixSlice + colormap::probabilityRange (weights);
// the export's is exporting::panelContent. A near-uniform probability map is marked "narrow range: a … b"
// (core::narrowRangeNote) under its colorbar on screen and in a caption line of its exports.
#include "core/narrow_range.h"
#include "export/panel_content.h"
#include "imgui_harness.h"
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

TEST_CASE("narrow range: a probability map spanning less than 0.2 is marked with its two ends, others are not") {
    CHECK(core::narrowRangeNote(std::vector<float>{0.07f, 0.09f, 0.081f}) == "narrow range: 0.07 … 0.09");
    CHECK(core::narrowRangeNote(std::vector<float>{0.0714f, 0.0716f}) == "narrow range: 0.071 … 0.072");  // 2 decimals print both 0.07
    CHECK(core::narrowRangeNote(std::vector<float>{0.0f, 0.199f}).has_value());
    CHECK_FALSE(core::narrowRangeNote(std::vector<float>{0.0f, 0.2f}).has_value());
    CHECK_FALSE(core::narrowRangeNote(std::vector<float>{0.0f, 1.0f, 0.5f}).has_value());  // a one-hot row
    CHECK(core::narrowRangeNote(std::vector<float>{0.1f, NAN, 0.12f}) == "narrow range: 0.10 … 0.12");  // NaN aside
    CHECK_FALSE(core::narrowRangeNote(std::vector<float>{NAN}).has_value());
}

TEST_CASE("narrow range: the seeded layer's near-uniform heads are marked in their exports, and under the colorbar on screen") {
    // The seeded layer's weights of 15 tokens lie within 0.2 of each other on some heads (0.03 … 0.19 or so).
    const core::ModelRun run = randomRun();
    int narrowHead = -1;
    for (int head = 0; head < run.trace.dims.heads && narrowHead < 0; ++head) {
        const exporting::PanelContent content = exported(run, TensorId::AttentionWeights, head, ProbabilityScale::MapMax);
        const auto& values = content.values;
        const float span = values.maxCoeff() - values.minCoeff();
        const bool marked = std::any_of(content.captions.begin(), content.captions.end(), [](const std::string& c) { return c.starts_with("narrow range: "); });
        CHECK(marked == (span < core::kNarrowProbabilitySpan));
        if (marked) narrowHead = head;
    }
    REQUIRE(narrowHead >= 0);
    ImGuiHarness ui;
    ui::AppState state;
    state.stage = core::StageId::Softmax;
    state.head = narrowHead;
    ui::App app(state);
    ui.frames(app, 3);
    app.waitForRun();
    ui.frames(app, 2);
    bool shown = false;
    for (const ui::DrawnHeatmap& d : app.drawnHeatmaps()) {
        if (d.matrix.tensor == TensorId::AttentionWeights && d.matrix.head == narrowHead && d.max.x - d.min.x > 100.0f) shown = d.narrowNote.starts_with("narrow range: ");
    }
    CHECK(shown);
}

}  // namespace attnviz::test
