// compare_figure.cpp — the compare slide: title, the pair, the three panels in a row and the largest change, stacked
// on a 16:9 canvas. See compare_figure.h.
#include "export/compare_figure.h"

#include "core/compare.h"
#include "core/display_text.h"
#include "core/stages.h"
#include "export/blocks.h"
#include "export/export_error.h"
#include "scene/legend.h"

#include <algorithm>

namespace attnviz::exporting {
namespace {

// Base pixels; the slide draws them kSlideZoom times larger.
constexpr float kTitleSize = 20.0f;
constexpr float kTextSize = 13.0f;
constexpr int kGap = 12;
constexpr int kPanelGap = 22;
constexpr int kLargestCell = 36, kSmallestCell = 4;

// [SECTION] The panels

// Panels left to right, their cells' tops on one line (B's column labels may be taller than A's).
class PanelRowBlock : public Block {
public:
    PanelRowBlock(std::vector<MatrixPanel> panels, int head) : panels_(std::move(panels)), head_(head) {
        for (const MatrixPanel& p : panels_) top_ = std::max(top_, p.heatmapTop());
        for (std::size_t i = 0; i < panels_.size(); ++i) {
            width_ += panels_[i].width() + (i > 0 ? kPanelGap : 0);
            height_ = std::max(height_, top_ - panels_[i].heatmapTop() + panels_[i].height());
        }
    }
    int width() const override { return width_; }
    int height() const override { return height_; }
    void draw(Canvas& canvas, int x, int y, int scale, const Theme& theme, std::vector<PlacedHeatmap>& placed) const override {
        for (const MatrixPanel& p : panels_) {
            placed.push_back({core::TensorId::AttentionWeights, head_, false, p.draw(canvas, x, y + top_ - p.heatmapTop(), scale, theme)});
            x += p.width() + kPanelGap;
        }
    }

private:
    std::vector<MatrixPanel> panels_;
    int head_ = 0, top_ = 0, width_ = 0, height_ = 0;
};

// 1 where a cell lies beyond the positions both sentences have (hatched: left out of A − B).
std::vector<std::uint8_t> beyondShared(int length, int aligned) {
    std::vector<std::uint8_t> masked(static_cast<std::size_t>(length) * static_cast<std::size_t>(length), 0);
    for (int r = 0; r < length; ++r) {
        for (int c = 0; c < length; ++c) masked[static_cast<std::size_t>(r * length + c)] = r >= aligned || c >= aligned;
    }
    return masked;
}

PanelContent panelContent(std::string title, core::Matrix values, std::vector<std::string> labels, colormap::Colormap map, colormap::Range range,
                          int focus) {
    PanelContent content;
    content.title = std::move(title);
    content.values = std::move(values);
    for (std::string& label : labels) label = core::labelText(label);  // cut as the screen cuts a token (48 characters, …)
    content.rows = {labels, true};
    content.cols = {std::move(labels), true};
    content.map = map;
    content.range = range;
    if (focus >= 0 && focus < content.values.rows()) content.focusRow = focus;
    return content;
}

// A, B and A − B; A and B on one scale (0 … the larger map max), A − B on ±max|A − B|.
std::vector<PanelContent> comparisonPanels(const core::SentenceComparison& c, int focus, const FigureStyle& style) {
    const colormap::Range weights{0.0f, std::max({c.a.maxCoeff(), c.b.maxCoeff(), 1e-6f})};
    const float largest = std::max(c.largestDifference(), 1e-6f);
    const colormap::Colormap sequential = style.colormap.value_or(colormap::Colormap::Viridis);
    std::vector<std::string> differenceLabels;
    for (int p = 0; p < c.aligned; ++p) differenceLabels.push_back(core::alignedLabel(c, p));
    std::vector<PanelContent> panels{panelContent("A", c.a, c.tokensA, sequential, weights, focus),
                                     panelContent("B", c.b, c.tokensB, sequential, weights, focus),
                                     panelContent("A \u2212 B", c.difference, differenceLabels, colormap::Colormap::Coolwarm, {-largest, largest}, focus)};
    for (int i = 0; i < 2; ++i) {
        PanelContent& p = panels[static_cast<std::size_t>(i)];
        if (c.sameLength()) continue;
        p.masked = beyondShared(static_cast<int>(p.values.rows()), c.aligned);
        p.maskedLook = MaskedLook::HatchedOverColor;
        p.maskedLegend = scene::kBeyondOtherSentence;
    }
    return panels;
}

std::unique_ptr<PanelRowBlock> panelRowAt(const std::vector<PanelContent>& contents, int head, int cell, bool colorbarsBelow, bool cellValues) {
    std::vector<MatrixPanel> panels;
    for (std::size_t i = 0; i < contents.size(); ++i) {
        PanelOptions options;
        options.cellWidth = options.cellHeight = cell;
        options.colorbar = i > 0;  // A shares B's colorbar
        options.colorbarBelow = colorbarsBelow;
        options.cellValues = cellValues;
        panels.emplace_back(contents[i], options);
    }
    return std::make_unique<PanelRowBlock>(std::move(panels), head);
}

// The largest cells whose row of panels fits `width` × `height`, the colorbars beside the maps or, where that lets
// the cells be larger (the three maps are bound by the slide's width), under them.
std::unique_ptr<Block> panelRow(const std::vector<PanelContent>& contents, int head, int width, int height, bool cellValues) {
    for (int cell = kLargestCell;; --cell) {
        for (const bool below : {false, true}) {
            auto row = panelRowAt(contents, head, cell, below, cellValues);
            if ((row->width() <= width && row->height() <= height) || (cell == kSmallestCell && below)) return row;
        }
    }
}

std::unique_ptr<Block> lines(std::vector<std::string> text, float size, FontFace face, TextRole role) {
    return std::make_unique<TextBlock>(std::move(text), size, face, role);
}

// "A = “…”" as the slide quotes a sentence: at most kQuotedCharacters of it, wrapped to the slide's width, each line
// cut with "…" where one word is wider than the slide (a pasted 20,000-letter word made the slide 181,570 pixels
// wide, which no slide holds).
constexpr std::size_t kQuotedCharacters = 240;
// One of the pair's lines ("A = “…”"), wrapped to the slide's width, each wrapped line cut to fit.
std::vector<std::string> wrappedLines(const std::string& text) {
    std::vector<std::string> wrapped = wrapText(text, kSlideContentWidth, kTextSize, FontFace::Regular);
    for (std::string& line : wrapped) line = truncateToWidth(line, kSlideContentWidth, kTextSize, FontFace::Regular);
    return wrapped;
}

int stackedHeight(const std::vector<StackedBlock>& blocks) {
    int height = 0;
    for (const StackedBlock& b : blocks) height += b.gapBefore + b.block->height();
    return height;
}

}  // namespace

Figure drawCompareFigure(const core::ModelRun& run, int head, int batch, const FigureStyle& style) {
    if (!run.compared) throw ExportError("--kind compare needs a B: add --compare-with \"…\" (a second sentence), or --compare heads-off or untrained.");
    core::SentenceComparison c;
    try {
        c = core::compareSentences(run, batch, head);
    } catch (const core::InputError& error) {
        throw ExportError(error.what());
    }
    const core::TrainedLayer* trained = run.spec.trained();
    const std::string which = trained ? "layer " + std::to_string(trained->layer) + ", head " + std::to_string(head) + " of " + trained->model->name
                                      : "head " + std::to_string(head);
    const std::string title = core::comparedWhat(run.spec.compareKind) + ", one head: " + which;
    std::vector<StackedBlock> blocks;
    blocks.push_back({lines({title}, kTitleSize, FontFace::Bold, TextRole::Primary), 0, false});
    const core::PairWords words = core::pairWords(run, batch, kQuotedCharacters);
    std::vector<std::string> pair = wrappedLines(words.a);
    for (std::string& line : wrappedLines(words.b)) pair.push_back(std::move(line));
    blocks.push_back({lines(std::move(pair), kTextSize, FontFace::Regular, TextRole::Primary), kGap, false});
    for (const std::string& note : {core::lengthWarning(c), core::whyNoDifference(run.spec)}) {
        if (note.empty()) continue;
        blocks.push_back({lines(wrapText(note, kSlideContentWidth, kTextSize, FontFace::Regular), kTextSize, FontFace::Regular, TextRole::Secondary), kGap / 2, false});
    }
    std::vector<StackedBlock> below;
    below.push_back({lines(wrapText(core::largestChangeText(c) + " A and B share one colour scale; A \u2212 B is red where A attends more, blue where B does.",
                                    kSlideContentWidth, kTextSize, FontFace::Regular),
                           kTextSize, FontFace::Regular, TextRole::Secondary),
                     kGap, false});
    const int room = kSlideContentHeight - stackedHeight(blocks) - stackedHeight(below) - kGap;
    const int focus = core::followedQueryRow(run, batch, head);
    blocks.push_back({panelRow(comparisonPanels(c, focus, style), head, kSlideContentWidth, room, style.cellValues), kGap, true});
    for (StackedBlock& b : below) blocks.push_back(std::move(b));

    FigureStyle zoomed = style;
    zoomed.scale = style.scale * kSlideZoom;
    return composeOnCanvas(std::move(blocks), title, kSlideWidth / kSlideZoom, kSlideHeight / kSlideZoom, zoomed);
}

}  // namespace attnviz::exporting
