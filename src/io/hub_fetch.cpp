// hub_fetch.cpp — fetchModel: the Hub's API, HEAD and resumable GET over libcurl, checked into the cache. See
// hub_fetch.h; the parts that need no network library are in hub_fetch_offline.cpp.
#include "io/hub_fetch.h"

#include "core/display_text.h"
#include "core/limits.h"
#include "io/checkpoint.h"
#include "io/hub_answers.h"
#include "io/safe_read.h"

#include <curl/curl.h>
#include <openssl/evp.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

namespace fs = std::filesystem;

namespace attnviz::io {
namespace {

// [SECTION] what attnviz reads of a repo

constexpr const char* kShardIndex = "model.safetensors.index.json";

// The files attnviz reads besides the shards, which only model.safetensors.index.json names (planShards).
bool isWantedFile(const std::string& name) {
    static const std::set<std::string> wanted{
        "config.json", "model.safetensors", kShardIndex, "tokenizer.json", "tokenizer_config.json",
        "vocab.txt", "vocab.json", "merges.txt", "special_tokens_map.json", "heads.json", "README.md"};
    return wanted.count(name) > 0;
}

// [SECTION] small helpers

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

// The digest of `prefix` + the file's bytes; FetchCancelled as soon as `cancel` is set (a 5 GB shard takes seconds).
std::string digestFile(const fs::path& path, const EVP_MD* algorithm, std::string_view prefix, const std::atomic<bool>* cancel) {
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    std::unique_ptr<std::FILE, decltype(&std::fclose)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!context || !file || EVP_DigestInit_ex(context.get(), algorithm, nullptr) != 1) throw FileError("Cannot read " + path.string() + " to check it.");
    EVP_DigestUpdate(context.get(), prefix.data(), prefix.size());
    std::vector<char> buffer(1 << 20);
    while (const std::size_t count = std::fread(buffer.data(), 1, buffer.size(), file.get())) {
        if (cancel != nullptr && cancel->load()) throw FetchCancelled("cancelled");
        EVP_DigestUpdate(context.get(), buffer.data(), count);
    }
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

// One request's answer: the last response's status and headers, and the body of API answers and error pages.
struct Response : ResponseHead {
    std::string body;
    std::size_t maxBody = core::limits::kHubMaxAnswerBytes;  // more is refused (bodyTooLarge), the transfer aborted
    bool headersTooLarge = false;
    bool bodyTooLarge = false;
};

// How a download into a blob's .incomplete file ended.
struct Download {
    Response response;
    CURLcode code = CURLE_OK;
    bool overflowed = false;   // the server sent more than the announced size: aborted, nothing of it kept
    bool writeFailed = false;  // the disk refused a write (full?)
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

    // GET of an answer of at most `maxBytes`, following redirects (a renamed repo, an index on the CDN).
    Response getSmall(const std::string& url, std::size_t maxBytes) {
        Response response;
        response.maxBody = maxBytes;
        prepare(url, response, true);
        curl_easy_setopt(curl_, CURLOPT_WRITEFUNCTION, &Http::appendBody);
        curl_easy_setopt(curl_, CURLOPT_WRITEDATA, &response);
        perform(response);
        return response;
    }

    // HEAD that follows only relative redirects, as huggingface_hub does: an absolute Location is the CDN.
    Response head(std::string url, std::string& finalUrl) {
        for (int redirects = 0;; ++redirects) {
            Response response;
            prepare(url, response, false);
            curl_easy_setopt(curl_, CURLOPT_NOBODY, 1L);
            perform(response);
            const std::string location = response.header("location");
            const bool redirect = response.status >= 300 && response.status < 400 && !location.empty();
            if (!redirect || location.front() != '/' || redirects == 5) {
                finalUrl = redirect ? location : url;
                return response;
            }
            url = originOf(url) + location;
        }
    }

