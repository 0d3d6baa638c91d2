// colorbar.h — the vertical color scale beside a heatmap: the colormap from hi (top) to lo (bottom), both ends
// labelled with their exact values (the range) and "nice" ticks in between; or the horizontal one under a map a
// scene puts in a line that needs its width for maps (stage 2's fused projection): lo at the left, hi at the
// right, 0 between them when it has room, as the screen draws it.
//
// Every pixel row of the bar is colormap::sample of the value at that row's centre, so the bar shows exactly
// the colors the cells use. Sizes are base pixels; drawing multiplies them by the scale.
// What this file deliberately does not do: legends for masked / NaN cells (matrix_panel.cpp) or placement.
#pragma once

#include "colormap/colormap.h"
#include "export/canvas.h"
#include "export/theme.h"

#include <string>
#include <vector>

namespace attnviz::exporting {

struct ColorbarTick {
    float value = 0.0f;
    std::string label;
};

inline constexpr int kColorbarBarWidth = 14;
inline constexpr int kColorbarMinHeight = 110;

// The ticks for a bar `height` base pixels tall: lo and hi, and interior ticks that keep clear of them.
std::vector<ColorbarTick> colorbarTicks(colormap::Range range, int height);
// Bar plus tick marks plus the widest label, in base pixels.
int colorbarWidth(colormap::Range range, int height);
// Draws at (x, y) base pixels, `height` base pixels tall.
void drawColorbar(Canvas& canvas, int x, int y, int height, int scale, colormap::Colormap map, colormap::Range range,
                  const Theme& theme);

// The horizontal bar: its height with its labels, and the least width its end labels need side by side.
int colorbarBelowHeight();
int colorbarBelowMinWidth(colormap::Range range);
// Draws the bar at (x, y) base pixels, `width` wide, its labels under it.
void drawColorbarBelow(Canvas& canvas, int x, int y, int width, int scale, colormap::Colormap map, colormap::Range range,
                       const Theme& theme);

}  // namespace attnviz::exporting
