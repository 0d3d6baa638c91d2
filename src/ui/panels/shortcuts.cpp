// shortcuts.cpp — the keyboard: stages, heads, autoplay, pinning, the line view, the sentence field. See panels.h.
//
// ImGui 1.86 keeps keys in io.KeysDown[] by the backend's codes: named keys go through io.KeyMap
// (GetKeyIndex), digits and letters are GLFW's codes, which equal ASCII ('1', 'A', 'L').
#include "ui/panels/panels.h"

#include "ui/ask/ask_state.h"
#include "ui/lessons/lesson_catalog.h"
#include "ui/panels/panel_compare.h"

#include <algorithm>
#include <span>

namespace attnviz::ui {
namespace {

bool pressed(ImGuiKey key) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key)); }

void setStage(AppState& state, int stage) {
    state.stage = static_cast<core::StageId>(std::clamp(stage, 0, core::kStageCount - 1));
    state.autoplayElapsed = 0.0f;
}

// GLFW's codes for the zoom keys: = (and + with Shift), −, 0, and the keypad's +, −, 0; F5.
constexpr int kKeyEqual = 61, kKeyMinus = 45, kKeyZero = 48, kKeypadZero = 320, kKeypadSubtract = 333, kKeypadAdd = 334;
constexpr int kKeyF5 = 294;

// One step a press, never repeated: ImGui's key repeat counts a key held through a slow frame (the one after F5
// rebuilds the fonts) as two presses, and a zoom step a person did not ask for is remembered at every start.
bool pressedOnce(int key) { return ImGui::IsKeyPressed(key, false); }

void zoomKeys(AppState& state) {
    if (pressedOnce(kKeyEqual) || pressedOnce(kKeypadAdd)) applyViewKey(state, ViewKey::ZoomIn);
    if (pressedOnce(kKeyMinus) || pressedOnce(kKeypadSubtract)) applyViewKey(state, ViewKey::ZoomOut);
    if (pressedOnce(kKeyZero) || pressedOnce(kKeypadZero)) applyViewKey(state, ViewKey::ActualSize);
}

bool anyKeyPressed() {
    for (int key = 0; key < IM_ARRAYSIZE(ImGui::GetIO().KeysDown); ++key) {
        if (ImGui::IsKeyPressed(key, false)) return true;
    }
    return false;
}

// Esc undoes the innermost thing on screen: a pinned cell, else an open question view, else presenting.
void escapeKey(AppState& state) {
    if (state.pinned) {
        state.pinned.reset();
    } else if (state.lesson.open != Lesson::None) {
        closeLesson(state);
    } else {
        applyViewKey(state, ViewKey::Leave);
    }
}

// Presenting: slide software's keys. Space and the clicker's keys go forward, B blanks (Esc: escapeKey).
void presentationKeys(AppState& state) {
    if (state.blanked) {  // any key brings the picture back, and does nothing else
        if (anyKeyPressed()) state.blanked = false;
        return;
    }
    if (ImGui::IsKeyPressed('B', false)) state.blanked = true;
    if (pressed(ImGuiKey_Space)) setStage(state, static_cast<int>(state.stage) + 1);
}

}  // namespace

float steppedZoom(float zoom, int direction) {
    const auto steps = std::span(kZoomSteps);
    if (direction > 0) {
        const auto next = std::upper_bound(steps.begin(), steps.end(), zoom + 0.01f);
        return next == steps.end() ? steps.back() : *next;
    }
    const auto below = std::lower_bound(steps.begin(), steps.end(), zoom - 0.01f);
    return below == steps.begin() ? steps.front() : *(below - 1);
}

void applyViewKey(AppState& state, ViewKey key) {
    switch (key) {
        case ViewKey::Present:
            state.presenting = !state.presenting;
            state.blanked = false;
            break;
        case ViewKey::Leave: state.presenting = false; break;
        case ViewKey::ZoomIn: state.zoom = steppedZoom(state.zoom, 1); break;
        case ViewKey::ZoomOut: state.zoom = steppedZoom(state.zoom, -1); break;
        case ViewKey::ActualSize: state.zoom = 1.0f; break;
    }
}

void resetToDefaults(AppState& state) {
    const AppState fresh;
    state.spec.sentences = fresh.spec.sentences;
    state.zoom = fresh.zoom;
    state.presenting = fresh.presenting;
    state.blanked = fresh.blanked;
    state.showControls = fresh.showControls;
    state.showSidePanel = fresh.showSidePanel;
    state.keepPanelsWhenNarrow = fresh.keepPanelsWhenNarrow;
    state.allHeads = fresh.allHeads;
    state.showValues = fresh.showValues;
}

void applyShortcuts(AppState& state, int heads) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl && ImGui::IsKeyPressed('L')) state.focusSentence = true;
    if (io.KeyCtrl && ImGui::IsKeyPressed('Q')) state.quitRequested = true;
    if (io.KeyCtrl) zoomKeys(state);
    if (ImGui::IsKeyPressed(kKeyF5, false)) applyViewKey(state, ViewKey::Present);
    if (io.WantTextInput && !io.KeyCtrl) applyClickerWhileTyping(state);
    if (io.WantTextInput || io.KeyCtrl) return;
    if (!state.blanked && applyAskKeys(state)) {  // an open question's keys: 1–4 pick, → and Space reveal (not the stages)
        if (state.presenting && ImGui::IsKeyPressed('B', false)) state.blanked = true;
        return;
    }
    if (state.presenting) {
        const bool wasBlanked = state.blanked;
        presentationKeys(state);
        if (wasBlanked || state.blanked) return;
    }
    const int stage = static_cast<int>(state.stage);
    // Presenter clickers send PageDown / PageUp: they step the stages like the arrow keys.
    if (pressed(ImGuiKey_LeftArrow) || pressed(ImGuiKey_PageUp)) setStage(state, stage - 1);
    if (pressed(ImGuiKey_RightArrow) || pressed(ImGuiKey_PageDown)) setStage(state, stage + 1);
    if (pressed(ImGuiKey_Home)) setStage(state, 0);
    if (pressed(ImGuiKey_End)) setStage(state, core::kStageCount - 1);
    if (pressed(ImGuiKey_Space) && !state.presenting) state.autoplay = !state.autoplay;
    if (pressed(ImGuiKey_Escape)) escapeKey(state);
    if (ImGui::IsKeyPressed('A', false)) state.allHeads = !state.allHeads;
    if (ImGui::IsKeyPressed('R', false) && state.stage == core::StageId::SplitHeads) state.ropeStep = !state.ropeStep;
    if (ImGui::IsKeyPressed('L', false)) openLesson(state, Lesson::Lines);  // the line view, presenting too; L again closes it
    if (ImGui::IsKeyPressed('P', false)) openLesson(state, Lesson::NextToken);  // the prediction, large; P again closes it
    if (ImGui::IsKeyPressed('C', false)) toggleCompare(state);  // two sentences side by side (panel_compare.h)
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
