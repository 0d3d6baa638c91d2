// gemm_baseline.h — the baseline every timing benchmark reports against: a 1024³ float GEMM on all cores (column
// blocks of the result split across threads, core::gemm — the library ATTNVIZ_GEMM chose — one thread per block),
// i.e. the throughput this machine gives a well-shaped matmul at this moment. Shared, noisy machines drift; ratios to this, measured in the same run, do not
// drift much.
#pragma once

#include <benchmark/benchmark.h>

namespace attnviz::bench {

// Counters: "FLOP/s" (for throughput ratios) and "ms" (milliseconds per GEMM, for time ratios: msPerIteration).
void gemmBaseline(benchmark::State& state);

// A counter of milliseconds per iteration, to divide by the baseline's "ms".
inline benchmark::Counter msPerIteration() {
    return benchmark::Counter(1e-3, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

}  // namespace attnviz::bench
