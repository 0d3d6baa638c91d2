// lesson_free_dims.cpp — "must d_k and d_v be d_model / h?" An advanced setting where d_k and d_v are chosen
// freely: W^Q and W^K become d_model × h·d_k, W^V d_model × h·d_v, and W^O h·d_v × d_model, which brings the
// concatenated heads back to d_model. The setting edits AppState::spec, so every stage and lesson follows.
//
// What it deliberately does not do: check the sizes (core::resolveDimensions does, and its message shows in
// the controls panel) or draw the other stages (the timeline shows them at the new sizes).
#include "ui/lessons/lesson_views.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {
namespace {

using core::TensorId;

constexpr int kMaxFreeWidth = 512;

void controls(LessonFrame& frame) {
    core::AttentionConfig& a = frame.ctx.state.spec.attention;
    const core::Dimensions& d = frame.ctx.run.trace.dims;
    bool free = a.dK > 0 || a.dV > 0;
    if (ImGui::Checkbox("free d_k and d_v (advanced)", &free)) {
        a.dK = free ? d.dK : 0;
        a.dV = free ? std::max(1, d.dV / 2) : 0;  // a different d_v at once, so the change shows
    }
    if (!free) return;
    const float width = std::round(130.0f * frame.ctx.scale);
    ImGui::SameLine(0.0f, 24.0f);
    ImGui::SetNextItemWidth(width);
    if (ImGui::InputInt("d_k", &a.dK)) a.dK = std::clamp(a.dK, 1, kMaxFreeWidth);
    ImGui::SameLine(0.0f, 24.0f);
    ImGui::SetNextItemWidth(width);
    if (ImGui::InputInt("d_v", &a.dV)) a.dV = std::clamp(a.dV, 1, kMaxFreeWidth);
}

void explain(LessonFrame& frame) {
    const core::Dimensions& d = frame.ctx.run.trace.dims;
    const std::string h = std::to_string(d.heads), dm = std::to_string(d.dModel), dk = std::to_string(d.dK), dv = std::to_string(d.dV);
    const bool paper = d.dK * d.heads == d.dModel && d.dV * d.heads == d.dModel;
    say(frame, "The paper picks d_k = d_v = d_model / h so that h heads cost about one full-width head and W^O is square. Nothing needs it: "
               "W_i^Q and W_i^K are d_model × d_k, W_i^V is d_model × d_v, and W^O maps the h·d_v concatenated values back to d_model.");
    say(frame, "Now: d_k = " + dk + ", d_v = " + dv + (paper ? " (= d_model / h)" : "") + ". W^Q, W^K: " + dm + " × " + h + "·" + dk + " = " + dm +
                   " × " + std::to_string(d.heads * d.dK) + ";  W^V: " + dm + " × " + std::to_string(d.heads * d.dV) + ";  W^O: h·d_v × d_model = " +
                   h + "·" + dv + " × " + dm + " = " + std::to_string(d.heads * d.dV) + " × " + dm + ".",
        Tone::Point);
    const long long parameters = 2LL * d.dModel * d.heads * d.dK + 2LL * d.dModel * d.heads * d.dV;
    say(frame, "Parameters of the four matrices: 2·d_model·h·d_k + 2·d_model·h·d_v = " + std::to_string(parameters) + " (4·d_model² = " +
                   std::to_string(4LL * d.dModel * d.dModel) + " with the paper's choice). Every stage on the timeline now uses these sizes.");
}

}  // namespace

void drawFreeDimsLesson(LessonFrame& frame) {
    controls(frame);
    explain(frame);
    ImGui::Spacing();
    Box box = remainingBox(frame);
    const core::Trace& t = frame.ctx.run.trace;
    // Both lines as scenes (the stages' layout): W^Q beside W^V, then Z × W^O = O.
    const auto unlabelled = [&](TensorId tensor) {
        scene::Map map = scene::traceMap(t, tensor);
        map.rowLabels = map.colLabels = false;
        map.colorbar = scene::Colorbar::None;
        return map;
    };
    const auto line = [](std::vector<scene::Term> terms) {
        return scene::Scene{core::StageId::Output, {scene::Figure{scene::Line{std::move(terms)}, "", "", {}}}, std::nullopt};
    };
    const float gap = std::round(16.0f * frame.ctx.scale);
    box.min.y = showScene(frame, line({unlabelled(TensorId::WQ), unlabelled(TensorId::WV)}), takeTop(box, box.height() * 0.5f)).extent.y1 + gap;
    scene::Map concat = scene::traceMap(t, TensorId::Concat);
    concat.colLabels = false;
    concat.colorbar = scene::Colorbar::None;
    scene::Map output = unlabelled(TensorId::Output);
    output.colorbar = scene::Colorbar::Right;
    showScene(frame, line({concat, scene::Operator{"×"}, unlabelled(TensorId::WO), scene::Operator{"="}, output}), box);
}

}  // namespace attnviz::ui
