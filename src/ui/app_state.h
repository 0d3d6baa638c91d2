// app_state.h — what the user chose, as one plain struct (Tracy's ViewData): the inputs of the forward pass,
// what is on screen, what the mouse points at. Panels read it and change it; App recomputes the forward pass
// when (and only when) a panel reports that it changed `spec`.
//
// What it deliberately does not hold: computed data (the ModelRun lives in App), GL or ImGui objects, the
// window's settings (src/app persists the parts worth keeping between runs), or the undo history (App's
// SessionController; `session` holds only the lesson file's plain data).
#pragma once

#include "colormap/colormap.h"
#include "core/model.h"
#include "core/stages.h"
#include "scene/scene.h"
#include "ui/ask/ask_state.h"
#include "ui/lessons/lesson_state.h"
#include "ui/session/session_state.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace attnviz::ui {

// Matrices a ModelRun has besides its Trace (stage 1 draws E[ids] + PE = X), and matrices a question view computed.
enum class MatrixSource { Trace, TokenEmbeddings, Positions, Computed };

// One matrix on screen: a Trace tensor's (batch, head) slice, or one of the extras. The batch element is
// AppState::batch for every matrix on screen, so it is not repeated here.
struct MatrixRef {
    MatrixSource source = MatrixSource::Trace;
    core::TensorId tensor = core::TensorId::X;  // when source == Trace
    int head = 0;                               // for b × h × … tensors; 0 otherwise
    std::shared_ptr<const scene::Computed> computed;  // when source == Computed: its values, name and axes
    friend bool operator==(const MatrixRef&, const MatrixRef&) = default;
};

// One cell in the matrix's own (row, col), not in screen order: Kᵀ drawn transposed still reports K's cell.
struct CellRef {
    MatrixRef matrix;
    int row = 0;
    int col = 0;
    friend bool operator==(const CellRef&, const CellRef&) = default;
};

// Which matrix a projection stage shows: X W^Q = Q, X W^K = K or X W^V = V.
enum class Projection { All, Query, Key, Value };  // stage 2: Q, K and V together, or one of them larger

// What the export dialog asks for; the app wires AppState::exportPng to the figure export (src/export).
// The export dialog's file format: the same picture as PNG, or with text as text (SVG, PDF).
enum class ExportFormat { Png, Svg, Pdf };

struct ExportRequest {
    bool allStages = false;      // every stage, else only `stage`
    core::StageId stage = core::StageId::Tokens;
    int head = 0;
    int batch = 0;
    std::string directory;       // where the files go
    colormap::Colormap sequential = colormap::Colormap::Viridis;
    colormap::Colormap diverging = colormap::Colormap::Coolwarm;
    colormap::ProbabilityScale probabilityScale = colormap::ProbabilityScale::MapMax;  // as on screen
    bool slides = false;         // 16:9 slides (1920 × 1080) instead of figures sized to their content
    ExportFormat format = ExportFormat::Png;
    bool ropeStep = false;       // stage 3's RoPE step, as on screen (one stage only)
    bool prediction = false;     // the model's prediction (export --kind next, a 16:9 slide) instead of stages
    float temperature = 1.0f;    // the prediction's, as the next-token view shows it
};
// Returns one line for the status bar ("Wrote 11 figures to …" or what went wrong).
using ExportHook = std::function<std::string(const core::ModelRun&, const ExportRequest&)>;
// What the build's export cannot do, said in the export dialog (empty on the desktop; the web page sets both).
struct ExportLimits {
    std::string noPdf;        // one sentence: PDF cannot be written here (its radio button is disabled)
    std::string destination;  // one sentence in place of the folder field: where the figures go instead
};

// The prediction panel's choices (panel_prediction.h): the softmax temperature and the token Append adds.
struct PredictionChoice {
    float temperature = 1.0f;
    int chosenId = -1;  // the bar clicked; −1 = the most likely
};

// The zoom levels Ctrl+= and Ctrl+− step through.
inline constexpr float kZoomSteps[] = {0.75f, 0.85f, 1.0f, 1.15f, 1.3f, 1.5f, 1.75f, 2.0f, 2.5f};

struct AppState {
    // [Inputs] Changing these recomputes the Trace.
    core::ModelSpec spec;

