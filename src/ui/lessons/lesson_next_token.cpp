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
#include <cctype>
#include <string>
#include <vector>

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

// The sentence's words as buttons; a click puts [MASK] in the word's place (an edit of the sentence, so Ctrl+Z puts
// it back). Punctuation after a word stays: "tired." becomes "[MASK].".
void maskAWord(LessonFrame& frame) {
    AppState& state = frame.ctx.state;
    if (state.batch < 0 || state.batch >= static_cast<int>(state.spec.sentences.size())) return;
    std::string& sentence = state.spec.sentences[static_cast<std::size_t>(state.batch)];
    say(frame, "Click a word to hide it behind [MASK]:", Tone::Point);
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    std::size_t start = sentence.find_first_not_of(' ');
    for (int word = 0; start != std::string::npos; ++word) {
        const std::size_t end = std::min(sentence.find(' ', start), sentence.size());
        std::size_t letters = end;
        while (letters > start && std::ispunct(static_cast<unsigned char>(sentence[letters - 1])) != 0) --letters;
        if (letters > start) {
            const std::string text = sentence.substr(start, letters - start);
            const float width = ImGui::CalcTextSize(text.c_str()).x + 2.0f * ImGui::GetStyle().FramePadding.x;
            if (word > 0 && ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right) ImGui::SameLine();  // else the next line
            ImGui::PushID(word);
            const bool clicked = ImGui::Button(text.c_str());
            ImGui::PopID();
            frame.report.buttons.push_back({text, ImGui::GetItemRectMin(), ImGui::GetItemRectMax()});
            if (clicked) {
                sentence.replace(start, letters - start, "[MASK]");
                return;
            }
        }
        start = sentence.find_first_not_of(' ', end);
    }
}

}  // namespace

void drawNextTokenLesson(LessonFrame& frame) {
    ViewContext& ctx = frame.ctx;
    const core::TrainedModel* model = ctx.run.spec.trained() ? ctx.run.spec.trained()->model.get() : nullptr;
    const core::PredictionKind kind = model ? core::predictionKind(model->transformer) : core::PredictionKind::None;
    if (model && kind != core::PredictionKind::None) say(frame, explanation(*model, kind));
    offerBundledDecoder(frame, "A decoder predicts the next token of any sentence; attnviz's own was trained on plain English.");
    const std::vector<std::string>& sentences = ctx.state.spec.sentences;
    const bool masked = ctx.state.batch >= 0 && ctx.state.batch < static_cast<int>(sentences.size()) &&
                        sentences[static_cast<std::size_t>(ctx.state.batch)].find("[MASK]") != std::string::npos;
    if (kind == core::PredictionKind::MaskedWord && !masked) maskAWord(frame);
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
