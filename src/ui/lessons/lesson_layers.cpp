// lesson_layers.cpp — "Through the layers": what the open model would predict if it stopped after each layer, and
// where attention could have carried each token by the layer the timeline steps.
//   * The logit lens (nostalgebraist 2020; raw, no learned translator): a layers × positions grid, row i the
//     residual stream after i blocks (row 0: the embeddings) put through the final norm and the prediction head; each
//     cell prints that row's most likely token and is coloured by the probability it gives the model's final
//     prediction at that position (the last row's top token).
//   * Attention rollout (Abnar & Zuidema 2020): the stepped layer's attention averaged over its heads, beside the
//     rollout through every layer up to it, on one scale, the followed query's row outlined.
// The lens is drawn with tokens down and layers across (as X is: tokens × features), so a row reads left to right as
// one position's prediction settling, and cells are wide enough for their words.
// Both are computed by core (transformer/logit_lens.h, transformer/rollout.h) from a pass over the sentence on screen,
// on the model worker (layer_analysis.h): until they arrive the view says it is computing them.
//
// What it deliberately does not do: compute a layer (core does), or follow switched-off heads (the pass is the
// sentence's own, every head on).
#include "core/display_text.h"
#include "core/stages.h"
#include "core/transformer/prediction_words.h"
#include "ui/lessons/lesson_catalog.h"
#include "ui/lessons/lesson_views.h"

#include <algorithm>
#include <string>
#include <vector>

