// gui_style.cpp — the window's ImGui style, scale and text size from their inputs. See gui_style.h.
#include "app/gui_style.h"

#include <cmath>

namespace attnviz::app {

ImGuiStyle projectorStyle(float scale) {
    ImGuiStyle style;  // ImGui's defaults: what every rebuild starts from
    ImGui::StyleColorsLight(&style);
    style.FrameRounding = 4.0f;
    style.ChildRounding = 4.0f;
    style.PopupRounding = 4.0f;
    style.ItemSpacing = {8.0f, 6.0f};
    style.FrameBorderSize = 1.0f;  // inputs and checkboxes visible on the white panels
    style.Colors[ImGuiCol_WindowBg] = {0.97f, 0.97f, 0.97f, 1.0f};
    // Panels are white because the frame is cleared white (gui_frame.cpp): no child window paints a background.
    // Under llvmpipe every full-window layer ImGui blends costs about 3 ms of a 1280×800 frame (bench_gui).
    style.Colors[ImGuiCol_ChildBg] = {1.0f, 1.0f, 1.0f, 0.0f};
    style.Colors[ImGuiCol_FrameBg] = {0.94f, 0.94f, 0.94f, 1.0f};
    style.ScaleAllSizes(scale);
    return style;
}

void styleForProjector(float scale) { ImGui::GetStyle() = projectorStyle(scale); }

LookInputs lookInputsOf(const ui::AppState& state, float framebufferHeight, float contentScale) {
    return {state.zoom, state.presenting, state.lesson.open != ui::Lesson::None, framebufferHeight, contentScale};
}

Look lookFor(const LookInputs& inputs) {
    const float zoom = ui::effectiveZoom(inputs.zoom, inputs.presenting, inputs.questionView, inputs.framebufferHeight / inputs.contentScale);
    const float scale = inputs.contentScale * zoom;
    return {scale, std::round(kBaseFontSize * scale), projectorStyle(scale)};
}

bool LookKeeper::follow(const LookInputs& inputs) {
    if (inputs_ == inputs) return false;
    inputs_ = inputs;
    look_ = lookFor(inputs);
    style_ = look_.style;
    return true;
}

}  // namespace attnviz::app
