// app.cpp — App: the run on screen, recomputation, and the window layout. See app.h.
//
// Layout of the one full-window ImGui window (no docking in 1.86):
//   menu bar
//   timeline ────────────────────────────────────────────────────────────────
//   questions bar (a button per lesson) ─────────────────────────────────────
//   controls │ stage view (matrices)                       │ heads grid
//            │                                             │ token lines (from softmax on)
//            │ stage text (formula, PyTorch, explanation)  │ inspector
//   (an open lesson takes the place of the stage view and its text)
#include "ui/app.h"

#include "ui/panels/panels.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {
namespace {

constexpr ImGuiWindowFlags kPanelFlags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;

}  // namespace

App::App(AppState state) : state_(std::move(state)), session_(state_) {
    requestRun();
    takeFinishedRun();
}

void App::requestRun() {
    requested_ = state_.spec;
    runner_.request(requested_, run_);
}

void App::takeFinishedRun() {
    std::optional<RunResult> result = runner_.poll();
    if (!result) return;
    error_ = result->error;
    if (!result->run) return;  // rejected inputs: keep the previous run on screen, show why
    runner_.release(std::move(run_));
    run_ = std::move(result->run);
    ++generation_;
    summaries_.clear();
    lessons_.clear();
    tokenLines_.clear();
    clampViewToRun();
}

void App::waitForRun() {
    runner_.wait();
    takeFinishedRun();
}

void App::clampViewToRun() {
    const core::Trace& trace = run_->trace;
    state_.batch = std::clamp(state_.batch, 0, trace.batch - 1);
    state_.head = std::clamp(state_.head, 0, trace.dims.heads - 1);
    // Cells of the old run may not exist any more.
    const auto fits = [&](const std::optional<CellRef>& cell) { return cell && explainCell(*run_, *cell, state_.batch); };
    if (!fits(state_.pinned)) state_.pinned.reset();
    state_.hovered.reset();
}

void App::frame(render::HeatmapRenderer& renderer, const Fonts& fonts, float scale) {
    takeFinishedRun();
    applyShortcuts(state_, run_ ? run_->trace.dims.heads : 1);
    session_.handleKeys(state_);
    advanceAutoplay(state_, ImGui::GetIO().DeltaTime);
    renderer.beginFrame(generation_);
    const std::optional<CellRef> explained = state_.hovered ? state_.hovered : state_.pinned;
    explanation_ = run_ && explained ? explainCell(*run_, *explained, state_.batch) : std::nullopt;
    state_.hovered.reset();
    drawn_.clear();
    drawWindow(renderer, fonts, scale);
}

void App::drawWindow(render::HeatmapRenderer& renderer, const Fonts& fonts, float scale) {
    const ImGuiViewport& viewport = *ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport.WorkPos);
    ImGui::SetNextWindowSize(viewport.WorkSize);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
    ImGui::Begin("attnviz", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_MenuBar | ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoBackground |
                     kPanelFlags);  // no background: the cleared frame is it (a full-window layer less for the GL driver)
    ImGui::PopStyleVar();
    const RunStatus status{run_.get(), runner_.busy(), error_};
    drawMenuBar(state_, status);
    drawTimeline(state_, fonts, scale);
    lessons_.drawBar(state_, fonts, scale);

    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float controlsWidth = state_.showControls ? std::round(270.0f * scale) : 0.0f;
    const float sideWidth = state_.showSidePanel ? std::round(std::clamp(avail.x * 0.22f, 300.0f * scale, 420.0f * scale)) : 0.0f;
    if (state_.showControls) {
        ImGui::BeginChild("controls", {controlsWidth, avail.y}, true);
        drawControls(state_, status, fonts, scale);
        ImGui::EndChild();
        ImGui::SameLine();
    }
    const ImVec2 centreSize{avail.x - controlsWidth - sideWidth - gap * ((state_.showControls ? 1.0f : 0.0f) + (state_.showSidePanel ? 1.0f : 0.0f)), avail.y};
    if (run_) {
        ViewContext ctx{state_, *run_, renderer, fonts, explanation_, summaries_, drawn_, scale, runner_.busy()};
        drawRunPanels(ctx, scale, centreSize, sideWidth);
    } else {
        ImGui::BeginChild("centre", centreSize, true);
        ImGui::TextWrapped("%s", runner_.busy() ? "Computing the forward pass…" : error_.c_str());
        ImGui::EndChild();
    }
    ImGui::End();
    session_.update(state_, ImGui::GetIO().DeltaTime);
    if (!sameInputs(state_.spec, requested_)) requestRun();
}

void App::drawRunPanels(ViewContext& ctx, float scale, ImVec2 centreSize, float sideWidth) {
    const float textHeight = std::round(150.0f * scale);
    ImGui::BeginGroup();
    if (state_.lesson.open != Lesson::None) {  // a question view takes the place of the stage and its text
        ImGui::BeginChild("lesson", centreSize, true);  // scrolls on windows too small for its maps
        lessons_.draw(ctx);
        ImGui::EndChild();
    } else {
        ImGui::BeginChild("stage", {centreSize.x, centreSize.y - textHeight - ImGui::GetStyle().ItemSpacing.y}, true, kPanelFlags);
        drawStageView(ctx);
        ImGui::EndChild();
        ImGui::BeginChild("stage text", {centreSize.x, textHeight}, true);
        drawStageText(ctx);
        ImGui::EndChild();
    }
    ImGui::EndGroup();
    if (!state_.showSidePanel) return;
    ImGui::SameLine();
    ImGui::BeginChild("side", {sideWidth, centreSize.y}, false, kPanelFlags);
    const float height = ImGui::GetContentRegionAvail().y;
    drawHeadsGrid(ctx, std::round(height * 0.26f));
    if (state_.stage >= core::StageId::Softmax) tokenLines_.draw(ctx, std::round(height * 0.34f));
    ImGui::BeginChild("inspector", {0.0f, 0.0f}, true);
    drawInspector(ctx);
    ImGui::EndChild();
    ImGui::EndChild();
}

}  // namespace attnviz::ui
