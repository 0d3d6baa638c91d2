// test_axis_labels.cpp — a map's axis labels described once (scene/axis_labels.h) for the screen's maps, the exported
// panels and the row charts: the thinning rule (every cell while cells have the room, then every 2nd, 5th, 10th …
// cell, or on head-block boundaries), the focused query always labelled, and where each label goes, in which face
// and ink; the screen's token-label room is the layout's smallest labelled cell, so a layout keeps every label.
// And the heads' blocks along an axis (scene/head_bands.h), which both painters stripe, outline and separate.
#include "scene/axis_labels.h"
#include "scene/label_fit.h"
#include "scene/head_bands.h"
#include "scene/layout.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace attnviz::test {

TEST_CASE("label thinning: 1, 2, 5, 10 … cells per label, the smallest step that gives a label its room") {
    CHECK(scene::labelStep(20, 14.0f, 14.0f) == 1);
    CHECK(scene::labelStep(20, 8.0f, 14.0f) == 2);
    CHECK(scene::labelStep(64, 4.0f, 14.0f) == 5);  // powers of two (the screen's old rule) gave 4: 0, 4, 8 …
    CHECK(scene::labelStep(512, 0.5f, 14.0f) == 50);
    CHECK(scene::labelStep(3, 0.1f, 14.0f) == 3);  // never more than the axis: its first cell keeps a label
    CHECK(scene::labelStep(0, 1.0f, 14.0f) == 1);
}

TEST_CASE("label thinning on an axis cut into head blocks: divisors of the block, then whole blocks") {
    CHECK(scene::labelStep(64, 4.0f, 14.0f, 16) == 4);   // 1, 2, 4 | 16
    CHECK(scene::labelStep(64, 1.0f, 20.0f, 16) == 32);  // 16 px short of 20: two blocks
    CHECK(scene::labelStep(48, 1.5f, 14.0f, 12) == 12);  // 6 cells (9 px) short of 14: one block (18 px)
}

TEST_CASE("a token row at the layout's smallest labelled cell keeps its label, a rounding shorter too") {
    scene::Rules rules;
    const float floor = rules.labelFloor();
    CHECK(rules.labelledCell() == doctest::Approx(scene::tokenLabelRoom(floor)));
    CHECK(scene::labelStep(20, rules.labelledCell(), scene::tokenLabelRoom(floor)) == 1);
    CHECK(scene::labelStep(20, 0.85f * floor - 0.01f, scene::tokenLabelRoom(floor)) == 1);
    CHECK(scene::labelStep(20, 0.8f * floor, scene::tokenLabelRoom(floor)) == 2);
}

TEST_CASE("one rule for every painter: token labels shrink with their cells to the floor, then thin — numbers need a line, or their width") {
    // Tokens: full size while a cell gives it 0.85 of its line, smaller down to the floor, then every step-th.
    const scene::AxisLabelFit roomy = scene::fitAxisLabels({20, 30.0f, true, false, 11.0f, 7.0f});
    CHECK(roomy.size == 11.0f);
    CHECK(roomy.step == 1);
    const scene::AxisLabelFit shrunk = scene::fitAxisLabels({20, 8.0f, true, false, 11.0f, 7.0f});
    CHECK(shrunk.size == doctest::Approx(8.0f / scene::kTokenLabelRoomPerEm));
    CHECK(shrunk.step == 1);
    CHECK(scene::fitAxisLabels({20, 7.0f, true, false, 11.0f, 7.0f}).step == 1);  // 0.85 × 1.164 × 7 − slack = 6.88
    const scene::AxisLabelFit thinned = scene::fitAxisLabels({20, 4.0f, true, false, 11.0f, 7.0f});
    CHECK(thinned.size == 7.0f);
    CHECK(thinned.step == 2);
    // The screen's layouts size type by the line: a token row at the layout's labelled cell keeps its label.
    scene::Rules rules;
    CHECK(scene::fitAxisLabels({20, rules.labelledCell(), true, false, rules.labels.full / scene::kDejaVuLinePerEm,
                                rules.labelFloor() / scene::kDejaVuLinePerEm}).step == 1);
    // Numbers keep their size: a whole line each along rows (11 em: 12.8 px), their widest and a gap across.
    CHECK(scene::fitAxisLabels({64, 12.0f, false, false, 11.0f, 7.0f}).step == 2);
    CHECK(scene::fitAxisLabels({64, 13.0f, false, false, 11.0f, 7.0f}).step == 1);
    const scene::AxisLabelFit across = scene::fitAxisLabels({64, 10.0f, false, true, 11.0f, 7.0f, 0, 14.0f});
    CHECK(across.size == 11.0f);
    CHECK(across.step == 2);  // 14 + 6 px a label
}

