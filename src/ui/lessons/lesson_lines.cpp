// lesson_lines.cpp — "Which words does each word attend to?": one head's attention weights as token → token lines,
// large enough to present (the Illustrated Transformer's figure, BertViz's head view): query tokens on the left,
// key tokens on the right, line opacity = weight, the focused query's row bold with its lines on top. The labels
// keep the lecture's floor (14 px presenting) for up to 40 tokens: the view grows and the page scrolls before a
// label goes. Clicking a query token focuses its row; hovering one shows only its lines, the faint ones too.
//
// What it deliberately does not do: compute attention (the Trace's A_i) or decide where the rows and lines go
// (panel_token_lines.h, which the right panel's small version shares).
#include "ui/lessons/lesson_views.h"
#include "ui/panels/panel_token_lines.h"
#include "ui/views/matrix_info.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace attnviz::ui {
namespace {

// Weights drawn as lines at most: the strongest; a row focused or hovered shows all of its own.
constexpr std::size_t kMaxLines = 600;

// The pronoun the default sentence asks about ("it", GPT-2's "Ġit", SentencePiece's "▁it"), if the sentence has it.
std::optional<int> pronounRow(const core::ModelRun& run, int batch) {
    const auto& tokens = run.queryTokens.at(static_cast<std::size_t>(batch));
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string& t = tokens[i];
        if (t == "it" || t == "It" || t == "\u0120it" || t == "\u2581it") return static_cast<int>(i);
    }
    return std::nullopt;
}

std::optional<int> focusedRow(const LessonFrame& frame, int rows) {
    const int chosen = frame.ctx.state.lesson.linesQuery;
    if (chosen >= 0 && chosen < rows) return chosen;
    return pronounRow(frame.ctx.run, frame.ctx.state.batch);
}

// The page's type: the labels in body text (presenting, the large type a back row reads) when the rows allow,
// shrinking to the floor before any goes; the focused query in bold, so it stands out from the others.
TokenLinesStyle presentedStyle(const ViewContext& ctx) {
    TokenLinesStyle style;
    ImFont* regular = font(ctx.fonts.regular);
    style.sizes = {layoutRules(ctx).labels.floor, std::max(regular->FontSize, layoutRules(ctx).labels.floor)};
    style.labelFont = regular;
    style.focusFont = font(ctx.fonts.bold);
    style.maxRow = std::round(style.sizes.full * 2.6f);  // a short sentence spreads over the projector's height
    style.labelRoom = 0.32f;
    style.lineWidth = std::max(1.0f, ctx.scale);
    return style;
}

void explain(LessonFrame& frame, std::optional<int> focus) {
    const int head = frame.ctx.state.head;
    const std::string a = "A" + scene::subscript(head);
    std::string text = "Each query token on the left sends a line to every key token on the right; the darker the line, the more of the key's "
                       "value it takes (line opacity = " + a + "[query, key], each row of lines sums to 1).";
    if (focus) {
        text += " The bold row, “" + axisLabel(frame.ctx.run, Axis::QueryTokens, frame.ctx.state.batch, *focus) +
                "”, is drawn on top; click another query token to follow it, hover one to see all of its lines.";
    }
    say(frame, text);
}

}  // namespace

void drawLinesLesson(LessonFrame& frame) {
    ViewContext& ctx = frame.ctx;
    const render::MatrixSlice a = matrixSlice(ctx.run, {MatrixSource::Trace, core::TensorId::AttentionWeights, ctx.state.head}, ctx.state.batch);
    headPicker(frame);
    const std::optional<int> focus = focusedRow(frame, a.rows);
    explain(frame, focus);
    ImGui::Spacing();
    const TokenLinesStyle style = presentedStyle(ctx);
    Box box = remainingBox(frame);
    // Rows never shorter than the labels' floor: a long sentence makes the page scroll instead.
    box.max.y = std::max(box.max.y, box.min.y + tokenLinesHeightFor(std::max(a.rows, a.cols), style.sizes));
    frame.contentBottom = std::max(frame.contentBottom, box.max.y);
    const TokenLinesGeometry geometry = measureTokenLines(ctx, box, style);
    const std::optional<int> hovered = ImGui::IsWindowHovered() ? queryUnderMouse(geometry, box) : std::nullopt;
    if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ctx.state.lesson.linesQuery = *hovered;
    drawTokenLines(ctx, box, geometry, strongestLines(a, kMaxLines), style, focus, hovered);
    frame.report.figures.push_back("lines of A" + scene::subscript(ctx.state.head));
    frame.report.lines = ShownLines{geometry.rows, geometry.rowHeight, geometry.labelPx, focus};
}

}  // namespace attnviz::ui
