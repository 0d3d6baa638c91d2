// test_get_model_gui.cpp — File ▸ Get a model… against a loopback Hub (tests/reference/hub_server.py), driven
// without a window: the fetch runs on the dialog's thread while frames go on, Cancel stops it, Try again fetches
// and opens the model, and the Model box then lists it from the cache with no request.
#include "hub_test_server.h"
#include "imgui_harness.h"
#include "io/model_folder.h"
#include "io/scratch_dir.h"
#include "ui/session/session_actions.h"

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

namespace attnviz::test {

TEST_CASE("Get a model: fetched on a thread with progress, cancelled, fetched again and opened; then listed from the cache") {
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

    app.state().session.request = ui::SessionRequest::GetModel;
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
        CHECK(app.state().spec.trained->bundled);  // nothing else opened
    }
    const HubTestServer server({"--repo", "gpt2-hf-names=" + gpt2.string()}, scratch / "stats.json");
    const ScopedEnvironment endpoint("HF_ENDPOINT", server.endpoint());
    dialog.start("gpt2-hf-names");  // Try again
    dialog.waitForFetch();
    ui.frames(app, 2);
    app.waitForRun();
    ui.frames(app, 2);
    CHECK_FALSE(dialog.visible());
    REQUIRE(app.state().spec.trained != nullptr);
    CHECK(app.state().spec.trained->name == "gpt2-hf-names");
    CHECK(server.stats()["ranges"].size() == 1);  // resumed what the cancelled fetch left
    REQUIRE(app.run() != nullptr);
    CHECK(app.error().empty());
    CHECK(app.run()->spec.trained->name == "gpt2-hf-names");

    // Next time: the Model box's list comes from the cache, and opening from it asks nothing.
    const int requests = server.requests();
    const auto& cached = ui::cachedModelsForMenu(true);
    REQUIRE(cached.size() == 1);
    CHECK(cached[0].repoId == "gpt2-hf-names");
    app.state().session.request = ui::SessionRequest::UseBundledModel;
    ui.frames(app, 2);
    app.waitForRun();
    CHECK(app.state().spec.trained->bundled);
    app.state().session.request = ui::SessionRequest::OpenRecentModel;
    app.state().session.requestPath = cached[0].snapshot;
    ui.frames(app, 2);
    app.waitForRun();
    ui.frame(app);
    CHECK(app.state().spec.trained->name == "gpt2-hf-names");
    CHECK(server.requests() == requests);
}

}  // namespace attnviz::test
