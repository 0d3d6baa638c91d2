// `--model REPO_ID` and `attnviz fetch` through the command line as the binary runs them, against a loopback Hub
// (tests/reference/hub_server.py): a model by repo id dumps the very bytes its folder dumps.
#include "app/command_line.h"
#include "hub_test_server.h"
#include "io/atomic_file.h"
#include "io/scratch_dir.h"

#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <iostream>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;
using namespace attnviz;
using test::HubTestServer;
using test::ScopedEnvironment;
using test::ScratchDir;

namespace {

const fs::path kGpt2 = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models/gpt2-hf-names";

// Runs `attnviz ARGS…` as main does (stdout captured, stderr to `err`), returning the exit code.
int runAttnviz(std::vector<std::string> args, std::string* out = nullptr, std::string* err = nullptr) {
    args.insert(args.begin(), "attnviz");
    std::ostringstream parseOut, parseErr, captured, capturedErr;
    const app::CommandLine line = app::parseCommandLine(args, parseOut, parseErr);
    std::streambuf* oldOut = std::cout.rdbuf(captured.rdbuf());
    std::streambuf* oldErr = std::cerr.rdbuf(capturedErr.rdbuf());
    int code = 0;
    try {
        if (line.command == app::Command::Exit) code = line.exitCode;
        else if (line.command == app::Command::Fetch) code = app::runFetch(line.fetch);
        else code = app::runDump(app::toModelSpec(line.inputs), line.dump);
    } catch (const io::FileError& error) {
        capturedErr << error.what();
        code = 2;
    }
    std::cout.rdbuf(oldOut);
    std::cerr.rdbuf(oldErr);
    if (out) *out = captured.str();
    if (err) *err = capturedErr.str() + parseErr.str();
    return code;
}

// The scratch cache and the loopback Hub, through the environment as a user sets them.
struct HubEnvironment {
    explicit HubEnvironment(const ScratchDir& scratch, std::vector<std::string> serverArguments = {"--repo", "gpt2-hf-names=" + kGpt2.string()})
        : server(std::move(serverArguments), scratch / "stats.json"),
          endpoint("HF_ENDPOINT", server.endpoint()),
          cache("HF_HUB_CACHE", (scratch / "hub").string()),
          offline("HF_HUB_OFFLINE", std::nullopt),
          token("HF_TOKEN", std::nullopt) {}
    HubTestServer server;
    ScopedEnvironment endpoint, cache, offline, token;
};

}  // namespace

TEST_CASE("dump --model REPO_ID equals dump --model <folder> bit for bit — the second time no request is made") {
    const ScratchDir scratch("hub-dump");
    const HubEnvironment hub(scratch);
    std::string err;
    REQUIRE(runAttnviz({"dump", "--model", "gpt2-hf-names", "--sentence", "the cat", "--out", (scratch / "by-id").string()}, nullptr, &err) == 0);
    CHECK(err.find("gpt2-hf-names: model.safetensors") != std::string::npos);  // the progress line
    const int requests = hub.server.requests();
    CHECK(requests > 0);
    REQUIRE(runAttnviz({"dump", "--model", "gpt2-hf-names", "--sentence", "the cat", "--out", (scratch / "again").string()}, nullptr, &err) == 0);
    CHECK(hub.server.requests() == requests);
    CHECK(err.empty());
    REQUIRE(runAttnviz({"dump", "--model", kGpt2.string(), "--sentence", "the cat", "--out", (scratch / "by-folder").string()}) == 0);

    int npyFiles = 0;
    for (const fs::directory_entry& entry : fs::directory_iterator(scratch / "by-folder")) {
        const fs::path name = entry.path().filename();
        if (name.extension() != ".npy") continue;
        ++npyFiles;
        CHECK_MESSAGE(io::readWholeFile(scratch / "by-id" / name) == io::readWholeFile(entry.path()), name.string());
    }
    CHECK(npyFiles > 10);
    nlohmann::json byId = nlohmann::json::parse(io::readWholeFile(scratch / "by-id/manifest.json"));
    nlohmann::json byFolder = nlohmann::json::parse(io::readWholeFile(scratch / "by-folder/manifest.json"));
    CHECK(byId["model"]["path"].get<std::string>().find((scratch / "hub/models--gpt2-hf-names/snapshots/").string()) == 0);
    byId["model"].erase("path");
    byFolder["model"].erase("path");
    CHECK(byId == byFolder);
}

