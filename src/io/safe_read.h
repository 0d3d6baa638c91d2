// safe_read.h — opening a file that came from the internet (a model folder, a session, .npy weights) so that no
// file can block, flood or mislead attnviz: every read of a model folder's files goes through here.
//
// How: follow symlinks (Hugging Face cache snapshots are symlinks into blobs/), stat, refuse anything that is not a
// regular file by what it is ("… is a FIFO (named pipe), not a file"), open with O_RDONLY | O_NONBLOCK | O_CLOEXEC |
// O_NOCTTY (a FIFO swapped in after the stat cannot block the open), fstat the open descriptor again, then read at
// most the cap of the file's kind. Errors give the OS's reason ("No such file or directory", "Permission denied",
// "Input/output error"), so a missing file and an unreadable one are told apart.
// Caps (docs/robustness.md): config.json, tokenizer_config.json and heads.json 4 MB; vocabularies and merges
// 64 MB; README.md 1 MB (over it the card is simply not shown); sessions and settings 64 MB; none here for .npy
// and safetensors files (their shapes are checked against the memory the machine has, io/memory_budget.h), but a
// weight file mostly made of holes is refused before it is read (requireWrittenWhole).
#pragma once

#include "io/atomic_file.h"  // FileError

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <string_view>

namespace attnviz::io {

inline constexpr std::uint64_t kMegabyte = 1'000'000;
inline constexpr std::uint64_t kMaxConfigBytes = 4 * kMegabyte;      // config.json, tokenizer_config.json, heads.json
inline constexpr std::uint64_t kMaxVocabularyBytes = 64 * kMegabyte;  // vocab.txt, vocab.json, merges.txt, .txt vocabularies
inline constexpr std::uint64_t kMaxReadmeBytes = 1 * kMegabyte;       // README.md (the model card)
inline constexpr std::uint64_t kMaxSessionBytes = 64 * kMegabyte;     // session files, settings
// model.safetensors.index.json: ~100 bytes a tensor; Llama-3-70B's is 60 kB, the largest published (~90,000 tensors) ~10 MB.
inline constexpr std::uint64_t kMaxShardIndexBytes = 32 * kMegabyte;
inline constexpr std::uint64_t kNoSizeCap = std::numeric_limits<std::uint64_t>::max();

// A file over its kind's cap. A FileError, so callers that do not care treat it as any other; README.md's reader
// catches it and shows no card.
class FileTooLarge : public FileError {
public:
    using FileError::FileError;
};

// A regular file opened for reading; closes on destruction. FileError naming the path and what is wrong.
class RegularFile {
public:
    explicit RegularFile(const std::filesystem::path& path);
    ~RegularFile();
    RegularFile(const RegularFile&) = delete;
    RegularFile& operator=(const RegularFile&) = delete;

    int descriptor() const { return fd_; }
    std::uint64_t size() const { return size_; }
    // Bytes of the file the file system stores as holes (never written: left by truncate or a seek past the end),
    // found from its extents (lseek SEEK_DATA / SEEK_HOLE) without reading; 0 where the file system cannot say.
    // Counts the first kMaxExtentsCounted runs of data only, so a file cut into millions of pieces costs no more.
    std::uint64_t holeBytes() const;
    // At most `maxBytes` of the file (FileTooLarge beyond), read to its end.
    std::string readAll(std::uint64_t maxBytes) const;

private:
    std::filesystem::path path_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
};

// Weight files are written whole, so a file system keeps no holes in them (ZFS with compression turns runs of
// 128 kB of zeros into holes, a small share of any real model). A file more than half holes is a sparse file
// made to look large: issue #31's 3 GB token table (vocab 12,000,000) made by truncate passed the memory check and
// was then read page by page for non-finite values (> 10 s under load) before anything refused it.
inline constexpr std::uint64_t kMaxExtentsCounted = 65'536;

// FileError "'model.safetensors' is 2.3 GB long, but 2.3 GB of it are holes …" when more than half of `file` is
// holes (see above); `path` names it.
void requireWrittenWhole(const RegularFile& file, const std::filesystem::path& path);

// The whole file, at most `maxBytes` of it. See above for what is refused.
std::string readFileCapped(const std::filesystem::path& path, std::uint64_t maxBytes);

// JSON from a file nests at most this deep (a session needs 4, a safetensors header 3): checked on the bytes,
// before any parser or destructor recurses.
inline constexpr int kMaxJsonDepth = 64;

// FileError "<name>: its JSON nests deeper than 64 levels." when `text` opens more arrays and objects than
// `maxDepth` at once (brackets inside strings do not count). A linear scan: no recursion, no allocation.
void requireJsonDepth(std::string_view text, std::string_view name, int maxDepth = kMaxJsonDepth);

// readFileCapped, then requireJsonDepth: every JSON file attnviz reads comes in through here.
std::string readJsonFile(const std::filesystem::path& path, std::uint64_t maxBytes);

// True only when nothing is at `path` (ENOENT or a dangling symlink, or a parent that is not a folder); false
// when something is there or the OS will not say (permission denied: reading it then says why).
bool fileIsMissing(const std::filesystem::path& path);

// "3.2 GB", "512 MB", "120 KB", "17 bytes": one decimal from 10 KB on (decimal units, as disk sizes are given).
std::string byteCountText(std::uint64_t bytes);

}  // namespace attnviz::io
