// panel_prediction.cpp — the right panel's prediction bars and KV cache. See panel_prediction.h.
//
// [SECTION] append
// [SECTION] the cache and the logits (kept between frames)
// [SECTION] drawing: the sentence row, the bars, the temperature and Append, the K/V strips
#include "ui/panels/panel_prediction.h"

#include "core/display_text.h"
#include "ui/panels/heads_off_view.h"
#include "ui/views/drawing.h"

#include "core/transformer/prediction_words.h"
#include "ui/widgets/widget_label.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

namespace attnviz::ui {
namespace {

constexpr int kTopCount = core::kShownChoices;
constexpr ImU32 kCachedColour = IM_COL32(70, 120, 180, 255);
constexpr ImU32 kNewColour = IM_COL32(235, 130, 40, 255);
constexpr ImU32 kDifferColour = IM_COL32(170, 170, 170, 255);  // rows the heads off would change: kept with every head on
constexpr ImU32 kBarColour = IM_COL32(70, 120, 180, 110);
constexpr float kCacheShare = 0.36f;  // of the panel's width: the K/V strips beside the bars

}  // namespace

// [SECTION] append

bool appendToken(AppState& state, const core::ModelRun& run, int id) {
    if (!run.spec.trainedModel() || state.batch < 0 || state.batch >= static_cast<int>(state.spec.sentences.size())) return false;
    const std::string text = core::pieceText(run.spec.trainedModel()->tokenizer->pieceOf(id));
    if (text.empty()) return false;
    state.spec.sentences[static_cast<std::size_t>(state.batch)] += text;
    state.prediction.chosenId = -1;
    return true;
}

int firstLayerOff(const std::vector<core::HeadAblation>& headsOff, int layers) {
    int first = layers;
    for (const core::HeadAblation& off : headsOff) first = std::min(first, off.layer);
    return first;
}

namespace {

// "layer 2" or "layers 2 … 5".
std::string layerRange(int first, int last) {
    if (first == last) return "layer " + std::to_string(first);
    return "layers " + std::to_string(first) + " \xe2\x80\xa6 " + std::to_string(last);
}

}  // namespace

std::string headsOffCacheNote(const std::vector<core::HeadAblation>& headsOff, int layers) {
    if (headsOff.empty() || layers == 0) return "";
    const bool meaned = std::any_of(headsOff.begin(), headsOff.end(), [](const core::HeadAblation& off) { return off.mode == core::HeadOffMode::Mean; });
    const int first = firstLayerOff(headsOff, layers);
    std::string note = "Heads off are not in the cache (it runs every head)";
    if (first + 1 >= layers) {
        note += ", and change none of its rows: they act after the last layer's K and V.";
    } else {
        note += ": the rows of " + layerRange(0, first) + " are the same with them off; those of " + layerRange(first + 1, layers - 1) +
                " (grey) would differ.";
    }
    if (meaned) note += " A head replaced by its mean cannot be cached: the mean moves with every token.";
    return note;
}

// [SECTION] the cache and the logits

void PredictionPanel::computeTop(const ViewContext& ctx, int position) {
    const std::vector<int>& ids = ctx.run.tokenIds[static_cast<std::size_t>(ctx.state.batch)];
    const std::shared_ptr<const core::TrainedModel>& model = ctx.run.spec.trained()->model;
    const bool same = logitsModel_ == model && logitsHeadsOff_ == ctx.run.spec.headsOff && logitsIds_ == ids && position_ == position;
    if (!same) {
        logitsModel_ = model;
        logitsHeadsOff_ = ctx.run.spec.headsOff;
        logitsIds_ = ids;
        position_ = position;
        logits_ = core::predictionLogits(model->transformer, *ctx.run.modelPass, ctx.state.batch, position);
        topTemperature_ = 0.0f;
    }
    const float temperature = std::clamp(ctx.state.prediction.temperature, core::kMinTemperature, core::kMaxTemperature);
    if (topTemperature_ != temperature) {
        top_ = core::topTokens(logits_, kTopCount, temperature);
        topTemperature_ = temperature;
    }
}

// [SECTION] drawing

void PredictionPanel::draw(ViewContext& ctx, float height) {
    const core::ModelRun& run = ctx.run;
    const std::shared_ptr<const core::TrainedModel> model = run.spec.trained() ? run.spec.trained()->model : nullptr;
    const core::PredictionKind kind = model && run.modelPass ? core::predictionKind(model->transformer) : core::PredictionKind::None;
    message_.clear();
    if (kind != core::PredictionKind::NextToken) follower_->follow(nullptr, {});  // the cache and its model go
    if (kind == core::PredictionKind::None) {
        top_.clear();
        position_ = -1;
        message_ = model ? core::whyNoPrediction(model->transformer) : core::seededPredictsNothing("File \xe2\x96\xb8 Open model");
        const float textHeight = ImGui::GetTextLineHeightWithSpacing() * 4.0f + ImGui::GetStyle().WindowPadding.y * 2.0f;
        ImGui::BeginChild("prediction", {0.0f, std::min(height, textHeight)}, true);
        ImGui::PushFont(font(ctx.fonts.bold));
        ImGui::TextUnformatted("Prediction");
        ImGui::PopFont();
        ImGui::TextWrapped("%s", core::clipped(message_).c_str());
        ImGui::EndChild();
        return;
    }
    ImGui::BeginChild("prediction", {0.0f, height}, true);
    ImGui::PushFont(font(ctx.fonts.bold));
    ImGui::TextUnformatted("Prediction");
    ImGui::PopFont();
    ImGui::SameLine();
    ImGui::TextDisabled("%s", kind == core::PredictionKind::NextToken ? "the next token · hover a token" : "a [MASK]'s fill · hover a token");
    const std::size_t batch = static_cast<std::size_t>(ctx.state.batch);
    const std::vector<int>& ids = run.tokenIds[batch];
    if (kind == core::PredictionKind::NextToken) {
        follower_->follow(model, ids);
        cacheProgress_ = follower_->progress();
    }
    drawSentence(run.tokens[batch], kind);
    const int fallback = kind == core::PredictionKind::NextToken ? static_cast<int>(ids.size()) - 1 : core::firstMaskPosition(*model->tokenizer, ids);
    const int position = hovered_.value_or(fallback);
    if (ctx.headsOff && position >= 0) ctx.headsOff->drawShift(ctx, position);
    if (position < 0) {
        top_.clear();
        position_ = -1;
        message_ = "Type [MASK] into the sentence: the masked-word head fills it with its ten most likely words.";
        ImGui::TextWrapped("%s", core::clipped(message_).c_str());
    } else if (kind != core::PredictionKind::NextToken) {
        computeTop(ctx, position);
        drawBars(ctx, *model, kind, ImGui::GetContentRegionAvail().x);
        drawChoiceControls(ctx, kind, ImGui::GetContentRegionAvail().x);
    } else {  // the bars, and beside them the cache, as tall as the bars (below them it was scrolled out of sight)
        computeTop(ctx, position);
        const float width = ImGui::GetContentRegionAvail().x, spacing = ImGui::GetStyle().ItemSpacing.x;
        const float cacheWidth = std::round(width * kCacheShare);
        const float top = ImGui::GetCursorScreenPos().y;
        ImGui::BeginGroup();
        drawBars(ctx, *model, kind, width - cacheWidth - spacing);
        ImGui::EndGroup();
        const float bottom = ImGui::GetItemRectMax().y;
        ImGui::SameLine();
        ImGui::BeginGroup();
        drawCache(cacheWidth, bottom - top, ctx.run.spec.headsOff);
        ImGui::EndGroup();
        drawChoiceControls(ctx, kind, width - cacheWidth - spacing);
    }
    ImGui::EndChild();
}

// The sentence's tokens as small boxes, wrapped; the one the bars are about is highlighted, hovering one shows its
// prediction.
void PredictionPanel::drawSentence(const std::vector<std::string>& tokens, core::PredictionKind kind) {
    std::vector<std::string> labels;
    for (const std::string& token : tokens) labels.push_back(core::labelText(token));
    float total = 0.0f;  // the boxes' width in one line: as many lines as they fill, at most three (then it scrolls)
    for (const std::string& label : labels) total += ImGui::CalcTextSize(label.c_str(), nullptr, false).x + ImGui::GetStyle().FramePadding.x * 2.0f + ImGui::GetStyle().ItemSpacing.x;
    const float lines = std::clamp(std::ceil(total / std::max(1.0f, ImGui::GetContentRegionAvail().x)), 1.0f, 3.0f);
    ImGui::BeginChild("prediction tokens", {0.0f, ImGui::GetFrameHeightWithSpacing() * lines}, false);
    std::optional<int> hoveredNow;
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const float width = ImGui::CalcTextSize(labels[i].c_str(), nullptr, false).x + ImGui::GetStyle().FramePadding.x * 2.0f;  // "##e" whole
        if (i > 0 && ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right) ImGui::SameLine();
        const bool shown = static_cast<int>(i) == position_;
        if (shown) ImGui::PushStyleColor(ImGuiCol_Button, kind == core::PredictionKind::NextToken ? kNewColour : kCachedColour);
        ImGui::PushID(static_cast<int>(i));
        ImGui::SmallButton(widgetLabel(labels[i]).c_str());
        ImGui::PopID();
        if (shown) ImGui::PopStyleColor();
        if (ImGui::IsItemHovered()) hoveredNow = static_cast<int>(i);
    }
    ImGui::EndChild();
    hovered_ = hoveredNow;
}

