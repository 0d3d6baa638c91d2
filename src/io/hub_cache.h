// hub_cache.h — `--model gpt2`: models named by their Hugging Face repo id, found in the cache huggingface_hub
// (and so transformers) already keeps, with no network at all.
//
// What `--model X` means: an existing path (absolute, ./…, ../…, ~/…, or a folder that exists relative to the
// working directory) is a folder; otherwise NAME or ORG/NAME, optionally @REVISION, is a repo id.
//
// The cache, as huggingface_hub lays it out (docs/models.md):
//   $HF_HUB_CACHE, else $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub
//   models--ORG--NAME/refs/<revision>            a file holding the 40-hex commit a branch or tag pointed at
//   models--ORG--NAME/snapshots/<commit>/<file>  relative symlinks into ../../blobs/
//   models--ORG--NAME/blobs/<etag>               the bytes (sha256 for LFS files, git blob sha1 for the rest)
// This file only reads the cache; hub_fetch.h writes it.
#pragma once

#include "io/atomic_file.h"  // FileError

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::io {

// A repo on the Hub and a revision of it: a branch, a tag or a 40-hex commit.
struct RepoReference {
    std::string repoId;              // "gpt2", "sentence-transformers/all-MiniLM-L6-v2"
    std::string revision = "main";
};

// What `--model X` names: a folder, or a repo (then `folder` is empty); a bundled model's name (attnviz-mini-bert,
// attnviz-mini-llama) that is not a folder here names its folder under the assets.
struct ModelArgument {
    std::filesystem::path folder;
    std::optional<RepoReference> repo;
};
ModelArgument parseModelArgument(std::string_view text);

// "ORG/NAME@REV" → a RepoReference; throws FileError with one sentence for a malformed id or revision.
RepoReference parseRepoReference(std::string_view text);
// huggingface_hub's rules: NAME or ORG/NAME of letters, digits, '-', '_', '.', at most 96 each, no "--" or "..",
// neither starting nor ending with '-' or '.', not ending in ".git".
bool isValidRepoId(std::string_view repoId);
// A branch or tag name (may hold '/', as refs/pr/1) or a commit: no "..", no leading '/', no control characters.
bool isValidRevision(std::string_view revision);
bool isCommitHash(std::string_view text);  // 40 lower-case hex digits
// A file name inside a repo as the API lists it: relative, '/'-separated, no "..", no control characters or '\'.
bool isSafeRepoFileName(std::string_view name);

// An environment variable of the Hub's (HF_HOME, HF_ENDPOINT, HF_TOKEN, …), empty when unset.
std::string hubSetting(const char* name);
// The cache directory from the environment (not created).
std::filesystem::path hubCacheDir();
// "models--ORG--NAME"
std::string repoFolderName(std::string_view repoId);

// The snapshot folder `ref` resolves to in `cache` (refs/<revision> → commit, or the commit itself), or nullopt
// when the cache has no such snapshot. Throws FileError when a file of the snapshot links outside the cache.
std::optional<std::filesystem::path> findCachedSnapshot(const std::filesystem::path& cache, const RepoReference& ref);

// A model found in the cache, for listings (`attnviz fetch --list`, the GUI's Model box).
struct CachedModel {
    std::string repoId;
    std::string revision;                // the ref it was found under ("main", else another), or the commit
    std::filesystem::path snapshot;
    std::string family;                  // config.json's model_type ("gpt2", "bert"), or "" without one
    std::uint64_t bytes = 0;             // the snapshot's files, links followed
    bool opens = false;                  // holds everything attnviz reads (checkModelFolder says nothing)
};
// Every model repo in `cache` with a snapshot: refs/main's, else another ref's, else the newest snapshot. Sorted
// by repo id.
std::vector<CachedModel> listCachedModels(const std::filesystem::path& cache);

// What to call a model folder: the repo id for a snapshot of the cache (…/models--ORG--NAME/snapshots/<commit>),
// else the folder's own name.
std::string modelFolderTitle(const std::filesystem::path& folder);

// "548.1 MB"
std::string formatBytes(std::uint64_t bytes);

}  // namespace attnviz::io
