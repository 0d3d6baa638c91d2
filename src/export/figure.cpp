// figure.cpp — what each figure kind contains: cell sizes, headers, grids; a stage's maps come from its scene
// (scene_figure.h). See figure.h.
//
// [SECTION]s: cell sizes · panels · a stage's body · headers · the figures.
#include "export/figure.h"

#include "core/display_text.h"

#include "colormap/head_colors.h"

#include "export/blocks.h"
#include "export/export_error.h"
#include "export/notation.h"
#include "export/panel_content.h"
#include "export/rotary_block.h"
#include "export/scene_figure.h"

#include "core/transformer/heads_off.h"
#include "core/transformer/trained_model.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace attnviz::exporting {
namespace {

using core::StageId;
using core::TensorId;

// [SECTION] Cell sizes

constexpr int kMaxAutoCell = 40;         // base pixels: bigger cells only waste the slide
constexpr int kReadableTokenCell = 16;   // a token axis keeps cells tall enough for its labels…
constexpr int kMaxTokenAxisExtent = 1100;  // …unless that would make the axis longer than this
constexpr int kMatrixTarget = 520;       // base pixels for the longest axis of a one-matrix figure
constexpr int kHeadsTarget = 260;
constexpr int kMaxStageWidth = 2400;
// The room a stage's maps fill (base pixels): a stage figure's, one stage of the poster's.
constexpr SceneBox kStageBox{1400.0f, 680.0f, kMaxAutoCell};
constexpr SceneBox kPosterSectionBox{760.0f, 600.0f, kMaxAutoCell};
constexpr int kMaxPosterWidth = 2800;

CellPlan planCells(const core::ModelRun& run, const std::vector<MatrixRequest>& requests, int target,
                   const FigureStyle& style) {
    if (style.cellSize > 0) return {style.cellSize, style.cellSize};
    int longest = 1, tokens = 1;
    for (const MatrixRequest& request : requests) {
        const DisplayedShape shape = displayedShape(run, request);
        longest = std::max({longest, shape.rows, shape.cols});
        if (shape.tokenRows) tokens = std::max(tokens, shape.rows);
        if (shape.tokenCols) tokens = std::max(tokens, shape.cols);
    }
    const int feature = std::clamp(target / longest, 1, kMaxAutoCell);
    const int token = std::clamp(std::max(feature, std::min(kReadableTokenCell, kMaxTokenAxisExtent / tokens)), 1,
                                 kMaxAutoCell);
    return {feature, token};
}

// Builds with `plan`, shrinking automatic cells until the widest block fits in maxWidth (or cells are 1 pixel).
template <typename Build>
std::vector<StackedBlock> fitToWidth(Build build, CellPlan plan, int maxWidth, const FigureStyle& style) {
    std::vector<StackedBlock> blocks = build(plan);
    while (style.cellSize == 0 && stackWidth(blocks) > maxWidth && (plan.feature > 1 || plan.token > 1)) {
        plan = {std::max(1, plan.feature * 4 / 5), std::max(1, plan.token * 4 / 5)};
        blocks = build(plan);
    }
    return blocks;
}

// [SECTION] Panels

// A matrix figure's panel (full title and captions), or a heads grid's (`compact`: its symbol, no captions).
TensorPanel makePanel(const core::ModelRun& run, const MatrixRequest& request, int batch, const FigureStyle& style,
                        CellPlan cells, std::optional<colormap::Range> range, bool compact, bool legend) {
    PanelContent content = panelContent(run, request, batch, style, range, !compact);
    if (compact) content.title = matrixSymbol(request.tensor, std::to_string(request.head));
    PanelOptions options = panelOptions(content, cells, style, !compact);
    options.legend = legend;
    return {MatrixPanel(std::move(content), options), request};
}

constexpr int kHeaderGap = 8;
constexpr int kBodyGap = 28;
// A slide's gap above and below its maps: its height goes to the maps (at 28 the gaps took a tenth of it).
constexpr int kSlideBodyGap = 10;
constexpr int kSectionGap = 64;
constexpr float kFormulaLineSize = 17.0f;
constexpr float kExplanationSize = 13.0f;
constexpr float kCodeSize = 12.0f;
constexpr float kSectionTitleSize = 18.0f;
constexpr float kPosterTitleSize = 28.0f;
constexpr int kMinPosterTextWidth = 520;

// [SECTION] A stage's body: its scene (maps, or stage 0's token boxes) in `box`

// The tokens' boxes wrap at most this wide (base pixels): rows a reader takes in at a glance.
constexpr float kTokenWrapWidth = 1100.0f;

std::vector<StackedBlock> stageBody(const core::ModelRun& run, StageId stage, int head, int batch, const FigureStyle& style,
                                    SceneBox box, bool ropeStep = false) {
    if (stage == StageId::Tokens) box.width = std::min(box.width, kTokenWrapWidth);
    std::vector<StackedBlock> body;
    body.push_back({sceneBlock(run, exportedScene(run, stage, head, batch, ropeStep), batch, style, sceneBoxFor(box, style)), 0, true});
    return body;
}

std::vector<MatrixRequest> requestsShown(const core::ModelRun& run, StageId stage, int head, bool ropeStep = false) {
    return sceneRequests(exportedScene(run, stage, head, 0, ropeStep));  // the followed row does not change which maps
}

// [SECTION] Headers

// The stage, or stage 3's RoPE step.
const core::Stage& stageOrStep(StageId id, bool ropeStep) { return ropeStep ? core::ropeStep() : core::stage(id); }

// "7 · Softmax", and for a trained model which one and which of its layers: "7 · Softmax · gpt2, layer 5".
std::string stageHeading(const core::ModelRun& run, StageId id, bool ropeStep = false) {
    const core::Stage& s = stageOrStep(id, ropeStep);
    std::string heading = std::to_string(s.number()) + " \u00B7 " + std::string(s.title);
    if (const core::TrainedLayer* trained = run.spec.trained()) {
        heading += " \u00B7 " + trained->model->name + ", layer " + std::to_string(trained->layer);
    }
    return heading;
}

std::set<int> headsShown(const std::vector<MatrixRequest>& requests) {
    std::set<int> heads;
    for (const MatrixRequest& request : requests) {
        if (isPerHead(request.tensor)) heads.insert(request.head);
    }
    return heads;
}

// "head 2 of 8" when the stage's matrices belong to one head, "sentence 1 of 2" in a batch, joined by " · ".
std::string selectionNote(const core::ModelRun& run, const std::vector<MatrixRequest>& requests, int batch) {
    const std::set<int> heads = headsShown(requests);
    std::string note;
    if (heads.size() == 1) note = "head " + std::to_string(*heads.begin()) + " of " + std::to_string(run.dims.heads);
    if (run.trace.batch > 1) {
        note += (note.empty() ? "" : " \u00B7 ") + std::string("sentence ") + std::to_string(batch) + " of " +
                std::to_string(run.trace.batch);
    }
    return note;
}

std::unique_ptr<Block> lines(std::vector<std::string> text, float size, FontFace face, TextRole role,
                             bool formula = false) {
    return std::make_unique<TextBlock>(std::move(text), size, face, role, formula);
}

// "  ·  heads off: 1.3 off, 2.0 mean" after a figure's secondary line when heads are switched off; "" otherwise.
std::string headsOffNote(const core::ModelRun& run) {
    return run.spec.headsOff.empty() ? std::string() : "  \u00B7  heads off: " + core::headsOffText(run.spec.headsOff);
}

int wrapWidth(int contentWidth) { return std::clamp(contentWidth, 560, 1000); }

// Title, formula and explanation above a stage's body; the PyTorch line below it.
// The explanation wraps at `textWidth` (a slide's content width), or 0: at the body's width within 560 … 1000.
// The RoPE step's words are its own (core::ropeStep), in the stage's form.
core::StageWords wordsOf(const core::ModelRun& run, StageId id, bool ropeStep) {
    return ropeStep ? core::ropeStepWords(run) : core::stageWords(run, id);
}

constexpr int kTitleFormulaGap = 24;

// A slide's heading with its formula after it on the same line, the formula's baseline on the heading's, when the two
// fit `width`: a line of the slide's height goes to the maps. Null when they do not fit.
std::unique_ptr<Block> headingWithFormula(const std::string& heading, const std::string& formula, int width) {
    std::unique_ptr<Block> title = lines({heading}, kFigureTitleSize, FontFace::Bold, TextRole::Primary);
    std::unique_ptr<Block> equation = lines({formula}, kFormulaLineSize, FontFace::Regular, TextRole::Primary, true);
    if (title->width() + kTitleFormulaGap + equation->width() > width) return nullptr;
    const int drop = static_cast<int>(std::ceil(lineMetrics(kFigureTitleSize, FontFace::Bold).ascent)) -
                     static_cast<int>(std::ceil(formulaLineMetrics(kFormulaLineSize, FontFace::Regular).ascent));
    std::vector<StackedBlock> lowered;
    lowered.push_back({std::move(equation), std::max(0, drop), false});
    std::vector<std::unique_ptr<Block>> row;
    row.push_back(std::move(title));
    row.push_back(std::make_unique<StackBlock>(std::move(lowered)));
    return std::make_unique<FlowBlock>(std::move(row), width, kTitleFormulaGap, 0);
}

std::vector<StackedBlock> stageFigureBlocks(const core::ModelRun& run, StageId id, std::vector<StackedBlock> body,
                                            const std::string& note, int textWidth = 0, bool ropeStep = false, int bodyGap = kBodyGap) {
    const core::StageWords words = wordsOf(run, id, ropeStep);
    const int width = textWidth > 0 ? textWidth : wrapWidth(stackWidth(body));
    std::vector<StackedBlock> blocks;
    std::string heading = "Stage " + stageHeading(run, id, ropeStep);
    if (!note.empty()) heading += "  \u2014  " + note;
    std::unique_ptr<Block> oneLine = textWidth > 0 ? headingWithFormula(heading, words.formula, width) : nullptr;  // a slide's
    const bool formulaShown = oneLine != nullptr;
    blocks.push_back({oneLine ? std::move(oneLine) : lines({heading}, kFigureTitleSize, FontFace::Bold, TextRole::Primary), 0, false});
    if (const std::string off = core::headsOffCaption(run.spec.headsOff); !off.empty()) {
        blocks.push_back({lines(wrapText(off, static_cast<float>(width), kExplanationSize, FontFace::Regular), kExplanationSize, FontFace::Regular,
                                TextRole::Primary),
                          kHeaderGap, false});
    }
    if (!formulaShown) blocks.push_back({lines({words.formula}, kFormulaLineSize, FontFace::Regular, TextRole::Primary, true), kHeaderGap, false});
    blocks.push_back({lines(wrapText(words.explanation, static_cast<float>(width), kExplanationSize, FontFace::Regular),
                            kExplanationSize, FontFace::Regular, TextRole::Secondary, true),
                      kHeaderGap, false});
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (i == 0) body[i].gapBefore = bodyGap;
        blocks.push_back(std::move(body[i]));
    }
    blocks.push_back({lines({words.pytorch}, kCodeSize, FontFace::Mono, TextRole::Secondary), bodyGap, false});
    return blocks;
}

