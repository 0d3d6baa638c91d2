// hub_fetch.cpp — the Hub's API, HEAD and resumable GET over libcurl, checked into the cache. See hub_fetch.h.
#include "io/hub_fetch.h"

#include "io/checkpoint.h"

#include <curl/curl.h>
#include <nlohmann/json.hpp>
#include <openssl/evp.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <vector>

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace attnviz::io {
namespace {

// [SECTION] what attnviz reads of a repo

bool isWantedFile(const std::string& name) {
    static const std::set<std::string> wanted{
        "config.json", "model.safetensors", "model.safetensors.index.json", "tokenizer.json", "tokenizer_config.json",
        "vocab.txt", "vocab.json", "merges.txt", "special_tokens_map.json", "heads.json", "README.md"};
    if (wanted.count(name) > 0) return true;
    // Shards named in model.safetensors.index.json: model-00001-of-00002.safetensors
    return name.rfind("model-", 0) == 0 && name.find("-of-") != std::string::npos && name.size() > 12 &&
           name.substr(name.size() - 12) == ".safetensors" && name.find('/') == std::string::npos;
}

// [SECTION] small helpers

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value == nullptr ? std::string() : std::string(value);
}

bool isTrue(std::string value) {
    std::transform(value.begin(), value.end(), value.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return value == "1" || value == "ON" || value == "YES" || value == "TRUE";
}

// Percent-encoding of everything but unreserved characters (and '/' when `keepSlash`), as urllib's quote.
std::string quote(std::string_view text, bool keepSlash) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~' || (keepSlash && c == '/')) out += c;
        else out += {'%', hex[u >> 4], hex[u & 15]};
    }
    return out;
}

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// "scheme://host:port" of a URL, lower-cased: where a token may go.
std::string originOf(const std::string& url) {
    const std::size_t scheme = url.find("://");
    if (scheme == std::string::npos) return "";
    const std::size_t end = url.find('/', scheme + 3);
    return lower(url.substr(0, end));
}

// W/"abc" or "abc" → abc (huggingface_hub's _normalize_etag).
std::string normalizeEtag(std::string etag) {
    if (etag.rfind("W/", 0) == 0) etag.erase(0, 2);
    etag.erase(std::remove(etag.begin(), etag.end(), '"'), etag.end());
    return etag;
}

bool isHex(std::string_view text, std::size_t length) {
    return text.size() == length && std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// A blob's name: what the cache files it under, so it must stay one plain file name.
bool isSafeEtag(std::string_view etag) {
    if (etag.empty() || etag.size() > 128 || etag == "." || etag == "..") return false;
    return std::all_of(etag.begin(), etag.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; });
}

// [SECTION] checksums (OpenSSL's EVP digests)

std::string digestFile(const fs::path& path, const EVP_MD* algorithm, std::string_view prefix) {
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    std::unique_ptr<std::FILE, decltype(&std::fclose)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!context || !file || EVP_DigestInit_ex(context.get(), algorithm, nullptr) != 1) throw FileError("Cannot read " + path.string() + " to check it.");
    EVP_DigestUpdate(context.get(), prefix.data(), prefix.size());
    std::vector<char> buffer(1 << 20);
    while (const std::size_t count = std::fread(buffer.data(), 1, buffer.size(), file.get())) EVP_DigestUpdate(context.get(), buffer.data(), count);
    if (std::ferror(file.get())) throw FileError("Cannot read " + path.string() + " to check it.");
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(context.get(), digest, &length);
    static const char* hex = "0123456789abcdef";
    std::string text;
    for (unsigned int i = 0; i < length; ++i) text += {hex[digest[i] >> 4], hex[digest[i] & 15]};
    return text;
}

// [SECTION] HTTP over libcurl

struct Response {
    long status = 0;
    std::map<std::string, std::string> headers;  // the last response's, names lower-case
    std::string body;                            // API answers and error pages (capped), not downloads
    std::string header(const std::string& name) const {
        const auto found = headers.find(name);
        return found == headers.end() ? "" : found->second;
    }
};

void initCurlOnce() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

