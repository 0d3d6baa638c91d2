// quiz_figure.h — `attnviz export --kind quiz`: ask mode's questions as slides, so a lecture can also run from
// slides: for each question the run offers (core/questions.h) a question slide and an answer slide, 16:9 at one
// scale (kSlideWidth × kSlideHeight at scale 1). Both are the screen's picture of the question
// (scene/question_drawing.h), laid out in the slide's base pixels and played onto a Canvas kSlideZoom · scale
// times larger: the question slide without the answer (no truth marked, no gap, no why, no answer row — absent,
// not covered), the answer slide with it, in the same rectangles.
//
// What this file deliberately does not do: choose file names (export_plan.h), write files, or count a class's
// answers (slides have none: the answer slide says "The answer: …").
#pragma once

#include "core/questions.h"
#include "export/figure.h"
#include "scene/question_drawing.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace attnviz::exporting {

// The kinds a quiz asks of sentence `batch`, head `head`, in core::kQuestionKinds' order: every kind the run offers,
// or with `stage` only those whose question is about that stage.
std::vector<core::QuestionKind> quizKinds(const core::ModelRun& run, int batch, int head, std::optional<core::StageId> stage);

// Question `number` of a quiz (its seed: numbering the questions keeps the truth's places uniform over a quiz).
// Throws ExportError when the run does not offer `kind`.
core::Question quizQuestion(const core::ModelRun& run, core::QuestionKind kind, std::uint64_t number, int head, int batch);

// The question laid out on a slide, in base pixels (a slide draws them kSlideZoom · scale times larger).
scene::QuestionLayout quizLayout(const core::Question& question, bool revealed, const FigureStyle& style);

// The question slide (`revealed` false) or the answer slide.
Figure drawQuizFigure(const core::Question& question, bool revealed, const FigureStyle& style);

}  // namespace attnviz::exporting
