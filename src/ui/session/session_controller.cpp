// session_controller.cpp — the session's keys and modals over SessionService. See session_controller.h.
//
// [SECTION] frame: keys, update
// [SECTION] dialogs: path field, unsaved changes, errors, restore after a crash, closing, opening a model
#include "ui/session/session_controller.h"

#include "core/display_text.h"
#include "ui/session/session_actions.h"
#include "ui/widgets/widget_label.h"

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

// [SECTION] frame: keys, update

void SessionController::handleKeys(AppState& state) {
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.KeyCtrl || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) return;
    SessionRequest& request = state.session.request;
    if (ImGui::IsKeyPressed('S', false)) request = {io.KeyShift ? SessionAction::SaveAs : SessionAction::Save};
    if (ImGui::IsKeyPressed('O', false)) request = {SessionAction::Open};
    if (io.WantTextInput) return;  // the text field undoes its own typing
    if (ImGui::IsKeyPressed('Z')) request = {io.KeyShift ? SessionAction::Redo : SessionAction::Undo};
    if (ImGui::IsKeyPressed('Y')) request = {SessionAction::Redo};
}

void SessionController::update(AppState& state, float deltaSeconds) {
    cellEditor_.draw(state);
    service_.perform(state);
    service_.pollPicker(state);
    pathDialog(state);
    discardDialog(state);
    restoreDialog(state);
    closeDialog(state);
    service_.receiveModel(state);
    openingDialog(state);
    errorDialog();
    service_.endFrame(state, deltaSeconds);
}

// [SECTION] dialogs: path field, unsaved changes, errors, restore after a crash, closing, opening a model

void SessionController::pathDialog(AppState& state) {
    const std::optional<PathQuestion>& question = service_.pathQuestion();
    if (!question) {
        pathText_.reset();
        return;
    }
    if (!pathText_) {
        pathText_ = question->suggested.string();
        focusPath_ = true;
    }
    const bool model = question->purpose == PathPurpose::OpenModel;
    const bool weights = question->purpose == PathPurpose::LoadWeights || model, saving = question->purpose == PathPurpose::SaveSession;
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
    if (focusPath_) ImGui::SetKeyboardFocusHere();
    focusPath_ = false;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 36.0f);
    // The suggestion is selected: typing replaces it, End keeps it and goes on typing.
    const bool entered = ImGui::InputText("##path", &*pathText_, ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
    const fs::path path = typedPath(*pathText_);
    const PathCheck check = checkTypedPath(model, weights, saving, path);
    ImGui::TextColored(check.problem ? kErrorColor : kHintColor, "%s", core::clipped(check.text).c_str());
    const bool go = ImGui::Button(widgetLabel(model ? "Open" : weights ? "Load" : saving ? (check.exists ? "Replace" : "Save") : "Open").c_str()) || entered;
    ImGui::SameLine();
    const bool cancel = ImGui::Button("Cancel") || answerKey(ImGuiKey_Escape);
    const bool chosen = go && !path.empty();
    if (chosen || cancel) {
        pathText_.reset();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
    if (chosen) service_.answerPath(path, state);
    else if (cancel) service_.dismissPathQuestion();
}

void SessionController::discardDialog(AppState& state) {
    if (!service_.confirmOpen()) return;
    openOnce(kDiscardPopup);
    centreNextWindow();
    if (!ImGui::BeginPopupModal((std::string("Unsaved changes") + kDiscardPopup).c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    const std::string name = state.session.file.empty() ? "The untitled session" : state.session.file.filename().string();
    ImGui::Text("%s has unsaved changes.", name.c_str());
    ImGui::TextUnformatted("Opening a session replaces them, and Undo cannot bring them back.");
    const bool proceed = ImGui::Button("Open anyway");
    ImGui::SameLine();
    const bool cancel = ImGui::Button("Cancel") || answerKey(ImGuiKey_Escape);
    if (proceed || cancel) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
    if (proceed) service_.openAnyway(state);
    else if (cancel) service_.keepChanges();
}

void SessionController::openingDialog(AppState& state) {
    constexpr const char* kOpeningPopup = "###opening model";
    const std::optional<fs::path> folder = service_.openingModel();
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
        service_.cancelOpening(state);
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

void SessionController::errorDialog() {
    const std::optional<SessionProblem>& problem = service_.problem();
    if (!problem) return;
    openOnce(kErrorPopup);
    centreNextWindow();
    if (!ImGui::BeginPopupModal((problem->title + kErrorPopup).c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
    ImGui::TextUnformatted(core::clipped(problem->message).c_str());
    ImGui::PopTextWrapPos();
    ImGui::TextColored(kHintColor, "Nothing was changed.");
    if (ImGui::Button("OK") || answerKey(ImGuiKey_Escape) || answerKey(ImGuiKey_Enter)) {
        service_.dismissProblem();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

void SessionController::restoreDialog(AppState& state) {
    if (!state.session.restoreOffer || state.session.restoreOffer->onlyOnRequest) return;
    if (state.session.restoreOffer->endedBySignal) {  // logout or shutdown ended it: a normal end, nothing to ask
        const std::string when = state.session.restoreOffer->when;
        service_.restore(state, "Restored the unsaved changes of " + when + ", when attnviz was closed by logout or shutdown.");
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
    if (restoring) service_.restore(state, {});
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
    if (saving) service_.saveThenClose(state);
    if (discarding) {
        state.session.closeConfirmed = true;
        state.quitRequested = true;
    }
}

}  // namespace attnviz::ui
