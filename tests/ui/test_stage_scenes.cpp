// test_stage_scenes.cpp — the scenes of stages 2, 3, 9 and the RoPE step as data, and their layout as rectangles,
// without a window: grouped-query attention's K and V with their fewer heads and the query heads coloured by the
// K/V head they share, the split and the concatenation as lines of head tiles, the RoPE step's maps and caption,
// the focused query row, and the layout rules these add (stacked lines share a cell width, tiles stand apart,
// notes under the maps), and the label floor presenting, which tapers with the sentence beyond 24 tokens.
#include "core/decoder_lessons.h"
#include "scene/layout.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace attnviz::test {
namespace {

using core::TensorId;
using scene::Map;

// Text 8 px a byte, 16 px a line; decorations: row labels 60 px, a title 40 px (+20 with column labels), a
// colorbar 60 px at the right or 30 px below. Round numbers, so the rules are what the test measures.
class FakeMetrics : public scene::Metrics {
public:
    scene::Insets decorations(const Map& map) const override {
        return {map.rowLabels ? 60.0f : 0.0f, map.colLabels ? 60.0f : 40.0f, map.colorbar == scene::Colorbar::Right ? 60.0f : 0.0f,
                map.colorbar == scene::Colorbar::Below ? 30.0f : 0.0f};
    }
    float textWidth(std::string_view text, scene::TextRole) const override { return 8.0f * static_cast<float>(text.size()); }
    float textHeight(std::string_view text, scene::TextRole role, float wrapWidth) const override {
        if (wrapWidth <= 0.0f) return 16.0f;
        return 16.0f * std::ceil(textWidth(text, role) / wrapWidth);
    }
};

// A patterned matrix (deterministic, no two entries alike).
core::Matrix patterned(int rows, int cols, int salt) {
    core::Matrix m(rows, cols);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) m(r, c) = static_cast<float>(std::sin(0.7 * r + 1.3 * c + salt)) * 0.5f;
    }
    return m;
}

// One self-attention layer of `tokens` tokens, d_model 48, 8 query heads of d_k = 6 sharing `kvHeads` K/V heads,
// with rotary positions or not.
core::Trace layer(int kvHeads, bool rope, int tokens = 10) {
    core::AttentionConfig config;
    config.dModel = 48;
    config.heads = 8;
    config.kvHeads = kvHeads;
    config.dK = config.dV = 6;
    if (rope) config.rotaryFrequencies = core::defaultRotaryFrequencies(6);
    core::Weights weights;
    weights.wq = patterned(48, 48, 2);
    weights.wk = patterned(48, kvHeads * 6, 3);
    weights.wv = patterned(48, kvHeads * 6, 4);
    weights.wo = patterned(48, 48, 5);
    return core::forward({{patterned(tokens, 48, 1)}, {}}, weights, config);
}

scene::Scene sceneOf(core::StageId stage, const core::Trace& trace, scene::SceneChoices choices = {}) {
    const std::optional<scene::Scene> s = scene::stageScene(stage, trace, choices);
    REQUIRE(s.has_value());
    return *s;
}

std::vector<Map> mapsOf(const scene::Line& line) {
    std::vector<Map> maps;
    for (const scene::Term& term : line.terms) {
        if (const auto* map = std::get_if<Map>(&term)) maps.push_back(*map);
    }
    return maps;
}

const Map& tile(const std::vector<Map>& maps, int i) { return maps.at(static_cast<std::size_t>(i) + 1); }  // after the fused map

}  // namespace

TEST_CASE("grouped-query attention: the legend says which query heads share each K/V head, in its colour") {
    const std::vector<scene::Note> gqa = scene::sharingNotes(layer(2, false).dims);
    REQUIRE(gqa.size() == 2);
    CHECK(gqa[0].text == "query heads 0–3 share K/V head 0");
    CHECK(gqa[0].headColour == 0);
    CHECK(gqa[1].text == "query heads 4–7 share K/V head 1");
    CHECK(gqa[1].headColour == 1);
    const std::vector<scene::Note> mqa = scene::sharingNotes(layer(1, false).dims);
    REQUIRE(mqa.size() == 1);
    CHECK(mqa[0].text == "query heads 0–7 share K/V head 0");
    CHECK(scene::sharingNotes(layer(8, false).dims).empty());  // multi-head: every query head has its own
}

