// shortcuts.cpp — the keyboard: stages, heads, autoplay, pinning, the sentence field. See panels.h.
//
// ImGui 1.86 keeps keys in io.KeysDown[] by the backend's codes: named keys go through io.KeyMap
// (GetKeyIndex), digits and letters are GLFW's codes, which equal ASCII ('1', 'A', 'L').
#include "ui/panels/panels.h"

#include <algorithm>

namespace attnviz::ui {
namespace {

bool pressed(ImGuiKey key) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key)); }

void setStage(AppState& state, int stage) {
    state.stage = static_cast<core::StageId>(std::clamp(stage, 0, core::kStageCount - 1));
    state.autoplayElapsed = 0.0f;
}

}  // namespace

void applyShortcuts(AppState& state, int heads) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl && ImGui::IsKeyPressed('L')) state.focusSentence = true;
    if (io.KeyCtrl && ImGui::IsKeyPressed('Q')) state.quitRequested = true;
    if (io.WantTextInput || io.KeyCtrl) return;
    const int stage = static_cast<int>(state.stage);
    // Presenter clickers send PageDown / PageUp: they step the stages like the arrow keys.
    if (pressed(ImGuiKey_LeftArrow) || pressed(ImGuiKey_PageUp)) setStage(state, stage - 1);
    if (pressed(ImGuiKey_RightArrow) || pressed(ImGuiKey_PageDown)) setStage(state, stage + 1);
    if (pressed(ImGuiKey_Home)) setStage(state, 0);
    if (pressed(ImGuiKey_End)) setStage(state, core::kStageCount - 1);
    if (pressed(ImGuiKey_Space)) state.autoplay = !state.autoplay;
    if (pressed(ImGuiKey_Escape)) state.pinned.reset();
    if (ImGui::IsKeyPressed('A', false)) state.allHeads = !state.allHeads;
    for (int digit = 1; digit <= 9; ++digit) {
        if (digit <= heads && ImGui::IsKeyPressed('0' + digit, false)) {
            state.head = digit - 1;
            state.allHeads = false;
        }
    }
}

void advanceAutoplay(AppState& state, float deltaSeconds) {
    if (!state.autoplay) return;
    state.autoplayElapsed += deltaSeconds;
    if (state.autoplayElapsed < state.secondsPerStage) return;
    state.autoplayElapsed = 0.0f;
    if (static_cast<int>(state.stage) + 1 >= core::kStageCount) {
        state.autoplay = false;
        return;
    }
    state.stage = static_cast<core::StageId>(static_cast<int>(state.stage) + 1);
}

}  // namespace attnviz::ui
