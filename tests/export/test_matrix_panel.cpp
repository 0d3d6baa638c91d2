// test_matrix_panel.cpp — one heatmap panel drawn on its own: every cell's centre is exactly the colormap's
// color (with a non-square, asymmetric matrix, so a transposed or column-major mix-up fails), special values
// get their own colors and a legend, masked cells are grey and hatched, and scale multiplies every length.
#include "colormap/colormap.h"
#include "export/colorbar.h"
#include "export/matrix_panel.h"
#include "export/text.h"
#include "scene/axis_labels.h"
#include "scene/label_fit.h"
#include "scene/number_text.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <limits>
#include <string>
#include <variant>
#include <vector>

using namespace attnviz;
using namespace attnviz::exporting;

namespace {

PanelAxis indexAxis(int count) {
    PanelAxis axis;
    for (int i = 0; i < count; ++i) axis.labels.push_back(std::to_string(i));
    return axis;
}

PanelContent contentFor(const core::Matrix& values, colormap::Colormap map, colormap::Range range) {
    PanelContent content;
    content.title = "M_1 = test";
    content.captions = {"3 \u00D7 5"};
    content.values = values;
    content.rows = indexAxis(static_cast<int>(values.rows()));
    content.cols = indexAxis(static_cast<int>(values.cols()));
    content.map = map;
    content.range = range;
    return content;
}

PanelOptions plainCells(int cell) {
    PanelOptions options;
    options.cellWidth = cell;
    options.cellHeight = cell;
    options.cellValues = false;
    return options;
}

Rgba8 centreOf(const Canvas& canvas, const HeatmapPlacement& placed, int row, int col) {
    const PixelRect cell = placed.cell(row, col);
    return canvas.pixel(cell.x + cell.width / 2, cell.y + cell.height / 2);
}

bool canvasHas(const Canvas& canvas, Rgba8 color, PixelRect outside) {
    for (int y = 0; y < canvas.height(); ++y) {
        for (int x = 0; x < canvas.width(); ++x) {
            const bool inside = x >= outside.x && x < outside.right() && y >= outside.y && y < outside.bottom();
            if (!inside && canvas.pixel(x, y) == color) return true;
        }
    }
    return false;
}

const Theme kLight = themeFor(Background::Light);

}  // namespace

TEST_CASE("panel: each cell's centre is exactly colormap::sample of its value (3 × 5, row-major)") {
    core::Matrix values(3, 5);
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 5; ++c) values(r, c) = static_cast<float>(r * 5 + c) / 14.0f;  // all distinct
    }
    const colormap::Range range{0.0f, 1.0f};
    const MatrixPanel panel(contentFor(values, colormap::Colormap::Viridis, range), plainCells(12));
    for (int scale : {1, 3}) {
        Canvas canvas(panel.width() * scale, panel.height() * scale, kLight.background);
        const HeatmapPlacement placed = panel.draw(canvas, 0, 0, scale, kLight);
        REQUIRE(placed.rows == 3);
        REQUIRE(placed.cols == 5);
        CHECK(placed.rect.width == 5 * 12 * scale);
        CHECK(placed.rect.height == 3 * 12 * scale);
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c < 5; ++c) {
                const colormap::Rgb8 expected = colormap::sample(colormap::Colormap::Viridis, values(r, c), 0.0f, 1.0f);
                CHECK(centreOf(canvas, placed, r, c) == opaque(expected));
            }
        }
    }
}

TEST_CASE("panel: the focused row is outlined in the screen's orange — its cells keep their colours") {
    core::Matrix values(3, 5);
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 5; ++c) values(r, c) = static_cast<float>(r * 5 + c) / 14.0f;
    }
    const Rgba8 orange{215, 80, 0, 255};
    PanelContent content = contentFor(values, colormap::Colormap::Viridis, {0.0f, 1.0f});
    const MatrixPanel plain(content, plainCells(12));
    Canvas without(plain.width(), plain.height(), kLight.background);
    plain.draw(without, 0, 0, 1, kLight);
    CHECK_FALSE(canvasHas(without, orange, {0, 0, 0, 0}));
    content.focusRow = 1;
    const MatrixPanel focused(content, plainCells(12));
    for (int scale : {1, 2}) {
        Canvas canvas(focused.width() * scale, focused.height() * scale, kLight.background);
        const HeatmapPlacement placed = focused.draw(canvas, 0, 0, scale, kLight);
        const PixelRect first = placed.cell(1, 0), last = placed.cell(1, 4);
        CHECK(canvas.pixel(first.x, first.y) == orange);                      // the outline's corners span the row
        CHECK(canvas.pixel(last.right() - 1, last.bottom() - 1) == orange);
        CHECK(canvas.pixel(first.x, first.y + 2 * scale) == orange);          // 2 base pixels thick
        CHECK(canvas.pixel(first.x + 2 * scale, first.y + 2 * scale) != orange);
        CHECK(canvas.pixel(placed.cell(0, 0).x, placed.cell(0, 0).y) != orange);  // other rows are not outlined
        for (int c = 0; c < 5; ++c) CHECK(centreOf(canvas, placed, 1, c) == opaque(colormap::sample(colormap::Colormap::Viridis, values(1, c), 0.0f, 1.0f)));
        // The label left of the row is drawn in the same orange.
        CHECK(canvasHas(canvas, orange, {placed.rect.x - 2 * scale, 0, canvas.width(), canvas.height()}));
    }
}

