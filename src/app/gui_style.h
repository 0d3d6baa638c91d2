// gui_style.h — the look of the window: ImGui's light style adjusted for a projector, and the body text size.
// gui_main applies it at startup; bench/bench_gui applies the same, so its frames cost what the app's cost.
// Does not load fonts (gui_fonts.h) or decide the content scale (gui_main asks GLFW).
#pragma once

namespace attnviz::app {

inline constexpr float kBaseFontSize = 16.0f;  // body text at content scale 1: readable on a projector

// ImGui's light style with rounded frames, visible input borders and white panels, every size × `scale`.
void styleForProjector(float scale);

}  // namespace attnviz::app
