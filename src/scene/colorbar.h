// colorbar.h — a map's colour bar, described once for the screen's maps (ui/views/heatmap_view.cpp, played by
// ui/views/drawing_player.h) and the exported panels and grids (export/colorbar.h plays it on the canvas): the
// colormap from hi (top) to lo (bottom) with both ends labelled by their exact values and "nice" ticks between
// them; or the horizontal bar under a map a scene puts in a line that needs its width for maps (stage 2's fused
// projection): lo at the left, hi at the right, 0 between them when it has room.
//
// Every pixel row (column, below) of the bar is colormap::sample of the value at its centre, so the bar shows
// exactly the colours the cells use. Tick marks stand outside the bar, on the labels' side; end labels stay within
// the bar's extent, interior ones are centred on their tick and kept clear of the ends.
// Lengths are the painter's pixels times `unit` (1 on screen, the export's scale on paper): a figure lays out at
// unit 1 and draws at its scale, every length multiplied, so a figure at scale 2 is exactly twice as large.
// What this file deliberately does not do: the masked / NaN legend or the range notes, placement beside the map
// (the screen's heatmap view and export/matrix_panel.cpp do), or painting.
#pragma once

#include "colormap/colormap.h"
#include "scene/axis_labels.h"
#include "scene/drawing.h"

#include <string>
#include <vector>

namespace attnviz::scene {

struct ColorbarTick {
    float value = 0.0f;
    std::string label;
};

// A bar's sizes in the painter's pixels at unit 1 (the export's base pixels; the screen's, scaled with its fonts).
struct ColorbarSizes {
    int barWidth = 14;        // the vertical bar's thickness
    int belowBarHeight = 8;   // the horizontal bar's thickness
    int tickLength = 4;       // a tick mark, outside the bar
    int labelGap = 3;         // from a tick's end to its label
    int belowLabelGap = 6;    // the least room between two labels under the horizontal bar
    float labelSize = 10.5f;  // ems
    int tickSpacing = 50;     // about this many pixels of bar per tick
};

struct ColorbarInk {
    Rgba8 frame, text;  // the bar's outline and ticks; the labels
};

// lo, hi and the ticks between them for a vertical bar `height` pixels (unit 1) tall. A bar too short for two
// lines keeps only hi.
std::vector<ColorbarTick> colorbarTicks(colormap::Range range, int height, const ColorbarSizes& sizes, const TypeMeasure& type);
// The vertical bar, its tick marks and its widest label side by side (unit 1).
int colorbarWidth(colormap::Range range, int height, const ColorbarSizes& sizes, const TypeMeasure& type);
// The horizontal bar with its labels under it, and the least width its end labels need side by side (unit 1).
int colorbarBelowHeight(const ColorbarSizes& sizes, const TypeMeasure& type);
int colorbarBelowMinWidth(colormap::Range range, const ColorbarSizes& sizes, const TypeMeasure& type);

// Where a bar goes, in the painter's pixels at unit 1: its top-left corner and its length (a vertical bar's height,
// a horizontal one's width).
struct ColorbarSpec {
    colormap::Colormap map = colormap::Colormap::Viridis;
    colormap::Range range;
    int x = 0, y = 0, length = 0;
    bool below = false;  // horizontal, its labels under it
    int unit = 1;
};

// A bar as primitives, in the painter's pixels times unit, in drawing order: the colour rows, the frame one unit
// outside the bar, the tick marks, the labels.
struct ColorbarPicture {
    std::vector<Drawing::Fill> colours;
    Drawing::Stroke frame;
    std::vector<Drawing::Fill> ticks;
    std::vector<AxisLabel> labels;
    PixelRect bar;  // the coloured rectangle (inside the frame)
};

ColorbarPicture colorbar(const ColorbarSpec& spec, const ColorbarSizes& sizes, const TypeMeasure& type, const ColorbarInk& ink);

}  // namespace attnviz::scene
