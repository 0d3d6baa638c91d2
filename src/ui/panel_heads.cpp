// panel_heads.cpp — a thumbnail of every head's map for the current stage (attention weights on stages
// that have no per-head matrix), in the head colors; clicking one focuses that head. Keys 1–9 do the same
// (shortcuts.cpp). Does not draw the focused head large (the stage view does).
#include "ui/drawing.h"
#include "ui/heatmap_view.h"
#include "ui/panels.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {

void drawHeadsGrid(ViewContext& ctx, float height) {
    const core::TensorId tensor = perHeadTensor(ctx.state.stage).value_or(core::TensorId::AttentionWeights);
    const int heads = ctx.run.trace.dims.heads;
    ImGui::BeginChild("heads", {0.0f, height}, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PushFont(font(ctx.fonts.bold));
    ImGui::TextUnformatted("Heads");
    ImGui::PopFont();
    ImGui::SameLine();
    ImGui::TextDisabled("%s · click or 1–9", core::tensorInfo(tensor).symbol.data());
    const ImVec2 min = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    int columns = 1;
    for (; columns < heads; ++columns) {  // the fewest columns whose rows still fit the height
        const int rows = (heads + columns - 1) / columns;
        if (avail.x / static_cast<float>(columns) * static_cast<float>(rows) <= avail.y * 1.25f) break;
    }
    const int rows = (heads + columns - 1) / columns;
    const float side = std::min(avail.x / static_cast<float>(columns), avail.y / static_cast<float>(rows));
    for (int head = 0; head < heads; ++head) {
        HeatmapOptions o;
        o.title = TitleStyle::Compact;
        o.caption = side > ImGui::GetFontSize() * 4.0f ? "head " + std::to_string(head) : std::to_string(head);
        o.rowLabels = o.colLabels = false;
        o.colorbar = ColorbarSide::None;
        o.headBlocks = false;
        o.frameHead = head;
        o.emphasized = head == ctx.state.head;
        o.pinOnClick = false;
        const ImVec2 cell{min.x + side * static_cast<float>(head % columns), min.y + side * static_cast<float>(head / columns)};
        const HeatmapResult r = drawHeatmapInBox(ctx, {MatrixSource::Trace, tensor, head}, {cell.x + 3.0f, cell.y},
                                                 {cell.x + side - 6.0f, cell.y + side - 6.0f}, o);
        if (r.clicked) {
            ctx.state.head = head;
            ctx.state.allHeads = false;
        }
    }
    ImGui::EndChild();
}

}  // namespace attnviz::ui
