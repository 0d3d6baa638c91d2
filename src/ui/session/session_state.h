// session_state.h — the lesson file as the GUI holds it (part of AppState): which file is open, what it held
// when last saved, where trained weights came from, the recent files, and the one-frame requests that menus,
// keys and double-clicks make of SessionController.
//
// Plain data. It does not read or write files (session_actions.h and SessionService do), keep the undo
// history (SessionService owns it), or spawn file choosers (src/app gives SessionService a FilePicker: App::setFilePicker).
#pragma once

#include "io/session.h"

#include <filesystem>
#include <functional>
#include <future>
#include <optional>
#include <string>
#include <vector>

namespace attnviz::ui {

// What a menu item or shortcut asks SessionService to do.
enum class SessionAction {
    None, Open, OpenRecent, Save, SaveAs, LoadWeights, Undo, Redo,
    OpenModel,         // File ▸ Open model…: ask for a HuggingFace folder
    OpenRecentModel,   // `path`: a model folder from recentModels (or a snapshot of the Hugging Face cache)
    GetModel,          // File ▸ Get a model…: App shows its GetModelDialog (panel_get_model.h)
    UseBundledModel,   // attnviz's own small trained model
    UseRandomModel,    // the seeded single layer with untrained (random) weights
    Recover,           // File ▸ Recover: restore the unsaved changes a previous run left (restoreOffer)
};

// One request with everything it needs, set in one assignment and taken whole (SessionService::perform, App for
// GetModel), so no part of it outlives the request: a layer asked for by a fetch that failed cannot reach the next
// model opened (issue 33: the path, repo and layer were mailboxes of their own).
struct SessionRequest {
    SessionAction action = SessionAction::None;
    std::filesystem::path path;  // OpenRecent: the session file; OpenRecentModel: the model folder
    std::string repo;            // GetModel: a repo id to fetch at once (--model REPO_ID, not cached)
    int layer = -1;              // OpenRecentModel, GetModel: the layer to show once the model is open (−1: its own)
};

// A cell someone double-clicked (the value field) or right-clicked (the cell menu).
struct CellEditRequest {
    core::CellEdit cell;    // matrix, batch, row, col, and the value on screen now
    float x = 0, y = 0;     // where the popup goes (screen pixels)
    bool menu = false;      // right-click: the cell's context menu
};

// A native file chooser (zenity), which src/app gives SessionService (App::setFilePicker). Kind says what is asked for;
// `suggested` fills the name or folder field.
enum class PickKind { OpenFile, SaveFile, Folder };
struct PickRequest {
    PickKind kind = PickKind::OpenFile;
    std::string title;
    std::filesystem::path suggested;
};
// The chosen path, or nullopt when the user cancelled. A hook that returns an invalid future means "no native
// chooser now": the app asks with its own path field.
using FilePicker = std::function<std::future<std::optional<std::filesystem::path>>(const PickRequest&)>;

// An autosave left behind by a session that did not end cleanly (gui_main finds it at start).
struct RestoreOffer {
    std::filesystem::path autosave;  // the io::Session file to restore
    std::filesystem::path source;    // the session file it was editing; empty: untitled
    std::string when;                // "Tue 14:32", for the question
    bool endedBySignal = false;      // the last run was ended by logout or shutdown, not a crash: restore, don't ask
    // The command line chose the inputs: they win, and the unsaved changes wait for File ▸ Recover (no question,
    // no automatic restore).
    bool onlyOnRequest = false;
};

struct SessionState {
    // [Document]
    std::filesystem::path file;                 // the open session file; empty: untitled
    io::Session saved;                          // the session as last saved or opened: "modified" compares to it
    io::WeightFiles weightFiles;                // the files behind the seeded layer's customWeights / embeddingTable
    std::vector<std::filesystem::path> recent;  // most recent first, at most kMaxRecentFiles
    std::vector<std::filesystem::path> recentModels;  // model folders opened, most recent first, at most kMaxRecentFiles

    // [Published] SessionController sets these every frame for the menus and the window title.
    bool modified = false;  // inputs, edits or weight files differ from `saved` (the view does not count)
    std::string undoLabel;  // "heads 8 → 4"; empty: nothing to undo
    std::string redoLabel;
    std::filesystem::path openingModel;  // the model folder being opened in the background; empty: none

    // [Requests] One frame each.
    SessionRequest request;
    std::optional<CellEditRequest> cellEdit;
    std::optional<RestoreOffer> restoreOffer;    // asked until answered
    bool closeRequested = false;  // the window was closed with unsaved changes: ask Save / Close / Cancel
    bool closeConfirmed = false;  // "Close without saving": the app may close with changes unsaved
};

inline constexpr std::size_t kMaxRecentFiles = 8;

}  // namespace attnviz::ui
