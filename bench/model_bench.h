// model_bench.h — what the whole-model benchmarks (bench_append, bench_ablation) share: random weights drawn in
// memory, a sentence of ids, and Google Benchmark's seconds-per-iteration counter that RatioReporter divides.
#pragma once

#include "core/matrix.h"
#include "core/random.h"

#include <benchmark/benchmark.h>

#include <vector>

namespace attnviz::bench {

// rows × cols, uniform in (−spread, spread), from `random`.
inline core::Matrix randomMatrix(Eigen::Index rows, Eigen::Index cols, core::SplitMix64& random, float spread) {
    core::Matrix m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = random.uniform(-spread, spread);
    return m;
}

// `count` ids spread over the vocabulary (the same every run).
inline std::vector<int> spreadIds(int count, int vocab) {
    std::vector<int> ids;
    for (int p = 0; p < count; ++p) ids.push_back((p * 7919 + 13) % vocab);
    return ids;
}

// The "s" counter: seconds per iteration.
inline void secondsPerIteration(benchmark::State& state) {
    state.counters["s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

}  // namespace attnviz::bench
