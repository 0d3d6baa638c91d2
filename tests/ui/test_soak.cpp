// test_soak.cpp — 10,000 random user actions in the windowless harness, with a fixed seed: typing and deleting
// characters, pasting 5,000 characters or one word of 20,000 (issue 31), changing heads, sizes and masks, stepping
// stages, hovering, clicking anywhere, exporting, opening question views, presenting, and resizing the window to
// extremes (1 x 1 to 16,384 x 16,384, the largest attnviz allows). After every action: no crash (sanitizers catch the rest), no NaN on screen unless the
// run explains it, and at the end the peak memory stays bounded. Then the user quits during a download (issue 31):
// File ▸ Get a model… fetches from a loopback Hub (tests/reference/hub_server.py) whose model.safetensors body
// trickles at 2 bytes/s for 4 s, and the app is closed while it does: closing must not wait for the body. ATTNVIZ_SOAK_ACTIONS overrides the count
// (the sanitizer build runs 1,000 by default: each frame is ~10× slower there).
#include "app/gui_export.h"
#include "core/limits.h"
#include "hub_test_server.h"
#include "imgui_harness.h"
#include "io/scratch_dir.h"
#include "ui/lessons/lesson_catalog.h"

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <thread>

namespace attnviz::test {
namespace {

int actionCount() {
    const char* text = std::getenv("ATTNVIZ_SOAK_ACTIONS");
#if defined(ATTNVIZ_SANITIZED)
    constexpr int kDefault = 1'000;
#else
    constexpr int kDefault = 10'000;
#endif
    return text != nullptr ? std::max(1, std::atoi(text)) : kDefault;
}

// Peak resident memory of this process (VmHWM), in MiB.
long peakMemoryMiB() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);) {
        if (line.rfind("VmHWM:", 0) == 0) return std::atol(line.c_str() + 6) / 1024;
    }
    return -1;
}

// NaN may reach the screen only where the run says why: a fully masked row under PyTorch's softmax with −∞.
bool nanIsExplained(const core::Trace& trace) {
    return trace.softmax == core::SoftmaxMode::PyTorch && trace.fill == core::MaskFill::MinusInfinity &&
           trace.fullyMaskedRowCount() > 0;
}

bool hasNaN(const core::Trace& trace) {
    for (const core::Tensor& tensor : trace.tensors) {
        for (float v : tensor.data) {
            if (std::isnan(v)) return true;
        }
    }
    return false;
}

std::string randomWords(std::mt19937& random, int characters) {
    static const char* words[] = {"the", "animal", "street", "tired", "Καλημέρα", "мир", "didn't", ",", ".", "it"};
    std::string text;
    while (static_cast<int>(text.size()) < characters) {
        text += words[random() % 10];
        text += ' ';
    }
    return text;
}

struct Soak {
    ImGuiHarness ui;
    ui::App app;
    std::mt19937 random{20261121};
    std::filesystem::path exportDir = std::filesystem::temp_directory_path() / "attnviz-soak-export";

    // As the OpenGL 3 backend says on GL >= 3.2 (attnviz asks for 3.3): a window may pass 65,536 vertices in several
    // draw commands (a 16,384-pixel window's cells and their values do); one command, and so one text, may not.
    explicit Soak(ui::AppState state) : app(std::move(state)) { ImGui::GetIO().BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset; }

    std::string& sentence() { return app.state().spec.sentences.front(); }
    float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(random); }

    void act() {
        core::ModelSpec& spec = app.state().spec;
        switch (random() % 14) {
            case 0: ui.type(app, static_cast<unsigned>("abcxyz ',.é"[random() % 11])); sentence() += static_cast<char>('a' + random() % 26); break;
            case 1: if (!sentence().empty()) sentence().pop_back(); break;  // delete (may empty it: an error, kept run)
            case 2: sentence() = random() % 8 == 0 ? randomWords(random, 5000) : randomWords(random, 10 + random() % 60); break;
            case 3: { const auto heads = core::validHeadCounts(spec.attention.dModel); spec.attention.heads = heads[random() % heads.size()]; break; }
            case 4: { const int sizes[][2] = {{8, 2}, {64, 8}, {512, 8}, {768, 12}, {6, 3}}; const auto& s = sizes[random() % 5];
                      spec.attention.dModel = s[0]; spec.attention.heads = s[1]; break; }
            case 5: spec.attention.mask = static_cast<core::MaskKind>(random() % 4);
                    spec.attention.fill = random() % 2 ? core::MaskFill::MinusInfinity : core::MaskFill::MinusBillion;
                    spec.attention.softmax = random() % 2 ? core::SoftmaxMode::PyTorch : core::SoftmaxMode::Safe;
                    spec.attention.maskPaddedQueries = random() % 2;
                    spec.sentences.resize(1 + random() % 3, "a b"); break;
            case 6: ui.pressKey(app, random() % 2 ? kKeyRight : kKeyLeft); break;
            case 7: ui.pressKey(app, '1' + static_cast<int>(random() % 9)); break;
            case 8: ui.hover(app, ImVec2(uniform(0, 1600), uniform(0, 1000))); break;
            case 9: ui.click(app, ImVec2(uniform(0, 1600), uniform(0, 1000))); break;
            case 10: spec.attention.scale = random() % 3 == 0 ? std::optional<float>{} : std::optional<float>{uniform(-1e3f, 1e3f)}; break;
            case 11: if (random() % 50 == 0 && app.run() != nullptr) exportStage(); break;
            case 12: openQuestionView(); break;
            case 13: if (random() % 2 == 0) sentence() += " " + std::string(20'000, "ACGT"[random() % 4]); else resizeToExtreme(); break;
        }
        ui.frame(app);
    }

    // The window at 1 x 1, a side at the largest attnviz opens (core/limits.h), or back to 1600 x 1000.
    void resizeToExtreme() {
        const float largest = static_cast<float>(core::limits::kMaxWindowSide);
        const ImVec2 sizes[] = {{1.0f, 1.0f}, {largest, largest}, {largest, 200.0f}, {1600.0f, 1000.0f}, {1600.0f, 1000.0f}};
        ImGui::GetIO().DisplaySize = sizes[random() % 5];
    }

    // A question view from the bar (closing the open one), the keys that open the line and next-token views, F5, or
    // Q (ask first: the digits and arrows that follow pick, count and reveal) and C (compare with a second sentence):
    // each view then meets the random inputs that follow.
    void openQuestionView() {
        const std::vector<ui::LessonInfo>& all = ui::lessons();
        switch (random() % 4) {
            case 0: ui::openLesson(app.state(), all[random() % all.size()].id); break;
            case 1: ui.pressKey(app, random() % 2 ? 'L' : 'P'); break;
            case 2: ui.pressKey(app, kKeyF5); break;
            case 3: ui.pressKey(app, random() % 2 ? 'Q' : 'C'); break;
        }
    }

    void exportStage() {
        ui::ExportRequest request;
        request.stage = app.state().stage;
        request.directory = exportDir.string();
        const std::string status = app.state().exportPng(*app.run(), request);
        // Either written, or refused in one sentence because the figure would exceed the PNG size limit (the
        // concatenation of 256 heads side by side is 17,000 pixels wide); never another failure.
        const bool written = status.rfind("Wrote", 0) == 0;
        const bool tooLarge = status.find("The figure would be") != std::string::npos;
        CHECK_MESSAGE((written || tooLarge), status);
    }
};