TEST_CASE("stage 2 under grouped-query attention: K and V as narrow as their 2 heads, Q's blocks in the K/V heads' colours") {
    const core::Trace trace = layer(2, false);
    const scene::Scene s = sceneOf(core::StageId::Project, trace);
    const auto& product = std::get<scene::Product>(s.figures.front().composition);
    REQUIRE(product.pairs.size() == 3);
    CHECK(product.pairs[0].result.tensor == TensorId::Q);
    CHECK(product.pairs[0].result.cols == 48);
    CHECK(product.pairs[0].result.headsPerColour == 4);
    CHECK(product.pairs[0].top.headsPerColour == 4);  // W^Q
    CHECK(product.pairs[1].result.cols == 12);        // K: h_kv · d_k
    CHECK(product.pairs[1].result.headsPerColour == 1);
    CHECK(product.pairs[2].top.cols == 12);           // W^V
    CHECK(s.figures.front().notes.size() == 2);
    CHECK(s.figures.front().hint.find("h_kv = 2") != std::string::npos);
    // When the three products do not fit, X × [W^Q W^K W^V] = [Q K V] in one line (test_projector_stages.cpp); then
    // Q, K and V side by side, K and V a quarter of Q's width.
    REQUIRE(s.figures.size() == 4);
    const std::vector<Map> results = mapsOf(std::get<scene::Line>(s.figures[2].composition));
    REQUIRE(results.size() == 3);
    CHECK(results[0].cols == 4 * results[1].cols);
    CHECK(results[2].tensor == TensorId::V);
    // Multi-head: every head its own colour, no legend.
    const core::Trace multiHead = layer(8, false);
    const scene::Scene mha = sceneOf(core::StageId::Project, multiHead);
    CHECK(std::get<scene::Product>(mha.figures.front().composition).pairs[0].result.headsPerColour == 1);
    CHECK(mha.figures.front().notes.empty());
    CHECK(mha.figures.size() == 3);  // the products, the products in one line, then Q alone
}

TEST_CASE("stage 3 is Q, K and V beside their heads' tiles — under GQA K and V have 2 tiles and each Q_i is framed in its K/V head's colour") {
    const core::Trace trace = layer(2, false);
    const scene::Scene s = sceneOf(core::StageId::SplitHeads, trace);
    REQUIRE(s.figures.size() == 4);  // Q, K, V; Q and K; the three in one line; Q alone
    const auto& stack = std::get<scene::Stack>(s.figures[0].composition);
    REQUIRE(stack.lines.size() == 3);
    const std::vector<Map> q = mapsOf(stack.lines[0]), k = mapsOf(stack.lines[1]), v = mapsOf(stack.lines[2]);
    REQUIRE(q.size() == 1 + 8);
    REQUIRE(k.size() == 1 + 2);
    REQUIRE(v.size() == 1 + 2);
    CHECK(q[0].tensor == TensorId::Q);
    CHECK(q[0].headsPerColour == 4);
    for (int i = 0; i < 8; ++i) {
        CAPTURE(i);
        CHECK(tile(q, i).tensor == TensorId::QHeads);
        CHECK(tile(q, i).head == i);
        CHECK(tile(q, i).frame == i / 4);
        CHECK(tile(q, i).rowLabels == (i == 0));
    }
    for (int j = 0; j < 2; ++j) {
        CAPTURE(j);
        CHECK(tile(k, j).tensor == TensorId::KHeads);
        CHECK(core::keyValueHead(trace.dims, tile(k, j).head) == j);  // the trace's slice is K/V head j
        CHECK(tile(k, j).title == (j == 0 ? "K₀" : "K₁"));
        CHECK(tile(k, j).frame == j);
        CHECK(tile(v, j).title == (j == 0 ? "V₀" : "V₁"));
    }
    CHECK(tile(q, 7).colorbar == scene::Colorbar::Right);  // one colorbar, at the line's end
    CHECK(q[0].colorbar == scene::Colorbar::None);
    CHECK(s.figures[0].notes.size() == 2);
    // In one line: Q's maps keep the token labels, K's and V's rows line up with them.
    const std::vector<Map> joined = mapsOf(std::get<scene::Line>(s.figures[2].composition));
    REQUIRE(joined.size() == 9 + 3 + 3);
    CHECK(joined[0].rowLabels);
    CHECK(joined[1].rowLabels);
    CHECK(std::none_of(joined.begin() + 2, joined.end(), [](const Map& m) { return m.rowLabels; }));
    // The last resort, Q alone, says where K and V went.
    CHECK(s.figures[3].notes.back().text.find("2 heads") != std::string::npos);
}

