// panel_get_model.h — File ▸ Get a model…: the suggested Hub models (io/hub_catalog.h) and any repo id, fetched
// into the Hugging Face cache on a worker thread with a progress bar (bytes, speed, time left) and Cancel, then
// opened through SessionAction::OpenRecentModel like any model folder. A model already cached opens at once,
// with no network. Also the Model box's list of cached models.
//
// What it does not do: speak HTTP (io/hub_fetch.h) or open the model (SessionService does, through io::ModelLibrary).
#pragma once

#include "io/hub_cache.h"
#include "io/hub_fetch.h"
#include "ui/app_state.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace attnviz::ui {

class GetModelDialog {
public:
    GetModelDialog() = default;
    ~GetModelDialog();  // cancels a fetch under way and waits at most kQuitWait for its thread
    GetModelDialog(const GetModelDialog&) = delete;
    GetModelDialog& operator=(const GetModelDialog&) = delete;

    void open() { visible_ = true; }
    bool visible() const { return visible_; }
    bool fetching() const { return pending_ && !shared_->finished; }
    // Draws the window while visible; when a fetch has finished, asks SessionController to open the snapshot.
    void draw(AppState& state, float scale);

    // Fetches `repoText` as if typed and the Get button pressed (the command line's --model REPO_ID --layer N of a
    // model that is not cached, once the window is up); the model opens at `layer` (−1: its own).
    void fetch(const std::string& repoText, int layer = -1) {
        repoText_ = repoText;
        start(repoText, layer);
    }
    // For tests: fetch `repoText` as the Get button does (the model then opens at `layer`); waitForFetch blocks.
    void start(const std::string& repoText, int layer = -1);
    void cancel() { shared_->cancel = true; }  // the Cancel button
    void waitForFetch();
    // What the progress bar shows now (the worker's latest report).
    io::FetchProgress progress() const;
    const std::string& error() const { return error_; }

private:
    struct Shared {  // written by the worker, read by the UI thread under the mutex
        mutable std::mutex mutex;
        io::FetchProgress progress;
        std::optional<std::filesystem::path> snapshot;
        std::string error;
        std::atomic<bool> finished{false};
        std::atomic<bool> cancel{false};  // the worker's FetchOptions::cancel
    };
    // How long closing the window waits for a cancelled fetch: it hears cancel within a second (Quit must close
    // the window within 2 s).
    static constexpr std::chrono::milliseconds kQuitWait{1500};
    void takeResult(AppState& state);
    void drawCatalog(float scale);
    void drawFetchControls(float scale);

    bool visible_ = false;
    bool pending_ = false;                 // a fetch started whose result draw() has not taken yet
    std::string repoText_ = "gpt2";
    std::string fetchingRepo_;
    int fetchingLayer_ = -1;               // the layer the fetched model opens at (−1: its own)
    std::string error_;
    std::vector<io::CachedModel> cached_;  // read when the window appears, and after a fetch
    std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
    std::thread worker_;
};

// The models of the Hugging Face cache that attnviz opens, read again when `refresh` (a menu appearing).
const std::vector<io::CachedModel>& cachedModelsForMenu(bool refresh);

}  // namespace attnviz::ui
