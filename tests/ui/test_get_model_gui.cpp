// test_get_model_gui.cpp — File ▸ Get a model… against a loopback Hub (tests/reference/hub_server.py), driven
// without a window: the fetch runs on the dialog's thread while frames go on, Cancel stops it, Try again fetches
// and opens the model, and the Model box then lists it from the cache with no request.
#include "hub_test_server.h"
#include "imgui_harness.h"
#include "io/model_folder.h"
#include "io/model_library.h"
#include "io/scratch_dir.h"
#include "ui/session/session_actions.h"

#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

namespace attnviz::test {
namespace {

// Frames until the model asked for has opened on the model library's worker and its run is on screen (at most 20 s).
void untilOpened(ImGuiHarness& ui, ui::App& app) {
    ui.frames(app, 2);
    for (int i = 0; i < 2000 && (app.state().session.request.action != ui::SessionAction::None || !app.state().session.openingModel.empty()); ++i) {
        ui.frame(app);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    app.waitForRun();
    ui.frames(app, 2);
}

// What gui_main's initialState makes of --model REPO --layer N for a repo not cached: the bundled model on screen
// while File ▸ Get a model fetches it.
ui::AppState startFetching(const std::string& repo, int layer) {
    ui::AppState start;
    ui::useTrainedModel(io::loadBundledModel(), start);
    start.spec.sentences = {"the cat sat"};
    start.session.request = {ui::SessionAction::GetModel, {}, repo, layer};
    return start;
}

}  // namespace

TEST_CASE("Get a model: fetched on a thread with progress, cancelled, fetched again and opened — then listed from the cache") {
    const ScratchDir scratch("get-model-gui");
    const std::filesystem::path gpt2 = std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models/gpt2-hf-names";
    const ScopedEnvironment cache("HF_HUB_CACHE", (scratch / "hub").string());
    const ScopedEnvironment offline("HF_HUB_OFFLINE", std::nullopt);
    ImGuiHarness ui;
    ui::AppState start;
    ui::useTrainedModel(io::loadBundledModel(), start);
    start.spec.sentences = {"the cat sat"};  // the tiny GPT-2 has 16 positions
    ui::App app(std::move(start));
    ui.frames(app, 2);
    app.waitForRun();

    app.state().session.request = {ui::SessionAction::GetModel};
    ui.frames(app, 2);
    ui::GetModelDialog& dialog = app.getModelDialog();
    CHECK(dialog.visible());
    {
        const HubTestServer slow({"--repo", "gpt2-hf-names=" + gpt2.string(), "--slow"}, scratch / "stats-slow.json");
        const ScopedEnvironment endpoint("HF_ENDPOINT", slow.endpoint());
        dialog.start("gpt2-hf-names");
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (dialog.progress().done < 20000 && std::chrono::steady_clock::now() < deadline) {
            ui.frame(app);  // the window keeps drawing while the fetch runs
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        CHECK(dialog.fetching());
        CHECK(dialog.progress().total > 200000);
        dialog.cancel();
        dialog.waitForFetch();
        ui.frame(app);
        CHECK(dialog.error().find("cancelled") != std::string::npos);
        CHECK(app.state().spec.trainedModel()->bundled);  // nothing else opened
    }
    const HubTestServer server({"--repo", "gpt2-hf-names=" + gpt2.string()}, scratch / "stats.json");
    const ScopedEnvironment endpoint("HF_ENDPOINT", server.endpoint());
    dialog.start("gpt2-hf-names");  // Try again
    dialog.waitForFetch();
    untilOpened(ui, app);
    CHECK_FALSE(dialog.visible());
    REQUIRE(app.state().spec.trainedModel() != nullptr);
    CHECK(app.state().spec.trainedModel()->name == "gpt2-hf-names");
    CHECK(server.stats()["ranges"].size() == 1);  // resumed what the cancelled fetch left
    REQUIRE(app.run() != nullptr);
    CHECK(app.error().empty());
    CHECK(app.run()->spec.trainedModel()->name == "gpt2-hf-names");

    // Next time: the Model box's list comes from the cache, and opening from it asks nothing.
    const int requests = server.requests();
    const auto& cached = ui::cachedModelsForMenu(true);
    REQUIRE(cached.size() == 1);
    CHECK(cached[0].repoId == "gpt2-hf-names");
    app.state().session.request = {ui::SessionAction::UseBundledModel};
    ui.frames(app, 2);
    app.waitForRun();
    CHECK(app.state().spec.trainedModel()->bundled);
    app.state().session.request = {ui::SessionAction::OpenRecentModel, cached[0].snapshot};
    untilOpened(ui, app);
    CHECK(app.state().spec.trainedModel()->name == "gpt2-hf-names");
    CHECK(server.requests() == requests);
}

TEST_CASE("--model REPO_ID not cached: the window opens on the default model and Get a model fetches it, then opens it") {
    const ScratchDir scratch("get-model-at-start");
    const std::filesystem::path gpt2 = std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models/gpt2-hf-names";
    const ScopedEnvironment cache("HF_HUB_CACHE", (scratch / "hub").string());
    const ScopedEnvironment offline("HF_HUB_OFFLINE", std::nullopt);
    const HubTestServer server({"--repo", "gpt2-hf-names=" + gpt2.string()}, scratch / "stats.json");
    const ScopedEnvironment endpoint("HF_ENDPOINT", server.endpoint());
    ImGuiHarness ui;
    ui::App app(startFetching("gpt2-hf-names", 1));
    ui.frame(app);
    ui::GetModelDialog& dialog = app.getModelDialog();
    CHECK(dialog.visible());  // the progress bar, with the window drawing the default model meanwhile
    CHECK(app.state().spec.trainedModel()->bundled);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (dialog.fetching() && std::chrono::steady_clock::now() < deadline) {
        ui.frame(app);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(dialog.progress().done > 0);
    untilOpened(ui, app);
    REQUIRE(app.state().spec.trainedModel() != nullptr);
    CHECK(app.state().spec.trainedModel()->name == "gpt2-hf-names");
    CHECK(app.state().spec.trained()->layer == 1);
    CHECK_FALSE(dialog.visible());
}

// The layer asked for with the repo belongs to that request: a fetch that fails takes it along. (It was a mailbox of
// its own, AppState::session.requestLayer, which the failed fetch left set, so the next model opened by hand showed
// layer 1 instead of its own.)
TEST_CASE("--model REPO_ID --layer 1 whose fetch fails: the next model opened shows its own layer, not 1") {
    const ScratchDir scratch("get-model-failed-layer");
    const std::filesystem::path gpt2 = std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models/gpt2-hf-names";
    const ScopedEnvironment cache("HF_HUB_CACHE", (scratch / "hub").string());
    const ScopedEnvironment offline("HF_HUB_OFFLINE", std::nullopt);
    const HubTestServer server({"--repo", "another-model=" + gpt2.string()}, scratch / "stats.json");  // no gpt2-hf-names: 404
    const ScopedEnvironment endpoint("HF_ENDPOINT", server.endpoint());
    ui::AppState plain;
    ui::useTrainedModel(io::loadModelFolder(gpt2), plain);
    const int ownLayer = plain.spec.trained()->layer;
    REQUIRE(ownLayer != 1);  // else the check below could not tell the two apart
    ImGuiHarness ui;
    ui::App app(startFetching("gpt2-hf-names", 1));
    ui.frame(app);
    ui::GetModelDialog& dialog = app.getModelDialog();
    dialog.waitForFetch();
    ui.frames(app, 2);
    CHECK(dialog.error().find("no model gpt2-hf-names") != std::string::npos);
    app.state().session.request = {ui::SessionAction::OpenRecentModel, gpt2};  // Open Recent Model, no layer asked for
    untilOpened(ui, app);
    REQUIRE(app.state().spec.trainedModel() != nullptr);
    CHECK(app.state().spec.trainedModel()->name == "gpt2-hf-names");
    CHECK(app.state().spec.trained()->layer == ownLayer);
}

TEST_CASE("Get a model: Cancel, and closing the window, stop a fetch still listing the repo's files") {
    const ScratchDir scratch("get-model-quit");
    const std::filesystem::path gpt2 = std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models/gpt2-hf-names";
    const ScopedEnvironment cache("HF_HUB_CACHE", (scratch / "hub").string());
    const ScopedEnvironment offline("HF_HUB_OFFLINE", std::nullopt);
    const auto untilAsked = [](const HubTestServer& server) {
        for (int i = 0; i < 500 && server.requests() < 1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));  // at most 10 s
    };
    // The file list trickles at 2 bytes/s for 4 s; before, Cancel and Quit were heard only once it had all come
    // (and every HEAD was made), so Quit froze the window meanwhile.
    {
        const HubTestServer server({"--repo", "gpt2-hf-names=" + gpt2.string(), "--drip", "listing"}, scratch / "stats-cancel.json");
        const ScopedEnvironment endpoint("HF_ENDPOINT", server.endpoint());
        ui::GetModelDialog dialog;
        dialog.start("gpt2-hf-names");
        untilAsked(server);
        dialog.cancel();
        dialog.waitForFetch();
        CHECK(server.stats()["drips_completed"] == 0);
        CHECK(server.requests() == 1);
    }
    const HubTestServer server({"--repo", "gpt2-hf-names=" + gpt2.string(), "--drip", "listing"}, scratch / "stats-quit.json");
    const ScopedEnvironment endpoint("HF_ENDPOINT", server.endpoint());
    auto dialog = std::make_unique<ui::GetModelDialog>();
    dialog->start("gpt2-hf-names");
    untilAsked(server);
    dialog.reset();  // Quit
    CHECK(server.stats()["drips_completed"] == 0);
    CHECK(server.requests() == 1);
}

}  // namespace attnviz::test