    // [View] What is on screen.
    int batch = 0;                                  // which sentence of the batch
    core::StageId stage = core::StageId::Tokens;
    int head = 0;                                   // the focused head
    bool allHeads = false;                          // centre: every head's map instead of the focused one
    bool modelView = false;                         // centre: a trained model's every layer × head (BertViz)
    bool hideSpecialTokens = false;                 // model view: [CLS]/[SEP] (GPT-2: first token) left out
    Projection projection = Projection::All;        // stage 2: Q, K, V together or one of them
    bool ropeStep = false;                          // stage 3 of a model with rotary positions: the RoPE step (R)
    colormap::Colormap sequential = colormap::Colormap::Viridis;  // probabilities
    colormap::ProbabilityScale probabilityScale = colormap::ProbabilityScale::MapMax;  // their colors' range
    colormap::Colormap diverging = colormap::Colormap::Coolwarm;  // signed values, ±max|x|
    bool showValues = true;                         // numbers inside cells that are big enough
    bool showControls = true;                       // left panel
    bool showSidePanel = true;                      // right panel: heads, token lines, inspector
    LessonState lesson;                             // the open question view (lesson_state.h), if any
    PredictionChoice prediction;                    // right panel: what the model predicts
    AskState ask;                                   // Q: a question about the stage before it is shown (ask_state.h)

    // [Lecture hall]
    float zoom = 1.0f;         // Ctrl+= / Ctrl+− / Ctrl+0: multiplies type and spacing (kZoomSteps); remembered
    bool presenting = false;   // F5, View ▸ Present, --present: full screen, large type, side panels away
    bool blanked = false;      // B while presenting: a black screen, as slide software does; any key returns
    bool keepPanelsWhenNarrow = false;  // "Show them" after a narrow window folded the side panels away

    // [Playback]
    bool autoplay = false;
    float secondsPerStage = 4.0f;
    float autoplayElapsed = 0.0f;

    // [Pointer] Set by the matrix views each frame; read by the inspector and the highlights.
    std::optional<CellRef> hovered;
    std::optional<CellRef> pinned;                  // a clicked cell stays explained until Esc or another click

    // [Requests] One-frame flags a key or menu sets and a panel consumes.
    bool focusSentence = false;
    bool quitRequested = false;
    bool openExportDialog = false;

    // [Export] Hook and settings for the export dialog (PNG, SVG or PDF); the status line shows the hook's answer.
    ExportHook exportPng;
    ExportLimits exportLimits;
    std::string exportDirectory;
    bool exportAllStages = false;
    bool exportSlides = false;                      // the export dialog's "slides (16:9)"
    bool exportPrediction = false;                  // the export dialog's "the prediction" (the next-token view's Export…)
    ExportFormat exportFormat = ExportFormat::Png;  // the export dialog's format
    std::string status;

    // [Compare] (panels/panel_compare.h) The second sentence is an input: spec.compareWith. Beside it, what the view
    // keeps: the sentence while compare is off (turning it on again brings it back), and the aligned cell the mouse
    // is over in A, B or A − B this frame (row, column), which the three maps outline and the inspector explains.
    std::string compareDraft;
    std::optional<std::pair<int, int>> compareHovered;

    // [Session] The open lesson file, trained weights, undo labels and file requests (session_state.h).
    SessionState session;
};

// The factor the UI scale is multiplied by: the zoom, and presentation mode's own, which grows with the screen:
// 1.35 on 1080p and larger, 1.15 on a 1280 × 800 projector, none on 1024 × 768, where the base type is already
// large for the room and the maps need every pixel. A question view (several maps, charts and controls on one
// page) gets the boost only from 1080p. `screenHeight` in pixels at UI scale 1. A function of its inputs only:
// the look never depends on how the state was reached (app/gui_style.h).
inline float effectiveZoom(float zoom, bool presenting, bool questionView, float screenHeight) {
    if (!presenting) return zoom;
    if (questionView) return zoom * (screenHeight >= 1000.0f ? 1.15f : 1.0f);
    return zoom * (screenHeight >= 1000.0f ? 1.35f : screenHeight >= 790.0f ? 1.15f : 1.0f);
}

inline float effectiveZoom(const AppState& state, float screenHeight = 1080.0f) {
    return effectiveZoom(state.zoom, state.presenting, state.lesson.open != Lesson::None, screenHeight);
}

}  // namespace attnviz::ui
