// app.cpp — App: the run on screen, recomputation, and the window layout. See app.h.
//
// Layout of the one full-window ImGui window (no docking in 1.86):
//   menu bar
//   timeline ────────────────────────────────────────────────────────────────
//   questions bar (a button per lesson) ─────────────────────────────────────
//   controls │ stage view (matrices)                       │ heads grid
//            │                                             │ token lines (from softmax on)
//            │ stage text (formula, PyTorch, explanation)  │ prediction (next token, KV cache)
//            │                                             │ inspector
//   (an open lesson takes the place of the stage view and its text; an open question (Q) of the stage view, its
//   text and the side panels)
#include "ui/app.h"

#include "core/display_text.h"
#include "io/checkpoint.h"
#include "io/safetensors.h"
#include "ui/panels/panels.h"

#include <algorithm>
#include <cmath>
#include <utility>

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
    requestedEveryLayer_ = state_.modelView;  // closing it recomputes nothing: the next run leaves them out
    core::RunOptions options;
    options.everyLayerAttention = requestedEveryLayer_;
    // The run with every head on, when the caller has it: the run on screen, or the one beside it.
    std::shared_ptr<const core::ModelRun> intact = run_ && run_->spec.headsOff.empty() ? run_ : headsOff_.intact();
    runner_.request(requested_, run_, options, std::move(intact));
}

void App::takeFinishedRun() {
    std::optional<RunResult> result = runner_.poll();
    if (!result) return;
    error_ = result->error;
    if (!result->run) return;  // rejected inputs: keep the previous run on screen, show why
    runner_.release(std::move(run_));
    run_ = std::move(result->run);
    runner_.release(headsOff_.replaceIntact(std::move(result->intact)));
    ++generation_;
    analyses_.showRun(run_, generation_);
    summaries_.clear();
    lessons_.clear();
    tokenLines_.clear();
    clampViewToRun();
}

void App::waitForRun() {
    runner_.wait();
    takeFinishedRun();
    analyses_.takeFinished();
    prediction_.cacheFollower().wait();
}

void App::clampViewToRun() {
    if (awaited_ && state_.head == awaited_->shownHead && state_.batch == awaited_->shownBatch) {  // unchanged since
        state_.head = awaited_->head;
        state_.batch = awaited_->batch;
    }
    awaited_.reset();
    keepViewInRun();
    if (run_->spec == state_.spec) awaited_.reset();  // the run of the inputs on screen: what it lacks will not come
    // Cells of the old run may not exist any more.
    const auto fits = [&](const std::optional<CellRef>& cell) { return cell && explainCell(*run_, *cell, state_.batch); };
    if (!fits(state_.pinned)) state_.pinned.reset();
    state_.hovered.reset();
}

// Views draw the run on screen, which may be older than the inputs: a head or sentence it does not have is shown
// as the nearest it has, and the one asked for comes back when a run that has it lands (clampViewToRun).
void App::keepViewInRun() {
    const core::Trace& trace = run_->trace;
    const int head = std::clamp(state_.head, 0, trace.dims.heads - 1), batch = std::clamp(state_.batch, 0, trace.batch - 1);
    if (head == state_.head && batch == state_.batch) return;
    if (!awaited_) awaited_ = AwaitedView{state_.head, state_.batch, head, batch};
    else awaited_->shownHead = head, awaited_->shownBatch = batch;
    state_.head = head;
    state_.batch = batch;
}

void App::frame(render::HeatmapRenderer& renderer, const Fonts& fonts, float scale) {
    // The model view opened on a trained model's run without every layer's weights: computed now (inline for a
    // small model, so this frame draws them), or on the worker while the view says so.
    if (state_.modelView && state_.spec.trained() && !requestedEveryLayer_) requestRun();
    takeFinishedRun();
    analyses_.takeFinished();
    applyShortcuts(state_, run_ ? run_->trace.dims.heads : 1);
    session_.handleKeys(state_);
    advanceAutoplay(state_, ImGui::GetIO().DeltaTime);
    renderer.beginFrame(generation_);
    const std::optional<CellRef> explained = state_.hovered ? state_.hovered : state_.pinned;
    explanation_ = run_ && explained ? explainCell(*run_, *explained, state_.batch) : std::nullopt;
    state_.hovered.reset();
    state_.compareHovered.reset();  // the compare view names it again while it is drawn
    drawn_.clear();
    drawnTokens_.clear();
    headCaptions_.clear();
    drawWindow(renderer, fonts, scale);
}

