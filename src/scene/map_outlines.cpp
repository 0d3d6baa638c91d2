// map_outlines.cpp — a map's frame and focus-row outline as strokes. See map_outlines.h.
#include "scene/map_outlines.h"

#include "colormap/head_colors.h"

namespace attnviz::scene {
namespace {

PixelRect grown(const PixelRect& r, int by) { return {r.x - by, r.y - by, r.width + 2 * by, r.height + 2 * by}; }

// Row `row` of `rows` equal rows of `cells` (the last one ends on the cells' bottom edge).
PixelRect rowOf(const PixelRect& cells, int row, int rows) {
    const auto edge = [&](int r) { return cells.y + static_cast<int>(static_cast<long long>(cells.height) * r / rows); };
    return {cells.x, edge(row), cells.width, edge(row + 1) - edge(row)};
}

}  // namespace

std::vector<Drawing::Stroke> mapOutlines(const MapOutlineSpec& spec) {
    std::vector<Drawing::Stroke> strokes;
    const int u = spec.unit;
    if (spec.frame) {
        const int width = (spec.emphasized ? kEmphasizedFrameWidth : kFrameWidth) * u;
        strokes.push_back({grown(spec.cells, width), *spec.frame, width});
    }
    if (spec.focusRow && *spec.focusRow >= 0 && *spec.focusRow < spec.rows) {
        const PixelRect row = rowOf(spec.cells, *spec.focusRow, spec.rows);
        const colormap::Rgb8 focus = colormap::kFocusRowColor;
        strokes.push_back({grown(row, 2 * u), kFocusRim, 4 * u});
        strokes.push_back({grown(row, u), {focus.r, focus.g, focus.b, 255}, 2 * u});
    }
    return strokes;
}

}  // namespace attnviz::scene
