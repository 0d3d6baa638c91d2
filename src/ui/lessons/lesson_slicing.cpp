// lesson_slicing.cpp — "does each head get a slice of the embedding?" No: every head receives the
// whole X and gets down to d_k columns through its own W_i. Beside the real computation, the naive slicing
// model (head i sees only columns i·d_k … of X) for head i: its attention weights and output, visibly
// different, with the largest output difference.
//
// What it deliberately does not do: compute the naive model (core::naiveSlicingAttention does); it copies its
// weights and output into a run for drawing and dims the columns of X the naive head never sees.
#include "core/lessons.h"
#include "ui/views/drawing.h"
#include "ui/lessons/lesson_views.h"
#include "ui/views/matrix_info.h"
#include "ui/views/number_format.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {
namespace {

using core::TensorId;

MatrixRef ref(TensorId tensor, int head = 0) { return {MatrixSource::Trace, tensor, head}; }

core::ModelRun naiveRun(const core::ModelRun& main) {
    core::NaiveSlicing naive = core::naiveSlicingAttention(main.trace, main.weights);
    core::ModelRun run = emptyLike(main);
    run.trace[TensorId::AttentionWeights] = std::move(naive.attentionWeights);
    run.trace[TensorId::Output] = std::move(naive.output);
    run.trace[TensorId::Mask] = main.trace[TensorId::Mask];
    return run;
}

float largestDifference(const core::Tensor& a, const core::Tensor& b) {
    float largest = 0.0f;
    for (std::size_t k = 0; k < a.size(); ++k) largest = std::max(largest, std::fabs(a.data[k] - b.data[k]));
    return largest;
}

HeatmapOptions small(const std::string& caption, bool colLabels) { return compactMap(caption, true, colLabels); }

// Veils the columns of a drawn X outside head i's slice and frames the slice in the head's color.
void markSlice(const DrawnHeatmap& x, int head, int width) {
    ImDrawList& list = *ImGui::GetWindowDrawList();
    const float cw = (x.max.x - x.min.x) / static_cast<float>(x.cols);
    const float a = x.min.x + cw * static_cast<float>(head * width), b = a + cw * static_cast<float>(width);
    const ImU32 veil = IM_COL32(255, 255, 255, 200);
    list.AddRectFilled(x.min, {a, x.max.y}, veil);
    list.AddRectFilled({b, x.min.y}, x.max, veil);
    list.AddRect({a - 1.0f, x.min.y - 1.0f}, {b + 1.0f, x.max.y + 1.0f}, headColor(head), 0.0f, 0, 3.0f);
}

void frameWhole(const DrawnHeatmap& x, int head) {
    ImGui::GetWindowDrawList()->AddRect({x.min.x - 2.0f, x.min.y - 2.0f}, {x.max.x + 2.0f, x.max.y + 2.0f}, headColor(head), 0.0f, 0, 3.0f);
}

// One column: its heading, X (whole or sliced), A_i and O, stacked.
struct Column {
    std::string title;
    ViewContext* view;  // draws A_i and O
    bool sliced;
    colormap::Range outputRange;  // O and O_naive on one scale, so their colors compare
    colormap::Range weightsRange; // A_i and A_i naive likewise
};

void drawColumn(LessonFrame& frame, Box box, const Column& column, int head) {
    const core::Dimensions& d = frame.ctx.run.trace.dims;
    const float line = sayAt(frame, box.min, box.width(), column.title, column.sliced ? Tone::Warning : Tone::Point);
    box.min.y += line + 6.0f;
    // A_i has its keys' labels on top as well as its queries' on the left: it gets the largest share, so on a short
    // projector box every token label of all three maps stays.
    const float share = box.height() * 0.29f;
    const std::string i = subscript(head);
    const std::string xCaption = column.sliced ? "X[:, " + std::to_string(head * d.dK) + ":" + std::to_string((head + 1) * d.dK) + "]" : "X, all of it";
    const MatrixRef x = ref(frame.ctx.run.trace.cross ? TensorId::XQuery : TensorId::X);
    box.min.y = showMapRow(frame, takeTop(box, share), {{&frame.ctx, x, small(xCaption, false)}}, {}, Zoomed::KeepRow) + 6.0f;
    if (const std::optional<DrawnHeatmap> drawn = lastDrawn(frame.ctx.drawn, x)) {
        if (column.sliced) markSlice(*drawn, head, d.dK);
        else frameWhole(*drawn, head);
    }
    HeatmapOptions weights = small("A" + i + (column.sliced ? " naive" : ""), true);
    weights.range = column.weightsRange;
    box.min.y = showMapRow(frame, takeTop(box, box.height() * 0.58f), {{column.view, ref(TensorId::AttentionWeights, head), weights}}, {}, Zoomed::KeepRow) + 6.0f;
    HeatmapOptions output = small(column.sliced ? "O naive" : "O", false);
    output.range = column.outputRange;
    showMapRow(frame, box, {{column.view, ref(TensorId::Output), output}}, {}, Zoomed::KeepRow);
}

}  // namespace

void drawSlicingLesson(LessonFrame& frame) {
    const core::Dimensions& d = frame.ctx.run.trace.dims;
    const int head = frame.ctx.state.head;
    DerivedRun* naive = frame.derived.get(DerivedRuns::Kind::NaiveSlicing, frame.ctx.run, naiveRun);
    const std::string dm = std::to_string(d.dModel), dk = std::to_string(d.dK);
    say(frame, "Every head receives the whole X (l × d_model, " + dm + " columns) and gets down to d_k = " + dk +
                   " columns through its own W_i^Q (d_model × d_k): each column of Q_i mixes all " + dm + " features of X. "
                   "The reduction comes from the matrix, not from cutting X.");
    if (naive == nullptr) {
        say(frame, frame.derived.error(DerivedRuns::Kind::NaiveSlicing), Tone::Warning);
        return;
    }
    say(frame, "The naive alternative — head i sees only columns i·d_k … (i+1)·d_k − 1 of X and a d_k × d_k block of W — computes "
               "something else: largest |O_naive − O| = " + formatValue(largestDifference(naive->run.trace[TensorId::Output], frame.ctx.run.trace[TensorId::Output])) +
               ". Each naive head would see " + dk + " of the " + dm + " features and nothing of the rest.",
        Tone::Point);
    headPicker(frame);
    ImGui::Spacing();
    Box box = remainingBox(frame);
    const float gap = std::round(24.0f * frame.ctx.scale);
    const Box left = takeLeft(box, (box.width() - gap) / 2.0f);
    ViewContext naiveView = derivedView(frame, *naive);
    const colormap::Range real = frame.ctx.summaries.get(frame.ctx.run, TensorId::Output).range;
    const colormap::Range other = naive->summaries.get(naive->run, TensorId::Output).range;
    const float largest = std::max({std::fabs(real.lo), real.hi, std::fabs(other.lo), other.hi});
    const colormap::Range outputs{-largest, largest};
    const MatrixRef a = ref(TensorId::AttentionWeights, head);
    const colormap::Range weights = sharedWeightsRange({{&frame.ctx, a}, {&naiveView, a}});
    drawColumn(frame, left, {"What happens: head " + std::to_string(head) + " gets all of X", &frame.ctx, false, outputs, weights}, head);
    drawColumn(frame, {{box.min.x + gap, box.min.y}, box.max},
               {"Naive slicing (wrong): head " + std::to_string(head) + " gets a slice", &naiveView, true, outputs, weights}, head);
}

}  // namespace attnviz::ui