class Http {
public:
    Http(const FetchOptions& options, std::string endpoint) : options_(options), endpoint_(std::move(endpoint)) {
        initCurlOnce();
        curl_ = curl_easy_init();
        if (curl_ == nullptr) throw FileError("Cannot start an HTTP session (libcurl).");
    }
    ~Http() { curl_easy_cleanup(curl_); }
    Http(const Http&) = delete;
    Http& operator=(const Http&) = delete;

    // GET of a small answer, following redirects (a renamed repo).
    Response getSmall(const std::string& url) {
        Response response;
        prepare(url, response, true);
        curl_easy_setopt(curl_, CURLOPT_WRITEFUNCTION, &Http::appendBody);
        curl_easy_setopt(curl_, CURLOPT_WRITEDATA, &response);
        perform();
        return response;
    }

    // HEAD that follows only relative redirects, as huggingface_hub does: an absolute Location is the CDN.
    Response head(std::string url, std::string& finalUrl) {
        for (int redirects = 0;; ++redirects) {
            Response response;
            prepare(url, response, false);
            curl_easy_setopt(curl_, CURLOPT_NOBODY, 1L);
            perform();
            const std::string location = response.header("location");
            const bool redirect = response.status >= 300 && response.status < 400 && !location.empty();
            if (!redirect || location.front() != '/' || redirects == 5) {
                finalUrl = redirect ? location : url;
                return response;
            }
            url = originOf(url) + location;
        }
    }