namespace {

// The narrowest centre at which a stage's two maps stay at least 160 px with their labels, colorbars and the
// operator between them (measured on the softmax stage of the default sentence), at UI scale 1.
constexpr float kMinCentreWidth = 760.0f;
// The side panel's width when it is kept in a window too narrow for it ("Show them" at 1280 x 800): the stage's S and
// A stay side by side with their labels (at 300 px A went below the stage), and a pinned cell's explanation still
// fits the Inspector (at 260 px stage 8's scrolled 10 px).
constexpr float kNarrowestSidePanel = 280.0f;

// The left and right panels shown this frame: the user's choice, minus what presenting or a narrow window folds
// away (the side panel first, then the controls).
struct PanelLayout {
    bool controls = false, side = false;
    bool folded = false;  // a panel the user wants is folded: the window is narrow, or narrow for the zoom
    bool kept = false;    // panels that would fold are kept ("Show them"): the maps get the narrower centre
    float controlsWidth = 0.0f, sideWidth = 0.0f, centreWidth = 0.0f;
};

// The user's panels at `scale`, the side panel and then the controls folded while the centre is narrower than
// `needed` (unless the user asked to keep them).
PanelLayout foldPanels(const AppState& state, float width, float scale, float needed) {
    PanelLayout layout;
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    auto place = [&](bool controls, bool side) {
        layout.controls = controls;
        layout.side = side;
        layout.controlsWidth = controls ? std::round(270.0f * scale) : 0.0f;
        layout.sideWidth = side ? std::round(std::clamp(width * 0.22f, 300.0f * scale, 420.0f * scale)) : 0.0f;
        layout.centreWidth = width - layout.controlsWidth - layout.sideWidth - gap * ((controls ? 1.0f : 0.0f) + (side ? 1.0f : 0.0f));
    };
    place(state.showControls, state.showSidePanel);
    if (state.keepPanelsWhenNarrow) {
        layout.kept = layout.centreWidth < needed && (layout.controls || layout.side);
        if (layout.kept && layout.side) {  // kept in a narrow window: the side panel at its narrowest, the maps get the rest
            const float narrowest = std::round(kNarrowestSidePanel * scale);
            layout.centreWidth += layout.sideWidth - narrowest;
            layout.sideWidth = narrowest;
        }
        return layout;
    }
    if (layout.centreWidth < needed && layout.side) place(layout.controls, false);
    if (layout.centreWidth < needed && layout.controls) place(false, layout.side);
    layout.folded = layout.controls != state.showControls || layout.side != state.showSidePanel;
    return layout;
}

// The panels of this frame. At any zoom they fold before the centre gets narrower than zoom 1 gives it: zoomed
// in, the panels widen with the type, and the magnified maps get at least the width they had; zoomed out, the
// panels narrow but no less folds than at zoom 1 (at 1280 × 800 and 85 % the side panel stayed, and the maps
// shrank to 120 px over an empty chart's room). The side panels fold first.
PanelLayout layoutPanels(const AppState& state, float width, float scale) {
    if (state.presenting) {
        PanelLayout layout;
        layout.centreWidth = width;
        return layout;
    }
    float needed = kMinCentreWidth * scale;
    if (state.zoom != 1.0f) {
        const float unzoomed = scale / state.zoom;
        needed = std::max(needed, foldPanels(state, width, unzoomed, kMinCentreWidth * unzoomed).centreWidth);
    }
    return foldPanels(state, width, scale, needed);
}

// The way back from folded panels, on its own line above the stage.
void foldedNotice(AppState& state) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored({0.35f, 0.35f, 0.35f, 1.0f}, "The side panels are folded so the maps stay readable at this window size and zoom.");
    ImGui::SameLine();
    if (ImGui::SmallButton("Show them")) state.keepPanelsWhenNarrow = true;
}

// The way back from kept panels ("Show them"), where the folded notice stood: at 1280 x 800 they stack S and A.
void keptNotice(AppState& state) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored({0.35f, 0.35f, 0.35f, 1.0f}, "The side panels are kept at this window size: the maps have less room.");
    ImGui::SameLine();
    if (ImGui::SmallButton("Fold them")) state.keepPanelsWhenNarrow = false;
}

// Whether the open model's checkpoint was cut short on disk (saved again in place) while its weights were read from
// the mapped file: the weights it lost read as zeros, so the numbers on screen are no longer the model's. (Another
// model still held elsewhere, by the undo history say, does not count.)
bool openModelCutShort(const AppState& state) {
    const core::TrainedModel* model = state.spec.trainedModel();
    return model != nullptr && io::anyMappedFileCutShort() && io::weightsCutShort(model->transformer);
}

