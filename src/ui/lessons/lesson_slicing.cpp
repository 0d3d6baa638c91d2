// lesson_slicing.cpp — "does each head get a slice of the embedding?" No: every head receives the
// whole X and gets down to d_k columns through its own W_i. Beside the real computation, the naive slicing
// model (head i sees only columns i·d_k … of X) for head i: its attention weights and output, visibly
// different, with the largest output difference.
//
// What it deliberately does not do: compute the naive model (core::naiveSlicingAttention does); it shows its
// weights and output as computed maps and dims the columns of X the naive head never sees.
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

// What the slicing view computes: the naive model (every sentence and head), and the maps shown of it.
enum Matrix { kNaiveModel, kNaiveWeights, kNaiveOutput };

std::shared_ptr<const core::NaiveSlicing> naiveModel(LessonFrame& frame) {
    const core::ModelRun& run = frame.ctx.run;
    return frame.computed.get<core::NaiveSlicing>({static_cast<int>(Lesson::Slicing), kNaiveModel},
                                                  [&] { return core::naiveSlicingAttention(run.trace, run.weights); });
}

// The naive head's weights A_i naive (l × l, masked as the real ones) and output O naive (l × d_model) of the sentence shown.
MatrixRef naiveWeights(LessonFrame& frame, const core::NaiveSlicing& naive, int head) {
    const core::Trace& t = frame.ctx.run.trace;
    const int batch = frame.ctx.state.batch;
    const ComputedSpec spec{withHead("A", head, " naive"), "l × l", core::Axis::QueryTokens, core::Axis::KeyTokens, true};
    const auto mask = [&] { return t[TensorId::Mask].empty() ? core::Matrix() : core::Matrix(t[TensorId::Mask].slice(batch, 0)); };
    return computedRef(computedMatrix(frame, kNaiveWeights, head, 0, spec, [&] { return core::Matrix(naive.attentionWeights.slice(batch, head)); }, mask));
}

MatrixRef naiveOutput(LessonFrame& frame, const core::NaiveSlicing& naive) {
    const ComputedSpec spec{"O naive", "l × d_model", core::Axis::QueryTokens, core::Axis::Features, false};
    return computedRef(computedMatrix(frame, kNaiveOutput, 0, 0, spec, [&] { return core::Matrix(naive.output.slice(frame.ctx.state.batch)); }));
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
    MatrixRef weights, output;  // A_i and O, real or naive
    bool sliced;
    colormap::Range outputRange;  // O and O_naive on one scale, so their colors compare
    colormap::Range weightsRange; // A_i and A_i naive likewise
};

// The shares of a column's height below its title: X takes kXShare, A_i kWeightsShare of what is left, O the rest.
constexpr float kXShare = 0.29f, kWeightsShare = 0.58f, kMapGap = 6.0f;

// The height below the title at which X, A_i and O (`maps`, drawn with their options) each keep their token rows at
// the label floor: each map's rows at the smallest labelled cell plus its decorations, divided by its share.
float heightKeepingLabels(const ViewContext& ctx, const std::vector<std::pair<MatrixRef, HeatmapOptions>>& maps) {
    std::vector<float> need;
    for (const auto& [ref, options] : maps) {
        const Insets in = heatmapInsets(ctx, ref, options);
        need.push_back(displayShape(ctx, ref, false).x * smallestLabelledCell(ctx) + in.top + in.bottom + 1.0f);
    }
    const float rest = std::max((need[1] / kWeightsShare), (need[2] + kMapGap) / (1.0f - kWeightsShare)) + kMapGap;
    return std::max(need[0] / kXShare, rest / (1.0f - kXShare));
}

