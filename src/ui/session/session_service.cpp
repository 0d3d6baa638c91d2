// session_service.cpp — the session's requests, files and model opening, without ImGui. See session_service.h.
//
// [SECTION] frame: requests, the chooser, models, end of frame
// [SECTION] files: open, save, load weights, restore
// [SECTION] models: open a folder, the bundled model
#include "ui/session/session_service.h"

#include "core/display_text.h"
#include "io/memory_budget.h"
#include "ui/session/cell_edits.h"
#include "ui/session/session_actions.h"

#include <utility>

namespace attnviz::ui {
namespace fs = std::filesystem;

namespace {

fs::path folderOf(const fs::path& file) {
    std::error_code error;
    return file.empty() ? fs::current_path(error) : file.parent_path();
}

// Where the path question starts: the current file, or a folder to go on typing in.
fs::path suggestion(const AppState& state, bool weights, bool saving) {
    if (weights) {
        const fs::path& any = state.session.weightFiles.hasWeights() ? state.session.weightFiles.wq : state.session.weightFiles.embeddings;
        return any.empty() ? folderOf(state.session.file) / "" : any.parent_path() / "";
    }
    if (saving) return state.session.file.empty() ? folderOf(state.session.file) / "lesson.json" : state.session.file;
    return folderOf(state.session.file) / "";
}

}  // namespace

// [SECTION] frame: requests, the chooser, models, end of frame

SessionService::SessionService(AppState& state) : history_(state) {
    if (state.session.file.empty()) state.session.saved = sessionOf(state);
    publish(state);
}

void SessionService::perform(AppState& state) {
    const SessionRequest request = std::exchange(state.session.request, {});
    if (request.action == SessionAction::None || asking()) return;  // a path is being asked for already
    switch (request.action) {
        case SessionAction::Undo:
            if (history_.canUndo()) state.status = "Undone: " + history_.undoLabel();
            history_.undo(state);
            break;
        case SessionAction::Redo:
            if (history_.canRedo()) state.status = "Redone: " + history_.redoLabel();
            history_.redo(state);
            break;
        case SessionAction::Open:
            if (state.session.modified) confirmOpen_ = fs::path();
            else askForPath(PathPurpose::OpenSession, state);
            break;
        case SessionAction::OpenRecent:
            if (state.session.modified) confirmOpen_ = request.path;
            else open(request.path, state);
            break;
        case SessionAction::Save:
            if (state.session.file.empty()) askForPath(PathPurpose::SaveSession, state);
            else save(state.session.file, state);
            break;
        case SessionAction::SaveAs: askForPath(PathPurpose::SaveSession, state); break;
        case SessionAction::LoadWeights: askForPath(PathPurpose::LoadWeights, state); break;
        case SessionAction::OpenModel: askForPath(PathPurpose::OpenModel, state); break;
        case SessionAction::OpenRecentModel: openModel(request.path, state, request.layer); break;
        case SessionAction::UseBundledModel: useBundledModel(state); break;
        case SessionAction::UseRandomModel:
            useRandomWeights(state);
            state.status = "Untrained (random) weights: attention is nearly uniform until a model is trained.";
            break;
        case SessionAction::Recover:
            if (state.session.restoreOffer) restore(state, "Recovered the unsaved changes of an earlier run.");
            break;
        case SessionAction::GetModel:  // App's GetModelDialog answers it
        case SessionAction::None: break;
    }
}

void SessionService::askForPath(PathPurpose purpose, AppState& state) {
    const bool weights = purpose == PathPurpose::LoadWeights || purpose == PathPurpose::OpenModel, saving = purpose == PathPurpose::SaveSession;
    const fs::path suggested = suggestion(state, weights, saving);
    if (pickFile_) {
        const PickKind kind = weights ? PickKind::Folder : saving ? PickKind::SaveFile : PickKind::OpenFile;
        const char* title = purpose == PathPurpose::OpenModel ? "Open a GPT-2 or BERT model folder"
                          : weights ? "Load weights from a folder" : saving ? "Save the session as" : "Open a session";
        auto answer = pickFile_({kind, title, suggested});
        if (answer.valid()) {
            pending_ = PendingPick{purpose, std::move(answer)};
            return;
        }
    }
    pathQuestion_ = PathQuestion{purpose, suggested};
}

void SessionService::answerPath(const fs::path& path, AppState& state) {
    if (!pathQuestion_) return;
    const PathPurpose purpose = pathQuestion_->purpose;
    pathQuestion_.reset();
    finish(purpose, path, state);
}

void SessionService::finish(PathPurpose purpose, const fs::path& path, AppState& state) {
    switch (purpose) {
        case PathPurpose::OpenSession: open(path, state); break;
        case PathPurpose::SaveSession: save(path, state); break;
        case PathPurpose::LoadWeights: loadWeights(path, state); break;
        case PathPurpose::OpenModel: openModel(path, state, -1); break;
    }
}

void SessionService::pollPicker(AppState& state) {
    if (!pending_ || pending_->answer.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    const PathPurpose purpose = pending_->purpose;
    const std::optional<fs::path> chosen = pending_->answer.get();
    pending_.reset();
    if (chosen) finish(purpose, *chosen, state);
}

void SessionService::receiveModel(AppState& state) {
    std::optional<io::ModelLibrary::Opened> opened = models_.take();
    if (!opened) return;
    if (std::optional<WaitingSession> waiting = std::exchange(waiting_, std::nullopt)) {
        if (!opened->model) {
            fail(waiting->restoring ? "Could not restore the session" : "Could not open the session",
                 io::unopenedModelProblem(waiting->readFrom, opened->error));
            return;
        }
        showSession(std::move(*waiting), std::move(opened->model), state);
        return;
    }
    const int layer = std::exchange(openingLayer_, -1);
    if (!opened->model) {
        fail("Could not open the model", opened->error);
        return;
    }
    useTrainedModel(std::move(opened->model), state);
    core::TrainedLayer& trained = *state.spec.trained();
    if (layer >= 0 && layer < trained.model->config().layers) trained.layer = layer;
    addRecent(state.session.recentModels, opened->folder);
}

void SessionService::endFrame(AppState& state, float deltaSeconds) {
    seconds_ += deltaSeconds;
    if (closeAfterSave_ && state.session.request.action == SessionAction::None && !asking()) {
        closeAfterSave_ = false;  // saved, cancelled or failed: the question was answered either way
        if (sameDocument(sessionOf(state), state.session.saved)) state.quitRequested = true;
    }
    if (const int dropped = dropUnfitEdits(state.spec)) {
        state.status = "Dropped " + std::to_string(dropped) + (dropped == 1 ? " cell edit" : " cell edits") +
                       " that no longer fit the sizes or sentences (Ctrl+Z brings them back).";
    }
    history_.observe(state, seconds_);
    publish(state);
}

void SessionService::publish(AppState& state) {
    state.session.openingModel = models_.opening().value_or(fs::path());
    state.session.modified = !sameDocument(sessionOf(state), state.session.saved);
    state.session.undoLabel = history_.undoLabel();
    state.session.redoLabel = history_.redoLabel();
}

void SessionService::fail(std::string title, std::string message) { problem_ = SessionProblem{std::move(title), std::move(message)}; }

void SessionService::saveThenClose(AppState& state) {
    state.session.request = {SessionAction::Save};
    closeAfterSave_ = true;
}

// [SECTION] files: open, save, load weights, restore

void SessionService::openAnyway(AppState& state) {
    const std::optional<fs::path> file = std::exchange(confirmOpen_, std::nullopt);
    if (file && file->empty()) askForPath(PathPurpose::OpenSession, state);
    else if (file) open(*file, state);
}

void SessionService::open(const fs::path& path, AppState& state) {
    std::error_code error;
    const fs::path file = fs::absolute(path, error);
    try {
        openSession({io::loadSession(file), file, file}, state);
    } catch (const io::FileError& e) {
        fail("Could not open the session", e.what());
    } catch (const std::bad_alloc&) {
        fail("Could not open the session", io::outOfMemoryMessage());
    }
}

void SessionService::restore(AppState& state, std::string status) {
    const RestoreOffer offer = std::move(*state.session.restoreOffer);
    state.session.restoreOffer.reset();
    WaitingSession waiting{{}, offer.source, offer.autosave, true, state.session.saved, std::move(status)};  // untitled: what the app started with
    if (waiting.status.empty()) waiting.status = "Restored the unsaved session from " + offer.when + ".";
    try {
        if (!offer.source.empty()) waiting.baseline = io::loadSession(offer.source);
    } catch (const io::FileError&) {
        // The file it was editing is gone or damaged: every restored input counts as unsaved.
    }
    try {
        waiting.session = io::loadSession(offer.autosave);
        openSession(std::move(waiting), state);
    } catch (const io::FileError& e) {
        fail("Could not restore the session", e.what());
    }
}

void SessionService::openSession(WaitingSession waiting, AppState& state) {
    if (waiting.session.model.source == io::ModelChoice::Source::Folder) {
        models_.open(waiting.session.model.folder);
        openingLayer_ = -1;
        waiting_ = std::move(waiting);
        return;
    }
    std::shared_ptr<const core::TrainedModel> model = io::openSessionModel(waiting.session.model, waiting.readFrom);
    showSession(std::move(waiting), std::move(model), state);
}

void SessionService::showSession(WaitingSession waiting, std::shared_ptr<const core::TrainedModel> model, AppState& state) {
    const char* title = waiting.restoring ? "Could not restore the session" : "Could not open the session";
    try {
        applyOpenedSession(io::openedSession(std::move(waiting.session), std::move(model), waiting.readFrom), waiting.file, state);
    } catch (const io::FileError& e) {
        fail(title, e.what());
        return;
    } catch (const std::bad_alloc&) {
        fail(title, io::outOfMemoryMessage());
        return;
    }
    if (waiting.restoring) state.session.saved = std::move(waiting.baseline);
    history_.reset(state);
    if (waiting.restoring) {
        state.status = std::move(waiting.status);
        return;
    }
    addRecent(state.session.recent, waiting.file);
    const std::string weights = weightsFolderName(state.session.weightFiles);
    state.status = "Opened " + waiting.file.filename().string() + (weights.empty() ? "" : " with the weights in " + weights) + ".";
}

void SessionService::save(const fs::path& path, AppState& state) {
    std::error_code error;
    fs::path file = fs::absolute(path, error);
    if (!file.has_extension()) file += ".json";
    const io::Session session = sessionOf(state);
    try {
        io::saveSession(file, session);
    } catch (const io::FileError& e) {
        fail("Could not save the session", e.what());
        return;
    }
    state.session.file = file;
    state.session.saved = session;
    addRecent(state.session.recent, file);
    state.status = "Saved " + file.filename().string() + ".";
}

void SessionService::loadWeights(const fs::path& path, AppState& state) {
    try {
        applyLoadedWeights(loadWeightsFolder(state.spec, path), state);
    } catch (const io::FileError& e) {
        fail("Could not load the weights", e.what());
    }
}

// [SECTION] models: open a folder, the bundled model

void SessionService::openModel(const fs::path& folder, AppState& state, int layer) {
    std::error_code error;
    waiting_.reset();
    const fs::path absolute = fs::absolute(folder, error).lexically_normal();
    models_.open(absolute);
    openingLayer_ = layer;
    // Not models_.opening(): the open may already have finished on its thread (a missing folder fails at once), and
    // then there is none. publish() follows the library from the next frame on.
    state.session.openingModel = absolute;
}

void SessionService::cancelOpening(AppState& state) {
    const std::optional<fs::path> folder = models_.opening();
    models_.cancel();
    waiting_.reset();
    openingLayer_ = -1;
    if (folder) state.status = "Stopped opening " + core::echoed(folder->filename().string()) + "; the model on screen stays.";
}

void SessionService::useBundledModel(AppState& state) {
    try {
        if (auto model = io::loadBundledModel()) {
            useTrainedModel(std::move(model), state);
            return;
        }
        fail("No bundled model", "This installation of attnviz has no bundled model (assets/models/ was not found).");
    } catch (const io::FileError& e) {
        fail("Could not open the bundled model", e.what());
    } catch (const std::bad_alloc&) {
        fail("Could not open the bundled model", io::outOfMemoryMessage());
    }
}

}  // namespace attnviz::ui
