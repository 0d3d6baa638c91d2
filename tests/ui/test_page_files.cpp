// test_page_files.cpp — the web page's file rules, on the desktop (app/page_files.h, app/gui_export.h's downloads
// folder, the export dialog's ExportLimits): which files of the downloads folder the page hands to the browser and
// when again, the one sentence refusing a model folder too big for WebAssembly's memory, figures exported into the
// downloads folder whatever folder the dialog held, and an export dialog that cannot choose PDF where PDF is missing.
#include "app/gui_export.h"
#include "app/page_files.h"
#include "imgui_harness.h"
#include "io/atomic_file.h"
#include "io/scratch_dir.h"
#include "ui/panels/panels.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace attnviz::test {
namespace {
namespace fs = std::filesystem;

// The names Outbox::deliverChanged hands over this time.
std::vector<std::string> delivered(app::Outbox& outbox) {
    std::vector<std::string> names;
    outbox.deliverChanged([&](const fs::path& file) { names.push_back(file.filename().string()); });
    return names;
}

}  // namespace

TEST_CASE("the page's downloads folder hands over each new or rewritten file once, never temporaries or folders") {
    const ScratchDir folder("outbox");
    app::Outbox outbox(folder.path());
    CHECK(delivered(outbox).empty());
    io::writeFileAtomically(folder.path() / "07-softmax-head0.png", "png bytes");
    io::writeFileAtomically(folder.path() / "a.svg", "<svg/>");
    std::ofstream(folder.path() / ".a.svg.tmp-0123456789abcdef") << "half written";
    fs::create_directory(folder.path() / "subfolder");
    CHECK(delivered(outbox) == std::vector<std::string>{"07-softmax-head0.png", "a.svg"});
    CHECK(delivered(outbox).empty());  // nothing changed: nothing downloads twice
    // Re-exporting the same figure, or Ctrl+S on a saved session, rewrites the file (same name, same size): again.
    io::writeFileAtomically(folder.path() / "a.svg", "<svg/>");
    CHECK(delivered(outbox) == std::vector<std::string>{"a.svg"});
    // A session the user opened is theirs already: it downloads only once the app saves it.
    io::writeFileAtomically(folder.path() / "lecture.json", "{}");
    outbox.markDelivered(folder.path() / "lecture.json");
    CHECK(delivered(outbox).empty());
    io::writeFileAtomically(folder.path() / "lecture.json", "{ }");
    CHECK(delivered(outbox) == std::vector<std::string>{"lecture.json"});
}

TEST_CASE("a model folder over 1 GB is refused in one sentence that says the page's limit and WebAssembly's memory") {
    CHECK(app::pageModelRefusal(0).empty());
    CHECK(app::pageModelRefusal(548'000'000).empty());  // GPT-2 small's model.safetensors
    CHECK(app::pageModelRefusal(app::kPageModelFileBytes).empty());
    const std::string refusal = app::pageModelRefusal(1'520'000'000);  // GPT-2 medium's
    CHECK(refusal ==
          "This model's files are 1.4 GB; the web page opens models up to 1 GB (WebAssembly gives it 4 GB of memory, and a "
          "model needs up to four times its files' size while it opens), so use the desktop app for it.");
    CHECK_FALSE(app::pageModelRefusal(app::kPageModelFileBytes + 1).empty());
}

TEST_CASE("with a downloads folder the export hook writes there whatever folder the dialog holds, and says it downloads") {
    ImGuiHarness ui({1280.0f, 800.0f});
    const ScratchDir downloads("downloads"), elsewhere("dialog-folder");
    ui::AppState state = bundledState();
    state.stage = core::StageId::Softmax;
    ui::App app(std::move(state));
    settle(ui, app);
    REQUIRE(app.run() != nullptr);
    ui::ExportRequest request = ui::exportRequestOf(app.state(), *app.run());
    request.directory = elsewhere.path().string();
    const std::string status = app::makeExportHook(downloads.path())(*app.run(), request);
    CHECK_MESSAGE(status == "Downloading 07-softmax-head0.png", status);
    CHECK(fs::is_regular_file(downloads.path() / "07-softmax-head0.png"));
    CHECK(fs::is_empty(elsewhere.path()));
    request.allStages = true;
    const std::string every = app::makeExportHook(downloads.path())(*app.run(), request);
    const bool downloading = every.starts_with("Downloading ") && every.ends_with(" figures");
    CHECK_MESSAGE(downloading, every);
}

TEST_CASE("where PDF cannot be written the export dialog says so and PDF cannot stay chosen, and the folder field gives way") {
    ImGuiHarness ui({1280.0f, 800.0f});
    ui::AppState state = bundledState();
    state.exportPng = app::makeExportHook();
    state.exportFormat = ui::ExportFormat::Pdf;  // e.g. the last desktop visit's choice, restored
    state.exportLimits = {"The page cannot write PDF.", "The figures arrive as browser downloads."};
    state.openExportDialog = true;
    ui::App app(std::move(state));
    settle(ui, app);
    CHECK(app.state().exportFormat == ui::ExportFormat::Png);
    CHECK(drawnTextAt("The page cannot write PDF.").has_value());
    CHECK(drawnTextAt("The figures arrive as browser downloads.").has_value());
    CHECK_FALSE(drawnTextAt("folder").has_value());
}

TEST_CASE("on the desktop the export dialog keeps PDF and its folder field") {
    ImGuiHarness ui({1280.0f, 800.0f});
    ui::AppState state = bundledState();
    state.exportPng = app::makeExportHook();
    state.exportFormat = ui::ExportFormat::Pdf;
    state.openExportDialog = true;
    ui::App app(std::move(state));
    settle(ui, app);
    CHECK(app.state().exportFormat == ui::ExportFormat::Pdf);
    CHECK(drawnTextAt("folder").has_value());
}

}  // namespace attnviz::test