// What openModelCutShort found, with the way back: reading the folder again.
void cutShortNotice(AppState& state) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored({0.85f, 0.25f, 0.2f, 1.0f}, "The model's weights file changed on disk while it was open: the weights it lost read as zeros.");
    const core::TrainedModel* model = state.spec.trainedModel();
    if (model->folder.empty()) return;
    ImGui::SameLine();
    if (ImGui::SmallButton("Reopen the model")) {
        state.session.request = {SessionAction::OpenRecentModel, model->folder};
    }
}

// Presenting with B pressed: the whole window black, as slide software blanks a projector.
void drawBlankScreen() {
    const ImGuiViewport& viewport = *ImGui::GetMainViewport();
    ImGui::GetForegroundDrawList()->AddRectFilled(viewport.Pos, {viewport.Pos.x + viewport.Size.x, viewport.Pos.y + viewport.Size.y},
                                                  IM_COL32(0, 0, 0, 255));
}

}  // namespace

void App::drawWindow(render::HeatmapRenderer& renderer, const Fonts& fonts, float scale) {
    const ImGuiViewport& viewport = *ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport.WorkPos);
    ImGui::SetNextWindowSize(viewport.WorkSize);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
    // Presenting: no menu bar and no questions row, only the timeline, the stage and its text.
    const ImGuiWindowFlags menuBar = state_.presenting ? ImGuiWindowFlags_None : ImGuiWindowFlags_MenuBar;
    ImGui::Begin("attnviz", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings | menuBar |
                     ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoBackground |
                     kPanelFlags);  // no background: the cleared frame is it (a full-window layer less for the GL driver)
    ImGui::PopStyleVar();
    const RunStatus status{run_.get(), runner_.busy(), error_};
    if (!state_.presenting) drawMenuBar(state_, status);
    drawTimeline(state_, fonts, scale);
    if (!state_.presenting) lessons_.drawBar(state_, fonts, scale);

    const PanelLayout layout = layoutPanels(state_, ImGui::GetContentRegionAvail().x, scale);
    if (layout.folded) foldedNotice(state_);
    if (layout.kept) keptNotice(state_);
    if (openModelCutShort(state_)) cutShortNotice(state_);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (layout.controls) {
        ImGui::BeginChild("controls", {layout.controlsWidth, avail.y}, true);
        drawControls(state_, status, fonts, scale);
        ImGui::EndChild();
        ImGui::SameLine();
    }
    const ImVec2 centreSize{layout.centreWidth, avail.y};
    if (run_) {
        keepViewInRun();
        ViewContext ctx{state_, *run_, renderer, fonts, explanation_, summaries_, drawn_, scale, runner_.busy(), &drawnTokens_, &headsOff_,
                        &analyses_, &headCaptions_};
        drawRunPanels(ctx, scale, centreSize, layout.side ? layout.sideWidth : 0.0f);
    } else {
        ImGui::BeginChild("centre", centreSize, true);
        ImGui::TextWrapped("%s", runner_.busy() ? "Computing the forward pass…" : core::clipped(error_).c_str());
        ImGui::EndChild();
    }
    headsOff_.drawMenu(state_);
    ImGui::End();
    if (state_.presenting && state_.blanked) drawBlankScreen();
    if (state_.session.request.action == SessionAction::GetModel) {
        const SessionRequest request = std::exchange(state_.session.request, {});
        getModel_.open();
        if (!request.repo.empty()) getModel_.fetch(request.repo, request.layer);
    }
    getModel_.draw(state_, scale);  // may ask to open the model it fetched
    session_.update(state_, ImGui::GetIO().DeltaTime);
    if (state_.spec != requested_) requestRun();
}

// An explained cell's Inspector gets the height its explanation took last frame: the token lines and the
// prediction above it give it up in proportion, each keeping three rows (at 1920 x 1080 the Inspector had 70 px,
// and its explanation scrolled inside it), or, when three rows each still leave it short, fold away (height 0: not
// drawn; at 1280 x 800 the weighted sum's 453 px explanation scrolled 191 px). `used`: the side panel's height the
// panels above it take.
void App::yieldToInspector(const ViewContext& ctx, float used, float height, float& linesHeight, float& predictionHeight) const {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float room = height - used - 3.0f * style.ItemSpacing.y;
    if (!ctx.explanation || inspectorFit_ <= room) return;
    const float keep = 3.0f * ImGui::GetFrameHeightWithSpacing() + 2.0f * style.WindowPadding.y;
    const auto give = [&](float& panel, float share) {
        if (panel <= keep) return;
        panel = std::max(keep, std::floor(panel - share));
    };
    const float wanted = inspectorFit_ - room, yielding = linesHeight + predictionHeight;
    if (yielding <= 0.0f) return;
    give(linesHeight, wanted * linesHeight / yielding);
    give(predictionHeight, wanted * predictionHeight / yielding);
    if (yielding - linesHeight - predictionHeight >= wanted) return;
    linesHeight = 0.0f;
    predictionHeight = 0.0f;
}

