// drawing.h — small ImDrawList helpers the panels share: head colors, text fitted to a width, vertical text,
// the hatched "masked" swatch, contrast text on a colored cell, and Box, the rectangle layouts cut into pieces.
//
// ImGui only (no GL, no app state). Does not lay anything out: callers pass positions.
#pragma once

#include "colormap/colormap.h"

#include <imgui.h>

#include <string>
#include <vector>

namespace attnviz::ui {

// Head i's color (colormap/head_colors.h) with the given alpha (0–255).
ImU32 headColor(int head, int alpha = 255);
ImU32 toImU32(colormap::Rgb8 color, int alpha = 255);
// Black or white, whichever reads better on `background`.
ImU32 contrastText(colormap::Rgb8 background);

// `text` shortened with "…" so that it is at most `maxWidth` wide in `font` at `size` (whole code points).
std::string fitText(const std::string& text, float maxWidth, ImFont* font, float size);
// `text` wrapped at word breaks into at most two lines of `width` in `font` at `size`; a word wider than the width
// and the second line's overflow are shortened with "…" (fitText).
std::vector<std::string> wrapToTwoLines(const std::string& text, float width, ImFont* font, float size);
// Number of code points of a UTF-8 string.
int codepointCount(const std::string& text);

// Text turned 90° counter-clockwise, reading bottom to top, its first character at `bottomLeft`.
void addVerticalText(ImDrawList& list, ImFont* font, float size, ImVec2 bottomLeft, ImU32 color, const std::string& text);

// A rectangle in the masked color with diagonal stripes, as heatmap.frag draws masked cells.
void addHatchedRect(ImDrawList& list, ImVec2 min, ImVec2 max);

// A screen rectangle that the stage view and the lessons cut into rows and columns.
struct Box {
    ImVec2 min, max;
    float width() const { return max.x - min.x; }
    float height() const { return max.y - min.y; }
};
// Cuts the top `height` pixels (the left `width` pixels) off `box` and returns them.
Box takeTop(Box& box, float height);
Box takeLeft(Box& box, float width);

}  // namespace attnviz::ui
