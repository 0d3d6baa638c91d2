// memory_budget.h — how many bytes this process may still allocate, and the one message when a model needs more.
//
// Available = the smallest of: MemAvailable (/proc/meminfo), RLIMIT_AS minus the address space already in use
// (/proc/self/statm), and the cgroup's limit minus its usage (v2: memory.max − memory.current of the process's
// cgroup; v1: memory.limit_in_bytes − memory.usage_in_bytes). A figure that cannot be read does not limit.
// Checked before a model's weights are allocated (io/checkpoint.cpp), so a consistent 3 GB embedding ends in
// "… needs 3.2 GB; this machine has 1.1 GB free." instead of std::bad_alloc.
#pragma once

#include "io/atomic_file.h"  // FileError

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace attnviz::io {

// A model (or anything else) that needs more memory than the machine has free.
class OutOfMemory : public FileError {
public:
    using FileError::FileError;
};

// Bytes this process may still allocate (see above); UINT64_MAX when nothing limits it.
std::uint64_t availableMemoryBytes();

// Tests: pretend `bytes` are available (nullopt: measure again). Not for use outside tests.
void setAvailableMemoryForTesting(std::optional<std::uint64_t> bytes);

// "needs 6.1 GB; this machine has 3.2 GB free" — the sentence every out-of-memory message ends with.
std::string memoryShortfall(std::uint64_t neededBytes);

// What std::bad_alloc becomes: "Out of memory: this machine has 1.2 GB free; try a smaller model or fewer, shorter
// sentences."
std::string outOfMemoryMessage();

// Throws OutOfMemory "<what> needs 6.1 GB; this machine has 3.2 GB free." when `neededBytes` exceeds what is
// available.
void requireMemory(std::uint64_t neededBytes, std::string_view what);

}  // namespace attnviz::io