    // GET into `file` from byte `offset` (Range). Returns the response (body empty unless an error page); sets
    // `reset` when the server ignored the Range and `file` was emptied. curlCode tells a dropped connection.
    Response download(const std::string& url, std::FILE* file, std::uint64_t offset, const std::function<bool(std::uint64_t)>& onBytes,
                      CURLcode& curlCode) {
        Response response;
        Sink sink{&response, file, offset, onBytes, this};
        prepare(url, response, true);
        if (offset > 0) curl_easy_setopt(curl_, CURLOPT_RANGE, (std::to_string(offset) + "-").c_str());
        curl_easy_setopt(curl_, CURLOPT_WRITEFUNCTION, &Http::writeFile);
        curl_easy_setopt(curl_, CURLOPT_WRITEDATA, &sink);
        curl_easy_setopt(curl_, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(curl_, CURLOPT_XFERINFOFUNCTION, &Http::onTransfer);
        curl_easy_setopt(curl_, CURLOPT_XFERINFODATA, &sink);
        curlCode = curl_easy_perform(curl_);
        curl_easy_setopt(curl_, CURLOPT_RANGE, nullptr);
        curl_easy_setopt(curl_, CURLOPT_NOPROGRESS, 1L);
        if (cancelled()) throw FetchCancelled("cancelled");
        if (sink.failed) throw FileError("Cannot write the download into the cache (disk full?).");
        return response;
    }

    bool cancelled() const { return options_.cancel != nullptr && options_.cancel->load(); }

    // A transport failure (no HTTP answer) as one sentence.
    std::string transportError(CURLcode code) const {
        return "Cannot reach " + endpoint_ + ": " + (errorText_[0] != '\0' ? std::string(errorText_) : curl_easy_strerror(code)) + ".";
    }

private:
    struct Sink {
        Response* response;
        std::FILE* file;
        std::uint64_t offset;
        const std::function<bool(std::uint64_t)>& onBytes;
        Http* http;
        std::uint64_t written = 0;
        bool started = false;
        bool failed = false;
    };

    void prepare(const std::string& url, Response& response, bool followRedirects) {
        curl_easy_reset(curl_);
        errorText_[0] = '\0';
        curl_easy_setopt(curl_, CURLOPT_URL, url.c_str());
        curl_easy_setopt(curl_, CURLOPT_ERRORBUFFER, errorText_);
        curl_easy_setopt(curl_, CURLOPT_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(curl_, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(curl_, CURLOPT_SSL_VERIFYPEER, 1L);
        curl_easy_setopt(curl_, CURLOPT_SSL_VERIFYHOST, 2L);
        curl_easy_setopt(curl_, CURLOPT_FOLLOWLOCATION, followRedirects ? 1L : 0L);
        curl_easy_setopt(curl_, CURLOPT_MAXREDIRS, 5L);
        curl_easy_setopt(curl_, CURLOPT_CONNECTTIMEOUT, 10L);
        curl_easy_setopt(curl_, CURLOPT_LOW_SPEED_LIMIT, 1L);   // a stalled transfer ends after 30 s
        curl_easy_setopt(curl_, CURLOPT_LOW_SPEED_TIME, 30L);
        curl_easy_setopt(curl_, CURLOPT_USERAGENT, "attnviz");
        curl_easy_setopt(curl_, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(curl_, CURLOPT_HEADERFUNCTION, &Http::onHeader);
        curl_easy_setopt(curl_, CURLOPT_HEADERDATA, &response);
        headerList_.reset();
        curl_slist* list = curl_slist_append(nullptr, "Accept-Encoding: identity");
        // The token goes to the endpoint only: never with a first request to another host (the CDN), and libcurl
        // drops it on a redirect to another host (CURLOPT_UNRESTRICTED_AUTH stays off).
        if (!options_.token.empty() && originOf(url) == originOf(endpoint_)) {
            list = curl_slist_append(list, ("Authorization: Bearer " + options_.token).c_str());
        }
        headerList_.reset(list);
        curl_easy_setopt(curl_, CURLOPT_HTTPHEADER, list);
    }

    void perform() {
        const CURLcode code = curl_easy_perform(curl_);
        if (code != CURLE_OK) throw FileError(transportError(code));
    }

    static std::size_t onHeader(char* data, std::size_t size, std::size_t count, void* user) {
        auto* response = static_cast<Response*>(user);
        const std::string line(data, size * count);
        if (line.rfind("HTTP/", 0) == 0) {  // a new response (after a redirect or 100 Continue): start over
            response->headers.clear();
            const std::size_t space = line.find(' ');
            response->status = space == std::string::npos ? 0 : std::strtol(line.c_str() + space + 1, nullptr, 10);
            return size * count;
        }
        const std::size_t colon = line.find(':');
        if (colon != std::string::npos) {
            std::string value = line.substr(colon + 1);
            while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front()))) value.erase(0, 1);
            while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.pop_back();
            response->headers[lower(line.substr(0, colon))] = value;
        }
        return size * count;
    }

    static std::size_t appendBody(char* data, std::size_t size, std::size_t count, void* user) {
        auto* response = static_cast<Response*>(user);
        if (response->body.size() + size * count > (64u << 20)) return 0;  // an API answer is never this big
        response->body.append(data, size * count);
        return size * count;
    }

    static std::size_t writeFile(char* data, std::size_t size, std::size_t count, void* user) {
        auto* sink = static_cast<Sink*>(user);
        const std::size_t bytes = size * count;
        if (sink->response->status >= 300) return appendBody(data, size, count, sink->response);  // an error page
        if (!sink->started) {
            sink->started = true;
            if (sink->offset > 0 && sink->response->status == 200) {  // the server ignored Range: start over
                if (::ftruncate(::fileno(sink->file), 0) != 0) return 0;
                std::rewind(sink->file);
                sink->offset = 0;
            }
        }
        if (std::fwrite(data, 1, bytes, sink->file) != bytes) {
            sink->failed = true;
            return 0;
        }
        sink->written += bytes;
        return bytes;
    }

    static int onTransfer(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
        auto* sink = static_cast<Sink*>(user);
        if (sink->http->cancelled()) return 1;
        return sink->onBytes(sink->offset + sink->written) ? 0 : 1;
    }

    const FetchOptions& options_;
    std::string endpoint_;
    CURL* curl_ = nullptr;
    char errorText_[CURL_ERROR_SIZE] = {};
    std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headerList_{nullptr, &curl_slist_free_all};
};

// [SECTION] the Hub's answers as one sentence each

[[noreturn]] void throwHttpError(const Response& response, const RepoReference& ref, const std::string& endpoint, const std::string& file) {
    const std::string page = endpoint + "/" + ref.repoId;
    const std::string code = response.header("x-error-code");
    if (response.status == 401 || response.status == 403) {
        throw FileError(ref.repoId + " is gated or private: accept the licence on " + page + " and set HF_TOKEN to a token of that account" +
                        (std::getenv("HF_TOKEN") != nullptr ? " (the HF_TOKEN given was refused)." : "."));
    }
    if (response.status == 404) {
        if (code == "RevisionNotFound") throw FileError(ref.repoId + " has no revision \"" + ref.revision + "\" on " + endpoint + ".");
        if (code == "EntryNotFound" || (!file.empty() && code != "RepoNotFound")) {
            throw FileError(ref.repoId + "@" + ref.revision + " has no file " + file + " on " + endpoint + ".");
        }
        throw FileError("There is no model " + ref.repoId + " on " + endpoint + " (check the name; a private repo also needs HF_TOKEN).");
    }
    throw FileError(endpoint + " answered HTTP " + std::to_string(response.status) + " for " + ref.repoId + (file.empty() ? "" : "/" + file) +
                    "; try again later.");
}

// [SECTION] the plan: which files, their blobs and sizes

struct PlannedFile {
    std::string name;
    std::string etag;           // the blob's name: sha256 for LFS files, git blob sha1 otherwise
    std::uint64_t size = 0;
    bool lfs = false;
    std::string url;            // where the bytes are (the resolve URL, or the CDN it redirects to)
    bool gitHashed = false;     // etag is the git blob sha1 (the API's blobId): checkable
};

struct Plan {
    std::string commit;
    std::vector<PlannedFile> files;
};

struct Sibling {
    std::string name;
    std::optional<std::string> lfsSha256;
    std::string blobId;         // the git object id ("blobId")
};

// Step 1: the commit and the files of the revision.
std::pair<std::string, std::vector<Sibling>> listRevision(Http& http, const RepoReference& ref, const std::string& endpoint) {
    const std::string url = endpoint + "/api/models/" + ref.repoId + "/revision/" + quote(ref.revision, false) + "?blobs=true";
    const Response response = http.getSmall(url);
    if (response.status != 200) throwHttpError(response, ref, endpoint, "");
    const json info = json::parse(response.body, nullptr, false);
    const std::string where = endpoint + "'s answer for " + ref.repoId;
    if (!info.is_object() || !info.contains("sha") || !info["sha"].is_string() || !isCommitHash(info["sha"].get<std::string>())) {
        throw FileError(where + " names no commit.");
    }
    std::vector<Sibling> siblings;
    if (info.contains("siblings") && info["siblings"].is_array()) {
        for (const json& entry : info["siblings"]) {
            if (!entry.is_object() || !entry.contains("rfilename") || !entry["rfilename"].is_string()) continue;
            Sibling sibling{entry["rfilename"].get<std::string>(), std::nullopt, ""};
            if (entry.contains("blobId") && entry["blobId"].is_string()) sibling.blobId = entry["blobId"].get<std::string>();
            if (!isSafeRepoFileName(sibling.name)) throw FileError(where + " lists a file name attnviz refuses: \"" + sibling.name + "\".");
            if (entry.contains("lfs") && entry["lfs"].is_object() && entry["lfs"].contains("sha256") && entry["lfs"]["sha256"].is_string()) {
                sibling.lfsSha256 = entry["lfs"]["sha256"].get<std::string>();
            }
            siblings.push_back(std::move(sibling));
        }
    }
    return {info["sha"].get<std::string>(), std::move(siblings)};
}

// Step 2: one file's blob name, size and download address.
PlannedFile describeFile(Http& http, const RepoReference& ref, const std::string& endpoint, const std::string& commit, const Sibling& sibling) {
    PlannedFile file{sibling.name};
    const std::string url = endpoint + "/" + ref.repoId + "/resolve/" + commit + "/" + quote(sibling.name, true);
    const Response response = http.head(url, file.url);
    if (response.status >= 400) throwHttpError(response, ref, endpoint, sibling.name);
    const std::string linkedEtag = response.header("x-linked-etag");
    file.etag = normalizeEtag(linkedEtag.empty() ? response.header("etag") : linkedEtag);
    file.lfs = !linkedEtag.empty() || sibling.lfsSha256.has_value();
    const std::string size = response.header("x-linked-size").empty() ? response.header("content-length") : response.header("x-linked-size");
    const std::string where = ref.repoId + "/" + sibling.name;
    if (response.header("x-repo-commit").empty()) throw FileError(endpoint + " does not look like the Hugging Face Hub (no X-Repo-Commit for " + where + ").");
    if (!isSafeEtag(file.etag)) throw FileError(endpoint + " gave " + where + " an ETag attnviz refuses as a file name.");
    if (file.lfs && (!isHex(file.etag, 64) || (sibling.lfsSha256 && *sibling.lfsSha256 != file.etag))) {
        throw FileError(endpoint + " gave " + where + " no sha256 to check it against (or two different ones).");
    }
    if (size.empty() || size.find_first_not_of("0123456789") != std::string::npos || size.size() > 15) {
        throw FileError(endpoint + " gave no size for " + where + ".");
    }
    file.size = std::stoull(size);
    file.gitHashed = !file.lfs && isHex(file.etag, 40) && file.etag == sibling.blobId;
    return file;
}

Plan planFetch(Http& http, const RepoReference& ref, const std::string& endpoint) {
    auto [commit, listedSiblings] = listRevision(http, ref, endpoint);
    const std::vector<Sibling>& siblings = listedSiblings;  // a lambda cannot capture a structured binding in clang 14
    Plan plan{commit, {}};
    const auto has = [&](const char* name) { return std::any_of(siblings.begin(), siblings.end(), [&](const Sibling& s) { return s.name == name; }); };
    if (!has("config.json")) throw FileError(ref.repoId + " has no config.json: it is not a transformers model.");
    if (!has("model.safetensors") && !has("model.safetensors.index.json")) {
        throw FileError(ref.repoId + " has no model.safetensors on the Hub (attnviz reads safetensors, not pytorch_model.bin).");
    }
    for (const Sibling& sibling : siblings) {
        if (isWantedFile(sibling.name)) plan.files.push_back(describeFile(http, ref, endpoint, commit, sibling));
    }
    return plan;
}

// [SECTION] the cache: room, blobs, links, refs

void checkFreeSpace(const fs::path& folder, std::uint64_t needed) {
    fs::path probe = folder;
    std::error_code error;
    while (!probe.empty() && !fs::exists(probe, error)) probe = probe.parent_path();
    struct statvfs stats {};
    if (probe.empty() || ::statvfs(probe.c_str(), &stats) != 0) return;  // cannot tell: the writes will say
    const std::uint64_t available = static_cast<std::uint64_t>(stats.f_bavail) * stats.f_frsize;
    const std::uint64_t margin = 16u << 20;
    if (available < needed + margin) {
        throw FileError("Not enough room: the download needs " + formatBytes(needed) + " but " + probe.string() + " has " + formatBytes(available) +
                        " free.");
    }
}

// The blob's bytes are what the Hub says: its size, and its sha256 (LFS) or git blob sha1.
std::string checksumProblem(const fs::path& path, const PlannedFile& file) {
    std::error_code error;
    const std::uint64_t size = fs::file_size(path, error);
    if (error || size != file.size) return "is " + std::to_string(size) + " bytes, the Hub said " + std::to_string(file.size);
    if (file.lfs) {
        if (digestFile(path, EVP_sha256(), "") != file.etag) return "does not match its sha256 " + file.etag;
    } else if (file.gitHashed) {
        if (digestFile(path, EVP_sha1(), "blob " + std::to_string(size) + std::string(1, '\0')) != file.etag) return "does not match its git hash " + file.etag;
    }
    return "";
}

class FileLock {
public:
    explicit FileLock(const fs::path& path) : fd_(::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644)) {
        if (fd_ < 0) throw FileError("Cannot write into the cache: " + path.parent_path().string() + ".");
        if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) throw FileError("Another program is downloading " + path.filename().string() + " right now; try again when it is done.");
    }
    ~FileLock() { ::close(fd_); }
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

