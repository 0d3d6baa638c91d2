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

}  // namespace attnviz::app
