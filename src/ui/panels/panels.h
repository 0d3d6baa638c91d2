// panels.h — the panels of the window, one file each (panel_*.cpp), Tracy/ImHex style: each draws into the
// current ImGui window or child, reads the state and run it is given, and changes AppState. None of them
// computes a forward pass or touches GL; App arranges them and recomputes when the inputs changed.
#pragma once

#include "ui/views/view_context.h"

#include <string>
#include <utility>
#include <vector>

namespace attnviz::ui {

// What the controls show about the computation behind them.
struct RunStatus {
    const core::ModelRun* run = nullptr;  // the run on screen (null before the first one)
    bool computing = false;
    std::string error;                    // why the latest inputs were rejected (the old run stays on screen)
};

// Left: sentence, sizes, options, colormaps. Edits AppState::spec; App notices and recomputes.
void drawControls(AppState& state, const RunStatus& status, const Fonts& fonts, float scale);
// Top: every stage as a clickable step, Prev/Next, autoplay and its speed.
void drawTimeline(AppState& state, const Fonts& fonts, float scale);
// The window's menu bar: export, view toggles, help.
void drawMenuBar(AppState& state, const RunStatus& status);
// What the export dialog's Export asks AppState::exportPng for, from the dialog's choices in `state`: the prediction
// (export --kind next at the temperature on screen) only while the next-token view is open.
ExportRequest exportRequestOf(const AppState& state, const core::ModelRun& run);
// Centre: the current stage's matrices.
void drawStageView(ViewContext& ctx);
// A trained model's layers × heads of A in [min, max] (panel_model_view.cpp); the stage view shows it instead of a
// stage while AppState::modelView is on.
void drawModelView(ViewContext& ctx, ImVec2 min, ImVec2 max);
// Under the matrices: the stage's formula, its code lines (PyTorch with shapes, NumPy), explanation and teaching
// note, made once a frame (stageText), measured to size the panel before the maps above are laid out
// (stageTextHeight: a child window's height, padding included, at `panelWidth`), then drawn.
struct StageText {
    std::string formula;
    std::vector<std::pair<const char*, std::string>> code;  // ("PyTorch", line), ("NumPy", line)
    std::string explanation;
    std::string note;
    // What this sentence does with a trained model: the words outside the vocabulary (tokens stage), what the focused
    // named head does on it beside what heads.json says it was trained or found to do (per-head stages); "" if none.
    std::string sentenceNote;
};
StageText stageText(const ViewContext& ctx);
float stageTextHeight(const StageText& text, const ViewContext& ctx, float panelWidth);
void drawStageText(const StageText& text, ViewContext& ctx);
// Right: a thumbnail per head of the stage's per-head matrix; click to focus.
void drawHeadsGrid(ViewContext& ctx, float height);
// Right: BertViz-like lines from query tokens to key tokens: TokenLinesPanel (panel_token_lines.h).
// Right: how the hovered (or pinned) cell was computed.
void drawInspector(ViewContext& ctx);

// Keys: ←/→ stages, Home/End, 1–9 heads, Space autoplay, A all heads, Esc unpin, Ctrl+L sentence.
// Ignored while a text field has the keyboard.
void applyShortcuts(AppState& state, int heads);
// The zoom step above (direction 1) or below (−1) `zoom` in kZoomSteps, stopping at the ends.
float steppedZoom(float zoom, int direction);

// The keys (and View menu items) that change only the look: F5 presents or stops, Esc (presenting, nothing
// pinned) leaves, Ctrl+= / Ctrl+− step the zoom, Ctrl+0 restores it. They set inputs of the look, never the look
// itself (app/gui_style.h), so any sequence of them ends in the look a fresh start in that state has.
enum class ViewKey { Present, Leave, ZoomIn, ZoomOut, ActualSize };
void applyViewKey(AppState& state, ViewKey key);
// View ▸ Reset to defaults, for a borrowed machine whose settings remember someone else's class: the default
// sentence, zoom 100 %, not presenting, both side panels shown (and folded again when the window is narrow), every
// head's view and the numbers in cells as a fresh start has them. The model stays.
void resetToDefaults(AppState& state);
// Moves to the next stage every secondsPerStage while autoplay is on (stops at the last stage).
void advanceAutoplay(AppState& state, float deltaSeconds);

}  // namespace attnviz::ui