private:
    int fd_;
};

struct Totals {
    std::uint64_t done = 0;     // bytes of finished files and of the current one so far
    std::uint64_t total = 0;
    std::uint64_t transferredBefore = 0;  // bytes this run actually moved, before the current file
    std::uint64_t resumedFrom = 0;        // the current file's bytes on disk when its download started
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point lastReport{};
};

void report(const FetchOptions& options, Totals& totals, const std::string& name, std::uint64_t fileDone, std::uint64_t doneBefore, bool force) {
    if (!options.onProgress) return;
    const auto now = std::chrono::steady_clock::now();
    if (!force && now - totals.lastReport < std::chrono::milliseconds(100)) return;
    totals.lastReport = now;
    FetchProgress progress{name, doneBefore + fileDone, totals.total};
    const double seconds = std::chrono::duration<double>(now - totals.started).count();
    const std::uint64_t moved = totals.transferredBefore + (fileDone > totals.resumedFrom ? fileDone - totals.resumedFrom : 0);
    if (seconds > 0.2 && moved > 0) {
        progress.bytesPerSecond = static_cast<double>(moved) / seconds;
        progress.secondsLeft = static_cast<double>(progress.total - std::min(progress.done, progress.total)) / progress.bytesPerSecond;
    }
    options.onProgress(progress);
}