// Ten bars `width` wide, the probability as the bar's length; a click picks the token Append adds (after the last
// token only).
void PredictionPanel::drawBars(ViewContext& ctx, const core::TrainedModel& model, core::PredictionKind kind, float width) {
    const std::vector<int>& ids = ctx.run.tokenIds[static_cast<std::size_t>(ctx.state.batch)];
    const bool last = kind == core::PredictionKind::NextToken && position_ == static_cast<int>(ids.size()) - 1;
    int& chosen = ctx.state.prediction.chosenId;
    if (std::none_of(top_.begin(), top_.end(), [&](const core::TokenChoice& c) { return c.id == chosen; })) chosen = -1;
    const int picked = pickedToken(ctx);
    const std::string& after = ctx.run.tokens[static_cast<std::size_t>(ctx.state.batch)][static_cast<std::size_t>(position_)];
    ImGui::TextDisabled("%s %s", kind == core::PredictionKind::NextToken ? "after" : "at", after.c_str());
    ImDrawList& list = *ImGui::GetWindowDrawList();
    // A line of text a bar, taller (up to the large type's height, which the labels then take) when the panel has
    // room: the next-token view fills a projector's screen with them.
    ImFont* large = font(ctx.fonts.large);
    const float controlsHeight = 2.0f * ImGui::GetFrameHeightWithSpacing();
    const float roomy = (ImGui::GetContentRegionAvail().y - controlsHeight) / static_cast<float>(kTopCount) - ImGui::GetStyle().ItemSpacing.y;
    const float barHeight = std::floor(std::clamp(roomy, ImGui::GetTextLineHeight() + 2.0f, large->FontSize * 1.5f));
    ImFont* labelFont = barHeight >= large->FontSize + 4.0f ? large : ImGui::GetFont();
    const float textY = std::round((barHeight - labelFont->FontSize) * 0.5f);
    barHeight_ = barHeight;
    for (const core::TokenChoice& choice : top_) {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        list.AddRectFilled(at, {at.x + width * choice.probability, at.y + barHeight}, kBarColour);
        if (last && choice.id == picked) list.AddRect(at, {at.x + width, at.y + barHeight}, kNewColour, 0.0f, 0, 2.0f);
        ImGui::PushID(choice.id);
        if (ImGui::Selectable("##choice", false, 0, {width, barHeight}) && last) chosen = choice.id;
        ImGui::PopID();
        const std::string percentLabel = core::percentText(choice.probability);
        const char* percent = percentLabel.c_str();
        const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text);
        const float percentX = at.x + width - labelFont->CalcTextSizeA(labelFont->FontSize, FLT_MAX, 0.0f, percent).x - 4.0f;
        list.PushClipRect(at, {percentX - 4.0f, at.y + barHeight}, true);  // a long label stops short of the percentage
        list.AddText(labelFont, labelFont->FontSize, {at.x + 4.0f, at.y + textY}, ink, core::labelText(core::choiceLabel(*model.tokenizer, choice.id)).c_str());
        list.PopClipRect();
        list.AddText(labelFont, labelFont->FontSize, {percentX, at.y + textY}, ink, percent);
    }
}