void checkStyle(const FigureStyle& style) {
    if (style.scale < kMinScale || style.scale > kMaxScale) {
        throw ExportError("The scale " + std::to_string(style.scale) + " is out of range; use " +
                          std::to_string(kMinScale) + "-" + std::to_string(kMaxScale) + ".");
    }
    if (style.cellSize != 0 && (style.cellSize < kMinCellSize || style.cellSize > kMaxCellSize)) {
        throw ExportError("The cell size " + std::to_string(style.cellSize) + " is out of range; use " +
                          std::to_string(kMinCellSize) + "-" + std::to_string(kMaxCellSize) +
                          " pixels, or 0 to choose automatically.");
    }
}

// Every figure checks its style and selection first.
void checkSelection(const core::ModelRun& run, int head, int batch, const FigureStyle& style) {
    checkStyle(style);
    if (head < 0 || head >= run.dims.heads) {
        throw ExportError("Head " + std::to_string(head) + " does not exist; this model has " +
                          std::to_string(run.dims.heads) + " heads (0-" + std::to_string(run.dims.heads - 1) + ").");
    }
    if (batch < 0 || batch >= run.trace.batch) {
        throw ExportError("Sentence " + std::to_string(batch) + " does not exist; the batch has " +
                          std::to_string(run.trace.batch) + " (0-" + std::to_string(run.trace.batch - 1) + ").");
    }
}

