// lesson_training.cpp — "What does training change?" The focused head of the stepped layer twice on the user's
// sentence: as the trained model computes it, and as the same model computes it before training (every weight
// redrawn from the N(0, 0.02²) initialisation, core::untrainedCopy). Below each, how peaked its rows are (the mean
// largest weight, the mean entropy against uniform), and where the query the learner hovers looks most.
//
// What it deliberately does not do: train anything, or show a layer other than the stepped one (the model view
// does all of them).
#include "core/lessons.h"
#include "ui/lessons/lesson_views.h"
#include "ui/views/matrix_info.h"
#include "ui/views/number_format.h"

#include <cmath>
#include <cstdio>

namespace attnviz::ui {
namespace {

using core::TensorId;

// What the training view computes: the untrained model's run on the same sentences, and its weights shown.
enum Matrix { kUntrainedRun, kUntrainedWeights };
constexpr int kOwner = static_cast<int>(Lesson::Training);

std::shared_ptr<const core::ModelRun> untrainedRun(LessonFrame& frame) {
    return frame.computed.get<core::ModelRun>({kOwner, kUntrainedRun}, [&] {
        core::ModelSpec spec = frame.ctx.run.spec;
        spec.trained()->model = core::untrainedTwin(frame.ctx.run.spec.trained()->model);
        return core::runModel(spec);
    });
}

// The untrained layer's A_i on the sentence shown, masked as the trained one.
MatrixRef untrainedWeights(LessonFrame& frame, const core::ModelRun& untrained, int head) {
    const core::Trace& t = untrained.trace;
    const int batch = frame.ctx.state.batch;
    const ComputedSpec spec{withHead("A", head, " untrained"), "l × l", core::Axis::QueryTokens, core::Axis::KeyTokens, true,
                            core::symbolicShape(TensorId::AttentionWeights, t), t[TensorId::AttentionWeights].shapeString()};
    const auto mask = [&] { return t[TensorId::Mask].empty() ? core::Matrix() : core::Matrix(t[TensorId::Mask].slice(batch, 0)); };
    return computedRef(computedMatrix(frame, kUntrainedWeights, head, 0, spec,
                                      [&] { return core::Matrix(t[TensorId::AttentionWeights].slice(batch, head)); }, mask));
}

std::string fixed(double value, int digits) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

// "largest weight 0.62 on average, entropy 0.41 of uniform": how peaked head `head`'s rows are.
std::string peakedness(const core::ModelRun& run, int batch, int head) {
    const core::RowSharpness sharpness = core::rowSharpness(run.trace);
    const int rows = run.trace.queryLength;
    const std::size_t first = (static_cast<std::size_t>(batch) * run.trace.dims.heads + head) * rows;
    const int length = run.trace.queryLengths[static_cast<std::size_t>(batch)];
    double largest = 0.0, entropy = 0.0;
    for (int r = 0; r < length; ++r) {
        largest += sharpness.maxWeight.data[first + r];
        entropy += sharpness.entropy.data[first + r];
    }
    const double uniform = std::log(static_cast<double>(length));
    return "largest weight " + fixed(largest / length, 2) + " on average; entropy " + fixed(uniform > 0 ? entropy / length / uniform : 0.0, 2) +
           " of uniform";
}

}  // namespace

void drawTrainingLesson(LessonFrame& frame) {
    ViewContext& ctx = frame.ctx;
    const core::TrainedLayer* trained = ctx.run.spec.trained();
    if (!trained) {
        say(frame, "This question needs a trained model: choose attnviz's own small model or open a GPT-2 or BERT folder.", Tone::Warning);
        return;
    }
    headPicker(frame);
    const std::shared_ptr<const core::ModelRun> untrained = untrainedRun(frame);
    if (untrained == nullptr) {
        say(frame, frame.computed.error({kOwner, kUntrainedRun}), Tone::Warning);
        return;
    }
    const int head = ctx.state.head, batch = ctx.state.batch, layer = trained->layer;
    const std::string name = trained->model->name;
    say(frame, "Left: layer " + std::to_string(layer) + ", head " + std::to_string(head) + " of " + name +
                   " as trained. Right: the same layer and head with the weights the model started from (random, N(0, 0.02²)), "
                   "on the same sentence.");
    say(frame, "Trained: " + peakedness(ctx.run, batch, head) + ". Untrained: " + peakedness(*untrained, batch, head) +
                   ". Random weights spread each row almost evenly; training makes heads pick the few tokens that matter to them.",
        Tone::Point);
    ImGui::Spacing();
    const MatrixRef ref{MatrixSource::Trace, TensorId::AttentionWeights, head}, before = untrainedWeights(frame, *untrained, head);
    // One colour scale for both, with its colorbar: on its own "0 … map max" the untrained map's even 0.07s would
    // be drawn as bright as the trained map's 1.0.
    const colormap::Range shared = sharedWeightsRange({{&ctx, ref}, {&ctx, before}});
    scene::Map trainedMap = scene::traceMap(ctx.run.trace, TensorId::AttentionWeights, head);
    trainedMap.title = "trained · " + withHead("A", head);
    trainedMap.colorbar = scene::Colorbar::None;
    scene::Map untrainedMap = computedMap(before.computed);
    untrainedMap.title = "untrained · " + withHead("A", head);
    trainedMap.range = untrainedMap.range = std::pair{shared.lo, shared.hi};
    const scene::Figure figure{scene::Line{{trainedMap, scene::Operator{"vs"}, untrainedMap}}, "", "", {}};
    showScene(frame, {core::StageId::Softmax, {figure}, std::nullopt}, remainingBox(frame));
}

}  // namespace attnviz::ui
