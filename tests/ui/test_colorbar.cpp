// test_colorbar.cpp — a map's colour bar described once (scene/colorbar.h) for the screen's maps and the exported
// panels: every pixel row in its value's colour with hi on top, the frame one unit outside the bar, tick marks outside
// on the labels' side, the ends labelled with their values and nice ticks between; the exported panel plays exactly
// the scene's labels; and the screen's bar, at its own box, says what paper says at that box (screen = paper), and so
// does the legend under it (scene/legend.h).
#include "core/names.h"
#include "export/colorbar.h"
#include "export/matrix_panel.h"
#include "export/panel_content.h"
#include "export/text.h"
#include "imgui_harness.h"
#include "scene/colorbar.h"
#include "scene/legend.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

namespace attnviz::test {
namespace {

// 5 pixels per letter at 10 ems; a line 0.8 + 0.2 em.
const scene::TypeMeasure kFakeType{[](std::string_view text, float size, scene::FontFace) { return static_cast<float>(text.size()) * size * 0.5f; },
                                   0.8f, 0.2f};
const scene::ColorbarSizes kSizes{14, 8, 4, 3, 6, 10.0f};
const scene::ColorbarInk kInk{{1, 1, 1, 255}, {2, 2, 2, 255}};

scene::Rgba8 sampled(colormap::Colormap map, float value, colormap::Range range) {
    const colormap::Rgb8 c = colormap::sample(map, value, range.lo, range.hi);
    return {c.r, c.g, c.b, 255};
}

std::vector<std::string> textsOf(const std::vector<scene::AxisLabel>& labels) {
    std::vector<std::string> texts;
    for (const scene::AxisLabel& label : labels) texts.push_back(label.text);
    return texts;
}

}  // namespace

TEST_CASE("colour bar: pixel rows in their values' colours, hi on top, framed outside, ticks beside it, ends labelled") {
    const colormap::Range range{0.0f, 1.0f};
    // 200 pixels tall at (10, 20), drawn at unit 2.
    const scene::ColorbarPicture bar = scene::colorbar({colormap::Colormap::Viridis, range, 10, 20, 200, false, 2}, kSizes, kFakeType, kInk);
    CHECK(bar.bar.x == 20);
    CHECK(bar.bar.y == 40);
    CHECK(bar.bar.width == 28);
    CHECK(bar.bar.height == 400);
    REQUIRE(bar.colours.size() == 400);
    CHECK(bar.colours.front().color == sampled(colormap::Colormap::Viridis, 1.0f - 0.5f / 400.0f, range));
    CHECK(bar.colours.back().color == sampled(colormap::Colormap::Viridis, 0.5f / 400.0f, range));
    CHECK(bar.frame.rect.x == 18);
    CHECK(bar.frame.rect.height == 404);
    CHECK(bar.frame.thickness == 2);
    const std::vector<std::string> texts = textsOf(bar.labels);
    REQUIRE(texts.size() >= 3);
    CHECK(texts.front() == "1");  // range ends in three significant digits
    CHECK(texts.back() == "0");
    CHECK(texts[1] == "0.2");  // niceStep(1, 4) = 0.2: 0.2 … 0.8 between the ends, clear of them
    REQUIRE(bar.ticks.size() == bar.labels.size());
    for (std::size_t i = 0; i < bar.ticks.size(); ++i) {
        CHECK(bar.ticks[i].rect.x == bar.bar.right());  // outside the bar
        CHECK(bar.labels[i].x == doctest::Approx((10 + 14 + 4 + 3) * 2));
    }
    // Too short for two lines: hi alone.
    CHECK(textsOf(scene::colorbar({colormap::Colormap::Viridis, range, 0, 0, 15}, kSizes, kFakeType, kInk).labels) == std::vector<std::string>{"1"});
    // Under a map: lo, 0, hi left to right; 0 centred on its tick.
    const scene::ColorbarPicture below = scene::colorbar({colormap::Colormap::Coolwarm, {-2.0f, 2.0f}, 0, 0, 200, true}, kSizes, kFakeType, kInk);
    CHECK(textsOf(below.labels) == std::vector<std::string>{"\u22122", "0", "2"});
    CHECK(below.colours.size() == 200);
    CHECK(below.labels[1].x == doctest::Approx(100.0f - 2.5f));
}

TEST_CASE("an exported panel's colour bar is scene::colorbar's: the same labels, in order, in one column") {
    exporting::PanelContent content;
    content.title = "A";
    content.values = core::Matrix::Constant(12, 12, 0.25f);
    for (int i = 0; i < 12; ++i) {
        content.rows.labels.push_back(std::to_string(i));
        content.cols.labels.push_back(std::to_string(i));
    }
    content.range = {0.0f, 0.3f};
    const exporting::MatrixPanel panel(content, {});
    exporting::Canvas canvas(panel.width(), panel.height(), {255, 255, 255, 255});
    panel.draw(canvas, 0, 0, 1, exporting::themeFor(exporting::Background::Light));
    const int height = std::max(panel.heatmapHeight(), exporting::kColorbarMinHeight);
    std::vector<std::string> expected;
    for (const scene::ColorbarTick& tick : scene::colorbarTicks(content.range, height, exporting::kColorbarSizes, exporting::paperType())) {
        expected.push_back(tick.label);
    }
    REQUIRE(expected.size() >= 3);
    std::vector<std::string> played;  // the expected texts in the order the canvas recorded them
    std::vector<int> lefts;
    for (const scene::Drawing::Primitive& primitive : canvas.drawing().primitives) {
        const auto* text = std::get_if<scene::Drawing::Text>(&primitive);
        if (!text || played.size() == expected.size() || text->utf8 != expected[played.size()]) continue;
        played.push_back(text->utf8);
        lefts.push_back(text->x);
    }
    CHECK(played == expected);
    CHECK(std::count(lefts.begin(), lefts.end(), lefts.front()) == static_cast<long>(lefts.size()));
}

TEST_CASE("screen = paper: the screen's colour bar says at its box what an exported bar of that length says") {
    ImGuiHarness ui({1280.0f, 800.0f});
    ui::App app(seededStageState("the animal did not cross the street because it was too tired", core::StageId::Softmax));
    drawFirstRun(ui, app);
    int bars = 0;
    for (const ui::DrawnHeatmap& drawn : app.drawnHeatmaps()) {
        if (!drawn.colorbar) continue;
        ++bars;
        scene::ColorbarSpec paper = *drawn.colorbar;
        paper.x = paper.y = 0;
        const std::vector<std::string> onPaper = textsOf(scene::colorbar(paper, exporting::kColorbarSizes, exporting::paperType(), kInk).labels);
        CHECK(drawn.colorbarLabels == onPaper);
        CHECK(drawn.colorbarLabels.size() >= 2);
    }
    CHECK(bars > 0);
}

TEST_CASE("screen = paper: a masked map's legend on screen says what the exported panel of it says") {
    for (const core::MaskFill fill : {core::MaskFill::MinusBillion, core::MaskFill::MinusInfinity}) {
        CAPTURE(core::nameOf(fill));
        ImGuiHarness ui({1280.0f, 800.0f});
        ui::AppState state = seededStageState("the animal did not cross the street", core::StageId::Mask);
        state.spec.attention.mask = core::MaskKind::Causal;
        state.spec.attention.fill = fill;
        ui::App app(std::move(state));
        drawFirstRun(ui, app);
        REQUIRE(app.run() != nullptr);
        int legends = 0;
        for (const ui::DrawnHeatmap& drawn : app.drawnHeatmaps()) {
            if (!drawn.colorbar || drawn.matrix.source != ui::MatrixSource::Trace) continue;
            const exporting::PanelContent paper =
                exporting::panelContent(*app.run(), {drawn.matrix.tensor, drawn.matrix.head, drawn.transposed}, 0, {}, std::nullopt, false);
            CHECK(drawn.legend == scene::legendEntries(exporting::legendFacts(paper)));
            if (drawn.matrix.tensor == core::TensorId::MaskedScores) {
                ++legends;
                REQUIRE(!drawn.legend.empty());
                CHECK(drawn.legend.front().label == "masked (mask = 0): set to " + std::string(core::shownText(fill)));
                CHECK(drawn.legend.size() == 1);  // the fill is drawn grey: no −∞ swatch for it
            }
        }
        CHECK(legends > 0);
    }
}

}  // namespace attnviz::test
