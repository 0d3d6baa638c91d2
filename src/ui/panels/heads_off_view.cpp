// heads_off_view.cpp — the head menu, the marks, the banner and the prediction before → after. See heads_off_view.h.
//
// [SECTION] choices
// [SECTION] marks and the menu
// [SECTION] the prediction before → after
#include "ui/panels/heads_off_view.h"

#include "core/display_text.h"
#include "core/transformer/prediction.h"
#include "core/transformer/prediction_words.h"
#include "ui/views/drawing.h"
#include "ui/views/matrix_info.h"
#include "ui/widgets/widget_label.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

namespace attnviz::ui {
namespace {

constexpr const char* kMenuId = "switch a head off";
constexpr ImU32 kMarkInk = IM_COL32(25, 25, 25, 255);       // frame, strike and badge: dark on any colormap's pale end
constexpr ImU32 kWash = IM_COL32(255, 255, 255, 150);       // pales a thumbnail whose head is off
constexpr ImU32 kBadgeText = IM_COL32(255, 255, 255, 255);
const ImVec4 kBannerInk{0.55f, 0.1f, 0.05f, 1.0f};          // the banner's "Heads off:" (dark red, legible projected)

}  // namespace

// [SECTION] choices

bool chooseHeadOff(AppState& state, int layer, int head, HeadMenuChoice choice) {
    std::vector<core::HeadAblation>& heads = state.spec.headsOff;
    switch (choice) {
        case HeadMenuChoice::Zero: return core::setHeadOff(heads, layer, head, core::HeadOffMode::Zero);
        case HeadMenuChoice::Mean: return core::setHeadOff(heads, layer, head, core::HeadOffMode::Mean);
        case HeadMenuChoice::On: return core::setHeadOff(heads, layer, head, std::nullopt);
        case HeadMenuChoice::AllOn: return !std::exchange(heads, {}).empty();
    }
    return false;
}

bool headsCanBeSwitched(const core::ModelRun& run) { return run.spec.trained() != nullptr && run.modelPass != nullptr && !run.resplitHeads; }

// [SECTION] marks and the menu

void drawHeadOffMark(ImDrawList& list, ImVec2 min, ImVec2 max, core::HeadOffMode mode, bool wash, ImFont* font) {
    if (wash) list.AddRectFilled(min, max, kWash);
    const float side = std::min(max.x - min.x, max.y - min.y);
    const float thickness = std::clamp(side * 0.04f, 2.0f, 4.0f);
    list.AddRect({min.x - 1.0f, min.y - 1.0f}, {max.x + 1.0f, max.y + 1.0f}, kMarkInk, 0.0f, 0, thickness);
    if (wash && mode == core::HeadOffMode::Zero) list.AddLine({min.x, max.y}, {max.x, min.y}, kMarkInk, thickness);
    const char* label = core::headOffLabel(mode);
    const float size = std::min(font->FontSize, std::max(side * 0.4f, 1.0f));
    const ImVec2 text = font->CalcTextSizeA(size, FLT_MAX, 0.0f, label);
    const float pad = std::round(size * 0.2f);
    if (text.x + 2.0f * pad > max.x - min.x || text.y + 2.0f * pad > max.y - min.y) return;  // the frame and strike say it
    list.AddRectFilled(min, {min.x + text.x + 2.0f * pad, min.y + text.y + 2.0f * pad}, kMarkInk);
    list.AddText(font, size, {min.x + pad, min.y + pad}, kBadgeText, label);
}

std::shared_ptr<const core::ModelRun> HeadsOffView::replaceIntact(std::shared_ptr<const core::ModelRun> intact) {
    shown_.reset();
    return std::exchange(intact_, std::move(intact));
}

void HeadsOffView::headTile(ViewContext& ctx, int layer, int head, ImVec2 min, ImVec2 max, bool wash) {
    if (!headsCanBeSwitched(ctx.run)) return;
    if (const std::optional<core::HeadOffMode> mode = core::headOffMode(ctx.run.spec.headsOff, layer, head)) {
        drawHeadOffMark(*ImGui::GetWindowDrawList(), min, max, *mode, wash, font(ctx.fonts.bold));
    }
    const bool hovered = ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem) && ImGui::IsMouseHoveringRect(min, max);
    if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Right)) requested_ = core::HeadAblation{layer, head};
}

