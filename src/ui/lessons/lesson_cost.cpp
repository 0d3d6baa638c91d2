// lesson_cost.cpp — "what does attention cost, and do h heads cost h times more?". A table of every stage's FLOPs (multiply + add = 2) and
// float32 memory at the current sizes, or at a longer l to see the l² terms take over; per head O(l²·d_k); and
// h heads of d_k next to one head of width d_model (about the same: heads split the work, they do not add to it).
//
// What it deliberately does not do: count anything itself (core::stageCosts and core::headCost do) or run a
// forward pass at the longer lengths: the costs follow from the sizes alone.
#include "core/lessons.h"
#include "core/display_text.h"
#include "ui/lessons/lesson_views.h"
#include "ui/widgets/widget_label.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {
namespace {

using core::StageId;

constexpr int kLengths[] = {128, 512, 2048, 8192};

// How each stage's FLOPs grow, in the table's words.
const char* formula(StageId stage) {
    switch (stage) {
        case StageId::Project: return "2·b·l·d_model·h·(2·d_k + d_v)";
        case StageId::Scores: return "2·b·h·l²·d_k";
        case StageId::Scale: return "b·h·l²";
        case StageId::Softmax: return "≈ 3·b·h·l²";
        case StageId::WeightedSum: return "2·b·h·l²·d_v";
        case StageId::Output: return "2·b·l·h·d_v·d_model";
        case StageId::Mask: return "a select, no arithmetic";
        case StageId::SplitHeads: case StageId::Concat: return "a reshape: moves only";
        case StageId::Embed: return "a lookup";
        default: return "no arithmetic";
    }
}

// The run's sizes with l_q = l_k = `length` (or the run's own for 0), without any tensor: costs depend on the sizes only.
core::Trace sizedAs(const core::Trace& trace, int length) {
    core::Trace sized;
    sized.dims = trace.dims;
    sized.mask = trace.mask;
    sized.cross = trace.cross;
    sized.batch = trace.batch;
    sized.queryLength = trace.queryLength;
    sized.keyLength = trace.keyLength;
    sized.queryLengths = trace.queryLengths;
    sized.keyLengths = trace.keyLengths;
    if (length > 0) sized.queryLength = sized.keyLength = length;
    return sized;
}

void lengthChoice(LessonFrame& frame) {
    int& length = frame.ctx.state.lesson.costLength;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("l for the table:");
    ImGui::SameLine();
    const std::string current = "this sentence (l = " + std::to_string(frame.ctx.run.trace.keyLength) + ")";
    if (ImGui::RadioButton(widgetLabel(current).c_str(), length == 0)) length = 0;
    for (int choice : kLengths) {
        ImGui::SameLine();
        if (ImGui::RadioButton(widgetLabel(std::to_string(choice)).c_str(), length == choice)) length = choice;
    }
}

// A bar as wide as value / largest of the column, drawn in the table cell.
void bar(double value, double largest, ImU32 color) {
    const float width = ImGui::GetContentRegionAvail().x;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float height = ImGui::GetTextLineHeight();
    const float w = largest > 0.0 ? static_cast<float>(value / largest) * width : 0.0f;
    ImGui::GetWindowDrawList()->AddRectFilled(at, {at.x + std::max(w, value > 0.0 ? 2.0f : 0.0f), at.y + height}, color);
    ImGui::Dummy({width, height});
}

void costTable(LessonFrame& frame, const std::vector<core::StageCost>& costs) {
    double flopsMax = 0.0, bytesMax = 0.0;
    for (const core::StageCost& c : costs) flopsMax = std::max(flopsMax, c.flops), bytesMax = std::max(bytesMax, c.bytes);
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("costs", 6, flags)) return;
    ImGui::TableSetupColumn("stage", ImGuiTableColumnFlags_WidthStretch, 1.3f);
    ImGui::TableSetupColumn("FLOPs", ImGuiTableColumnFlags_WidthStretch, 0.8f);
    ImGui::TableSetupColumn("##flops bar", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("memory (float32)", ImGuiTableColumnFlags_WidthStretch, 0.9f);
    ImGui::TableSetupColumn("##bytes bar", ImGuiTableColumnFlags_WidthStretch, 0.7f);
    ImGui::TableSetupColumn("grows as", ImGuiTableColumnFlags_WidthStretch, 1.6f);
    ImGui::TableHeadersRow();
    for (const core::StageCost& c : costs) {
        const core::Stage& stage = core::stage(c.stage);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%d  %s", stage.number(), std::string(stage.title).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(c.flops > 0 ? core::formatFlops(c.flops).c_str() : "—");
        ImGui::TableNextColumn();
        bar(c.flops, flopsMax, IM_COL32(40, 100, 200, 255));
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(core::formatBytes(c.bytes).c_str());
        ImGui::TableNextColumn();
        bar(c.bytes, bytesMax, IM_COL32(230, 130, 30, 255));
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", formula(c.stage));  // wraps in its column rather than being cut at the panel's edge
        frame.report.texts.push_back(std::string(stage.title) + ": " + core::formatFlops(c.flops) + ", " + core::formatBytes(c.bytes));
    }
    ImGui::EndTable();
}

// h heads of d_k next to one head of width d_model, as two bars on one scale.
void headComparison(LessonFrame& frame, const core::Trace& sized) {
    const core::HeadCost cost = core::headCost(sized);
    const core::Dimensions& d = sized.dims;
    const std::string l = std::to_string(sized.queryLength);
    say(frame, "Per head: scores and weighted sum cost 2·l²·(d_k + d_v) = 2 · " + l + "² · (" + std::to_string(d.dK) + " + " +
                   std::to_string(d.dV) + ") = " + core::formatFlops(cost.perHeadFlops) + ": O(l²·d_k), quadratic in the sentence length.",
        Tone::Point);
    const double largest = std::max(cost.allHeadsFlops, cost.oneWideHeadFlops);
    const float labelWidth = ImGui::CalcTextSize("one head of width d_model = 000:  ").x;
    const auto row = [&](const std::string& label, double flops, ImU32 color) {
        ImGui::TextUnformatted(core::clipped(label).c_str());
        ImGui::SameLine(labelWidth);
        const float width = ImGui::GetContentRegionAvail().x * 0.55f;
        const ImVec2 at = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddRectFilled(at, {at.x + static_cast<float>(flops / largest) * width, at.y + ImGui::GetTextLineHeight()}, color);
        ImGui::Dummy({width, ImGui::GetTextLineHeight()});
        ImGui::SameLine();
        ImGui::TextUnformatted(core::formatFlops(flops).c_str());
        frame.report.texts.push_back(label + " " + core::formatFlops(flops));
    };
    row("h = " + std::to_string(d.heads) + " heads of d_k = " + std::to_string(d.dK) + ":", cost.allHeadsFlops, IM_COL32(40, 100, 200, 255));
    row("one head of width d_model = " + std::to_string(d.dModel) + ":", cost.oneWideHeadFlops, IM_COL32(120, 120, 120, 255));
    say(frame, d.dK * d.heads == d.dModel && d.dV * d.heads == d.dModel
                   ? "The same: with d_k = d_model / h, splitting into heads divides the work, it does not multiply it."
                   : "Free d_k / d_v: h·d_k ≠ d_model, so the heads cost h·d_k / d_model times one wide head.");
}

// The linear layers grow with l, the maps with l²: the same sizes at longer and longer sentences.
void growthTable(LessonFrame& frame) {
    const core::Trace& trace = frame.ctx.run.trace;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("growth", 5, flags)) return;
    ImGui::TableSetupColumn("l", ImGuiTableColumnFlags_WidthStretch, 0.5f);
    ImGui::TableSetupColumn("linear layers (l)", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("score maps (l²)", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("share of the l² work", ImGuiTableColumnFlags_WidthStretch, 1.6f);
    ImGui::TableSetupColumn("one b×h×l×l tensor", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableHeadersRow();
    std::vector<int> lengths{trace.keyLength};
    for (int l : kLengths) lengths.push_back(l);
    for (int length : lengths) {
        const core::Trace sized = sizedAs(trace, length);
        double linear = 0.0, maps = 0.0, mapBytes = 0.0;
        for (const core::StageCost& c : core::stageCosts(sized)) {
            const bool quadratic = c.stage >= StageId::Scores && c.stage <= StageId::WeightedSum;
            (quadratic ? maps : linear) += c.flops;
            if (c.stage == StageId::Scores) mapBytes = c.bytes;
        }
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%d", length);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(core::formatFlops(linear).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(core::formatFlops(maps).c_str());
        ImGui::TableNextColumn();
        bar(maps, linear + maps, IM_COL32(200, 60, 60, 255));
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(core::formatBytes(mapBytes).c_str());
        frame.report.texts.push_back("l = " + std::to_string(length) + ": linear " + core::formatFlops(linear) + ", maps " + core::formatFlops(maps));
    }
    ImGui::EndTable();
}

}  // namespace

void drawCostLesson(LessonFrame& frame) {
    lengthChoice(frame);
    const core::Trace sized = sizedAs(frame.ctx.run.trace, frame.ctx.state.lesson.costLength);
    say(frame, "Every stage at b = " + std::to_string(sized.batch) + ", l = " + std::to_string(sized.queryLength) + ", d_model = " +
                   std::to_string(sized.dims.dModel) + ", h = " + std::to_string(sized.dims.heads) + " (change the sizes on the left). "
                   "The score maps grow with l², the projections only with l.");
    costTable(frame, core::stageCosts(sized));
    ImGui::Spacing();
    headComparison(frame, sized);
    ImGui::Spacing();
    heading(frame, "As the sentence grows (the sizes on the left, b = " + std::to_string(sized.batch) + ")");
    growthTable(frame);
}

}  // namespace attnviz::ui
