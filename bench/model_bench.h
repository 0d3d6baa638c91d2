// model_bench.h — what the whole-model benchmarks (bench_append, bench_ablation) share: a random model of a given
// shape drawn in memory, a sentence of ids, and Google Benchmark's seconds-per-iteration counter that RatioReporter
// divides.
#pragma once

#include "core/matrix.h"
#include "core/random.h"
#include "core/transformer/transformer.h"

#include <benchmark/benchmark.h>

#include <vector>

namespace attnviz::bench {

// rows × cols, uniform in (−spread, spread), from `random`.
inline core::Matrix randomMatrix(Eigen::Index rows, Eigen::Index cols, core::SplitMix64& random, float spread) {
    core::Matrix m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = random.uniform(-spread, spread);
    return m;
}

// A model of config `c`'s shape with the tensors its family reads (learned positions, LayerNorm β, biases, the
// gated MLP's gate as the family says), weights uniform in ±0.05, biases in ±0.1, positions in ±0.02, norms at 1.
inline core::TransformerModel randomModel(const core::TransformerConfig& c) {
    using namespace core;
    const FamilyTraits& family = c.traits();
    const bool qkvBiases = family.attentionBiases == AttentionBiases::All || c.attentionBias;
    const bool outputBias = family.attentionBiases == AttentionBiases::All ||
                            (family.attentionBiases == AttentionBiases::WhenConfigSays && c.attentionBias);
    const bool layerNorm = family.norm == NormKind::LayerNorm;
    const bool gelu = family.mlp != MlpKind::SwiGlu;
    const int q = c.heads * c.headWidth(), kv = c.keyValueHeads() * c.headWidth();
    auto norm = [&] { return LayerNormWeights{RowVector::Ones(c.dModel), layerNorm ? RowVector::Zero(c.dModel) : RowVector()}; };

    SplitMix64 random(2026);
    TransformerModel model;
    model.config = c;
    TransformerWeights& w = model.weights;
    w.tokenEmbeddings = randomMatrix(c.vocabSize, c.dModel, random, 0.05f);
    if (family.positions == PositionKind::LearnedTable) w.positionEmbeddings = randomMatrix(c.maxPositions, c.dModel, random, 0.02f);
    w.finalLayerNorm = norm();
    for (int layer = 0; layer < c.layers; ++layer) {
        BlockWeights b;
        b.attention.wq = randomMatrix(c.dModel, q, random, 0.05f);
        b.attention.wk = randomMatrix(c.dModel, kv, random, 0.05f);
        b.attention.wv = randomMatrix(c.dModel, kv, random, 0.05f);
        b.attention.wo = randomMatrix(q, c.dModel, random, 0.05f);
        if (qkvBiases) {
            b.attention.bq = randomMatrix(1, q, random, 0.1f);
            b.attention.bk = randomMatrix(1, kv, random, 0.1f);
            b.attention.bv = randomMatrix(1, kv, random, 0.1f);
        }
        if (outputBias) b.attention.bo = randomMatrix(1, c.dModel, random, 0.1f);
        b.ln1 = norm();
        b.ln2 = norm();
        if (!gelu) b.mlpGate = randomMatrix(c.dModel, c.dFf, random, 0.05f);
        b.mlpIn = randomMatrix(c.dModel, c.dFf, random, 0.05f);
        b.mlpOut = randomMatrix(c.dFf, c.dModel, random, 0.05f);
        if (gelu) {
            b.mlpInBias = randomMatrix(1, c.dFf, random, 0.1f);
            b.mlpOutBias = randomMatrix(1, c.dModel, random, 0.1f);
        }
        w.blocks.push_back(std::move(b));
    }
    return model;
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
