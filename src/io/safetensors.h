// safetensors.h — a .safetensors file (HuggingFace's weight format), memory-mapped and checked before any byte of
// it is trusted.
//
// The format: 8 bytes little-endian N, then N bytes of JSON {"name": {"dtype", "shape", "data_offsets": [begin,
// end]}, …, optional "__metadata__"}, then the byte buffer the offsets index (relative to its start). F32, F16 and
// BF16 tensors read as float32; any other dtype is refused by name when it is read.
// Checked when the file is opened: N within the file and under 100 MB, the JSON valid and of the right types, every
// shape non-negative, offsets inside the buffer with begin ≤ end, tensors not overlapping, and shape × dtype size
// equal to the byte length. Each failure is one io::FileError naming the file, the tensor and what is wrong.
// What it deliberately does not do: know any model's tensor names (checkpoint.h does), or write safetensors.
#pragma once

#include "core/matrix.h"
#include "io/atomic_file.h"  // FileError

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace attnviz::io {

inline constexpr std::uint64_t kMaxSafetensorsHeader = 100'000'000;

struct SafetensorsEntry {
    std::string dtype;               // "F32", "F16", "BF16", … as the header names it
    std::vector<std::int64_t> shape;
    std::uint64_t begin = 0;         // byte offsets into the buffer after the header
    std::uint64_t end = 0;
    std::int64_t elementCount() const;  // −1 when the product overflows
};

// The header of a safetensors byte image, checked against the image's size. `name` starts every error message.
std::map<std::string, SafetensorsEntry> parseSafetensorsHeader(std::span<const std::byte> file, const std::string& name);

// A tensor's bytes as float32 values (F32, F16 or BF16, little-endian), row-major as stored.
std::vector<float> decodeTensor(std::span<const std::byte> bytes, const std::string& dtype, const std::string& nameForErrors);

// An opened, mapped and checked file. Move-only; unmaps on destruction.
class SafetensorsFile {
public:
    explicit SafetensorsFile(const std::filesystem::path& path);
    ~SafetensorsFile();
    SafetensorsFile(SafetensorsFile&& other) noexcept;
    SafetensorsFile& operator=(SafetensorsFile&&) = delete;
    SafetensorsFile(const SafetensorsFile&) = delete;
    SafetensorsFile& operator=(const SafetensorsFile&) = delete;

    const std::map<std::string, SafetensorsEntry>& entries() const { return entries_; }
    bool has(const std::string& tensor) const { return entries_.count(tensor) > 0; }
    // The tensor as a row-major rows × cols float32 matrix: 2-D as stored, 1-D as one row. FileError naming the
    // tensor when it is missing, has another rank, or a dtype that is not F32, F16 or BF16.
    core::Matrix matrix(const std::string& tensor) const;
    // The same transposed (cols × rows), written straight from the mapping for F32: nn.Linear's out × in weights
    // become in × out without a second copy of the tensor.
    core::Matrix transposedMatrix(const std::string& tensor) const;
    // The tensor's float32 values in place in the mapping (row-major as stored, valid while this file lives), or
    // nullptr when it is not F32 or not on a float boundary (then matrix() copies or widens it). Should the file
    // be truncated on disk while mapped, reads past its new end give zeros instead of SIGBUS, and cutShort() is true.
    const float* mappedFloats(const std::string& tensor) const;
    bool cutShort() const;
    std::string fileName() const { return path_.string(); }

private:
    std::span<const std::byte> bytes() const { return {static_cast<const std::byte*>(data_), size_}; }
    void releasePages(std::span<const std::byte> copied) const;
    const SafetensorsEntry& matrixEntry(const std::string& tensor) const;  // FileError when missing or not 1-D / 2-D
    std::span<const std::byte> rawBytes(const SafetensorsEntry& entry) const;
    std::filesystem::path path_;
    void* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t bufferStart_ = 0;
    int guard_ = -1;  // the slot of the SIGBUS guard watching this mapping (safetensors.cpp), −1 when none
    std::map<std::string, SafetensorsEntry> entries_;
};

// Whether a checkpoint file still mapped by an open model was cut short on disk (its lost weights now read as
// zeros): the app says so until the model is reopened and the old mapping is released.
bool anyMappedFileCutShort();
// Whether `values` (a pointer mappedFloats gave) lie in a mapping whose file was cut short: they now read as zeros.
bool mappedValuesCutShort(const void* values);

}  // namespace attnviz::io