TEST_CASE("stage 3 of multi-head attention: each tile framed in its own head's colour — stage 9 puts Z_i back into Z") {
    const core::Trace trace = layer(8, false);
    const scene::Scene split = sceneOf(core::StageId::SplitHeads, trace);
    const auto& stack = std::get<scene::Stack>(split.figures[0].composition);
    const std::vector<Map> k = mapsOf(stack.lines[1]);
    REQUIRE(k.size() == 1 + 8);
    for (int i = 0; i < 8; ++i) CHECK(tile(k, i).frame == i);

    const scene::Scene concat = sceneOf(core::StageId::Concat, trace);
    const auto& line = std::get<scene::Line>(concat.figures.front().composition);
    const std::vector<Map> maps = mapsOf(line);
    REQUIRE(maps.size() == 8 + 1);
    for (int i = 0; i < 8; ++i) {
        CHECK(maps[static_cast<std::size_t>(i)].tensor == TensorId::ZHeads);
        CHECK(maps[static_cast<std::size_t>(i)].frame == i);
    }
    CHECK(maps.back().tensor == TensorId::Concat);
    CHECK(std::holds_alternative<scene::Operator>(line.terms[8]));  // "→" between the tiles and Z
    CHECK(concat.figures.front().formula == "Z = [Z₀ … Z₇]");
}

TEST_CASE("the RoPE step: q and k before and after the rotation, and a caption that the score depends on the offset") {
    const core::Trace rotary = layer(2, true);
    REQUIRE(scene::hasRopeStep(rotary));
    scene::SceneChoices choices;
    choices.head = 5;
    choices.ropeStep = true;
    const scene::Scene s = sceneOf(core::StageId::SplitHeads, rotary, choices);
    REQUIRE(s.side.has_value());  // the turning pairs
    const std::vector<Map> maps = mapsOf(std::get<scene::Line>(s.figures.front().composition));
    REQUIRE(maps.size() == 4);
    CHECK(maps[0].tensor == TensorId::QHeadsBeforeRope);
    CHECK(maps[1].tensor == TensorId::QHeads);
    CHECK(maps[2].tensor == TensorId::KHeadsBeforeRope);
    CHECK(maps[3].tensor == TensorId::KHeads);
    for (const Map& m : maps) CHECK(m.head == 5);
    CHECK(maps[2].title == "K₁ before");  // query head 5 reads K/V head 1
    CHECK(maps[1].rangeOf == TensorId::QHeadsBeforeRope);
    REQUIRE(!s.figures.front().notes.empty());
    CHECK(s.figures.front().notes.front().text.find("offset m − n") != std::string::npos);
    // Without the step, stage 3 splits the heads as cut from Q and K, before the rotation.
    const scene::Scene split = sceneOf(core::StageId::SplitHeads, rotary);
    const auto& stack = std::get<scene::Stack>(split.figures[0].composition);
    CHECK(tile(mapsOf(stack.lines[0]), 0).tensor == TensorId::QHeadsBeforeRope);
    // A model without rotary positions has no step: the split is shown.
    const core::Trace plain = layer(8, false);
    CHECK_FALSE(scene::hasRopeStep(plain));
    CHECK(std::holds_alternative<scene::Stack>(sceneOf(core::StageId::SplitHeads, plain, choices).figures[0].composition));
}

TEST_CASE("stages 4 and 8 under GQA name K and V by the K/V head the focused query head reads") {
    const core::Trace trace = layer(2, false);
    scene::SceneChoices choices;
    choices.head = 5;
    const scene::Scene scores = sceneOf(core::StageId::Scores, trace, choices);
    CHECK(scores.figures.front().formula == "S₅ = Q₅ K₁ᵀ");
    CHECK(std::get<scene::Product>(scores.figures.front().composition).pairs[0].top.title == "K₁");
    CHECK(scores.figures.front().hint.find("Query head 5 shares K/V head 1.") != std::string::npos);
    const scene::Scene weighted = sceneOf(core::StageId::WeightedSum, trace, choices);
    CHECK(weighted.figures.front().formula == "Z₅ = A₅ V₁");
    const core::Trace multiHead = layer(8, false);
    CHECK(sceneOf(core::StageId::Scores, multiHead, choices).figures.front().formula == "S₅ = Q₅ K₅ᵀ");
}

