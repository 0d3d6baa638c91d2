// ask_keys.cpp — ask mode's keys and toolbar toggle (see ask_state.h). While a question is open its keys come
// first: the digits pick instead of focusing heads, and → reveals instead of stepping the stages, so a presenter's
// clicker (PageDown) is enough to ask, reveal and go on to the stage.
//
// ImGui 1.86 keeps keys in io.KeysDown[] by GLFW's codes: digits and letters equal ASCII, named keys go through
// io.KeyMap (GetKeyIndex).
#include "ui/ask/ask_state.h"

#include "ui/app_state.h"
#include "ui/lessons/lesson_catalog.h"

#include <imgui.h>

#include <algorithm>
#include <iterator>

namespace attnviz::ui {
namespace {

// GLFW's codes: = (+ with Shift), −, Enter, and the keypad's −, +, Enter.
constexpr int kKeyEqual = 61, kKeyMinus = 45, kKeypadSubtract = 333, kKeypadAdd = 334, kKeypadEnter = 335;

bool pressed(ImGuiKey key) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), false); }
bool pressedKey(int key) { return ImGui::IsKeyPressed(key, false); }

void closeAsk(AskState& ask) {
    ask.open = false;
    ask.revealed = false;
    ask.picks = {};
}

void changeCount(AskState& ask, int by) {
    if (!ask.picks.picked) return;
    ask.picks.counts.resize(static_cast<std::size_t>(ask.choiceCount), 0);
    int& count = ask.picks.counts.at(static_cast<std::size_t>(*ask.picks.picked));
    count = std::max(0, count + by);
}

// After reveal, forward goes to the stage the question was about, with its head focused.
void forward(AppState& state) {
    if (!state.ask.revealed) {
        state.ask.revealed = true;
        return;
    }
    state.stage = state.ask.stage;
    state.head = state.ask.head;
    state.allHeads = false;
    closeAsk(state.ask);
}

}  // namespace

core::QuestionKind questionKindFor(core::StageId stage) {
    using core::QuestionKind;
    using core::StageId;
    switch (stage) {
        case StageId::Project:
        case StageId::Concat: return QuestionKind::Shape;
        case StageId::SplitHeads: return QuestionKind::SharedKeyValues;  // a model without shared K/V heads: the next kind
        case StageId::Scale: return QuestionKind::Scaling;
        case StageId::Output: return QuestionKind::NextToken;
        default: return QuestionKind::MostAttended;
    }
}

void toggleAsk(AppState& state) {
    if (state.ask.open) {
        closeAsk(state.ask);
        return;
    }
    closeLesson(state);
    state.autoplay = false;
    state.ask.open = true;
    state.ask.revealed = false;
    state.ask.picks = {};
    state.ask.kind = questionKindFor(state.stage);
    ++state.ask.seed;
}

bool applyAskKeys(AppState& state) {
    AskState& ask = state.ask;
    if (!ask.open) {
        if (pressedKey('Q')) toggleAsk(state);
        return false;
    }
    if (pressedKey('Q') || pressed(ImGuiKey_Escape)) {
        closeAsk(ask);
        return true;
    }
    for (int digit = 1; digit <= ask.choiceCount; ++digit) {
        if (pressedKey('0' + digit)) ask.picks.picked = digit - 1;
    }
    if (pressedKey(kKeyEqual) || pressedKey(kKeypadAdd)) changeCount(ask, 1);
    if (pressedKey(kKeyMinus) || pressedKey(kKeypadSubtract)) changeCount(ask, -1);
    if (pressedKey('N')) {  // the next kind in the table; the view skips those the run does not offer
        const auto at = std::find(std::begin(core::kQuestionKinds), std::end(core::kQuestionKinds), ask.kind);
        ask.kind = at + 1 == std::end(core::kQuestionKinds) ? core::kQuestionKinds[0] : *(at + 1);
        ask.revealed = false;
        ask.picks = {};
        ++ask.seed;
    }
    if (pressed(ImGuiKey_RightArrow) || pressed(ImGuiKey_PageDown) || pressed(ImGuiKey_Space) || pressed(ImGuiKey_Enter) || pressedKey(kKeypadEnter)) forward(state);
    return true;
}

void drawAskToggle(AppState& state) {
    const bool open = state.ask.open;
    if (open) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button("Ask (Q)")) toggleAsk(state);
    if (open) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("A question about this stage before it is shown: 1–4 choose, + / − count, → reveals");
}

}  // namespace attnviz::ui
