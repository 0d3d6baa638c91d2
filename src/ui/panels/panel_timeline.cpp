// panel_timeline.cpp — the stage timeline across the top: Prev/Next, autoplay and its speed on the left,
// then every stage of the forward pass as a numbered step (done, current, to come) with its title.
// Clicking a step goes there. Does not draw the stage itself (panel_stage_view.cpp does).
#include "ui/ask/ask_state.h"
#include "ui/views/drawing.h"
#include "ui/lessons/lesson_catalog.h"
#include "ui/panels/panels.h"
#include "ui/widgets/widget_label.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace attnviz::ui {
namespace {

constexpr ImU32 kAccent = IM_COL32(40, 100, 200, 255);
constexpr ImU32 kDone = IM_COL32(160, 190, 235, 255);
constexpr ImU32 kText = IM_COL32(30, 30, 30, 255);
constexpr float kSmallestTitlePx = 9.0f;

// Going to a stage also leaves an open lesson or question: the stage view comes back.
void goTo(AppState& state, int stage) {
    closeLesson(state);
    state.ask.open = false;
    state.stage = static_cast<core::StageId>(std::clamp(stage, 0, core::kStageCount - 1));
    state.autoplayElapsed = 0.0f;
}

// The type size of the stage titles: the small type, or smaller where a slot is too narrow for the widest word of
// any title in bold (zoomed in, "Concatenate" was cut to "C…"), but never under the screen's 9 px label floor.
float titleSize(const Fonts& fonts, float slotWidth) {
    ImFont* bold = font(fonts.bold);
    const float small = fonts.small ? fonts.small->FontSize : ImGui::GetFontSize();
    float widest = 0.0f;
    for (const core::Stage& stage : core::stages()) {
        std::istringstream words{std::string(stage.title)};
        for (std::string word; words >> word;) widest = std::max(widest, bold->CalcTextSizeA(small, FLT_MAX, 0.0f, word.c_str()).x);
    }
    if (widest <= slotWidth - 6.0f) return small;
    return std::max(kSmallestTitlePx, small * (slotWidth - 6.0f) / widest);
}

void drawPlayback(AppState& state, float scale) {
    ImGui::BeginGroup();
    const int stage = static_cast<int>(state.stage);
    if (ImGui::Button("◀ Prev")) goTo(state, stage - 1);
    ImGui::SameLine();
    if (ImGui::Button("Next ▶")) goTo(state, stage + 1);
    ImGui::SameLine();
    if (ImGui::Button(widgetLabel(state.autoplay ? "❚❚ Pause" : "▶ Play").c_str(), {ImGui::CalcTextSize("❚❚ Pause").x + ImGui::GetStyle().FramePadding.x * 2, 0})) {
        if (!state.autoplay && stage + 1 >= core::kStageCount) goTo(state, 0);
        state.autoplay = !state.autoplay;
        state.autoplayElapsed = 0.0f;
    }
    ImGui::SameLine();
    drawAskToggle(state);
    if (!state.presenting) {  // a setting, not a control: it stays off the projected screen
        ImGui::SetNextItemWidth(std::round(150.0f * scale));
        ImGui::SliderFloat("autoplay speed", &state.secondsPerStage, 1.0f, 15.0f, "%.0f s per stage");
    }
    ImGui::EndGroup();
}

void drawStep(AppState& state, const core::Stage& stage, ImVec2 slotMin, float slotWidth, const Fonts& fonts, float size, float scale) {
    ImDrawList& list = *ImGui::GetWindowDrawList();
    const float radius = std::round(12.0f * scale);
    const ImVec2 centre{slotMin.x + slotWidth / 2.0f, slotMin.y + radius + 2.0f};
    const int number = stage.number(), current = static_cast<int>(state.stage);
    const ImU32 fill = number == current ? kAccent : number < current ? kDone : IM_COL32_WHITE;
    list.AddCircleFilled(centre, radius, fill);
    list.AddCircle(centre, radius, kAccent, 0, 1.5f);
    const std::string digits = std::to_string(number);
    const ImVec2 digitsSize = ImGui::CalcTextSize(digits.c_str());
    list.AddText({centre.x - digitsSize.x / 2.0f, centre.y - digitsSize.y / 2.0f}, number == current ? IM_COL32_WHITE : kText, digits.c_str());

    ImFont* titleFont = font(number == current ? fonts.bold : fonts.small);
    float y = centre.y + radius + 2.0f;
    for (const std::string& line : wrapToTwoLines(std::string(stage.title), slotWidth - 6.0f, titleFont, size)) {
        const float w = titleFont->CalcTextSizeA(size, FLT_MAX, 0.0f, line.c_str()).x;
        list.AddText(titleFont, size, {centre.x - w / 2.0f, y}, number == current ? kAccent : kText, line.c_str());
        y += size;
    }
    if (number == current && state.autoplay) {
        const float progress = std::clamp(state.autoplayElapsed / state.secondsPerStage, 0.0f, 1.0f);
        list.AddRectFilled({slotMin.x + 4.0f, y + 1.0f}, {slotMin.x + 4.0f + (slotWidth - 8.0f) * progress, y + 4.0f}, kAccent);
    }
    ImGui::SetCursorScreenPos(slotMin);
    ImGui::PushID(number);
    if (ImGui::InvisibleButton("step", {slotWidth, y + 4.0f - slotMin.y})) goTo(state, number);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%d  %s\n%s", number, std::string(stage.title).c_str(), std::string(stage.formula).c_str());
    ImGui::PopID();
}

}  // namespace

void drawTimeline(AppState& state, const Fonts& fonts, float scale) {
    const float height = std::round(72.0f * scale);
    ImGui::BeginChild("timeline", {0.0f, height}, false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    drawPlayback(state, scale);
    const ImVec2 min = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    // The steps start after the playback controls (presenting, without the speed slider, they leave more room).
    const float left = ImGui::GetItemRectMax().x + std::round(24.0f * scale), right = min.x + size.x;
    const float slot = (right - left) / static_cast<float>(core::kStageCount);
    const float titles = titleSize(fonts, slot);
    const float radius = std::round(12.0f * scale);
    ImGui::GetWindowDrawList()->AddLine({left + slot / 2.0f, min.y + radius + 2.0f}, {right - slot / 2.0f, min.y + radius + 2.0f}, kDone, 2.0f);
    for (const core::Stage& stage : core::stages()) {
        drawStep(state, stage, {left + slot * static_cast<float>(stage.number()), min.y}, slot, fonts, titles, scale);
    }
    ImGui::EndChild();
}

}  // namespace attnviz::ui
