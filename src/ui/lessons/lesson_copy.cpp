// lesson_copy.cpp — "How does it copy?" A random word sequence repeated twice, on attnviz's bundled decoder
// (attnviz-mini-llama) or any model whose heads.json names a previous-token head and an induction head: the
// previous-token head's off-diagonal stripe, the induction head's stripe one after the earlier copy, and the
// next-token prediction getting right on the second half by copying (accuracy on the new words vs the repeated).
// Scores as TransformerLens's head_detector defines them (core/head_measures.h). The every-layer pass and the
// prediction at every position come from the model worker (AnalysisKind::Copy, layer_analysis.h), never a frame.
//
// What it deliberately does not do: search for the heads (heads.json names them; the training script measured them).
#include "core/head_measures.h"
#include "core/transformer/transformer.h"
#include "ui/lessons/lesson_catalog.h"
#include "ui/lessons/lesson_views.h"

#include <algorithm>
#include <cstdio>

namespace attnviz::ui {
namespace {

enum Matrix { kHeadMap };

const core::NamedHead* headNamed(const core::TrainedModel& model, std::string_view fragment) {
    for (const core::NamedHead& head : model.namedHeads) {
        if (head.name.find(fragment) != std::string::npos) return &head;
    }
    return nullptr;
}

std::string percent(double share) {
    char text[16];
    std::snprintf(text, sizeof text, "%.0f %%", 100.0 * share);
    return text;
}

std::string twoDigits(double value) {
    char text[16];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

// The named head's map of the sentence on screen, from the pass over every layer: l × l.
core::Matrix headMap(const core::TransformerPass& pass, int layer, int head, int batch) {
    const core::Tensor& a = pass.attentionWeights;  // n × b × h × l × l
    return a.slice((layer * a.dim(1) + batch) * a.dim(2) + head);
}

scene::Map namedHeadMap(LessonFrame& frame, const core::NamedHead& head, const core::Matrix& values) {
    const int length = static_cast<int>(values.rows());
    const ComputedSpec spec{"layer " + std::to_string(head.layer) + " · " + withHead("A", head.head) + " · " + head.name, "l × l",
                            core::Axis::QueryTokens, core::Axis::KeyTokens, true, "",
                            std::to_string(length) + " × " + std::to_string(length)};
    return computedMap(computedMatrix(frame, kHeadMap, head.layer * 1000 + head.head, 0, spec, [&] { return values; }));
}

}  // namespace

void drawCopyLesson(LessonFrame& frame) {
    ViewContext& ctx = frame.ctx;
    const core::TrainedModel* model = ctx.run.spec.trainedModel();  // the model of the run on screen (its ids, its heads)
    if (ctx.computing && model != ctx.state.spec.trainedModel()) {
        say(frame, "Opening attnviz's own decoder…", Tone::Dim);
        return;
    }
    const core::NamedHead* previous = model ? headNamed(*model, "previous-token") : nullptr;
    const core::NamedHead* induction = model ? headNamed(*model, "induction") : nullptr;
    if (previous == nullptr || induction == nullptr) {
        if (!offerBundledDecoder(frame, "This question needs a decoder whose heads.json names a previous-token head and an induction head: "
                                        "attnviz's own decoder has both.")) {
            say(frame, "This model's heads.json names no previous-token head and induction head: open attnviz's own decoder "
                       "(the Model box) to see them.", Tone::Warning);
        }
        return;
    }
    // The every-layer pass and the prediction at every position, on the model worker ("Computing …" until then).
    const std::shared_ptr<const LayerAnalysis> analysis = trainedModelAnalysis(frame, AnalysisKind::Copy, "reads a trained decoder's heads");
    if (analysis == nullptr) return;
    const std::vector<int>& ids = shownSentenceIds(frame);
    const core::Matrix before = headMap(analysis->pass, previous->layer, previous->head, 0);  // one sentence: batch index 0
    const core::Matrix after = headMap(analysis->pass, induction->layer, induction->head, 0);
    const core::CopyAccuracy accuracy = core::copyAccuracy(ids, analysis->predicted);
    say(frame, "A sequence of random words, then the same words again. Nothing in the first half can be guessed; in the second, "
               "each next word is the one that followed this word the first time. Two heads do the copying: a previous-token head "
               "(left) writes into every token what came just before it; an induction head (right) then looks for the earlier token "
               "whose predecessor is the current token, one after the earlier copy, and brings its word forward.");
    say(frame, "Previous-token head: " + twoDigits(core::previousTokenScore(before)) + " of each row on the token before. Induction head: " +
                   twoDigits(core::inductionScore(after, ids)) + " of each repeated row on the token after its earlier copy. "
                   "Next word right: " + percent(accuracy.newTokens) + " on new words, " + percent(accuracy.repeatedTokens) +
                   " on repeated ones.",
        Tone::Point);
    if (ImGui::Button("Another random sequence")) {
        ctx.state.lesson.copySeed += 1;
        prepareLesson(ctx.state, Lesson::Copy);
    }
    ImGui::Spacing();
    const scene::Figure figure{scene::Line{{namedHeadMap(frame, *previous, before), scene::Operator{"then"}, namedHeadMap(frame, *induction, after)}},
                               "", "", {}};
    showScene(frame, {core::StageId::Softmax, {figure}, std::nullopt}, remainingBox(frame));
}

}  // namespace attnviz::ui
