// Models by Hub repo id: the Hugging Face cache as huggingface_hub writes it, and fetching into it from a loopback
// Hub (tests/reference/hub_server.py) that speaks the Hub's endpoints and headers, with its fault modes.
#include "hub_test_server.h"
#include "io/hub_cache.h"
#include "io/hub_fetch.h"
#include "io/model_folder.h"
#include "io/scratch_dir.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <set>

namespace fs = std::filesystem;
using attnviz::test::HubTestServer;
using attnviz::test::ScopedEnvironment;
using attnviz::test::ScratchDir;
using namespace attnviz;

namespace {

const fs::path kGpt2 = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models/gpt2-hf-names";
const fs::path kBert = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models/bert-plain-f16";

io::FetchOptions optionsFor(const HubTestServer& server, const fs::path& cache) {
    io::FetchOptions options;
    options.endpoint = server.endpoint();
    options.cache = cache;
    return options;
}

// Every path under `root` (relative), with " -> target" for links: the layout to compare.
std::set<std::string> layout(const fs::path& root) {
    std::set<std::string> entries;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root)) {
        std::string line = fs::relative(entry.path(), root).string();
        if (entry.is_symlink()) line += " -> " + fs::read_symlink(entry.path()).string();
        entries.insert(line);
    }
    return entries;
}

bool hasSnapshot(const fs::path& cache, const std::string& repoId) {
    const fs::path snapshots = cache / io::repoFolderName(repoId) / "snapshots";
    return fs::exists(snapshots) && !fs::is_empty(snapshots);
}

std::string fetchError(const io::RepoReference& ref, const io::FetchOptions& options) {
    try {
        io::fetchModel(ref, options);
    } catch (const io::FileError& error) {
        return error.what();
    }
    return "";
}

}  // namespace

TEST_CASE("hub: a bundled model's name names its folder in the assets, not a repo to download") {
    for (const std::string_view name : {io::kBundledDecoderName, io::kBundledModelName}) {
        const io::ModelArgument argument = io::parseModelArgument(name);
        CAPTURE(name);
        CHECK_FALSE(argument.repo);
        CHECK(argument.folder.filename() == name);
        CHECK(fs::exists(argument.folder / "config.json"));
    }
}

TEST_CASE("hub: --model is a folder when it is a path or an existing folder, else a repo id") {
    const ScratchDir scratch("hub-argument");
    const ScopedEnvironment home("HOME", scratch.path().string());
    CHECK(io::parseModelArgument("/models/gpt2").folder == "/models/gpt2");
    CHECK(io::parseModelArgument("./gpt2").folder == "./gpt2");
    CHECK(io::parseModelArgument("~/models/gpt2").folder == scratch.path() / "models/gpt2");
    CHECK_FALSE(io::parseModelArgument("/models/gpt2").repo);

    const io::ModelArgument repo = io::parseModelArgument("sentence-transformers/all-MiniLM-L6-v2@v1.0");
    REQUIRE(repo.repo);
    CHECK(repo.repo->repoId == "sentence-transformers/all-MiniLM-L6-v2");
    CHECK(repo.repo->revision == "v1.0");
    CHECK(io::parseModelArgument("gpt2").repo->revision == "main");

    // A folder that exists relative to the working directory wins over the repo id it also spells.
    const fs::path before = fs::current_path();
    fs::create_directories(scratch / "gpt2");
    fs::current_path(scratch.path());
    const io::ModelArgument local = io::parseModelArgument("gpt2");
    fs::current_path(before);
    CHECK_FALSE(local.repo);
    CHECK(local.folder == "gpt2");
    // Not a repo id (three parts): a folder, so the folder's own error says what is wrong.
    CHECK_FALSE(io::parseModelArgument("a/b/c").repo);
}

