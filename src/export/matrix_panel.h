// matrix_panel.h — one labelled heatmap: the building block of every figure.
//
//                 title (formula)                     e.g. "A_2 = softmax(Q_2 K_2^T / sqrt(d_k))"
//                 caption lines                       shape in paper notation and in numbers; what rows/cols are
//                 column labels                       tokens (drawn upwards) or feature indices
//                 head color stripe                   one head's color, or one color per head block
//   row labels  ▕ heatmap cells ▏ Σ  colorbar + ticks   (Σ: each row's sum, when asked)
//                 (or the colorbar here, under the cells)
//                 legend                              masked / NaN / ±∞ swatches, only for what is present
//
// A panel is measured once (in base pixels, at scale 1) and can then be drawn at any scale: every length is
// multiplied by the scale, so a figure at scale 2 is exactly twice as wide as at scale 1. Cells are whole
// pixels (whole base pixels, or whole parts of one at scales that divide into them: PanelOptions::cellDivisions)
// and are filled with exactly colormap::sample(map, value, lo, hi) (or a special color), so a cell's centre pixel
// can be checked against the colormap.
//
// What this file deliberately does not do: slice tensors, choose titles or colormaps (figure.cpp and
// notation.cpp do), or place panels next to each other.
#pragma once

#include "colormap/colormap.h"
#include "core/matrix.h"
#include "export/canvas.h"
#include "export/theme.h"
#include "scene/legend.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace attnviz::exporting {

struct PanelAxis {
    std::vector<std::string> labels;  // one per row (column): tokens, or index numbers
    bool tokens = false;              // tokens: truncated when long, columns drawn upwards; indices: thinned
    int paddingFrom = std::numeric_limits<int>::max();  // labels from this index on are padding, drawn dimmed
    int headBlock = 0;                // > 0: h blocks of this width, each striped in its head's color
};

// How a masked cell (mask == 0) looks: scores are replaced by the fill value, so their color means nothing
// and they are grey; weights are real zeros, so they keep their color under the hatching.
enum class MaskedLook { GreyHatched, HatchedOverColor };

struct PanelContent {
    std::string title;                  // formula markup (text.h)
    std::vector<std::string> captions;  // lines under the title, formula markup too (d_k, h·d_v)
    bool firstCaptionBesideTitle = false;  // a slide's one-line title: "A_0   l × l = 22 × 22", the other captions under it
    core::Matrix values;                // rows × cols, as displayed (already transposed when shown transposed)
    std::vector<std::uint8_t> masked;   // rows × cols, 1 where the mask hides the cell; empty: nothing masked
    MaskedLook maskedLook = MaskedLook::GreyHatched;
    std::string maskedLegend;           // legend text for masked cells
    bool isMaskMatrix = false;          // the mask itself: 1 = kept, 0 = masked; no colorbar
    PanelAxis rows;
    PanelAxis cols;
    colormap::Colormap map = colormap::Colormap::Viridis;
    colormap::Range range;
    core::Matrix colorValues;           // what the colors show when not `values` ("row max": each row ÷ its max); empty: values
    std::optional<int> head;            // a one-head matrix: stripe in that head's color
    int headsPerColour = 1;             // head i's stripe in the colour of i / headsPerColour (query heads sharing a K/V head)
    std::optional<int> frameColour;     // a head's tile: the cells framed in this head's colour
    std::optional<int> focusRow;        // the query the lecture follows ("it"): outlined, its label bold, in the screen's orange
    bool rowSums = false;               // each row's sum right of the cells (softmax rows sum to 1)
};

struct PanelOptions {
    int cellWidth = 16;   // base pixels (or parts of one: cellDivisions)
    int cellHeight = 16;
    // > 1: cellWidth and cellHeight count 1/cellDivisions of a base pixel, and the panel is drawn only at scales that
    // are multiples of it (a slide's maps: half base pixels, whole pixels of the slide at 1080p). Everything else
    // stays in whole base pixels; the cells' box is rounded up to them.
    int cellDivisions = 1;
    bool colorbar = true;
    bool colorbarBelow = false;  // the colorbar under the cells, as wide as they are (labels: lo, 0, hi), not at the right
    bool cellValues = true;  // print values in cells when every value fits
    bool rowLabels = true;   // false: a panel right of another with the same rows leaves them out
    bool legend = true;      // false: panels in a grid share one legend (on the last panel)
};

// The room a panel's decorations take around its cells, base pixels: what a scene layout reserves for them.
struct PanelInsets {
    int left = 0, top = 0, right = 0, bottom = 0;
};

// What the panel's legend says (scene/legend.h): which cells are hatched and what they mean, and the special values
// among the cells drawn in colour.
scene::LegendFacts legendFacts(const PanelContent& content);

// The smallest token cell (base pixels) whose every row or column keeps its label.
float labelledCellSize();

// Where a heatmap landed in the final image, in final pixels.
struct HeatmapPlacement {
    PixelRect rect;
    int rows = 0, cols = 0;
    int cellWidth = 0, cellHeight = 0;
    PixelRect cell(int row, int col) const {
        return {rect.x + col * cellWidth, rect.y + row * cellHeight, cellWidth, cellHeight};
    }
};

