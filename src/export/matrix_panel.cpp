// matrix_panel.cpp — measuring and drawing one labelled heatmap. See matrix_panel.h for the layout.
#include "export/matrix_panel.h"

#include "colormap/head_colors.h"
#include "export/colorbar.h"
#include "scene/number_text.h"
#include "export/text.h"
#include "scene/axis_labels.h"
#include "scene/label_fit.h"
#include "scene/cell_values.h"
#include "scene/head_bands.h"
#include "scene/map_outlines.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace attnviz::exporting {
namespace {

// Spacing, base pixels.
constexpr float kRowLabelMaxWidth = 120.0f;
constexpr float kColumnLabelMaxLength = 100.0f;
constexpr int kLabelGap = 6;
constexpr int kColumnLabelGap = 4;
constexpr int kStripeThickness = 5;
constexpr int kStripeGap = 2;
constexpr int kColorbarGap = 16;
constexpr int kColorbarGapBelow = 8;
constexpr int kRowSumGap = 8;
constexpr int kHeaderGap = 12;
constexpr int kCaptionGap = 4;
constexpr float kCaptionBesideTitleGap = 10.0f;  // between a one-line title and its first caption
constexpr int kLegendGap = 12;
constexpr int kSwatchSize = 12;
constexpr int kSwatchTextGap = 5;
constexpr int kLegendEntryGap = 18;
constexpr int kLegendLineGap = 5;
constexpr float kCellValuePadding = 2.0f;
constexpr float kCellValueHeightShare = 0.55f;
constexpr float kMinCellValueSize = 7.0f;
using scene::kCapMiddleEm;  // a label's middle above its baseline
// A token cell whose label is drawn at full size with a little room: one em and a twentieth (labelledCellSize).
constexpr float kDenseLabelEm = 1.05f;

constexpr Rgba8 kHatchOverColor{255, 255, 255, 150};
constexpr Rgba8 kFocusColour = opaque(colormap::kFocusRowColor);  // the focused query row, as on screen

int ceilToInt(float value) { return static_cast<int>(std::ceil(value)); }

float rowSum(const core::Matrix& values, int row) {
    float sum = 0.0f;
    for (Eigen::Index c = 0; c < values.cols(); ++c) sum += values(row, c);
    return sum;
}

float paperTextWidth(std::string_view text, float size, FontFace face) { return textWidth(text, size, face); }

using scene::formatCellValue;

scene::LabelInk labelInk(const Theme& theme) { return {theme.text, theme.secondaryText, kFocusColour}; }

}  // namespace

// [SECTION] Measuring

MatrixPanel::MatrixPanel(PanelContent content, PanelOptions options)
    : content_(std::move(content)), options_(options) {
    if (rowCount() == 0 || colCount() == 0) throw std::invalid_argument("A matrix panel needs at least one cell.");
    options_.cellWidth = std::max(options_.cellWidth, 1);
    options_.cellHeight = std::max(options_.cellHeight, 1);
    options_.cellDivisions = std::max(options_.cellDivisions, 1);
    measureLabels();
    chooseCellValueSize();
    layOut();
}

bool MatrixPanel::isMasked(int row, int col) const {
    if (content_.isMaskMatrix) return content_.values(row, col) == 0.0f;
    return !content_.masked.empty() && content_.masked[static_cast<std::size_t>(row) * colCount() + col] != 0;
}

colormap::Rgb8 MatrixPanel::cellColor(int row, int col) const {
    if (isMasked(row, col) && (content_.isMaskMatrix || content_.maskedLook == MaskedLook::GreyHatched)) {
        return colormap::kMaskedColor;
    }
    if (content_.isMaskMatrix) return colormap::kKeptColor;
    const core::Matrix& colors = content_.colorValues.size() != 0 ? content_.colorValues : content_.values;
    return colormap::sample(content_.map, colors(row, col), content_.range.lo, content_.range.hi);
}

// A masked cell's value means nothing (the mask matrix's 0 does): none.
std::string MatrixPanel::valueText(int row, int col) const {
    return isMasked(row, col) && !content_.isMaskMatrix ? std::string() : cellText(row, col);
}

