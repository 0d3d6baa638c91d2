// gui_settings.h — what the window remembers between sessions, in $XDG_STATE_HOME/attnviz/ (by default
// ~/.local/state/attnviz/): the window size, the view (stage, head, colormaps, panels, autoplay speed, export
// folder), the last inputs (sentence, sizes, seed, options) and File ▸ Open Recent's list. ImGui's own imgui.ini
// and the autosave (gui_autosave.h) go there too.
//
// Never writes to the working directory. Does not decide when the saved inputs win over the command line
// (gui_main does: only when the command line gave none). A missing or unreadable file means defaults.
#pragma once

#include "ui/app_state.h"

#include <filesystem>
#include <optional>

namespace attnviz::app {

struct WindowSize {
    int width = 0;
    int height = 0;
};

struct SavedSession {
    WindowSize window;
    ui::AppState state;  // view fields and spec inputs as last saved
    // The model last on screen: "random" (the seeded layer), "bundled", or a model folder's absolute path; "random"
    // for settings written before trained models; nullopt when no inputs were saved (the first start).
    std::optional<std::string> model;
    int layer = 0;
};

// $XDG_STATE_HOME/attnviz, else $HOME/.local/state/attnviz; created if missing. nullopt when neither
// variable is set or the folder cannot be created (then nothing is saved).
std::optional<std::filesystem::path> stateDirectory();

// Reads `file` over `defaults`; fields absent or invalid keep the default.
SavedSession loadSession(const std::filesystem::path& file, const SavedSession& defaults);
// Writes atomically (a temporary file renamed over the old one); false on failure.
bool saveSession(const std::filesystem::path& file, const SavedSession& session);

// Copies the saved inputs (sentence, sizes, seed, options) into `state`.
void restoreInputs(const SavedSession& saved, ui::AppState& state);
// The model folder remembered in settings opens after the window is up, in the background (SessionController, with
// Cancel), never before: a folder that hangs, crashes or is too large cannot stop the app from starting. `marker` is
// written before the open is requested and removed once it finished (followRememberedModel, each frame); found at
// the next start, it means that start died while opening, so the bundled model stays and the status line says why.
inline constexpr const char* kOpeningMarkerName = "opening-model";
void requestRememberedModel(const SavedSession& saved, const std::filesystem::path& marker, ui::AppState& state);
void followRememberedModel(const std::filesystem::path& marker, const ui::AppState& state);

// Copies the saved view (stage, head, colormaps, panels, autoplay speed, export folder) into `state`.
void restoreView(const SavedSession& saved, ui::AppState& state);

// A start that dies before it has drawn its inputs must not restore them unasked at the next start (issue 31: a
// remembered sentence aborted every start, and the crash's autosave offered Restore, which aborted again). The
// marker file is written before the first frame and removed once the inputs are on screen (their run, or its error,
// drawn for a few frames; the remembered model's open finished) or at a normal exit. A start that finds it restores no saved inputs
// or view, offers the autosave only in File ▸ Recover, and says why on the status line. It cannot loop: a start
// that found the marker restores nothing by itself, so another crash needs the user's own click.
inline constexpr const char* kDrawingMarkerName = "drawing-inputs";
inline constexpr const char* kDiedBeforeDrawingNote =
    "attnviz ended before it had drawn the sentence of its last start, so it started with the default inputs this time "
    "(File ▸ Recover unsaved changes… has that session's autosave, if any).";
class DrawingMarker {
public:
    // Notes whether the last start left `file`, then writes it for this start (quietly nothing when it cannot).
    explicit DrawingMarker(std::filesystem::path file);
    bool lastStartDied() const { return lastStartDied_; }
    // After each frame: removes the marker on the third frame in a row with nothing computing (the run or its error
    // is on screen) and no remembered model opening.
    void afterFrame(const ui::AppState& state, bool computing);
    void remove();  // at a normal exit

private:
    std::filesystem::path file_;
    bool lastStartDied_ = false;
    bool armed_ = false;
    int settledFrames_ = 0;
};

}  // namespace attnviz::app