// Columns for a grid of `count` panels: near √(1.6·count) (landscape), preferring a divisor so rows are full.
int gridColumns(int count) {
    const double ideal = std::sqrt(1.6 * count);
    int best = 1;
    double bestScore = 1e9;
    for (int columns = 1; columns <= count; ++columns) {
        const double score = std::fabs(columns - ideal) + (count % columns == 0 ? 0.0 : 1.0);
        if (score < bestScore - 1e-9) {
            best = columns;
            bestScore = score;
        }
    }
    return best;
}

}  // namespace

// [SECTION] The four figures

bool stageShowsOneHead(StageId stage, const core::Trace& trace) {
    const std::optional<scene::Scene> scene = exportedScene(trace, stage, 0);
    return scene && headsShown(sceneRequests(*scene)).size() == 1;
}

Figure drawMatrixFigure(const core::ModelRun& run, StageId stage, TensorId id, int head, int batch,
                        const FigureStyle& style) {
    checkSelection(run, head, batch, style);
    const MatrixRequest request{id, head, false};
    const CellPlan cells = planCells(run, {request}, kMatrixTarget, style);
    std::string context = "Stage " + stageHeading(run, stage);
    if (const std::string note = selectionNote(run, {request}, batch); !note.empty()) context += " \u00B7 " + note;
    context += headsOffNote(run);

    std::vector<StackedBlock> blocks;
    blocks.push_back({lines({context}, kExplanationSize, FontFace::Regular, TextRole::Secondary), 0, false});
    blocks.push_back({std::make_unique<PanelBlock>(makePanel(run, request, batch, style, cells, std::nullopt, false, true)), 14, true});
    return composeFigure(std::move(blocks), context + ": " + matrixTitle(id, std::to_string(head), run.trace, run.spec),
                         style);
}