TEST_CASE("panel: NaN and ±inf have their own colors and a legend entry each") {
    const float inf = std::numeric_limits<float>::infinity();
    core::Matrix values(2, 3);
    values << 0.5f, std::nanf(""), inf, -inf, -0.5f, 0.0f;
    const MatrixPanel panel(contentFor(values, colormap::Colormap::Coolwarm, {-1.0f, 1.0f}), plainCells(16));
    Canvas canvas(panel.width(), panel.height(), kLight.background);
    const HeatmapPlacement placed = panel.draw(canvas, 0, 0, 1, kLight);
    CHECK(centreOf(canvas, placed, 0, 1) == opaque(colormap::kNanColor));
    CHECK(centreOf(canvas, placed, 0, 2) == opaque(colormap::kPositiveInfColor));
    CHECK(centreOf(canvas, placed, 1, 0) == opaque(colormap::kNegativeInfColor));
    // The legend swatches repeat the special colors outside the heatmap.
    CHECK(canvasHas(canvas, opaque(colormap::kNanColor), placed.rect));
    CHECK(canvasHas(canvas, opaque(colormap::kNegativeInfColor), placed.rect));
}

TEST_CASE("panel: masked cells are grey with hatching — unmasked cells keep their color — legend shows it") {
    core::Matrix values(2, 2);
    values << 0.2f, -1e9f, 0.4f, 0.6f;
    PanelContent content = contentFor(values, colormap::Colormap::Coolwarm, {-1.0f, 1.0f});
    content.masked = {0, 1, 0, 0};
    content.maskedLook = MaskedLook::GreyHatched;
    content.maskedLegend = "masked (mask = 0)";
    const MatrixPanel panel(std::move(content), plainCells(20));
    Canvas canvas(panel.width(), panel.height(), kLight.background);
    const HeatmapPlacement placed = panel.draw(canvas, 0, 0, 1, kLight);
    const PixelRect masked = placed.cell(0, 1);
    int grey = 0, hatch = 0;
    for (int y = masked.y; y < masked.bottom(); ++y) {
        for (int x = masked.x; x < masked.right(); ++x) {
            const Rgba8 p = canvas.pixel(x, y);
            grey += p == opaque(colormap::kMaskedColor) ? 1 : 0;
            hatch += p == kLight.hatch ? 1 : 0;
        }
    }
    CHECK(grey > 200);
    CHECK(hatch > 40);
    CHECK(centreOf(canvas, placed, 1, 1) == opaque(colormap::sample(colormap::Colormap::Coolwarm, 0.6f, -1.0f, 1.0f)));
    CHECK(canvasHas(canvas, opaque(colormap::kMaskedColor), placed.rect));  // the legend's swatch
}

TEST_CASE("panel: titles, labels and the colorbar put ink around the heatmap") {
    core::Matrix values = core::Matrix::Random(4, 6);
    const MatrixPanel panel(contentFor(values, colormap::Colormap::Coolwarm, {-1.0f, 1.0f}), plainCells(18));
    Canvas canvas(panel.width(), panel.height(), kLight.background);
    const HeatmapPlacement placed = panel.draw(canvas, 0, 0, 1, kLight);
    const auto inkIn = [&](PixelRect area) {
        int ink = 0;
        for (int y = std::max(area.y, 0); y < std::min(area.bottom(), canvas.height()); ++y) {
            for (int x = std::max(area.x, 0); x < std::min(area.right(), canvas.width()); ++x) {
                ink += canvas.pixel(x, y) == kLight.background ? 0 : 1;
            }
        }
        return ink;
    };
    const PixelRect& h = placed.rect;
    CHECK(inkIn({0, h.y, h.x - 2, h.height}) > 20);                          // row labels
    CHECK(inkIn({h.x, h.y - 16, h.width, 14}) > 20);                         // column labels
    CHECK(inkIn({0, 0, panel.width(), h.y - 20}) > 100);                     // title and caption
    CHECK(inkIn({h.right() + 2, h.y, panel.width() - h.right() - 2, h.height}) > 200);  // colorbar and ticks
}

