// lesson_rows.cpp — "is a linear layer applied to every row separately?" Yes: row t of X times
// W^Q is row t of Q, with the same W^Q for every row. Step or animate over the rows; row t is outlined in X
// and in Q, and drawn as bars (x_t and q_t = x_t W^Q), with how far the row computed alone is from Q's row.
//
// What it deliberately does not do: explain single cells (the inspector does, on hover) or show K and V
// (the same argument, with W^K and W^V).
#include "ui/lessons/lesson_views.h"

#include "ui/views/matrix_info.h"
#include "ui/views/number_format.h"
#include "ui/widgets/widget_label.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {
namespace {

using core::TensorId;

MatrixRef ref(TensorId tensor) { return {MatrixSource::Trace, tensor, 0}; }

TensorId inputOf(const core::Trace& t) { return t.cross ? TensorId::XQuery : TensorId::X; }

// Steps the row forward while animating; keeps it inside the sentence.
void advance(LessonState& lesson, int rows) {
    if (lesson.animateRows) {
        lesson.rowElapsed += ImGui::GetIO().DeltaTime;
        if (lesson.rowElapsed >= lesson.secondsPerRow) {
            lesson.rowElapsed = 0.0f;
            lesson.row = (lesson.row + 1) % rows;
        }
    }
    lesson.row = std::clamp(lesson.row, 0, rows - 1);
}

void rowControls(LessonFrame& frame, int rows) {
    LessonState& lesson = frame.ctx.state.lesson;
    const std::string token = axisLabel(frame.ctx.run, Axis::QueryTokens, frame.ctx.state.batch, lesson.row);
    ImGui::PushID("rows");
    if (ImGui::ArrowButton("previous", ImGuiDir_Left)) lesson.row = (lesson.row + rows - 1) % rows;
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::Text("row t = %d  “%s”", lesson.row, token.c_str());
    ImGui::SameLine();
    if (ImGui::ArrowButton("next", ImGuiDir_Right)) lesson.row = (lesson.row + 1) % rows;
    ImGui::SameLine(0.0f, 20.0f);
    if (ImGui::Button(widgetLabel(lesson.animateRows ? "❚❚ Pause" : "▶ Animate").c_str())) {
        lesson.animateRows = !lesson.animateRows;
        lesson.rowElapsed = 0.0f;
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(std::round(140.0f * frame.ctx.scale));
    ImGui::SliderFloat("##speed", &lesson.secondsPerRow, 0.5f, 5.0f, "%.1f s per row");
    ImGui::PopID();
}

// max |x_t W^Q (+ b) − Q[t]|: the row computed on its own against the row of the whole product.
float rowDifference(const core::ModelRun& run, int batch, int row) {
    const core::Trace& t = run.trace;
    core::RowVector alone = t[inputOf(t)].slice(batch).row(row) * run.weights.wq;
    if (run.weights.hasBiases()) alone += run.weights.bq;
    return (alone - t[TensorId::Q].slice(batch).row(row)).cwiseAbs().maxCoeff();
}

RowChart rowChart(const ViewContext& ctx, TensorId tensor, int row, const std::string& title) {
    const render::MatrixSlice m = matrixSlice(ctx.run, ref(tensor), ctx.state.batch);
    RowChart chart;
    chart.title = title;
    chart.values.assign(m.values.begin() + static_cast<std::ptrdiff_t>(row) * m.cols, m.values.begin() + static_cast<std::ptrdiff_t>(row + 1) * m.cols);
    for (int j = 0; j < m.cols; ++j) chart.labels.push_back(std::to_string(j));
    chart.range = ctx.summaries.get(ctx.run, tensor).range;
    chart.map = ctx.state.diverging;
    return chart;
}

}  // namespace

void drawRowByRowLesson(LessonFrame& frame) {
    const core::ModelRun& run = frame.ctx.run;
    const int rows = run.trace.queryLengths.at(static_cast<std::size_t>(frame.ctx.state.batch));
    LessonState& lesson = frame.ctx.state.lesson;
    advance(lesson, rows);
    rowControls(frame, rows);
    const int t = lesson.row;
    const std::string dm = std::to_string(run.trace.dims.dModel);
    say(frame, "A linear layer is one matrix applied to every row: row t of Q = row t of X × W^Q, with the same W^Q (d_model × h·d_k = " +
                   dm + " × " + std::to_string(run.trace.dims.heads * run.trace.dims.dK) +
                   ") for every token. Q = X W^Q does all rows at once; nothing in row t of Q depends on another row of X.");
    say(frame, "for t in range(l):  Q[t] = X[t] @ W_Q      # the same as  Q = X @ W_Q", Tone::Code);
    say(frame, "Row " + std::to_string(t) + " computed alone: largest |x_t W^Q − Q[t]| = " + formatValue(rowDifference(run, frame.ctx.state.batch, t)) +
                   " (0, or float32 rounding: the same numbers).",
        Tone::Point);
    ImGui::Spacing();
    Box box = remainingBox(frame);
    const TensorId x = inputOf(run.trace);
    // X × W^Q = Q as a scene (the stages' layout): row t outlined, with its label bold, in X and in Q.
    scene::Map input = scene::traceMap(run.trace, x);
    input.colLabels = false;
    input.colorbar = scene::Colorbar::None;
    input.focusRow = t;
    scene::Map weights = scene::traceMap(run.trace, TensorId::WQ);
    weights.rowLabels = weights.colLabels = false;
    weights.colorbar = scene::Colorbar::None;
    scene::Map product = scene::traceMap(run.trace, TensorId::Q);
    product.rowLabels = product.colLabels = false;
    product.focusRow = t;
    const scene::Figure figure{scene::Line{{input, scene::Operator{"×"}, weights, scene::Operator{"="}, product}}, "", "", {}};
    const float bottom = showScene(frame, {core::StageId::Project, {figure}, std::nullopt}, takeTop(box, box.height() * 0.58f)).extent.y1;
    box.min.y = bottom + std::round(12.0f * frame.ctx.scale);
    box.max.y = std::max(box.max.y, box.min.y + std::round(160.0f * frame.ctx.scale));  // stacked maps (zoomed in) push the charts down
    const float gap = std::round(24.0f * frame.ctx.scale);
    const Box left = takeLeft(box, (box.width() - gap) / 2.0f);
    const std::string token = "“" + axisLabel(run, Axis::QueryTokens, frame.ctx.state.batch, t) + "”";
    showChart(frame, left, rowChart(frame.ctx, x, t, "x_t: row " + std::to_string(t) + " of X, " + token + " (" + dm + " numbers)"));
    showChart(frame, {{box.min.x + gap, box.min.y}, box.max}, rowChart(frame.ctx, TensorId::Q, t, "q_t = x_t W^Q: row " + std::to_string(t) + " of Q"));
}

}  // namespace attnviz::ui
