// atomic_file.h — write a file so that readers see either the old content or the complete new one, never half.
//
// How: write to a fresh temporary file in the same directory (so rename cannot cross file systems), flush,
// fsync, then rename over the target. On any failure the temporary file is removed, the old file is untouched,
// and io::FileError says which path failed and why (the OS's strerror text). A writer that is killed leaves its
// hidden ".<name>.tmp-<16 hex>" file; each temporary is flock()ed while in use, and the next write of the same
// path removes those no process holds that are over 10 s old.
// What this file deliberately does not do: create missing directories, lock against concurrent writers (the
// last rename wins), or guarantee the directory entry survives a power cut (the directory fsync is best effort).
#pragma once

#include "core/display_text.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string_view>

namespace attnviz::io {

// Every file problem (cannot open, write, rename, or parse). The message is one sentence that names the path
// and the reason, cut to core::limits::kMaxShownCharacters where it is made (it may quote a file; issue 31: a 4 MB message
// cost the GUI 1.1 GB while shown); callers show it as is.
class FileError : public std::runtime_error {
public:
    explicit FileError(std::string_view message) : std::runtime_error(core::clipped(message)) {}
};

// The two halves of most FileError messages: the path in single quotes, and the OS's sentence for an errno value
// (what strerror says, thread-safe).
std::string quoted(const std::filesystem::path& path);
std::string reason(int error);

// A hidden leftover of a killed writer (a ".<name>.tmp-*" file here, a ".<name>.dump-*" folder in io/dump.cpp) is
// removed once no process holds its flock and it has not changed for this long: a live writer locks what it
// creates within microseconds, so one between its create and its flock is never mistaken for a dead one.
inline constexpr std::chrono::seconds kStaleLeftoverAge{10};

// Replaces `path` with exactly `bytes`.
void writeFileAtomically(const std::filesystem::path& path, std::string_view bytes);

// Replaces `path` with whatever `writeContent` writes to the FILE* it is given (opened "wb", positioned at 0),
// for writers that want a stream, such as libpng's png_init_io. The callback must not close the FILE*. If it
// throws, the temporary file is removed and its exception propagates unchanged; if it leaves the stream in an
// error state (ferror), FileError is thrown.
void writeFileAtomically(const std::filesystem::path& path, const std::function<void(std::FILE*)>& writeContent);

// The whole file's bytes; FileError naming the path and the OS reason when it cannot be read, or saying it is a
// FIFO, device or folder rather than a file (io/safe_read.h, which defines it).
std::string readWholeFile(const std::filesystem::path& path);

}  // namespace attnviz::io
