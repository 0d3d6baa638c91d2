// npy.h — core::Tensor to and from NumPy's .npy format, so `numpy.load` reads our dumps with no extra code.
//
// Writes format 1.0, dtype '<f4' (little-endian float32), fortran_order False, C order, the tensor's shape,
// with the header laid out exactly as numpy.save lays it out (padded with spaces so the data starts at a
// multiple of 64 bytes, including numpy's spare room for the first axis to grow).
// Reads what numpy.save writes for float arrays: versions 1.0, 2.0 and 3.0, '<f4', and '<f8' (converted to
// float32). Everything else is rejected with a FileError naming the file and the problem.
// What this file deliberately does not do: other dtypes, big-endian data, Fortran order, pickles, .npz
// archives, or memory mapping. Decoding never trusts the input: any bytes give a Tensor or a FileError.
#pragma once

#include "core/matrix.h"
#include "io/atomic_file.h"  // FileError

#include <filesystem>
#include <string>
#include <string_view>

namespace attnviz::io {

// The complete .npy file for a tensor (any rank, including 0: a scalar). Throws std::invalid_argument when
// tensor.data does not hold the product of tensor.shape values.
std::string encodeNpy(const core::Tensor& tensor);
// The same bytes as encodeNpy, streamed from the tensor through writeFileAtomically (no second copy in memory).
void writeNpy(const std::filesystem::path& path, const core::Tensor& tensor);

// Parses a whole .npy file held in memory; `nameForErrors` (usually the path) starts every error message.
core::Tensor decodeNpy(std::string_view bytes, std::string_view nameForErrors);
// Reads and decodes a file; FileError when it cannot be read or is not a float .npy we accept.
core::Tensor readNpy(const std::filesystem::path& path);

}  // namespace attnviz::io
