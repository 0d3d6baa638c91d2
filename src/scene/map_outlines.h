// map_outlines.h — the outlines a map draws over its cells, described once for the screen's maps
// (ui/views/heatmap_view.cpp, played by ui/views/drawing_player.h) and the exported panels (export/matrix_panel.cpp,
// stroked on the canvas): the frame of a head's tile in the head's colour, and the focused query row (the one the
// lecture follows) in the focus orange over a dark rim, so it shows on light and dark cells alike.
//
// The frame lies just outside the cells, kFrameWidth pixels wide (emphasized: kEmphasizedFrameWidth), so no cell
// loses a pixel of its colour. The focus row's outline straddles the row's edge: 2 pixels of orange from one pixel
// outside the row to one inside, a pixel of dark rim on either side of the orange.
// Sizes are in the painter's pixels times `unit` (1 on screen, the export's scale on paper).
#pragma once

#include "scene/drawing.h"

#include <optional>
#include <vector>

namespace attnviz::scene {

struct MapOutlineSpec {
    PixelRect cells;  // the whole map's cells
    int rows = 0;     // how many rows the cells are cut into (the focus row is one of them)
    std::optional<int> focusRow;
    std::optional<Rgba8> frame;  // a head's tile: its colour
    bool emphasized = false;     // the frame twice as wide (the head the lecture points at)
    int unit = 1;
};

inline constexpr int kFrameWidth = 2, kEmphasizedFrameWidth = 4;
inline constexpr Rgba8 kFocusRim{0, 0, 0, 255};

// The frame first, then the focus row's rim and orange (drawing order). A focus row outside 0 … rows−1: none.
std::vector<Drawing::Stroke> mapOutlines(const MapOutlineSpec& spec);

}  // namespace attnviz::scene
