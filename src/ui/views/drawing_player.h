// drawing_player.h — the screen's player of the one drawing list (scene/drawing.h): every primitive the exporters
// paint on paper (export/canvas.h, svg_painter.h, pdf_painter.h) drawn into ImGui's draw list instead, so a
// picture described once looks the same in the window and in a figure.
//
// Coordinates: the drawing's pixel (x, y) lands at origin + (x, y) on screen. Text: the drawing's em sizes become
// ImGui pixel heights (DejaVu's line is 1.164 em tall), its baselines stay where the exporters put them. Cells:
// one filled rectangle per cell (a GL texture is the heatmap view's path for large maps, fed by the same layout).
// What this file deliberately does not do: lay anything out, measure text, or handle input (widgets hit-test
// the same rectangles).
#pragma once

#include "scene/axis_labels.h"
#include "scene/drawing.h"
#include "ui/views/view_context.h"

#include <imgui.h>

namespace attnviz::ui {

// DejaVu Sans's line height (hhea ascender 1901 + descender 483 units) per em (2048 units): ImGui sizes fonts by
// line height (stbtt_ScaleForPixelHeight), the drawing list by em (stbtt_ScaleForMappingEmToPixels).
inline constexpr float kLineHeightPerEm = (1901.0f + 483.0f) / 2048.0f;
inline constexpr float kAscentPerEm = 1901.0f / 2048.0f;
inline constexpr float kDescentPerEm = 483.0f / 2048.0f;

// Plays every primitive of `drawing` in order, its background first when it is not see-through.
void playDrawing(const scene::Drawing& drawing, ImDrawList& list, ImVec2 origin, const Fonts& fonts);
// One primitive (the tests play them one by one to find each one's vertices).
void playPrimitive(const scene::Drawing::Primitive& primitive, ImDrawList& list, ImVec2 origin, const Fonts& fonts);
// Axis labels laid out in screen pixels (scene/axis_labels.h), as Text primitives.
void playLabels(const std::vector<scene::AxisLabel>& labels, ImDrawList& list, const Fonts& fonts);
// How wide the player draws `text` at `size` ems in `face`: what a layout of played text measures with.
float playedTextWidth(const Fonts& fonts, std::string_view text, float size, scene::FontFace face);
// How the player's type measures, for the scene's layouts of text on screen (playedTextWidth, DejaVu's ascent and
// descent). `fonts` must outlive the result.
scene::TypeMeasure playedType(const Fonts& fonts);

}  // namespace attnviz::ui
