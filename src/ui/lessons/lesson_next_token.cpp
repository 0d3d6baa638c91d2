// lesson_next_token.cpp — "What does the model predict next?": the open model's prediction drawn large enough to
// present (presenting hides the right panel, where it otherwise lives). A decoder: the ten most likely next tokens
// with their probabilities, the temperature, Append, and the KV cache growing by one row a token; BERT with a
// masked-word head: "What word fits the blank?", opened with the last content word behind [MASK] (any word can be
// hidden instead) and one click to open a decoder; a model without a head and the seeded layer: why nothing is
// predicted.
//
// What it deliberately does not do: compute logits or hold the cache. It draws the app's PredictionPanel (the same
// cache and choices as the right panel, which gives way while this view is open) under a paragraph saying where
// the numbers come from.
#include "ui/lessons/lesson_views.h"
#include "core/display_text.h"
#include "ui/panels/panel_prediction.h"

#include "core/transformer/prediction.h"
#include "core/transformer/prediction_words.h"
#include "ui/widgets/widget_label.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace attnviz::ui {
namespace {

// Where the bars come from (the sentence the exported figure writes too), then what the view lets one do.
std::string explanation(const core::TrainedModel& model, core::PredictionKind kind) {
    if (kind == core::PredictionKind::MaskedWord) {
        return core::predictionSource(model) + " It fills a blank from both sides; it does not predict the next word. Hover another token "
                                               "to see what the head says there.";
    }
    return core::predictionSource(model) + " Append adds the piece picked (the most likely, or the one clicked): the sentence grows by "
           "one token, and only that token's query row is computed, against the keys and values every layer cached.";
}

// The words of the sentence the user had (before the view hid one) as buttons; the hidden one is highlighted, a click
// hides another instead (an edit of the sentence, so Ctrl+Z puts it back). Punctuation after a word stays: "tired."
// becomes "[MASK].".
void maskAWord(LessonFrame& frame) {
    AppState& state = frame.ctx.state;
    if (state.batch < 0 || state.batch >= static_cast<int>(state.spec.sentences.size())) return;
    std::string& sentence = state.spec.sentences[static_cast<std::size_t>(state.batch)];
    const auto& before = state.lesson.returnTo;
    const bool hadIt = before && state.batch < static_cast<int>(before->spec.sentences.size());
    const std::string original = hadIt ? before->spec.sentences[static_cast<std::size_t>(state.batch)] : sentence;
    say(frame, "Click a word to hide it behind [MASK]:", Tone::Point);
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    const std::vector<core::MaskableWord> words = core::maskableWords(original);
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string text = core::labelText(original.substr(words[i].start, words[i].length));
        const std::string masked = core::withMask(original, words[i]);
        const float width = ImGui::CalcTextSize(text.c_str(), nullptr, false).x + 2.0f * ImGui::GetStyle().FramePadding.x;
        if (i > 0 && ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right) ImGui::SameLine();  // else the next line
        const bool hidden = sentence == masked;
        if (hidden) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        const bool clicked = ImGui::Button(widgetLabel(text, "word " + std::to_string(i)).c_str());
        if (hidden) ImGui::PopStyleColor();
        frame.report.buttons.push_back({text, ImGui::GetItemRectMin(), ImGui::GetItemRectMax()});
        if (clicked) sentence = masked;
    }
}

}  // namespace

void drawNextTokenLesson(LessonFrame& frame) {
    ViewContext& ctx = frame.ctx;
    const core::TrainedModel* model = ctx.run.spec.trained() ? ctx.run.spec.trained()->model.get() : nullptr;
    const core::PredictionKind kind = model ? core::predictionKind(model->transformer) : core::PredictionKind::None;
    if (model && kind != core::PredictionKind::None) say(frame, explanation(*model, kind));
    offerBundledDecoder(frame, "A decoder predicts the next token of any sentence; attnviz's own was trained on plain English.");
    if (kind == core::PredictionKind::MaskedWord) maskAWord(frame);
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