TEST_CASE("labelled cells: every step-th, and the focused query in its place") {
    CHECK(scene::labelledCells(7, 2) == std::vector<int>{0, 2, 4, 6});
    CHECK(scene::labelledCells(7, 2, 3) == std::vector<int>{0, 2, 3, 4, 6});
    CHECK(scene::labelledCells(7, 2, 4) == std::vector<int>{0, 2, 4, 6});
    CHECK(scene::labelledCells(7, 5, 9) == std::vector<int>{0, 5});  // a focus beyond the axis is no label
    CHECK(scene::labelledCells(0, 1, 0).empty());
}

namespace {

const scene::LabelInk kInk{{1, 1, 1, 255}, {2, 2, 2, 255}, {3, 3, 3, 255}};
// 5 pixels per letter at 10 ems, bold 6.
float fakeWidth(std::string_view text, float size, scene::FontFace face) {
    return static_cast<float>(text.size()) * size * (face == scene::FontFace::Bold ? 0.6f : 0.5f);
}
std::string word(int cell) { return "w" + std::to_string(cell); }

}  // namespace

TEST_CASE("row labels: right-aligned at the edge, capitals centred on the row, the focus bold in its ink, padding dimmed") {
    const scene::AxisLabelSpec rows{4, 1, 100.0f, 20.0f, 50.0f, 10.0f, 1, 3};
    const std::vector<scene::AxisLabel> labels = scene::rowLabels(rows, word, fakeWidth, kInk);
    REQUIRE(labels.size() == 4);
    CHECK(labels[0].x == doctest::Approx(40.0f));  // 50 − 2 letters × 5
    CHECK(labels[0].baseline == doctest::Approx(110.0f + 3.6f));
    CHECK(labels[0].color == kInk.text);
    CHECK(labels[1].face == scene::FontFace::Bold);
    CHECK(labels[1].x == doctest::Approx(38.0f));
    CHECK(labels[1].color == kInk.focus);
    CHECK(labels[3].color == kInk.padding);
    CHECK_FALSE(labels[2].upwards);
    scene::AxisLabelSpec sums = rows;
    sums.fromEdge = true;  // a column of values right of the cells: each starts at the edge
    CHECK(scene::rowLabels(sums, word, fakeWidth, kInk)[1].x == doctest::Approx(50.0f));
}

TEST_CASE("column labels: tokens upwards from the edge on their column's middle — numbers centred — empty texts skipped") {
    const scene::AxisLabelSpec tokens{3, 2, 0.0f, 10.0f, 80.0f, 10.0f, std::nullopt, 99, true};
    const std::vector<scene::AxisLabel> up = scene::columnLabels(tokens, word, fakeWidth, kInk);
    REQUIRE(up.size() == 2);  // cells 0 and 2
    CHECK(up[1].upwards);
    CHECK(up[1].x == doctest::Approx(25.0f + 3.6f));
    CHECK(up[1].baseline == doctest::Approx(80.0f));
    scene::AxisLabelSpec numbers = tokens;
    numbers.upwards = false;
    const std::vector<scene::AxisLabel> across = scene::columnLabels(numbers, [](int c) { return c == 0 ? std::string() : word(c); }, fakeWidth, kInk);
    REQUIRE(across.size() == 1);
    CHECK(across[0].x == doctest::Approx(25.0f - 5.0f));
}

TEST_CASE("head bands: blocks of the axis in head colours, the last one short, shared colours for grouped query heads") {
    const std::vector<scene::HeadBand> bands = scene::headBands(10, 4, 100.0f, 2.0f, 2);
    REQUIRE(bands.size() == 3);
    CHECK(bands[0].from == 100.0f);
    CHECK(bands[0].to == 108.0f);
    CHECK(bands[2].from == 116.0f);
    CHECK(bands[2].to == 120.0f);  // cells 8 and 9 only
    CHECK(bands[1].head == 1);
    CHECK(bands[1].colour == 0);  // heads 0 and 1 share K/V head 0's colour
    CHECK(bands[2].colour == 1);
    CHECK(scene::headBands(10, 0, 0.0f, 1.0f).empty());  // no blocks: no bands
}

}  // namespace attnviz::test