void HeadsOffView::stageMaps(ViewContext& ctx, std::size_t firstDrawn) {
    const core::TrainedLayer* trained = ctx.run.spec.trained();
    if (!trained) return;
    for (std::size_t i = firstDrawn; i < ctx.drawn.size(); ++i) {
        const DrawnHeatmap& map = ctx.drawn[i];
        if (map.matrix.source != MatrixSource::Trace || !core::isPerHead(map.matrix.tensor)) continue;
        headTile(ctx, trained->layer, map.matrix.head, map.min, map.max, false);
    }
    if (requested_) ctx.state.status.clear();  // the cell menu's "cannot be edited" answered the same right-click
}

void HeadsOffView::drawMenu(AppState& state) {
    if (requested_) {
        menuHead_ = std::exchange(requested_, std::nullopt);
        ImGui::OpenPopup(kMenuId);
    }
    if (!menuHead_ || !ImGui::BeginPopup(kMenuId)) return;
    const int layer = menuHead_->layer, head = menuHead_->head;
    const std::optional<core::HeadOffMode> mode = core::headOffMode(state.spec.headsOff, layer, head);
    ImGui::TextDisabled("layer %d, head %d", layer, head);
    const auto item = [&](const char* label, bool checked, bool enabled, HeadMenuChoice choice) {
        if (ImGui::MenuItem(widgetLabel(label).c_str(), nullptr, checked, enabled)) chooseHeadOff(state, layer, head, choice);
    };
    item("Switch off (zero Z_i)", mode == core::HeadOffMode::Zero, true, HeadMenuChoice::Zero);
    item("Replace by its mean", mode == core::HeadOffMode::Mean, true, HeadMenuChoice::Mean);
    item("Switch on", false, mode.has_value(), HeadMenuChoice::On);
    ImGui::Separator();
    item("Switch all back on", false, !state.spec.headsOff.empty(), HeadMenuChoice::AllOn);
    ImGui::EndPopup();
}

// [SECTION] the prediction before → after

namespace {

// The position whose prediction the banner shows: a decoder's last token, BERT's first [MASK]; −1 when none.
int defaultPosition(const core::ModelRun& run, int batch) {
    const core::TrainedModel& model = *run.spec.trainedModel();
    const std::vector<int>& ids = run.tokenIds[static_cast<std::size_t>(batch)];
    const core::PredictionKind kind = core::predictionKind(model.transformer);
    if (kind == core::PredictionKind::NextToken) return static_cast<int>(ids.size()) - 1;
    if (kind == core::PredictionKind::MaskedWord) return core::firstMaskPosition(*model.tokenizer, ids);
    return -1;
}

// “word”: a token quoted, so that a fill such as "and" or "," reads as a token in the sentence around it.
std::string tokenWord(const core::TrainedModel& model, int id) {
    return "\xe2\x80\x9c" + core::labelText(core::choiceLabel(*model.tokenizer, id)) + "\xe2\x80\x9d";
}

std::string percentOf(double logProb) { return core::percentText(static_cast<float>(std::exp(logProb))); }

// "“animal” 41 % → “street” 23 %;  log p(“animal”) −0.89 → −2.31 (Δ −1.42)", or "stays “animal”: 41 % → 23 % …".
std::string shiftText(const core::TrainedModel& model, const core::PredictionShift& s) {
    const std::string before = tokenWord(model, s.beforeId);
    char numbers[160];
    std::snprintf(numbers, sizeof numbers, "log p(%s) %.2f \xe2\x86\x92 %.2f (\xce\x94 %+.2f)", before.c_str(), s.beforeLogProb, s.beforeIdAfter,
                  s.change());
    if (s.afterId == s.beforeId) {
        return "stays " + before + ": " + percentOf(s.beforeLogProb) + " \xe2\x86\x92 " + percentOf(s.afterLogProb) + ";  " + numbers;
    }
    return before + " " + percentOf(s.beforeLogProb) + " \xe2\x86\x92 " + tokenWord(model, s.afterId) + " " + percentOf(s.afterLogProb) +
           ";  " + numbers;
}

// "the [MASK] fill" or "the next token after ‹word›".
std::string predictionName(const core::ModelRun& run, int batch, int position) {
    const core::TrainedModel& model = *run.spec.trainedModel();
    if (core::predictionKind(model.transformer) == core::PredictionKind::MaskedWord) return "the [MASK] fill";
    return "the next token after \xe2\x80\x9c" + core::labelText(run.tokens[static_cast<std::size_t>(batch)][static_cast<std::size_t>(position)]) +
           "\xe2\x80\x9d";
}

}  // namespace