std::string MatrixPanel::cellText(int row, int col) const {
    if (content_.isMaskMatrix) return content_.values(row, col) == 0.0f ? "0" : "1";
    return formatCellValue(content_.values(row, col));
}

// The axes' label type (scene::fitAxisLabels, the screen's rule): kLabelSize, or smaller where a token axis's cells
// are too small for it, down to kMinAxisLabelSize (14 px on a 1080p slide): every token keeps its label (a slide of
// 22 tokens lost every other one, the pronoun among them). Only under that floor are labels skipped. One size for
// the panel's labels: its smaller token axis's.
float MatrixPanel::axisLabelSize() const {
    const auto shrunk = [](int count, float cell) { return scene::fitAxisLabels({count, cell, true, false, kLabelSize, kMinAxisLabelSize}).size; };
    float size = kLabelSize;
    if (content_.rows.tokens && options_.rowLabels) size = std::min(size, shrunk(rowCount(), cellHeightBase()));
    if (content_.cols.tokens) size = std::min(size, shrunk(colCount(), cellWidthBase()));
    return size;
}

void MatrixPanel::measureLabels() {
    labelSize_ = axisLabelSize();
    const LineMetrics metrics = lineMetrics(labelSize_, FontFace::Regular);
    const PanelAxis& rows = content_.rows;
    const PanelAxis& cols = content_.cols;

    const int rowStep = scene::fitAxisLabels({rowCount(), cellHeightBase(), rows.tokens, false, labelSize_, labelSize_, rows.headBlock}).step;
    rowText_.assign(static_cast<std::size_t>(rowCount()), {});
    float widestRow = 0.0f;
    const auto labelRow = [&](int r) {
        const FontFace face = isFocusRow(r) ? FontFace::Bold : FontFace::Regular;
        const std::string& label = rows.labels.at(static_cast<std::size_t>(r));
        std::string& text = rowText_[static_cast<std::size_t>(r)];
        text = rows.tokens ? truncateToWidth(label, kRowLabelMaxWidth, labelSize_, face) : label;
        widestRow = std::max(widestRow, textWidth(text, labelSize_, face));
    };
    for (const int r : scene::labelledCells(options_.rowLabels ? rowCount() : 0, rowStep, content_.focusRow)) labelRow(r);
    rowLabelWidth_ = ceilToInt(widestRow);

    rowSumText_.assign(content_.rowSums ? static_cast<std::size_t>(rowCount()) : 0, {});
    float widestSum = content_.rowSums ? textWidth("\u03A3", labelSize_, FontFace::Bold) : 0.0f;
    for (int r = 0; r < static_cast<int>(rowSumText_.size()); r += rowStep) {
        rowSumText_[static_cast<std::size_t>(r)] = formatCellValue(rowSum(content_.values, r));
        widestSum = std::max(widestSum, textWidth(rowSumText_[static_cast<std::size_t>(r)], labelSize_, FontFace::Regular));
    }
    rowSumWidth_ = ceilToInt(widestSum);

    float widestIndex = 0.0f;
    if (!cols.tokens) {
        widestIndex = textWidth(std::to_string(colCount() - 1), labelSize_, FontFace::Regular);
    }
    const int colStep = scene::fitAxisLabels({colCount(), cellWidthBase(), cols.tokens, true, labelSize_, labelSize_, cols.headBlock, widestIndex}).step;
    colText_.assign(static_cast<std::size_t>(colCount()), {});
    float longestColumn = 0.0f;
    for (int c = 0; c < colCount(); c += colStep) {
        const std::string& label = cols.labels.at(static_cast<std::size_t>(c));
        std::string& text = colText_[static_cast<std::size_t>(c)];
        text = cols.tokens ? truncateToWidth(label, kColumnLabelMaxLength, labelSize_, FontFace::Regular) : label;
        longestColumn = std::max(longestColumn, textWidth(text, labelSize_, FontFace::Regular));
    }
    colLabelHeight_ = ceilToInt(cols.tokens ? longestColumn : metrics.height());
}

