// panel_token_lines.cpp — one head's attention as lines, as BertViz's head view draws it: query tokens on
// the left, key tokens on the right, a line from query r to key c with opacity A[r, c]. Hovering a query
// token (or a cell of A) keeps only that query's lines. Reads the focused head; draws with ImDrawList only.
#include "ui/drawing.h"
#include "ui/matrix_info.h"
#include "ui/panels.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {
namespace {

// The query row to single out: the hovered token on the left, or the row of an explained cell of A.
std::optional<int> focusedQuery(const ViewContext& ctx, ImVec2 min, float left, float rowHeight, int rows) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (ImGui::IsWindowHovered() && mouse.x >= min.x && mouse.x < left && mouse.y >= min.y && mouse.y < min.y + rowHeight * static_cast<float>(rows)) {
        return static_cast<int>((mouse.y - min.y) / rowHeight);
    }
    if (ctx.explanation && ctx.explanation->cell.matrix.tensor == core::TensorId::AttentionWeights &&
        ctx.explanation->cell.matrix.head == ctx.state.head) {
        return ctx.explanation->cell.row;
    }
    return std::nullopt;
}

}  // namespace

void drawTokenLines(ViewContext& ctx, float height) {
    const int head = ctx.state.head;
    ImGui::BeginChild("token lines", {0.0f, height}, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PushFont(font(ctx.fonts.bold));
    ImGui::TextUnformatted(("Attention of head " + std::to_string(head)).c_str());
    ImGui::PopFont();
    ImGui::SameLine();
    ImGui::TextDisabled("query → key, opacity = weight");
    const MatrixRef ref{MatrixSource::Trace, core::TensorId::AttentionWeights, head};
    const render::MatrixSlice a = matrixSlice(ctx.run, ref, ctx.state.batch);
    const ImVec2 min = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
    ImFont* small = font(ctx.fonts.small);
    const float size = small->FontSize;
    const float rowHeight = std::min(avail.y / static_cast<float>(std::max(a.rows, a.cols)), size * 1.5f);
    const float labelWidth = std::round(avail.x * 0.3f);
    const float left = min.x + labelWidth, right = min.x + avail.x - labelWidth;
    const std::optional<int> only = focusedQuery(ctx, min, left, rowHeight, a.rows);
    ImDrawList& list = *ImGui::GetWindowDrawList();
    const bool labels = rowHeight >= size * 0.9f;
    for (int r = 0; r < a.rows; ++r) {
        const float y = min.y + (static_cast<float>(r) + 0.5f) * rowHeight;
        if (labels) {
            const std::string token = fitText(axisLabel(ctx.run, Axis::QueryTokens, ctx.state.batch, r), labelWidth - 8.0f, small, size);
            const float w = small->CalcTextSizeA(size, FLT_MAX, 0.0f, token.c_str()).x;
            list.AddText(small, size, {left - 6.0f - w, y - size / 2.0f}, only == r ? headColor(head) : IM_COL32(30, 30, 30, 255), token.c_str());
        }
        if (only && *only != r) continue;
        for (int c = 0; c < a.cols; ++c) {
            const float weight = valueAt(a, r, c);
            if (!(weight > 0.01f)) continue;  // also skips NaN
            const float yc = min.y + (static_cast<float>(c) + 0.5f) * rowHeight;
            list.AddLine({left, y}, {right, yc}, headColor(head, static_cast<int>(std::min(1.0f, weight) * 230.0f) + 15), 1.0f + 2.5f * weight);
        }
    }
    for (int c = 0; labels && c < a.cols; ++c) {
        const std::string token = fitText(axisLabel(ctx.run, Axis::KeyTokens, ctx.state.batch, c), labelWidth - 8.0f, small, size);
        list.AddText(small, size, {right + 6.0f, min.y + (static_cast<float>(c) + 0.5f) * rowHeight - size / 2.0f}, IM_COL32(30, 30, 30, 255), token.c_str());
    }
    ImGui::EndChild();
}

}  // namespace attnviz::ui
