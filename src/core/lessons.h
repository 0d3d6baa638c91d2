// lessons.h — computations that answer the questions learners ask, beside the forward pass.
//
//   slicing   "Do heads split the embedding?"  naiveSlicingAttention(): the wrong model, computed for contrast.
//   scaling   "Why divide by √d_k?"            rowSharpness(): entropy and largest weight of every softmax row.
//   pooling   "How do I classify with it?"        poolAndClassify(): [CLS] row or mean of real tokens → logits.
//   cost      "What does a head cost?"         stageCosts(), headCost(): FLOPs and memory at the current sizes.
// Pure functions of a Trace (and the weights): no state, no files, no drawing.
#pragma once

#include "core/attention.h"
#include "core/stages.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnviz::core {

// Head i sees only columns i·d_k … (i+1)·d_k − 1 of X (and the matching d_k × d_k block of its W_i), instead
// of all of X. Needs h·d_k = h·d_v = d_model. The result differs from real attention: that is the point.
struct NaiveSlicing {
    Tensor attentionWeights;  // b × h × l_q × l_k
    Tensor output;            // b × l_q × d_model
    float largestOutputDifference = 0.0f;  // max |O_naive − O|
};
NaiveSlicing naiveSlicingAttention(const Trace& trace, const Weights& weights);

// How peaked each softmax row is: entropy in nats (ln l_k for uniform, 0 for one-hot) and the largest weight.
// Fully masked rows are NaN in both (there is no distribution to measure).
struct RowSharpness {
    Tensor entropy;    // b × h × l_q
    Tensor maxWeight;  // b × h × l_q
};
RowSharpness rowSharpness(const Trace& trace);

enum class Pooling { Cls, Mean };
// A sentence vector from the output rows, fed to a small seeded linear classifier (d_model × classes).
struct PoolingResult {
    Pooling pooling = Pooling::Mean;
    Matrix mix;          // b × l_q: how much each output row contributes to the pooled vector
    Matrix pooled;       // b × d_model
    Matrix classifier;   // d_model × classes
    Matrix logits;       // b × classes
    bool firstTokenIsCls = false;  // [CLS] pooling without a [CLS] token pools the first word instead
};
PoolingResult poolAndClassify(const Trace& trace, bool firstTokenIsCls, Pooling pooling, int classes, std::uint64_t seed);

// The matmul FLOPs of a stage (multiply + add = 2) and the float32 bytes of what it produces.
struct StageCost {
    StageId stage;
    double flops = 0;
    double bytes = 0;
};
std::vector<StageCost> stageCosts(const Trace& trace);

// Seed 002: per head the attention costs O(l²·d_k); h heads of d_k cost about one head of width d_model.
struct HeadCost {
    double perHeadFlops = 0;       // scores + weighted sum for one head: 2·l_q·l_k·(d_k + d_v)
    double allHeadsFlops = 0;      // h times that
    double oneWideHeadFlops = 0;   // a single head with d_k = d_v = d_model
};
HeadCost headCost(const Trace& trace);

std::string formatFlops(double flops);  // "1.61 GFLOP"
std::string formatBytes(double bytes);  // "8.0 MiB"

}  // namespace attnviz::core
