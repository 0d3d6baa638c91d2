// test_inspector.cpp — the explanations as data, without ImGui: every cell of every matrix can be explained,
// products recompute to the value on screen, masks and NaN are named, and matrix names and shapes read as
// in the paper.
#include "ui/views/inspector.h"
#include "ui/views/matrix_info.h"
#include "ui/views/number_format.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

namespace attnviz::test {
namespace {

using core::TensorId;

ui::MatrixRef ref(TensorId tensor, int head = 0) { return {ui::MatrixSource::Trace, tensor, head}; }

core::ModelRun causalRun(int dModel = 16, int heads = 4) {
    core::ModelSpec spec;
    spec.sentences = {"the quick brown fox"};
    spec.attention.dModel = dModel;
    spec.attention.heads = heads;
    spec.attention.mask = core::MaskKind::Causal;
    return core::runModel(spec);
}

bool isProduct(TensorId t) {
    return t == TensorId::Q || t == TensorId::K || t == TensorId::V || t == TensorId::QHeads || t == TensorId::KHeads ||
           t == TensorId::VHeads || t == TensorId::Scores || t == TensorId::ZHeads || t == TensorId::Output;
}

}  // namespace

TEST_CASE("every cell of every matrix is explained, and products add up to the cell") {
    const core::ModelRun run = causalRun();
    for (int t = 0; t < core::kTensorCount; ++t) {
        const auto tensor = static_cast<TensorId>(t);
        const ui::MatrixRef m = ref(tensor, ui::isPerHead(tensor) ? 3 : 0);
        if (!ui::hasMatrix(run, m)) continue;  // X_dec in self-attention
        const ui::MatrixInfo info = ui::matrixInfo(run, m, 0);
        const render::MatrixSlice values = ui::matrixSlice(run, m, 0);
        REQUIRE(values.rows == info.rows);
        REQUIRE(values.cols == info.cols);
        for (int r = 0; r < info.rows; ++r) {
            for (int c = 0; c < info.cols; ++c) {
                const auto e = ui::explainCell(run, {m, r, c}, 0);
                REQUIRE_MESSAGE(e, core::tensorInfo(tensor).key, " ", r, ",", c);
                CHECK(e->value == ui::valueAt(values, r, c));
                CHECK_FALSE(e->formula.empty());
                if (isProduct(tensor)) {
                    CHECK_MESSAGE(e->termSum == doctest::Approx(e->value).epsilon(1e-4).scale(1.0), core::tensorInfo(tensor).key);
                    CHECK(e->terms.size() == static_cast<std::size_t>(std::min(ui::kListedTerms, e->termCount)));
                }
            }
        }
    }
}

TEST_CASE("cells outside their matrix are not explained") {
    const core::ModelRun run = causalRun();
    CHECK_FALSE(ui::explainCell(run, {ref(TensorId::Scores), 4, 0}, 0));
    CHECK_FALSE(ui::explainCell(run, {ref(TensorId::Scores), 0, -1}, 0));
    CHECK_FALSE(ui::explainCell(run, {ref(TensorId::Scores), 0, 0}, 1));  // batch 1 of a batch of one
    CHECK_FALSE(ui::explainCell(run, {ref(TensorId::XQuery), 0, 0}, 0));
}

TEST_CASE("a cell pinned in head 3 is not explained by a run of one head (a one-head map is not a broadcast one)") {
    const core::ModelRun oneHead = causalRun(16, 1);
    for (const TensorId map : {TensorId::Scores, TensorId::ScaledScores, TensorId::MaskedScores, TensorId::AttentionWeights}) {
        CAPTURE(core::tensorInfo(map).key);
        CHECK_FALSE(ui::hasMatrix(oneHead, ref(map, 3)));
        CHECK_FALSE(ui::explainCell(oneHead, {ref(map, 3), 0, 0}, 0));
        CHECK(ui::explainCell(oneHead, {ref(map, 0), 0, 0}, 0));
    }
}

TEST_CASE("a split cell is a copy of Q's column i·d_k + c and outlines it") {
    const core::ModelRun run = causalRun();
    const auto e = ui::explainCell(run, {ref(TensorId::QHeads, 2), 1, 3}, 0);
    REQUIRE(e);
    const int fusedColumn = 2 * 4 + 3;
    CHECK(e->value == ui::valueAt(ui::matrixSlice(run, ref(TensorId::Q), 0), 1, fusedColumn));
    CHECK(std::any_of(e->highlights.begin(), e->highlights.end(), [&](const ui::Highlight& h) {
        return h.matrix == ref(TensorId::Q) && h.kind == ui::Highlight::Kind::Cell && h.row == 1 && h.col == fusedColumn;
    }));
}

TEST_CASE("the padding and causal masks are told apart, and the broadcast shape is named") {
    core::ModelSpec spec;
    spec.sentences = {"a b c d", "e f"};
    spec.attention.dModel = 8;
    spec.attention.heads = 2;
    spec.attention.mask = core::MaskKind::Padding;
    const core::ModelRun run = core::runModel(spec);
    const auto padded = ui::explainCell(run, {ref(TensorId::MaskedScores), 0, 3}, 1);  // sentence 1 has 2 tokens
    REQUIRE(padded);
    CHECK(padded->masked);
    CHECK(padded->notes.front().find("Padding mask") != std::string::npos);
    const auto mask = ui::explainCell(run, {ref(TensorId::Mask), 0, 3}, 1);
    REQUIRE(mask);
    CHECK(mask->value == 0.0f);
    CHECK(std::any_of(mask->notes.begin(), mask->notes.end(), [](const std::string& n) { return n.find("b × 1 × 1 × l") != std::string::npos; }));
    CHECK(ui::matrixInfo(run, ref(TensorId::Mask), 1).rowAxis == ui::Axis::Broadcast);
    CHECK(ui::axisLabel(run, ui::Axis::KeyTokens, 1, 3) == "<pad>");
}

TEST_CASE("a NaN attention weight is explained as 0 / 0 from a row masked with −∞") {
    core::ModelRun run = causalRun();
    // No mask of this app fully masks a self-attention row; make one as PyTorch would compute it.
    run.trace.fill = core::MaskFill::MinusInfinity;
    run.trace.softmax = core::SoftmaxMode::PyTorch;
    auto& weights = run.trace[TensorId::AttentionWeights];
    weights.sliceData(0)[0] = std::numeric_limits<float>::quiet_NaN();
    run.trace.fullyMaskedRows[0] = 1;
    const auto e = ui::explainCell(run, {ref(TensorId::AttentionWeights), 0, 0}, 0);
    REQUIRE(e);
    CHECK(std::isnan(e->value));
    CHECK(std::any_of(e->notes.begin(), e->notes.end(), [](const std::string& n) { return n.find("0 / 0") != std::string::npos; }));
    CHECK(ui::formatValue(e->value) == "NaN");
}

TEST_CASE("matrix names and shapes read as in the paper and as PyTorch tensors") {
    const core::ModelRun run = causalRun(16, 4);
    const ui::MatrixInfo q = ui::matrixInfo(run, ref(TensorId::QHeads, 2), 0);
    CHECK(q.name == "Q₂");
    CHECK(q.paperShape == "l × d_k");
    CHECK(q.tensorShape == "b × h × l × d_k");
    CHECK(q.numericShape == "1 × 4 × 4 × 4");
    CHECK(q.rowAxis == ui::Axis::QueryTokens);
    const ui::MatrixInfo w = ui::matrixInfo(run, ref(TensorId::WQ), 0);
    CHECK(w.paperShape == "d_model × h·d_k");
    CHECK(w.headBlockCols == 4);
    CHECK(ui::matrixInfo(run, ref(TensorId::WO), 0).headBlockRows == 4);
    CHECK(ui::matrixInfo(run, ref(TensorId::AttentionWeights), 0).probability);
    CHECK(ui::subscript(12) == "₁₂");
    CHECK(ui::matrixInfo(run, {ui::MatrixSource::Positions, TensorId::X, 0}, 0).rows == 4);
}

TEST_CASE("texture keys differ for every matrix, batch, head, transposition and mask") {
    std::vector<render::TextureKey> keys;
    for (int t = 0; t < core::kTensorCount; ++t) {
        for (int head : {0, 1, 11}) {
            for (int batch : {0, 1}) {
                for (bool transposed : {false, true}) keys.push_back(ui::textureKey(ref(static_cast<TensorId>(t), head), batch, transposed));
            }
        }
    }
    keys.push_back(ui::textureKey({ui::MatrixSource::TokenEmbeddings, TensorId::X, 0}, 0, false));
    keys.push_back(ui::textureKey({ui::MatrixSource::Positions, TensorId::X, 0}, 0, false));
    keys.push_back(ui::textureKey(ref(TensorId::Mask), 0, false, true));
    const std::unordered_set<render::TextureKey, render::TextureKeyHash> distinct(keys.begin(), keys.end());
    CHECK(distinct.size() == keys.size());
}

TEST_CASE("numbers fit in cells and special values spell themselves") {
    CHECK(ui::formatCell(0.123456f) == "0.12");
    CHECK(ui::formatCell(-0.001f) == "0.00");
    CHECK(ui::formatCell(-1e9f) == "-1e9");
    CHECK(ui::formatValue(1.5e-5f) == "1.5e-5");
    CHECK(ui::formatCell(std::numeric_limits<float>::infinity()) == "+∞");
    CHECK(ui::formatValue(-std::numeric_limits<float>::infinity()) == "−∞");
    CHECK(ui::formatValue(0.1234567f) == "0.1235");
}

}  // namespace attnviz::test
