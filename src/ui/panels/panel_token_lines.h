// panel_token_lines.h — one head's attention as token → token lines (BertViz's head view, the Illustrated
// Transformer's figure): query tokens on the left, key tokens on the right, a line from query r to key c with
// opacity A[r, c]. Drawn in two places: the right panel beside the stage (TokenLinesPanel, small type, hidden
// while presenting) and the line view's question page (lesson_lines.cpp, large type, presented).
//
// tokenLinesGeometry() decides where the rows, labels and lines go in a box, without ImGui, so the label sizes
// are tested without a window; drawTokenLines() paints that geometry.
#pragma once

#include "scene/layout.h"
#include "ui/views/drawing.h"
#include "ui/views/view_context.h"

#include <optional>
#include <vector>

namespace attnviz::ui {

// One line: query row → key column, at the weight A[query, key].
struct TokenLine {
    int query = 0;
    int key = 0;
    float weight = 0.0f;
};
// The weights above the drawing threshold (1 %), the strongest `limit` at most, in row-major order.
std::vector<TokenLine> strongestLines(const render::MatrixSlice& weights, std::size_t limit);

// Where the line view's parts go: `rows` token rows (the longer side's count) down the box, the labels' type
// between sizes.floor and sizes.full as the rows allow, the lines between the two label columns.
struct TokenLinesGeometry {
    float top = 0.0f;        // the first row's top
    float rowHeight = 0.0f;  // one token's row, on either side
    float labelPx = 0.0f;    // the labels' type; 0 when the rows are too short for labels at the floor
    float queryRight = 0.0f; // the query labels end here (right-aligned)
    float left = 0.0f;       // the lines run from left …
    float right = 0.0f;      // … to right
    float keyLeft = 0.0f;    // the key labels start here
    int rows = 0;
    float rowMiddle(int row) const { return top + (static_cast<float>(row) + 0.5f) * rowHeight; }
    float bottom() const { return top + static_cast<float>(rows) * rowHeight; }
};
// `queryWidth` and `keyWidth`: the widest label of each side at sizes.full (widths scale with the type), each
// column at most `labelRoom` of the box's width. `maxRow`: the tallest a row gets (a few tokens need not fill a
// projector's height).
TokenLinesGeometry tokenLinesGeometry(const Box& box, int rows, float queryWidth, float keyWidth, scene::LabelSizes sizes, float maxRow,
                                      float labelRoom);
// The box height at which `rows` rows keep their labels at the floor.
float tokenLinesHeightFor(int rows, scene::LabelSizes sizes);

struct TokenLinesStyle {
    scene::LabelSizes sizes;      // the labels' floor and full size
    ImFont* labelFont = nullptr;  // the labels' face (drawn at TokenLinesGeometry::labelPx)
    ImFont* focusFont = nullptr;  // the focused query's label
    float maxRow = 0.0f;          // the tallest a row gets
    float labelRoom = 0.3f;       // the most each label column takes of the box's width (longer labels are cut)
    float lineWidth = 1.0f;       // a full-weight line is 1 + 2.5 × this wide
};
// The geometry of the focused head's lines for the run on screen in `box`, its labels measured in `style`'s font.
TokenLinesGeometry measureTokenLines(const ViewContext& ctx, const Box& box, const TokenLinesStyle& style);
// Paints the focused head's lines with `geometry`: every line in `lines`, or, with `only`, every line of that
// query row (the faint ones too); the `focus` row's label bold and its lines drawn last, thicker.
void drawTokenLines(const ViewContext& ctx, const Box& box, const TokenLinesGeometry& geometry, const std::vector<TokenLine>& lines,
                    const TokenLinesStyle& style, std::optional<int> focus, std::optional<int> only);
// The query row under the mouse (over its label or where its lines start), if any.
std::optional<int> queryUnderMouse(const TokenLinesGeometry& geometry, const Box& box);

// The right panel's lines, found once per run, head and sentence (the strongest 256), so a frame draws them
// without reading all l² weights again (1M a frame at l = 1024).
class TokenLinesPanel {
public:
    // Lines from query tokens (left) to key tokens (right), opacity by the focused head's attention weight.
    void draw(ViewContext& ctx, float height);
    // The run on screen changed: the lines found in the old one go.
    void clear() { found_.reset(); }

private:
    struct Found {
        int head = 0;
        int batch = 0;
        std::vector<TokenLine> lines;
    };
    const std::vector<TokenLine>& linesOf(const ViewContext& ctx, const render::MatrixSlice& weights);

    std::optional<Found> found_;
};

}  // namespace attnviz::ui