TEST_CASE("the focused query row is outlined in S_i, A_i and the other query-row maps of stages 4-8, not elsewhere") {
    const core::Trace trace = layer(8, false);
    scene::SceneChoices choices;
    choices.focusRow = 7;
    const scene::Scene scoresScene = sceneOf(core::StageId::Scores, trace, choices);
    const auto& scores = std::get<scene::Product>(scoresScene.figures.front().composition);
    CHECK(scores.left.focusRow == 7);                  // Q_i
    CHECK(scores.pairs[0].result.focusRow == 7);       // S_i
    CHECK_FALSE(scores.pairs[0].top.focusRow.has_value());  // K_iᵀ: its rows are features
    const scene::Scene softmaxScene = sceneOf(core::StageId::Softmax, trace, choices);
    const std::vector<Map> softmax = mapsOf(std::get<scene::Line>(softmaxScene.figures.front().composition));
    CHECK(softmax.front().focusRow == 7);  // masked S_i
    CHECK(softmax.back().focusRow == 7);   // A_i
    const scene::Scene projectScene = sceneOf(core::StageId::Project, trace, choices);
    const auto& project = std::get<scene::Product>(projectScene.figures.front().composition);
    CHECK_FALSE(project.pairs[0].result.focusRow.has_value());
}

TEST_CASE("layout: stacked lines share one cell width, so K's 2 heads are drawn shorter than Q's 8 — tiles stand apart — notes go under the maps") {
    const core::Trace trace = layer(2, false);
    const scene::Scene s = sceneOf(core::StageId::SplitHeads, trace);
    const scene::Rules rules{1.0f, scene::labelSizes(13.0f, false, trace.keyLength)};
    const scene::Layout layout = scene::layoutScene(s, {0.0f, 0.0f, 1600.0f, 1000.0f}, FakeMetrics(), rules);
    REQUIRE(layout.figure == 0);  // all three lines fit with their labels
    REQUIRE(layout.maps.size() == 9 + 3 + 3);
    const auto cellWidth = [](const scene::PlacedMap& m) { return m.cells.width() / static_cast<float>(m.map.cols); };
    const scene::PlacedMap& q0 = layout.maps[1];
    const scene::PlacedMap& k0 = layout.maps[10];
    REQUIRE(q0.map.tensor == TensorId::QHeads);
    REQUIRE(k0.map.tensor == TensorId::KHeads);
    CHECK(cellWidth(k0) == doctest::Approx(cellWidth(q0)).epsilon(0.01));
    CHECK(layout.maps[11].cells.x1 < layout.maps[8].cells.x1);  // K₁ ends left of Q₇
    for (std::size_t i = 2; i <= 8; ++i) CHECK(layout.maps[i].cells.x0 - layout.maps[i - 1].cells.x1 >= rules.gap() / 2.0f - 0.01f);
    CHECK(scene::smallestTokenCell(layout) >= rules.comfortableRow());
    float mapsBottom = 0.0f;
    for (const scene::PlacedMap& m : layout.maps) mapsBottom = std::max(mapsBottom, m.cells.y1);
    int swatches = 0;
    for (const scene::PlacedText& t : layout.texts) {
        if (!t.swatch) continue;
        ++swatches;
        CHECK(t.box.y0 > mapsBottom);
        CHECK(t.swatchBox.x1 <= t.box.x0);
        CHECK(t.box.y1 <= 1000.01f);
    }
    CHECK(swatches == 2);
}

TEST_CASE("layout: a short box drops K and V before any token label is lost") {
    const core::Trace trace = layer(2, false);
    const scene::Rules rules{1.0f, scene::labelSizes(20.0f, true, trace.keyLength)};  // presenting: 14 px labels
    const scene::Layout layout = scene::layoutScene(sceneOf(core::StageId::SplitHeads, trace), {0.0f, 0.0f, 1000.0f, 420.0f}, FakeMetrics(), rules);
    CHECK(layout.figure > 0);
    CHECK(scene::smallestTokenCell(layout) >= rules.labelledCell());
}

TEST_CASE("layout: a line whose width bounds its cells keeps its token rows at the comfortable row, not a step below") {
    const core::Trace trace = layer(8, false);
    const scene::Scene concat = sceneOf(core::StageId::Concat, trace);  // Z₀ … Z₇ → Z: 96 feature columns
    const scene::Rules rules{1.0f, scene::labelSizes(13.0f, false, trace.keyLength)};
    for (float height : {330.0f, 337.3f, 351.9f, 365.1f, 402.7f}) {  // row heights off the quarter-pixel grid
        CAPTURE(height);
        const scene::Layout layout = scene::layoutScene(concat, {0.0f, 0.0f, 800.0f, height}, FakeMetrics(), rules);
        CHECK(scene::smallestTokenCell(layout) >= rules.comfortableRow() - 0.001f);
    }
}