TEST_CASE("hub: repo ids, revisions and file names are checked as huggingface_hub does, and stricter") {
    for (const char* good : {"gpt2", "bert-base-uncased", "Qwen/Qwen2.5-0.5B", "meta-llama/Llama-3.2-1B", "a_b.c/d"}) CHECK_MESSAGE(io::isValidRepoId(good), good);
    for (const char* bad : {"", "a/b/c", "../x", "a/..", "a--b", "-a", "a.", "a.git", "/abs", "a b", "a\\b", "é"}) CHECK_MESSAGE(!io::isValidRepoId(bad), bad);
    for (const char* good : {"main", "v1.0", "refs/pr/1", "0123456789abcdef0123456789abcdef01234567"}) CHECK_MESSAGE(io::isValidRevision(good), good);
    for (const char* bad : {"", "..", "a/../b", "/main", "a\\b", "a\nb", "a b"}) CHECK_MESSAGE(!io::isValidRevision(bad), bad);
    for (const char* good : {"config.json", "onnx/model.onnx", "model-00001-of-00002.safetensors"}) CHECK_MESSAGE(io::isSafeRepoFileName(good), good);
    for (const char* bad : {"", "../escape.json", "a/../../b", "/etc/passwd", "a\\b", "a\x01", "C:x", "a//b", "./a"}) CHECK_MESSAGE(!io::isSafeRepoFileName(bad), bad);
    CHECK(io::repoFolderName("sentence-transformers/all-MiniLM-L6-v2") == "models--sentence-transformers--all-MiniLM-L6-v2");
    CHECK_THROWS_WITH_AS(io::parseRepoReference("gpt2@../x"), doctest::Contains("is not a revision"), io::FileError);
}

TEST_CASE("hub: the cache is $HF_HUB_CACHE, else $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub") {
    const ScopedEnvironment home("HOME", "/home/student");
    ScopedEnvironment hubCache("HF_HUB_CACHE", std::nullopt), legacy("HUGGINGFACE_HUB_CACHE", std::nullopt), hfHome("HF_HOME", std::nullopt),
        xdg("XDG_CACHE_HOME", std::nullopt);
    CHECK(io::hubCacheDir() == "/home/student/.cache/huggingface/hub");
    {
        const ScopedEnvironment set("XDG_CACHE_HOME", "/xdg");
        CHECK(io::hubCacheDir() == "/xdg/huggingface/hub");
        const ScopedEnvironment setHome("HF_HOME", "~/hf");
        CHECK(io::hubCacheDir() == "/home/student/hf/hub");
        const ScopedEnvironment setCache("HF_HUB_CACHE", "/big/disk/hub");
        CHECK(io::hubCacheDir() == "/big/disk/hub");
    }
}

TEST_CASE("hub: a cache written the way huggingface_hub writes it opens with no request, and is listed") {
    const ScratchDir scratch("hub-cache");
    const fs::path cache = scratch / "hub";
    test::runHubScript({"write-cache", "--repo", "test/gpt2-tiny=" + kGpt2.string(), "--repo", "bert-tiny=" + kBert.string(), "--cache", cache.string()});
    const HubTestServer server({"--repo", "test/gpt2-tiny=" + kGpt2.string()}, scratch / "stats.json");

    const fs::path snapshot = io::findOrFetchModel(io::parseRepoReference("test/gpt2-tiny"), optionsFor(server, cache));
    CHECK(server.requests() == 0);
    const auto model = io::loadModelFolder(snapshot);
    const auto original = io::loadModelFolder(kGpt2);
    CHECK(model->name == "test/gpt2-tiny");
    CHECK(model->transformer.weights.blocks.size() == original->transformer.weights.blocks.size());
    CHECK(model->transformer.weights.tokenEmbeddings == original->transformer.weights.tokenEmbeddings);

    // By commit too: REPO@<commit> opens that snapshot.
    const std::string commit = snapshot.filename().string();
    CHECK(io::findOrFetchModel(io::parseRepoReference("test/gpt2-tiny@" + commit), optionsFor(server, cache)) == snapshot);
    CHECK(server.requests() == 0);

    CHECK(io::modelFolderTitle(snapshot) == "test/gpt2-tiny");
    CHECK(io::modelFolderTitle(kGpt2) == "gpt2-hf-names");
    CHECK(io::modelFolderTitle(kGpt2 / "") == "gpt2-hf-names");

    const std::vector<io::CachedModel> listed = io::listCachedModels(cache);
    REQUIRE(listed.size() == 2);
    CHECK(listed[0].repoId == "bert-tiny");
    CHECK(listed[0].family == "bert");
    CHECK(listed[1].repoId == "test/gpt2-tiny");
    CHECK(listed[1].family == "gpt2");
    CHECK(listed[1].revision == "main");
    CHECK(listed[1].opens);
    std::uint64_t bytes = 0;
    for (const auto& entry : fs::directory_iterator(kGpt2)) bytes += entry.file_size();
    CHECK(listed[1].bytes == bytes);
}

