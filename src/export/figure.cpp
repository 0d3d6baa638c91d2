// figure.cpp — what each figure kind contains: stage equations, cell sizes, headers, grids. See figure.h.
//
// [SECTION]s: equations of each stage · cell sizes · building equation blocks · headers · the four figures.
#include "export/figure.h"

#include "colormap/head_colors.h"

#include "export/blocks.h"
#include "export/export_error.h"
#include "export/notation.h"
#include "export/panel_content.h"

#include "core/tokenizer.h"
#include "core/transformer/trained_model.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace attnviz::exporting {
namespace {

using core::StageId;
using core::TensorId;

// [SECTION] The equations of each stage: matrices and the operators between them.

struct Term {
    std::optional<MatrixRequest> matrix;  // a heatmap, or else…
    std::string op;                       // …an operator: "•", "=", "→", or a few words
    bool compact = false;                 // symbol as title, no captions (many panels in one row)
    bool rowLabels = true;
    bool outlineHeadBlock = false;        // outline the column block of request.head (Q before the split)
    bool legend = true;
};

struct Equation {
    std::vector<Term> terms;
    bool sharedRange = false;  // the matrices hold the same (or rescaled) numbers: one color scale, one colorbar
};

// The product sign: a round bullet, since DejaVu's middle dot is a small square that reads as a speck.
constexpr std::string_view kProduct = "\u2022";

Term matrix(TensorId id, int head = 0, bool transposed = false) { return {MatrixRequest{id, head, transposed}, {}}; }
Term op(std::string_view text) { return {std::nullopt, std::string(text)}; }
// A fused matrix with head `head`'s column block outlined.
Term fusedWithBlock(TensorId id, int head) {
    Term term = matrix(id, head);
    term.outlineHeadBlock = true;
    return term;
}

// "/ sqrt(8) =" (the paper's 1/√d_k with this run's d_k) or "* 0.25 =".
std::string scaleOperator(const core::Trace& trace) {
    std::string text = scaleText(trace);
    if (const std::size_t at = text.find("d_k"); at != std::string::npos) text.replace(at, 3, std::to_string(trace.dims.dK));
    return text + " =";
}

Equation concatEquation(const core::Trace& trace) {
    Equation equation{{}, true};
    for (int head = 0; head < trace.dims.heads; ++head) {
        Term z = matrix(TensorId::ZHeads, head);
        z.compact = true;
        z.rowLabels = head == 0;
        equation.terms.push_back(z);
    }
    equation.terms.push_back(op("="));
    equation.terms.push_back(matrix(TensorId::Concat));
    return equation;
}

std::vector<Equation> stageEquations(StageId stage, int head, const core::Trace& trace) {
    const TensorId queryInput = trace.cross ? TensorId::XQuery : TensorId::X;
    switch (stage) {
        case StageId::Tokens: return {};
        case StageId::Embed:
            if (trace.cross) return {{{matrix(TensorId::XQuery)}}, {{matrix(TensorId::X)}}};
            return {{{matrix(TensorId::X)}}};
        case StageId::Project:
            return {{{matrix(queryInput), op(kProduct), matrix(TensorId::WQ), op("="), matrix(TensorId::Q)}},
                    {{matrix(TensorId::X), op(kProduct), matrix(TensorId::WK), op("="), matrix(TensorId::K)}},
                    {{matrix(TensorId::X), op(kProduct), matrix(TensorId::WV), op("="), matrix(TensorId::V)}}};
        case StageId::SplitHeads:
            return {{{fusedWithBlock(TensorId::Q, head), op("\u2192"), matrix(TensorId::QHeads, head)}, true},
                    {{fusedWithBlock(TensorId::K, head), op("\u2192"), matrix(TensorId::KHeads, head)}, true},
                    {{fusedWithBlock(TensorId::V, head), op("\u2192"), matrix(TensorId::VHeads, head)}, true}};
        case StageId::Scores:
            return {{{matrix(TensorId::QHeads, head), op(kProduct), matrix(TensorId::KHeads, head, true), op("="),
                      matrix(TensorId::Scores, head)}}};
        case StageId::Scale:
            return {{{matrix(TensorId::Scores, head), op(scaleOperator(trace)), matrix(TensorId::ScaledScores, head)},
                     true}};
        case StageId::Mask:
            if (trace[TensorId::Mask].empty()) {
                return {{{matrix(TensorId::ScaledScores, head), op("no mask \u2192"), matrix(TensorId::MaskedScores, head)},
                         true}};
            }
            return {{{matrix(TensorId::ScaledScores, head), op("where"), matrix(TensorId::Mask), op("is 0 \u2192"),
                      matrix(TensorId::MaskedScores, head)},
                     true}};
        case StageId::Softmax:
            return {{{matrix(TensorId::MaskedScores, head), op("softmax of each row \u2192"),
                      matrix(TensorId::AttentionWeights, head)}}};
        case StageId::WeightedSum:
            return {{{matrix(TensorId::AttentionWeights, head), op(kProduct), matrix(TensorId::VHeads, head), op("="),
                      matrix(TensorId::ZHeads, head)}}};
        case StageId::Concat: return {concatEquation(trace)};
        case StageId::Output:
            return {{{matrix(TensorId::Concat), op(kProduct), matrix(TensorId::WO), op("="), matrix(TensorId::Output)}},
                    {{op("the input, for comparison (same shape as O):"), matrix(TensorId::X)}}};
        case StageId::Count: break;
    }
    return {};
}

std::vector<MatrixRequest> requestsOf(const std::vector<Equation>& equations) {
    std::vector<MatrixRequest> requests;
    for (const Equation& equation : equations) {
        for (const Term& term : equation.terms) {
            if (term.matrix) requests.push_back(*term.matrix);
        }
    }
    return requests;
}

// [SECTION] Cell sizes

constexpr int kMaxAutoCell = 40;         // base pixels: bigger cells only waste the slide
constexpr int kReadableTokenCell = 16;   // a token axis keeps cells tall enough for its labels…
constexpr int kMaxTokenAxisExtent = 1100;  // …unless that would make the axis longer than this
constexpr int kMatrixTarget = 520;       // base pixels for the longest axis of a one-matrix figure
constexpr int kStageTarget = 360;
constexpr int kHeadsTarget = 260;
constexpr int kPosterTarget = 260;
constexpr int kMaxStageWidth = 2400;
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

// [SECTION] Equation blocks

EquationPanel makePanel(const core::ModelRun& run, const Term& term, int batch, const FigureStyle& style,
                        CellPlan cells, std::optional<colormap::Range> range, bool colorbar) {
    const MatrixRequest& request = *term.matrix;
    PanelContent content = panelContent(run, request, batch, style, range, !term.compact);
    if (term.compact) content.title = matrixSymbol(request.tensor, std::to_string(request.head));
    if (term.outlineHeadBlock) {  // K and V: the block of the K/V head this query head shares
        const bool keyValue = request.tensor == TensorId::K || request.tensor == TensorId::V;
        content.outlinedBlock = keyValue ? core::keyValueHead(run.trace.dims, request.head) : request.head;
    }
    PanelOptions options = panelOptions(content, cells, style, colorbar);
    options.rowLabels = term.rowLabels;
    options.legend = term.legend;
    return {MatrixPanel(std::move(content), options), request};
}

std::unique_ptr<Block> equationBlock(const core::ModelRun& run, const Equation& equation, int batch,
                                     const FigureStyle& style, CellPlan cells) {
    std::optional<colormap::Range> range;
    std::size_t lastMatrix = 0;
    std::vector<MatrixRequest> scaled;  // the matrices sharing a color scale (not the 0/1 mask)
    for (std::size_t i = 0; i < equation.terms.size(); ++i) {
        if (!equation.terms[i].matrix) continue;
        lastMatrix = i;
        if (equation.terms[i].matrix->tensor != TensorId::Mask) scaled.push_back(*equation.terms[i].matrix);
    }
    if (equation.sharedRange) range = sharedRange(run, scaled, batch, style);
    std::vector<EquationBlock::Item> items;
    for (std::size_t i = 0; i < equation.terms.size(); ++i) {
        const Term& term = equation.terms[i];
        if (!term.matrix) {
            items.emplace_back(term.op);
            continue;
        }
        const bool colorbar = !equation.sharedRange || i == lastMatrix;
        items.emplace_back(makePanel(run, term, batch, style, cells, range, colorbar));
    }
    return std::make_unique<EquationBlock>(std::move(items));
}

constexpr int kEquationGap = 40;
constexpr int kHeaderGap = 8;
constexpr int kBodyGap = 28;
constexpr int kSectionGap = 64;
constexpr int kTokenWrapWidth = 1100;
constexpr float kFormulaLineSize = 17.0f;
constexpr float kExplanationSize = 13.0f;
constexpr float kCodeSize = 12.0f;
constexpr float kSectionTitleSize = 18.0f;
constexpr float kPosterTitleSize = 28.0f;
constexpr int kMinPosterTextWidth = 520;

std::vector<StackedBlock> equationBlocks(const core::ModelRun& run, const std::vector<Equation>& equations, int batch,
                                         const FigureStyle& style, CellPlan cells) {
    std::vector<StackedBlock> blocks;
    for (const Equation& equation : equations) {
        blocks.push_back({equationBlock(run, equation, batch, style, cells), blocks.empty() ? 0 : kEquationGap, true});
    }
    return blocks;
}

// Stage 0 has no matrices: the sentence and its tokens as numbered boxes (both sides in cross-attention).
std::vector<StackedBlock> tokenBlocks(const core::ModelRun& run, int batch, int wrapWidth = kTokenWrapWidth) {
    const auto count = [](const std::vector<std::string>& tokens) { return std::to_string(tokens.size()) + " tokens"; };
    const std::size_t b = static_cast<std::size_t>(batch);
    // The row of E each token takes, as the screen numbers them: a trained model's vocabulary ids, or for the seeded
    // layer the ids of the vocabulary this batch makes (encoder sentences first, then the decoder's).
    std::vector<std::vector<std::string>> all = run.tokens;
    if (run.trace.cross) all.insert(all.end(), run.queryTokens.begin(), run.queryTokens.end());
    const std::vector<std::vector<int>> ids = run.tokenIds.empty() ? core::batchVocabularyIds(all) : run.tokenIds;
    const auto idsOf = [&](std::size_t sentence) { return sentence < ids.size() ? ids[sentence] : std::vector<int>{}; };
    std::vector<StackedBlock> blocks;
    const auto addSide = [&](const std::string& sentence, const std::vector<std::string>& tokens, const std::vector<int>& tokenIds,
                             const std::string& side) {
        blocks.push_back({std::make_unique<TextBlock>(std::vector<std::string>{"\u201C" + sentence + "\u201D"}, 16.0f,
                                                      FontFace::Regular, TextRole::Primary),
                          blocks.empty() ? 0 : kEquationGap, false});
        blocks.push_back({std::make_unique<TokenBlock>(side + count(tokens), tokens, tokenIds, wrapWidth), kHeaderGap, false});
    };
    if (run.trace.cross) {
        addSide(run.spec.seeded()->decoderSentences.at(b), run.queryTokens.at(b), idsOf(run.tokens.size() + b), "decoder (queries): ");
        addSide(run.spec.sentences.at(b), run.tokens.at(b), idsOf(b), "encoder (keys and values): ");
    } else {
        addSide(run.spec.sentences.at(b), run.tokens.at(b), idsOf(b), "");
    }
    return blocks;
}

// [SECTION] Headers

// "7 · Softmax", and for a trained model which one and which of its layers: "7 · Softmax · gpt2, layer 5".
std::string stageHeading(const core::ModelRun& run, StageId id) {
    const core::Stage& s = core::stage(id);
    std::string heading = std::to_string(s.number()) + " \u00B7 " + std::string(s.title);
    if (const core::TrainedLayer* trained = run.spec.trained()) {
        heading += " \u00B7 " + trained->model->name + ", layer " + std::to_string(trained->layer);
    }
    return heading;
}

std::set<int> headsShown(const std::vector<Equation>& equations) {
    std::set<int> heads;
    for (const MatrixRequest& request : requestsOf(equations)) {
        if (isPerHead(request.tensor)) heads.insert(request.head);
    }
    return heads;
}

// "head 2 of 8" when the stage's matrices belong to one head, "sentence 1 of 2" in a batch, joined by " · ".
std::string selectionNote(const core::ModelRun& run, const std::vector<Equation>& equations, int batch) {
    const std::set<int> heads = headsShown(equations);
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

int wrapWidth(int contentWidth) { return std::clamp(contentWidth, 560, 1000); }

// Title, formula and explanation above a stage's body; the PyTorch line below it.
// `maxTextWidth` caps the explanation's wrap width (a slide's content width).
std::vector<StackedBlock> stageFigureBlocks(const core::ModelRun& run, StageId id, std::vector<StackedBlock> body,
                                            const std::string& note, int maxTextWidth = 1000) {
    const core::StageWords words = core::stageWords(run, id);
    const int width = std::min(wrapWidth(stackWidth(body)), maxTextWidth);
    std::vector<StackedBlock> blocks;
    std::string heading = "Stage " + stageHeading(run, id);
    if (!note.empty()) heading += "  \u2014  " + note;
    blocks.push_back({lines({heading}, kFigureTitleSize, FontFace::Bold, TextRole::Primary), 0, false});
    blocks.push_back({lines({words.formula}, kFormulaLineSize, FontFace::Regular, TextRole::Primary, true), kHeaderGap, false});
    blocks.push_back({lines(wrapText(words.explanation, static_cast<float>(width), kExplanationSize, FontFace::Regular),
                            kExplanationSize, FontFace::Regular, TextRole::Secondary, true),
                      kHeaderGap, false});
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (i == 0) body[i].gapBefore = kBodyGap;
        blocks.push_back(std::move(body[i]));
    }
    blocks.push_back({lines({words.pytorch}, kCodeSize, FontFace::Mono, TextRole::Secondary), kBodyGap, false});
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
    return headsShown(stageEquations(stage, 0, trace)).size() == 1;
}

Figure drawMatrixFigure(const core::ModelRun& run, StageId stage, TensorId id, int head, int batch,
                        const FigureStyle& style) {
    checkSelection(run, head, batch, style);
    const MatrixRequest request{id, head, false};
    const CellPlan cells = planCells(run, {request}, kMatrixTarget, style);
    std::vector<EquationBlock::Item> items;
    items.emplace_back(makePanel(run, Term{request, {}}, batch, style, cells, std::nullopt, true));
    std::string context = "Stage " + stageHeading(run, stage);
    std::vector<Equation> single{{{Term{request, {}}}}};
    if (const std::string note = selectionNote(run, single, batch); !note.empty()) context += " \u00B7 " + note;

    std::vector<StackedBlock> blocks;
    blocks.push_back({lines({context}, kExplanationSize, FontFace::Regular, TextRole::Secondary), 0, false});
    blocks.push_back({std::make_unique<EquationBlock>(std::move(items)), 14, true});
    return composeFigure(std::move(blocks), context + ": " + matrixTitle(id, std::to_string(head), run.trace, run.spec),
                         style);
}

Figure drawStageFigure(const core::ModelRun& run, StageId stage, int head, int batch, const FigureStyle& style) {
    checkSelection(run, head, batch, style);
    const std::vector<Equation> equations = stageEquations(stage, head, run.trace);
    std::vector<StackedBlock> body =
        stage == StageId::Tokens
            ? tokenBlocks(run, batch)
            : fitToWidth([&](CellPlan cells) { return equationBlocks(run, equations, batch, style, cells); },
                         planCells(run, requestsOf(equations), kStageTarget, style), kMaxStageWidth, style);
    const std::string note = selectionNote(run, equations, batch);
    std::string title = "Stage " + stageHeading(run, stage) + (note.empty() ? "" : ", " + note);
    return composeFigure(stageFigureBlocks(run, stage, std::move(body), note), std::move(title), style);
}

// A slide's equations: the stage's, with X once. Stage 2 keeps the Q row (K and V are the same product with
// other weights, which the explanation says), stage 3 the Q split, stage 10 the product without X for comparison.
std::vector<Equation> slideEquations(StageId stage, int head, const core::Trace& trace) {
    std::vector<Equation> equations = stageEquations(stage, head, trace);
    const bool oneRow = stage == StageId::Project || stage == StageId::SplitHeads || stage == StageId::Output;
    if (oneRow && equations.size() > 1) equations.resize(1);
    return equations;
}

Figure drawSlideFigure(const core::ModelRun& run, StageId stage, int head, int batch, const FigureStyle& style) {
    checkSelection(run, head, batch, style);
    FigureStyle zoomed = style;
    zoomed.scale = style.scale * kSlideZoom;
    const int width = kSlideWidth / kSlideZoom, height = kSlideHeight / kSlideZoom;  // base pixels
    std::vector<Equation> equations = slideEquations(stage, head, run.trace);
    const std::string note = selectionNote(run, equations, batch);
    const auto build = [&](CellPlan cells) {
        std::vector<StackedBlock> body = stage == StageId::Tokens ? tokenBlocks(run, batch, width - 2 * kFigureMargin)
                                                                 : equationBlocks(run, equations, batch, zoomed, cells);
        return stageFigureBlocks(run, stage, std::move(body), note, width - 2 * kFigureMargin);
    };
    // Cells shrink (as fitToWidth does) until the whole slide — heading, maps, code line — fits inside its margins.
    const auto fits = [&](const std::vector<StackedBlock>& blocks) {
        int stackHeight = 0;
        for (const StackedBlock& b : blocks) stackHeight += b.gapBefore + b.block->height();
        return stackWidth(blocks) <= width - 2 * kFigureMargin && stackHeight <= height - 2 * kFigureMargin;
    };
    const CellPlan planned = planCells(run, requestsOf(equations), kStageTarget, zoomed);
    // Feature cells give way first: token cells keep room for a label each as long as they can.
    const auto shrinkToFit = [&] {
        CellPlan cells = planned;
        std::vector<StackedBlock> blocks = build(cells);
        while (style.cellSize == 0 && !fits(blocks) && cells.feature > 1) {
            cells.feature = std::max(1, cells.feature * 4 / 5);
            blocks = build(cells);
        }
        while (style.cellSize == 0 && !fits(blocks) && (cells.feature > 1 || cells.token > 1)) {
            cells = {std::max(1, cells.feature * 4 / 5), std::max(1, cells.token * 4 / 5)};
            blocks = build(cells);
        }
        return std::pair{std::move(blocks), cells.token};
    };
    auto [blocks, tokenCell] = shrinkToFit();
    // When the panels' shape captions cost the token rows their labels (or the slide), symbol titles instead.
    if (!fits(blocks) || tokenCell < kReadableTokenCell) {
        for (Equation& equation : equations) {
            for (Term& term : equation.terms) term.compact = true;
        }
        auto [compact, compactCell] = shrinkToFit();
        if (!fits(blocks) || compactCell > tokenCell) blocks = std::move(compact);
    }
    std::string title = "Stage " + stageHeading(run, stage) + (note.empty() ? "" : ", " + note);
    return composeOnCanvas(std::move(blocks), std::move(title), width, height, zoomed);
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
        std::vector<EquationPanel> panels;
        for (const MatrixRequest& request : requests) {
            Term term{request, {}};
            term.compact = true;
            term.legend = request.head == heads - 1;  // masks and NaN rows are the same in every head
            panels.push_back(makePanel(run, term, batch, style, cells, range, false));
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
                             (run.trace.batch > 1 ? "; sentence " + std::to_string(batch) : "");
    std::vector<StackedBlock> blocks;
    const std::string heading = "Stage " + stageHeading(run, stage) + "  \u2014  all " + std::to_string(heads) + " heads";
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
                             (run.trace.batch > 1 ? "; sentence " + std::to_string(batch) : "")},
                            kExplanationSize, FontFace::Regular, TextRole::Secondary, true),
                      kHeaderGap, false});
    blocks.push_back({std::make_unique<TokenLinesBlock>(queries, keys, weights, head, focusedQuery(queries)), kBodyGap, false});
    return composeFigure(std::move(blocks), heading, style);
}

