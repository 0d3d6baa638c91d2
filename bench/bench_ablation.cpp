// bench_ablation.cpp — switching a head off without running the layers before it again (issue 35), on a random
// model of GPT-2 small's shape (12 layers, d_model 768, 12 heads, d_ff 3072, 50 257 tokens, 1024 positions; drawn in
// memory, not read from a file), at 64 tokens.
//
// fullForward64: core::runTransformer with head 6.3 switched off, as the app computes it (layer 0 stepped with its
// Trace, every layer's attention weights kept). switchHead6: the same run made by core::resumeTransformer from the
// intact pass: layers 0–5 reused, 6–11 run. RatioReporter prints each as a ratio to fullForward64 measured in the
// same run; issue 35 asks for switchHead6 ≤ 0.6.
// logitLens64: the lens grid "Through the layers" draws (core::logitLensAgreement: 13 × 64 rows through the 50 257-token
// LM head, one matrix product per layer); lensRowByRow64: the same 832 rows through the head one at a time, as the
// lens first did (each row reads the 154 MB table again).
#include "model_bench.h"
#include "ratio_reporter.h"

#include "core/transformer/logit_lens.h"
#include "core/transformer/transformer.h"

#include <benchmark/benchmark.h>

namespace {

using namespace attnviz::core;
using attnviz::bench::randomModel;
using attnviz::bench::secondsPerIteration;

constexpr int kTokens = 64;

TransformerConfig gpt2SmallShape() {
    TransformerConfig c;
    c.family = ModelFamily::Gpt2;
    c.modelType = "gpt2";
    c.layers = 12;
    c.dModel = 768;
    c.heads = 12;
    c.dFf = 3072;
    c.maxPositions = 1024;
    c.vocabSize = 50257;
    return c;
}

const TransformerModel* theModel = nullptr;
const std::vector<HeadAblation> kHead63Off{{6, 3, HeadOffMode::Zero}};

std::vector<std::vector<int>> sentence() { return {attnviz::bench::spreadIds(kTokens, theModel->config.vocabSize)}; }

void fullForward64(benchmark::State& state) {
    const auto ids = sentence();
    for (auto _ : state) benchmark::DoNotOptimize(runTransformer(*theModel, ids, 0, modelAttention(*theModel), {}, kHead63Off).hiddenStates.data.data());
    secondsPerIteration(state);
}

void switchHead6(benchmark::State& state) {
    const auto ids = sentence();
    const TransformerPass intact = runTransformer(*theModel, ids, 0, modelAttention(*theModel));
    for (auto _ : state) {
        benchmark::DoNotOptimize(resumeTransformer(*theModel, ids, 0, modelAttention(*theModel), {}, intact, {}, kHead63Off).hiddenStates.data.data());
    }
    secondsPerIteration(state);
}

void logitLens64(benchmark::State& state) {
    const TransformerPass intact = runTransformer(*theModel, sentence(), 0, modelAttention(*theModel));
    for (auto _ : state) benchmark::DoNotOptimize(logitLensAgreement(*theModel, intact, 0, kTokens).topIds.data());
    secondsPerIteration(state);
}

void lensRowByRow64(benchmark::State& state) {
    const TransformerPass intact = runTransformer(*theModel, sentence(), 0, modelAttention(*theModel));
    const Tensor& hidden = intact.hiddenStates;  // 13 × 1 × 64 × 768
    for (auto _ : state) {
        for (int layer = 0; layer < hidden.dim(0); ++layer) {
            const Matrix rows = hidden.slice(layer);
            for (int p = 0; p < kTokens; ++p) benchmark::DoNotOptimize(nextTokenLogits(*theModel, RowVector(rows.row(p))).data());
        }
    }
    secondsPerIteration(state);
}

}  // namespace

BENCHMARK(fullForward64)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(switchHead6)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(logitLens64)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(lensRowByRow64)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

int main(int argc, char** argv) {
    const TransformerModel model = randomModel(gpt2SmallShape());
    checkTransformer(model);
    theModel = &model;
    benchmark::Initialize(&argc, argv);
    attnviz::bench::RatioReporter reporter("fullForward64", {"s", "ms", 1e3, {}});
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return 0;
}
