// ask_state.h — ask mode (issue #36: the class predicts first) as plain data inside AppState (AppState::ask):
// whether a question is open, which kind, the seed that drew it, whether it is revealed, the class's picks and
// counts, and the questions revealed so far in the lesson (the running score). Keys and the toolbar toggle change it (ask_keys.cpp); the ask view draws it (ask_view.h).
//
// What it deliberately does not hold: the question itself (the ask view draws it from the run on screen and redraws
// it, clearing the picks, when that run changes) or anything of ImGui.
#pragma once

#include "core/questions.h"
#include "core/stages.h"
#include "io/session.h"
#include "scene/question_drawing.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attnviz::ui {

struct AskState {
    bool open = false;
    bool revealed = false;
    core::QuestionKind kind = core::QuestionKind::MostAttended;
    std::uint64_t seed = 0;        // questions asked so far: each opening draws other distractors and another order
    scene::QuestionPicks picks;    // the pick (1–4) and the class's counts (+/−), or a typed word or clicked cells
    bool focusTyped = false;       // T: the view puts the keyboard in the typed-word field next frame
    // The lesson's questions revealed so far (part of the session file and of undo): reveal adds the open question,
    // counts typed after reveal update it. Opening a session replaces them.
    std::vector<io::AskedQuestion> asked;
    // Written by the ask view from the question on screen, read by the keys.
    int choiceCount = 4;
    int truth = 0;                 // the truth's place among the choices (recorded at reveal, never drawn before)
    std::optional<core::CellPicture> truthCells;  // the mask question's true picture: clicked cells are scored against it
    core::StageId stage = core::StageId::Softmax;  // where → goes after reveal
    int head = 0;
};

struct AppState;  // app_state.h

// Q and the toolbar toggle: opens the question of the stage on screen (closing a question view), or closes it.
void toggleAsk(AppState& state);
// The question kind that asks about `stage` first (the ask view falls back to one the run offers).
core::QuestionKind questionKindFor(core::StageId stage);
// While a question is open: 1–4 pick, + / − change the picked choice's count, → / PageDown / Space / Enter reveal
// (then go to the stage the question is about), N asks the next kind, T types a word (the prediction), G clicks cells
// instead of the pictures (the mask), Delete clears the score, Q and Esc close. Returns whether a question was
// open (the keys were its, not the stages').
bool applyAskKeys(AppState& state);
// While a text field has the keyboard (the typed-word field), a clicker's PageDown still reveals and goes on: a
// single-line field has no use for it, and a lecturer presenting has only the clicker in hand.
void applyClickerWhileTyping(AppState& state);
// Reveals the open question and adds it to the lesson's questions (once: revealed again, it is not counted twice).
void revealAsk(AppState& state);
// The running score: the lesson's questions picked right of those revealed, "your picks: 3 of 5 right"; empty when
// none had a pick (a lecture that only counts hands keeps no score).
std::string scoreText(const std::vector<io::AskedQuestion>& asked);
// A choice picked (a digit or a click): no typed word or clicked cells beside it.
void pickChoice(AskState& ask, int choice);
// Clears the lesson's running score (its questions revealed so far): an edit Undo takes back ("Undo questions cleared").
void clearScore(AppState& state);
// The toolbar's toggle: "Ask (Q)", highlighted while a question is open.
void drawAskToggle(AppState& state);

}  // namespace attnviz::ui