// Whether the loopback Hub has been asked for a file's body (its LFS bytes, served under /cdn/): the download is
// then under way, trickling.
bool bodyRequested(const HubTestServer& server) {
    const nlohmann::json stats = server.stats();  // kept: a range-for over server.stats()["paths"] would dangle
    for (const auto& path : stats["paths"]) {
        if (path.get<std::string>().starts_with("GET /cdn/")) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("soak: random actions never crash, never show an unexplained NaN, and memory stays bounded — quitting during a download does not wait for it") {
    ui::AppState state;
    state.exportPng = app::makeExportHook();
    auto soak = std::make_unique<Soak>(std::move(state));
    soak->ui.frame(soak->app);
    const int actions = actionCount();
    for (int i = 0; i < actions; ++i) {
        soak->act();
        if (i % 97 == 0) soak->app.waitForRun();  // let background runs land now and then, as a user pausing would
        const core::ModelRun* run = soak->app.run();
        if (run != nullptr && hasNaN(run->trace)) {
            REQUIRE_MESSAGE(nanIsExplained(run->trace), "action ", i, ": NaN on screen without a fully masked row");
        }
    }
    soak->app.waitForRun();
    const long peak = peakMemoryMiB();
    MESSAGE("soak: ", actions, " actions, peak resident memory ", peak, " MiB");
    CHECK(peak > 0);
    CHECK(peak < 2048);
    std::filesystem::remove_all(soak->exportDir);

    // Quit during a download: the model's body trickles for 4 s; the window closes while it does.
    const ScratchDir scratch("soak-quit");
    const std::filesystem::path gpt2 = std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models/gpt2-hf-names";
    const ScopedEnvironment cache("HF_HUB_CACHE", (scratch / "hub").string());
    const ScopedEnvironment offline("HF_HUB_OFFLINE", std::nullopt);
    const HubTestServer server({"--repo", "gpt2-hf-names=" + gpt2.string(), "--drip", "body"}, scratch / "stats.json");
    const ScopedEnvironment endpoint("HF_ENDPOINT", server.endpoint());
    ui::GetModelDialog& dialog = soak->app.getModelDialog();
    dialog.open();
    dialog.fetch("gpt2-hf-names");
    for (int i = 0; i < 500 && !bodyRequested(server); ++i) {  // at most 10 s, frames drawn meanwhile
        soak->ui.frame(soak->app);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    soak->ui.frames(soak->app, 2);  // the dialog's progress on screen, the body still trickling
    REQUIRE(bodyRequested(server));
    REQUIRE(dialog.fetching());
    soak.reset();  // Quit: the app and its window go
    CHECK(server.stats()["drips_completed"] == 0);  // closing did not wait for the body to end
}

}  // namespace attnviz::test

namespace attnviz::test {

TEST_CASE("a window resized to 1x1, or minimized to 0x0, draws every stage without a crash") {
    for (const ImVec2 size : {ImVec2(1.0f, 1.0f), ImVec2(0.0f, 0.0f), ImVec2(120.0f, 40.0f)}) {
        INFO("window ", size.x, " x ", size.y);
        ImGuiHarness ui(size);
        ui::AppState state;
        ui::App app(std::move(state));
        for (int stage = 0; stage < core::kStageCount; ++stage) {
            app.state().stage = static_cast<core::StageId>(stage);
            ui.frames(app, 2);
        }
        CHECK(app.run() != nullptr);
        CHECK(app.error().empty());
    }
}

}  // namespace attnviz::test