void App::drawRunPanels(ViewContext& ctx, float scale, ImVec2 centreSize, float sideWidth) {
    if (state_.ask.open) {  // the question takes the centre and the side, each of whose panels could name its answer
        const float width = centreSize.x + (sideWidth > 0.0f ? sideWidth + ImGui::GetStyle().ItemSpacing.x : 0.0f);
        ImGui::BeginChild("ask", {width, centreSize.y}, true);
        ask_.draw(ctx, generation_);
        ImGui::EndChild();
        return;
    }
    ImGui::BeginGroup();
    if (state_.lesson.open != Lesson::None) {  // a question view takes the place of the stage and its text
        ImGui::BeginChild("lesson", centreSize, true);  // scrolls on windows too small for its maps
        lessons_.draw(ctx, prediction_, analyses_);
        ImGui::EndChild();
    } else if (state_.spec.compareWith && run_->compared) {  // compare: A, B and A − B take the stage and its text
        ImGui::BeginChild("compare", centreSize, true);
        lessons_.drawCompare(ctx);
        ImGui::EndChild();
    } else if (state_.modelView && run_->modelPass) {  // every layer × head: the maps need the height more than a stage's text
        ImGui::BeginChild("stage", centreSize, true);
        drawStageView(ctx);  // its tiles take their own right-clicks (heads_off_view's headTile)
        ImGui::EndChild();
    } else {
        // The stage text's panel fits its text, between 60 and 150 px at scale 1 (longer text scrolls); what it
        // does not need goes to the maps.
        const StageText text = stageText(ctx);
        stageTextFit_.x = stageTextHeight(text, ctx, centreSize.x);
        // Zoomed in, it keeps the height zoom 1 gives it (its text scrolls): side content gives way to the maps first.
        const float textScale = scale / std::max(1.0f, state_.zoom);
        const float textHeight = std::clamp(stageTextFit_.x, std::round(60.0f * textScale), std::round(150.0f * textScale));
        const ImVec2 stageSize{centreSize.x, centreSize.y - textHeight - ImGui::GetStyle().ItemSpacing.y};
        // Zoomed in, the stage is magnified and scrolls downwards (drawStageView), never sideways; at any zoom it
        // scrolls down to token rows the box could not hold at the label floor (scene::layoutSceneKeepingLabels).
        ImGui::BeginChild("stage", stageSize, true);
        const std::size_t drawnBefore = drawn_.size();
        drawStageView(ctx);
        headsOff_.stageMaps(ctx, drawnBefore);
        ImGui::EndChild();
        ImGui::BeginChild("stage text", {centreSize.x, textHeight}, true);
        drawStageText(text, ctx);
        stageTextFit_.y = std::ceil(ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y + ImGui::GetStyle().WindowPadding.y);
        ImGui::EndChild();
    }
    ImGui::EndGroup();
    if (sideWidth <= 0.0f) return;
    keepViewInRun();  // the centre may have closed a question view, restoring a head of the run still to come
    ImGui::SameLine();
    ImGui::BeginChild("side", {sideWidth, centreSize.y}, false, kPanelFlags);
    const float height = ImGui::GetContentRegionAvail().y;
    const float headsHeight = std::round(height * 0.26f);
    drawHeadsGrid(ctx, headsHeight);
    const bool lines = state_.stage >= core::StageId::Softmax;
    const bool prediction = state_.lesson.open != Lesson::NextToken;  // that view draws the prediction itself, large
    float linesHeight = lines ? std::round(height * 0.34f) : 0.0f;
    float predictionHeight = prediction ? std::round(height * (lines ? 0.3f : 0.46f)) : 0.0f;
    yieldToInspector(ctx, headsHeight + linesHeight + predictionHeight, height, linesHeight, predictionHeight);
    if (linesHeight > 0.0f) tokenLines_.draw(ctx, linesHeight);
    if (predictionHeight > 0.0f) prediction_.draw(ctx, predictionHeight);
    ImGui::BeginChild("inspector", {0.0f, 0.0f}, true);
    drawInspector(ctx);
    inspectorFit_ = std::ceil(ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y + ImGui::GetStyle().WindowPadding.y);
    ImGui::EndChild();
    ImGui::EndChild();
}

}  // namespace attnviz::ui
