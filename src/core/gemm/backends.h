// backends.h — the implementations behind core::gemm() (gemm.h), one file each. attnviz_core compiles the one
// ATTNVIZ_GEMM names; bench_gemm compiles every one whose library is installed, to measure them side by side.
// Each takes gemm()'s arguments and multiplies on the calling thread only; each describe…() names the library and
// the kernel it detected on this CPU.
#pragma once

#include "core/gemm.h"

#include <string>

namespace attnviz::core::gemm_backends {

void oneDnn(const GemmInput& a, const GemmInput& b, BLayout layout, GemmOutput c);    // dnnl_sgemm
std::string describeOneDnn();
void openBlas(const GemmInput& a, const GemmInput& b, BLayout layout, GemmOutput c);  // cblas_sgemm
std::string describeOpenBlas();
void blis(const GemmInput& a, const GemmInput& b, BLayout layout, GemmOutput c);      // bli_sgemm
std::string describeBlis();

}  // namespace attnviz::core::gemm_backends