// --stage rope of a model without rotary positions: one sentence, not an empty figure.
void checkRopeStep(const core::ModelRun& run, StageId stage, bool ropeStep) {
    if (!ropeStep) return;
    if (stage != StageId::SplitHeads || !scene::hasRopeStep(run.trace)) {
        throw ExportError("The RoPE step needs a model with rotary positions (a Llama, Mistral or Qwen folder); this model has none.");
    }
}

Figure drawStageFigure(const core::ModelRun& run, StageId stage, int head, int batch, const FigureStyle& style, bool ropeStep) {
    checkSelection(run, head, batch, style);
    checkRopeStep(run, stage, ropeStep);
    std::vector<StackedBlock> body = stageBody(run, stage, head, batch, style, kStageBox, ropeStep);
    if (ropeStep) body.push_back({rotaryPairsBlock(run, head, batch), kBodyGap, false});
    const std::string note = selectionNote(run, requestsShown(run, stage, head, ropeStep), batch);
    std::string title = "Stage " + stageHeading(run, stage, ropeStep) + (note.empty() ? "" : ", " + note);
    return composeFigure(stageFigureBlocks(run, stage, std::move(body), note, 0, ropeStep), std::move(title), style);
}

// The RoPE step's slide body: the maps, and right of them the turning pairs, as large as 40 % of the slide's width
// allows (they are the picture that teaches RoPE; half the width cost llama-gqa-llama3's slide K's maps), or less
// when the maps do not fit beside them.
constexpr float kRotaryShares[] = {0.4f, 0.35f, 0.3f};

std::vector<StackedBlock> ropeSlideBody(const core::ModelRun& run, int head, int batch, const FigureStyle& style, SceneBox box) {
    const scene::Scene maps = exportedScene(run, StageId::SplitHeads, head, batch, true);
    std::unique_ptr<Block> pairs, laidOut;
    for (const float share : kRotaryShares) {
        pairs = rotaryPairsBlockIn(run, head, batch, static_cast<int>(box.width * share), static_cast<int>(box.height));
        SceneBox mapsBox = box;
        mapsBox.width -= static_cast<float>(pairs->width() + kBodyGap);
        laidOut = sceneBlock(run, maps, batch, style, sceneBoxFor(mapsBox, style));
        if (laidOut->width() <= static_cast<int>(mapsBox.width) && laidOut->height() <= static_cast<int>(mapsBox.height)) break;
    }
    std::vector<std::unique_ptr<Block>> side;
    side.push_back(std::move(laidOut));
    side.push_back(std::move(pairs));
    std::vector<StackedBlock> body;
    body.push_back({std::make_unique<FlowBlock>(std::move(side), static_cast<int>(box.width), kBodyGap, kBodyGap), 0, true});
    return body;
}

