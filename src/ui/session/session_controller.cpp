// session_controller.cpp — undo/redo, file requests, the path field and the session's modals. See
// session_controller.h.
//
// [SECTION] frame: keys, update, requests
// [SECTION] files: open, save, load weights, restore
// [SECTION] dialogs: path field, unsaved changes, errors, restore after a crash, closing
#include "ui/session/session_controller.h"

#include "core/display_text.h"
#include "io/memory_budget.h"
#include "io/model_folder.h"
#include "ui/session/session_actions.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <cstdlib>
#include <utility>

namespace attnviz::ui {
namespace fs = std::filesystem;

namespace {

constexpr const char* kPathPopup = "###session path";
constexpr const char* kDiscardPopup = "###unsaved changes";
constexpr const char* kErrorPopup = "###session error";
constexpr const char* kRestorePopup = "###restore session";
constexpr const char* kClosePopup = "###close with changes";
const ImVec4 kErrorColor{0.75f, 0.1f, 0.1f, 1.0f};
const ImVec4 kHintColor{0.35f, 0.35f, 0.35f, 1.0f};

// "~/lessons/a.json" → "$HOME/lessons/a.json"; the path as typed otherwise.
fs::path typedPath(const std::string& text) {
    const char* home = std::getenv("HOME");
    if (home != nullptr && (text == "~" || text.starts_with("~/"))) return fs::path(home) / text.substr(std::min<std::size_t>(2, text.size()));
    return text;
}

fs::path folderOf(const fs::path& file) {
    std::error_code error;
    return file.empty() ? fs::current_path(error) : file.parent_path();
}

// The path field's start: the current file, or a folder to go on typing in.
fs::path suggestion(const AppState& state, bool weights, bool saving) {
    if (weights) {
        const fs::path& any = state.session.weightFiles.hasWeights() ? state.session.weightFiles.wq : state.session.weightFiles.embeddings;
        return any.empty() ? folderOf(state.session.file) / "" : any.parent_path() / "";
    }
    if (saving) return state.session.file.empty() ? folderOf(state.session.file) / "lesson.json" : state.session.file;
    return folderOf(state.session.file) / "";
}

void centreNextWindow() {
    const ImGuiViewport& viewport = *ImGui::GetMainViewport();
    ImGui::SetNextWindowPos({viewport.WorkPos.x + viewport.WorkSize.x / 2, viewport.WorkPos.y + viewport.WorkSize.y / 3}, ImGuiCond_Appearing, {0.5f, 0.5f});
}

void openOnce(const char* id) {
    if (!ImGui::IsPopupOpen(id)) ImGui::OpenPopup(id);
}

// Keys that answer a dialog, but not in the frame it appears (the Enter that closed the one before it).
bool answerKey(ImGuiKey key) { return !ImGui::IsWindowAppearing() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(key)); }

// What the path field says under the path as it is typed.
struct PathCheck {
    std::string text;
    bool problem = false;
    bool exists = false;  // saving replaces a file
};

PathCheck checkTypedPath(bool model, bool weights, bool saving, const fs::path& path) {
    std::error_code error;
    if (path.empty()) return {"Type a path.", true};
    if (model) {
        const FolderCheck check = checkModelFolder(path);
        return {check.text, check.problem};
    }
    if (weights) {
        try {
            const io::WeightFiles f = weightFilesIn(path);
            std::string found = f.hasWeights() ? "W^Q, W^K, W^V, W^O" : "";
            if (f.hasBiases()) found += ", biases";
            if (f.hasEmbeddings()) found += std::string(found.empty() ? "" : ", ") + "embeddings and vocabulary";
            return {"Found " + found + "."};
        } catch (const io::FileError& e) {
            return {e.what(), true};
        }
    }
    if (saving && fs::exists(path, error)) return {path.filename().string() + " exists: saving replaces it.", false, true};
    if (saving) return {"A new file."};
    if (!fs::is_regular_file(path, error)) return {"No file here yet.", true};
    return {"A session file."};
}

}  // namespace

