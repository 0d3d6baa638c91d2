// decoder_lessons.h — what Llama-family attention changed, as numbers a question view can show:
//
//   K/V sharing  "3 layers or 3·h?" grown to MHA → GQA → MQA: the parameters of W^Q, W^K, W^V, W^O and the KV cache
//                (the K and V rows a decoder keeps for every past token) when K and V have h, h_kv or 1 heads.
//   RoPE         "Why do rotary positions give relative offsets?": each (x_j, x_{j+d_k/2}) pair of a q or k row turned
//                by p·θ_j (HF's rotate-half convention), and a score q·k that, after the rotation, depends on the
//                offset m − n between the two positions only, not on where the pair stands.
//
// Pure functions of sizes, vectors and frequencies (no Trace is changed, no files, no drawing).
// Dimension names as in attention.h; n_layers as in transformer.h.
#pragma once

#include "core/attention.h"
#include "core/transformer/transformer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::core {

struct ModelRun;

// [SECTION] K/V sharing

// The sizes the comparison needs: n_layers attention layers of h query heads, h_kv K/V heads, d_k = d_v = headDim.
struct AttentionShape {
    int layers = 1;
    int dModel = 0;
    int heads = 0;
    int kvHeads = 0;
    int headDim = 0;
};
// A trained model's (every Llama-family size; GPT-2 and BERT have h_kv = h, d_k = d_model / h).
AttentionShape attentionShape(const TransformerConfig& config);
// The seeded single layer's (d_k = d_v required: the comparison has one head width).
AttentionShape attentionShape(const Dimensions& dims);

// One arrangement of K/V heads for a shape. Parameters are the weight matrices' entries (biases left out); the KV
// cache per token is what a decoder stores for each past token: one K row and one V row of h_kv·d_k values.
struct KvSharing {
    std::string name;  // "MHA", "GQA", "MQA"
    int kvHeads = 0;
    bool own = false;  // the shape's own arrangement
    std::int64_t wq = 0, wk = 0, wv = 0, wo = 0;  // d_model·h·d_k, d_model·h_kv·d_k, d_model·h_kv·d_v, h·d_v·d_model
    std::int64_t kvValuesPerTokenPerLayer = 0;    // 2·h_kv·d_k
    std::int64_t parametersPerLayer() const { return wq + wk + wv + wo; }
};
// MHA (h_kv = h), GQA with the shape's own h_kv when 1 < h_kv < h, else with quarterKvHeads(h) K/V heads (none when
// that is 0), and MQA (h_kv = 1), in that order; `own` marks the shape's. h = 1 gives one row (MHA is MQA).
std::vector<KvSharing> kvSharingVariants(const AttentionShape& shape);
// h/4 when 4 divides h, else the largest divisor of h between 2 and h/4; 0 when there is none (h < 8 not divisible
// by 4, or h prime).
int quarterKvHeads(int heads);

// KV cache bytes for `tokens` tokens: per layer, or for the whole model (× n_layers).
std::int64_t kvCacheBytes(const KvSharing& sharing, int bytesPerValue, std::int64_t tokens = 1);
std::int64_t kvCacheBytes(const KvSharing& sharing, const AttentionShape& shape, int bytesPerValue, std::int64_t tokens = 1);

// "65,536": digits grouped by thousands.
std::string groupedDigits(std::int64_t value);

// [SECTION] RoPE

// θ_j = theta^(−2j/d_k), j = 0 … d_k/2 − 1 (1 × d_k/2): what a Llama layer with head_dim d_k and rope_theta uses
// without scaling (rotaryFrequencies of a config with those two values).
RowVector defaultRotaryFrequencies(int headDim, double theta = 10000.0);

// `row` (1 × d_k) as RoPE turns it at `position`: (x_j, x_{j+d_k/2}) rotated by position·θ_j (modeling_llama.py's
// x·cos + rotate_half(x)·sin), in double.
Eigen::RowVectorXd rotateAt(const RowVector& row, int position, const RowVector& frequencies);

// The first `pairs` pairs of `rows` (l × d_k, row p standing at position p) before and after RoPE: what the arrows
// of the rotary view draw. Every matrix is l × pairs.
struct RotaryPairs {
    Eigen::MatrixXd angle;             // p·θ_j in radians
    Eigen::MatrixXd beforeX, beforeY;  // (x_j, x_{j+d_k/2}) before
    Eigen::MatrixXd afterX, afterY;    // the same pair after the rotation
    RowVector frequencies;             // θ_j of the pairs shown (1 × pairs)
    int pairCount() const { return static_cast<int>(angle.cols()); }
    int positionCount() const { return static_cast<int>(angle.rows()); }
};
RotaryPairs rotaryPairs(const Matrix& rows, const RowVector& frequencies, int pairs);
// The rotary frequencies a run's attention used: its Llama-family model's (with its rope scaling), else empty.
RowVector rotaryFrequenciesOf(const ModelRun& run);
// Head `head`'s q rows (or, with `keys`, its K/V head's k rows) of batch element `batch`, row p at position p, with
// their first `pairs` pairs before and after RoPE, as the forward pass turned them (the screen's RoPE step and the
// exported figure draw them). Nullopt when the run has no RoPE.
std::optional<RotaryPairs> rotaryPairsOfRun(const ModelRun& run, int batch, int head, bool keys, int pairs);
// `row` placed at positions 0 … positions − 1 (one vector turning, the clearest picture of the angles).
RotaryPairs rotaryPairsOfOneRow(const RowVector& row, const RowVector& frequencies, int positions, int pairs);

// A query vector q and a key vector k placed at positions m and n: the score after RoPE, rot(q, m)·rot(k, n), for
// every offset m − n = 0 … maxOffset (k at n = 0), and how far the same offset moves when both stand t = 1 …
// maxShift places later. The second is float rounding: the score depends on m − n only.
struct RelativeScores {
    std::vector<int> offsets;          // 0 … maxOffset
    std::vector<double> score;         // rot(q, o)·rot(k, 0)
    std::vector<double> shiftedScore;  // rot(q, o + maxShift)·rot(k, maxShift)
    double largestShiftDifference = 0; // max over o and t ≤ maxShift of |rot(q, o + t)·rot(k, t) − score[o]|
    double unrotatedScore = 0;         // q·k without RoPE: the same at every position
};
RelativeScores relativeScores(const RowVector& q, const RowVector& k, const RowVector& frequencies, int maxOffset, int maxShift);

}  // namespace attnviz::core