void MatrixPanel::chooseCellValueSize() {
    const scene::CellValueSizing sizing{cellWidthBase(), cellHeightBase(), kMaxCellValueSize, kMinCellValueSize, kCellValueHeightShare, kCellValuePadding};
    cellValueSize_ = 0.0f;
    if (!options_.cellValues || scene::cellValueCeiling(sizing) <= 0.0f) return;  // before measuring every cell
    std::vector<std::string> texts;
    for (int r = 0; r < rowCount(); ++r) {
        for (int c = 0; c < colCount(); ++c) texts.push_back(valueText(r, c));
    }
    cellValueSize_ = scene::cellValueSize(sizing, texts, paperType());
}

scene::LegendFacts legendFacts(const PanelContent& content) {
    const bool greyMasked = content.isMaskMatrix || content.maskedLook == MaskedLook::GreyHatched;
    const auto hidden = [&](int r, int c) { return !content.masked.empty() && content.masked[static_cast<std::size_t>(r * content.values.cols() + c)] != 0; };
    scene::LegendFacts facts;
    facts.isMaskMatrix = content.isMaskMatrix;
    facts.masked = std::any_of(content.masked.begin(), content.masked.end(), [](std::uint8_t m) { return m != 0; });
    facts.maskedLabel = content.maskedLegend;
    facts.special = scene::specialValuesIn(content.values, [&](int r, int c) { return greyMasked && hidden(r, c); });
    return facts;
}

std::vector<MatrixPanel::PlacedLegendEntry> MatrixPanel::legendEntries() const {
    std::vector<PlacedLegendEntry> placed;
    for (const scene::LegendEntry& entry : scene::legendEntries(legendFacts(content_))) placed.push_back({entry});
    return placed;
}

void MatrixPanel::layOut() {
    const LineMetrics titleMetrics = formulaLineMetrics(kPanelTitleSize, FontFace::Bold);
    const LineMetrics captionMetrics = formulaLineMetrics(kCaptionSize, FontFace::Regular);
    float headerWidth = formulaWidth(content_.title, kPanelTitleSize, FontFace::Bold);

    int y = 0;
    titleBaseline_ = ceilToInt(titleMetrics.ascent);
    y = ceilToInt(titleMetrics.height());
    captionBaselines_.clear();
    if (captionBesideTitle()) {
        headerWidth += kCaptionBesideTitleGap + formulaWidth(content_.captions.front(), kCaptionSize, FontFace::Regular);
        captionBaselines_.push_back(titleBaseline_);
    }
    for (std::size_t i = captionBaselines_.size(); i < content_.captions.size(); ++i) {
        const std::string& caption = content_.captions[i];
        y += kCaptionGap;
        captionBaselines_.push_back(y + ceilToInt(captionMetrics.ascent));
        y += ceilToInt(captionMetrics.height());
        headerWidth = std::max(headerWidth, formulaWidth(caption, kCaptionSize, FontFace::Regular));
    }
    y += kHeaderGap + colLabelHeight_ + kColumnLabelGap;
    if (hasTopStripe()) y += kStripeThickness + kStripeGap;
    heatmapY_ = y;

    colorbarHeight_ = hasColorbarRight() ? std::max(heatmapHeight(), kColorbarMinHeight) : 0;
    const int rowStripe = content_.rows.headBlock > 0 ? kStripeThickness + kStripeGap : 0;
    const int heatmapOffset = rowLabelWidth_ + kLabelGap + rowStripe;
    int bodyWidth = heatmapOffset + heatmapWidth() + sumsWidth();
    if (hasColorbarRight()) {
        bodyWidth += kColorbarGap + colorbarWidth(content_.range, colorbarHeight_);
    } else if (!content_.cols.tokens) {
        // The last column's index label is centred on its cell and may stick out by half its width.
        bodyWidth += ceilToInt(textWidth(colText_.back(), labelSize_, FontFace::Regular) / 2.0f);
    }
    // A bar under the cells wider than they are (its end labels need it) hangs out on both sides, or to the right
    // where the row labels leave no room on the left.
    const int overhang = hasColorbarBelow() ? colorbarBelowWidth() - heatmapWidth() : 0;
    const int overhangLeft = std::min(overhang / 2, heatmapOffset);
    bodyWidth = std::max(bodyWidth, heatmapOffset + heatmapWidth() + overhang - overhangLeft);
    if (content_.frameColour || content_.focusRow) {  // the outlines reach outside the cells (scene/map_outlines.h)
        bodyWidth = std::max(bodyWidth, heatmapOffset + heatmapWidth() + scene::kFrameWidth);
    }
    width_ = std::max(bodyWidth, ceilToInt(headerWidth));
    bodyX_ = (width_ - bodyWidth) / 2;
    heatmapX_ = bodyX_ + heatmapOffset;
    colorbarBelowX_ = heatmapX_ - overhangLeft;

    int bodyBottom = heatmapY_ + std::max(heatmapHeight(), colorbarHeight_);
    if (hasColorbarBelow()) bodyBottom += kColorbarGapBelow + colorbarBelowHeight();
    legend_ = options_.legend ? legendEntries() : std::vector<PlacedLegendEntry>{};
    if (legend_.empty()) {
        height_ = bodyBottom + ceilToInt(lineMetrics(kTickSize, FontFace::Regular).descent) + 2;
        return;
    }
    // Flow the legend entries from the heatmap's left edge, wrapping at the panel's right edge.
    const int lineHeight = std::max(kSwatchSize, ceilToInt(lineMetrics(kLabelSize, FontFace::Regular).height()));
    int x = heatmapX_;
    y = bodyBottom + kLegendGap;
    for (PlacedLegendEntry& entry : legend_) {
        const int entryWidth = kSwatchSize + kSwatchTextGap + ceilToInt(textWidth(entry.label, kLabelSize, FontFace::Regular));
        if (x > heatmapX_ && x + entryWidth > width_) {
            x = heatmapX_;
            y += lineHeight + kLegendLineGap;
        }
        entry.x = x;
        entry.y = y;
        width_ = std::max(width_, x + entryWidth);
        x += entryWidth + kLegendEntryGap;
    }
    height_ = y + lineHeight + 2;
}