// [SECTION] frame: keys, update, requests

SessionController::SessionController(AppState& state) : history_(state) {
    if (state.session.file.empty()) state.session.saved = sessionOf(state);
    publish(state);
}

void SessionController::handleKeys(AppState& state) {
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.KeyCtrl || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) return;
    SessionRequest& request = state.session.request;
    if (ImGui::IsKeyPressed('S', false)) request = io.KeyShift ? SessionRequest::SaveAs : SessionRequest::Save;
    if (ImGui::IsKeyPressed('O', false)) request = SessionRequest::Open;
    if (io.WantTextInput) return;  // the text field undoes its own typing
    if (ImGui::IsKeyPressed('Z')) request = io.KeyShift ? SessionRequest::Redo : SessionRequest::Undo;
    if (ImGui::IsKeyPressed('Y')) request = SessionRequest::Redo;
}

void SessionController::update(AppState& state, float deltaSeconds) {
    seconds_ += deltaSeconds;
    cellEditor_.draw(state);
    perform(state);
    pollPicker(state);
    pathDialog(state);
    discardDialog(state);
    restoreDialog(state);
    closeDialog(state);
    receiveModel(state);
    openingDialog(state);
    errorDialog();
    closeOnceSaved(state);
    if (const int dropped = dropUnfitEdits(state.spec)) {
        state.status = "Dropped " + std::to_string(dropped) + (dropped == 1 ? " cell edit" : " cell edits") +
                       " that no longer fit the sizes or sentences (Ctrl+Z brings them back).";
    }
    history_.observe(state, seconds_);
    publish(state);
}

void SessionController::perform(AppState& state) {
    const SessionRequest request = std::exchange(state.session.request, SessionRequest::None);
    if (request == SessionRequest::None || pending_ || pathField_) return;  // a path is being asked for already
    switch (request) {
        case SessionRequest::Undo:
            if (history_.canUndo()) state.status = "Undone: " + history_.undoLabel();
            history_.undo(state);
            break;
        case SessionRequest::Redo:
            if (history_.canRedo()) state.status = "Redone: " + history_.redoLabel();
            history_.redo(state);
            break;
        case SessionRequest::Open:
            if (state.session.modified) confirmOpen_ = fs::path();
            else askForPath(Purpose::OpenSession, state);
            break;
        case SessionRequest::OpenRecent:
            if (state.session.modified) confirmOpen_ = state.session.requestPath;
            else open(state.session.requestPath, state);
            break;
        case SessionRequest::Save:
            if (state.session.file.empty()) askForPath(Purpose::SaveSession, state);
            else save(state.session.file, state);
            break;
        case SessionRequest::SaveAs: askForPath(Purpose::SaveSession, state); break;
        case SessionRequest::LoadWeights: askForPath(Purpose::LoadWeights, state); break;
        case SessionRequest::OpenModel: askForPath(Purpose::OpenModel, state); break;
        case SessionRequest::OpenRecentModel: openModel(state.session.requestPath, state); break;  // requestLayer kept for it
        case SessionRequest::UseBundledModel: useBundledModel(state); break;
        case SessionRequest::UseRandomModel:
            useRandomWeights(state);
            state.status = "Untrained (random) weights: attention is nearly uniform until a model is trained.";
            break;
        case SessionRequest::Recover:
            if (state.session.restoreOffer && restore(state)) state.status = "Recovered the unsaved changes of an earlier run.";
            break;
        case SessionRequest::GetModel:  // App's GetModelDialog answers it
        case SessionRequest::None: break;
    }
}

