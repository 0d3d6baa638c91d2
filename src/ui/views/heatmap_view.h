// heatmap_view.h — one labeled heatmap: the matrix as a texture, its name and shapes above it, tokens or
// feature indices along its axes, head blocks in head colors, a colorbar with ticks and a legend for masked
// and special values, values printed in cells that are big enough, and the hovered cell reported back.
//
// Layout is the caller's: it either gives the cell rectangle (after asking heatmapInsets() how much room
// the decorations need around it) or a box to fit in. Does not pick colormaps for stages or know about
// other matrices, except to outline the rows and columns the hovered cell's explanation names.
#pragma once

#include "scene/layout.h"
#include "ui/views/view_context.h"

#include <imgui.h>

#include <optional>
#include <string>

namespace attnviz::ui {

enum class TitleStyle {
    Full,     // name and paper shape, then the PyTorch tensor shape (two lines)
    Compact,  // name and numeric shape (one line)
    None,
};
enum class ColorbarSide { Right, Below, None };

struct HeatmapOptions {
    TitleStyle title = TitleStyle::Full;
    bool rowLabels = true;
    bool colLabels = true;
    ColorbarSide colorbar = ColorbarSide::Right;
    bool transposed = false;                 // draw cols × rows (Kᵀ from K)
    bool rowSums = false;                    // "Σ" of each row at the right (softmax weights sum to 1)
    bool headBlocks = true;                  // band and outline each head's block of columns (or rows)
    int headsPerColour = 1;                  // block i in the colour of i / headsPerColour (query heads sharing a K/V head)
    std::optional<int> focusRow;             // a displayed row outlined, its label bold: the query the lecture follows
    std::optional<int> frameHead;            // a frame in this head's color around the cells
    bool emphasized = false;                 // a thicker frame (the focused head among thumbnails)
    std::optional<colormap::Range> range;    // instead of the tensor's own range (scale: S and S/√d_k alike)
    std::string caption;                     // replaces the name in the title ("head 3")
    bool pinOnClick = true;                  // a click pins the cell (thumbnails use clicks to pick heads)
    bool lectureLabels = true;               // presenting: token labels ≥ 14 px; thumbnails keep the 9 px floor
};

// Room the decorations take around the cell rectangle.
struct Insets {
    float left = 0.0f, top = 0.0f, right = 0.0f, bottom = 0.0f;
};

struct HeatmapResult {
    bool hovered = false;  // the mouse is over a cell (AppState::hovered now names it)
    bool clicked = false;
    ImVec2 outerMin, outerMax;  // cells plus decorations
};

// Displayed rows and columns of `ref` (swapped when transposed).
ImVec2 displayShape(const ViewContext& ctx, const MatrixRef& ref, bool transposed);
Insets heatmapInsets(const ViewContext& ctx, const MatrixRef& ref, const HeatmapOptions& options);
// Draws the cells into exactly [cellsMin, cellsMax] and the decorations around it.
HeatmapResult drawHeatmap(ViewContext& ctx, const MatrixRef& ref, ImVec2 cellsMin, ImVec2 cellsMax, const HeatmapOptions& options);
// Fits the heatmap and its decorations into the box: cells as large as fit (at most maxCell pixels),
// square when both axes are tokens or the matrix is square, top-left aligned.
HeatmapResult drawHeatmapInBox(ViewContext& ctx, const MatrixRef& ref, ImVec2 boxMin, ImVec2 boxMax, const HeatmapOptions& options);
// One colour range for attention-weight maps drawn to be compared (every head; trained against untrained): 0 …
// the largest of their own ranges under the first view's probability scale, each read in its view's run and batch.
colormap::Range sharedWeightsRange(const std::vector<std::pair<const ViewContext*, MatrixRef>>& maps);
// The sentence length the lecture's label floor tapers with (scene::lectureLabelFloor): the run's longest token
// axis, queries or keys (padded).
int longestTokenAxis(const ViewContext& ctx);
// The layout rules for this frame's type: the label floor (presenting: the lecture's, for longestTokenAxis), cell
// sizes, gaps.
scene::Rules layoutRules(const ViewContext& ctx);
// The shortest token row (or narrowest token column) that still gets its own label, shrunk to the label floor.
float smallestLabelledCell(const ViewContext& ctx);
// A token row whose label is drawn at full size. Layouts that keep cells under an aspect ratio let token rows
// grow to it anyway: 768 sub-pixel columns must not squeeze the rows' labels.
float comfortableTokenRow(const ViewContext& ctx);

// The largest cell side the layouts use, in pixels at UI scale 1: bigger cells add nothing but emptiness.
inline constexpr float kMaxCell = 46.0f;

}  // namespace attnviz::ui
