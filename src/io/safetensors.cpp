// safetensors.cpp — mapping, checking and decoding .safetensors files. See safetensors.h.
#include "io/safetensors.h"

#include "core/names.h"
#include "io/json_value_text.h"
#include "io/safe_read.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <limits>
#include <mutex>

#include <sys/mman.h>
#include <unistd.h>

namespace attnviz::io {
namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const std::string& file, const std::string& problem) { throw FileError(file + ": " + problem); }

std::size_t dtypeSize(const std::string& dtype) {
    if (dtype == "F64" || dtype == "I64" || dtype == "U64") return 8;
    if (dtype == "F32" || dtype == "I32" || dtype == "U32") return 4;
    if (dtype == "F16" || dtype == "BF16" || dtype == "I16" || dtype == "U16") return 2;
    if (dtype == "I8" || dtype == "U8" || dtype == "BOOL" || dtype == "F8_E4M3" || dtype == "F8_E5M2") return 1;
    return 0;
}

std::uint64_t readLength(std::span<const std::byte> file) {
    std::uint64_t length = 0;
    for (int i = 7; i >= 0; --i) length = length << 8 | static_cast<std::uint8_t>(file[static_cast<std::size_t>(i)]);
    return length;
}

SafetensorsEntry readEntry(const std::string& tensor, const json& value, const std::string& file) {
    const std::string where = "tensor \"" + core::echoed(tensor) + "\" ";
    if (!value.is_object()) fail(file, where + "is not described by a JSON object.");
    if (!value.contains("dtype") || !value["dtype"].is_string()) fail(file, where + "has no dtype string.");
    if (!value.contains("shape") || !value["shape"].is_array()) fail(file, where + "has no shape list.");
    if (!value.contains("data_offsets") || !value["data_offsets"].is_array() || value["data_offsets"].size() != 2) {
        fail(file, where + "has no data_offsets [begin, end].");
    }
    SafetensorsEntry entry;
    entry.dtype = value["dtype"].get<std::string>();
    if (dtypeSize(entry.dtype) == 0) fail(file, where + "has the unknown dtype \"" + core::echoed(entry.dtype) + "\".");
    for (const json& dim : value["shape"]) {
        if (!dim.is_number_unsigned()) fail(file, where + "has a shape entry that is not a whole number ≥ 0.");
        if (dim.get<std::uint64_t>() > (1ULL << 40)) fail(file, where + "has an absurd shape entry " + std::to_string(dim.get<std::uint64_t>()) + ".");
        entry.shape.push_back(dim.get<std::int64_t>());
    }
    for (const json& offset : value["data_offsets"]) {
        if (!offset.is_number_unsigned()) fail(file, where + "has a data offset that is not a whole number ≥ 0.");
    }
    entry.begin = value["data_offsets"][0].get<std::uint64_t>();
    entry.end = value["data_offsets"][1].get<std::uint64_t>();
    if (entry.begin > entry.end) fail(file, where + "has data_offsets that end before they begin.");
    return entry;
}

// Every tensor's bytes inside the buffer, matching its shape and dtype, and no two overlapping.
void checkLayout(const std::map<std::string, SafetensorsEntry>& entries, std::uint64_t bufferSize, const std::string& file) {
    std::vector<std::pair<std::uint64_t, const std::string*>> starts;
    for (const auto& [tensor, entry] : entries) {
        const std::string where = "tensor \"" + core::echoed(tensor) + "\" ";
        if (entry.end > bufferSize) {
            fail(file, where + "ends at byte " + std::to_string(entry.end) + " of a data buffer of " + std::to_string(bufferSize) +
                           " bytes (the file is truncated or its header is wrong).");
        }
        if (entry.elementCount() < 0) fail(file, where + "has a shape whose size overflows 64 bits.");
        const long double expected = static_cast<long double>(entry.elementCount()) * dtypeSize(entry.dtype);
        if (expected != static_cast<long double>(entry.end - entry.begin)) {
            fail(file, where + "has " + std::to_string(entry.end - entry.begin) + " bytes, but its shape and dtype " + entry.dtype + " need " +
                           std::to_string(static_cast<unsigned long long>(expected)) + ".");
        }
        if (entry.end > entry.begin) starts.emplace_back(entry.begin, &tensor);
    }
    std::sort(starts.begin(), starts.end());
    for (std::size_t i = 1; i < starts.size(); ++i) {
        const SafetensorsEntry& previous = entries.at(*starts[i - 1].second);
        if (starts[i].first < previous.end) {
            fail(file, "tensors \"" + core::echoed(*starts[i - 1].second) + "\" and \"" + core::echoed(*starts[i].second) + "\" overlap in the data buffer.");
        }
    }
}