void SessionController::askForPath(Purpose purpose, AppState& state) {
    const bool weights = purpose == Purpose::LoadWeights || purpose == Purpose::OpenModel, saving = purpose == Purpose::SaveSession;
    const fs::path suggested = suggestion(state, weights, saving);
    if (state.session.pickFile) {
        const PickKind kind = weights ? PickKind::Folder : saving ? PickKind::SaveFile : PickKind::OpenFile;
        const char* title = purpose == Purpose::OpenModel ? "Open a GPT-2 or BERT model folder"
                          : weights ? "Load weights from a folder" : saving ? "Save the session as" : "Open a session";
        auto answer = state.session.pickFile({kind, title, suggested});
        if (answer.valid()) {
            pending_ = PendingPick{purpose, std::move(answer)};
            return;
        }
    }
    pathField_ = PathField{purpose, suggested.string(), true};
}

void SessionController::finish(Purpose purpose, const fs::path& path, AppState& state) {
    switch (purpose) {
        case Purpose::OpenSession: open(path, state); break;
        case Purpose::SaveSession: save(path, state); break;
        case Purpose::LoadWeights: loadWeights(path, state); break;
        case Purpose::OpenModel: openModel(path, state); break;
    }
}

// [SECTION] files: open, save, load weights, restore

void SessionController::open(const fs::path& path, AppState& state) {
    std::error_code error;
    const fs::path file = fs::absolute(path, error);
    try {
        applyOpenedSession(io::openSession(file), file, state);
    } catch (const io::FileError& e) {
        fail("Could not open the session", e.what());
        return;
    } catch (const std::bad_alloc&) {
        fail("Could not open the session", io::outOfMemoryMessage());
        return;
    }
    history_.reset(state);
    addRecent(state.session.recent, file);
    const std::string weights = weightsFolderName(state.session.weightFiles);
    state.status = "Opened " + file.filename().string() + (weights.empty() ? "" : " with the weights in " + weights) + ".";
}