// One stage of the poster: heading, explanation wrapped to the section's width, body.
std::unique_ptr<Block> posterSection(const core::ModelRun& run, const core::Stage& s, int head, int batch,
                                     const FigureStyle& style, CellPlan cells) {
    std::vector<StackedBlock> body = s.id == StageId::Tokens
                                         ? tokenBlocks(run, batch)
                                         : equationBlocks(run, stageEquations(s.id, head, run.trace), batch, style, cells);
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
    std::vector<MatrixRequest> all;
    for (const core::Stage& s : core::stages()) {
        for (const MatrixRequest& r : requestsOf(stageEquations(s.id, head, run.trace))) all.push_back(r);
    }
    const auto build = [&](CellPlan cells) {
        std::vector<std::unique_ptr<Block>> sections;
        for (const core::Stage& s : core::stages()) sections.push_back(posterSection(run, s, head, batch, style, cells));
        std::vector<StackedBlock> flow;
        flow.push_back({std::make_unique<FlowBlock>(std::move(sections), kMaxPosterWidth, kSectionGap, kSectionGap),
                        kSectionGap / 2, false});
        return flow;
    };
    std::vector<StackedBlock> body = fitToWidth(build, planCells(run, all, kPosterTarget, style), kMaxPosterWidth, style);

    const core::Dimensions& d = run.dims;
    const core::SeededLayer* seeded = run.spec.seeded();  // a trained model has no seed
    std::string settings = "\u201C" + run.spec.sentences.at(static_cast<std::size_t>(batch)) + "\u201D  \u00B7  d_model " +
                           std::to_string(d.dModel) + " \u00B7 h " + std::to_string(d.heads) + " \u00B7 d_k " +
                           std::to_string(d.dK) + (seeded ? " \u00B7 seed " + std::to_string(seeded->seed) : "") + " \u00B7 head " +
                           std::to_string(head) + " shown";
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
