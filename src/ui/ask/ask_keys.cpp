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

// The open question as the lesson records it: asked of the sentence and head on screen, its truth's place as the
// view found it in the run.
io::AskedQuestion record(const AppState& state) {
    const AskState& ask = state.ask;
    io::AskedQuestion asked{std::string(core::questionKey(ask.kind)), ask.seed, state.batch, state.head, ask.choiceCount, ask.truth, ask.picks.picked, ask.picks.counts};
    if (ask.picks.picked) return asked;
    if (ask.picks.cells && ask.truthCells) {
        for (std::uint8_t removed : ask.picks.cells->removed) asked.cells += removed != 0 ? '1' : '0';
        const core::CellScore score = core::scoreCells(*ask.truthCells, *ask.picks.cells);
        asked.answeredRight = score.right == score.total;
    } else if (ask.picks.typedRank) {
        asked.typed = ask.picks.typedRank->word;
        asked.answeredRight = ask.picks.typedRank->top();
    }
    return asked;
}

// G: the mask answered by clicking cells (the view sizes the grid to the run's), or back to the four pictures.
void toggleCells(AskState& ask) {
    if (ask.kind != core::QuestionKind::Mask) return;
    if (ask.picks.cells) {
        ask.picks.cells.reset();
        return;
    }
    ask.picks.cells = core::CellPicture{};
    ask.picks.picked.reset();
}

// Whether the lesson's newest question is the open one (asked again — same kind and seed — it is not a new one).
bool recorded(const AskState& ask) {
    return !ask.asked.empty() && ask.asked.back().seed == ask.seed && ask.asked.back().kind == core::questionKey(ask.kind);
}

void changeCount(AskState& ask, int by) {
    if (!ask.picks.picked) return;
    ask.picks.counts.resize(static_cast<std::size_t>(ask.choiceCount), 0);
    int& count = ask.picks.counts.at(static_cast<std::size_t>(*ask.picks.picked));
    count = std::max(0, count + by);
    if (ask.revealed && recorded(ask)) ask.asked.back().counts = ask.picks.counts;  // counts typed after reveal
}

// Reveal records the question in the lesson (the running score); after reveal, forward goes to the stage the
// question was about, with its head focused.
void forward(AppState& state) {
    if (!state.ask.revealed) {
        revealAsk(state);
        return;
    }
    state.stage = state.ask.stage;
    state.head = state.ask.head;
    state.allHeads = false;
    closeAsk(state.ask);
}

}  // namespace

void revealAsk(AppState& state) {
    AskState& ask = state.ask;
    if (ask.revealed) return;
    ask.revealed = true;
    if (!recorded(ask)) ask.asked.push_back(record(state));
}

std::string scoreText(const std::vector<io::AskedQuestion>& asked) {
    if (std::none_of(asked.begin(), asked.end(), [](const io::AskedQuestion& q) { return q.answered(); })) return "";
    const auto right = std::count_if(asked.begin(), asked.end(), [](const io::AskedQuestion& q) { return q.right(); });
    return "your picks: " + std::to_string(right) + " of " + std::to_string(asked.size()) + " right";
}

void pickChoice(AskState& ask, int choice) {
    ask.picks.picked = choice;
    ask.picks.typed.clear();
    ask.picks.typedRank.reset();
    ask.picks.cells.reset();
}

void clearScore(AppState& state) {
    if (state.ask.asked.empty()) return;
    state.ask.asked.clear();
    state.status = "Score cleared: Ctrl+Z brings it back.";
}

core::QuestionKind questionKindFor(core::StageId stage) {
    using core::QuestionKind;
    using core::StageId;
    switch (stage) {
        case StageId::Project:
        case StageId::Concat: return QuestionKind::Shape;
        case StageId::SplitHeads: return QuestionKind::SharedKeyValues;  // a model without shared K/V heads: the next kind
        case StageId::Scale: return QuestionKind::Scaling;
        case StageId::Output: return QuestionKind::NextToken;
        case StageId::Mask: return QuestionKind::Mask;  // a run without a mask: the next kind
        case StageId::WeightedSum: return QuestionKind::WeightedSum;
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
    for (int digit = 1; digit <= ask.choiceCount && !ask.revealed; ++digit) {  // revealed, the pick is final: the score counts it
        if (pressedKey('0' + digit)) pickChoice(ask, digit - 1);
    }
    if (pressedKey('T') && !ask.revealed && ask.kind == core::QuestionKind::NextToken) ask.focusTyped = true;
    if (pressedKey('G') && !ask.revealed) toggleCells(ask);
    if (pressed(ImGuiKey_Delete)) clearScore(state);
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

void applyClickerWhileTyping(AppState& state) {
    if (state.ask.open && !state.blanked && pressed(ImGuiKey_PageDown)) forward(state);
}

void drawAskToggle(AppState& state) {
    const bool open = state.ask.open;
    if (open) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button("Ask (Q)")) toggleAsk(state);
    if (open) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("A question about this stage before it is shown: 1–4 choose, + / − count, → reveals");
}

}  // namespace attnviz::ui