float halfToFloat(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1Fu;
    std::uint32_t mantissa = h & 0x3FFu;
    std::uint32_t bits;
    if (exponent == 0x1F) {
        bits = sign | 0x7F800000u | mantissa << 13;  // inf or NaN
    } else if (exponent != 0) {
        bits = sign | (exponent + 112) << 23 | mantissa << 13;
    } else if (mantissa == 0) {
        bits = sign;  // ±0
    } else {  // subnormal: normalise
        int shift = 0;
        while ((mantissa & 0x400u) == 0) {
            mantissa <<= 1;
            ++shift;
        }
        bits = sign | static_cast<std::uint32_t>(113 - shift) << 23 | (mantissa & 0x3FFu) << 13;
    }
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

float bfloatToFloat(std::uint16_t b) {
    const std::uint32_t bits = static_cast<std::uint32_t>(b) << 16;
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

}  // namespace

std::int64_t SafetensorsEntry::elementCount() const {
    std::int64_t count = 1;
    for (std::int64_t dim : shape) {
        if (__builtin_mul_overflow(count, dim, &count)) return -1;
    }
    return count;
}

std::map<std::string, SafetensorsEntry> parseSafetensorsHeader(std::span<const std::byte> file, const std::string& name) {
    if (file.size() < 8) fail(name, "is " + std::to_string(file.size()) + " bytes long, too short for a safetensors file.");
    const std::uint64_t length = readLength(file);
    if (length > kMaxSafetensorsHeader) fail(name, "claims a header of " + std::to_string(length) + " bytes (more than 100 MB): not a safetensors file.");
    if (length > file.size() - 8) {
        fail(name, "claims a header of " + std::to_string(length) + " bytes but has only " + std::to_string(file.size() - 8) + " after its length.");
    }
    const char* text = reinterpret_cast<const char*>(file.data() + 8);
    requireJsonDepth(std::string_view(text, static_cast<std::size_t>(length)), name);
    const json header = json::parse(text, text + length, nullptr, false);
    if (header.is_discarded()) fail(name, "its header is not valid JSON.");
    if (!header.is_object()) fail(name, "its header is not a JSON object.");
    std::map<std::string, SafetensorsEntry> entries;
    for (const auto& [tensor, value] : header.items()) {
        if (tensor == "__metadata__") continue;
        entries.emplace(tensor, readEntry(tensor, value, name));
    }
    checkLayout(entries, file.size() - 8 - length, name);
    return entries;
}

namespace {

// A weight's dtype, as its header names it: F32, F16 or BF16; FileError naming the tensor for any other.
core::Dtype weightDtype(const std::string& dtype, const std::string& nameForErrors) {
    if (const std::optional<core::Dtype> known = core::valueNamed(dtype, core::kDtypeNames)) return *known;
    throw FileError(nameForErrors + " is stored as " + core::echoed(dtype) + "; attnviz reads " + core::namesListed(core::kDtypeNames) + " weights.");
}

bool storedAsF32(const SafetensorsEntry& entry) { return core::valueNamed(entry.dtype, core::kDtypeNames) == core::Dtype::F32; }

// decodeTensor's values written to `out` (bytes.size() / 4 or / 2 floats): the dtype is compared once, not per value.
void decodeInto(std::span<const std::byte> bytes, core::Dtype dtype, float* out) {
    if (dtype == core::Dtype::F32) {
        std::memcpy(out, bytes.data(), bytes.size() / 4 * 4);  // little-endian, as x86-64
        return;
    }
    const std::size_t count = bytes.size() / 2;
    const auto raw = [&](std::size_t i) {
        return static_cast<std::uint16_t>(static_cast<std::uint8_t>(bytes[2 * i]) | static_cast<std::uint8_t>(bytes[2 * i + 1]) << 8);
    };
    if (dtype == core::Dtype::F16) {
        for (std::size_t i = 0; i < count; ++i) out[i] = halfToFloat(raw(i));
    } else {
        for (std::size_t i = 0; i < count; ++i) out[i] = bfloatToFloat(raw(i));
    }
}

// m transposed, tile by tile: a tile's rows and columns both stay in L1. Eigen's plain transpose walks one side
// a whole column apart per element: opening a Qwen2.5-0.5B-shaped checkpoint spent 5 of its 11 s there.
core::Matrix transposedInTiles(const Eigen::Ref<const core::Matrix>& m) {
    constexpr Eigen::Index kTile = 64;  // 16 KB of floats
    core::Matrix out(m.cols(), m.rows());
    for (Eigen::Index row = 0; row < m.rows(); row += kTile) {
        const Eigen::Index height = std::min(kTile, m.rows() - row);
        for (Eigen::Index col = 0; col < m.cols(); col += kTile) {
            const Eigen::Index width = std::min(kTile, m.cols() - col);
            out.block(col, row, width, height) = m.block(row, col, height, width).transpose();
        }
    }
    return out;
}

}  // namespace

std::vector<float> decodeTensor(std::span<const std::byte> bytes, const std::string& dtype, const std::string& nameForErrors) {
    const core::Dtype type = weightDtype(dtype, nameForErrors);
    std::vector<float> values(bytes.size() / static_cast<std::size_t>(core::bytesPerValue(type)));
    decodeInto(bytes, type, values.data());
    return values;
}

// [SECTION] a file cut short while mapped
//
// Weights read in place (mappedFloats) live in the mapping as long as the model. Were the file truncated on disk
// meanwhile (a checkpoint saved again in place: safetensors' save_file opens it with "wb"), the next read of a page
// past its new end would raise SIGBUS, even through MAP_PRIVATE. (A file replaced by rename, as the hub cache and
// atomic writers do, keeps the old inode mapped: nothing happens.) The handler below catches SIGBUS inside a live
// mapping, puts zero pages over the whole mapping (mmap with MAP_FIXED, a system call and async-signal-safe) and
// returns, so the read goes on with zeros; cutShort() says so. A SIGBUS anywhere else goes to the previous handler.

namespace {

struct LiveMapping {
    std::atomic<std::uintptr_t> begin{0};  // 0: a free slot
    std::atomic<std::uintptr_t> end{0};
    std::atomic<bool> cut{false};
};
constexpr std::size_t kMaxLiveMappings = 256;  // files mapped at once (shards of every open model); beyond: copied
std::array<LiveMapping, kMaxLiveMappings> liveMappings;
struct sigaction previousBusAction {};

void onBusError(int signal, siginfo_t* info, void* context) {
    const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    for (LiveMapping& mapping : liveMappings) {
        const std::uintptr_t begin = mapping.begin.load(), end = mapping.end.load();
        if (begin == 0 || address < begin || address >= end) continue;
        if (::mmap(reinterpret_cast<void*>(begin), end - begin, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
            mapping.cut.store(true);
            return;  // the faulting read runs again and finds zeros
        }
    }
    if ((previousBusAction.sa_flags & SA_SIGINFO) != 0 && previousBusAction.sa_sigaction != nullptr) {
        previousBusAction.sa_sigaction(signal, info, context);
    } else if (previousBusAction.sa_handler != SIG_DFL && previousBusAction.sa_handler != SIG_IGN) {
        previousBusAction.sa_handler(signal);
    } else {
        ::signal(SIGBUS, SIG_DFL);  // returning re-runs the read, which now ends the process as without us
    }
}

// The slot now guarding [data, data + size), or −1 when every slot is taken (the caller then copies its tensors).
int guardMapping(const void* data, std::size_t size) {
    static std::once_flag installed;
    std::call_once(installed, [] {
        struct sigaction action {};
        action.sa_sigaction = onBusError;
        action.sa_flags = SA_SIGINFO;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGBUS, &action, &previousBusAction);
    });
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    for (std::size_t slot = 0; slot < liveMappings.size(); ++slot) {
        std::uintptr_t expected = 0;
        if (!liveMappings[slot].begin.compare_exchange_strong(expected, begin)) continue;
        liveMappings[slot].cut.store(false);
        liveMappings[slot].end.store(begin + size);
        return static_cast<int>(slot);
    }
    return -1;
}

void releaseGuard(int slot) {
    if (slot < 0) return;
    liveMappings[static_cast<std::size_t>(slot)].end.store(0);
    liveMappings[static_cast<std::size_t>(slot)].begin.store(0);
}

}  // namespace

bool anyMappedFileCutShort() {
    return std::any_of(liveMappings.begin(), liveMappings.end(),
                       [](const LiveMapping& mapping) { return mapping.begin.load() != 0 && mapping.cut.load(); });
}

bool mappedValuesCutShort(const void* values) {
    const auto address = reinterpret_cast<std::uintptr_t>(values);
    return std::any_of(liveMappings.begin(), liveMappings.end(), [address](const LiveMapping& mapping) {
        const std::uintptr_t begin = mapping.begin.load();
        return begin != 0 && address >= begin && address < mapping.end.load() && mapping.cut.load();
    });
}

bool SafetensorsFile::cutShort() const { return guard_ >= 0 && liveMappings[static_cast<std::size_t>(guard_)].cut.load(); }

SafetensorsFile::SafetensorsFile(const std::filesystem::path& path) : path_(path) {
    const RegularFile file(path);  // a FIFO or device is refused here, without blocking
    requireWrittenWhole(file, path);  // a sparse file is refused before a page of it is mapped
    size_ = static_cast<std::size_t>(file.size());
    if (size_ > 0) {
        data_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, file.descriptor(), 0);
        if (data_ == MAP_FAILED) {
            data_ = nullptr;
            fail(path.string(), std::string("cannot be mapped: ") + std::strerror(errno) + ".");
        }
    }
    try {
        entries_ = parseSafetensorsHeader(bytes(), path.string());
    } catch (...) {
        if (data_ != nullptr) ::munmap(data_, size_);
        throw;
    }
    bufferStart_ = 8 + static_cast<std::size_t>(readLength(bytes()));
    if (data_ != nullptr) guard_ = guardMapping(data_, size_);
}

