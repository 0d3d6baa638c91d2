// gui_style.h — the look of the window: ImGui's light style adjusted for a projector, the UI scale and the body
// text size, as a pure function of what the look depends on (zoom step, presenting, the question view, the
// framebuffer's height, the monitor's content scale). Nothing accumulates: every change rebuilds the style from
// ImGui's defaults, so any sequence of F5 / Esc / Ctrl+= / Ctrl+− / Ctrl+0 / resizes that ends in one state gives
// the look a fresh start in that state gives.
// gui_main applies it at startup and whenever an input changes; bench/bench_gui applies the same, so its frames
// cost what the app's cost. Does not load fonts (gui_fonts.h) or ask GLFW for the content scale (gui_main does).
#pragma once

#include "ui/app_state.h"

#include <imgui.h>

#include <optional>

namespace attnviz::app {

inline constexpr float kBaseFontSize = 16.0f;  // body text at content scale 1: readable on a projector

// ImGui's light style with rounded frames, visible input borders and white panels, every size × `scale`, built
// from ImGui's defaults (never from the current style).
ImGuiStyle projectorStyle(float scale);

// ImGui::GetStyle() = projectorStyle(scale).
void styleForProjector(float scale);

// What the look depends on, and nothing else.
struct LookInputs {
    float zoom = 1.0f;                // the user's step of ui::kZoomSteps
    bool presenting = false;          // F5
    bool questionView = false;        // a question view is open (presenting boosts it less)
    float framebufferHeight = 800.0f; // pixels
    float contentScale = 1.0f;        // the monitor's, 1 … 4

    bool operator==(const LookInputs&) const = default;
};

LookInputs lookInputsOf(const ui::AppState& state, float framebufferHeight, float contentScale);

// The look for some inputs: the UI scale the panels get, the body text size, the style.
struct Look {
    float scale = 1.0f;
    float fontPixels = kBaseFontSize;
    ImGuiStyle style;
};
Look lookFor(const LookInputs& inputs);

// Keeps a style (ImGui::GetStyle() in the window) on the look of the latest inputs, rebuilt whole at every
// change. follow() returns true when the inputs changed: the caller then resizes the fonts to look().fontPixels.
class LookKeeper {
public:
    explicit LookKeeper(ImGuiStyle& style) : style_(style) {}
    bool follow(const LookInputs& inputs);
    const Look& look() const { return look_; }

private:
    ImGuiStyle& style_;
    std::optional<LookInputs> inputs_;
    Look look_;
};

}  // namespace attnviz::app
