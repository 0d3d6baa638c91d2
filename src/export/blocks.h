// blocks.h — the pieces a figure is stacked from, top to bottom, and the function that stacks them.
//
//   TextBlock      lines of text: a title, wrapped explanation, a PyTorch line
//   PanelBlock     one heatmap panel (a matrix figure)
//   GridBlock      panels in a grid with one shared colorbar (all heads of a stage)
//   StackBlock     blocks top to bottom (a figure, or one stage's section of the poster)
//   FlowBlock      blocks left to right, wrapping into rows like words (the poster's sections)
// A stage's maps are a scene's block (scene_figure.h).
//
// Every block is measured when built (base pixels) and drawn at a scale; composeFigure adds the margins,
// refuses figures over the size limits, and returns the image with where each heatmap landed.
// What this file deliberately does not do: decide what a figure contains (figure.cpp).
#pragma once

#include "export/figure.h"
#include "export/matrix_panel.h"
#include "export/panel_content.h"
#include "export/text.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attnviz::exporting {

class Block {
public:
    virtual ~Block() = default;
    virtual int width() const = 0;
    virtual int height() const = 0;
    // Draws with the block's top-left corner at (x, y) base pixels; appends the heatmaps it drew.
    virtual void draw(Canvas& canvas, int x, int y, int scale, const Theme& theme,
                      std::vector<PlacedHeatmap>& placed) const = 0;
};

enum class TextRole { Primary, Secondary };

class TextBlock : public Block {
public:
    // `formula`: lines are formula markup (text.h), typeset with sub- and superscripts.
    TextBlock(std::vector<std::string> lines, float size, FontFace face, TextRole role, bool formula = false);
    int width() const override { return width_; }
    int height() const override { return height_; }
    void draw(Canvas& canvas, int x, int y, int scale, const Theme& theme,
              std::vector<PlacedHeatmap>& placed) const override;

private:
    std::vector<std::string> lines_;
    float size_;
    FontFace face_;
    TextRole role_;
    bool formula_;
    int lineHeight_ = 0;
    int ascent_ = 0;
    int width_ = 0, height_ = 0;
};

// A heatmap panel and the tensor slice it shows.
struct TensorPanel {
    MatrixPanel panel;
    MatrixRequest request;
};

// One panel (a matrix figure's).
class PanelBlock : public Block {
public:
    explicit PanelBlock(TensorPanel panel) : panel_(std::move(panel)) {}
    int width() const override { return panel_.panel.width(); }
    int height() const override { return panel_.panel.height(); }
    void draw(Canvas& canvas, int x, int y, int scale, const Theme& theme,
              std::vector<PlacedHeatmap>& placed) const override;

private:
    TensorPanel panel_;
};

class GridBlock : public Block {
public:
    // Panels left to right, top to bottom, `columns` per row; the colorbar (if any) at the right.
    struct SharedScale {
        colormap::Colormap map;
        colormap::Range range;
    };
    GridBlock(std::vector<TensorPanel> panels, int columns, std::optional<SharedScale> colorbar);
    int width() const override { return width_; }
    int height() const override { return height_; }
    void draw(Canvas& canvas, int x, int y, int scale, const Theme& theme,
              std::vector<PlacedHeatmap>& placed) const override;

private:
    std::vector<TensorPanel> panels_;
    int columns_;
    std::optional<SharedScale> colorbar_;
    int cellWidth_ = 0, cellHeight_ = 0;  // the grid's cells (the largest panel)
    int colorbarHeight_ = 0;
    int width_ = 0, height_ = 0;
};

struct StackedBlock {
    std::unique_ptr<Block> block;
    int gapBefore = 0;      // base pixels above this block
    bool centred = false;   // centred in the stack's width, else left-aligned
};

// The content width of a stack (the widest block), to wrap text or decide to shrink cells.
int stackWidth(const std::vector<StackedBlock>& blocks);

class StackBlock : public Block {
public:
    explicit StackBlock(std::vector<StackedBlock> blocks);
    int width() const override { return width_; }
    int height() const override { return height_; }
    void draw(Canvas& canvas, int x, int y, int scale, const Theme& theme,
              std::vector<PlacedHeatmap>& placed) const override;

private:
    std::vector<StackedBlock> blocks_;
    int width_ = 0, height_ = 0;
};

class FlowBlock : public Block {
public:
    // Rows never wider than maxWidth unless one block alone is; blocks in a row align at the top.
    FlowBlock(std::vector<std::unique_ptr<Block>> blocks, int maxWidth, int gapX, int gapY);
    int width() const override { return width_; }
    int height() const override { return height_; }
    void draw(Canvas& canvas, int x, int y, int scale, const Theme& theme,
              std::vector<PlacedHeatmap>& placed) const override;

private:
    std::vector<std::unique_ptr<Block>> blocks_;
    std::vector<int> blockX_, blockY_;
    int width_ = 0, height_ = 0;
};

// Stacks the blocks with kFigureMargin around them. Throws ExportError when the image would be too large.
Figure composeFigure(std::vector<StackedBlock> blocks, std::string title, const FigureStyle& style);
// The blocks centred on a canvas of exactly width × height base pixels (drawn at style.scale); they must fit
// inside kFigureMargin (ExportError otherwise).
Figure composeOnCanvas(std::vector<StackedBlock> blocks, std::string title, int width, int height, const FigureStyle& style);

}  // namespace attnviz::exporting
