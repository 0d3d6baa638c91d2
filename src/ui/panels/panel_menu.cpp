// panel_menu.cpp — the menu bar (File: sessions and weights, export, quit; Edit: undo, redo, reset edits — the
// session items live in panel_session.cpp; View: panels, heads, numbers; Help: keys) and the export dialog (PNG, SVG or PDF).
// Exporting itself is the app's hook (AppState::exportPng, wired to src/export); without one the items say so
// instead of failing.
#include "scene/scene.h"
#include "ui/panels/panels.h"
#include "ui/session/session_menu.h"
#include "ui/widgets/widget_label.h"

#include <imgui_stdlib.h>

#include <cmath>

namespace attnviz::ui {
namespace {

constexpr const char* kExportDialog = "Export figures";

void keysHelp() {
    ImGui::TextUnformatted("← / →     previous / next stage (PageUp / PageDown: a presenter's clicker)");
    ImGui::TextUnformatted("Home/End  first / last stage");
    ImGui::TextUnformatted("1 – 9     focus head 1 – 9 (head 0 – 8)");
    ImGui::TextUnformatted("A         all heads / focused head");
    ImGui::TextUnformatted("L         token → token lines of the focused head, large (presenting too); L again closes them");
    ImGui::TextUnformatted("P         what the model predicts next, large, with Append (presenting too); P again closes it");
    ImGui::TextUnformatted("Space     autoplay (presenting: next stage)");
    ImGui::TextUnformatted("F5        present: full screen, large type; B blanks the screen, Esc leaves");
    ImGui::TextUnformatted("Ctrl+= / Ctrl+− / Ctrl+0   zoom in / out / actual size (remembered)");
    ImGui::TextUnformatted("click     pin a cell in the inspector; Esc releases it");
    ImGui::TextUnformatted("Ctrl+L    edit the sentence");
    ImGui::TextUnformatted("Ctrl+Z    undo; Ctrl+Y or Ctrl+Shift+Z redo");
    ImGui::TextUnformatted("Ctrl+O    open a session; Ctrl+S save; Ctrl+Shift+S save as");
    ImGui::TextUnformatted("double-click  type a value into a cell of X, W^Q, W^K, W^V, W^O");
}

}  // namespace

ExportRequest exportRequestOf(const AppState& state, const core::ModelRun& run) {
    // The RoPE step when the screen shows it: its own figure, as export --stage rope draws it.
    const bool ropeStep = !state.exportAllStages && state.stage == core::StageId::SplitHeads && state.ropeStep && scene::hasRopeStep(run.trace);
    const bool prediction = state.lesson.open == Lesson::NextToken && state.exportPrediction;
    return {state.exportAllStages, state.stage, state.head, state.batch, state.exportDirectory, state.sequential, state.diverging,
            state.probabilityScale, state.exportSlides, state.exportFormat, ropeStep, prediction, state.prediction.temperature};
}

namespace {

void exportDialog(AppState& state, const RunStatus& status) {
    if (state.openExportDialog) {
        ImGui::OpenPopup(kExportDialog);
        state.openExportDialog = false;
    }
    if (!ImGui::BeginPopupModal(kExportDialog, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    // While the next-token view is open its prediction is a third choice (its Export… picks it).
    const bool predictionShown = state.lesson.open == Lesson::NextToken;
    const bool prediction = predictionShown && state.exportPrediction;
    if (predictionShown) {
        if (ImGui::RadioButton("the prediction (a 16:9 slide)", prediction)) state.exportPrediction = true;
        ImGui::SameLine();
    }
    if (ImGui::RadioButton("this stage", !prediction && !state.exportAllStages)) {
        state.exportAllStages = false;
        state.exportPrediction = false;
    }
    ImGui::SameLine();
    if (ImGui::RadioButton("every stage", !prediction && state.exportAllStages)) {
        state.exportAllStages = true;
        state.exportPrediction = false;
    }
    ImGui::BeginDisabled(prediction);  // the prediction is always one slide
    ImGui::Checkbox("as 16:9 slides (1920 × 1080, text at least 24 px)", &state.exportSlides);
    ImGui::EndDisabled();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("format");
    const ExportLimits& limits = state.exportLimits;
    if (!limits.noPdf.empty() && state.exportFormat == ExportFormat::Pdf) state.exportFormat = ExportFormat::Png;
    for (const auto& [format, label] : {std::pair{ExportFormat::Png, "PNG"}, std::pair{ExportFormat::Svg, "SVG (text as text)"},
                                        std::pair{ExportFormat::Pdf, "PDF (text as text)"}}) {
        ImGui::SameLine();
        ImGui::BeginDisabled(format == ExportFormat::Pdf && !limits.noPdf.empty());
        if (ImGui::RadioButton(widgetLabel(label).c_str(), state.exportFormat == format)) state.exportFormat = format;
        ImGui::EndDisabled();
    }
    if (!limits.noPdf.empty()) ImGui::TextUnformatted(limits.noPdf.c_str());
    if (limits.destination.empty()) {
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 28.0f);
        ImGui::InputText("folder", &state.exportDirectory);
    } else {
        ImGui::TextUnformatted(limits.destination.c_str());
    }
    if (ImGui::Button("Export") && status.run != nullptr) {
        state.status = state.exportPng(*status.run, exportRequestOf(state, *status.run));
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

void fileMenu(AppState& state, const RunStatus& status) {
    if (!ImGui::BeginMenu("File")) return;
    drawSessionFileItems(state);
    const bool canExport = static_cast<bool>(state.exportPng) && status.run != nullptr;
    if (ImGui::MenuItem("Export this stage…", nullptr, false, canExport)) {
        state.exportAllStages = false;
        state.exportPrediction = false;
        state.openExportDialog = true;
    }
    if (ImGui::MenuItem("Export every stage…", nullptr, false, canExport)) {
        state.exportAllStages = true;
        state.exportPrediction = false;
        state.openExportDialog = true;
    }
    if (!state.exportPng) ImGui::TextDisabled("(export is not part of this build)");
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) state.quitRequested = true;
    ImGui::EndMenu();
}

void viewMenu(AppState& state) {
    if (!ImGui::BeginMenu("View")) return;
    ImGui::MenuItem("Controls", nullptr, &state.showControls);
    ImGui::MenuItem("Heads, token lines and inspector", nullptr, &state.showSidePanel);
    ImGui::MenuItem("All heads", "A", &state.allHeads);
    ImGui::MenuItem("Numbers in cells", nullptr, &state.showValues);
    ImGui::Separator();
    if (ImGui::MenuItem("Present", "F5", state.presenting)) applyViewKey(state, ViewKey::Present);
    if (ImGui::MenuItem("Zoom in", "Ctrl+=")) applyViewKey(state, ViewKey::ZoomIn);
    if (ImGui::MenuItem("Zoom out", "Ctrl+−")) applyViewKey(state, ViewKey::ZoomOut);
    if (ImGui::MenuItem("Actual size", "Ctrl+0")) applyViewKey(state, ViewKey::ActualSize);
    // The zoom this frame is drawn at, and the body text size it gives (the menu's own font is the body font).
    ImGui::TextDisabled("zoom %d %% · text %.0f px", static_cast<int>(std::lround(state.zoom * 100.0f)), ImGui::GetFontSize());
    ImGui::Separator();
    if (ImGui::MenuItem("Reset to defaults")) resetToDefaults(state);  // sentence, zoom and panels: a borrowed machine
    ImGui::EndMenu();
}

}  // namespace

void drawMenuBar(AppState& state, const RunStatus& status) {
    if (ImGui::BeginMenuBar()) {
        fileMenu(state, status);
        drawEditMenu(state);
        viewMenu(state);
        if (ImGui::BeginMenu("Help")) {
            keysHelp();
            ImGui::EndMenu();
        }
        ImGui::EndMenuBar();
    }
    exportDialog(state, status);
}

}  // namespace attnviz::ui