SafetensorsFile::SafetensorsFile(SafetensorsFile&& other) noexcept
    : path_(std::move(other.path_)), data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)),
      bufferStart_(other.bufferStart_), guard_(std::exchange(other.guard_, -1)), entries_(std::move(other.entries_)) {}

void SafetensorsFile::releasePages(std::span<const std::byte> copied) const {
    // The mapping's pages count as this process's memory until unmapped: copying a 500 MB checkpoint would briefly
    // hold it twice. Pages wholly inside a tensor already copied are dropped now (read again from the file if needed).
    const auto pageSize = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto begin = (reinterpret_cast<std::uintptr_t>(copied.data()) + pageSize - 1) / pageSize * pageSize;
    const auto end = (reinterpret_cast<std::uintptr_t>(copied.data()) + copied.size()) / pageSize * pageSize;
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

SafetensorsFile::~SafetensorsFile() {
    releaseGuard(guard_);
    if (data_ != nullptr) ::munmap(data_, size_);
}

const SafetensorsEntry& SafetensorsFile::matrixEntry(const std::string& tensor) const {
    const auto found = entries_.find(tensor);
    if (found == entries_.end()) fail(path_.string(), "has no tensor \"" + core::echoed(tensor) + "\".");
    const SafetensorsEntry& entry = found->second;
    if (entry.shape.empty() || entry.shape.size() > 2) {
        fail(path_.string(), "tensor \"" + core::echoed(tensor) + "\" has " + std::to_string(entry.shape.size()) + " dimensions; a weight has 1 or 2.");
    }
    return entry;
}

std::span<const std::byte> SafetensorsFile::rawBytes(const SafetensorsEntry& entry) const {
    return bytes().subspan(bufferStart_ + entry.begin, entry.end - entry.begin);
}

core::Matrix SafetensorsFile::matrix(const std::string& tensor) const {
    const SafetensorsEntry& entry = matrixEntry(tensor);
    const std::span<const std::byte> raw = rawBytes(entry);
    const Eigen::Index rows = entry.shape.size() == 2 ? entry.shape[0] : 1;
    const Eigen::Index cols = entry.shape.back();
    core::Matrix out(rows, cols);
    const core::Dtype dtype = weightDtype(entry.dtype, path_.string() + ": tensor \"" + core::echoed(tensor) + "\"");
    if (dtype == core::Dtype::F32) {
        std::memcpy(out.data(), raw.data(), raw.size());  // little-endian float32 straight from the mapping: one copy
    } else {
        decodeInto(raw, dtype, out.data());  // widened in place: no second copy
    }
    releasePages(raw);
    return out;
}

const float* SafetensorsFile::mappedFloats(const std::string& tensor) const {
    const SafetensorsEntry& entry = matrixEntry(tensor);
    const std::span<const std::byte> raw = rawBytes(entry);
    const bool aligned = reinterpret_cast<std::uintptr_t>(raw.data()) % alignof(float) == 0;
    if (!storedAsF32(entry) || !aligned || guard_ < 0) return nullptr;  // unguarded: a cut file could not be survived
    return reinterpret_cast<const float*>(raw.data());
}

core::Matrix SafetensorsFile::transposedMatrix(const std::string& tensor) const {
    const SafetensorsEntry& entry = matrixEntry(tensor);
    const std::span<const std::byte> raw = rawBytes(entry);
    // F32 on a float boundary (safetensors writers pad the header to 8 bytes): read in place; else widen first.
    if (!storedAsF32(entry) || reinterpret_cast<std::uintptr_t>(raw.data()) % alignof(float) != 0) return transposedInTiles(matrix(tensor));
    const Eigen::Index rows = entry.shape.size() == 2 ? entry.shape[0] : 1;
    const Eigen::Index cols = entry.shape.back();
    core::Matrix out = transposedInTiles(core::MatrixView(reinterpret_cast<const float*>(raw.data()), rows, cols));
    releasePages(raw);
    return out;
}

}  // namespace attnviz::io
