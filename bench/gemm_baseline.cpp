// gemm_baseline.cpp — see gemm_baseline.h.
#include "gemm_baseline.h"

#include "core/gemm.h"
#include "core/matrix.h"
#include "core/parallel.h"

namespace attnviz::bench {

void gemmBaseline(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    const core::Matrix a = core::Matrix::Random(n, n), b = core::Matrix::Random(n, n);
    core::Matrix c(n, n);
    constexpr int kBlocks = 8;
    const int width = n / kBlocks;
    for (auto _ : state) {
        core::parallelFor(kBlocks, true, [&](int block) {
            core::gemm(a, b.middleCols(block * width, width), core::BLayout::AsStored, c.middleCols(block * width, width));
        });
        benchmark::DoNotOptimize(c.data());
    }
    state.counters["FLOP/s"] = benchmark::Counter(2.0 * n * n * n, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["ms"] = msPerIteration();
}

}  // namespace attnviz::bench