// Step 3: one file into blobs/<etag>, resumed, retried after a dropped connection, checked.
// `locks`: .locks/models--ORG--NAME, where huggingface_hub keeps its lock files too.
void downloadBlob(Http& http, const FetchOptions& options, const RepoReference& ref, const fs::path& blobs, const fs::path& locks,
                  const PlannedFile& file, Totals& totals) {
    const fs::path blob = blobs / file.etag;
    const fs::path incomplete = blobs / (file.etag + ".incomplete");
    const FileLock lock(locks / (file.etag + ".lock"));
    std::unique_ptr<std::FILE, decltype(&std::fclose)> out(std::fopen(incomplete.c_str(), "ab"), &std::fclose);
    if (!out) throw FileError("Cannot write " + incomplete.string() + ".");
    const std::uint64_t doneBefore = totals.done;
    std::error_code error;
    for (int attempt = 0;; ++attempt) {
        std::uint64_t offset = fs::file_size(incomplete, error);
        if (offset == file.size) break;
        if (offset > file.size) {  // not this file's start: begin again
            if (::ftruncate(::fileno(out.get()), 0) != 0) throw FileError("Cannot write " + incomplete.string() + ".");
            offset = 0;
        }
        totals.resumedFrom = offset;
        CURLcode code = CURLE_OK;
        const Response response = http.download(file.url, out.get(), offset,
                                                [&](std::uint64_t fileDone) {
                                                    report(options, totals, file.name, fileDone, doneBefore, false);
                                                    return true;
                                                }, code);
        std::fflush(out.get());
        totals.transferredBefore += fs::file_size(incomplete, error) > offset ? fs::file_size(incomplete, error) - offset : 0;
        if (response.status >= 400) throwHttpError(response, ref, options.endpoint, file.name);
        if (code == CURLE_OK) break;
        const bool dropped = code == CURLE_PARTIAL_FILE || code == CURLE_RECV_ERROR || code == CURLE_GOT_NOTHING || code == CURLE_OPERATION_TIMEDOUT;
        if (!dropped || attempt == 4) throw FileError(http.transportError(code) + " (" + file.name + " stays for the next try to resume)");
    }
    out.reset();
    if (const std::string problem = checksumProblem(incomplete, file); !problem.empty()) {
        fs::remove(incomplete, error);  // bad bytes: the next try starts over
        throw FileError("Refused " + ref.repoId + "/" + file.name + ": what arrived " + problem + ". Nothing was added to the cache.");
    }
    if (fs::exists(blob, error)) fs::remove(incomplete, error);  // another fetch got there first: keep its blob
    else fs::rename(incomplete, blob);
    totals.done = doneBefore + file.size;
    report(options, totals, file.name, file.size, doneBefore, true);
}

