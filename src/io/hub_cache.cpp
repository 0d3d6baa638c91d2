// hub_cache.cpp — repo ids, the cache's place and layout, cached snapshots. See hub_cache.h.
#include "io/hub_cache.h"

#include "io/assets.h"
#include "io/checkpoint.h"
#include "io/model_folder.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <system_error>

namespace fs = std::filesystem;

namespace attnviz::io {
namespace {

fs::path expandHome(const std::string& path) {
    if (path == "~" || path.rfind("~/", 0) == 0) return fs::path(hubSetting("HOME")) / path.substr(std::min<std::size_t>(2, path.size()));
    return path;
}

bool isRepoNameCharacter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

bool isValidRepoPart(std::string_view part) {
    if (part.empty() || part.size() > 96) return false;
    if (!std::all_of(part.begin(), part.end(), isRepoNameCharacter)) return false;
    const auto edge = [](char c) { return c == '-' || c == '.'; };
    return !edge(part.front()) && !edge(part.back());
}

bool hasControlCharacter(std::string_view text) {
    return std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

// Does any '/'-separated part of `path` equal ".." or "."?
bool hasDotSegment(std::string_view path) {
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string_view part = path.substr(start, end - start);
        if (part == ".." || part == "." || part.empty()) return true;
        start = end + 1;
    }
    return false;
}

std::string trimmed(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
    return text;
}

// refs/<revision>'s commit, or "" when there is no such ref or it does not hold a commit.
std::string commitOfRef(const fs::path& storage, const std::string& revision) {
    const fs::path ref = storage / "refs" / revision;
    std::error_code error;
    if (!fs::is_regular_file(ref, error) || fs::file_size(ref, error) > 100) return "";
    const std::string commit = trimmed(readWholeFile(ref));
    return isCommitHash(commit) ? commit : "";
}

bool isInside(const fs::path& path, const fs::path& folder) {
    const auto [end, ignored] = std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
    return end == folder.end();
}

// Every entry of the snapshot that is a link must resolve inside the cache.
void checkLinksInside(const fs::path& cache, const fs::path& snapshot) {
    std::error_code error;
    const fs::path root = fs::canonical(cache, error);
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(snapshot, error)) {
        if (!entry.is_symlink(error)) continue;
        const fs::path target = fs::weakly_canonical(entry.path(), error);
        if (error || !isInside(target, root)) {
            throw FileError(entry.path().string() + " links outside the Hugging Face cache (" + cache.string() + "); attnviz does not follow it.");
        }
    }
}

std::uint64_t snapshotBytes(const fs::path& snapshot) {
    std::uint64_t bytes = 0;
    std::error_code error;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(snapshot, error)) {
        if (entry.is_regular_file(error)) bytes += entry.file_size(error);  // follows the link to its blob
    }
    return bytes;
}

std::string modelTypeOf(const fs::path& snapshot) {
    std::error_code error;
    const fs::path config = snapshot / "config.json";
    if (!fs::is_regular_file(config, error) || fs::file_size(config, error) > (1u << 20)) return "";
    const nlohmann::json json = nlohmann::json::parse(readWholeFile(config), nullptr, false);
    if (!json.is_object() || !json.contains("model_type") || !json["model_type"].is_string()) return "";
    return json["model_type"].get<std::string>();
}

// The snapshot a listing shows for one repo folder: refs/main's, else another ref's (by name), else the newest;
// nullopt without one.
std::optional<std::pair<std::string, fs::path>> listedSnapshot(const fs::path& storage) {
    std::vector<std::string> refs{"main"};
    std::error_code error;
    std::vector<std::string> others;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(storage / "refs", error)) {
        if (entry.is_regular_file(error)) others.push_back(fs::relative(entry.path(), storage / "refs", error).generic_string());
    }
    std::sort(others.begin(), others.end());
    refs.insert(refs.end(), others.begin(), others.end());
    for (const std::string& ref : refs) {
        const std::string commit = commitOfRef(storage, ref);
        if (!commit.empty() && fs::is_directory(storage / "snapshots" / commit, error)) return std::pair{ref, storage / "snapshots" / commit};
    }
    std::optional<std::pair<std::string, fs::path>> newest;
    fs::file_time_type newestTime{};
    for (const fs::directory_entry& entry : fs::directory_iterator(storage / "snapshots", error)) {
        const std::string commit = entry.path().filename().string();
        if (!isCommitHash(commit) || !entry.is_directory(error)) continue;
        const fs::file_time_type time = entry.last_write_time(error);
        if (!newest || time > newestTime) newest = std::pair{commit, entry.path()}, newestTime = time;
    }
    return newest;
}

}  // namespace

bool isValidRepoId(std::string_view repoId) {
    if (repoId.find("--") != std::string_view::npos || repoId.find("..") != std::string_view::npos) return false;
    if (repoId.size() >= 4 && repoId.substr(repoId.size() - 4) == ".git") return false;
    const std::size_t slash = repoId.find('/');
    if (slash == std::string_view::npos) return isValidRepoPart(repoId);
    return isValidRepoPart(repoId.substr(0, slash)) && isValidRepoPart(repoId.substr(slash + 1));
}

bool isValidRevision(std::string_view revision) {
    if (revision.empty() || revision.size() > 255 || hasControlCharacter(revision)) return false;
    if (revision.find('\\') != std::string_view::npos || revision.find(' ') != std::string_view::npos) return false;
    return !hasDotSegment(revision);
}

