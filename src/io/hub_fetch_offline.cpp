// hub_fetch_offline.cpp — the parts of hub_fetch.h that need no network library: the options the environment gives,
// the cached snapshot found before any download, the progress line. The web page (scripts/web) builds this file
// without libcurl and OpenSSL; fetchModel, which downloads, is hub_fetch.cpp's on the desktop.
#include "io/hub_fetch.h"

#include "core/display_text.h"
#include "io/checkpoint.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace fs = std::filesystem;

namespace attnviz::io {
namespace {

bool isTrue(std::string value) {
    std::transform(value.begin(), value.end(), value.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return value == "1" || value == "ON" || value == "YES" || value == "TRUE";
}

}  // namespace

FetchOptions fetchOptionsFromEnvironment() {
    FetchOptions options;
    options.endpoint = hubSetting("HF_ENDPOINT");
    while (!options.endpoint.empty() && options.endpoint.back() == '/') options.endpoint.pop_back();
    if (options.endpoint.empty()) options.endpoint = "https://huggingface.co";
    options.token = hubSetting("HF_TOKEN");
    options.cache = hubCacheDir();
    options.offline = isTrue(hubSetting("HF_HUB_OFFLINE")) || isTrue(hubSetting("TRANSFORMERS_OFFLINE"));
    return options;
}

fs::path findOrFetchModel(const RepoReference& ref, const FetchOptions& options) {
    if (const auto snapshot = findCachedSnapshot(options.cache, ref)) {
        const std::string problem = checkModelFolder(*snapshot);
        if (problem.empty()) return *snapshot;
        if (options.offline) throw FileError(ref.repoId + " is in the Hugging Face cache without everything attnviz reads, and HF_HUB_OFFLINE is set: " + problem);
    }
    return fetchModel(ref, options);
}

std::string formatProgress(const FetchProgress& progress) {
    std::string line = core::echoed(progress.file) + "  " + formatBytes(progress.done) + " / " + formatBytes(progress.total);
    if (progress.bytesPerSecond > 0) line += "  " + formatBytes(static_cast<std::uint64_t>(progress.bytesPerSecond)) + "/s";
    if (progress.secondsLeft >= 0) {
        const auto seconds = static_cast<long long>(progress.secondsLeft + 0.5);
        char left[32];
        std::snprintf(left, sizeof left, "  %lld:%02lld left", seconds / 60, seconds % 60);
        line += left;
    }
    return line;
}

}  // namespace attnviz::io