// Zoomed in, each map is stacked across the page (showMapRow) rather than kept in the column's share of the box.
// On a box too short for every token row at the label floor (a long sentence presenting), the column grows
// downwards and the page scrolls, as a scene's box does (scene::layoutSceneKeepingLabels). Returns the y below O.
float drawColumn(LessonFrame& frame, Box box, const Column& column, int head) {
    const core::Dimensions& d = frame.ctx.run.trace.dims;
    const float line = sayAt(frame, box.min, box.width(), column.title, column.sliced ? Tone::Warning : Tone::Point);
    box.min.y += line + kMapGap;
    const std::string i = subscript(head);
    const std::string xCaption = column.sliced ? "X[:, " + std::to_string(head * d.dK) + ":" + std::to_string((head + 1) * d.dK) + "]" : "X, all of it";
    const MatrixRef x = ref(frame.ctx.run.trace.cross ? TensorId::XQuery : TensorId::X);
    HeatmapOptions weights = small("A" + i + (column.sliced ? " naive" : ""), true);
    weights.range = column.weightsRange;
    HeatmapOptions output = small(column.sliced ? "O naive" : "O", false);
    output.range = column.outputRange;
    if (frame.ctx.state.zoom <= 1.0f) {
        box.max.y = std::max(box.max.y, box.min.y + heightKeepingLabels(frame.ctx, {{x, small(xCaption, false)}, {column.weights, weights}, {column.output, output}}));
    }
    // A_i has its keys' labels on top as well as its queries' on the left: it gets the largest share, so on a short
    // projector box every token label of all three maps stays.
    box.min.y = showMapRow(frame, takeTop(box, box.height() * kXShare), {{x, small(xCaption, false)}}) + kMapGap;
    if (const std::optional<DrawnHeatmap> drawn = lastDrawn(frame.ctx.drawn, x)) {
        if (column.sliced) markSlice(*drawn, head, d.dK);
        else frameWhole(*drawn, head);
    }
    box.min.y = showMapRow(frame, takeTop(box, box.height() * kWeightsShare), {{column.weights, weights}}) + kMapGap;
    return showMapRow(frame, box, {{column.output, output}});
}

}  // namespace

void drawSlicingLesson(LessonFrame& frame) {
    const core::Dimensions& d = frame.ctx.run.trace.dims;
    const int head = frame.ctx.state.head;
    const std::shared_ptr<const core::NaiveSlicing> naive = naiveModel(frame);
    const std::string dm = std::to_string(d.dModel), dk = std::to_string(d.dK);
    say(frame, "Every head receives the whole X (l × d_model, " + dm + " columns) and gets down to d_k = " + dk +
                   " columns through its own W_i^Q (d_model × d_k): each column of Q_i mixes all " + dm + " features of X. "
                   "The reduction comes from the matrix, not from cutting X.");
    if (naive == nullptr) {
        say(frame, frame.computed.error({static_cast<int>(Lesson::Slicing), kNaiveModel}), Tone::Warning);
        return;
    }
    say(frame, "The naive alternative — head i sees only columns i·d_k … (i+1)·d_k − 1 of X and a d_k × d_k block of W — computes "
               "something else: largest |O_naive − O| = " + formatValue(naive->largestOutputDifference) +
               ". Each naive head would see " + dk + " of the " + dm + " features and nothing of the rest.",
        Tone::Point);
    headPicker(frame);
    ImGui::Spacing();
    Box box = remainingBox(frame);
    const float gap = std::round(24.0f * frame.ctx.scale);
    const colormap::Range real = frame.ctx.summaries.get(frame.ctx.run, TensorId::Output).range;
    float naiveLargest = 0.0f;
    for (std::size_t k = 0; k < naive->output.size(); ++k) naiveLargest = std::max(naiveLargest, std::fabs(naive->output.data[k]));
    const float largest = std::max({std::fabs(real.lo), real.hi, naiveLargest});
    const colormap::Range outputs{-largest, largest};
    const MatrixRef a = ref(TensorId::AttentionWeights, head), aNaive = naiveWeights(frame, *naive, head);
    const colormap::Range weights = sharedWeightsRange({{&frame.ctx, a}, {&frame.ctx, aNaive}});
    const Column whole{"What happens: head " + std::to_string(head) + " gets all of X", a, ref(TensorId::Output), false, outputs, weights};
    const Column slice{"Naive slicing (wrong): head " + std::to_string(head) + " gets a slice", aNaive, naiveOutput(frame, *naive), true, outputs, weights};
    if (frame.ctx.state.zoom > 1.0f) {
        // Zoomed in, side by side the columns would narrow as their labels grow: the naive column goes under the
        // real one, each map across the page, so they grow with the zoom (the page scrolls).
        const float bottom = drawColumn(frame, box, whole, head) + gap;
        drawColumn(frame, {{box.min.x, bottom}, {box.max.x, bottom + box.height()}}, slice, head);
        return;
    }
    const Box left = takeLeft(box, (box.width() - gap) / 2.0f);
    drawColumn(frame, left, whole, head);
    drawColumn(frame, {{box.min.x + gap, box.min.y}, box.max}, slice, head);
}

}  // namespace attnviz::ui