void SessionController::save(const fs::path& path, AppState& state) {
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

void SessionController::loadWeights(const fs::path& path, AppState& state) {
    try {
        applyLoadedWeights(loadWeightsFolder(state.spec, path), state);
    } catch (const io::FileError& e) {
        fail("Could not load the weights", e.what());
    }
}

void SessionController::openModel(const fs::path& folder, AppState& state) {
    std::error_code error;
    models_.open(fs::absolute(folder, error).lexically_normal());
    state.session.openingModel = *models_.opening();
}

void SessionController::receiveModel(AppState& state) {
    std::optional<io::ModelLibrary::Opened> opened = models_.take();
    if (!opened) return;
    const int layer = std::exchange(state.session.requestLayer, -1);
    if (!opened->model) {
        fail("Could not open the model", opened->error);
        return;
    }
    useTrainedModel(std::move(opened->model), state);
    if (layer >= 0 && layer < state.spec.trained->config().layers) state.spec.layer = layer;
    addRecent(state.session.recentModels, opened->folder);
}

void SessionController::useBundledModel(AppState& state) {
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

bool SessionController::restore(AppState& state) {
    const RestoreOffer offer = std::move(*state.session.restoreOffer);
    state.session.restoreOffer.reset();
    io::Session baseline = state.session.saved;  // untitled: what the app started with
    try {
        if (!offer.source.empty()) baseline = io::loadSession(offer.source);
    } catch (const io::FileError&) {
        // The file it was editing is gone or damaged: every restored input counts as unsaved.
    }
    try {
        applyOpenedSession(io::openSession(offer.autosave), offer.source, state);
    } catch (const io::FileError& e) {
        fail("Could not restore the session", e.what());
        return false;
    }
    state.session.saved = std::move(baseline);
    history_.reset(state);
    state.status = "Restored the unsaved session from " + offer.when + ".";
    return true;
}

void SessionController::fail(std::string title, std::string message) {
    errorTitle_ = std::move(title);
    error_ = std::move(message);
}

void SessionController::pollPicker(AppState& state) {
    if (!pending_ || pending_->answer.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    const Purpose purpose = pending_->purpose;
    const std::optional<fs::path> chosen = pending_->answer.get();
    pending_.reset();
    if (chosen) finish(purpose, *chosen, state);
}

void SessionController::publish(AppState& state) {
    state.session.openingModel = models_.opening().value_or(fs::path());
    state.session.modified = !sameDocument(sessionOf(state), state.session.saved);
    state.session.undoLabel = history_.undoLabel();
    state.session.redoLabel = history_.redoLabel();
}

// [SECTION] dialogs: path field, unsaved changes, errors, restore after a crash, closing

void SessionController::pathDialog(AppState& state) {
    if (!pathField_) return;
    const bool model = pathField_->purpose == Purpose::OpenModel;
    const bool weights = pathField_->purpose == Purpose::LoadWeights || model, saving = pathField_->purpose == Purpose::SaveSession;
    openOnce(kPathPopup);
    centreNextWindow();
    const std::string title =
        std::string(model ? "Open a model" : weights ? "Load weights" : saving ? "Save the session" : "Open a session") + kPathPopup;
    if (!ImGui::BeginPopupModal(title.c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::TextUnformatted(model ? "A HuggingFace GPT-2 or BERT folder: config.json, model.safetensors and the tokenizer's files\n"
                                   "(tokenizer.json, or vocab.json + merges.txt, or vocab.txt); docs/models.md says how to download one."
                           : weights ? "A folder holding w_q.npy, w_k.npy, w_v.npy, w_o.npy (optionally b_q.npy … b_o.npy),\n"
                                       "and/or embeddings.npy with vocab.txt, as docs/loading-weights.md describes."
                           : saving ? "The session file to write (.json): inputs, cell edits, weight file paths and the view."
                                    : "The session file to open (.json).");
    if (pathField_->focus) ImGui::SetKeyboardFocusHere();
    pathField_->focus = false;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 36.0f);
    // The suggestion is selected: typing replaces it, End keeps it and goes on typing.
    const bool entered = ImGui::InputText("##path", &pathField_->text, ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
    const fs::path path = typedPath(pathField_->text);
    const PathCheck check = checkTypedPath(model, weights, saving, path);
    ImGui::TextColored(check.problem ? kErrorColor : kHintColor, "%s", check.text.c_str());
    const bool go = ImGui::Button(model ? "Open" : weights ? "Load" : saving ? (check.exists ? "Replace" : "Save") : "Open") || entered;
    ImGui::SameLine();
    const bool cancel = ImGui::Button("Cancel") || answerKey(ImGuiKey_Escape);
    std::optional<Purpose> chosen;
    if (go && !path.empty()) chosen = pathField_->purpose;
    if (chosen || cancel) {
        pathField_.reset();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
    if (chosen) finish(*chosen, path, state);
}

void SessionController::discardDialog(AppState& state) {
    if (!confirmOpen_) return;
    openOnce(kDiscardPopup);
    centreNextWindow();
    if (!ImGui::BeginPopupModal((std::string("Unsaved changes") + kDiscardPopup).c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    const std::string name = state.session.file.empty() ? "The untitled session" : state.session.file.filename().string();
    ImGui::Text("%s has unsaved changes.", name.c_str());
    ImGui::TextUnformatted("Opening a session replaces them, and Undo cannot bring them back.");
    const bool proceed = ImGui::Button("Open anyway");
    ImGui::SameLine();
    const bool cancel = ImGui::Button("Cancel") || answerKey(ImGuiKey_Escape);
    std::optional<fs::path> file;
    if (proceed) file = *confirmOpen_;
    if (proceed || cancel) {
        confirmOpen_.reset();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
    if (file && file->empty()) askForPath(Purpose::OpenSession, state);
    else if (file) open(*file, state);
}

void SessionController::openingDialog(AppState& state) {
    constexpr const char* kOpeningPopup = "###opening model";
    const std::optional<fs::path> folder = models_.opening();
    if (!folder && !ImGui::IsPopupOpen(kOpeningPopup)) return;
    if (folder) openOnce(kOpeningPopup);
    centreNextWindow();
    if (!ImGui::BeginPopupModal((std::string("Opening a model") + kOpeningPopup).c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    if (!folder) {  // finished: the model is on screen or its error follows
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return;
    }
    ImGui::TextUnformatted(("Opening " + core::echoed(folder->string()) + " …").c_str());
    if (ImGui::Button("Cancel") || answerKey(ImGuiKey_Escape)) {
        models_.cancel();
        state.session.requestLayer = -1;
        state.status = "Stopped opening " + core::echoed(folder->filename().string()) + "; the model on screen stays.";
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

void SessionController::errorDialog() {
    if (error_.empty()) return;
    openOnce(kErrorPopup);
    centreNextWindow();
    if (!ImGui::BeginPopupModal((errorTitle_ + kErrorPopup).c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
    ImGui::TextUnformatted(error_.c_str());
    ImGui::PopTextWrapPos();
    ImGui::TextColored(kHintColor, "Nothing was changed.");
    if (ImGui::Button("OK") || answerKey(ImGuiKey_Escape) || answerKey(ImGuiKey_Enter)) {
        error_.clear();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

void SessionController::restoreDialog(AppState& state) {
    if (!state.session.restoreOffer || state.session.restoreOffer->onlyOnRequest) return;
    if (state.session.restoreOffer->endedBySignal) {  // logout or shutdown ended it: a normal end, nothing to ask
        const std::string when = state.session.restoreOffer->when;
        if (restore(state)) state.status = "Restored the unsaved changes of " + when + ", when attnviz was closed by logout or shutdown.";
        return;
    }
    openOnce(kRestorePopup);
    centreNextWindow();
    if (!ImGui::BeginPopupModal((std::string("Restore unsaved session?") + kRestorePopup).c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    const RestoreOffer& offer = *state.session.restoreOffer;
    ImGui::Text("attnviz did not close cleanly. Restore the unsaved session from %s?", offer.when.c_str());
    if (!offer.source.empty()) ImGui::TextColored(kHintColor, "It was editing %s.", offer.source.string().c_str());
    const bool restoring = ImGui::Button("Restore") || answerKey(ImGuiKey_Enter);
    ImGui::SameLine();
    const bool discard = ImGui::Button("Discard");
    if (restoring || discard) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
    if (restoring) restore(state);
    if (discard) state.session.restoreOffer.reset();
}


void SessionController::closeDialog(AppState& state) {
    if (!state.session.closeRequested) return;
    openOnce(kClosePopup);
    centreNextWindow();
    if (!ImGui::BeginPopupModal((std::string("Close attnviz?") + kClosePopup).c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    const std::string name = state.session.file.empty() ? "the untitled session" : state.session.file.filename().string();
    ImGui::Text("Save the changes to %s before closing?", name.c_str());
    const bool saving = ImGui::Button("Save") || answerKey(ImGuiKey_Enter);
    ImGui::SameLine();
    const bool discarding = ImGui::Button("Close without saving");
    ImGui::SameLine();
    const bool cancel = ImGui::Button("Cancel") || answerKey(ImGuiKey_Escape);
    if (saving || discarding || cancel) {
        state.session.closeRequested = false;
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
    if (saving) {
        state.session.request = SessionRequest::Save;
        closeAfterSave_ = true;
    }
    if (discarding) {
        state.session.closeConfirmed = true;
        state.quitRequested = true;
    }
}

void SessionController::closeOnceSaved(AppState& state) {
    if (!closeAfterSave_ || state.session.request != SessionRequest::None || pending_ || pathField_) return;
    closeAfterSave_ = false;  // saved, cancelled or failed: the question was answered either way
    if (sameDocument(sessionOf(state), state.session.saved)) state.quitRequested = true;
}

}  // namespace attnviz::ui