TEST_CASE("hub: fetch writes the cache exactly as huggingface_hub does, and a second open makes no request") {
    const ScratchDir scratch("hub-fetch");
    const HubTestServer server({"--repo", "test/gpt2-tiny=" + kGpt2.string()}, scratch / "stats.json");
    std::vector<io::FetchProgress> reports;
    io::FetchOptions options = optionsFor(server, scratch / "hub");
    options.onProgress = [&](const io::FetchProgress& progress) { reports.push_back(progress); };
    const fs::path snapshot = io::fetchModel(io::parseRepoReference("test/gpt2-tiny"), options);

    test::runHubScript({"write-cache", "--repo", "test/gpt2-tiny=" + kGpt2.string(), "--cache", (scratch / "reference").string()});
    const std::string folder = io::repoFolderName("test/gpt2-tiny");
    CHECK(layout(scratch / "hub" / folder) == layout(scratch / "reference" / folder));
    CHECK(io::readWholeFile(scratch / "hub" / folder / "refs/main") == io::readWholeFile(scratch / "reference" / folder / "refs/main"));
    for (const auto& entry : fs::directory_iterator(kGpt2)) {
        CHECK(io::readWholeFile(snapshot / entry.path().filename()) == io::readWholeFile(entry.path()));
    }
    REQUIRE_FALSE(reports.empty());
    CHECK(reports.back().done == reports.back().total);
    CHECK(reports.back().total == fs::file_size(kGpt2 / "model.safetensors") + fs::file_size(kGpt2 / "config.json") +
                                      fs::file_size(kGpt2 / "vocab.json") + fs::file_size(kGpt2 / "merges.txt"));

    const int requests = server.requests();
    CHECK(requests == 9);  // the file list, a HEAD per file, a GET per file (the weights straight from the CDN)
    CHECK(io::findOrFetchModel(io::parseRepoReference("test/gpt2-tiny"), options) == snapshot);
    CHECK(server.requests() == requests);
    // Fetching again asks the Hub, but downloads nothing it already has.
    io::fetchModel(io::parseRepoReference("test/gpt2-tiny"), options);
    CHECK(server.requests() == requests + 5);
}

TEST_CASE("hub: a dropped connection mid-file resumes with Range") {
    const ScratchDir scratch("hub-drop");
    const HubTestServer server({"--repo", "test/gpt2-tiny=" + kGpt2.string(), "--drop-after", "100000"}, scratch / "stats.json");
    const fs::path snapshot = io::fetchModel(io::parseRepoReference("test/gpt2-tiny"), optionsFor(server, scratch / "hub"));
    CHECK(server.stats()["ranges"] == nlohmann::json::array({"bytes=100000-"}));
    CHECK(io::readWholeFile(snapshot / "model.safetensors") == io::readWholeFile(kGpt2 / "model.safetensors"));
}

TEST_CASE("hub: a corrupted byte is refused, and nothing enters snapshots or blobs") {
    const ScratchDir scratch("hub-corrupt");
    const HubTestServer server({"--repo", "test/gpt2-tiny=" + kGpt2.string(), "--corrupt"}, scratch / "stats.json");
    const std::string error = fetchError(io::parseRepoReference("test/gpt2-tiny"), optionsFor(server, scratch / "hub"));
    CHECK(error.find("Refused test/gpt2-tiny/model.safetensors") != std::string::npos);
    CHECK(error.find("sha256") != std::string::npos);
    CHECK_FALSE(hasSnapshot(scratch / "hub", "test/gpt2-tiny"));
    CHECK_FALSE(fs::exists(scratch / "hub" / io::repoFolderName("test/gpt2-tiny") / "refs"));
    for (const auto& blob : fs::directory_iterator(scratch / "hub" / io::repoFolderName("test/gpt2-tiny") / "blobs")) {
        CHECK(blob.path().filename().string().size() == 40);  // the small files only: no weights, no .incomplete
    }
}