// The stage figure drawn kSlideZoom times larger on a 16:9 canvas: the maps fill the room the heading, the words
// and the code line leave (X appears once: the scene's product shows it once, or Q alone when the three do not
// read); the RoPE step's turning pairs beside its maps.
Figure drawSlideFigure(const core::ModelRun& run, StageId stage, int head, int batch, const FigureStyle& style, bool ropeStep) {
    checkSelection(run, head, batch, style);
    checkRopeStep(run, stage, ropeStep);
    FigureStyle zoomed = style;
    zoomed.scale = style.scale * kSlideZoom;
    const int width = kSlideContentWidth, height = kSlideContentHeight;
    const std::string note = selectionNote(run, requestsShown(run, stage, head, ropeStep), batch);
    int words = 0;  // the heading, formula, explanation and code line
    for (const StackedBlock& b : stageFigureBlocks(run, stage, {}, note, width, ropeStep, kSlideBodyGap)) words += b.gapBefore + b.block->height();
    // Cells in whole pixels of the slide, none under a pixel at 1080p: the maps a screen shows at this size fit, stage
    // 2's fused projection X × [W^Q W^K W^V] = [Q K V] among them.
    const SceneBox box{static_cast<float>(width), static_cast<float>(height - words - kSlideBodyGap), kMaxAutoCell, zoomed.scale,
                       1.0f / static_cast<float>(kSlideZoom), true};
    std::vector<StackedBlock> body = ropeStep ? ropeSlideBody(run, head, batch, zoomed, box) : stageBody(run, stage, head, batch, zoomed, box);
    std::vector<StackedBlock> blocks = stageFigureBlocks(run, stage, std::move(body), note, width, ropeStep, kSlideBodyGap);
    std::string title = "Stage " + stageHeading(run, stage, ropeStep) + (note.empty() ? "" : ", " + note);
    return composeOnCanvas(std::move(blocks), std::move(title), kSlideWidth / kSlideZoom, kSlideHeight / kSlideZoom, zoomed);
}

Figure drawHeadsFigure(const core::ModelRun& run, StageId stage, TensorId id, int batch, const FigureStyle& style) {
    checkSelection(run, 0, batch, style);
    if (!isPerHead(id)) {
        throw ExportError("The matrix '" + std::string(core::tensorInfo(id).key) +
                          "' is not split into heads, so it has no heads figure; use --kind matrix or stage.");
    }
    const int heads = run.dims.heads;
    std::vector<MatrixRequest> requests;
    for (int head = 0; head < heads; ++head) requests.push_back({id, head, false});
    const colormap::Range range = sharedRange(run, requests, batch, style);
    const colormap::Colormap map = chosenColormap(id, style);
    const auto build = [&](CellPlan cells) {
        std::vector<TensorPanel> panels;
        for (const MatrixRequest& request : requests) {
            const bool legend = request.head == heads - 1;  // masks and NaN rows are the same in every head
            panels.push_back(makePanel(run, request, batch, style, cells, range, true, legend));
        }
        std::vector<StackedBlock> grid;
        grid.push_back({std::make_unique<GridBlock>(std::move(panels), gridColumns(heads), GridBlock::SharedScale{map, range}),
                        kBodyGap, true});
        return grid;
    };
    std::vector<StackedBlock> body = fitToWidth(build, planCells(run, {requests.front()}, kHeadsTarget, style),
                                                kMaxStageWidth, style);

    const core::Matrix first = matrixValues(run, requests.front(), batch);
    const std::string each = "each " + std::to_string(first.rows()) + " \u00D7 " + std::to_string(first.cols()) +
                             "; one color scale for all heads" +
                             (run.trace.batch > 1 ? "; sentence " + std::to_string(batch) : "") + headsOffNote(run);
    std::vector<StackedBlock> blocks;
    const std::string heading = "Stage " + stageHeading(run, stage) + "  \u2014  " + (heads == 1 ? std::string("its one head") : "all " + core::counted(heads, "head", "heads"));
    blocks.push_back({lines({heading}, kFigureTitleSize, FontFace::Bold, TextRole::Primary), 0, false});
    blocks.push_back({lines({matrixTitle(id, "i", run.trace, run.spec) + ",   i = 0 ... " +
                             std::to_string(heads - 1)},
                            kFormulaLineSize, FontFace::Regular, TextRole::Primary, true),
                      kHeaderGap, false});
    blocks.push_back({lines({each}, kExplanationSize, FontFace::Regular, TextRole::Secondary), kHeaderGap, false});
    for (StackedBlock& b : body) blocks.push_back(std::move(b));
    return composeFigure(std::move(blocks), heading, style);
}