int MatrixPanel::colorbarBelowWidth() const { return std::max(heatmapWidth(), colorbarBelowMinWidth(content_.range)); }

int MatrixPanel::sumsWidth() const { return rowSumWidth_ > 0 ? kRowSumGap + rowSumWidth_ : 0; }

PanelInsets MatrixPanel::insets() const {
    return {heatmapX_, heatmapY_, width_ - heatmapX_ - heatmapWidth(), height_ - heatmapY_ - heatmapHeight()};
}

float labelledCellSize() { return kDenseLabelEm * kLabelSize; }

// [SECTION] Drawing

int MatrixPanel::cellPixels(int parts, int scale) const {
    if (scale % options_.cellDivisions != 0) {
        throw std::invalid_argument("A panel with cells in 1/" + std::to_string(options_.cellDivisions) + " base pixels is drawn at scale " +
                                    std::to_string(scale) + ".");
    }
    return parts * (scale / options_.cellDivisions);
}

HeatmapPlacement MatrixPanel::draw(Canvas& canvas, int x, int y, int scale, const Theme& theme) const {
    drawHeader(canvas, x, y, scale, theme);
    drawColumnLabels(canvas, x, y, scale, theme);
    drawRowLabels(canvas, x, y, scale, theme);
    drawStripes(canvas, x, y, scale);
    const HeatmapPlacement placed = drawCells(canvas, x, y, scale, theme);
    drawHeadBlockSeparators(canvas, placed, scale, theme);
    drawCellValues(canvas, placed, scale);
    drawOutlines(canvas, placed, scale);
    drawRowSums(canvas, x, y, scale, theme);
    if (hasColorbarBelow()) {
        drawColorbar(canvas, colorbarBelowAt(x + colorbarBelowX_, y + heatmapY_ + heatmapHeight() + kColorbarGapBelow, colorbarBelowWidth(), scale,
                                             content_.map, content_.range), theme);
    }
    if (hasColorbarRight()) {
        drawColorbar(canvas, colorbarAt(x + heatmapX_ + heatmapWidth() + sumsWidth() + kColorbarGap, y + heatmapY_, colorbarHeight_, scale,
                                        content_.map, content_.range), theme);
    }
    drawLegend(canvas, x, y, scale, theme);
    return placed;
}

