// panel_session.cpp — the session's menu items, and the controls panel's weights and edits lines. See
// session_menu.h.
#include "ui/session/session_menu.h"

#include "core/display_text.h"
#include "io/hub_cache.h"
#include "io/model_folder.h"
#include "io/model_library.h"
#include "ui/panels/panel_get_model.h"
#include "ui/session/session_actions.h"
#include "ui/widgets/widget_label.h"

#include <imgui.h>

#include <string>

namespace attnviz::ui {
namespace {

// "Open Recent" (session files) or "Open Recent Model" (model folders): each path asks `open` of it.
void recentMenu(const char* label, std::vector<std::filesystem::path>& recent, SessionAction open, AppState& state) {
    if (!ImGui::BeginMenu(widgetLabel(label).c_str(), !recent.empty())) return;
    for (const std::filesystem::path& path : recent) {
        if (ImGui::MenuItem(widgetLabel(core::clipped(io::modelFolderTitle(path))).c_str(), nullptr)) {
            state.session.request = {open, path};
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", core::clipped(path.string()).c_str());
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Clear the list")) recent.clear();
    ImGui::EndMenu();
}

// The models of the Hugging Face cache that attnviz opens (name, family, size), read again as the menu opens.
void cachedMenu(AppState& state) {
    if (!ImGui::BeginMenu("Open Cached Model")) return;
    const std::vector<io::CachedModel>& cached = cachedModelsForMenu(ImGui::IsWindowAppearing());
    if (cached.empty()) ImGui::TextDisabled("None in %s yet: File ▸ Get a model… downloads one.", io::hubCacheDir().string().c_str());
    for (const io::CachedModel& model : cached) {
        const std::string label = model.repoId + "  (" + model.family + ", " + io::formatBytes(model.bytes) + ")";
        if (ImGui::MenuItem(widgetLabel(core::clipped(label)).c_str())) {
            state.session.request = {SessionAction::OpenRecentModel, model.snapshot};
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("In the Hugging Face cache: %s", model.snapshot.string().c_str());
    }
    ImGui::EndMenu();
}

// Open model…, the recent folders, the Hugging Face cache's models, the bundled model and untrained weights.
void modelItems(AppState& state) {
    SessionRequest& request = state.session.request;
    if (ImGui::MenuItem("Open model…")) request = {SessionAction::OpenModel};
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("A HuggingFace GPT-2 or BERT folder: config.json, model.safetensors and the tokenizer's files\n(docs/models.md says where to get them)");
    }
    if (ImGui::MenuItem("Get a model…")) request = {SessionAction::GetModel};
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("GPT-2, BERT and others by name, from the Hugging Face cache or downloaded into it");
    recentMenu("Open Recent Model", state.session.recentModels, SessionAction::OpenRecentModel, state);
    cachedMenu(state);
    const core::TrainedModel* model = state.spec.trainedModel();
    if (ImGui::MenuItem("attnviz's own small model (trained BERT)", nullptr, model != nullptr && model->bundled)) request = {SessionAction::UseBundledModel};
    if (io::bundledDecoderFolder() && ImGui::MenuItem("attnviz's own small decoder (trained Llama)", nullptr, showsBundledDecoder(state))) {
        requestBundledDecoder(state);
    }
    if (ImGui::MenuItem("Untrained (random) weights", nullptr, model == nullptr)) request = {SessionAction::UseRandomModel};
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The seeded single layer: every control, but nearly uniform attention");
}

}  // namespace

bool requestBundledDecoder(AppState& state) {
    const std::optional<std::filesystem::path> folder = io::bundledDecoderFolder();
    if (!folder) return false;
    state.session.request = {SessionAction::OpenRecentModel, *folder};
    return true;
}

bool showsBundledDecoder(const AppState& state) {
    const core::TrainedModel* model = state.spec.trainedModel();
    return model != nullptr && model->name == io::kBundledDecoderName;
}

void drawSessionFileItems(AppState& state) {
    SessionRequest& request = state.session.request;
    if (ImGui::MenuItem("Open…", "Ctrl+O")) request = {SessionAction::Open};
    recentMenu("Open Recent", state.session.recent, SessionAction::OpenRecent, state);
    if (ImGui::MenuItem("Save", "Ctrl+S")) request = {SessionAction::Save};
    if (ImGui::MenuItem("Save As…", "Ctrl+Shift+S")) request = {SessionAction::SaveAs};
    if (const auto& offer = state.session.restoreOffer; offer && offer->onlyOnRequest) {
        if (ImGui::MenuItem(widgetLabel(("Recover unsaved changes of " + offer->when)).c_str())) request = {SessionAction::Recover};
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("An earlier run left them; this start used the command line's inputs instead.");
    }
    ImGui::Separator();
    modelItems(state);
    ImGui::Separator();
    if (ImGui::MenuItem("Load weights…", nullptr, false, !state.spec.trainedModel())) request = {SessionAction::LoadWeights};
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("A folder of w_q.npy … w_o.npy, optional biases, embeddings.npy + vocab.txt\n(docs/loading-weights.md)");
    const bool trained = state.session.weightFiles.hasWeights() || state.session.weightFiles.hasEmbeddings();
    if (ImGui::MenuItem("Use seeded weights", nullptr, false, trained)) useSeededWeights(state);
    ImGui::Separator();
}

void drawEditMenu(AppState& state) {
    if (!ImGui::BeginMenu("Edit")) return;
    const SessionState& s = state.session;
    const std::string undo = s.undoLabel.empty() ? "Undo" : "Undo " + s.undoLabel;
    const std::string redo = s.redoLabel.empty() ? "Redo" : "Redo " + s.redoLabel;
    if (ImGui::MenuItem(widgetLabel(undo).c_str(), "Ctrl+Z", false, !s.undoLabel.empty())) state.session.request = {SessionAction::Undo};
    if (ImGui::MenuItem(widgetLabel(redo).c_str(), "Ctrl+Y", false, !s.redoLabel.empty())) state.session.request = {SessionAction::Redo};
    ImGui::Separator();
    core::SeededLayer* seeded = state.spec.seeded();  // a trained model's cells are not editable
    const std::size_t edits = seeded ? seeded->cellEdits.size() : 0;
    const std::string reset = "Reset edits (" + std::to_string(edits) + (edits == 1 ? " cell)" : " cells)");
    if (ImGui::MenuItem(widgetLabel(reset).c_str(), nullptr, false, edits > 0)) seeded->cellEdits.clear();
    ImGui::TextDisabled("Double-click a cell of X, W^Q, W^K, W^V or W^O to type a value.");
    ImGui::EndMenu();
}

void drawWeightsAndEdits(AppState& state) {
    core::SeededLayer& seeded = *state.spec.seeded();
    const std::string folder = weightsFolderName(state.session.weightFiles);
    if (folder.empty()) {
        ImGui::TextDisabled("weights: seeded (seed %llu)", static_cast<unsigned long long>(seeded.seed));
    } else {
        ImGui::Text("weights: %s", folder.c_str());
        if (ImGui::IsItemHovered()) {
            const io::WeightFiles& files = state.session.weightFiles;
            ImGui::SetTooltip("%s", core::clipped((files.hasWeights() ? files.wq : files.embeddings).parent_path().string()).c_str());
        }
        if (ImGui::SmallButton("use seeded weights")) useSeededWeights(state);
    }
    const std::size_t edits = seeded.cellEdits.size();
    if (edits == 0) return;
    ImGui::Text("%zu typed-in %s", edits, edits == 1 ? "cell" : "cells");
    ImGui::SameLine();
    if (ImGui::SmallButton("reset")) seeded.cellEdits.clear();
}

}  // namespace attnviz::ui
