// cell_values.h — the numbers printed in a map's cells, described once for the screen's maps
// (ui/views/heatmap_view.cpp, played by ui/views/drawing_player.h) and the exported panels
// (export/matrix_panel.cpp): one size for every cell of a map — the largest that fits the widest number in a cell
// with a little padding and stays within a share of the cell's height, at most the painter's full size — or none when
// that size is under the painter's floor (a number too small to read is worse than none); each number centred on
// its cell, capitals on the cell's middle, in dark ink on light cells and white on dark ones.
// Sizes in ems, lengths in the painter's pixels (times its unit, as the cells are given).
// What this file deliberately does not do: choose the numbers' text (each painter formats its numbers) or measure
// every cell's text (the painter passes the texts the size must fit: all of them, or the widest form).
#pragma once

#include "colormap/colormap.h"
#include "scene/axis_labels.h"

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace attnviz::scene {

struct CellValueSizing {
    float cellWidth = 0.0f, cellHeight = 0.0f;  // one cell, painter's pixels
    float full = 11.0f;                          // the size numbers never exceed (ems)
    float floor = 7.0f;                          // under this size no number is printed (ems)
    float heightShare = 0.55f;                   // a number's em at most this share of the cell's height
    float padding = 2.0f;                        // each side of the widest number, painter's pixels
};

// Presenting, the screen's numbers take at most this share of a cell's height as their line (the painter's type
// size): at 1080p, 16 tokens' 29.5 px cells print ".00" at 18.3 px and 15 tokens' 31.5 px cells at 19.5 px (0.55 gave
// 16.2 and 17.3 px: under the 18 px a back row reads); ".00" still leaves its cell a few pixels either side.
inline constexpr float kLectureValueShare = 0.62f;

// The largest size the cells' height allows (ems), or 0 when it is under the floor: no text need be measured.
float cellValueCeiling(const CellValueSizing& sizing);
// The numbers' size (ems) for cells of `sizing` holding `texts` (empty ones print nothing), or 0 when they are not
// printed.
float cellValueSize(const CellValueSizing& sizing, std::span<const std::string> texts, const TypeMeasure& type);

// The ink of a number on a cell of colour `background`: near-black on light cells, white on dark (luminance < 140).
Rgba8 cellValueInk(colormap::Rgb8 background);

// One map's numbers: rows × cols cells `cellWidth` × `cellHeight` from (x, y); textOf(r, c) empty: that cell none.
struct CellGrid {
    float x = 0.0f, y = 0.0f, cellWidth = 0.0f, cellHeight = 0.0f;
    int rows = 0, cols = 0;
};
using CellTextOf = std::function<std::string(int row, int col)>;
using CellColourOf = std::function<colormap::Rgb8(int row, int col)>;
std::vector<AxisLabel> cellValues(const CellGrid& grid, float size, const CellTextOf& textOf, const CellColourOf& colourOf, const TypeMeasure& type);

}  // namespace attnviz::scene