// [SECTION] The token → token lines (the Illustrated Transformer's figure, BertViz's head view)

// Query tokens on the left, key tokens on the right, a line from each query to each key with the head's colour at
// opacity = the attention weight; the focused query's labels bold and its lines drawn last, on top.
class TokenLinesBlock : public Block {
public:
    TokenLinesBlock(std::vector<std::string> queries, std::vector<std::string> keys, core::Matrix weights, int head,
                    std::optional<int> focus)
        : queries_(std::move(queries)), keys_(std::move(keys)), weights_(std::move(weights)), head_(head), focus_(focus) {
        for (const auto* side : {&queries_, &keys_}) {
            int widest = 0;
            for (const std::string& token : *side) widest = std::max(widest, static_cast<int>(std::ceil(textWidth(token, kLabelSize, FontFace::Bold))));
            (side == &queries_ ? queryWidth_ : keyWidth_) = widest;
        }
        rows_ = static_cast<int>(std::max(queries_.size(), keys_.size()));
    }
    int width() const override { return queryWidth_ + 2 * kLabelGap + kSpan + keyWidth_; }
    int height() const override { return rows_ * kRowHeight; }
    void draw(Canvas& canvas, int x, int y, int scale, const Theme& theme, std::vector<PlacedHeatmap>&) const override {
        const float left = static_cast<float>((x + queryWidth_ + kLabelGap) * scale), right = left + static_cast<float>(kSpan * scale);
        const auto rowMiddle = [&](int row) { return static_cast<float>((y + row * kRowHeight) * scale) + kRowHeight * scale / 2.0f; };
        const colormap::Rgb8 colour = colormap::headColor(head_);
        const auto drawLinesOf = [&](int query) {
            for (int key = 0; key < weights_.cols(); ++key) {
                const float weight = std::clamp(weights_(query, key), 0.0f, 1.0f);
                if (weight < kMinWeight) continue;
                const auto alpha = static_cast<std::uint8_t>(std::lround(weight * 255.0f));
                canvas.drawLine({left, rowMiddle(query), right, rowMiddle(key), (query == focus_ ? 2.5f : 1.5f) * scale, {colour.r, colour.g, colour.b, alpha}});
            }
        };
        for (int query = 0; query < weights_.rows(); ++query) {
            if (query != focus_) drawLinesOf(query);
        }
        if (focus_) drawLinesOf(*focus_);
        const LineMetrics metrics = lineMetrics(kLabelSize, FontFace::Regular);
        const auto baseline = [&](int row) { return rowMiddle(row) + (metrics.ascent - metrics.descent) / 2.0f * scale; };
        for (int row = 0; row < static_cast<int>(queries_.size()); ++row) {
            const FontFace face = row == focus_ ? FontFace::Bold : FontFace::Regular;
            const float width = textWidth(queries_[row], kLabelSize, face) * scale;
            drawText(canvas, left - kLabelGap * scale - width, baseline(row), queries_[row], {kLabelSize * scale, face, theme.text});
        }
        for (int row = 0; row < static_cast<int>(keys_.size()); ++row) {
            drawText(canvas, right + kLabelGap * scale, baseline(row), keys_[row], {kLabelSize * scale, FontFace::Regular, theme.text});
        }
    }

private:
    static constexpr int kRowHeight = 18, kLabelGap = 10, kSpan = 320;  // base pixels: 40 tokens in 720 px
    static constexpr float kMinWeight = 0.02f;                          // fainter lines are not drawn

    std::vector<std::string> queries_, keys_;
    core::Matrix weights_;
    int head_;
    std::optional<int> focus_;
    int queryWidth_ = 0, keyWidth_ = 0, rows_ = 0;
};

// The query the figure highlights: the pronoun "it" the default sentence asks about, when the sentence has one.
std::optional<int> focusedQuery(const std::vector<std::string>& queries) {
    for (std::size_t i = 0; i < queries.size(); ++i) {
        if (queries[i] == "it" || queries[i] == "\u0120it" || queries[i] == "It") return static_cast<int>(i);
    }
    return std::nullopt;
}

