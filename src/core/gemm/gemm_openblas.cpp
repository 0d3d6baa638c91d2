// gemm_openblas.cpp — core::gemm() by OpenBLAS's cblas_sgemm (libopenblas-dev). Debian's default OpenBLAS is the
// pthread build: its own threads are switched off (one thread per call, as parallel.h wants).
#include "core/gemm/backends.h"

#include <cblas.h>

extern "C" void openblas_set_num_threads(int);
extern "C" char* openblas_get_corename(void);

namespace attnviz::core::gemm_backends {

void openBlas(const GemmInput& a, const GemmInput& b, BLayout layout, GemmOutput c) {
    if (c.size() == 0) return;
    static const bool oneThread = [] {
        openblas_set_num_threads(1);
        return true;
    }();
    (void)oneThread;
    const CBLAS_TRANSPOSE opB = layout == BLayout::Transposed ? CblasTrans : CblasNoTrans;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, opB, static_cast<blasint>(c.rows()), static_cast<blasint>(c.cols()),
                static_cast<blasint>(a.cols()), 1.0f, a.data(), static_cast<blasint>(a.outerStride()), b.data(),
                static_cast<blasint>(b.outerStride()), 0.0f, c.data(), static_cast<blasint>(c.outerStride()));
}

std::string describeOpenBlas() {
    return std::string("OpenBLAS (") + openblas_get_corename() + ")";
}

}  // namespace attnviz::core::gemm_backends