TEST_CASE("panel: row sums stand right of the cells, before the colorbar, and the insets say where the cells are") {
    core::Matrix values(3, 4);
    values << 0.1f, 0.2f, 0.3f, 0.4f, 0.25f, 0.25f, 0.25f, 0.25f, 1.0f, 0.0f, 0.0f, 0.0f;
    PanelContent content = contentFor(values, colormap::Colormap::Viridis, {0.0f, 1.0f});
    const MatrixPanel without(content, plainCells(18));
    content.rowSums = true;
    const MatrixPanel with(content, plainCells(18));
    CHECK(with.width() > without.width());
    const PanelInsets in = with.insets();
    CHECK(in.left == with.heatmapLeft());
    CHECK(in.top == with.heatmapTop());
    CHECK(in.left + 4 * 18 + in.right == with.width());
    CHECK(in.top + 3 * 18 + in.bottom == with.height());

    Canvas canvas(with.width(), with.height(), kLight.background);
    const HeatmapPlacement placed = with.draw(canvas, 0, 0, 1, kLight);
    int sumInk = 0;  // the sums' first digits, in the gap that is blank before the colorbar without them
    for (int y = placed.rect.y; y < placed.rect.bottom(); ++y) {
        for (int x = placed.rect.right() + 8; x < placed.rect.right() + 14; ++x) sumInk += canvas.pixel(x, y) == kLight.background ? 0 : 1;
    }
    CHECK(sumInk > 10);
}

TEST_CASE("colorbar ticks: one value reads the same on every bar (\"0\" under W^Q's step of 0.1 and X's step of 1)") {
    CHECK(scene::formatTick(0.0f, 0.1f) == "0");
    CHECK(scene::formatTick(0.0f, 1.0f) == "0");
    CHECK(scene::formatTick(-0.0f, 0.05f) == "0");
    CHECK(scene::formatTick(1.0f, 0.5f) == "1");
    CHECK(scene::formatTick(0.5f, 0.25f) == "0.5");
    CHECK(scene::formatTick(0.25f, 0.25f) == "0.25");
    CHECK(scene::formatTick(-0.1f, 0.1f) == "\u22120.1");
    CHECK(scene::formatTick(20.0f, 10.0f) == "20");
    // W^Q of a random 128-wide layer (range ±0.153) and X (range ±1.99), each bar 300 base pixels tall: their 0 ticks agree.
    const auto labelAtZero = [](colormap::Range range) {
        for (const scene::ColorbarTick& tick : scene::colorbarTicks(range, 300, kColorbarSizes, paperType())) {
            if (std::fabs(tick.value) < 1e-6f) return tick.label;
        }
        return std::string("(no tick at 0)");
    };
    CHECK(labelAtZero({-0.153f, 0.153f}) == "0");
    CHECK(labelAtZero({-1.99f, 1.99f}) == "0");
    CHECK(labelAtZero({-1.29f, 1.29f}) == "0");
}

TEST_CASE("panel: cells in halves of a base pixel are whole pixels at even scales, and refuse an odd one") {
    core::Matrix values(3, 5);
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 5; ++c) values(r, c) = static_cast<float>(r * 5 + c) / 14.0f;
    }
    PanelOptions halves = plainCells(3);  // 1.5 base pixels a cell
    halves.cellDivisions = 2;
    const MatrixPanel panel(contentFor(values, colormap::Colormap::Viridis, {0.0f, 1.0f}), halves);
    CHECK(panel.heatmapHeight() == 5);  // 3 rows of 1.5 base pixels: the room rounded up to whole base pixels
    for (int scale : {2, 4}) {
        Canvas canvas(panel.width() * scale, panel.height() * scale, kLight.background);
        const HeatmapPlacement placed = panel.draw(canvas, 0, 0, scale, kLight);
        CHECK(placed.cellWidth == 3 * scale / 2);
        CHECK(placed.rect.width == 5 * 3 * scale / 2);
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c < 5; ++c) {
                CHECK(centreOf(canvas, placed, r, c) == opaque(colormap::sample(colormap::Colormap::Viridis, values(r, c), 0.0f, 1.0f)));
            }
        }
    }
    Canvas odd(panel.width() * 3, panel.height() * 3, kLight.background);
    CHECK_THROWS_AS(panel.draw(odd, 0, 0, 3, kLight), std::invalid_argument);
}