TEST_CASE("hub: a gated repo says to accept the licence without HF_TOKEN and opens with it — the CDN never sees the token") {
    const ScratchDir scratch("hub-gated");
    const HubTestServer server({"--repo", "meta/gated=" + kGpt2.string(), "--gated", "meta/gated", "--token", "hf_secret"}, scratch / "stats.json");
    io::FetchOptions options = optionsFor(server, scratch / "hub");
    const std::string error = fetchError(io::parseRepoReference("meta/gated"), options);
    CHECK(error.find("accept the licence on " + server.endpoint() + "/meta/gated and set HF_TOKEN") != std::string::npos);
    options.token = "hf_wrong";
    CHECK(fetchError(io::parseRepoReference("meta/gated"), options).find("accept the licence") != std::string::npos);
    options.token = "hf_secret";
    const fs::path snapshot = io::fetchModel(io::parseRepoReference("meta/gated"), options);
    CHECK(io::readWholeFile(snapshot / "model.safetensors") == io::readWholeFile(kGpt2 / "model.safetensors"));
    CHECK(server.stats()["cdn_authorization"] == 0);
}

TEST_CASE("hub: an unknown repo, revision or offline mode says so — offline asks nothing") {
    const ScratchDir scratch("hub-unknown");
    const HubTestServer server({"--repo", "test/gpt2-tiny=" + kGpt2.string()}, scratch / "stats.json");
    io::FetchOptions options = optionsFor(server, scratch / "hub");
    CHECK(fetchError(io::parseRepoReference("test/nothing"), options) ==
          "There is no model test/nothing on " + server.endpoint() + " (check the name; a private repo also needs HF_TOKEN).");
    CHECK(fetchError(io::parseRepoReference("test/gpt2-tiny@v9"), options) == "test/gpt2-tiny has no revision \"v9\" on " + server.endpoint() + ".");
    const int requests = server.requests();
    options.offline = true;
    CHECK(fetchError(io::parseRepoReference("test/gpt2-tiny"), options).find("HF_HUB_OFFLINE is set") != std::string::npos);
    CHECK(server.requests() == requests);
    // Cached by a tool that took only some files (here no weights): offline says what is missing.
    test::runHubScript({"write-cache", "--repo", "test/gpt2-tiny=" + kGpt2.string(), "--cache", (scratch / "partial").string()});
    const auto partial = io::findCachedSnapshot(scratch / "partial", io::parseRepoReference("test/gpt2-tiny"));
    REQUIRE(partial);
    fs::remove(*partial / "model.safetensors");
    options.cache = scratch / "partial";
    try {
        io::findOrFetchModel(io::parseRepoReference("test/gpt2-tiny"), options);
        FAIL("an incomplete snapshot opened offline");
    } catch (const io::FileError& error) {
        CHECK(std::string(error.what()).find("without everything attnviz reads") != std::string::npos);
        CHECK(std::string(error.what()).find("no model.safetensors") != std::string::npos);
    }
    CHECK(server.requests() == requests);
    // A repo without safetensors weights is refused before anything is downloaded.
    const ScratchDir binOnly("hub-bin");
    std::ofstream(binOnly / "config.json") << R"({"model_type": "gpt2"})";
    std::ofstream(binOnly / "pytorch_model.bin") << "pickle";
    const HubTestServer binServer({"--repo", "old/bin=" + binOnly.path().string()}, scratch / "stats-bin.json");
    CHECK(fetchError(io::parseRepoReference("old/bin"), optionsFor(binServer, scratch / "hub")).find("has no model.safetensors") != std::string::npos);
}