std::optional<core::PredictionShift> HeadsOffView::shift(const ViewContext& ctx, int position) {
    const core::ModelRun& run = ctx.run;
    const int batch = ctx.state.batch;
    if (!intact_ || run.spec.headsOff.empty() || !run.modelPass || !intact_->modelPass || position < 0) return std::nullopt;
    core::ModelSpec intactSpec = run.spec;
    intactSpec.headsOff.clear();
    if (!(intact_->spec == intactSpec)) return std::nullopt;  // the intact run of other inputs (a run still to come)
    const core::TrainedModel& model = *run.spec.trainedModel();
    if (core::predictionKind(model.transformer) == core::PredictionKind::None) return std::nullopt;
    if (shown_ && shown_->run == &run && shown_->intact == intact_.get() && shown_->batch == batch && shown_->position == position) {
        return shown_->shift;
    }
    const core::PredictionShift shift = core::predictionShift(model.transformer, *intact_->modelPass, *run.modelPass, batch, position);
    shown_ = Shown{&run, intact_.get(), batch, position, shift};
    return shift;
}

void HeadsOffView::drawBanner(ViewContext& ctx) {
    const std::vector<core::HeadAblation>& heads = ctx.run.spec.headsOff;
    if (heads.empty()) return;
    ImGui::PushFont(font(ctx.fonts.bold));
    ImGui::TextColored(kBannerInk, "Heads off: %s", core::headsOffText(heads).c_str());
    ImGui::PopFont();
    ImGui::SameLine();
    if (ImGui::SmallButton("Switch all back on")) chooseHeadOff(ctx.state, 0, 0, HeadMenuChoice::AllOn);
    const int position = defaultPosition(ctx.run, ctx.state.batch);
    if (const std::optional<core::PredictionShift> s = shift(ctx, position)) {
        const std::string text = predictionName(ctx.run, ctx.state.batch, position) + ": " + shiftText(*ctx.run.spec.trainedModel(), *s);
        ImGui::TextWrapped("%s", core::clipped(text).c_str());
    }
}

void HeadsOffView::drawShift(ViewContext& ctx, int position) {
    if (ctx.run.spec.headsOff.empty()) return;
    const std::optional<core::PredictionShift> s = shift(ctx, position);
    ImGui::PushStyleColor(ImGuiCol_Text, kBannerInk);
    if (s) {
        ImGui::TextWrapped("Heads %s: %s", core::headsOffText(ctx.run.spec.headsOff).c_str(), shiftText(*ctx.run.spec.trainedModel(), *s).c_str());
    } else {
        ImGui::TextWrapped("Heads %s (the bars are the run with them off).", core::headsOffText(ctx.run.spec.headsOff).c_str());
    }
    ImGui::PopStyleColor();
}

}  // namespace attnviz::ui
