// panel_get_model.cpp — File ▸ Get a model…: the list, the repo id field, the fetch on its thread. See
// panel_get_model.h.
#include "ui/panels/panel_get_model.h"

#include "core/display_text.h"
#include "core/portable.h"
#include "io/hub_catalog.h"
#include "io/memory_budget.h"
#include "ui/widgets/widget_label.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <chrono>
#include <new>

namespace attnviz::ui {
namespace {

const ImVec4 kErrorColor{0.75f, 0.1f, 0.1f, 1.0f};
const ImVec4 kHintColor{0.35f, 0.35f, 0.35f, 1.0f};

bool isCached(const std::vector<io::CachedModel>& cached, std::string_view repoId) {
    return std::any_of(cached.begin(), cached.end(), [&](const io::CachedModel& model) { return model.repoId == repoId && model.opens; });
}

}  // namespace

// Quit during a fetch: the worker hears the cancel within a second in any phase (io/hub_fetch.h), so it is
// waited for that long; should it still be busy (a disk that hangs), it is left to finish on its own rather than
// freezing the window's close. Its state is shared, so nothing it touches goes away under it.
GetModelDialog::~GetModelDialog() {
    if (!worker_.joinable()) return;
    shared_->cancel = true;
    const auto deadline = std::chrono::steady_clock::now() + kQuitWait;
    while (!shared_->finished && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (shared_->finished) worker_.join();
    else worker_.detach();
}

void GetModelDialog::start(const std::string& repoText, int layer) {
    if (fetching()) return;
    if (worker_.joinable()) worker_.join();
    error_.clear();
    io::RepoReference ref;
    try {
        ref = io::parseRepoReference(repoText);
    } catch (const io::FileError& error) {
        error_ = error.what();
        return;
    }
    fetchingRepo_ = ref.repoId;
    fetchingLayer_ = layer;
    pending_ = true;
    shared_ = std::make_shared<Shared>();
    auto fetch = [shared = shared_, ref] {
        io::FetchOptions options = io::fetchOptionsFromEnvironment();
        options.cancel = &shared->cancel;
        options.onProgress = [&shared](const io::FetchProgress& progress) {
            const std::lock_guard lock(shared->mutex);
            shared->progress = progress;
        };
        try {
            std::filesystem::path snapshot = io::findOrFetchModel(ref, options);
            const std::lock_guard lock(shared->mutex);
            shared->snapshot = std::move(snapshot);
        } catch (const io::FileError& error) {  // FetchCancelled too: its sentence says what stays
            const std::lock_guard lock(shared->mutex);
            shared->error = error.what();
        } catch (const std::bad_alloc&) {
            const std::lock_guard lock(shared->mutex);
            shared->error = io::outOfMemoryMessage();
        } catch (const std::exception& error) {
            const std::lock_guard lock(shared->mutex);
            shared->error = std::string("Unexpected error: ") + error.what();
        }
        shared->finished = true;
    };
    if (core::kThreadsAvailable) worker_ = std::thread(std::move(fetch));
    else fetch();  // the web page: no thread to fetch on (and no download yet: its one sentence comes back at once)
}

io::FetchProgress GetModelDialog::progress() const {
    const std::lock_guard lock(shared_->mutex);
    return shared_->progress;
}

void GetModelDialog::waitForFetch() {
    if (worker_.joinable()) worker_.join();
}

void GetModelDialog::takeResult(AppState& state) {
    if (!pending_ || !shared_->finished) return;
    pending_ = false;
    if (worker_.joinable()) worker_.join();
    cached_ = io::listCachedModels(io::hubCacheDir());
    const std::lock_guard lock(shared_->mutex);
    if (shared_->snapshot) {
        state.session.request = {SessionAction::OpenRecentModel, *shared_->snapshot, {}, fetchingLayer_};
        visible_ = false;
    } else {
        error_ = shared_->error;
    }
}

void GetModelDialog::draw(AppState& state, float scale) {
    takeResult(state);
    if (!visible_) return;
    const float em = ImGui::GetFontSize();
    ImGui::SetNextWindowSize({em * 56.0f, em * 30.0f}, ImGuiCond_Appearing);
    const ImVec2 centre = ImGui::GetMainViewport()->GetCenter();
    ImGui::SetNextWindowPos(centre, ImGuiCond_Appearing, {0.5f, 0.5f});
    if (!ImGui::Begin("Get a model", &visible_, ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return;
    }
    if (ImGui::IsWindowAppearing()) cached_ = io::listCachedModels(io::hubCacheDir());
    ImGui::PushStyleColor(ImGuiCol_Text, kHintColor);
    ImGui::TextWrapped("From the Hugging Face Hub into the Hugging Face cache (%s), which transformers shares. A cached model opens "
                       "at once, with no network; attnviz goes online only for a model that is not cached.",
                       io::hubCacheDir().string().c_str());
    ImGui::PopStyleColor();
    drawCatalog(scale);
    drawFetchControls(scale);
    ImGui::End();
}

// One line per suggested model (name, size, licence; click to choose it), what it shows well under it.
void GetModelDialog::drawCatalog(float) {
    for (const io::CatalogModel& model : io::kModelCatalog) {
        const bool opens = io::attnvizOpensFamily(model.family);
        const std::string label = std::string(model.repoId) + "  ·  " + io::formatBytes(model.bytes) + "  ·  " + std::string(model.licence) +
                                  (model.gated ? " (gated)" : "") + (isCached(cached_, model.repoId) ? "  ·  cached" : "");
        if (!opens) ImGui::BeginDisabled();
        if (ImGui::Selectable(widgetLabel(label).c_str(), repoText_ == model.repoId)) repoText_ = std::string(model.repoId);
        if (!opens) ImGui::EndDisabled();
        ImGui::Indent();
        ImGui::PushStyleColor(ImGuiCol_Text, kHintColor);
        ImGui::TextWrapped("%s%s", opens ? "" : "not opened by attnviz yet: ", std::string(model.showsWell).c_str());
        ImGui::PopStyleColor();
        ImGui::Unindent();
    }
    ImGui::Spacing();
}

void GetModelDialog::drawFetchControls(float) {
    const bool busy = fetching();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("repo id");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 24.0f);
    if (busy) ImGui::BeginDisabled();
    const bool entered = ImGui::InputText("##repo id", &repoText_, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    const bool cached = isCached(cached_, repoText_);
    if ((ImGui::Button(widgetLabel(cached ? "Open" : (error_.empty() ? "Get and open" : "Try again")).c_str()) || entered) && !repoText_.empty()) start(repoText_);
    if (busy) ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::TextColored(kHintColor, "NAME or ORG/NAME[@REVISION]");
    if (busy) {
        const io::FetchProgress progress = this->progress();
        const float fraction = progress.total > 0 ? static_cast<float>(static_cast<double>(progress.done) / static_cast<double>(progress.total)) : 0.0f;
        const std::string text = progress.total > 0 ? io::formatProgress(progress) : "asking the Hub for " + fetchingRepo_ + "…";
        ImGui::ProgressBar(fraction, {-ImGui::GetFontSize() * 6.0f, 0.0f}, text.c_str());
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) cancel();
    }
    if (!error_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
        ImGui::TextWrapped("%s", core::clipped(error_).c_str());
        ImGui::PopStyleColor();
    }
}

const std::vector<io::CachedModel>& cachedModelsForMenu(bool refresh) {
    static std::vector<io::CachedModel> models;
    static bool read = false;
    if (refresh || !read) {
        models = io::listCachedModels(io::hubCacheDir());
        models.erase(std::remove_if(models.begin(), models.end(), [](const io::CachedModel& model) { return !model.opens; }), models.end());
        read = true;
    }
    return models;
}

}  // namespace attnviz::ui