TEST_CASE("hub: cancel stops a slow download soon — the next fetch resumes what arrived") {
    const ScratchDir scratch("hub-cancel");
    std::atomic<bool> cancel{false};
    {
        const HubTestServer slow({"--repo", "test/gpt2-tiny=" + kGpt2.string(), "--slow"}, scratch / "stats-slow.json");
        io::FetchOptions options = optionsFor(slow, scratch / "hub");
        options.cancel = &cancel;
        std::chrono::steady_clock::time_point cancelledAt{};
        options.onProgress = [&](const io::FetchProgress& progress) {
            if (progress.file == "model.safetensors" && progress.done > 30000 && !cancel) {
                cancel = true;
                cancelledAt = std::chrono::steady_clock::now();
            }
        };
        CHECK_THROWS_AS(io::fetchModel(io::parseRepoReference("test/gpt2-tiny"), options), io::FetchCancelled);
        CHECK(std::chrono::steady_clock::now() - cancelledAt < std::chrono::seconds(2));
    }
    CHECK_FALSE(hasSnapshot(scratch / "hub", "test/gpt2-tiny"));
    const HubTestServer server({"--repo", "test/gpt2-tiny=" + kGpt2.string()}, scratch / "stats.json");
    const fs::path snapshot = io::fetchModel(io::parseRepoReference("test/gpt2-tiny"), optionsFor(server, scratch / "hub"));
    const nlohmann::json ranges = server.stats()["ranges"];
    REQUIRE(ranges.size() == 1);
    CHECK(std::stoul(ranges[0].get<std::string>().substr(6)) > 0);
    CHECK(io::readWholeFile(snapshot / "model.safetensors") == io::readWholeFile(kGpt2 / "model.safetensors"));
}

TEST_CASE("hub: a renamed repo's redirect is followed — a tag is recorded in refs and opens by name") {
    const ScratchDir scratch("hub-rename");
    const HubTestServer server({"--repo", "new/name=" + kGpt2.string(), "--rename", "old/name=new/name", "--tag", "v1.0"}, scratch / "stats.json");
    const io::FetchOptions options = optionsFor(server, scratch / "hub");
    const fs::path snapshot = io::fetchModel(io::parseRepoReference("old/name@v1.0"), options);
    const fs::path storage = scratch / "hub" / io::repoFolderName("old/name");
    CHECK(snapshot.parent_path().parent_path() == storage);
    CHECK(io::readWholeFile(storage / "refs/v1.0") == snapshot.filename().string());
    CHECK_FALSE(fs::exists(storage / "refs/main"));
    CHECK(io::findCachedSnapshot(scratch / "hub", io::parseRepoReference("old/name@v1.0")) == snapshot);
    CHECK_FALSE(io::findCachedSnapshot(scratch / "hub", io::parseRepoReference("old/name")));
}

TEST_CASE("hub: a hostile file name, a link out of the cache and a download bigger than the disk are refused") {
    const ScratchDir scratch("hub-hostile");
    {
        const HubTestServer server({"--repo", "test/gpt2-tiny=" + kGpt2.string(), "--hostile-name"}, scratch / "stats.json");
        CHECK(fetchError(io::parseRepoReference("test/gpt2-tiny"), optionsFor(server, scratch / "hub")).find("refuses: \"../escape.json\"") !=
              std::string::npos);
        CHECK_FALSE(fs::exists(scratch / "hub"));
    }
    {
        const HubTestServer server({"--repo", "test/gpt2-tiny=" + kGpt2.string(), "--huge"}, scratch / "stats-huge.json");
        CHECK(fetchError(io::parseRepoReference("test/gpt2-tiny"), optionsFor(server, scratch / "hub")).find("Not enough room") != std::string::npos);
        CHECK_FALSE(hasSnapshot(scratch / "hub", "test/gpt2-tiny"));
    }
    test::runHubScript({"write-cache", "--repo", "test/gpt2-tiny=" + kGpt2.string(), "--cache", (scratch / "cache").string()});
    const auto snapshot = io::findCachedSnapshot(scratch / "cache", io::parseRepoReference("test/gpt2-tiny"));
    REQUIRE(snapshot);
    fs::remove(*snapshot / "vocab.json");
    fs::create_symlink(kGpt2 / "vocab.json", *snapshot / "vocab.json");
    CHECK_THROWS_WITH_AS(io::findCachedSnapshot(scratch / "cache", io::parseRepoReference("test/gpt2-tiny")),
                         doctest::Contains("links outside the Hugging Face cache"), io::FileError);
}
