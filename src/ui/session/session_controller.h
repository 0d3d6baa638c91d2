// session_controller.h — the session's keys and dialogs over SessionService (session_service.h): Ctrl+Z/Y/S/O, the
// built-in path field, the unsaved-changes question, the error modal, the restore-after-crash question, the close
// question, the "Opening a model… [Cancel]" modal, and the cell editor's popups. App calls handleKeys() before the
// panels and update() after them, once a frame.
//
// What it deliberately does not do: read or write files, open models or keep the undo history (the service
// does), autosave (src/app), or draw the menus (panel_session.cpp).
#pragma once

#include "ui/session/session_service.h"
#include "ui/widgets/cell_editor.h"

#include <optional>
#include <string>
#include <utility>

namespace attnviz::ui {

class SessionController {
public:
    // `state`'s inputs are the first undo step; an untitled state's session is its own saved baseline.
    explicit SessionController(AppState& state) : service_(state) {}
    void setFilePicker(FilePicker picker) { service_.setFilePicker(std::move(picker)); }

    // Ctrl+Z, Ctrl+Y, Ctrl+Shift+Z, Ctrl+S, Ctrl+Shift+S, Ctrl+O (undo and redo not while a text field types).
    void handleKeys(AppState& state);
    // Requests, dialogs, dropped edits, the undo step for whatever the panels changed, and the published flags.
    // `deltaSeconds` advances the clock that ends a typed sentence's undo step.
    void update(AppState& state, float deltaSeconds);

private:
    void pathDialog(AppState& state);
    void discardDialog(AppState& state);
    void errorDialog();
    void restoreDialog(AppState& state);
    void closeDialog(AppState& state);
    void openingDialog(AppState& state);

    SessionService service_;
    CellEditor cellEditor_;
    std::optional<std::string> pathText_;  // the path field's text while the service asks for a path
    bool focusPath_ = false;
};

}  // namespace attnviz::ui
