// colorbar.h — the exported figures' colour bars: scene/colorbar.h's bar (described once, as the screen draws it) at
// the figures' sizes and in the theme's ink, played on the canvas. The vertical bar stands beside a map or a grid of
// maps; the horizontal one under a map a scene puts in a line that needs its width for maps (stage 2).
// Sizes are base pixels; drawing multiplies them by the scale.
// What this file deliberately does not do: legends for masked / NaN cells (matrix_panel.cpp) or placement.
#pragma once

#include "colormap/colormap.h"
#include "export/canvas.h"
#include "export/theme.h"
#include "scene/colorbar.h"

namespace attnviz::exporting {

// The figures' bar: 14 base pixels wide (8 under a map), labels in kTickSize.
inline constexpr scene::ColorbarSizes kColorbarSizes{14, 8, 4, 3, 6, kTickSize, 50};
inline constexpr int kColorbarMinHeight = 110;

// Bar plus tick marks plus the widest label, in base pixels, for a bar `height` base pixels tall.
int colorbarWidth(colormap::Range range, int height);
// The vertical bar at (x, y) base pixels, `height` base pixels tall, as figures draw it (scene::colorbar's spec).
scene::ColorbarSpec colorbarAt(int x, int y, int height, int scale, colormap::Colormap map, colormap::Range range);
// The horizontal bar: its height with its labels, and the least width its end labels need side by side.
int colorbarBelowHeight();
int colorbarBelowMinWidth(colormap::Range range);
// The horizontal bar at (x, y) base pixels, `width` wide, its labels under it.
scene::ColorbarSpec colorbarBelowAt(int x, int y, int width, int scale, colormap::Colormap map, colormap::Range range);
// Paints a bar in the theme's ink.
void drawColorbar(Canvas& canvas, const scene::ColorbarSpec& spec, const Theme& theme);

}  // namespace attnviz::exporting
