// gemm.cpp — core::gemm(): the implementation ATTNVIZ_GEMM chose at configure time (src/core/CMakeLists.txt
// defines one ATTNVIZ_GEMM_… macro), and Eigen's, which is always there as the tests' reference.
#include "core/gemm.h"

#include "core/gemm/backends.h"

#include <cassert>

namespace attnviz::core {

void gemmEigen(const GemmInput& a, const GemmInput& b, BLayout layout, GemmOutput c) {
    if (layout == BLayout::Transposed) {
        c.noalias() = a * b.transpose();
    } else {
        c.noalias() = a * b;
    }
}

void gemm(const GemmInput& a, const GemmInput& b, BLayout layout, GemmOutput c) {
    assert(a.rows() == c.rows());
    assert(layout == BLayout::Transposed ? (b.cols() == a.cols() && b.rows() == c.cols())
                                         : (b.rows() == a.cols() && b.cols() == c.cols()));
#if defined(ATTNVIZ_GEMM_ONEDNN)
    gemm_backends::oneDnn(a, b, layout, c);
#elif defined(ATTNVIZ_GEMM_OPENBLAS)
    gemm_backends::openBlas(a, b, layout, c);
#elif defined(ATTNVIZ_GEMM_BLIS)
    gemm_backends::blis(a, b, layout, c);
#else
    gemmEigen(a, b, layout, c);
#endif
}

std::string gemmImplementation() {
#if defined(ATTNVIZ_GEMM_ONEDNN)
    return gemm_backends::describeOneDnn();
#elif defined(ATTNVIZ_GEMM_OPENBLAS)
    return gemm_backends::describeOpenBlas();
#elif defined(ATTNVIZ_GEMM_BLIS)
    return gemm_backends::describeBlis();
#else
    return "Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
           std::to_string(EIGEN_MINOR_VERSION);
#endif
}

}  // namespace attnviz::core