TEST_CASE("the window's --model REPO_ID: a model not cached is fetched once the window is up, not before it opens") {
    const ScratchDir scratch("hub-window");
    const HubEnvironment hub(scratch);
    std::ostringstream out, err;
    const app::CommandLine line = app::parseCommandLine({"attnviz", "--model", "gpt2-hf-names", "--layer", "1"}, out, err);
    app::InputOptions inputs = line.inputs;
    app::GuiOptions gui = line.gui;
    app::fetchInWindow(inputs, gui);
    CHECK(gui.fetchRepo == "gpt2-hf-names");
    CHECK(gui.fetchLayer == 1);
    CHECK(inputs.model.empty());
    CHECK(inputs.layer == -1);
    CHECK(gui.inputsGiven);  // the saved inputs still do not come back
    const core::ModelSpec spec = app::toModelSpec(inputs);  // the default model until the fetch has finished
    CHECK(hub.server.requests() == 0);
    if (spec.trainedModel()) CHECK(spec.trainedModel()->bundled);

    REQUIRE(runAttnviz({"fetch", "gpt2-hf-names"}) == 0);
    for (const char* model : {"gpt2-hf-names", "random"}) {  // cached, or not a repo: opened as before
        app::InputOptions again = line.inputs;
        again.model = model;
        app::GuiOptions cached;
        app::fetchInWindow(again, cached);
        CHECK(cached.fetchRepo.empty());
        CHECK(again.model == model);
    }
    app::InputOptions folder = line.inputs;
    folder.model = kGpt2.string();
    app::GuiOptions byFolder;
    app::fetchInWindow(folder, byFolder);
    CHECK(byFolder.fetchRepo.empty());
}

TEST_CASE("attnviz fetch prints the snapshot — --revision records the ref — --list shows what is cached — errors are one line") {
    const ScratchDir scratch("hub-fetch-command");
    const HubEnvironment hub(scratch, {"--repo", "gpt2-hf-names=" + kGpt2.string(), "--tag", "v1.0"});
    std::string out, err;
    REQUIRE(runAttnviz({"fetch", "gpt2-hf-names", "--revision", "v1.0"}, &out, &err) == 0);
    const fs::path snapshot = out.substr(0, out.find('\n'));
    CHECK(fs::exists(snapshot / "model.safetensors"));
    CHECK(io::readWholeFile(scratch / "hub/models--gpt2-hf-names/refs/v1.0") == snapshot.filename().string());

    REQUIRE(runAttnviz({"fetch", "--list"}, &out) == 0);
    CHECK(out.find("gpt2-hf-names@v1.0  gpt2  ") != std::string::npos);
    CHECK(out.find("bert-base-uncased  440.0 MB  Apache-2.0") != std::string::npos);

    CHECK(runAttnviz({"fetch", "nobody/nothing"}, &out, &err) == 1);
    CHECK(err == "attnviz fetch: There is no model nobody/nothing on " + hub.server.endpoint() +
                     " (check the name; a private repo also needs HF_TOKEN).\n");
    CHECK(runAttnviz({"fetch"}, &out, &err) != 0);  // a repo id or --list is needed

    const ScopedEnvironment offline("HF_HUB_OFFLINE", "1");
    CHECK(runAttnviz({"dump", "--model", "other/model", "--out", (scratch / "d").string()}, &out, &err) != 0);
    CHECK(err.find("other/model is not in the Hugging Face cache") != std::string::npos);
}

TEST_CASE("Ctrl-C ends attnviz fetch while the Hub is still sending the file list") {
    const ScratchDir scratch("hub-interrupt");
    const HubEnvironment hub(scratch, {"--repo", "gpt2-hf-names=" + kGpt2.string(), "--drip", "listing"});
    std::thread pressCtrlC([&] {
        for (int i = 0; i < 500 && hub.server.requests() < 1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));  // at most 10 s
        std::raise(SIGINT);  // fetch's handler only sets its cancel flag
    });
    std::string out, err;
    CHECK(runAttnviz({"fetch", "gpt2-hf-names"}, &out, &err) == 1);
    pressCtrlC.join();
    CHECK(err.find("Fetching gpt2-hf-names was cancelled") != std::string::npos);
    // Before: Ctrl-C was heard only between downloads: the trickling list ran to its end and every HEAD was made.
    CHECK(hub.server.stats()["drips_completed"] == 0);
    CHECK(hub.server.requests() == 1);
}