    // GET into the open file `fd` (holding `offset` bytes, asked for the rest with Range), never past `size` bytes
    // in all. `onBytes` hears the file's size as bytes arrive. Throws FetchCancelled; a dropped connection is
    // the result's code, for the caller to resume.
    Download download(const std::string& url, int fd, std::uint64_t offset, std::uint64_t size, const std::function<void(std::uint64_t)>& onBytes) {
        Download result;
        Sink sink{&result, fd, offset, size, onBytes};
        prepare(url, result.response, true);
        if (offset > 0) curl_easy_setopt(curl_, CURLOPT_RANGE, (std::to_string(offset) + "-").c_str());
        curl_easy_setopt(curl_, CURLOPT_WRITEFUNCTION, &Http::writeFile);
        curl_easy_setopt(curl_, CURLOPT_WRITEDATA, &sink);
        sink_ = &sink;
        result.code = curl_easy_perform(curl_);
        sink_ = nullptr;
        if (cancelled()) throw FetchCancelled("cancelled");
        return result;
    }

    bool cancelled() const { return options_.cancel != nullptr && options_.cancel->load(); }

    // A transfer that ended without a whole answer, as one sentence worded by what happened: nothing reached
    // (no connection), too slow, too much, or a connection that broke off after the server answered.
    std::string transportError(CURLcode code, const Response& response) const {
        if (response.headersTooLarge) return endpoint_ + " sent more than " + byteCountText(core::limits::kHubMaxHeaderBytes) + " of headers; attnviz stopped reading.";
        if (response.bodyTooLarge) return endpoint_ + " sent an answer larger than " + byteCountText(response.maxBody) + "; attnviz stopped reading.";
        const std::string detail = errorText_[0] != '\0' ? std::string(errorText_) : curl_easy_strerror(code);
        if (!connected(response)) return "Cannot reach " + endpoint_ + ": " + detail + ".";
        if (code == CURLE_OPERATION_TIMEDOUT) {
            return endpoint_ + " sent less than " + byteCountText(options_.lowSpeedBytesPerSecond) + " a second for " +
                   std::to_string(options_.lowSpeedSeconds) + " s; attnviz gave up (try again later).";
        }
        return "The connection to " + endpoint_ + " broke off: " + detail + ".";
    }

private:
    struct Sink {
        Download* result;
        int fd;
        std::uint64_t offset;  // bytes in the file when the transfer started
        std::uint64_t size;    // bytes the file must end with
        const std::function<void(std::uint64_t)>& onBytes;
        std::uint64_t written = 0;
        bool started = false;
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
        curl_easy_setopt(curl_, CURLOPT_LOW_SPEED_LIMIT, static_cast<long>(options_.lowSpeedBytesPerSecond));
        curl_easy_setopt(curl_, CURLOPT_LOW_SPEED_TIME, static_cast<long>(options_.lowSpeedSeconds));
        curl_easy_setopt(curl_, CURLOPT_USERAGENT, "attnviz");
        curl_easy_setopt(curl_, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(curl_, CURLOPT_HEADERFUNCTION, &Http::onHeader);
        curl_easy_setopt(curl_, CURLOPT_HEADERDATA, &response);
        // Every phase (connecting, the listing, a HEAD, a body) hears the cancel flag: libcurl calls onTransfer
        // at least once a second even when nothing arrives (its low-speed check keeps a 1 s timer).
        curl_easy_setopt(curl_, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(curl_, CURLOPT_XFERINFOFUNCTION, &Http::onTransfer);
        curl_easy_setopt(curl_, CURLOPT_XFERINFODATA, this);
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

    void perform(const Response& response) {
        const CURLcode code = curl_easy_perform(curl_);
        if (cancelled()) throw FetchCancelled("cancelled");
        if (code != CURLE_OK) throw FileError(transportError(code, response));
    }

    // Did the server accept the connection (or answer at all)?
    bool connected(const Response& response) const {
        long connects = 0;
        curl_easy_getinfo(curl_, CURLINFO_NUM_CONNECTS, &connects);
        return response.status != 0 || response.bytes > 0 || connects > 0;
    }

    static std::size_t onHeader(char* data, std::size_t size, std::size_t count, void* user) {
        auto* response = static_cast<Response*>(user);
        if (addHeaderLine(*response, std::string_view(data, size * count))) return size * count;
        response->headersTooLarge = true;
        return 0;
    }

    static std::size_t appendBody(char* data, std::size_t size, std::size_t count, void* user) {
        auto* response = static_cast<Response*>(user);
        if (response->body.size() + size * count > response->maxBody) {
            response->bodyTooLarge = true;
            return 0;
        }
        response->body.append(data, size * count);
        return size * count;
    }

    static std::size_t writeFile(char* data, std::size_t size, std::size_t count, void* user) {
        auto* sink = static_cast<Sink*>(user);
        const std::size_t bytes = size * count;
        if (sink->result->response.status >= 300) return appendBody(data, size, count, &sink->result->response);  // an error page
        if (!sink->started) {
            sink->started = true;
            if (sink->offset > 0 && sink->result->response.status == 200) {  // the server ignored Range: start over
                if (::ftruncate(sink->fd, 0) != 0) return 0;
                sink->offset = 0;
            }
        }
        if (sink->offset + sink->written + bytes > sink->size) {  // more than announced: never written
            sink->result->overflowed = true;
            return 0;
        }
        for (std::size_t done = 0; done < bytes;) {
            const ssize_t count = ::write(sink->fd, data + done, bytes - done);
            if (count <= 0) {
                sink->result->writeFailed = true;
                return 0;
            }
            done += static_cast<std::size_t>(count);
        }
        sink->written += bytes;
        return bytes;
    }

    static int onTransfer(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
        auto* http = static_cast<Http*>(user);
        if (http->cancelled()) return 1;
        if (http->sink_ != nullptr) http->sink_->onBytes(http->sink_->offset + http->sink_->written);
        return 0;
    }

    const FetchOptions& options_;
    std::string endpoint_;
    CURL* curl_ = nullptr;
    Sink* sink_ = nullptr;  // the download under way, if any
    char errorText_[CURL_ERROR_SIZE] = {};
    std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headerList_{nullptr, &curl_slist_free_all};
};

// [SECTION] the Hub's answers as one sentence each

[[noreturn]] void throwHttpError(const Response& response, const RepoReference& ref, const std::string& endpoint, const std::string& file) {
    const std::string page = endpoint + "/" + ref.repoId;
    const std::string code = response.header("x-error-code");
    const std::string fileName = core::echoed(file);
    if (response.status == 401 || response.status == 403) {
        throw FileError(ref.repoId + " is gated or private: accept the licence on " + page + " and set HF_TOKEN to a token of that account" +
                        (std::getenv("HF_TOKEN") != nullptr ? " (the HF_TOKEN given was refused)." : "."));
    }
    if (response.status == 404) {
        if (code == "RevisionNotFound") throw FileError(ref.repoId + " has no revision \"" + ref.revision + "\" on " + endpoint + ".");
        if (code == "EntryNotFound" || (!file.empty() && code != "RepoNotFound")) {
            throw FileError(ref.repoId + "@" + ref.revision + " has no file " + fileName + " on " + endpoint + ".");
        }
        throw FileError("There is no model " + ref.repoId + " on " + endpoint + " (check the name; a private repo also needs HF_TOKEN).");
    }
    throw FileError(endpoint + " answered HTTP " + std::to_string(response.status) + " for " + ref.repoId + (file.empty() ? "" : "/" + fileName) +
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

// Step 1: the commit and the files of the revision; a pinned commit must be the one that answers.
RevisionListing listRevision(Http& http, const RepoReference& ref, const std::string& endpoint) {
    const std::string url = endpoint + "/api/models/" + ref.repoId + "/revision/" + quote(ref.revision, false) + "?blobs=true";
    const Response response = http.getSmall(url, core::limits::kHubMaxAnswerBytes);
    if (response.status != 200) throwHttpError(response, ref, endpoint, "");
    RevisionListing listing = parseRevisionListing(response.body, endpoint + "'s answer for " + ref.repoId);
    if (isCommitHash(ref.revision) && listing.commit != ref.revision) {
        throw FileError(endpoint + " answered with commit " + listing.commit + " when asked for commit " + ref.revision + " of " + ref.repoId +
                        "; attnviz takes only the commit it was pinned to.");
    }
    return listing;
}

// Step 2: one file's blob name, size and download address.
PlannedFile describeFile(Http& http, const RepoReference& ref, const std::string& endpoint, const std::string& commit, const HubFile& sibling) {
    PlannedFile file{sibling.name};
    const std::string url = endpoint + "/" + ref.repoId + "/resolve/" + commit + "/" + quote(sibling.name, true);
    const Response response = http.head(url, file.url);
    if (response.status >= 400) throwHttpError(response, ref, endpoint, sibling.name);
    const std::string linkedEtag = response.header("x-linked-etag");
    file.etag = normalizeEtag(linkedEtag.empty() ? response.header("etag") : linkedEtag);
    file.lfs = !linkedEtag.empty() || sibling.lfsSha256.has_value();
    const std::string size = response.header("x-linked-size").empty() ? response.header("content-length") : response.header("x-linked-size");
    const std::string where = ref.repoId + "/" + core::echoed(sibling.name);
    const std::string answeredCommit = response.header("x-repo-commit");
    if (answeredCommit.empty()) throw FileError(endpoint + " does not look like the Hugging Face Hub (no X-Repo-Commit for " + where + ").");
    if (answeredCommit != commit) {
        throw FileError(endpoint + " answered for " + where + " from commit " + core::echoed(answeredCommit) + ", not " + commit + " it listed.");
    }
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

const HubFile* findFile(const RevisionListing& listing, const std::string& name) {
    const auto found = std::find_if(listing.files.begin(), listing.files.end(), [&](const HubFile& file) { return file.name == name; });
    return found == listing.files.end() ? nullptr : &*found;
}

// The shards the repo's model.safetensors.index.json names (read once here, capped), each of them a file the repo
// lists: nothing else shaped like a shard is fetched.
std::vector<PlannedFile> planShards(Http& http, const RepoReference& ref, const std::string& endpoint, const RevisionListing& listing,
                                    const PlannedFile& index) {
    const std::string where = ref.repoId + "/" + kShardIndex;
    if (index.size > kMaxShardIndexBytes) {
        throw FileError(where + " is " + byteCountText(index.size) + "; attnviz reads shard indexes of at most " + byteCountText(kMaxShardIndexBytes) + ".");
    }
    const Response response = http.getSmall(index.url, kMaxShardIndexBytes);
    if (response.status >= 400) throwHttpError(response, ref, endpoint, kShardIndex);
    std::vector<PlannedFile> shards;
    for (const std::string& name : shardsOfIndex(response.body, where)) {
        const HubFile* shard = findFile(listing, name);
        if (shard == nullptr) throw FileError(where + " names the shard " + core::echoed(name) + ", which " + ref.repoId + " does not hold.");
        shards.push_back(describeFile(http, ref, endpoint, listing.commit, *shard));
    }
    return shards;
}

Plan planFetch(Http& http, const RepoReference& ref, const std::string& endpoint) {
    const RevisionListing listing = listRevision(http, ref, endpoint);
    Plan plan{listing.commit, {}};
    if (findFile(listing, "config.json") == nullptr) throw FileError(ref.repoId + " has no config.json: it is not a transformers model.");
    if (findFile(listing, "model.safetensors") == nullptr && findFile(listing, kShardIndex) == nullptr) {
        throw FileError(ref.repoId + " has no model.safetensors on the Hub (attnviz reads safetensors, not pytorch_model.bin).");
    }
    for (const HubFile& file : listing.files) {
        if (isWantedFile(file.name)) plan.files.push_back(describeFile(http, ref, endpoint, listing.commit, file));
    }
    const auto index = std::find_if(plan.files.begin(), plan.files.end(), [](const PlannedFile& file) { return file.name == kShardIndex; });
    if (index != plan.files.end() && findFile(listing, "model.safetensors") == nullptr) {
        std::vector<PlannedFile> shards = planShards(http, ref, endpoint, listing, *index);
        plan.files.insert(plan.files.end(), std::make_move_iterator(shards.begin()), std::make_move_iterator(shards.end()));
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
std::string checksumProblem(const fs::path& path, const PlannedFile& file, const std::atomic<bool>* cancel) {
    std::error_code error;
    const std::uint64_t size = fs::file_size(path, error);
    if (error || size != file.size) return "is " + std::to_string(size) + " bytes, the Hub said " + std::to_string(file.size);
    if (file.lfs) {
        if (digestFile(path, EVP_sha256(), "", cancel) != file.etag) return "does not match its sha256 " + file.etag;
    } else if (file.gitHashed) {
        if (digestFile(path, EVP_sha1(), "blob " + std::to_string(size) + std::string(1, '\0'), cancel) != file.etag) return "does not match its git hash " + file.etag;
    }
    return "";
}

// A file of the cache opened for writing without ever following a symbolic link (O_NOFOLLOW) or blocking on a
// FIFO (O_NONBLOCK): a link or anything but a regular file planted there is refused and what it points to stays
// untouched (huggingface_hub follows such a link).
class CacheFile {
public:
    CacheFile(const fs::path& path, int flags) : fd_(::open(path.c_str(), flags | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644)) {
        if (fd_ < 0 && errno == ELOOP) {
            throw FileError(path.string() + " is a symbolic link; attnviz never writes through a link in the Hugging Face cache (delete it and fetch again).");
        }
        if (fd_ < 0) throw FileError("Cannot write " + path.string() + ": " + std::strerror(errno) + ".");
        struct stat info {};
        if (::fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode)) {
            ::close(fd_);
            throw FileError(path.string() + " is not a regular file; attnviz does not write into it (delete it and fetch again).");
        }
    }
    ~CacheFile() { ::close(fd_); }
    CacheFile(const CacheFile&) = delete;
    CacheFile& operator=(const CacheFile&) = delete;

    int descriptor() const { return fd_; }
    std::uint64_t size() const {
        struct stat info {};
        return ::fstat(fd_, &info) == 0 ? static_cast<std::uint64_t>(info.st_size) : 0;
    }

private:
    int fd_;
};

class FileLock {
public:
    explicit FileLock(const fs::path& path) : file_(path, O_RDWR) {
        if (::flock(file_.descriptor(), LOCK_EX | LOCK_NB) != 0) {
            throw FileError("Another program is downloading " + path.filename().string() + " right now; try again when it is done.");
        }
    }

private:
    CacheFile file_;
};

// A blob already in the cache is reused only when it is what its name promises (its size, and its sha256 or git
// hash when the Hub gives one): bytes a hostile or broken server left under a checksum's name are removed and
// fetched again, never trusted forever.
bool reusableBlob(const fs::path& blob, const PlannedFile& file, const std::atomic<bool>* cancel) {
    std::error_code error;
    const fs::file_status status = fs::symlink_status(blob, error);
    if (!fs::exists(status)) return false;
    if (fs::is_regular_file(status) && checksumProblem(blob, file, cancel).empty()) return true;
    if (!fs::remove(blob, error)) {
        throw FileError("The Hugging Face cache holds " + blob.string() + ", which is not the file its name promises, and attnviz cannot remove it (" +
                        error.message() + "); delete it and fetch again.");
    }
    return false;
}

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

// The bytes of a partial download that can still complete: none when it is longer than the file (another file's
// start, or an endless body an older attnviz accepted), which is removed so it cannot hold the disk.
std::uint64_t resumableBytes(const fs::path& incomplete, std::uint64_t size) {
    std::error_code error;
    const fs::file_status status = fs::symlink_status(incomplete, error);
    if (!fs::is_regular_file(status)) return 0;  // none, or something CacheFile refuses when the download opens it
    const std::uint64_t partial = fs::file_size(incomplete, error);
    if (error) return 0;
    if (partial <= size) return partial;
    fs::remove(incomplete, error);
    return 0;
}

// Step 3: one file into blobs/<etag>, resumed, retried after a dropped connection, checked.
// `locks`: .locks/models--ORG--NAME, where huggingface_hub keeps its lock files too.
void downloadBlob(Http& http, const FetchOptions& options, const RepoReference& ref, const fs::path& blobs, const fs::path& locks,
                  const PlannedFile& file, Totals& totals) {
    const fs::path blob = blobs / file.etag;
    const fs::path incomplete = blobs / (file.etag + ".incomplete");
    const std::string where = ref.repoId + "/" + core::echoed(file.name);
    const FileLock lock(locks / (file.etag + ".lock"));
    const CacheFile out(incomplete, O_WRONLY | O_APPEND);
    const std::uint64_t doneBefore = totals.done;
    std::error_code error;
    for (int attempt = 0;; ++attempt) {
        std::uint64_t offset = out.size();
        if (offset == file.size) break;
        if (offset > file.size) {  // not this file's start: begin again
            if (::ftruncate(out.descriptor(), 0) != 0) throw FileError("Cannot write " + incomplete.string() + ".");
            offset = 0;
        }
        totals.resumedFrom = offset;
        const Download result = http.download(file.url, out.descriptor(), offset, file.size,
                                              [&](std::uint64_t fileDone) { report(options, totals, file.name, fileDone, doneBefore, false); });
        totals.transferredBefore += out.size() > offset ? out.size() - offset : 0;
        if (result.overflowed) {
            fs::remove(incomplete, error);  // it can never complete: the next try starts over
            throw FileError(options.endpoint + " sent more than the " + byteCountText(file.size) + " it announced for " + where +
                            "; attnviz stopped and kept none of it.");
        }
        if (result.writeFailed) throw FileError("Cannot write the download into " + incomplete.string() + " (disk full?); what arrived stays for the next try to resume.");
        if (result.response.status >= 400) throwHttpError(result.response, ref, options.endpoint, file.name);
        if (result.code == CURLE_OK) break;
        // A dropped connection is resumed at once; a server too slow (CURLE_OPERATION_TIMEDOUT) is not asked again.
        const bool dropped = result.code == CURLE_PARTIAL_FILE || result.code == CURLE_RECV_ERROR || result.code == CURLE_GOT_NOTHING;
        if (!dropped || attempt == 4) throw FileError(http.transportError(result.code, result.response) + " (" + where + " stays for the next try to resume)");
    }
    if (const std::string problem = checksumProblem(incomplete, file, options.cancel); !problem.empty()) {
        fs::remove(incomplete, error);  // bad bytes: the next try starts over
        throw FileError("Refused " + where + ": what arrived " + problem + ". Nothing was added to the cache.");
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
        std::vector<const PlannedFile*> missing;
        for (const PlannedFile& file : plan.files) {
            totals.total += file.size;
            if (!reusableBlob(blobs / file.etag, file, options.cancel)) missing.push_back(&file);
        }
        for (const PlannedFile* file : missing) needed += file->size - resumableBytes(blobs / (file->etag + ".incomplete"), file->size);
        checkFreeSpace(blobs, needed);
        for (const PlannedFile& file : plan.files) {
            if (http.cancelled()) throw FetchCancelled("cancelled");
            if (std::find(missing.begin(), missing.end(), &file) == missing.end()) {
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

}  // namespace attnviz::io
