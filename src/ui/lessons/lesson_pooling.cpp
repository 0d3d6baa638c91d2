// lesson_pooling.cpp — "how do I get one vector per sentence to classify?": one vector per sentence for a classifier. After the output
// O (l × d_model): [CLS] pooling (row 0, as BERT) beside mean pooling (the average of the real tokens' rows,
// padding left out), each feeding the same small seeded linear classifier, with what each pooling mixes
// (row 0 of O already mixes every token through attention) and the logits.
//
// What it deliberately does not do: pool or classify (core::poolAndClassify does) or train anything: the
// classifier's weights are seeded, so the logits show the shapes and the mixing, not a prediction.
#include "core/lessons.h"
#include "ui/lessons/lesson_views.h"
#include "ui/views/matrix_info.h"
#include "ui/views/number_format.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {
namespace {

using core::Pooling;
using core::TensorId;

constexpr int kMinClasses = 2;
constexpr int kMaxClasses = 8;

MatrixRef ref(TensorId tensor, int head = 0) { return {MatrixSource::Trace, tensor, head}; }

// What the pooling view computes, per pooling and number of classes (the variant): the pooled vectors and logits of
// every sentence, and the shown sentence's rows of them.
enum Matrix { kPooling, kPooled, kLogits };
constexpr int kOwner = static_cast<int>(Lesson::Pooling);

std::shared_ptr<const core::PoolingResult> pooled(LessonFrame& frame, Pooling pooling, int classes, int variant) {
    const core::ModelRun& run = frame.ctx.run;
    return frame.computed.get<core::PoolingResult>({kOwner, kPooling, 0, variant}, [&] {
        const core::SeededLayer& seeded = core::seededChoices(run.spec);
        return core::poolAndClassify(run.trace, seeded.prependCls, pooling, classes, seeded.seed);
    });
}

// Row `batch` of one of the result's matrices (pooled: b × d_model, logits: b × classes) as a 1 × n map.
MatrixRef rowMap(LessonFrame& frame, Matrix matrix, int variant, const std::string& name, const core::Matrix& all) {
    const ComputedSpec spec{name, matrix == kPooled ? "1 × d_model" : "1 × classes", core::Axis::Features, core::Axis::Features, false};
    return computedRef(computedMatrix(frame, matrix, 0, variant, spec, [&] { return core::Matrix(all.row(frame.ctx.state.batch)); }));
}

// Softmax of one sentence's logits, "class 0: 41 %  class 1: …".
std::string probabilities(const core::Matrix& logits, int batch) {
    const core::RowVector row = logits.row(batch);
    const float top = row.maxCoeff();
    double sum = 0.0;
    for (Eigen::Index c = 0; c < row.cols(); ++c) sum += std::exp(static_cast<double>(row(0, c) - top));
    std::string text = "softmax:";
    for (Eigen::Index c = 0; c < row.cols(); ++c) {
        const double p = std::exp(static_cast<double>(row(0, c) - top)) / sum;
        text += "  class " + std::to_string(c) + ": " + std::to_string(static_cast<int>(std::round(p * 100.0))) + " %";
    }
    return text;
}

// What a pooling mixes: the weight of each token's row of O in the pooled vector ([CLS]: row 0 of the focused
// head's A, the attention row 0 of O was made with; mean: 1/n on the n real tokens).
std::vector<float> mixWeights(const LessonFrame& frame, Pooling pooling) {
    const core::Trace& t = frame.ctx.run.trace;
    const int batch = frame.ctx.state.batch, length = t.queryLengths.at(static_cast<std::size_t>(batch));
    if (pooling == Pooling::Cls) {
        const core::MatrixView a = t[TensorId::AttentionWeights].slice(batch, frame.ctx.state.head);
        return {a.data(), a.data() + a.cols()};
    }
    std::vector<float> weights(static_cast<std::size_t>(t.keyLength), 0.0f);
    std::fill_n(weights.begin(), length, 1.0f / static_cast<float>(length));
    return weights;
}

// The bars of mixWeights, both poolings' charts on one height scale so their bars compare.
RowChart mixChart(const LessonFrame& frame, Pooling pooling) {
    const core::Trace& t = frame.ctx.run.trace;
    const int batch = frame.ctx.state.batch, length = t.queryLengths.at(static_cast<std::size_t>(batch));
    RowChart chart;
    chart.map = frame.ctx.state.sequential;
    for (int j = 0; j < t.keyLength; ++j) chart.labels.push_back(axisLabel(frame.ctx.run, Axis::KeyTokens, batch, j));
    chart.values = mixWeights(frame, pooling);
    chart.title = pooling == Pooling::Cls ? "row 0 of O mixes the tokens by row 0 of A" + subscript(frame.ctx.state.head) + ":"
                                          : "each real token's row of O weighs 1/" + std::to_string(length) + ":";
    float largest = 0.0f;
    for (const Pooling either : {Pooling::Cls, Pooling::Mean}) {
        for (const float w : mixWeights(frame, either)) largest = std::max(largest, w);
    }
    chart.range = {0.0f, std::max(0.05f, largest * 1.15f)};  // small weights, readable bars
    return chart;
}

HeatmapOptions vectorOptions(const std::string& caption) { return compactMap(caption, false, false); }

// One pooling's column: what it mixes, the pooled vector, the logits and their softmax. Zoomed in, the vectors
// are stacked across the page (showMapRow). Returns the y below the softmax line.
float poolingColumn(LessonFrame& frame, Box box, Pooling pooling) {
    const int classes = frame.ctx.state.lesson.classes;
    const int variant = classes * 2 + (pooling == Pooling::Cls ? 1 : 0);
    const std::shared_ptr<const core::PoolingResult> result = pooled(frame, pooling, classes, variant);
    if (result == nullptr) return box.min.y;
    const bool cls = pooling == Pooling::Cls;
    const float line = sayAt(frame, box.min, box.width(), cls ? "[CLS] pooling: take row 0 of O" : "Mean pooling: average the real tokens' rows", Tone::Point);
    box.min.y += line + 4.0f;
    showChart(frame, takeTop(box, box.height() * 0.5f), mixChart(frame, pooling));
    box.min.y += std::round(8.0f * frame.ctx.scale);
    HeatmapOptions pooledVector = vectorOptions(cls ? "pooled = O[0]" : "pooled = mean of O's rows");
    pooledVector.range = frame.ctx.summaries.get(frame.ctx.run, TensorId::Output).range;  // O's colours: the two vectors compare
    const float bottom = showMapRow(frame, takeTop(box, ImGui::GetFontSize() * 3.2f), {{rowMap(frame, kPooled, variant, "pooled", result->pooled), pooledVector, 1.0f}});
    box.min.y = bottom + 6.0f;
    const float logitsBottom = showMapRow(frame, takeTop(box, ImGui::GetFontSize() * 3.2f),
                                          {{rowMap(frame, kLogits, variant, "logits", result->logits), vectorOptions("logits"),
                                            std::min(1.0f, 0.12f * static_cast<float>(classes))}});
    return logitsBottom + 4.0f + sayAt(frame, {box.min.x, logitsBottom + 4.0f}, box.width(),
          "logits = pooled · W_cls;  " + probabilities(result->logits, frame.ctx.state.batch), Tone::Plain);
}

void controls(LessonFrame& frame) {
    AppState& state = frame.ctx.state;
    if (core::SeededLayer* seeded = state.spec.seeded()) ImGui::Checkbox("[CLS] first", &seeded->prependCls);
    ImGui::SameLine(0.0f, 24.0f);
    ImGui::SetNextItemWidth(std::round(160.0f * frame.ctx.scale));
    ImGui::SliderInt("classes", &state.lesson.classes, kMinClasses, kMaxClasses);
    state.lesson.classes = std::clamp(state.lesson.classes, kMinClasses, kMaxClasses);
    ImGui::SameLine(0.0f, 24.0f);
    headPicker(frame);
}

void explain(LessonFrame& frame) {
    const core::Trace& t = frame.ctx.run.trace;
    say(frame, "The output O has one row per token (l × d_model = " + std::to_string(t.queryLength) + " × " + std::to_string(t.dims.dModel) +
                   "); a classifier wants one vector per sentence. Both poolings below feed the same small linear classifier W_cls "
                   "(d_model × classes, seeded, untrained): logits = pooled · W_cls.");
    say(frame, "[CLS] is not one word's vector: through attention, row 0 of O already mixes every token. Mean pooling mixes them evenly "
               "and leaves padding out — averaging the <pad> rows would change the answer with the batch.");
    if (!core::seededChoices(frame.ctx.run.spec).prependCls) {
        say(frame, "No [CLS] token in this run: [CLS] pooling takes the first word's row instead. Tick “[CLS] first”.", Tone::Warning);
    }
}

}  // namespace

