// session_service.h — what File and Edit ask of the session, without a window: undo and redo (it owns the
// History), Open / Save / Save As / Open Recent, Load weights, Open model (a trained checkpoint folder, the bundled
// model, or back to random weights), restoring an autosave, and closing once saved. SessionController (its
// dialogs and keys) calls it; tests can drive it with no ImGui context.
//
// Trained models open through io::ModelLibrary on a worker thread, so a large or hostile folder never freezes or
// ends the app: Open model, Open Recent Model, the remembered model, a model fetched from the Hub, and a session
// file (or an autosave) that names a model folder — that session goes on screen once its model has opened.
// Every failure becomes one problem (title and message) for the error dialog and leaves the session as it was.
// Paths come from the native chooser (setFilePicker) while it answers on its own thread, else
// the service asks a path question that the dialogs' path field answers.
// What it deliberately does not do: draw (session_controller.h), autosave (src/app, with its clock and folder),
// persist the recent list (gui_settings), or draw the menus (panel_session.cpp).
#pragma once

#include "io/model_library.h"
#include "ui/session/history.h"

#include <filesystem>
#include <future>
#include <optional>
#include <string>
#include <utility>

namespace attnviz::ui {

// What a path is asked for.
enum class PathPurpose { OpenSession, SaveSession, LoadWeights, OpenModel };

// A path the dialogs' path field should ask for, starting from `suggested`.
struct PathQuestion {
    PathPurpose purpose = PathPurpose::OpenSession;
    std::filesystem::path suggested;
};

// What went wrong, for the error dialog: "Could not open the session" and the file's one-sentence message.
struct SessionProblem {
    std::string title;
    std::string message;
};

class SessionService {
public:
    // `state`'s inputs are the first undo step; an untitled state's session is its own saved baseline.
    explicit SessionService(AppState& state);

    // The native file chooser paths are asked of; without one (tests, no zenity) the path question asks instead.
    void setFilePicker(FilePicker picker) { pickFile_ = std::move(picker); }
    // The request of this frame (state.session.request), unless a path is being asked for already.
    void perform(AppState& state);
    // The native chooser's answer, once it has come.
    void pollPicker(AppState& state);
    // A model open that has finished: put on screen (or the session waiting for it), or its problem.
    void receiveModel(AppState& state);
    // Closing once saved, dropping edits that no longer fit, the undo step for whatever changed, and the
    // published flags (modified, undo/redo labels, the model being opened). `deltaSeconds` advances the clock that
    // ends a typed sentence's undo step.
    void endFrame(AppState& state, float deltaSeconds);

    // [Path question] asked when there is no native chooser.
    const std::optional<PathQuestion>& pathQuestion() const { return pathQuestion_; }
    void answerPath(const std::filesystem::path& path, AppState& state);  // does what it was asked for
    void dismissPathQuestion() { pathQuestion_.reset(); }

    // [Unsaved changes] The session file to open once the user agrees its unsaved changes go (empty: ask for one).
    const std::optional<std::filesystem::path>& confirmOpen() const { return confirmOpen_; }
    void openAnyway(AppState& state);
    void keepChanges() { confirmOpen_.reset(); }

    // [Restore] The autosave of the offer on screen, as unsaved changes; `status` for the status line once done.
    void restore(AppState& state, std::string status);

    // [Closing] Save (asking for a path when untitled), then close once saved.
    void saveThenClose(AppState& state);

    // [Opening a model] The folder being opened, if any; cancelling keeps the model on screen.
    std::optional<std::filesystem::path> openingModel() const { return models_.opening(); }
    void cancelOpening(AppState& state);

    // [Problems] The newest failure, until the error dialog dismisses it.
    const std::optional<SessionProblem>& problem() const { return problem_; }
    void dismissProblem() { problem_.reset(); }

private:
    struct PendingPick {
        PathPurpose purpose = PathPurpose::OpenSession;
        std::future<std::optional<std::filesystem::path>> answer;
    };
    // A session (opened, or an autosave restored) waiting for the model folder it names.
    struct WaitingSession {
        io::Session session;
        std::filesystem::path file;      // the session file as the document (restore: the file it was editing)
        std::filesystem::path readFrom;  // the file it was read from (for messages)
        bool restoring = false;
        io::Session baseline;            // restoring: what counts as saved
        std::string status;
    };

    bool asking() const { return pending_.has_value() || pathQuestion_.has_value(); }
    void askForPath(PathPurpose purpose, AppState& state);
    void finish(PathPurpose purpose, const std::filesystem::path& path, AppState& state);
    void open(const std::filesystem::path& path, AppState& state);
    void save(const std::filesystem::path& path, AppState& state);
    void loadWeights(const std::filesystem::path& path, AppState& state);
    // Opens `folder` on the worker; once open, it shows `layer` (−1: the model's own).
    void openModel(const std::filesystem::path& folder, AppState& state, int layer);
    void useBundledModel(AppState& state);
    // Reads `waiting`'s model (or waits for its folder on the worker), then shows the session.
    void openSession(WaitingSession waiting, AppState& state);
    void showSession(WaitingSession waiting, std::shared_ptr<const core::TrainedModel> model, AppState& state);
    void fail(std::string title, std::string message);
    void publish(AppState& state);

    io::ModelLibrary models_;
    History history_;
    double seconds_ = 0.0;
    std::optional<PendingPick> pending_;
    std::optional<PathQuestion> pathQuestion_;
    std::optional<std::filesystem::path> confirmOpen_;
    std::optional<WaitingSession> waiting_;
    FilePicker pickFile_;
    int openingLayer_ = -1;  // the layer the model being opened shows once it is open (−1: its own)
    std::optional<SessionProblem> problem_;
    bool closeAfterSave_ = false;  // "Save" in the close question: close once the session is saved
};

}  // namespace attnviz::ui
