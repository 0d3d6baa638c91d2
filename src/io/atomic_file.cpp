// atomic_file.cpp — temp file + fsync + rename, with the temp removed on every failure path, and temp files of
// killed writers swept up by the next write of the same file. See atomic_file.h.
// POSIX only (open/O_EXCL, fsync, rename), like the rest of attnviz's Debian target.
#include "io/atomic_file.h"

#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstdint>
#include <random>
#include <string>
#include <system_error>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace attnviz::io {
namespace {

namespace fs = std::filesystem;

fs::path directoryOf(const fs::path& target) { return target.has_parent_path() ? target.parent_path() : fs::path("."); }

// 16 hex digits no other writer picks: a per-process random salt mixed with a counter.
std::string uniqueSuffix() {
    static const std::uint64_t salt = (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
    static std::atomic<std::uint64_t> counter{0};
    const std::uint64_t value = salt ^ (counter.fetch_add(1) * 0x9E3779B97F4A7C15ull);
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

struct TemporaryFile {
    fs::path path;
    std::FILE* stream = nullptr;
    int lock = -1;  // a second descriptor holding flock(LOCK_EX) from creation until after the rename
};

constexpr std::string_view kTemporaryMarker = ".tmp-";

std::string temporaryPrefix(const fs::path& target) {
    return std::string(".").append(target.filename().string()).append(kTemporaryMarker);
}

// Temporary files of `target` that a killed writer left behind: named like ours, not locked by any process,
// and not touched for kStaleLeftoverAge (a writer between its open() and its flock() is never mistaken for one).
// Best effort: anything that cannot be checked or removed stays.
void removeStaleTemporaries(const fs::path& target) {
    const std::string prefix = temporaryPrefix(target);
    std::error_code error;
    fs::directory_iterator entries(directoryOf(target), error);
    for (; !error && entries != fs::directory_iterator(); entries.increment(error)) {
        const fs::path& path = entries->path();
        const std::string name = path.filename().string();
        if (name.size() != prefix.size() + 16 || name.compare(0, prefix.size(), prefix) != 0) continue;
        std::error_code timeError;
        const auto age = fs::file_time_type::clock::now() - fs::last_write_time(path, timeError);
        if (timeError || age < kStaleLeftoverAge) continue;
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        if (::flock(fd, LOCK_EX | LOCK_NB) == 0) ::unlink(path.c_str());
        ::close(fd);
    }
}

void unlock(TemporaryFile& temp) {
    if (temp.lock >= 0) ::close(temp.lock);
    temp.lock = -1;
}

void discard(TemporaryFile& temp) {
    if (temp.stream != nullptr) std::fclose(temp.stream);
    temp.stream = nullptr;
    ::unlink(temp.path.c_str());
    unlock(temp);
}

// Creates ".<name>.tmp-<hex>" beside the target with O_EXCL, so it never reuses someone else's file.
TemporaryFile createTemporaryNextTo(const fs::path& target) {
    const fs::path directory = directoryOf(target);
    for (int attempt = 0; attempt < 16; ++attempt) {
        TemporaryFile temp;
        temp.path = directory / temporaryPrefix(target).append(uniqueSuffix());
        const int fd = ::open(temp.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno == EEXIST) continue;
        if (fd < 0) {
            const int error = errno;
            throw FileError("Cannot write " + quoted(target) + ": creating a temporary file in " + quoted(directory) +
                            " failed (" + reason(error) + ").");
        }
        temp.lock = ::dup(fd);  // shares the open file description, so its flock outlives fclose(stream)
        if (temp.lock >= 0) ::flock(temp.lock, LOCK_EX);
        temp.stream = ::fdopen(fd, "wb");
        if (temp.stream == nullptr) {
            const int error = errno;
            ::close(fd);
            discard(temp);
            throw FileError("Cannot write " + quoted(target) + ": " + reason(error) + ".");
        }
        return temp;
    }
    throw FileError("Cannot write " + quoted(target) + ": no unused temporary file name was found in " + quoted(directory) + ".");
}

// Flushes the user-space buffer and the kernel's, then closes; the stream is gone afterwards whatever happens.
void flushSyncAndClose(TemporaryFile& temp, const fs::path& target) {
    std::FILE* stream = temp.stream;
    temp.stream = nullptr;
    int error = 0;
    if (std::ferror(stream)) error = errno != 0 ? errno : EIO;
    if (error == 0 && std::fflush(stream) != 0) error = errno;
    if (error == 0 && ::fsync(::fileno(stream)) != 0) error = errno;
    if (std::fclose(stream) != 0 && error == 0) error = errno;
    if (error != 0) throw FileError("Cannot write " + quoted(target) + ": " + reason(error) + ".");
}

// Makes the rename itself durable. Best effort: the new file is complete and in place either way.
void syncDirectory(const fs::path& directory) {
    const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

}  // namespace

std::string reason(int error) { return std::system_category().message(error); }

// Built by appending: GCC 12 warns falsely (-Wrestrict, bug 105329) on "'" + string + "'".
std::string quoted(const std::filesystem::path& path) {
    std::string text(1, '\'');
    text.append(path.string());
    text.push_back('\'');
    return text;
}

void writeFileAtomically(const fs::path& path, const std::function<void(std::FILE*)>& writeContent) {
    if (path.filename().empty()) throw FileError("Cannot write " + quoted(path) + ": the path names a directory, not a file.");
    removeStaleTemporaries(path);
    TemporaryFile temp = createTemporaryNextTo(path);
    try {
        errno = 0;
        writeContent(temp.stream);
        flushSyncAndClose(temp, path);
    } catch (...) {
        discard(temp);
        throw;
    }
    if (::rename(temp.path.c_str(), path.c_str()) != 0) {
        const int error = errno;
        discard(temp);
        throw FileError("Cannot replace " + quoted(path) + ": " + reason(error) + ".");
    }
    unlock(temp);
    syncDirectory(directoryOf(path));
}

void writeFileAtomically(const fs::path& path, std::string_view bytes) {
    writeFileAtomically(path, [&](std::FILE* stream) {
        if (bytes.empty()) return;
        if (std::fwrite(bytes.data(), 1, bytes.size(), stream) != bytes.size()) {
            const int error = errno != 0 ? errno : EIO;
            throw FileError("Cannot write " + quoted(path) + ": " + reason(error) + ".");
        }
    });
}

}  // namespace attnviz::io