TEST_CASE("the lecture's label floor: 14 px up to 24 tokens, then 14 x 24 / tokens, never under 9 px — away from a lecture 9 px") {
    CHECK(scene::lectureLabelFloor(1) == 14.0f);
    CHECK(scene::lectureLabelFloor(24) == 14.0f);
    CHECK(scene::lectureLabelFloor(25) == doctest::Approx(13.44).epsilon(0.001));
    CHECK(scene::lectureLabelFloor(27) == doctest::Approx(12.444).epsilon(0.001));
    CHECK(scene::lectureLabelFloor(36) == doctest::Approx(9.333).epsilon(0.001));
    CHECK(scene::lectureLabelFloor(37) == doctest::Approx(9.081).epsilon(0.001));
    CHECK(scene::lectureLabelFloor(38) == 9.0f);
    CHECK(scene::lectureLabelFloor(40) == 9.0f);
    // The rule the layout and the painters read: presenting, the tapered floor (or 70 % of large small type).
    CHECK(scene::labelSizes(13.0f, true, 24).floor == 14.0f);
    CHECK(scene::labelSizes(13.0f, true, 27).floor == doctest::Approx(12.444).epsilon(0.001));
    CHECK(scene::labelSizes(13.0f, true, 27).full == 13.0f);
    CHECK(scene::labelSizes(13.0f, true, 40).floor == doctest::Approx(9.1));  // 0.7 × 13
    CHECK(scene::labelSizes(20.0f, true, 40).floor == doctest::Approx(14.0));  // 0.7 × 20
    CHECK(scene::labelSizes(13.0f, false, 10).floor == doctest::Approx(9.1));
    CHECK(scene::labelSizes(11.0f, false, 10).floor == 9.0f);
    CHECK(scene::labelSizes(11.0f, false, 27).floor == 9.0f);
}

// The softmax stage's S and A are one line; too narrow a box for them at the label floor wraps them at the page,
// one under the other (layoutSceneKeepingLabels), which pushes A below the fold.
bool sideBySide(const scene::Layout& layout) {
    const auto cellsOf = [&](TensorId tensor) {
        for (const scene::PlacedMap& m : layout.maps) {
            if (m.map.tensor == tensor) return m.cells;
        }
        FAIL("no map of tensor " << static_cast<int>(tensor));
        return scene::Rect{};
    };
    return cellsOf(TensorId::AttentionWeights).x0 > cellsOf(TensorId::MaskedScores).x1;
}

TEST_CASE("layout: 48 tokens' S and A stand side by side from the narrowest box that holds them at the label floor") {
    const core::Trace trace = layer(8, false, 48);
    const scene::Scene softmax = sceneOf(core::StageId::Softmax, trace);
    scene::Rules rules{1.0f, scene::labelSizes(13.0f, false, 0)};
    rules.mapLabelFloor = scene::labelSizes(13.0f, false, trace.keyLength).floor;  // as the screen sets it
    std::optional<float> firstSideBySide;  // the narrowest box width laid out side by side, and its cells
    float cellThere = 0.0f;
    for (float width = 1000.0f; width <= 1200.0f; width += 0.5f) {
        CAPTURE(width);
        const scene::Layout layout = scene::layoutSceneKeepingLabels(softmax, {0.0f, 0.0f, width, 700.0f}, FakeMetrics(), rules);
        CHECK(scene::smallestTokenCell(layout) >= rules.labelledCell());
        if (!sideBySide(layout)) {
            CHECK_FALSE(firstSideBySide);  // once side by side, side by side in every wider box
        } else if (!firstSideBySide) {
            firstSideBySide = width, cellThere = scene::smallestTokenCell(layout);
        }
    }
    REQUIRE(firstSideBySide);
    INFO("side by side from " << *firstSideBySide << " px, cells " << cellThere << " px, floor " << rules.labelledCell() << " px");
    CHECK(cellThere < rules.labelledCell() + 0.01f);  // half a pixel narrower (5 thousandths of a cell less) stacked them
}

}  // namespace attnviz::test
