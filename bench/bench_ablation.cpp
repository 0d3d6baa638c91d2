// bench_ablation.cpp — switching a head off without running the layers before it again (issue 35), on a random
// model of GPT-2 small's shape (12 layers, d_model 768, 12 heads, d_ff 3072, 50 257 tokens, 1024 positions; drawn in
// memory, not read from a file), at 64 tokens.
//
// fullForward64: core::runTransformer with head 6.3 switched off, as the app computes it (layer 0 stepped with its
// Trace, every layer's attention weights kept). switchHead6: the same run made by core::resumeTransformer from the
// intact pass: layers 0–5 reused, 6–11 run. RatioReporter prints each as a ratio to fullForward64 measured in the
// same run; issue 35 asks for switchHead6 ≤ 0.6.
#include "model_bench.h"
#include "ratio_reporter.h"

#include "core/random.h"
#include "core/transformer/transformer.h"

#include <benchmark/benchmark.h>

namespace {

using namespace attnviz::core;
using attnviz::bench::randomMatrix;
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

LayerNormWeights unitNorm(int width) { return {RowVector::Ones(width), RowVector::Zero(width)}; }

TransformerModel randomModel(const TransformerConfig& c) {
    SplitMix64 random(2026);
    TransformerModel model;
    model.config = c;
    TransformerWeights& w = model.weights;
    w.tokenEmbeddings = randomMatrix(c.vocabSize, c.dModel, random, 0.05f);
    w.positionEmbeddings = randomMatrix(c.maxPositions, c.dModel, random, 0.02f);
    w.finalLayerNorm = unitNorm(c.dModel);
    for (int layer = 0; layer < c.layers; ++layer) {
        BlockWeights b;
        for (Matrix* m : {&b.attention.wq, &b.attention.wk, &b.attention.wv, &b.attention.wo}) *m = randomMatrix(c.dModel, c.dModel, random, 0.05f);
        for (RowVector* bias : {&b.attention.bq, &b.attention.bk, &b.attention.bv, &b.attention.bo}) *bias = randomMatrix(1, c.dModel, random, 0.1f);
        b.ln1 = unitNorm(c.dModel);
        b.ln2 = unitNorm(c.dModel);
        b.mlpIn = randomMatrix(c.dModel, c.dFf, random, 0.05f);
        b.mlpInBias = randomMatrix(1, c.dFf, random, 0.1f);
        b.mlpOut = randomMatrix(c.dFf, c.dModel, random, 0.05f);
        b.mlpOutBias = randomMatrix(1, c.dModel, random, 0.1f);
        w.blocks.push_back(std::move(b));
    }
    return model;
}

const TransformerModel* theModel = nullptr;
const std::vector<HeadAblation> kHead63Off{{6, 3, HeadOffMode::Zero}};

std::vector<std::vector<int>> sentence() { return {attnviz::bench::spreadIds(kTokens, theModel->config.vocabSize)}; }

AttentionConfig causal() {
    AttentionConfig config;
    config.dModel = theModel->config.dModel;
    config.heads = theModel->config.heads;
    config.mask = MaskKind::Causal;
    config.comparePerHead = false;
    return config;
}

void fullForward64(benchmark::State& state) {
    const auto ids = sentence();
    for (auto _ : state) benchmark::DoNotOptimize(runTransformer(*theModel, ids, 0, causal(), {}, kHead63Off).hiddenStates.data.data());
    secondsPerIteration(state);
}

void switchHead6(benchmark::State& state) {
    const auto ids = sentence();
    const TransformerPass intact = runTransformer(*theModel, ids, 0, causal());
    for (auto _ : state) {
        benchmark::DoNotOptimize(resumeTransformer(*theModel, ids, 0, causal(), {}, intact, {}, kHead63Off).hiddenStates.data.data());
    }
    secondsPerIteration(state);
}

}  // namespace

BENCHMARK(fullForward64)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(switchHead6)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

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
