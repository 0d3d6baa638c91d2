// A hostile or broken Hub server against fetch (issue 31): slow answers time out and every phase hears cancel,
// bodies never grow past their announced size, API answers and shard indexes are capped, a pinned commit is
// enforced, only shards the index names are fetched, and the cache is verified before reuse and never written
// through a link. Each server is tests/reference/hub_server.py on loopback, with its fault options.
#include "hub_test_server.h"
#include "io/checkpoint.h"
#include "io/hub_answers.h"
#include "io/hub_cache.h"
#include "io/hub_fetch.h"
#include "io/model_folder.h"
#include "io/safe_read.h"
#include "io/scratch_dir.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fstream>
#include <thread>

namespace fs = std::filesystem;
using attnviz::test::HubTestServer;
using attnviz::test::ScratchDir;
using namespace attnviz;

namespace {

const fs::path kGpt2 = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models/gpt2-hf-names";
const io::RepoReference kRepo{"test/gpt2-tiny", "main"};

// Thresholds a test can wait for: 1 s below 1,000 bytes a second ends a request.
io::FetchOptions optionsFor(const HubTestServer& server, const fs::path& cache) {
    io::FetchOptions options;
    options.endpoint = server.endpoint();
    options.cache = cache;
    options.lowSpeedSeconds = 1;
    return options;
}

std::string fetchError(const io::RepoReference& ref, const io::FetchOptions& options) {
    try {
        io::fetchModel(ref, options);
    } catch (const io::FileError& error) {
        return error.what();
    }
    return "";
}

HubTestServer serve(const std::vector<std::string>& faults, const ScratchDir& scratch, const fs::path& model = kGpt2) {
    std::vector<std::string> arguments{"--repo", kRepo.repoId + "=" + model.string()};
    arguments.insert(arguments.end(), faults.begin(), faults.end());
    return HubTestServer(arguments, scratch / "stats.json");
}

// blobs/<etag> of `file` in a fetched snapshot.
fs::path blobOf(const fs::path& snapshot, const std::string& file) { return fs::canonical(snapshot / file); }

// gpt2-hf-names with its weights as the one shard model.safetensors.index.json names, the index padded with
// `padding` spaces.
fs::path shardedModel(const fs::path& folder, std::size_t padding) {
    fs::create_directories(folder);
    for (const char* name : {"config.json", "vocab.json", "merges.txt"}) fs::copy_file(kGpt2 / name, folder / name);
    fs::copy_file(kGpt2 / "model.safetensors", folder / "model-00001-of-00001.safetensors");
    const std::string weights = io::readWholeFile(kGpt2 / "model.safetensors");
    std::uint64_t headerSize = 0;
    std::memcpy(&headerSize, weights.data(), 8);
    nlohmann::json map = nlohmann::json::object();
    const nlohmann::json header = nlohmann::json::parse(weights.substr(8, headerSize));
    for (const auto& [tensor, entry] : header.items()) {
        if (tensor != "__metadata__") map[tensor] = "model-00001-of-00001.safetensors";
    }
    std::ofstream(folder / "model.safetensors.index.json") << nlohmann::json{{"weight_map", map}}.dump() << std::string(padding, ' ');
    return folder;
}

}  // namespace

TEST_CASE("hub hostile: an answer trickling at 2 bytes/s ends with a clear error in every phase, before it finishes") {
    for (const char* phase : {"listing", "head", "body"}) {
        const std::string phaseName = phase;
        CAPTURE(phaseName);
        const ScratchDir scratch("hub-drip");
        const HubTestServer server = serve({"--drip", phase}, scratch);
        const std::string error = fetchError(kRepo, optionsFor(server, scratch / "hub"));
        CAPTURE(error);
        // Before: no low-speed limit to speak of (1 byte/s): the 4 s trickle was waited out and the fetch succeeded.
        CHECK(error.find("sent less than 1000 bytes a second for 1 s; attnviz gave up") != std::string::npos);
        CHECK(error.find("Cannot reach") == std::string::npos);
        CHECK(server.stats()["drips_completed"] == 0);
    }
}

TEST_CASE("hub hostile: cancel stops the listing and a file's metadata, not only a body") {
    for (const char* phase : {"listing", "head"}) {
        const std::string phaseName = phase;
        CAPTURE(phaseName);
        const ScratchDir scratch("hub-cancel-phase");
        const HubTestServer server = serve({"--drip", phase}, scratch);
        std::atomic<bool> cancel{false};
        io::FetchOptions options = optionsFor(server, scratch / "hub");
        options.lowSpeedSeconds = 30;  // only cancel may end it early
        options.cancel = &cancel;
        const int requestsBefore = std::string(phase) == "listing" ? 1 : 2;
        std::thread canceller([&] {
            for (int i = 0; i < 500 && server.requests() < requestsBefore; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));  // at most 10 s
            cancel = true;
        });
        CHECK_THROWS_AS(io::fetchModel(kRepo, options), io::FetchCancelled);
        canceller.join();
        // Before: cancel was heard only between downloads, so the trickle ran to its end and every HEAD was made.
        CHECK(server.stats()["drips_completed"] == 0);
        CHECK(server.requests() == requestsBefore);
    }
}

TEST_CASE("hub hostile: a body running past its announced size is cut there, and nothing of it is kept") {
    const ScratchDir scratch("hub-endless");
    const HubTestServer server = serve({"--endless"}, scratch);
    io::FetchOptions options = optionsFor(server, scratch / "hub");
    std::uint64_t mostDone = 0, total = 0;
    options.onProgress = [&](const io::FetchProgress& progress) {
        mostDone = std::max(mostDone, progress.done);
        total = progress.total;
    };
    const std::string error = fetchError(kRepo, options);
    // Before: the 8 MB were all written to disk, then refused by their size ("is 8388608 bytes").
    CHECK(error.find("sent more than the") != std::string::npos);
    CHECK(error.find("it announced for test/gpt2-tiny/model.safetensors") != std::string::npos);
    CHECK(mostDone <= total);
    for (const auto& entry : fs::directory_iterator(scratch / "hub" / io::repoFolderName(kRepo.repoId) / "blobs")) {
        CHECK(entry.path().extension() != ".incomplete");
    }
}