// Step 4: snapshots/<commit>/<name> → ../../blobs/<etag>, replaced atomically, never a regular file overwritten.
void linkIntoSnapshot(const fs::path& snapshot, const PlannedFile& file) {
    const fs::path link = snapshot / file.name;
    const fs::path target = fs::path("..") / ".." / "blobs" / file.etag;
    std::error_code error;
    if (fs::is_symlink(link, error) && fs::read_symlink(link, error) == target) return;
    if (fs::exists(link, error) && !fs::is_symlink(link, error)) return;  // a copy a symlink-less tool left
    const fs::path temporary = snapshot / ("." + file.name + ".link");
    fs::remove(temporary, error);
    fs::create_symlink(target, temporary);
    fs::rename(temporary, link);
}

void writeRef(const fs::path& storage, const RepoReference& ref, const std::string& commit) {
    if (ref.revision == commit) return;
    const fs::path path = storage / "refs" / ref.revision;
    std::error_code error;
    if (fs::is_regular_file(path, error) && readWholeFile(path) == commit) return;
    fs::create_directories(path.parent_path());
    writeFileAtomically(path, commit);
}

}  // namespace

FetchOptions fetchOptionsFromEnvironment() {
    FetchOptions options;
    options.endpoint = environment("HF_ENDPOINT");
    while (!options.endpoint.empty() && options.endpoint.back() == '/') options.endpoint.pop_back();
    if (options.endpoint.empty()) options.endpoint = "https://huggingface.co";
    options.token = environment("HF_TOKEN");
    options.cache = hubCacheDir();
    options.offline = isTrue(environment("HF_HUB_OFFLINE")) || isTrue(environment("TRANSFORMERS_OFFLINE"));
    return options;
}