void drawPoolingLesson(LessonFrame& frame) {
    controls(frame);
    explain(frame);
    ImGui::Spacing();
    Box box = remainingBox(frame);
    HeatmapOptions output;
    output.title = TitleStyle::Compact;
    output.colLabels = false;
    output.colorbar = ColorbarSide::None;
    Box row = takeTop(box, box.height() * 0.3f);
    row.max.x -= 3.0f;  // room for the [CLS] row's outline, drawn around the cells
    box.min.y = showMapRow(frame, row, {{ref(TensorId::Output), output}}) + std::round(10.0f * frame.ctx.scale);
    outlineRow(lastDrawn(frame.ctx.drawn, ref(TensorId::Output)), 0);  // the [CLS] row
    const float gap = std::round(28.0f * frame.ctx.scale);
    if (frame.ctx.state.zoom > 1.0f) {
        // Zoomed in, side by side the columns would narrow as their labels grow: mean pooling goes under [CLS]
        // pooling, each across the page (the page scrolls).
        const float height = std::max(box.height() / 2.0f, std::round(200.0f * frame.ctx.scale));  // O stacked may fill the box
        const float bottom = poolingColumn(frame, {box.min, {box.max.x, box.min.y + height}}, Pooling::Cls) + gap;
        poolingColumn(frame, {{box.min.x, bottom}, {box.max.x, bottom + height}}, Pooling::Mean);
        return;
    }
    const Box left = takeLeft(box, (box.width() - gap) / 2.0f);
    poolingColumn(frame, left, Pooling::Cls);
    poolingColumn(frame, {{box.min.x + gap, box.min.y}, box.max}, Pooling::Mean);
}

}  // namespace attnviz::ui