TEST_CASE("hub hostile: an API answer too large or nested too deep is refused before it is parsed") {
    {
        const ScratchDir scratch("hub-nested");
        const HubTestServer server = serve({"--nested-answer", "1000000"}, scratch);
        // Before: a million '[' were parsed (a 4.7 GB tree for 60 MB), then "names no commit".
        CHECK(fetchError(kRepo, optionsFor(server, scratch / "hub")).find("nests deeper than 64 levels") != std::string::npos);
    }
    {
        const ScratchDir scratch("hub-padded");
        const HubTestServer server = serve({"--padded-answer", "17000000"}, scratch);
        // Before: up to 64 MB was read and parsed; this fetch succeeded.
        CHECK(fetchError(kRepo, optionsFor(server, scratch / "hub")).find("sent an answer larger than 16.0 MB") != std::string::npos);
    }
    io::ResponseHead head;
    CHECK(io::addHeaderLine(head, "HTTP/1.1 302 Found\r\n"));
    CHECK(io::addHeaderLine(head, "X-Linked-Size:  42 \r\n"));
    CHECK(head.status == 302);
    CHECK(head.header("x-linked-size") == "42");
    const std::string line = "X-Filler: " + std::string(1000, 'a') + "\r\n";
    bool accepted = true;
    for (int i = 0; i < 300 && accepted; ++i) accepted = io::addHeaderLine(head, line);
    CHECK_FALSE(accepted);  // 256 kB of headers at most
}

TEST_CASE("hub hostile: a pinned commit must be the one that answers") {
    const ScratchDir scratch("hub-pinned");
    const HubTestServer server = serve({"--any-revision"}, scratch);
    const std::string pinned(40, 'a');
    const std::string error = fetchError({kRepo.repoId, pinned}, optionsFor(server, scratch / "hub"));
    // Before: success, and refs/<pinned> claimed the pinned commit was another.
    CHECK(error.find("when asked for commit " + pinned) != std::string::npos);
    CHECK_FALSE(fs::exists(scratch / "hub" / io::repoFolderName(kRepo.repoId) / "refs"));
}

TEST_CASE("hub hostile: only the shards the index names are fetched, and the index itself is capped") {
    {
        const ScratchDir scratch("hub-shards");
        const HubTestServer server = serve({"--junk-shards", "5"}, scratch, shardedModel(scratch / "model", 0));
        // Before: every shard-like name was asked for (here a 404 ended the fetch).
        const fs::path snapshot = io::fetchModel(kRepo, optionsFor(server, scratch / "hub"));
        CHECK(io::checkModelFolder(snapshot).empty());
        const nlohmann::json stats = server.stats();
        for (const auto& path : stats["paths"]) CHECK(path.get<std::string>().find("-of-00005") == std::string::npos);
    }
    {
        const ScratchDir scratch("hub-huge-index");
        const fs::path model = shardedModel(scratch / "model", io::kMaxShardIndexBytes + 1'000'000);
        const HubTestServer server = serve({}, scratch, model);
        // Before: a 33 MB index was downloaded and read whole, by fetch and by the model folder's reader.
        CHECK(fetchError(kRepo, optionsFor(server, scratch / "hub")).find("attnviz reads shard indexes of at most 32.0 MB") != std::string::npos);
        CHECK_THROWS_WITH_AS(io::loadModelFolder(model), doctest::Contains("is 33.0 MB; a file of its kind is at most 32.0 MB"), io::FileError);
    }
}

TEST_CASE("hub hostile: a blob that is not what its name promises is fetched again, not trusted") {
    const ScratchDir scratch("hub-poisoned");
    const HubTestServer server = serve({}, scratch);
    const io::FetchOptions options = optionsFor(server, scratch / "hub");
    const fs::path snapshot = io::fetchModel(kRepo, options);
    for (const char* file : {"model.safetensors", "config.json"}) {
        const fs::path blob = blobOf(snapshot, file);
        std::string bytes = io::readWholeFile(blob);
        bytes[bytes.size() / 2] ^= 1;  // same size, other bytes
        fs::remove(blob);
        std::ofstream(blob, std::ios::binary) << bytes;
    }
    io::fetchModel(kRepo, options);
    // Before: both blobs were skipped as present, and the model stayed broken.
    CHECK(io::readWholeFile(snapshot / "model.safetensors") == io::readWholeFile(kGpt2 / "model.safetensors"));
    CHECK(io::readWholeFile(snapshot / "config.json") == io::readWholeFile(kGpt2 / "config.json"));
}

TEST_CASE("hub hostile: a link planted as a partial download is refused, and what it points to is untouched") {
    const ScratchDir scratch("hub-planted");
    const HubTestServer server = serve({}, scratch);
    const io::FetchOptions options = optionsFor(server, scratch / "hub");
    const fs::path blob = blobOf(io::fetchModel(kRepo, options), "model.safetensors");
    fs::remove(blob);
    const fs::path victim = scratch / "victim.txt";
    std::ofstream(victim) << "precious";
    fs::create_symlink(victim, blob.string() + ".incomplete");
    const std::string error = fetchError(kRepo, options);
    // Before: the download was appended to victim.txt through the link.
    CHECK(error.find("is a symbolic link; attnviz never writes through a link") != std::string::npos);
    CHECK(io::readWholeFile(victim) == "precious");
}
