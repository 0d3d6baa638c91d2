// panel_token_lines.cpp — one head's attention as lines, as BertViz's head view draws it: query tokens on the
// left, key tokens on the right, a line from query r to key c with opacity A[r, c]. The geometry (rows, label
// type, where the lines run) is decided without ImGui; the painting uses ImDrawList only. The right panel
// finds its lines once per run, head and sentence (panel_token_lines.h); hovering a query token (or a cell of A)
// keeps only that query's lines.
#include "ui/panels/panel_token_lines.h"

#include "ui/views/matrix_info.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <utility>

namespace attnviz::ui {
namespace {

constexpr float kThreshold = 0.01f;  // weights at or below it draw no line (a 1% line is invisible)
// At most this many lines in the right panel, the strongest: each long line costs llvmpipe about 7 µs to rasterise
// (1,024 lines took 7 ms of a 21 ms frame at l = 512, bench_gui appFrame), and thousands of faint ones (l = 128 with
// random weights: 5,000+) only draw a uniform haze. Lines dropped are the faintest; hovering a query shows all its own.
constexpr std::size_t kMaxLines = 256;
// Weaker lines are 1 px: ImGui draws those as one textured quad; thicker ones need anti-aliasing fringes.
constexpr float kThickFrom = 0.25f;
// A label is drawn when its row is at least this share of its size (scene/layout.h's rule for token cells).
constexpr float kRowPerLabel = 0.85f;
constexpr ImU32 kLabelColour = IM_COL32(30, 30, 30, 255);
constexpr float kBesideFocus = 0.45f;

MatrixRef weightsOf(const ViewContext& ctx) { return {MatrixSource::Trace, core::TensorId::AttentionWeights, ctx.state.head}; }

float widestLabel(const ViewContext& ctx, Axis axis, int count, ImFont* font, float size) {
    float widest = 0.0f;
    for (int i = 0; i < count; ++i) {
        const std::string token = axisLabel(ctx.run, axis, ctx.state.batch, i);
        widest = std::max(widest, font->CalcTextSizeA(size, FLT_MAX, 0.0f, token.c_str()).x);
    }
    return widest;
}

// The query row to single out in the right panel: the hovered token, or the row of an explained cell of A.
std::optional<int> panelFocus(const ViewContext& ctx, const TokenLinesGeometry& geometry, const Box& box) {
    if (ImGui::IsWindowHovered()) {
        if (const std::optional<int> row = queryUnderMouse(geometry, box)) return row;
    }
    if (ctx.explanation && ctx.explanation->cell.matrix.tensor == core::TensorId::AttentionWeights &&
        ctx.explanation->cell.matrix.head == ctx.state.head) {
        return ctx.explanation->cell.row;
    }
    return std::nullopt;
}

}  // namespace

std::vector<TokenLine> strongestLines(const render::MatrixSlice& a, std::size_t limit) {
    std::vector<TokenLine> lines;
    for (int r = 0; r < a.rows; ++r) {
        for (int c = 0; c < a.cols; ++c) {
            const float weight = valueAt(a, r, c);
            if (weight > kThreshold) lines.push_back({r, c, weight});  // also skips NaN
        }
    }
    if (lines.size() > limit) {
        const auto stronger = [](const TokenLine& x, const TokenLine& y) { return x.weight > y.weight; };
        std::nth_element(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(limit), lines.end(), stronger);
        lines.resize(limit);
        std::sort(lines.begin(), lines.end(), [](const TokenLine& x, const TokenLine& y) { return std::pair(x.query, x.key) < std::pair(y.query, y.key); });
    }
    return lines;
}

TokenLinesGeometry tokenLinesGeometry(const Box& box, int rows, float queryWidth, float keyWidth, scene::LabelSizes sizes, float maxRow,
                                      float labelRoom) {
    TokenLinesGeometry g;
    g.rows = std::max(rows, 1);
    g.top = box.min.y;
    g.rowHeight = std::min(box.height() / static_cast<float>(g.rows), maxRow);
    const bool labelled = g.rowHeight >= kRowPerLabel * sizes.floor - scene::kLabelSlack;
    g.labelPx = labelled ? std::clamp(g.rowHeight / kRowPerLabel, sizes.floor, sizes.full) : 0.0f;
    const float shrink = g.labelPx / std::max(sizes.full, 1.0f);
    const float queryColumn = std::min(queryWidth * shrink, box.width() * labelRoom);
    const float keyColumn = std::min(keyWidth * shrink, box.width() * labelRoom);
    const float gap = std::max(6.0f, 0.6f * g.labelPx);
    // The lines span about as wide as the rows are tall: steep enough to follow, never wider than the box allows.
    const float room = box.width() - queryColumn - keyColumn - 2.0f * gap;
    const float span = std::max(0.0f, std::min(room, std::max(0.9f * static_cast<float>(g.rows) * g.rowHeight, 10.0f * g.labelPx)));
    const float x0 = box.min.x + std::max(0.0f, (room - span) / 2.0f);
    g.queryRight = x0 + queryColumn;
    g.left = g.queryRight + gap;
    g.right = g.left + span;
    g.keyLeft = g.right + gap;
    return g;
}

float tokenLinesHeightFor(int rows, scene::LabelSizes sizes) { return std::ceil(static_cast<float>(rows) * kRowPerLabel * sizes.floor); }

TokenLinesGeometry measureTokenLines(const ViewContext& ctx, const Box& box, const TokenLinesStyle& style) {
    const render::MatrixSlice a = matrixSlice(ctx.run, weightsOf(ctx), ctx.state.batch);
    ImFont* f = font(style.labelFont);
    const float full = style.sizes.full;
    return tokenLinesGeometry(box, std::max(a.rows, a.cols), widestLabel(ctx, Axis::QueryTokens, a.rows, f, full),
                              widestLabel(ctx, Axis::KeyTokens, a.cols, f, full), style.sizes, style.maxRow, style.labelRoom);
}

void drawTokenLines(const ViewContext& ctx, const Box& box, const TokenLinesGeometry& g, const std::vector<TokenLine>& lines,
                    const TokenLinesStyle& style, std::optional<int> focus, std::optional<int> only) {
    const int head = ctx.state.head;
    const render::MatrixSlice a = matrixSlice(ctx.run, weightsOf(ctx), ctx.state.batch);
    ImDrawList& list = *ImGui::GetWindowDrawList();
    // Opacity = weight; beside a focused row the others fade to kBesideFocus of it, so the focused row reads first.
    const auto drawLine = [&](const TokenLine& line, float extra, float fade) {
        const float weight = std::min(1.0f, line.weight);
        const float width = (weight < kThickFrom && extra == 0.0f ? 1.0f : 1.0f + 2.5f * weight) * style.lineWidth + extra;
        const int alpha = static_cast<int>(fade * (weight * 230.0f + 15.0f));
        list.AddLine({g.left, g.rowMiddle(line.query)}, {g.right, g.rowMiddle(line.key)}, headColor(head, alpha), width);
    };
    const auto drawRow = [&](int query, float extra) {
        for (int c = 0; c < a.cols; ++c) {
            if (const float weight = valueAt(a, query, c); weight > kThreshold) drawLine({query, c, weight}, extra, 1.0f);
        }
    };
    if (only) {  // one query: every line of its row, including those too faint for the overview
        drawRow(*only, 0.0f);
    } else {
        const bool focused = focus && *focus < a.rows;
        for (const TokenLine& line : lines) {
            if (line.query != focus) drawLine(line, 0.0f, focused ? kBesideFocus : 1.0f);
        }
        if (focused) drawRow(*focus, style.lineWidth);  // on top, thicker
    }
    if (g.labelPx <= 0.0f) return;
    const auto label = [&](Axis axis, int i, ImFont* face, ImU32 colour, bool rightAligned) {
        const float room = rightAligned ? g.queryRight - box.min.x : box.max.x - g.keyLeft;
        const std::string token = fitText(axisLabel(ctx.run, axis, ctx.state.batch, i), room, face, g.labelPx);
        const float w = face->CalcTextSizeA(g.labelPx, FLT_MAX, 0.0f, token.c_str()).x;
        list.AddText(face, g.labelPx, {rightAligned ? g.queryRight - w : g.keyLeft, g.rowMiddle(i) - g.labelPx / 2.0f}, colour, token.c_str());
    };
    for (int r = 0; r < a.rows; ++r) {
        const bool focused = r == focus || r == only;
        label(Axis::QueryTokens, r, font(focused ? style.focusFont : style.labelFont), focused ? headColor(head) : kLabelColour, true);
    }
    for (int c = 0; c < a.cols; ++c) label(Axis::KeyTokens, c, font(style.labelFont), kLabelColour, false);
}

std::optional<int> queryUnderMouse(const TokenLinesGeometry& g, const Box& box) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (mouse.x < box.min.x || mouse.x >= g.left || mouse.y < g.top || mouse.y >= g.bottom()) return std::nullopt;
    return static_cast<int>((mouse.y - g.top) / g.rowHeight);
}

