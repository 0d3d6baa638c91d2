// safe_read.cpp — non-blocking, type-checked, size-capped file reads. See safe_read.h.
#include "io/safe_read.h"

#include <cerrno>
#include <cstdio>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace attnviz::io {
namespace {

namespace fs = std::filesystem;


// What a non-regular file is, in words; "" for a regular file.
std::string kindOf(mode_t mode) {
    if (S_ISREG(mode)) return "";
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

[[noreturn]] void failWith(const fs::path& path, int error) {
    throw FileError("Cannot read " + quoted(path) + ": " + reason(error) + ".");
}

void requireRegular(const fs::path& path, mode_t mode) {
    if (const std::string kind = kindOf(mode); !kind.empty()) throw FileError(quoted(path) + " is " + kind + ", not a file.");
}

}  // namespace

RegularFile::RegularFile(const fs::path& path) : path_(path) {
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0) failWith(path, errno);
    requireRegular(path, status.st_mode);  // before open(): opening a device can have effects
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0) failWith(path, errno);
    if (::fstat(fd_, &status) != 0) {
        const int error = errno;
        ::close(fd_);
        failWith(path, error);
    }
    if (!S_ISREG(status.st_mode)) {
        ::close(fd_);
        requireRegular(path, status.st_mode);  // swapped between stat and open
    }
    size_ = static_cast<std::uint64_t>(status.st_size);
}

RegularFile::~RegularFile() {
    if (fd_ >= 0) ::close(fd_);
}

std::string RegularFile::readAll(std::uint64_t maxBytes) const {
    if (size_ > maxBytes) {
        throw FileTooLarge(quoted(path_) + " is " + byteCountText(size_) + "; a file of its kind is at most " + byteCountText(maxBytes) + ".");
    }
    std::string bytes;
    bytes.reserve(static_cast<std::size_t>(size_));
    char buffer[1 << 16];
    for (;;) {
        const ssize_t got = ::read(fd_, buffer, sizeof buffer);
        if (got == 0) break;
        if (got < 0) {
            if (errno == EINTR) continue;
            failWith(path_, errno);
        }
        bytes.append(buffer, static_cast<std::size_t>(got));
        if (bytes.size() > maxBytes) {  // grew while being read (or a size the file system does not report)
            throw FileTooLarge(quoted(path_) + " is over " + byteCountText(maxBytes) + ", the most a file of its kind may be.");
        }
    }
    return bytes;
}

std::uint64_t RegularFile::holeBytes() const {
    std::uint64_t holes = 0;
#if defined(SEEK_DATA)  // Linux; the web page's in-memory files have no holes to find
    const auto end = static_cast<off_t>(size_);
    off_t at = 0;
    for (std::uint64_t extents = 0; at < end && extents < kMaxExtentsCounted; ++extents) {
        const off_t data = ::lseek(fd_, at, SEEK_DATA);
        if (data < 0) {
            if (errno == ENXIO) holes += static_cast<std::uint64_t>(end - at);  // no data from `at` to the end
            break;                                                               // otherwise the file system cannot say
        }
        holes += static_cast<std::uint64_t>(data - at);
        at = ::lseek(fd_, data, SEEK_HOLE);  // the end of this run of data (the file's end counts as a hole)
        if (at < 0) break;
    }
    ::lseek(fd_, 0, SEEK_SET);  // readAll reads from the start
#endif
    return holes;
}

void requireWrittenWhole(const RegularFile& file, const fs::path& path) {
    const std::uint64_t holes = file.holeBytes();
    if (holes > file.size() / 2) {
        throw FileError(quoted(path) + " is " + byteCountText(file.size()) + " long, but " + byteCountText(holes) +
                        " of it are holes the file system never stored (a sparse file, made by truncate or a seek past its end); "
                        "weights are written whole, so attnviz does not read it.");
    }
}

std::string readFileCapped(const fs::path& path, std::uint64_t maxBytes) { return RegularFile(path).readAll(maxBytes); }

std::string readWholeFile(const fs::path& path) { return readFileCapped(path, kNoSizeCap); }

void requireJsonDepth(std::string_view text, std::string_view name, int maxDepth) {
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\') ++i;  // the escaped character cannot end the string
            else if (c == '"') inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth) {
                throw FileError(std::string(name) + ": its JSON nests deeper than " + std::to_string(maxDepth) + " levels.");
            }
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
}

std::string readJsonFile(const fs::path& path, std::uint64_t maxBytes) {
    std::string text = readFileCapped(path, maxBytes);
    requireJsonDepth(text, path.string());
    return text;
}

bool fileIsMissing(const fs::path& path) {
    struct stat status {};
    if (::stat(path.c_str(), &status) == 0) return false;
    return errno == ENOENT || errno == ENOTDIR;
}

std::string byteCountText(std::uint64_t bytes) {
    if (bytes < 10'000) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
    const char* units[] = {"KB", "MB", "GB", "TB", "PB", "EB"};
    double value = static_cast<double>(bytes) / 1000.0;
    std::size_t unit = 0;
    while (value >= 999.95 && unit + 1 < std::size(units)) {
        value /= 1000.0;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
    return text;
}

}  // namespace attnviz::io