void MatrixPanel::drawHeader(Canvas& canvas, int x, int y, int scale, const Theme& theme) const {
    // Centred over the heatmap, but never outside the panel.
    const float centre = static_cast<float>(heatmapX_) + static_cast<float>(heatmapWidth()) / 2.0f;
    const auto centredLeft = [&](float textWidth) {
        return std::clamp(centre - textWidth / 2.0f, 0.0f, std::max(0.0f, static_cast<float>(width_) - textWidth));
    };
    const float titleWidth = formulaWidth(content_.title, kPanelTitleSize, FontFace::Bold);
    const bool beside = captionBesideTitle();
    const float besideWidth = beside ? kCaptionBesideTitleGap + formulaWidth(content_.captions.front(), kCaptionSize, FontFace::Regular) : 0.0f;
    const float titleLeft = static_cast<float>(x) + centredLeft(titleWidth + besideWidth);
    drawFormula(canvas, titleLeft * scale, static_cast<float>((y + titleBaseline_) * scale), content_.title,
                {kPanelTitleSize * scale, FontFace::Bold, theme.text});
    for (std::size_t i = 0; i < content_.captions.size(); ++i) {
        const std::string& caption = content_.captions[i];
        const float width = formulaWidth(caption, kCaptionSize, FontFace::Regular);
        const float left = beside && i == 0 ? titleLeft + titleWidth + kCaptionBesideTitleGap : static_cast<float>(x) + centredLeft(width);
        drawFormula(canvas, left * scale,
                 static_cast<float>((y + captionBaselines_[i]) * scale), caption,
                 {kCaptionSize * scale, FontFace::Regular, theme.secondaryText});
    }
}

// rowText_ holds the labelled rows' texts (empty elsewhere), so every row is offered.
void MatrixPanel::drawRowLabels(Canvas& canvas, int x, int y, int scale, const Theme& theme) const {
    const int rowStripe = content_.rows.headBlock > 0 ? kStripeThickness + kStripeGap : 0;
    const scene::AxisLabelSpec spec{rowCount(), 1, static_cast<float>(y + heatmapY_), cellHeightBase(),
                                    static_cast<float>(x + heatmapX_ - rowStripe - kLabelGap), labelSize_, content_.focusRow, content_.rows.paddingFrom};
    drawLabels(canvas, scene::rowLabels(spec, [&](int r) { return rowText_[static_cast<std::size_t>(r)]; }, paperTextWidth, labelInk(theme)), scale);
}

// Σ above the column, each labelled row's sum beside it.
void MatrixPanel::drawRowSums(Canvas& canvas, int x, int y, int scale, const Theme& theme) const {
    if (rowSumWidth_ == 0) return;
    const float left = static_cast<float>(x + heatmapX_ + heatmapWidth() + kRowSumGap);
    const float descent = lineMetrics(labelSize_, FontFace::Regular).descent;
    drawText(canvas, left * scale, (static_cast<float>(y + heatmapY_ - kColumnLabelGap) - descent) * scale, "\u03A3",
             {labelSize_ * scale, FontFace::Bold, theme.text});
    scene::AxisLabelSpec spec{rowCount(), 1, static_cast<float>(y + heatmapY_), cellHeightBase(), left, labelSize_};
    spec.fromEdge = true;
    const scene::LabelInk ink{theme.secondaryText, theme.secondaryText, theme.secondaryText};
    drawLabels(canvas, scene::rowLabels(spec, [&](int r) { return rowSumText_[static_cast<std::size_t>(r)]; }, paperTextWidth, ink), scale);
}