const std::vector<TokenLine>& TokenLinesPanel::linesOf(const ViewContext& ctx, const render::MatrixSlice& a) {
    if (!found_ || found_->head != ctx.state.head || found_->batch != ctx.state.batch) {
        found_ = Found{ctx.state.head, ctx.state.batch, strongestLines(a, kMaxLines)};
    }
    return found_->lines;
}

void TokenLinesPanel::draw(ViewContext& ctx, float height) {
    ImGui::BeginChild("token lines", {0.0f, height}, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PushFont(font(ctx.fonts.bold));
    ImGui::TextUnformatted(("Attention of head " + std::to_string(ctx.state.head)).c_str());
    ImGui::PopFont();
    ImGui::SameLine();
    ImGui::TextDisabled("%s", fitText("query → key, opacity = weight", ImGui::GetContentRegionAvail().x, ImGui::GetFont(), ImGui::GetFontSize()).c_str());
    const ImVec2 min = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
    const Box box{min, {min.x + avail.x, min.y + avail.y}};
    ImFont* small = font(ctx.fonts.small);
    TokenLinesStyle style;
    style.sizes = {scene::labelSizes(small->FontSize, false, 0).floor, small->FontSize};  // a side panel: the screen's floor, never the lecture's
    style.labelFont = small;
    style.focusFont = small;
    style.maxRow = small->FontSize * 1.5f;
    const TokenLinesGeometry geometry = measureTokenLines(ctx, box, style);
    const render::MatrixSlice a = matrixSlice(ctx.run, weightsOf(ctx), ctx.state.batch);
    drawTokenLines(ctx, box, geometry, linesOf(ctx, a), style, std::nullopt, panelFocus(ctx, geometry, box));
    ImGui::EndChild();
}

}  // namespace attnviz::ui
