// panel_inspector.cpp — the hover inspector: the value of the cell under the mouse (or the pinned one) and
// how it was made. Products list their largest terms and check that the terms add up; softmax cells show
// their row; masked cells say which mask and why. The facts come from inspector.cpp; this file prints them.
#include "ui/widgets/cell_editor.h"
#include "core/display_text.h"
#include "ui/views/number_format.h"
#include "ui/panels/panel_compare.h"
#include "ui/panels/panels.h"

#include <cmath>

namespace attnviz::ui {
namespace {

const ImVec4 kPinned{0.85f, 0.4f, 0.0f, 1.0f};
const ImVec4 kDim{0.4f, 0.4f, 0.4f, 1.0f};
constexpr ImGuiTableFlags kTableFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit;

void termsTable(const Explanation& e) {
    ImGui::Text("Largest terms (%zu of %d):", e.terms.size(), e.termCount);
    if (!ImGui::BeginTable("terms", 4, kTableFlags)) return;
    ImGui::TableSetupColumn("j");
    ImGui::TableSetupColumn("a_j");
    ImGui::TableSetupColumn("b_j");
    ImGui::TableSetupColumn("a_j · b_j");
    ImGui::TableHeadersRow();
    for (const DotTerm& t : e.terms) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(core::clipped(t.label).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(formatValue(t.left).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(formatValue(t.right).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(formatValue(t.product).c_str());
    }
    ImGui::EndTable();
    const bool agrees = std::fabs(e.termSum - e.value) <= 1e-4f * std::max(1.0f, std::fabs(e.value)) || std::isnan(e.value);
    ImGui::TextColored(kDim, "Σ of all %d terms = %s %s", e.termCount, formatValue(e.termSum).c_str(), agrees ? "= the cell" : "(differs!)");
}

void softmaxTable(const SoftmaxDetail& s) {
    ImGui::Text("Row of scores: max %s, Σ exp(s − max) = %s", formatValue(s.max).c_str(), formatValue(static_cast<float>(s.sumExp)).c_str());
    if (!ImGui::BeginTable("softmax", 4, kTableFlags)) return;
    ImGui::TableSetupColumn("key");
    ImGui::TableSetupColumn("score s");
    ImGui::TableSetupColumn("exp(s − max)");
    ImGui::TableSetupColumn("weight");
    ImGui::TableHeadersRow();
    for (std::size_t j = 0; j < s.scores.size(); ++j) {
        const double e = std::exp(static_cast<double>(s.scores[j]) - s.max);
        ImGui::TableNextRow();
        if (static_cast<int>(j) == s.column) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, IM_COL32(255, 230, 0, 110));
        if (s.masked[j]) ImGui::PushStyleColor(ImGuiCol_Text, kDim);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(core::clipped((s.keys[j] + (s.masked[j] ? " (masked)" : ""))).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(formatValue(s.scores[j]).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(formatValue(static_cast<float>(e)).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(formatValue(static_cast<float>(e / s.sumExp)).c_str());
        if (s.masked[j]) ImGui::PopStyleColor();
    }
    ImGui::EndTable();
    ImGui::TextColored(kDim, "The row of A sums to %s.", formatValue(static_cast<float>(s.rowSum)).c_str());
}

}  // namespace

void drawInspector(ViewContext& ctx) {
    ImGui::PushFont(font(ctx.fonts.bold));
    ImGui::TextUnformatted("Inspector");
    ImGui::PopFont();
    if (drawCompareInspector(ctx)) return;
    if (!ctx.explanation) {
        ImGui::TextWrapped("Hover any cell to see its value and how it was computed. Click a cell to pin it here; Esc releases it.");
        return;
    }
    const Explanation& e = *ctx.explanation;
    if (ctx.state.pinned == e.cell) {
        ImGui::SameLine();
        ImGui::TextColored(kPinned, "pinned · Esc to release");
    }
    ImGui::TextWrapped("%s", core::clipped(e.where).c_str());
    ImGui::PushFont(font(ctx.fonts.large));
    ImGui::TextUnformatted(formatValue(e.value).c_str());
    ImGui::PopFont();
    drawEditNote(ctx.state, e.cell);
    ImGui::PushFont(font(ctx.fonts.mono));
    ImGui::TextWrapped("%s", core::clipped(e.formula).c_str());
    ImGui::PopFont();
    for (const std::string& note : e.notes) {
        if (!note.empty()) ImGui::TextWrapped("%s", core::clipped(note).c_str());
    }
    ImGui::Spacing();
    if (!e.terms.empty()) termsTable(e);
    if (e.softmax) softmaxTable(*e.softmax);
}

}  // namespace attnviz::ui