bool isCommitHash(std::string_view text) {
    return text.size() == 40 && std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool isSafeRepoFileName(std::string_view name) {
    if (name.empty() || name.size() > 1024 || name.front() == '/' || hasControlCharacter(name)) return false;
    if (name.find('\\') != std::string_view::npos || name.find(':') != std::string_view::npos) return false;
    return !hasDotSegment(name);
}

RepoReference parseRepoReference(std::string_view text) {
    RepoReference ref;
    const std::size_t at = text.find('@');
    ref.repoId = std::string(text.substr(0, at));
    if (at != std::string_view::npos) ref.revision = std::string(text.substr(at + 1));
    if (!isValidRepoId(ref.repoId)) {
        throw FileError("\"" + ref.repoId + "\" is neither a folder nor a Hugging Face repo id (NAME or ORG/NAME of letters, digits, '-', '_', '.').");
    }
    if (!isValidRevision(ref.revision)) throw FileError("\"" + ref.revision + "\" is not a revision (a branch, a tag or a commit) of " + ref.repoId + ".");
    return ref;
}

ModelArgument parseModelArgument(std::string_view text) {
    const std::string path(text);
    const bool explicitPath = path.empty() || path.front() == '/' || path.front() == '~' || path.rfind("./", 0) == 0 ||
                              path.rfind("../", 0) == 0 || path == "." || path == "..";
    std::error_code error;
    if (explicitPath || fs::exists(path, error)) return {expandHome(path), std::nullopt};
    if (path == kBundledModelName || path == kBundledDecoderName) {  // a bundled model by name
        if (const std::optional<fs::path> folder = findAsset(fs::path("models") / path)) return {*folder, std::nullopt};
    }
    const std::size_t at = path.find('@');
    if (!isValidRepoId(path.substr(0, at))) return {path, std::nullopt};  // not a repo id: the folder's own error says why
    return {fs::path(), parseRepoReference(path)};
}

std::string hubSetting(const char* name) {
    const char* value = std::getenv(name);
    return value == nullptr ? std::string() : std::string(value);
}

fs::path hubCacheDir() {
    if (const std::string cache = hubSetting("HF_HUB_CACHE"); !cache.empty()) return expandHome(cache);
    if (const std::string cache = hubSetting("HUGGINGFACE_HUB_CACHE"); !cache.empty()) return expandHome(cache);
    if (const std::string home = hubSetting("HF_HOME"); !home.empty()) return expandHome(home) / "hub";
    if (const std::string xdg = hubSetting("XDG_CACHE_HOME"); !xdg.empty()) return expandHome(xdg) / "huggingface" / "hub";
    return fs::path(hubSetting("HOME")) / ".cache" / "huggingface" / "hub";
}

std::string repoFolderName(std::string_view repoId) {
    std::string name = "models--";
    for (const char c : repoId) {
        if (c == '/') name += "--";
        else name += c;
    }
    return name;
}

std::optional<fs::path> findCachedSnapshot(const fs::path& cache, const RepoReference& ref) {
    const fs::path storage = cache / repoFolderName(ref.repoId);
    const std::string commit = isCommitHash(ref.revision) ? ref.revision : commitOfRef(storage, ref.revision);
    if (commit.empty()) return std::nullopt;
    const fs::path snapshot = storage / "snapshots" / commit;
    std::error_code error;
    if (!fs::is_directory(snapshot, error)) return std::nullopt;
    checkLinksInside(cache, snapshot);
    return snapshot;
}

std::vector<CachedModel> listCachedModels(const fs::path& cache) {
    std::vector<CachedModel> models;
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator(cache, error)) {
        const std::string folder = entry.path().filename().string();
        if (folder.rfind("models--", 0) != 0 || !entry.is_directory(error)) continue;
        std::string repoId = folder.substr(8);
        if (const std::size_t separator = repoId.find("--"); separator != std::string::npos) {
            repoId = repoId.substr(0, separator) + "/" + repoId.substr(separator + 2);
        }
        if (!isValidRepoId(repoId)) continue;
        const auto snapshot = listedSnapshot(entry.path());
        if (!snapshot) continue;
        CachedModel model{repoId, snapshot->first, snapshot->second};
        try {
            checkLinksInside(cache, model.snapshot);
            model.family = modelTypeOf(model.snapshot);
            model.opens = checkModelFolder(model.snapshot).empty();
        } catch (const FileError&) {
            model.opens = false;  // listed, so the user sees it; opening it says why not
        }
        model.bytes = snapshotBytes(model.snapshot);
        models.push_back(std::move(model));
    }
    std::sort(models.begin(), models.end(), [](const CachedModel& a, const CachedModel& b) { return a.repoId < b.repoId; });
    return models;
}

std::string modelFolderTitle(const fs::path& folder) {
    const fs::path clean = folder.lexically_normal();
    const fs::path path = clean.has_filename() ? clean : clean.parent_path();
    const std::string repoFolder = path.parent_path().parent_path().filename().string();
    if (isCommitHash(path.filename().string()) && path.parent_path().filename() == "snapshots" && repoFolder.rfind("models--", 0) == 0) {
        std::string repoId = repoFolder.substr(8);
        if (const std::size_t separator = repoId.find("--"); separator != std::string::npos) {
            repoId = repoId.substr(0, separator) + "/" + repoId.substr(separator + 2);
        }
        if (isValidRepoId(repoId)) return repoId;
    }
    const std::string name = path.filename().string();
    return name.empty() ? clean.string() : name;
}

std::string formatBytes(std::uint64_t bytes) {
    char text[32];
    if (bytes >= 1000ull * 1000 * 1000) std::snprintf(text, sizeof text, "%.2f GB", static_cast<double>(bytes) / 1e9);
    else if (bytes >= 1000ull * 1000) std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
    else if (bytes >= 1000) std::snprintf(text, sizeof text, "%.1f kB", static_cast<double>(bytes) / 1e3);
    else std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
    return text;
}

}  // namespace attnviz::io
