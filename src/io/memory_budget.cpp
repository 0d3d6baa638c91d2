// memory_budget.cpp — free memory from /proc, the address-space limit and the cgroup. See memory_budget.h.
#include "io/memory_budget.h"

#include "io/safe_read.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <limits>
#include <sstream>

#include <sys/resource.h>
#include <unistd.h>

namespace attnviz::io {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kUnlimited = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kMaxProcFileBytes = 1'000'000;

std::atomic<std::uint64_t> fakeAvailable{0};
std::atomic<bool> faked{false};

// A /proc or /sys file's text; "" when it cannot be read.
std::string systemFile(const fs::path& path) {
    try {
        return readFileCapped(path, kMaxProcFileBytes);
    } catch (const FileError&) {
        return "";
    }
}

// The leading whole number of `text` (after spaces); nullopt for "max" or no number.
std::optional<std::uint64_t> leadingNumber(std::string_view text) {
    const std::size_t start = text.find_first_not_of(" \t");
    if (start == std::string_view::npos) return std::nullopt;
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data() + start, text.data() + text.size(), value);
    if (error != std::errc()) return std::nullopt;
    return value;
}

std::uint64_t memAvailable() {
    const std::string meminfo = systemFile("/proc/meminfo");
    const std::size_t at = meminfo.find("MemAvailable:");
    if (at == std::string::npos) return kUnlimited;
    const auto kilobytes = leadingNumber(std::string_view(meminfo).substr(at + 13));
    return kilobytes ? *kilobytes * 1024 : kUnlimited;
}

std::uint64_t addressSpaceLeft() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return kUnlimited;
    const auto pages = leadingNumber(systemFile("/proc/self/statm"));  // first field: the address space in pages
    const std::uint64_t used = pages ? *pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) : 0;
    return limit.rlim_cur > used ? limit.rlim_cur - used : 0;
}

// limit − usage, or unlimited when either cannot be read (or the limit is "max").
std::uint64_t headroom(const fs::path& limitFile, const fs::path& usageFile) {
    const auto limit = leadingNumber(systemFile(limitFile));
    const auto usage = leadingNumber(systemFile(usageFile));
    if (!limit || !usage) return kUnlimited;
    return *limit > *usage ? *limit - *usage : 0;
}

std::uint64_t cgroupHeadroom() {
    std::istringstream lines(systemFile("/proc/self/cgroup"));
    std::uint64_t left = kUnlimited;
    for (std::string line; std::getline(lines, line);) {
        // "0::/user.slice/…" (v2) or "4:memory:/docker/…" (v1)
        const std::size_t first = line.find(':'), second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos) continue;
        const std::string controllers = line.substr(first + 1, second - first - 1);
        const fs::path path = fs::path(line.substr(second + 1)).relative_path();
        if (line.compare(0, first, "0") == 0 && controllers.empty()) {
            const fs::path group = fs::path("/sys/fs/cgroup") / path;
            left = std::min(left, headroom(group / "memory.max", group / "memory.current"));
        } else if (controllers == "memory") {
            for (const fs::path& root : {fs::path("/sys/fs/cgroup/memory") / path, fs::path("/sys/fs/cgroup/memory")}) {
                const std::uint64_t room = headroom(root / "memory.limit_in_bytes", root / "memory.usage_in_bytes");
                if (room != kUnlimited) {
                    left = std::min(left, room);
                    break;
                }
            }
        }
    }
    return left;
}

}  // namespace

std::uint64_t availableMemoryBytes() {
    if (faked.load()) return fakeAvailable.load();
    return std::min({memAvailable(), addressSpaceLeft(), cgroupHeadroom()});
}

void setAvailableMemoryForTesting(std::optional<std::uint64_t> bytes) {
    fakeAvailable.store(bytes.value_or(0));
    faked.store(bytes.has_value());
}

std::string memoryShortfall(std::uint64_t neededBytes) {
    const std::uint64_t available = availableMemoryBytes();
    return "needs " + byteCountText(neededBytes) + "; this machine has " +
           (available == kUnlimited ? std::string("no more to give") : byteCountText(available) + " free");
}

std::string outOfMemoryMessage() {
    const std::uint64_t available = availableMemoryBytes();
    return "Out of memory: this machine has " + (available == kUnlimited ? std::string("no more to give") : byteCountText(available) + " free") +
           "; try a smaller model or fewer, shorter sentences.";
}

void requireMemory(std::uint64_t neededBytes, std::string_view what) {
    if (neededBytes > availableMemoryBytes()) throw OutOfMemory(std::string(what) + " " + memoryShortfall(neededBytes) + ".");
}

}  // namespace attnviz::io
