// test_map_outlines.cpp — a map's outlines described once (scene/map_outlines.h) for the screen's maps and the
// exported panels: a head's tile framed just outside its cells (no cell loses a pixel), the focused query row's
// orange straddling the row's edge over a dark rim; and an exported panel painting exactly those pixels, as the
// screen's heatmap view plays the same strokes (ui/views/drawing_player.h puts a stroke's outer edge on its rectangle).
#include "colormap/head_colors.h"
#include "export/matrix_panel.h"
#include "export/theme.h"
#include "scene/map_outlines.h"

#include <doctest/doctest.h>

#include <vector>

namespace attnviz::test {
namespace {

void checkStroke(const scene::Drawing::Stroke& stroke, scene::PixelRect rect, int thickness) {
    CHECK(stroke.rect.x == rect.x);
    CHECK(stroke.rect.y == rect.y);
    CHECK(stroke.rect.width == rect.width);
    CHECK(stroke.rect.height == rect.height);
    CHECK(stroke.thickness == thickness);
}

constexpr scene::Rgba8 kOrange{colormap::kFocusRowColor.r, colormap::kFocusRowColor.g, colormap::kFocusRowColor.b, 255};

}  // namespace

TEST_CASE("map outlines: the frame just outside the cells, the focus row's orange across its edge over a dark rim") {
    const scene::Rgba8 teal{0, 128, 128, 255};
    // 60 × 40 pixels of cells in 4 rows of 10, row 1 followed.
    scene::MapOutlineSpec spec{{10, 20, 60, 40}, 4, 1, teal};
    const std::vector<scene::Drawing::Stroke> strokes = scene::mapOutlines(spec);
    REQUIRE(strokes.size() == 3);
    checkStroke(strokes[0], {8, 18, 64, 44}, 2);  // the frame: x 8, 9 outside the cells at 10
    CHECK(strokes[0].color == teal);
    checkStroke(strokes[1], {8, 28, 64, 14}, 4);  // the rim: y 28 … 31 around the row's top edge at 30
    CHECK(strokes[1].color == scene::kFocusRim);
    checkStroke(strokes[2], {9, 29, 62, 12}, 2);  // the orange: y 29 (outside), 30 (the row's first)
    CHECK(strokes[2].color == kOrange);

    spec.emphasized = true;
    spec.unit = 2;
    spec.focusRow = 4;  // beyond the rows: no outline
    const std::vector<scene::Drawing::Stroke> emphasized = scene::mapOutlines(spec);
    REQUIRE(emphasized.size() == 1);
    checkStroke(emphasized[0], {2, 12, 76, 56}, 8);
    spec.frame.reset();
    CHECK(scene::mapOutlines(spec).empty());
}

TEST_CASE("an exported panel frames a head's tile outside its cells and outlines the focus row as the screen does") {
    exporting::PanelContent content;
    content.title = "A";
    content.values = core::Matrix::Constant(4, 5, 0.5f);
    content.rows.labels = {"a", "b", "c", "d"};
    content.cols.labels = {"0", "1", "2", "3", "4"};
    content.range = {0.0f, 1.0f};
    content.frameColour = 3;
    content.focusRow = 1;
    const exporting::MatrixPanel panel(content, {});
    exporting::Canvas canvas(panel.width(), panel.height(), {255, 255, 255, 255});
    const exporting::HeatmapPlacement placed = panel.draw(canvas, 0, 0, 1, exporting::themeFor(exporting::Background::Light));
    const scene::PixelRect& cells = placed.rect;
    const scene::Rgba8 frame = exporting::opaque(colormap::headColor(3));
    const int middle = cells.x + cells.width / 2, lastRow = cells.bottom() - placed.cellHeight / 2;
    const scene::Rgba8 cell = canvas.pixel(middle, lastRow);  // a cell far from every outline

    CHECK(canvas.pixel(cells.x - 1, lastRow) == frame);  // outside the cells, on every side
    CHECK(canvas.pixel(cells.x - 2, lastRow) == frame);
    CHECK(canvas.pixel(cells.right(), lastRow) == frame);
    CHECK(canvas.pixel(cells.x + 1, cells.bottom()) == frame);
    CHECK(canvas.pixel(cells.x, lastRow) == cell);  // the edge cells keep their colour (the frame covered them)
    CHECK(canvas.pixel(cells.right() - 1, lastRow) == cell);

    const int rowTop = cells.y + placed.cellHeight;
    CHECK(canvas.pixel(middle, rowTop - 2) == scene::kFocusRim);
    CHECK(canvas.pixel(middle, rowTop - 1) == kOrange);
    CHECK(canvas.pixel(middle, rowTop) == kOrange);
    CHECK(canvas.pixel(middle, rowTop + 1) == scene::kFocusRim);
    CHECK(canvas.pixel(middle, rowTop + 2) == cell);
}

}  // namespace attnviz::test
