// app.h — the application without a window: owns the AppState, the ModelRun on screen and the SessionController
// (undo, session files, cell editing), recomputes only when the inputs (AppState::spec) differ from the last ones
// asked for (on a worker thread for big sizes), and lays the panels out in the current ImGui frame. A trained
// model's every layer's attention weights are computed only while the model view shows them: opening it recomputes
// the run with them.
//
// The main loop (src/app/gui_main.cpp) calls frame() between ImGui::NewFrame() and ImGui::Render(); tests do
// the same with the null renderer and no window. App does not create windows, load fonts or persist
// settings (src/app does), and makes no GL call (textures go through render::HeatmapRenderer).
#pragma once

#include "ui/model_runner.h"
#include "ui/ask/ask_view.h"
#include "ui/panels/heads_off_view.h"
#include "ui/panels/panel_get_model.h"
#include "ui/panels/panel_lessons.h"
#include "ui/panels/panel_prediction.h"
#include "ui/panels/panel_token_lines.h"
#include "ui/session/session_controller.h"
#include "ui/views/view_context.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnviz::ui {

class App {
public:
    // Starts computing state.spec at once (inline when small).
    explicit App(AppState state);
    // The native file chooser File ▸ Open, Save As… and Open model ask (src/app: zenity); without one, a path field.
    void setFilePicker(FilePicker picker) { session_.setFilePicker(std::move(picker)); }

    // One frame of UI into the current ImGui frame. `scale` is the UI scale (1 at the base font size).
    void frame(render::HeatmapRenderer& renderer, const Fonts& fonts, float scale);

    AppState& state() { return state_; }
    const AppState& state() const { return state_; }
    // The run on screen; null until the first one is computed (or if the first inputs were rejected).
    const core::ModelRun* run() const { return run_.get(); }
    // Changes exactly when the run on screen changes (the renderer re-uploads textures then).
    std::uint64_t generation() const { return generation_; }
    // A run on the worker, or the prediction panel's KV cache catching up (the window keeps drawing frames).
    bool computing() const { return runner_.busy() || runner_.analysing() || prediction_.catchingUp(); }
    const std::string& error() const { return error_; }
    // What the inspector explained this frame (the cell hovered in the previous frame, or the pinned one).
    const std::optional<Explanation>& explanation() const { return explanation_; }
    // The heatmaps drawn this frame, with their cell rectangles.
    const std::vector<DrawnHeatmap>& drawnHeatmaps() const { return drawn_; }
    // The model view's caption under each head this frame (a name, a role and score, or empty), layer by layer.
    const std::vector<std::string>& headCaptions() const { return headCaptions_; }
    // Stage 0's token boxes drawn this frame.
    const std::vector<DrawnToken>& drawnTokens() const { return drawnTokens_; }
    // What the open question view (AppState::lesson) showed this frame: its sentences and figure captions.
    const LessonReport& lessonReport() const { return lessons_.report(); }
    // The stage text's panel last frame: x = the height stageTextHeight() estimated, y = the height its contents
    // took once laid out (the two agree, or the panel would scroll or leave a gap).
    ImVec2 stageTextFit() const { return stageTextFit_; }
    // Blocks until any background computation (runs, the layers and roles views' analyses) has finished and its result
    // is on screen (tests), and the prediction
    // panel's KV cache holds the sentence it last drew (screenshots).
    void waitForRun();
    // What the ask view (an open question, AppState::ask) drew this frame.
    const AskReport& askReport() const { return ask_.report(); }
    // The prediction panel (tests read what it showed and its KV cache).
    const PredictionPanel& predictionPanel() const { return prediction_; }
    // File ▸ Get a model… (tests drive its fetch).
    GetModelDialog& getModelDialog() { return getModel_; }
    // The layers and roles views' analyses as they arrive from the worker (tests).
    const AnalysisDesk& analyses() const { return analyses_; }
    int analysesComputed() const { return runner_.analysesComputed(); }
    // Heads switched off: the run with every head on, the head menu (tests).
    const HeadsOffView& headsOff() const { return headsOff_; }

private:
    void requestRun();
    void takeFinishedRun();
    void clampViewToRun();
    void keepViewInRun();
    void drawWindow(render::HeatmapRenderer& renderer, const Fonts& fonts, float scale);
    void drawRunPanels(ViewContext& ctx, float scale, ImVec2 centreSize, float sideWidth);
    void yieldToInspector(const ViewContext& ctx, float used, float height, float& linesHeight, float& predictionHeight) const;

    AppState state_;
    SessionController session_;  // undo, files, cell editing: needs state_ first
    core::ModelSpec requested_;  // the inputs of the newest computation asked for
    bool requestedEveryLayer_ = false;  // whether it keeps every layer's attention weights (the model view was open)
    ModelRunner runner_;
    AnalysisDesk analyses_{runner_};  // the layers and roles views' numbers for run_, from runner_'s worker
    std::shared_ptr<const core::ModelRun> run_;
    std::uint64_t generation_ = 0;
    // A head and sentence asked for that the run on screen does not have (closing a question view restores the
    // user's head while the question's smaller run is still shown): what was shown instead, and what comes back
    // when a run that has them lands.
    struct AwaitedView {
        int head = 0, batch = 0;
        int shownHead = 0, shownBatch = 0;
    };
    std::optional<AwaitedView> awaited_;
    std::string error_;
    SummaryCache summaries_;
    std::optional<Explanation> explanation_;
    std::vector<DrawnHeatmap> drawn_;
    std::vector<DrawnToken> drawnTokens_;
    std::vector<std::string> headCaptions_;
    LessonPanel lessons_;  // the Questions bar and the open lesson, with what it derived from run_
    TokenLinesPanel tokenLines_;  // with the lines it found in run_
    PredictionPanel prediction_;  // what the model predicts, with its KV cache
    AskView ask_;                 // an open question, drawn from run_
    GetModelDialog getModel_;     // File ▸ Get a model…: its fetch thread and progress
    HeadsOffView headsOff_;       // the run with every head on, the head menu and the marks
    float inspectorFit_ = 0.0f;  // the Inspector's content height last frame (yieldToInspector)
    ImVec2 stageTextFit_{0.0f, 0.0f};  // the stage text's panel height as estimated, and as ImGui laid it out
};

}  // namespace attnviz::ui