void MatrixPanel::drawColumnLabels(Canvas& canvas, int x, int y, int scale, const Theme& theme) const {
    const int stripe = hasTopStripe() ? kStripeThickness + kStripeGap : 0;
    const float bandBottom = static_cast<float>(y + heatmapY_ - stripe - kColumnLabelGap);
    const float edge = content_.cols.tokens ? bandBottom : bandBottom - lineMetrics(labelSize_, FontFace::Regular).descent;
    const scene::AxisLabelSpec spec{colCount(), 1, static_cast<float>(x + heatmapX_), cellWidthBase(), edge, labelSize_, std::nullopt,
                                    content_.cols.paddingFrom, content_.cols.tokens};
    drawLabels(canvas, scene::columnLabels(spec, [&](int c) { return colText_[static_cast<std::size_t>(c)]; }, paperTextWidth, labelInk(theme)), scale);
}

void MatrixPanel::drawStripes(Canvas& canvas, int x, int y, int scale) const {
    const int top = (y + heatmapY_ - kStripeGap - kStripeThickness) * scale;
    const int left = (x + heatmapX_) * scale;
    const auto bandsAlong = [&](const PanelAxis& axis, int count, int cellSide, float start, int headsPerColour) {
        return scene::headBands(count, axis.headBlock, start, static_cast<float>(cellPixels(cellSide, scale)), headsPerColour);
    };
    if (content_.head) {
        canvas.fillRect({left, top, colCount() * cellPixels(options_.cellWidth, scale), kStripeThickness * scale},
                        opaque(colormap::headColor(*content_.head / content_.headsPerColour)));
    } else {
        for (const scene::HeadBand& band : bandsAlong(content_.cols, colCount(), options_.cellWidth, static_cast<float>(left), content_.headsPerColour)) {
            canvas.fillRect({static_cast<int>(band.from), top, static_cast<int>(band.to - band.from), kStripeThickness * scale},
                            opaque(colormap::headColor(band.colour)));
        }
    }
    const int stripeLeft = (x + heatmapX_ - kStripeGap - kStripeThickness) * scale;
    for (const scene::HeadBand& band : bandsAlong(content_.rows, rowCount(), options_.cellHeight, static_cast<float>((y + heatmapY_) * scale), 1)) {
        canvas.fillRect({stripeLeft, static_cast<int>(band.from), kStripeThickness * scale, static_cast<int>(band.to - band.from)},
                        opaque(colormap::headColor(band.colour)));
    }
}

HeatmapPlacement MatrixPanel::drawCells(Canvas& canvas, int x, int y, int scale, const Theme& theme) const {
    HeatmapPlacement placed;
    placed.rows = rowCount();
    placed.cols = colCount();
    placed.cellWidth = cellPixels(options_.cellWidth, scale);
    placed.cellHeight = cellPixels(options_.cellHeight, scale);
    placed.rect = {(x + heatmapX_) * scale, (y + heatmapY_) * scale, placed.cols * placed.cellWidth, placed.rows * placed.cellHeight};
    const bool greyMasked = content_.isMaskMatrix || content_.maskedLook == MaskedLook::GreyHatched;
    const Rgba8 hatch = greyMasked ? theme.hatch : kHatchOverColor;
    Drawing::Cells cells{placed.rect.x, placed.rect.y, placed.cellWidth, placed.cellHeight, placed.cols, placed.rows, {}};
    cells.colors.reserve(static_cast<std::size_t>(placed.rows) * placed.cols);
    for (int r = 0; r < rowCount(); ++r) {
        for (int c = 0; c < colCount(); ++c) cells.colors.push_back(opaque(cellColor(r, c)));
    }
    canvas.fillCells(std::move(cells));
    for (int r = 0; r < rowCount(); ++r) {
        for (int c = 0; c < colCount(); ++c) {
            if (isMasked(r, c)) canvas.hatchRect(placed.cell(r, c), hatch, 5 * scale, scale);
        }
    }
    const PixelRect& h = placed.rect;
    canvas.strokeRect({h.x - scale, h.y - scale, h.width + 2 * scale, h.height + 2 * scale}, theme.frame, scale);
    return placed;
}

