// panel_token_lines.cpp — one head's attention as lines, as BertViz's head view draws it: query tokens on
// the left, key tokens on the right, a line from query r to key c with opacity A[r, c]. Hovering a query
// token (or a cell of A) keeps only that query's lines. Reads the focused head; draws with ImDrawList only.
// The lines above the threshold are found once per run, head and sentence (panel_token_lines.h).
#include "ui/panels/panel_token_lines.h"

#include "ui/views/drawing.h"
#include "ui/views/matrix_info.h"
#include "ui/panels/panels.h"

#include <algorithm>
#include <cmath>
#include <utility>

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

constexpr float kThreshold = 0.01f;  // weights at or below it draw no line (a 1% line is invisible)
// At most this many lines, the strongest: each long line costs llvmpipe about 7 µs to rasterise (1,024 lines took
// 7 ms of a 21 ms frame at l = 512, bench_gui appFrame), and thousands of faint ones (l = 128 with random
// weights: 5,000+) only draw a uniform haze. Lines dropped are the faintest; hovering a query shows all of its own.
constexpr std::size_t kMaxLines = 256;
// Weaker lines are 1 px: ImGui draws those as one textured quad; thicker ones need anti-aliasing fringes.
constexpr float kThickFrom = 0.25f;

}  // namespace

const std::vector<TokenLinesPanel::Line>& TokenLinesPanel::linesOf(const ViewContext& ctx, const render::MatrixSlice& a) {
    if (found_ && found_->head == ctx.state.head && found_->batch == ctx.state.batch) return found_->lines;
    found_ = Found{ctx.state.head, ctx.state.batch, {}};
    for (int r = 0; r < a.rows; ++r) {
        for (int c = 0; c < a.cols; ++c) {
            const float weight = valueAt(a, r, c);
            if (weight > kThreshold) found_->lines.push_back({r, c, weight});  // also skips NaN
        }
    }
    std::vector<Line>& lines = found_->lines;
    if (lines.size() > kMaxLines) {
        const auto stronger = [](const Line& x, const Line& y) { return x.weight > y.weight; };
        std::nth_element(lines.begin(), lines.begin() + kMaxLines, lines.end(), stronger);
        lines.resize(kMaxLines);
        std::sort(lines.begin(), lines.end(), [](const Line& x, const Line& y) { return std::pair(x.query, x.key) < std::pair(y.query, y.key); });
    }
    return lines;
}

void TokenLinesPanel::draw(ViewContext& ctx, float height) {
    const int head = ctx.state.head;
    ImGui::BeginChild("token lines", {0.0f, height}, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PushFont(font(ctx.fonts.bold));
    ImGui::TextUnformatted(("Attention of head " + std::to_string(head)).c_str());
    ImGui::PopFont();
    ImGui::SameLine();
    ImGui::TextDisabled("%s", fitText("query → key, opacity = weight", ImGui::GetContentRegionAvail().x, ImGui::GetFont(), ImGui::GetFontSize()).c_str());
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
    const auto rowY = [&](int row) { return min.y + (static_cast<float>(row) + 0.5f) * rowHeight; };
    for (int r = 0; labels && r < a.rows; ++r) {
        const std::string token = fitText(axisLabel(ctx.run, Axis::QueryTokens, ctx.state.batch, r), labelWidth - 8.0f, small, size);
        const float w = small->CalcTextSizeA(size, FLT_MAX, 0.0f, token.c_str()).x;
        list.AddText(small, size, {left - 6.0f - w, rowY(r) - size / 2.0f}, only == r ? headColor(head) : IM_COL32(30, 30, 30, 255), token.c_str());
    }
    const auto drawLine = [&](const Line& line) {
        const float weight = line.weight;
        list.AddLine({left, rowY(line.query)}, {right, rowY(line.key)}, headColor(head, static_cast<int>(std::min(1.0f, weight) * 230.0f) + 15),
                     weight < kThickFrom ? 1.0f : 1.0f + 2.5f * weight);
    };
    if (only) {  // one query: every line of its row, including those too faint for the overview
        for (int c = 0; c < a.cols; ++c) {
            if (const float weight = valueAt(a, *only, c); weight > kThreshold) drawLine({*only, c, weight});
        }
    } else {
        for (const Line& line : linesOf(ctx, a)) drawLine(line);
    }
    for (int c = 0; labels && c < a.cols; ++c) {
        const std::string token = fitText(axisLabel(ctx.run, Axis::KeyTokens, ctx.state.batch, c), labelWidth - 8.0f, small, size);
        list.AddText(small, size, {right + 6.0f, rowY(c) - size / 2.0f}, IM_COL32(30, 30, 30, 255), token.c_str());
    }
    ImGui::EndChild();
}

}  // namespace attnviz::ui
