// session_controller.h — carries out what the File and Edit menus, Ctrl+Z/Y/S/O and cell clicks ask for:
// undo and redo (it owns the History), Open / Save / Save As / Open Recent, Load weights, Open model (a trained
// checkpoint folder, the bundled model, or back to random weights), the restore-after-crash
// question, the unsaved-changes question when the window closes, and the cell editor. App calls handleKeys() before the panels and update() after them, once a frame.
//
// Paths come from the native chooser hook (AppState::session.pickFile, zenity in the app) while it answers on
// its own thread, else from a built-in path field (always there; tests use it). Every failure ends in a modal
// with the file's error message and leaves the session exactly as it was. Model folders open on a worker thread
// (io::ModelLibrary) behind a modal with Cancel, so a large or hostile folder never freezes or ends the app.
// What it deliberately does not do: autosave (src/app does, with its clock and folder), persist the recent
// list (gui_settings), or draw the menus (panel_session.cpp).
#pragma once

#include "ui/session/cell_editor.h"
#include "io/model_library.h"
#include "ui/session/history.h"

#include <filesystem>
#include <future>
#include <optional>
#include <string>

namespace attnviz::ui {

class SessionController {
public:
    // `state`'s inputs are the first undo step; an untitled state's session is its own saved baseline.
    explicit SessionController(AppState& state);

    // Ctrl+Z, Ctrl+Y, Ctrl+Shift+Z, Ctrl+S, Ctrl+Shift+S, Ctrl+O (undo and redo not while a text field types).
    void handleKeys(AppState& state);
    // Requests, dialogs, dropped edits, the undo step for whatever the panels changed, and the published flags.
    // `deltaSeconds` advances the clock that ends a typed sentence's undo step.
    void update(AppState& state, float deltaSeconds);

private:
    enum class Purpose { OpenSession, SaveSession, LoadWeights, OpenModel };
    struct PathField {
        Purpose purpose = Purpose::OpenSession;
        std::string text;
        bool focus = false;
    };
    struct PendingPick {
        Purpose purpose = Purpose::OpenSession;
        std::future<std::optional<std::filesystem::path>> answer;
    };

    void perform(AppState& state);
    void askForPath(Purpose purpose, AppState& state);
    void finish(Purpose purpose, const std::filesystem::path& path, AppState& state);
    void open(const std::filesystem::path& path, AppState& state);
    void save(const std::filesystem::path& path, AppState& state);
    void loadWeights(const std::filesystem::path& path, AppState& state);
    void openModel(const std::filesystem::path& folder, AppState& state);  // in the background (models_)
    void receiveModel(AppState& state);                                    // the finished open, applied or shown
    void openingDialog(AppState& state);                                   // "Opening … [Cancel]"
    void useBundledModel(AppState& state);
    bool restore(AppState& state);  // false (and an error shown) when the autosave could not be read
    void fail(std::string title, std::string message);

    void pollPicker(AppState& state);
    void pathDialog(AppState& state);
    void discardDialog(AppState& state);
    void errorDialog();
    void restoreDialog(AppState& state);
    void closeDialog(AppState& state);
    void closeOnceSaved(AppState& state);
    void publish(AppState& state);

    io::ModelLibrary models_;
    History history_;
    CellEditor cellEditor_;
    double seconds_ = 0.0;
    std::optional<PendingPick> pending_;
    std::optional<PathField> pathField_;
    std::optional<std::filesystem::path> confirmOpen_;  // the file to open once unsaved changes may go (empty: ask)
    std::string errorTitle_, error_;
    bool closeAfterSave_ = false;  // "Save" in the close question: close once the session is saved
};

}  // namespace attnviz::ui
