// lesson_catalog.h — the list of question views: a key for --lesson, a short label for the "Questions" bar,
// the question as a learner asks it, the seed it comes from, and the stage of the forward pass it belongs to
// (the timeline marks that stage, and "Export…" exports it). openLesson() also makes the inputs able to
// show the lesson (a batch for padding, a decoder sentence for cross-attention) and says what it changed.
//
// What it deliberately does not do: draw (panel_lessons.cpp and lesson_*.cpp) or compute anything.
#pragma once

#include "ui/app_state.h"

#include <optional>
#include <string_view>
#include <vector>

namespace attnviz::ui {

struct LessonInfo {
    Lesson id = Lesson::None;
    std::string_view key;       // "masks": --lesson masks
    std::string_view label;     // "Masks & padding": the button in the Questions bar
    std::string_view question;  // "How do masks work on a batch, and where does NaN come from?"
    core::StageId home = core::StageId::Tokens;  // the stage the timeline marks while the lesson is open
};

// Every lesson, in the order of the Questions bar (Lesson::None excluded).
const std::vector<LessonInfo>& lessons();
// The open model fills a [MASK] (BERT's masked-word head) rather than predicting the next token.
bool fillsABlank(const AppState& state);
// The question a view asks with the open model: "What word fits the blank?" for the next-token view on a masked
// model, else info.question.
std::string_view lessonQuestion(const LessonInfo& info, const AppState& state);
const LessonInfo& lessonInfo(Lesson lesson);
std::optional<Lesson> findLesson(std::string_view key);
// "masks, cross, …": for error messages and --help.
std::string lessonKeys();

// Opens `lesson`: moves the timeline to its home stage and adapts the inputs where the lesson could not show
// anything otherwise; AppState::lesson.setupNote says what changed. Opening the open lesson again closes it.
void openLesson(AppState& state, Lesson lesson);
void closeLesson(AppState& state);
// --lesson: opens `lesson` on the start's inputs; closing it stays on the stage it belongs to (the start's stage 0
// was never the user's).
void openLessonAtStart(AppState& state, Lesson lesson);
// Only the input changes of opening `lesson` (its button "Add a decoder sentence" …), noted in setupNote.
void prepareLesson(AppState& state, Lesson lesson);

// Example sentences the lessons add, shorter than the default sentence so padding shows.
inline constexpr std::string_view kShortSentences[] = {"The street was wide", "It was tired"};
// A decoder sentence for cross-attention: the default sentence in German.
inline constexpr std::string_view kDecoderSentence = "Das Tier überquerte die Straße nicht, weil es zu müde war";

}  // namespace attnviz::ui
