// ask_state.h — ask mode (issue #36: the class predicts first) as plain data inside AppState (AppState::ask):
// whether a question is open, which kind, the seed that drew it, whether it is revealed, and the class's picks and
// counts. Keys and the toolbar toggle change it (ask_keys.cpp); the ask view draws it (ask_view.h).
//
// What it deliberately does not hold: the question itself (the ask view draws it from the run on screen and redraws
// it, clearing the picks, when that run changes) or anything of ImGui.
#pragma once

#include "core/questions.h"
#include "core/stages.h"
#include "scene/question_drawing.h"

#include <cstdint>

namespace attnviz::ui {

struct AskState {
    bool open = false;
    bool revealed = false;
    core::QuestionKind kind = core::QuestionKind::MostAttended;
    std::uint64_t seed = 0;        // questions asked so far: each opening draws other distractors and another order
    scene::QuestionPicks picks;    // the pick (1–4) and the class's counts (+/−)
    // Written by the ask view from the question on screen, read by the keys.
    int choiceCount = 4;
    core::StageId stage = core::StageId::Softmax;  // where → goes after reveal
    int head = 0;
};

struct AppState;  // app_state.h

// Q and the toolbar toggle: opens the question of the stage on screen (closing a question view), or closes it.
void toggleAsk(AppState& state);
// The question kind that asks about `stage` first (the ask view falls back to one the run offers).
core::QuestionKind questionKindFor(core::StageId stage);
// While a question is open: 1–4 pick, + / − change the picked choice's count, → / PageDown / Space / Enter reveal
// (then go to the stage the question is about), N asks the next kind, Q and Esc close. Returns whether a question was
// open (the keys were its, not the stages').
bool applyAskKeys(AppState& state);
// The toolbar's toggle: "Ask (Q)", highlighted while a question is open.
void drawAskToggle(AppState& state);

}  // namespace attnviz::ui
