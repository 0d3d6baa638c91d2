// bench_forward.cpp — the forward pass at classroom and real-model sizes, against a float GEMM baseline.
//
// Baseline: a 1024³ float GEMM on all cores (gemm_baseline.h). Each forward size reports GFLOP/s and its ratio
// to that baseline (RatioReporter). The forward pass is the bare computation
// (comparePerHead off: the per-head comparison is a teaching extra, not part of attention), with every per-stage map
// and without them (forwardPassNoStageMaps: what a pass no view inspects computes). The maskSwitch pair
// measures recomputing only what a change touches: the same new run made from the sentence, or from the run on
// screen's Q, K and V.
#include "gemm_baseline.h"
#include "ratio_reporter.h"

#include "core/attention.h"
#include "core/model.h"
#include "core/parallel.h"

#include <benchmark/benchmark.h>

#include <string>

namespace {

using namespace attnviz::core;

Matrix randomMatrix(int rows, int cols) { return Matrix::Random(rows, cols); }

// FLOPs of the matmuls of one forward pass (softmax and masking are O(l²) and ignored).
double forwardFlops(int l, const Dimensions& d) {
    const double projections = 2.0 * l * d.dModel * d.heads * (2.0 * d.dK + d.dV);
    const double attention = 2.0 * d.heads * l * l * (d.dK + d.dV);
    const double output = 2.0 * l * d.heads * d.dV * d.dModel;
    return projections + attention + output;
}

void forwardPass(benchmark::State& state, bool keepStageMaps) {
    const int l = static_cast<int>(state.range(0));
    AttentionConfig config;
    config.dModel = static_cast<int>(state.range(1));
    config.heads = static_cast<int>(state.range(2));
    config.comparePerHead = false;
    config.keepStageMaps = keepStageMaps;
    const Dimensions dims = resolveDimensions(config);
    const Weights weights = initWeights(dims, 1, false);
    AttentionInput input;
    input.keyValueSide = {randomMatrix(l, dims.dModel)};
    Trace trace;  // reused, as the GUI reuses its buffers between recomputes
    forwardInto(input, weights, config, trace);  // warm-up: fault in the pages once, as a running app has
    for (auto _ : state) {
        forwardInto(input, weights, config, trace);
        benchmark::DoNotOptimize(trace.tensors.data());
    }
    state.counters["FLOP/s"] = benchmark::Counter(forwardFlops(l, dims), benchmark::Counter::kIsIterationInvariantRate);
}
// Every tensor of the Trace, the per-stage maps S, S·scale and masked S included (stored, or above storeMapsUpTo
// derived with their statistics recorded), as the stepped layer and `dump` get it.
void forwardPass(benchmark::State& state) { forwardPass(state, true); }
// The same pass when no view asks for the per-stage maps (keepStageMaps off): A, Z and the rest, bit for bit.
void forwardPassNoStageMaps(benchmark::State& state) { forwardPass(state, false); }

// What the GUI computes when the user switches the mask on (a ModelRun from a spec, everything the app shows):
// everything from the sentence (runModel), or stages [3–10] on the shown run's projections (rerunAttention).
// Both report the full pass's FLOPs per second, so their ratio is the speed-up of recomputing only what changed.
ModelSpec sentenceSpec(int l, int dModel, int heads) {
    ModelSpec spec;
    std::string sentence;
    for (int i = 0; i < l; ++i) sentence.append("w").append(std::to_string(i % 97)).append(" ");
    spec.sentences = {sentence};
    spec.tokenLimit = l;
    spec.attention.dModel = dModel;
    spec.attention.heads = heads;
    return spec;
}

void maskSwitch(benchmark::State& state, bool reuseProjections) {
    const int l = static_cast<int>(state.range(0));
    ModelSpec spec = sentenceSpec(l, static_cast<int>(state.range(1)), static_cast<int>(state.range(2)));
    const ModelRun shown = runModel(spec);
    spec.attention.mask = MaskKind::Causal;
    for (auto _ : state) {
        const ModelRun next = reuseProjections ? rerunAttention(shown, spec) : runModel(spec);
        benchmark::DoNotOptimize(next.trace.tensors.data());
    }
    state.counters["FLOP/s"] = benchmark::Counter(forwardFlops(l, shown.dims), benchmark::Counter::kIsIterationInvariantRate);
}
void maskSwitchFromSentence(benchmark::State& state) { maskSwitch(state, false); }
void maskSwitchReusingProjections(benchmark::State& state) { maskSwitch(state, true); }

}  // namespace

BENCHMARK(attnviz::bench::gemmBaseline)->Name("gemmBaseline")->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(forwardPass)
    ->ArgNames({"l", "d_model", "h"})
    ->Args({11, 512, 8})
    ->Args({128, 512, 8})
    ->Args({512, 512, 8})
    ->Args({1024, 768, 12})
    ->Args({2048, 1024, 16})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK(forwardPassNoStageMaps)
    ->ArgNames({"l", "d_model", "h"})
    ->Args({512, 512, 8})
    ->Args({1024, 768, 12})
    ->Args({2048, 1024, 16})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK(maskSwitchFromSentence)->ArgNames({"l", "d_model", "h"})->Args({512, 512, 8})->Args({1024, 768, 12})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(maskSwitchReusingProjections)->ArgNames({"l", "d_model", "h"})->Args({512, 512, 8})->Args({1024, 768, 12})->Unit(benchmark::kMillisecond)->UseRealTime();

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    attnviz::bench::RatioReporter reporter("gemmBaseline");
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
}
