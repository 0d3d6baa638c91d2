// gemm_onednn.cpp — core::gemm() by oneDNN's dnnl_sgemm (libdnnl-dev: JIT kernels for the CPU it runs on).
// Debian's oneDNN runs on OpenMP: each calling thread is held to one OpenMP thread (its own setting, so the
// forward's head and block workers each multiply alone, as parallel.h wants).
#include "core/gemm/backends.h"

#include <oneapi/dnnl/dnnl.h>

#include <stdexcept>

extern "C" void omp_set_num_threads(int);  // libgomp, which libdnnl links

namespace attnviz::core::gemm_backends {
namespace {

void oneOpenMpThreadOnThisThread() {
    thread_local const bool pinned = [] {
        omp_set_num_threads(1);
        return true;
    }();
    (void)pinned;
}

const char* isaName(dnnl_cpu_isa_t isa) {
    switch (isa) {
        case dnnl_cpu_isa_sse41: return "sse41";
        case dnnl_cpu_isa_avx: return "avx";
        case dnnl_cpu_isa_avx2: return "avx2";
        case dnnl_cpu_isa_avx2_vnni: return "avx2_vnni";
        case dnnl_cpu_isa_avx512_core: return "avx512_core";
        case dnnl_cpu_isa_avx512_core_vnni: return "avx512_core_vnni";
        case dnnl_cpu_isa_avx512_core_bf16: return "avx512_core_bf16";
        case dnnl_cpu_isa_avx512_core_amx: return "avx512_core_amx";
        default: return "other";
    }
}

}  // namespace

// Row-major C = A · op(B): dnnl_sgemm takes row-major operands and leading dimensions directly.
void oneDnn(const GemmInput& a, const GemmInput& b, BLayout layout, GemmOutput c) {
    if (c.size() == 0) return;
    oneOpenMpThreadOnThisThread();
    const bool transposed = layout == BLayout::Transposed;
    const dnnl_status_t status = dnnl_sgemm('N', transposed ? 'T' : 'N', c.rows(), c.cols(), a.cols(), 1.0f, a.data(),
                                            a.outerStride(), b.data(), b.outerStride(), 0.0f, c.data(), c.outerStride());
    if (status != dnnl_success) throw std::runtime_error("oneDNN's sgemm failed (status " + std::to_string(status) + ").");
}

std::string describeOneDnn() {
    const dnnl_version_t* v = dnnl_version();
    return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) +
           " (" + isaName(dnnl_get_effective_cpu_isa()) + ")";
}

}  // namespace attnviz::core::gemm_backends
