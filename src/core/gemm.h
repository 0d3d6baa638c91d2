// gemm.h — the one matrix multiply of the forward pass: every projection, MLP (SwiGLU too), LM-head and attention
// product goes through gemm(), whose implementation is chosen at configure time (CMake option ATTNVIZ_GEMM: oneDNN,
// OpenBLAS, BLIS or Eigen; docs/performance.md has the measurements that made oneDNN the default). Every call runs
// on the calling thread only: the forward splits heads and blocks across cores itself (parallel.h).
#pragma once

#include "core/matrix.h"

#include <string>

namespace attnviz::core {

// Row-major views with any row stride (a Map, a block of a Matrix, columns of a fused buffer).
using GemmInput = Eigen::Ref<const Matrix, 0, Eigen::OuterStride<>>;
using GemmOutput = Eigen::Ref<Matrix, 0, Eigen::OuterStride<>>;

// How B enters the product: as stored (k × n), or transposed (stored n × k, e.g. nn.Linear's out × in or K_i).
enum class BLayout { AsStored, Transposed };

// C (m × n) = A (m × k) · op(B), op(B) k × n. C must not overlap A or B. Shapes are checked by assertions only:
// callers pass the model's own, already checked, shapes.
void gemm(const GemmInput& a, const GemmInput& b, BLayout layout, GemmOutput c);

// The same product by Eigen's own GEMM, whatever ATTNVIZ_GEMM says: the reference the tests compare gemm() with.
void gemmEigen(const GemmInput& a, const GemmInput& b, BLayout layout, GemmOutput c);

// The implementation gemm() uses and the kernel it detected on this CPU, e.g. "oneDNN 2.6.3 (avx512_core_bf16)".
std::string gemmImplementation();

}  // namespace attnviz::core
