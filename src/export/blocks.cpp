// blocks.cpp — text, panel and grid blocks, and stacking them into a figure. See blocks.h.
#include "export/blocks.h"

#include "export/colorbar.h"
#include "export/export_error.h"

#include <algorithm>
#include <cmath>

namespace attnviz::exporting {
namespace {

int ceilToInt(float value) { return static_cast<int>(std::ceil(value)); }

// [SECTION] Grid
constexpr int kGridGapX = 28;
constexpr int kGridGapY = 24;
constexpr int kGridColorbarGap = 20;

Rgba8 roleColor(TextRole role, const Theme& theme) { return role == TextRole::Primary ? theme.text : theme.secondaryText; }

}  // namespace

// [SECTION] TextBlock

TextBlock::TextBlock(std::vector<std::string> lines, float size, FontFace face, TextRole role, bool formula)
    : lines_(std::move(lines)), size_(size), face_(face), role_(role), formula_(formula) {
    const LineMetrics metrics = formula_ ? formulaLineMetrics(size_, face_) : lineMetrics(size_, face_);
    ascent_ = ceilToInt(metrics.ascent);
    lineHeight_ = ceilToInt(metrics.height() * 1.15f);
    for (const std::string& line : lines_) {
        const float w = formula_ ? formulaWidth(line, size_, face_) : textWidth(line, size_, face_);
        width_ = std::max(width_, ceilToInt(w));
    }
    height_ = lines_.empty() ? 0 : static_cast<int>(lines_.size() - 1) * lineHeight_ + ceilToInt(metrics.height());
}

void TextBlock::draw(Canvas& canvas, int x, int y, int scale, const Theme& theme, std::vector<PlacedHeatmap>&) const {
    const TextStyle style{size_ * scale, face_, roleColor(role_, theme)};
    for (std::size_t i = 0; i < lines_.size(); ++i) {
        const float baseline = static_cast<float>((y + ascent_ + static_cast<int>(i) * lineHeight_) * scale);
        if (formula_) {
            drawFormula(canvas, static_cast<float>(x * scale), baseline, lines_[i], style);
        } else {
            drawText(canvas, static_cast<float>(x * scale), baseline, lines_[i], style);
        }
    }
}

// [SECTION] PanelBlock

void PanelBlock::draw(Canvas& canvas, int x, int y, int scale, const Theme& theme, std::vector<PlacedHeatmap>& placed) const {
    const HeatmapPlacement where = panel_.panel.draw(canvas, x, y, scale, theme);
    placed.push_back({panel_.request.tensor, panel_.request.head, panel_.request.transposed, where});
}

// [SECTION] GridBlock

GridBlock::GridBlock(std::vector<TensorPanel> panels, int columns, std::optional<SharedScale> colorbar)
    : panels_(std::move(panels)), columns_(std::max(columns, 1)), colorbar_(colorbar) {
    for (const TensorPanel& p : panels_) {
        cellWidth_ = std::max(cellWidth_, p.panel.width());
        cellHeight_ = std::max(cellHeight_, p.panel.height());
    }
    const int count = static_cast<int>(panels_.size());
    const int used = std::min(columns_, count);
    const int rows = (count + columns_ - 1) / columns_;
    width_ = used * cellWidth_ + (used - 1) * kGridGapX;
    height_ = rows * cellHeight_ + (rows - 1) * kGridGapY;
    if (colorbar_ && !panels_.empty()) {
        colorbarHeight_ = std::max(panels_.front().panel.heatmapHeight(), kColorbarMinHeight);
        width_ += kGridColorbarGap + colorbarWidth(colorbar_->range, colorbarHeight_);
        height_ = std::max(height_, panels_.front().panel.heatmapTop() + colorbarHeight_);
    }
}

void GridBlock::draw(Canvas& canvas, int x, int y, int scale, const Theme& theme,
                     std::vector<PlacedHeatmap>& placed) const {
    for (std::size_t i = 0; i < panels_.size(); ++i) {
        const int column = static_cast<int>(i) % columns_, row = static_cast<int>(i) / columns_;
        const TensorPanel& p = panels_[i];
        const int cellX = x + column * (cellWidth_ + kGridGapX) + (cellWidth_ - p.panel.width()) / 2;
        const int cellY = y + row * (cellHeight_ + kGridGapY);
        const HeatmapPlacement where = p.panel.draw(canvas, cellX, cellY, scale, theme);
        placed.push_back({p.request.tensor, p.request.head, p.request.transposed, where});
    }
    if (colorbar_ && !panels_.empty()) {
        const int used = std::min(columns_, static_cast<int>(panels_.size()));
        const int barX = x + used * cellWidth_ + (used - 1) * kGridGapX + kGridColorbarGap;
        drawColorbar(canvas, colorbarAt(barX, y + panels_.front().panel.heatmapTop(), colorbarHeight_, scale, colorbar_->map, colorbar_->range), theme);
    }
}

// [SECTION] Stacking

int stackWidth(const std::vector<StackedBlock>& blocks) {
    int width = 0;
    for (const StackedBlock& b : blocks) width = std::max(width, b.block->width());
    return width;
}

StackBlock::StackBlock(std::vector<StackedBlock> blocks) : blocks_(std::move(blocks)) {
    width_ = stackWidth(blocks_);
    for (const StackedBlock& b : blocks_) height_ += b.gapBefore + b.block->height();
}

void StackBlock::draw(Canvas& canvas, int x, int y, int scale, const Theme& theme,
                      std::vector<PlacedHeatmap>& placed) const {
    for (const StackedBlock& b : blocks_) {
        y += b.gapBefore;
        b.block->draw(canvas, x + (b.centred ? (width_ - b.block->width()) / 2 : 0), y, scale, theme, placed);
        y += b.block->height();
    }
}

FlowBlock::FlowBlock(std::vector<std::unique_ptr<Block>> blocks, int maxWidth, int gapX, int gapY)
    : blocks_(std::move(blocks)) {
    int x = 0, rowTop = 0, rowHeight = 0;
    for (const std::unique_ptr<Block>& block : blocks_) {
        if (x > 0 && x + block->width() > maxWidth) {
            x = 0;
            rowTop += rowHeight + gapY;
            rowHeight = 0;
        }
        blockX_.push_back(x);
        blockY_.push_back(rowTop);
        width_ = std::max(width_, x + block->width());
        rowHeight = std::max(rowHeight, block->height());
        x += block->width() + gapX;
    }
    height_ = rowTop + rowHeight;
}

void FlowBlock::draw(Canvas& canvas, int x, int y, int scale, const Theme& theme,
                     std::vector<PlacedHeatmap>& placed) const {
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
        blocks_[i]->draw(canvas, x + blockX_[i], y + blockY_[i], scale, theme, placed);
    }
}

