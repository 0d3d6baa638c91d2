// gemm_blis.cpp — core::gemm() by BLIS's typed API bli_sgemm (libblis-dev; scripts/setup installs the serial
// build: one thread per call, as parallel.h wants). BLIS takes a row and a column stride per operand.
#include "core/gemm/backends.h"

#include <blis.h>

namespace attnviz::core::gemm_backends {

void blis(const GemmInput& a, const GemmInput& b, BLayout layout, GemmOutput c) {
    if (c.size() == 0) return;
    float one = 1.0f, zero = 0.0f;
    const trans_t opB = layout == BLayout::Transposed ? BLIS_TRANSPOSE : BLIS_NO_TRANSPOSE;
    bli_sgemm(BLIS_NO_TRANSPOSE, opB, c.rows(), c.cols(), a.cols(), &one, const_cast<float*>(a.data()), a.outerStride(), 1,
              const_cast<float*>(b.data()), b.outerStride(), 1, &zero, c.data(), c.outerStride(), 1);
}

std::string describeBlis() {
    return std::string("BLIS ") + bli_info_get_version_str() + " (" + bli_arch_string(bli_arch_query_id()) + ")";
}

}  // namespace attnviz::core::gemm_backends