fs::path fetchModel(const RepoReference& ref, const FetchOptions& options) {
    if (!isValidRepoId(ref.repoId) || !isValidRevision(ref.revision)) throw FileError("\"" + ref.repoId + "@" + ref.revision + "\" is not a repo id.");
    if (options.offline) {
        throw FileError(ref.repoId + " is not in the Hugging Face cache (" + options.cache.string() + ") and HF_HUB_OFFLINE is set, so attnviz does not download it.");
    }
    if (options.endpoint.rfind("https://", 0) != 0 && options.endpoint.rfind("http://", 0) != 0) {
        throw FileError("HF_ENDPOINT must start with https:// (got \"" + options.endpoint + "\").");
    }
    Http http(options, options.endpoint);
    try {
        const Plan plan = planFetch(http, ref, options.endpoint);
        const fs::path storage = options.cache / repoFolderName(ref.repoId);
        const fs::path blobs = storage / "blobs";
        const fs::path locks = options.cache / ".locks" / repoFolderName(ref.repoId);
        fs::create_directories(blobs);
        fs::create_directories(locks);
        Totals totals;
        std::uint64_t needed = 0;
        std::error_code error;
        for (const PlannedFile& file : plan.files) {
            totals.total += file.size;
            if (fs::exists(blobs / file.etag, error)) continue;
            const std::uint64_t partial = fs::exists(blobs / (file.etag + ".incomplete"), error) ? fs::file_size(blobs / (file.etag + ".incomplete"), error) : 0;
            needed += file.size > partial ? file.size - partial : 0;
        }
        checkFreeSpace(blobs, needed);
        for (const PlannedFile& file : plan.files) {
            if (http.cancelled()) throw FetchCancelled("cancelled");
            if (fs::exists(blobs / file.etag, error)) {
                totals.done += file.size;  // a verified blob is never downloaded (or overwritten) again
                continue;
            }
            downloadBlob(http, options, ref, blobs, locks, file, totals);
        }
        const fs::path snapshot = storage / "snapshots" / plan.commit;
        fs::create_directories(snapshot);
        for (const PlannedFile& file : plan.files) linkIntoSnapshot(snapshot, file);
        writeRef(storage, ref, plan.commit);
        return snapshot;
    } catch (const FetchCancelled&) {
        throw FetchCancelled("Fetching " + ref.repoId + " was cancelled; what arrived stays in the cache for the next try to resume.");
    } catch (const fs::filesystem_error& error) {
        throw FileError("Cannot write into the Hugging Face cache: " + std::string(error.what()) + ".");
    }
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
    std::string line = progress.file + "  " + formatBytes(progress.done) + " / " + formatBytes(progress.total);
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
