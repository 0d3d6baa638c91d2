// lesson_scaling.cpp — "why divide by √d_k?" The score scale as a slider (1/√d_k by default, 1, 1/d_k or any
// value) and d_k itself, with every softmax row's entropy and largest weight for the focused head and the
// averages over all heads, so the saturation of softmax with big scores shows.
//
// What it deliberately does not do: compute the sharpness (core::rowSharpness does, once per run) or a forward
// pass (the slider edits AppState::spec.attention.scale and App recomputes).
#include "core/lessons.h"
#include "ui/lessons/lesson_views.h"
#include "ui/views/scene_view.h"
#include "ui/views/matrix_info.h"
#include "ui/views/number_format.h"
#include "ui/widgets/widget_label.h"

#include <cmath>
#include <cstdio>

namespace attnviz::ui {
namespace {

using core::TensorId;

constexpr int kDkChoices[] = {4, 8, 32, 128};

std::string fixed(double value, int digits) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

float defaultScale(int dK) { return 1.0f / std::sqrt(static_cast<float>(dK)); }

void scaleControls(LessonFrame& frame) {
    core::AttentionConfig& a = frame.ctx.state.spec.attention;
    const int dK = frame.ctx.run.trace.dims.dK;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("scale");
    // On a narrow window the controls wrap, never past its edge.
    sameLineIfFits(checkboxWidth("1/√d_k (default)"));
    if (ImGui::RadioButton("1/√d_k (default)", !a.scale.has_value())) a.scale.reset();
    sameLineIfFits(checkboxWidth("1 (no scaling)"));
    if (ImGui::RadioButton("1 (no scaling)", a.scale == 1.0f)) a.scale = 1.0f;
    sameLineIfFits(checkboxWidth("1/d_k"));
    if (ImGui::RadioButton("1/d_k", a.scale == 1.0f / static_cast<float>(dK))) a.scale = 1.0f / static_cast<float>(dK);
    const float sliderWidth = std::round(200.0f * frame.ctx.scale);
    sameLineIfFits(sliderWidth);
    float value = a.scale.value_or(defaultScale(dK));
    ImGui::SetNextItemWidth(sliderWidth);
    if (ImGui::SliderFloat("##scale", &value, 0.01f, 4.0f, "%.4f", ImGuiSliderFlags_Logarithmic)) a.scale = value;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("d_k  ");
    for (int choice : kDkChoices) {
        const std::string text = std::to_string(choice);
        sameLineIfFits(checkboxWidth(text.c_str()));
        if (ImGui::RadioButton(widgetLabel(text, "dk" + text).c_str(), dK == choice)) {
            if (a.dK == 0) a.dModel = a.heads * choice;  // d_k = d_model / h: grow d_model
            else a.dK = choice;                            // free d_k: set it
        }
    }
    const char* note = a.dK == 0 ? "(sets d_model = h · d_k)" : "(free d_k)";
    sameLineIfFits(ImGui::CalcTextSize(note).x);
    ImGui::TextDisabled("%s", note);
}

// Mean over the rows that have a distribution (fully masked rows are NaN and skipped).
double meanOf(const float* values, int count) {
    double sum = 0.0;
    int n = 0;
    for (int k = 0; k < count; ++k) {
        if (std::isnan(values[k])) continue;
        sum += values[k];
        ++n;
    }
    return n > 0 ? sum / n : std::nan("");
}

RowChart sharpnessChart(const LessonFrame& frame, const core::Tensor& values, const std::string& title, float top) {
    const core::Trace& t = frame.ctx.run.trace;
    const int rows = t.queryLength, head = frame.ctx.state.head;
    const float* row = values.data.data() + (static_cast<std::size_t>(frame.ctx.state.batch) * t.dims.heads + head) * rows;
    RowChart chart;
    chart.title = title;
    chart.values.assign(row, row + rows);
    for (int r = 0; r < rows; ++r) chart.labels.push_back(axisLabel(frame.ctx.run, Axis::QueryTokens, frame.ctx.state.batch, r));
    chart.range = {0.0f, top};
    chart.map = frame.ctx.state.sequential;
    return chart;
}

void explain(LessonFrame& frame, const core::RowSharpness& sharpness) {
    const core::Trace& t = frame.ctx.run.trace;
    const int head = frame.ctx.state.head, rows = t.queryLength;
    const std::size_t slice = (static_cast<std::size_t>(frame.ctx.state.batch) * t.dims.heads + head) * rows;
    const double uniform = std::log(static_cast<double>(t.keyLength));
    const bool isDefault = !frame.ctx.state.spec.attention.scale.has_value();
    say(frame, "Each score is a dot product of d_k numbers, so its spread grows like √d_k. Dividing by √d_k keeps it near 1 whatever d_k is; "
               "without it softmax saturates — one weight near 1, the others near 0 — and learning slows to a crawl.");
    say(frame, "Now: scale = " + formatValue(t.dims.scale) + (isDefault ? " = 1/√" + std::to_string(t.dims.dK) + ", the default" : "  (1/√d_k would be " +
                   formatValue(defaultScale(t.dims.dK)) + ")") + ", d_k = " + std::to_string(t.dims.dK) + ".");
    say(frame, "Head " + std::to_string(head) + ": mean entropy " + fixed(meanOf(sharpness.entropy.data.data() + slice, rows), 2) +
                   " nats (uniform would be ln " + std::to_string(t.keyLength) + " = " + fixed(uniform, 2) + ", one-hot 0), mean largest weight " +
                   fixed(meanOf(sharpness.maxWeight.data.data() + slice, rows), 2) + ". All heads and sentences: entropy " +
                   fixed(meanOf(sharpness.entropy.data.data(), static_cast<int>(sharpness.entropy.size())), 2) + ", largest weight " +
                   fixed(meanOf(sharpness.maxWeight.data.data(), static_cast<int>(sharpness.maxWeight.size())), 2) + ".",
        Tone::Point);
}

// The share of the width A_i takes beside the charts, and the most it may take before the charts go under it.
constexpr float kBesideShare = 0.46f, kWidestBesideShare = 0.6f;

}  // namespace

void drawScalingLesson(LessonFrame& frame) {
    scaleControls(frame);
    headPicker(frame);
    const std::shared_ptr<const core::RowSharpness> sharpness =
        frame.computed.get<core::RowSharpness>({static_cast<int>(Lesson::Scaling)}, [&] { return core::rowSharpness(frame.ctx.run.trace); });
    explain(frame, *sharpness);
    ImGui::Spacing();
    Box box = remainingBox(frame);
    const int head = frame.ctx.state.head;
    const float gap = std::round(24.0f * frame.ctx.scale);
    // A_i as a scene (the stages' layout: square cells, its shape and colorbar).
    const scene::Map a = scene::traceMap(frame.ctx.run.trace, TensorId::AttentionWeights, head);
    const scene::Figure figure{scene::Line{{a}}, "", "", {}};
    const scene::Scene weights{core::StageId::Softmax, {figure}, std::nullopt};
    // A_i beside the charts takes kBesideShare of the width, more when its token columns need it for their labels.
    const scene::Insets in = ScreenMetrics(frame.ctx).decorations(a);
    const float labelledWidth = in.left + in.right + static_cast<float>(a.cols) * smallestLabelledCell(frame.ctx) + 1.0f;
    const float beside = std::max(kBesideShare * box.width(), labelledWidth);
    if (frame.ctx.state.zoom > 1.0f || beside > kWidestBesideShare * box.width()) {
        // Zoomed in (or a sentence too long for A beside the charts), the charts give way first: A across the
        // whole width, they under it (the page scrolls).
        const float height = box.height();
        box.min.y = showScene(frame, weights, {box.min, {box.max.x, box.min.y + box.width()}}).extent.y1 + gap;
        box.max.y = std::max(box.max.y, box.min.y + height);
    } else {
        showScene(frame, weights, takeLeft(box, beside));
        box.min.x += gap;
    }
    const float uniform = std::log(static_cast<float>(frame.ctx.run.trace.keyLength));
    showChart(frame, takeTop(box, box.height() / 2.0f),
              sharpnessChart(frame, sharpness->entropy, "entropy of each row of A" + subscript(head) + " (nats; top = uniform)", uniform));
    showChart(frame, box, sharpnessChart(frame, sharpness->maxWeight, "largest weight of each row (1 = saturated)", 1.0f));
}

}  // namespace attnviz::ui
