// test_cell_values.cpp — the numbers in a map's cells described once (scene/cell_values.h) for the screen's maps and
// the exported panels: one size for the map, the largest that fits its widest number with padding and a share of
// the cell's height, none under the floor; each number centred, capitals on the cell's middle, ink by contrast. And
// screen = paper: the numbers the screen prints in a scores map are the exporter's for those values.
#include "imgui_harness.h"
#include "scene/cell_values.h"
#include "scene/number_text.h"
#include "ui/views/drawing_player.h"
#include "ui/views/matrix_info.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace attnviz::test {
namespace {

// 0.5 em per character; a line 0.8 + 0.2 em.
const scene::TypeMeasure kFakeType{[](std::string_view text, float size, scene::FontFace) { return static_cast<float>(text.size()) * size * 0.5f; },
                                   0.8f, 0.2f};

}  // namespace

TEST_CASE("cell values: the largest size the widest number, the padding and the cell's height allow, none under the floor") {
    const scene::CellValueSizing sizing{24.0f, 20.0f, 11.0f, 7.0f, 0.55f, 2.0f};
    CHECK(scene::cellValueCeiling(sizing) == doctest::Approx(11.0f));  // min(11, 0.55 · 20)
    const std::vector<std::string> numbers{"0.5", "0.25"};           // 4 characters: 2 em wide at 1 em
    CHECK(scene::cellValueSize(sizing, numbers, kFakeType) == doctest::Approx(10.0f));  // (24 − 2 · 2) / 2
    const std::vector<std::string> wide{"123456"};                  // 3 em at 1 em: 20 / 3 < 7
    CHECK(scene::cellValueSize(sizing, wide, kFakeType) == 0.0f);
    CHECK(scene::cellValueCeiling({24.0f, 12.0f, 11.0f, 7.0f, 0.55f, 2.0f}) == 0.0f);  // 6.6 em: too short a cell
}

// DejaVu Sans, the screen's type: digits 0.636 em wide, the point 0.318 em.
const scene::TypeMeasure kDejaVuDigits{[](std::string_view text, float size, scene::FontFace) {
                                           float ems = 0.0f;
                                           for (char c : text) ems += c == '.' ? 0.318f : 0.636f;
                                           return ems * size;
                                       },
                                       0.93f, 0.24f};

// Issue #32: presenting at 1080p (22 px body type, 14 px label floor), the default sentence's 15 tokens drew 31.5 px
// cells whose numbers were 17.3 px, capped at 0.55 of the cell's height; 16 tokens' 29.5 px cells, 16.2 px.
TEST_CASE("cell values presenting at 1080p: 15 and 16 tokens' cells print their weights at 18 px or more") {
    for (const float cell : {31.5f, 29.5f}) {
        CAPTURE(cell);
        const float body = 22.0f / ui::kLineHeightPerEm, floor = 14.0f / ui::kLineHeightPerEm;
        const scene::CellValueSizing sizing{cell, cell, std::min(scene::kLectureValueShare * cell, 22.0f) / ui::kLineHeightPerEm, floor,
                                            scene::kLectureValueShare / ui::kLineHeightPerEm};
        const std::vector<std::string> weights{".00"};
        const float px = scene::cellValueSize(sizing, weights, kDejaVuDigits) * ui::kLineHeightPerEm;
        MESSAGE(cell << " px cells: numbers " << px << " px");
        CHECK(px >= 18.0f);
        CHECK(px <= body * ui::kLineHeightPerEm);
    }
}

TEST_CASE("cell values: centred on their cells, capitals on the middle, dark on light cells and white on dark, none where empty") {
    const scene::CellGrid grid{10.0f, 20.0f, 30.0f, 16.0f, 2, 2};
    const auto text = [](int r, int c) { return r == 1 && c == 1 ? std::string() : std::to_string(r) + std::to_string(c); };
    const auto colour = [](int r, int) { return r == 0 ? colormap::Rgb8{250, 250, 250} : colormap::Rgb8{10, 10, 40}; };
    const std::vector<scene::AxisLabel> numbers = scene::cellValues(grid, 10.0f, text, colour, kFakeType);
    REQUIRE(numbers.size() == 3);
    CHECK(numbers[1].text == "01");
    CHECK(numbers[1].x == doctest::Approx(10.0f + 30.0f + (30.0f - 10.0f) / 2.0f));
    CHECK(numbers[1].baseline == doctest::Approx(20.0f + 8.0f + scene::kCapMiddleEm * 10.0f));
    CHECK(numbers[0].color == scene::Rgba8{20, 20, 20, 235});
    CHECK(numbers[2].color == scene::Rgba8{255, 255, 255, 235});
    CHECK(scene::cellValues(grid, 0.0f, text, colour, kFakeType).empty());
}

TEST_CASE("screen = paper: the numbers the screen prints in the scores map are the exporter's (scene::formatCellValue)") {
    ImGuiHarness ui({1920.0f, 1080.0f});
    ui::AppState state = seededStageState("the animal did not cross the street", core::StageId::Scores);
    state.showSidePanel = false;
    state.spec.attention.heads = 2;
    ui::App app(std::move(state));
    drawFirstRun(ui, app);
    int maps = 0;
    for (const ui::DrawnHeatmap& drawn : app.drawnHeatmaps()) {
        if (drawn.matrix.tensor != core::TensorId::Scores || drawn.transposed || drawn.cellValues.empty()) continue;
        ++maps;
        const render::MatrixSlice values = ui::matrixSlice(*app.run(), drawn.matrix, app.state().batch);
        std::vector<std::string> paper;
        for (int r = 0; r < drawn.rows; ++r) {
            for (int c = 0; c < drawn.cols; ++c) paper.push_back(scene::formatCellValue(ui::valueAt(values, r, c)));
        }
        INFO("screen: " << drawn.cellValues.size() << " numbers, first " << (drawn.cellValues.empty() ? std::string() : drawn.cellValues.front()) << "; paper " << paper.front());
        CHECK(drawn.cellValues == paper);
        CHECK(paper.size() == 49u);
    }
    CHECK(maps > 0);
}

}  // namespace attnviz::test