TEST_CASE("panel: a colorbar below the cells, as the screen draws one under X in stage 2, keeps the right side free") {
    core::Matrix values(3, 40);
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 40; ++c) values(r, c) = static_cast<float>(c - 20) / 10.0f;  // −2 … 1.9
    }
    PanelOptions right = plainCells(4), below = plainCells(4), none = plainCells(4);
    below.colorbarBelow = true;
    none.colorbar = false;
    const colormap::Range range{-2.0f, 2.0f};
    const MatrixPanel atRight(contentFor(values, colormap::Colormap::Coolwarm, range), right);
    const MatrixPanel under(contentFor(values, colormap::Colormap::Coolwarm, range), below);
    const MatrixPanel without(contentFor(values, colormap::Colormap::Coolwarm, range), none);
    CHECK(under.insets().right == without.insets().right);
    CHECK(atRight.insets().right > without.insets().right + kColorbarSizes.barWidth);
    CHECK(under.insets().bottom > without.insets().bottom + 8);
    const int scale = 2;
    Canvas canvas(under.width() * scale, under.height() * scale, kLight.background);
    const HeatmapPlacement placed = under.draw(canvas, 0, 0, scale, kLight);
    // The bar's ends, a few pixels under the cells: lo's colour at the left, hi's at the right.
    const int barY = placed.rect.bottom() + 10 * scale;
    const auto near = [](Rgba8 a, colormap::Rgb8 b) { return std::abs(a.r - b.r) + std::abs(a.g - b.g) + std::abs(a.b - b.b) <= 12; };
    CHECK(near(canvas.pixel(placed.rect.x + 1, barY), colormap::sample(colormap::Colormap::Coolwarm, range.lo, range.lo, range.hi)));
    CHECK(near(canvas.pixel(placed.rect.right() - 2, barY), colormap::sample(colormap::Colormap::Coolwarm, range.hi, range.lo, range.hi)));
    std::vector<std::string> labels;
    for (const Drawing::Primitive& p : canvas.drawing().primitives) {
        if (const auto* text = std::get_if<Drawing::Text>(&p)) labels.push_back(text->utf8);
    }
    for (const char* label : {"\u22122", "0", "2"}) CHECK_MESSAGE(std::find(labels.begin(), labels.end(), label) != labels.end(), label);
}

TEST_CASE("panel: token labels follow the screen's rule (scene::fitAxisLabels) — rows of 7 base pixels keep every label at the floor") {
    // 20 tokens on 7-pixel rows: the screen's rule gives a 7 px label 0.85 of its line (6.9 px), so every row keeps
    // its label; the panel's old rule asked for 1.05 em (7.35 px) and labelled every other row.
    constexpr int kRows = 20;
    core::Matrix values = core::Matrix::Constant(kRows, 3, 0.5f);
    PanelContent content = contentFor(values, colormap::Colormap::Viridis, {0.0f, 1.0f});
    content.rows.labels.clear();
    for (int r = 0; r < kRows; ++r) content.rows.labels.push_back("w" + std::to_string(r));
    content.rows.tokens = true;
    PanelOptions options = plainCells(70);  // 7 base pixels
    options.cellDivisions = 10;
    const MatrixPanel panel(content, options);
    Canvas canvas(panel.width() * 10, panel.height() * 10, kLight.background);
    panel.draw(canvas, 0, 0, 10, kLight);
    std::vector<int> labelled;
    for (const Drawing::Primitive& primitive : canvas.drawing().primitives) {
        const auto* text = std::get_if<Drawing::Text>(&primitive);
        if (text != nullptr && text->utf8.size() > 1 && text->utf8[0] == 'w') labelled.push_back(std::stoi(text->utf8.substr(1)));
    }
    const scene::AxisLabelFit fit = scene::fitAxisLabels({kRows, 7.0f, true, false, kLabelSize, kMinAxisLabelSize});
    CHECK(fit.step == 1);
    CHECK(labelled == scene::labelledCells(kRows, fit.step));
}