// The token Append adds: the one clicked, else the most likely.
int PredictionPanel::pickedToken(const ViewContext& ctx) const {
    const int chosen = ctx.state.prediction.chosenId;
    return chosen >= 0 ? chosen : top_.empty() ? -1 : top_.front().id;
}

// The temperature slider (`width` / 2) and, for a decoder, Append (after the last token, once the cache holds the
// sentence).
void PredictionPanel::drawChoiceControls(ViewContext& ctx, core::PredictionKind kind, float width) {
    const std::vector<int>& ids = ctx.run.tokenIds[static_cast<std::size_t>(ctx.state.batch)];
    const bool last = kind == core::PredictionKind::NextToken && position_ == static_cast<int>(ids.size()) - 1;
    const int picked = pickedToken(ctx);
    ImGui::SetNextItemWidth(width * 0.5f);
    ImGui::SliderFloat("temperature", &ctx.state.prediction.temperature, 0.1f, 3.0f, "%.2f", ImGuiSliderFlags_Logarithmic);
    if (kind != core::PredictionKind::NextToken) return;
    ImGui::SameLine();
    const bool ready = last && !ctx.computing && cacheProgress_.caughtUp && picked >= 0;
    ImGui::BeginDisabled(!ready);
    if (ImGui::Button("Append") && !appendToken(ctx.state, ctx.run, picked)) {
        ctx.state.status = "That token is part of a character, with no text of its own to append.";
    }
    ImGui::EndDisabled();
}