// A line where each head's block but the first begins.
void MatrixPanel::drawHeadBlockSeparators(Canvas& canvas, const HeatmapPlacement& placed, int scale,
                                          const Theme& theme) const {
    const PixelRect& h = placed.rect;
    const std::vector<scene::HeadBand> cols = scene::headBands(colCount(), content_.cols.headBlock, static_cast<float>(h.x), static_cast<float>(placed.cellWidth));
    for (std::size_t i = 1; i < cols.size(); ++i) canvas.fillRect({static_cast<int>(cols[i].from) - scale / 2, h.y, scale, h.height}, theme.separator);
    const std::vector<scene::HeadBand> rows = scene::headBands(rowCount(), content_.rows.headBlock, static_cast<float>(h.y), static_cast<float>(placed.cellHeight));
    for (std::size_t i = 1; i < rows.size(); ++i) canvas.fillRect({h.x, static_cast<int>(rows[i].from) - scale / 2, h.width, scale}, theme.separator);
}

// A head's tile framed in its colour, the focused row outlined (scene/map_outlines.h, as on screen).
void MatrixPanel::drawOutlines(Canvas& canvas, const HeatmapPlacement& placed, int scale) const {
    scene::MapOutlineSpec spec{placed.rect, rowCount(), content_.focusRow, std::nullopt, false, scale};
    if (content_.frameColour) spec.frame = opaque(colormap::headColor(*content_.frameColour));
    for (const Drawing::Stroke& stroke : scene::mapOutlines(spec)) canvas.strokeRect(stroke.rect, stroke.color, stroke.thickness);
}

// The numbers in the cells (scene/cell_values.h, as on screen).
void MatrixPanel::drawCellValues(Canvas& canvas, const HeatmapPlacement& placed, int scale) const {
    const scene::CellGrid grid{static_cast<float>(placed.rect.x), static_cast<float>(placed.rect.y), static_cast<float>(placed.cellWidth),
                               static_cast<float>(placed.cellHeight), rowCount(), colCount()};
    drawLabels(canvas, scene::cellValues(grid, cellValueSize_ * static_cast<float>(scale), [&](int r, int c) { return valueText(r, c); },
                                         [&](int r, int c) { return cellColor(r, c); }, paperType()));
}

void MatrixPanel::drawSwatch(Canvas& canvas, PixelRect rect, scene::LegendSwatch swatch, int scale,
                             const Theme& theme) const {
    using Swatch = scene::LegendSwatch;
    const bool greyMasked = content_.isMaskMatrix || content_.maskedLook == MaskedLook::GreyHatched;
    switch (swatch) {
        case Swatch::Masked:
            canvas.fillRect(rect, opaque(greyMasked ? colormap::kMaskedColor
                                                    : colormap::sample(content_.map, 0.0f, content_.range.lo,
                                                                       content_.range.hi)));
            canvas.hatchRect(rect, greyMasked ? theme.hatch : kHatchOverColor, 5 * scale, scale);
            break;
        case Swatch::Kept: canvas.fillRect(rect, opaque(colormap::kKeptColor)); break;
        case Swatch::Nan: canvas.fillRect(rect, opaque(colormap::kNanColor)); break;
        case Swatch::PositiveInf: canvas.fillRect(rect, opaque(colormap::kPositiveInfColor)); break;
        case Swatch::NegativeInf: canvas.fillRect(rect, opaque(colormap::kNegativeInfColor)); break;
    }
    canvas.strokeRect({rect.x - scale, rect.y - scale, rect.width + 2 * scale, rect.height + 2 * scale}, theme.frame,
                      scale);
}

void MatrixPanel::drawLegend(Canvas& canvas, int x, int y, int scale, const Theme& theme) const {
    for (const PlacedLegendEntry& entry : legend_) {
        const PixelRect swatch{(x + entry.x) * scale, (y + entry.y) * scale, kSwatchSize * scale, kSwatchSize * scale};
        drawSwatch(canvas, swatch, entry.swatch, scale, theme);
        const float baseline = static_cast<float>(y + entry.y) + kSwatchSize / 2.0f + kCapMiddleEm * kLabelSize;
        drawText(canvas, static_cast<float>((x + entry.x + kSwatchSize + kSwatchTextGap) * scale), baseline * scale,
                 entry.label, {kLabelSize * scale, FontFace::Regular, theme.text});
    }
}

}  // namespace attnviz::exporting