namespace attnviz::ui {
namespace {

enum Matrix { kLens, kLayerMean, kRollout };
constexpr int kOwner = static_cast<int>(Lesson::Layers);
// A lens cell prints at most this many characters of its token ("␣because" is 8).
constexpr std::size_t kLensWordCharacters = 9;

// The lens grid: at each position (row) and after each layer (column), the probability the lens gives the final
// prediction, and the lens's own top token in every cell.
struct LensGrid {
    core::Matrix finalProbability;      // l × (n_layers + 1)
    std::vector<std::string> topWords;  // row-major, as finalProbability
    std::vector<int> firstTopLayer;     // per position: the first column whose top token is the final one
};

LensGrid lensGrid(const core::TrainedModel& model, const core::LensAgreement& lens, int length) {
    const int last = static_cast<int>(lens.topIds.rows()) - 1;  // lens.topIds: (n + 1) × l
    LensGrid grid{lens.finalLogProbs.transpose().array().exp().matrix(), {}, std::vector<int>(static_cast<std::size_t>(length), last)};
    for (int p = 0; p < length; ++p) {
        for (int layer = 0; layer <= last; ++layer) {
            const int top = static_cast<int>(lens.topIds(layer, p));
            grid.topWords.push_back(core::clipped(core::choiceLabel(*model.tokenizer, top), kLensWordCharacters));
            int& first = grid.firstTopLayer[static_cast<std::size_t>(p)];
            if (top == static_cast<int>(lens.topIds(last, p))) first = std::min(first, layer);
        }
    }
    return grid;
}

// The stepped layer's attention averaged over its query heads: l × l.
core::Matrix headMean(const core::Tensor& attention, int layer) {  // attention: n × 1 × h × l × l
    const int heads = attention.dim(2);
    core::Matrix mean = attention.slice(layer * heads);
    for (int h = 1; h < heads; ++h) mean += attention.slice(layer * heads + h);
    return mean / static_cast<float>(heads);
}

MatrixRef lensRef(LessonFrame& frame, const std::shared_ptr<const LensGrid>& grid) {
    const int length = static_cast<int>(grid->finalProbability.rows()), columns = static_cast<int>(grid->finalProbability.cols());
    ComputedSpec spec{"logit lens (raw, no learned translator)",
                      "l \u00d7 (L + 1)", core::Axis::QueryTokens, core::Axis::Features, true, "",
                      std::to_string(length) + " \u00d7 " + std::to_string(columns)};
    spec.cellTexts = grid->topWords;
    return computedRef(computedMatrix(frame, kLens, 0, 0, spec, [&] { return grid->finalProbability; }));
}

scene::Map tokenMap(LessonFrame& frame, Matrix matrix, const std::string& name, const core::Matrix& values, std::optional<int> focus) {
    const std::string size = std::to_string(values.rows()) + " × " + std::to_string(values.cols());
    const ComputedSpec spec{name, "l × l", core::Axis::QueryTokens, core::Axis::KeyTokens, true, "", size};
    scene::Map map = computedMap(computedMatrix(frame, matrix, 0, 0, spec, [&] { return values; }));
    map.focusRow = focus;
    return map;
}

std::string positionName(const core::ModelRun& run, int batch, int position) {
    return "\u201c" + core::labelText(run.queryTokens[static_cast<std::size_t>(batch)][static_cast<std::size_t>(position)]) + "\u201d";
}

// One sentence on the lens of the followed position: where its final prediction first comes to the top.
std::string lensFinding(const LessonFrame& frame, const LensGrid& grid, int position) {
    const int columns = static_cast<int>(grid.finalProbability.cols());
    const int first = grid.firstTopLayer[static_cast<std::size_t>(position)];
    const std::string word = grid.topWords[static_cast<std::size_t>((position + 1) * columns - 1)];
    const std::string at = positionName(frame.ctx.run, frame.ctx.state.batch, position);
    if (first == 0) return "At " + at + ", \u201c" + word + "\u201d is on top from the embeddings on.";
    return "At " + at + ", the final prediction \u201c" + word + "\u201d first comes to the top after layer " + std::to_string(first) +
           " of " + std::to_string(columns - 1) + ".";
}

// The lens grid at the top of the room left, the cursor put below it.
void drawLens(LessonFrame& frame, const core::TrainedModel& model, const core::LensAgreement& lens, int length, int followed) {
    const std::shared_ptr<const LensGrid> grid = frame.computed.get<LensGrid>({kOwner, kLens, 0, 1, frame.ctx.state.batch},
                                                                               [&] { return lensGrid(model, lens, length); });
    say(frame, "Logit lens: each column is the residual stream after that many layers (0: the embeddings), put through the "
               "model's final norm and prediction head as if the model stopped there. A cell prints the word that column would "
               "predict at that token; its colour is the probability it already gives the model's final prediction (the last "
               "column). Raw lens, no learned translator: early layers of a small model often read as noise.");
    say(frame, lensFinding(frame, *grid, followed), Tone::Point);
    Box box = remainingBox(frame);
    const float bottom = showWordMap(frame, lensRef(frame, grid), box).y;
    ImGui::SetCursorScreenPos({box.min.x, bottom + ImGui::GetStyle().ItemSpacing.y});
}

// The rollout maps in the room left under their sentence.
void drawRollout(LessonFrame& frame, const core::Tensor& attention, const core::Tensor& rollout, int layer, int length, int followed) {
    const core::Matrix mean = headMean(attention, layer), routed = rollout.slice(layer);
    say(frame, "Attention rollout: left, layer " + std::to_string(layer) + "'s attention averaged over its heads; right, the rollout "
               "through layers 0 \u2026 " + std::to_string(layer) + " (each layer's attention plus the residual path, \u00bdA + \u00bdI, "
               "multiplied layer by layer). Read it as where each token's information could have come from if attention were "
               "the only route: it leaves out the MLPs and the sizes of the values, so it maps routes, not what mattered.");
    const std::optional<int> focus = followed < length ? std::optional<int>(followed) : std::nullopt;
    const scene::Map left = tokenMap(frame, kLayerMean, "layer " + std::to_string(layer) + " \u00b7 mean of A over heads", mean, focus);
    scene::Map right = tokenMap(frame, kRollout, "rollout through layers 0 \u2026 " + std::to_string(layer), routed, focus);
    const float top = std::max(mean.maxCoeff(), routed.maxCoeff());
    right.range = std::pair{0.0f, top};
    scene::Map leftOnScale = left;
    leftOnScale.range = right.range;
    const scene::Figure figure{scene::Line{{leftOnScale, scene::Operator{"vs"}, right}}, "", "", {}};
    showScene(frame, {core::StageId::Softmax, {figure}, std::nullopt}, remainingBox(frame));
}

}  // namespace

void drawLayersLesson(LessonFrame& frame) {
    ViewContext& ctx = frame.ctx;
    const std::shared_ptr<const LayerAnalysis> analysis = trainedModelAnalysis(frame, AnalysisKind::Layers, "reads a trained model's layers");
    if (analysis == nullptr) return;
    const core::TrainedModel& model = *ctx.run.spec.trainedModel();  // the model of the run on screen
    const int layer = ctx.run.spec.trained()->layer;                  // the stepped one
    const std::vector<int>& ids = shownSentenceIds(frame);
    const int length = static_cast<int>(ids.size());
    const int followed = std::clamp(core::followedQueryRow(ctx.run, ctx.state.batch, ctx.state.head), 0, length - 1);
    drawLens(frame, model, analysis->lens, length, followed);
    drawRollout(frame, analysis->pass.attentionWeights, analysis->rollout, layer, length, followed);
}

}  // namespace attnviz::ui
