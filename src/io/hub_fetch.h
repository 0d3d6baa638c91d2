// hub_fetch.h — `attnviz fetch gpt2`: the files attnviz reads, from the Hugging Face Hub into the cache
// huggingface_hub keeps (hub_cache.h), so transformers finds them there too.
//
// The protocol, as huggingface_hub's hf_api.py and file_download.py speak it (docs/models.md says more):
//   1. GET  {endpoint}/api/models/{repo}/revision/{revision}?blobs=true → the commit ("sha") and the files
//      ("siblings": rfilename, size, lfs.sha256). A renamed repo's redirect is followed; a pinned commit must be
//      the one that answers. Read by hub_answers.h (capped in size and JSON nesting).
//   2. HEAD {endpoint}/{repo}/resolve/{commit}/{file} for each file attnviz reads → X-Repo-Commit (that commit),
//      X-Linked-Etag or ETag (the blob's name), X-Linked-Size or Content-Length; only relative redirects are
//      followed, an absolute Location (the CDN, for LFS files) is where the bytes are. Shards: only those
//      model.safetensors.index.json names (read first, capped).
//   3. GET the bytes into blobs/<etag>.incomplete, resuming with Range, never past the announced size; check the
//      size, the sha256 of LFS files (= their etag and the API's lfs.sha256) and the git blob sha1 of the rest;
//      rename into blobs/<etag>. A blob already there is checked the same way before it is reused.
//   4. Only when every file is there: snapshots/<commit>/<file> → ../../blobs/<etag>, then refs/<revision>.
// Never: a file name or etag that could leave the cache, a verified blob overwritten, a write through a link
// planted in the cache, a half-written file in snapshots/, a download without room on the disk, the token sent
// to another host, TLS unverified, a request that crawls below 1 kB/s for 30 s (core/limits.h), a cancel
// unheard for more than a second.
#pragma once

#include "core/limits.h"
#include "io/atomic_file.h"  // FileError
#include "io/hub_cache.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace attnviz::io {

// How far a fetch has come, for a progress line or bar.
struct FetchProgress {
    std::string file;              // the file downloading now
    std::uint64_t done = 0;        // bytes of this fetch on disk (a resumed part counts)
    std::uint64_t total = 0;       // bytes this fetch needs
    double bytesPerSecond = 0;     // over this fetch's transfers so far
    double secondsLeft = -1;       // negative: not known yet
};

struct FetchOptions {
    std::string endpoint;          // $HF_ENDPOINT, default https://huggingface.co
    std::string token;             // $HF_TOKEN, sent as a Bearer token to the endpoint only
    std::filesystem::path cache;   // hubCacheDir()
    bool offline = false;          // $HF_HUB_OFFLINE (or $TRANSFORMERS_OFFLINE): never touch the network
    std::function<void(const FetchProgress&)> onProgress;  // called from the fetching thread, at most ~10 times a second
    const std::atomic<bool>* cancel = nullptr;             // set from any thread: the fetch stops within a second, in any phase
    // A request moving fewer bytes a second than this for this many seconds in a row ends with an error (tests
    // lower the time to stay quick).
    std::uint32_t lowSpeedBytesPerSecond = core::limits::kHubLowSpeedBytesPerSecond;
    std::uint32_t lowSpeedSeconds = core::limits::kHubLowSpeedSeconds;
};
// The options the environment gives (endpoint, token, cache, offline).
FetchOptions fetchOptionsFromEnvironment();

// Thrown when options.cancel stopped a fetch; what was downloaded stays as .incomplete blobs for next time.
class FetchCancelled : public FileError {
public:
    using FileError::FileError;
};

// Downloads what attnviz reads of `ref` and returns its snapshot folder. Throws FileError with one sentence:
// 401/403 (accept the licence, set HF_TOKEN), 404 (which repo, revision or file does not exist), offline, no
// room, a checksum that does not match, an unreachable endpoint; FetchCancelled when cancelled.
std::filesystem::path fetchModel(const RepoReference& ref, const FetchOptions& options);

// The cached snapshot when it holds everything attnviz reads (no network), else fetchModel's.
std::filesystem::path findOrFetchModel(const RepoReference& ref, const FetchOptions& options);

// "model.safetensors  123.4 MB / 548.0 MB  12.3 MB/s  0:34 left"
std::string formatProgress(const FetchProgress& progress);

}  // namespace attnviz::io