class MatrixPanel {
public:
    // Measures the panel; throws FontError when the fonts are missing.
    MatrixPanel(PanelContent content, PanelOptions options);

    int width() const { return width_; }
    int height() const { return height_; }
    // The heatmap's vertical middle, from the panel's top (operators between panels line up on it).
    int heatmapMiddle() const { return heatmapY_ + heatmapHeight() / 2; }
    int heatmapTop() const { return heatmapY_; }
    int heatmapHeight() const { return wholeBasePixels(rowCount() * options_.cellHeight); }
    int heatmapLeft() const { return heatmapX_; }
    PanelInsets insets() const;

    // Draws with the panel's top-left corner at (x, y) base pixels.
    HeatmapPlacement draw(Canvas& canvas, int x, int y, int scale, const Theme& theme) const;

private:
    struct PlacedLegendEntry : scene::LegendEntry {
        int x = 0, y = 0;  // from the panel's top-left
    };

    int rowCount() const { return static_cast<int>(content_.values.rows()); }
    int colCount() const { return static_cast<int>(content_.values.cols()); }
    int heatmapWidth() const { return wholeBasePixels(colCount() * options_.cellWidth); }
    int wholeBasePixels(int parts) const { return (parts + options_.cellDivisions - 1) / options_.cellDivisions; }
    float cellWidthBase() const { return static_cast<float>(options_.cellWidth) / static_cast<float>(options_.cellDivisions); }
    int cellPixels(int parts, int scale) const;  // `parts` of a cell side at `scale`, in final pixels
    float cellHeightBase() const { return static_cast<float>(options_.cellHeight) / static_cast<float>(options_.cellDivisions); }
    bool hasColorbar() const { return options_.colorbar && !content_.isMaskMatrix; }
    bool hasColorbarRight() const { return hasColorbar() && !options_.colorbarBelow; }
    bool hasColorbarBelow() const { return hasColorbar() && options_.colorbarBelow; }
    int colorbarBelowWidth() const;  // the cells' width, or what its labels need when more
    int sumsWidth() const;  // the row sums' column and the gap before it
    bool hasTopStripe() const { return content_.head.has_value() || content_.cols.headBlock > 0; }
    bool captionBesideTitle() const { return content_.firstCaptionBesideTitle && !content_.captions.empty(); }
    bool isMasked(int row, int col) const;
    colormap::Rgb8 cellColor(int row, int col) const;
    std::string cellText(int row, int col) const;

    float axisLabelSize() const;
    void measureLabels();
    void chooseCellValueSize();
    std::string valueText(int row, int col) const;  // what a cell prints: empty when masked
    std::vector<PlacedLegendEntry> legendEntries() const;
    void layOut();

    void drawHeader(Canvas& canvas, int x, int y, int scale, const Theme& theme) const;
    void drawRowLabels(Canvas& canvas, int x, int y, int scale, const Theme& theme) const;
    void drawColumnLabels(Canvas& canvas, int x, int y, int scale, const Theme& theme) const;
    void drawStripes(Canvas& canvas, int x, int y, int scale) const;
    HeatmapPlacement drawCells(Canvas& canvas, int x, int y, int scale, const Theme& theme) const;
    void drawCellValues(Canvas& canvas, const HeatmapPlacement& placed, int scale) const;
    void drawHeadBlockSeparators(Canvas& canvas, const HeatmapPlacement& placed, int scale, const Theme& theme) const;
    void drawOutlines(Canvas& canvas, const HeatmapPlacement& placed, int scale) const;
    bool isFocusRow(int row) const { return content_.focusRow == row; }
    void drawRowSums(Canvas& canvas, int x, int y, int scale, const Theme& theme) const;
    void drawLegend(Canvas& canvas, int x, int y, int scale, const Theme& theme) const;
    void drawSwatch(Canvas& canvas, PixelRect rect, scene::LegendSwatch swatch, int scale, const Theme& theme) const;

    PanelContent content_;
    PanelOptions options_;
    float labelSize_ = kLabelSize;  // the axes' labels and row sums (axisLabelSize)
    std::vector<std::string> rowText_;  // displayed (possibly truncated) labels; empty string: not shown
    std::vector<std::string> colText_;
    int rowLabelWidth_ = 0;
    std::vector<std::string> rowSumText_;  // beside each labelled row when content_.rowSums; empty: not shown
    int rowSumWidth_ = 0;                  // 0: no row sums
    int colLabelHeight_ = 0;
    float cellValueSize_ = 0.0f;  // 0: values not printed
    int bodyX_ = 0;               // left of the row labels
    int heatmapX_ = 0, heatmapY_ = 0;
    int colorbarHeight_ = 0;  // the one at the right
    int colorbarBelowX_ = 0;  // from the panel's left
    int titleBaseline_ = 0;
    std::vector<int> captionBaselines_;
    std::vector<PlacedLegendEntry> legend_;
    int width_ = 0, height_ = 0;
};

}  // namespace attnviz::exporting