// Every layer's cached K/V rows in a column `width` × `height`, one strip per layer, one cell per token: cached rows
// blue, the row the last step computed orange. The worker grows the cache one token at a time until it holds the
// sentence on screen; meanwhile a bar shows how far it got.
void PredictionPanel::drawCache(float width, float height, const std::vector<core::HeadAblation>& headsOff) {
    const KvCacheFollower::Progress& progress = cacheProgress_;
    headsOffNote_ = headsOffCacheNote(headsOff, progress.layers);
    const int firstDiffering = firstLayerOff(headsOff, progress.layers) + 1;  // the first layer whose rows differ
    const int layers = progress.layers, length = progress.length, newRow = progress.newRow;
    const float top = ImGui::GetCursorScreenPos().y;
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    ImGui::TextWrapped("KV cache: %d layers \xc3\x97 %d tokens", layers, length);
    if (!headsOffNote_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.65f, 0.35f, 0.0f, 1.0f));
        ImGui::TextWrapped("%s", headsOffNote_.c_str());
        ImGui::PopStyleColor();
    }
    if (!progress.error.empty()) {
        message_ = progress.error;
        ImGui::TextWrapped("%s", core::clipped(message_).c_str());
    } else if (!progress.caughtUp) {
        char overlay[64];
        std::snprintf(overlay, sizeof overlay, "catching up: %d of %d tokens", std::min(length, progress.target), progress.target);
        ImGui::ProgressBar(progress.target > 0 ? static_cast<float>(std::min(length, progress.target)) / static_cast<float>(progress.target) : 0.0f,
                           {width, 0.0f}, overlay);
    } else if (newRow >= 0 && length > 0) {
        ImGui::TextWrapped("The newest token computed only its own query row, against the %d cached keys and values in each layer.", newRow);
    }
    ImGui::PopTextWrapPos();
    ImDrawList& list = *ImGui::GetWindowDrawList();
    const float square = ImGui::GetTextLineHeight() * 0.7f;
    const auto legend = [&](ImU32 colour, const char* text) {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        list.AddRectFilled({at.x, at.y + 2.0f}, {at.x + square, at.y + 2.0f + square}, colour);
        ImGui::Dummy({square, square});
        ImGui::SameLine();
        ImGui::TextUnformatted(text);
    };
    legend(kCachedColour, "cached K/V rows");
    legend(kNewColour, "new row");
    if (firstDiffering < layers) legend(kDifferColour, "every head on: differs with heads off");
    if (layers == 0 || length == 0) return;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const ImVec2 avail{width, std::max(height - (at.y - top), static_cast<float>(layers))};  // at least 1 px a layer
    const float largest = std::max(10.0f, ImGui::GetTextLineHeight());  // a cell: the large view's type makes them larger
    const float rowHeight = std::clamp((avail.y - 2.0f) / static_cast<float>(layers), 1.0f, largest);
    const int shownTokens = std::min(length, static_cast<int>(avail.x / 2.0f));  // at least 2 px a token
    const float cell = std::min(largest, avail.x / static_cast<float>(std::max(shownTokens, 1)));
    const int first = length - shownTokens;
    for (int layer = 0; layer < layers; ++layer) {
        const float y = at.y + rowHeight * static_cast<float>(layer);
        for (int token = first; token < length; ++token) {
            const float x = at.x + cell * static_cast<float>(token - first);
            const float gap = cell >= 4.0f ? 1.0f : 0.0f, rowGap = rowHeight >= 4.0f ? 1.0f : 0.0f;
            const ImU32 colour = token == newRow ? kNewColour : layer >= firstDiffering ? kDifferColour : kCachedColour;
            list.AddRectFilled({x, y}, {x + cell - gap, y + rowHeight - rowGap}, colour);
        }
    }
    ImGui::Dummy({avail.x, rowHeight * static_cast<float>(layers)});
}

}  // namespace attnviz::ui