Figure composeFigure(std::vector<StackedBlock> blocks, std::string title, const FigureStyle& style) {
    const StackBlock content(std::move(blocks));
    const long long width = static_cast<long long>(content.width() + 2 * kFigureMargin) * style.scale;
    const long long height = static_cast<long long>(content.height() + 2 * kFigureMargin) * style.scale;
    if (width > kMaxFigureSide || height > kMaxFigureSide || width * height > kMaxFigurePixels) {
        throw ExportError("The figure would be " + std::to_string(width) + " x " + std::to_string(height) +
                          " pixels, more than the limit of " + std::to_string(kMaxFigureSide) +
                          " pixels a side and " + std::to_string(kMaxFigurePixels / 1000000) +
                          " million pixels; use a smaller --scale or cell size, or a shorter sentence.");
    }
    const Theme theme = themeFor(style.background);
    Figure figure{Canvas(static_cast<int>(width), static_cast<int>(height), theme.background), std::move(title), {}};
    content.draw(figure.image, kFigureMargin, kFigureMargin, style.scale, theme, figure.heatmaps);
    return figure;
}

Figure composeOnCanvas(std::vector<StackedBlock> blocks, std::string title, int width, int height, const FigureStyle& style) {
    const StackBlock content(std::move(blocks));
    if (content.width() > width - 2 * kFigureMargin || content.height() > height - 2 * kFigureMargin) {
        throw ExportError("The stage needs " + std::to_string(content.width()) + " x " + std::to_string(content.height()) +
                          " base pixels, more than a " + std::to_string(width) + " x " + std::to_string(height) +
                          " slide holds even with the smallest cells; use --kind stage for this stage.");
    }
    const Theme theme = themeFor(style.background);
    Figure figure{Canvas(width * style.scale, height * style.scale, theme.background), std::move(title), {}, kSlidePagePoints};
    const int x = (width - content.width()) / 2, y = (height - content.height()) / 2;
    content.draw(figure.image, x, y, style.scale, theme, figure.heatmaps);
    return figure;
}

}  // namespace attnviz::exporting
