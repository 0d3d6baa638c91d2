// fetch_command.cpp — `attnviz fetch REPO_ID`, `attnviz fetch --list`, and the progress line `--model REPO_ID`
// shows while a model that is not cached downloads.
//
// The progress line goes to stderr, rewritten in place ("\r"); Ctrl-C cancels the download (what arrived stays
// for the next try). `fetch` always asks the Hub (blobs already cached are not downloaded again); `--model` asks
// only when the cache cannot answer. `fetch` prints the snapshot folder on stdout, so scripts can use it.
// What this file deliberately does not do: speak HTTP or know the cache's layout (src/io/hub_fetch.h).
#include "app/cli_options.h"

#include "io/hub_catalog.h"
#include "io/hub_fetch.h"
#include "io/memory_budget.h"

#include <atomic>
#include <csignal>
#include <iostream>
#include <new>

namespace attnviz::app {
namespace {

std::atomic<bool> interrupted{false};

extern "C" void onInterrupt(int) { interrupted = true; }

// Ctrl-C cancels the fetch while this lives, then the usual handler comes back.
class InterruptCancels {
public:
    InterruptCancels() : previous_(std::signal(SIGINT, onInterrupt)) { interrupted = false; }
    ~InterruptCancels() { std::signal(SIGINT, previous_); }
    InterruptCancels(const InterruptCancels&) = delete;
    InterruptCancels& operator=(const InterruptCancels&) = delete;

private:
    void (*previous_)(int);
};

void printList(std::ostream& out) {
    out << "Suggested models (attnviz fetch NAME, or --model NAME):\n";
    for (const io::CatalogModel& model : io::kModelCatalog) {
        out << "  " << model.repoId << "  " << io::formatBytes(model.bytes) << "  " << model.licence << (model.gated ? " (gated: HF_TOKEN)" : "")
            << (io::attnvizOpensFamily(model.family) ? "" : "  [not opened by this attnviz yet]") << "\n      " << model.showsWell << '\n';
    }
    const std::filesystem::path cache = io::hubCacheDir();
    const std::vector<io::CachedModel> cached = io::listCachedModels(cache);
    out << "\nIn the Hugging Face cache (" << cache.string() << "):" << (cached.empty() ? " none" : "") << '\n';
    for (const io::CachedModel& model : cached) {
        out << "  " << model.repoId << (model.revision == "main" ? "" : "@" + model.revision) << "  " << (model.family.empty() ? "?" : model.family)
            << "  " << io::formatBytes(model.bytes) << (model.opens ? "" : "  [attnviz cannot open it]") << '\n';
    }
}

// `askHub`: fetch even when cached (`attnviz fetch`: the Hub may have moved the branch on); otherwise the cache
// answers when it can, with no network.
std::filesystem::path withProgressLine(const io::RepoReference& ref, bool askHub) {
    io::FetchOptions options = io::fetchOptionsFromEnvironment();
    const InterruptCancels interrupt;
    options.cancel = &interrupted;
    bool printed = false;
    options.onProgress = [&](const io::FetchProgress& progress) {
        std::cerr << '\r' << ref.repoId << ": " << io::formatProgress(progress) << "\x1b[K" << std::flush;
        printed = true;
    };
    try {
        const std::filesystem::path snapshot = askHub ? io::fetchModel(ref, options) : io::findOrFetchModel(ref, options);
        if (printed) std::cerr << '\n';
        return snapshot;
    } catch (...) {
        if (printed) std::cerr << '\n';
        throw;
    }
}

}  // namespace

std::filesystem::path findOrFetchWithProgressLine(const io::RepoReference& ref) { return withProgressLine(ref, false); }

int runFetch(const FetchCommandOptions& options) {
    try {
        if (options.list) {
            printList(std::cout);
            return 0;
        }
        io::RepoReference ref = io::parseRepoReference(options.repo);
        if (!options.revision.empty()) ref = io::parseRepoReference(ref.repoId + "@" + options.revision);
        std::cout << withProgressLine(ref, true).string() << '\n';
        return 0;
    } catch (const io::FileError& error) {
        std::cerr << "attnviz fetch: " << error.what() << '\n';
    } catch (const std::bad_alloc&) {
        std::cerr << "attnviz fetch: " << io::outOfMemoryMessage() << '\n';
    }
    return kExitRunError;
}

}  // namespace attnviz::app