Figure drawLinesFigure(const core::ModelRun& run, int head, int batch, const FigureStyle& style) {
    checkSelection(run, head, batch, style);
    const std::vector<std::string>& queries = run.queryTokens.at(static_cast<std::size_t>(batch));
    const std::vector<std::string>& keys = run.tokens.at(static_cast<std::size_t>(batch));
    const core::Matrix weights = matrixValues(run, MatrixRequest{TensorId::AttentionWeights, head, false}, batch);
    const std::string heading = "Head " + std::to_string(head) + " of " + std::to_string(run.dims.heads) +
                                ": which keys each query attends to";
    std::vector<StackedBlock> blocks;
    blocks.push_back({lines({heading}, kFigureTitleSize, FontFace::Bold, TextRole::Primary), 0, false});
    blocks.push_back({lines({"queries (left) \u2192 keys (right); line opacity = A_" + std::to_string(head) + " weight" +
                             (run.trace.batch > 1 ? "; sentence " + std::to_string(batch) : "") + headsOffNote(run)},
                            kExplanationSize, FontFace::Regular, TextRole::Secondary, true),
                      kHeaderGap, false});
    blocks.push_back({std::make_unique<TokenLinesBlock>(queries, keys, weights, head, focusedQuery(queries)), kBodyGap, false});
    return composeFigure(std::move(blocks), heading, style);
}

// One stage of the poster: heading, explanation wrapped to the section's width, body.
std::unique_ptr<Block> posterSection(const core::ModelRun& run, const core::Stage& s, int head, int batch,
                                     const FigureStyle& style) {
    std::vector<StackedBlock> body = stageBody(run, s.id, head, batch, style, kPosterSectionBox);
    const float width = static_cast<float>(std::max(stackWidth(body), kMinPosterTextWidth));
    const core::StageWords words = core::stageWords(run, s.id);
    std::vector<StackedBlock> section;
    section.push_back({lines({stageHeading(run, s.id) + ":  " + words.formula}, kSectionTitleSize, FontFace::Bold, TextRole::Primary, true),
                       0, false});
    section.push_back({lines(wrapText(words.explanation, width, kExplanationSize, FontFace::Regular), kExplanationSize,
                             FontFace::Regular, TextRole::Secondary, true),
                       kHeaderGap, false});
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (i == 0) body[i].gapBefore = kBodyGap;
        section.push_back(std::move(body[i]));
    }
    return std::make_unique<StackBlock>(std::move(section));
}

Figure drawPosterFigure(const core::ModelRun& run, int head, int batch, const FigureStyle& style) {
    checkSelection(run, head, batch, style);
    std::vector<std::unique_ptr<Block>> sections;
    for (const core::Stage& s : core::stages()) sections.push_back(posterSection(run, s, head, batch, style));
    std::vector<StackedBlock> body;
    body.push_back({std::make_unique<FlowBlock>(std::move(sections), kMaxPosterWidth, kSectionGap, kSectionGap),
                    kSectionGap / 2, false});

    const core::Dimensions& d = run.dims;
    const core::SeededLayer* seeded = run.spec.seeded();  // a trained model has no seed
    std::string settings = "\u201C" + run.spec.sentences.at(static_cast<std::size_t>(batch)) + "\u201D  \u00B7  d_model " +
                           std::to_string(d.dModel) + " \u00B7 h " + std::to_string(d.heads) + " \u00B7 d_k " +
                           std::to_string(d.dK) + (seeded ? " \u00B7 seed " + std::to_string(seeded->seed) : "") + " \u00B7 head " +
                           std::to_string(head) + " shown" + headsOffNote(run);
    std::vector<StackedBlock> blocks;
    blocks.push_back({lines({"One forward pass of multi-head attention"}, kPosterTitleSize, FontFace::Bold,
                            TextRole::Primary),
                      0, false});
    blocks.push_back({lines({settings}, kExplanationSize, FontFace::Regular, TextRole::Secondary, true), kHeaderGap, false});
    for (StackedBlock& b : body) blocks.push_back(std::move(b));
    return composeFigure(std::move(blocks), "One forward pass of multi-head attention, head " + std::to_string(head),
                         style);
}

}  // namespace attnviz::exporting
