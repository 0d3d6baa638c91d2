// lesson_next_token.cpp — "What does the model predict next?": the open model's prediction drawn large enough to
// present (presenting hides the right panel, where it otherwise lives). A decoder: the ten most likely next tokens
// with their probabilities, the temperature, Append, and the KV cache growing by one row a token; BERT with a
// masked-word head: the fills of a typed [MASK]; a model without a head and the seeded layer: why nothing is predicted.
//
// What it deliberately does not do: compute logits or hold the cache. It draws the app's PredictionPanel (the same
// cache and choices as the right panel, which gives way while this view is open) under a paragraph saying where
// the numbers come from.
#include "ui/lessons/lesson_views.h"
#include "ui/panels/panel_prediction.h"

#include "core/transformer/prediction.h"
#include "core/transformer/prediction_words.h"

#include <algorithm>
#include <string>

namespace attnviz::ui {
namespace {

// Where the bars come from (the sentence the exported figure writes too), then what the view lets one do.
std::string explanation(const core::TrainedModel& model, core::PredictionKind kind) {
    if (kind == core::PredictionKind::MaskedWord) {
        return core::predictionSource(model) + " Type [MASK] into the sentence; hover another token to see what the head says there.";
    }
    return core::predictionSource(model) + " Append adds the piece picked (the most likely, or the one clicked): the sentence grows by "
           "one token, and only that token's query row is computed, against the keys and values every layer cached.";
}

}  // namespace

void drawNextTokenLesson(LessonFrame& frame) {
    ViewContext& ctx = frame.ctx;
    const core::TrainedModel* model = ctx.run.spec.trained() ? ctx.run.spec.trained()->model.get() : nullptr;
    const core::PredictionKind kind = model ? core::predictionKind(model->transformer) : core::PredictionKind::None;
    if (model && kind != core::PredictionKind::None) say(frame, explanation(*model, kind));
    ImGui::Spacing();
    if (!frame.prediction) return;
    // At least ten bars and their controls tall: on a small window the view scrolls instead of squeezing them.
    const float barsHeight = 16.0f * ImGui::GetTextLineHeightWithSpacing();
    const float height = std::max(ImGui::GetContentRegionAvail().y, barsHeight);
    frame.prediction->draw(ctx, height);
    if (!frame.prediction->message().empty()) frame.report.texts.push_back(frame.prediction->message());
    for (const core::TokenChoice& choice : frame.prediction->shown()) {
        frame.report.figures.push_back("bar of token " + std::to_string(choice.id));
    }
}

}  // namespace attnviz::ui
