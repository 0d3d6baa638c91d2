// panel_heads.cpp — a thumbnail of every head's map for the current stage (attention weights on stages
// that have no per-head matrix), in the head colors (under grouped-query attention each query head in the colour of
// the K/V head it shares, as the stage's maps colour it; its tooltip says which); clicking one focuses that head. Keys 1–9 do the same
// (shortcuts.cpp). A new run's thumbnails appear over a few frames when they are large (kNewCellsPerFrame).
// Does not draw the focused head large (the stage view does).
#include "ui/views/drawing.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/matrix_info.h"
#include "ui/panels/heads_off_view.h"
#include "ui/panels/panels.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {
namespace {

// Cells of thumbnails seen for the first time that one frame may upload. A new run's first frame uploads the
// maps of the stage view and this many thumbnail cells; the other thumbnails follow in the next frames (at
// l = 1024 and 12 heads, four frames), each drawn as an empty frame meanwhile. Uploading all twelve 1024²
// maps at once made that frame 3–5× the median frame (bench_gui editing).
constexpr double kNewCellsPerFrame = 1024.0 * 1024.0;

// Whether a thumbnail may be drawn this frame: its texture exists already, or the frame's budget allows it.
bool withinBudget(const ViewContext& ctx, const MatrixRef& ref, double& budget) {
    if (ctx.renderer.find(textureKey(ref, ctx.state.batch, false))) return true;
    const ImVec2 shape = displayShape(ctx, ref, false);  // rows, cols
    const double cells = static_cast<double>(shape.x) * shape.y;
    const bool first = budget == kNewCellsPerFrame;  // at least one a frame, however large
    if (!first && cells > budget) return false;
    budget -= cells;
    return true;
}

// Under grouped-query attention, hovering a thumbnail says which K/V head its query head shares and with whom.
void sharingTooltip(const core::Dimensions& dims, int head, ImVec2 min, ImVec2 max) {
    if (dims.kvHeads <= 0 || dims.kvHeads == dims.heads) return;
    if (!ImGui::IsWindowHovered() || !ImGui::IsMouseHoveringRect(min, max)) return;
    const int group = dims.heads / dims.kvHeads, kv = core::keyValueHead(dims, head);
    ImGui::SetTooltip("head %d shares K/V head %d (with query heads %d–%d)", head, kv, kv * group, kv * group + group - 1);
}

}  // namespace

void drawHeadsGrid(ViewContext& ctx, float height) {
    const core::TensorId tensor = perHeadTensor(ctx.state.stage).value_or(core::TensorId::AttentionWeights);
    const core::Dimensions& dims = ctx.run.trace.dims;
    const int heads = dims.heads;
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
    double budget = kNewCellsPerFrame;
    for (int head = 0; head < heads; ++head) {
        const MatrixRef ref{MatrixSource::Trace, tensor, head};
        const ImVec2 cell{min.x + side * static_cast<float>(head % columns), min.y + side * static_cast<float>(head / columns)};
        const ImVec2 boxMin{cell.x + 3.0f, cell.y}, boxMax{cell.x + side - 6.0f, cell.y + side - 6.0f};
        const int colour = core::keyValueHead(dims, head);  // the K/V head it shares (its own without sharing)
        sharingTooltip(dims, head, boxMin, boxMax);
        if (!withinBudget(ctx, ref, budget)) {
            ImGui::GetWindowDrawList()->AddRect(boxMin, boxMax, headColor(colour));
            continue;
        }
        HeatmapOptions o;
        o.title = TitleStyle::Compact;
        // "head 3" needs about 5.5 em above a square map that is narrower than its box; else the number alone.
        o.caption = side > ImGui::GetFontSize() * 5.5f ? "head " + std::to_string(head) : std::to_string(head);
        o.rowLabels = o.colLabels = false;
        o.colorbar = ColorbarSide::None;
        o.headBlocks = false;
        o.frameHead = colour;
        o.emphasized = head == ctx.state.head;
        o.pinOnClick = false;
        const std::size_t drawnBefore = ctx.drawn.size();
        const HeatmapResult r = drawHeatmapInBox(ctx, ref, boxMin, boxMax, o);
        if (ctx.headsOff && ctx.run.spec.trained() && ctx.drawn.size() > drawnBefore) {  // marked over its cells, under its caption
            ctx.headsOff->headTile(ctx, ctx.run.spec.trained()->layer, head, ctx.drawn.back().min, ctx.drawn.back().max, true);
        }
        if (r.clicked) {
            ctx.state.head = head;
            ctx.state.allHeads = false;
        }
    }
    ImGui::EndChild();
}

}  // namespace attnviz::ui
