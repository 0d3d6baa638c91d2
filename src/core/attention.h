// attention.h — multi-head attention, forward only, keeping every intermediate (a Trace) for display.
//
// Dimension names used in every shape comment of the core:
//   b        batch size (sentences)                   h      number of heads
//   l        sequence length (self-attention)         d_model width of X and of the output
//   l_q      query length (decoder side in cross)     d_k    width of one head's queries and keys
//   l_k      key/value length (encoder side)          d_v    width of one head's values
// Fused weights: W^Q, W^K are d_model × h·d_k, W^V is d_model × h·d_v, W^O is h·d_v × d_model. Head i's W_i^Q is
// the column block i·d_k … (i+1)·d_k − 1 of W^Q (one big linear layer = h stacked small ones).
// Grouped-query attention (Llama, Qwen, Mistral): K and V have h_kv heads (h_kv divides h; 1 = multi-query), so
// W^K is d_model × h_kv·d_k and W^V d_model × h_kv·d_v, and query head i uses K/V head i / (h / h_kv).
// Rotary positions (RoPE, HF's rotate-half convention): after the split (and a per-head RMSNorm when the weights
// carry one), each head's q and k rows are turned by their position: (x_j, x_{j+d_k/2}) by the angle p·θ_j.
//
// What this file does not do: tokenize, embed, read files, or know about drawing. Same inputs → the same
// Trace, bit for bit, whatever the thread count (each thread writes disjoint blocks; no reductions race).
#pragma once

#include "core/matrix.h"
#include "core/input_error.h"

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace attnviz::core {

enum class MaskKind { None, Padding, Causal, Both };
enum class MaskFill { MinusBillion, MinusInfinity };  // −1e9 as the Annotated Transformer; −∞ as nn.MultiheadAttention
// What softmax does with a row whose every key is masked:
//   Safe    → zeros, and the row is flagged (Trace::fullyMaskedRows) so the UI can say why;
//   PyTorch → exactly what PyTorch computes: uniform weights with a −1e9 fill, NaN with −∞.
enum class SoftmaxMode { Safe, PyTorch };

// What "switching a head off" does to its output Z_i (l × d_v) before W^O mixes the heads (issue 35's ablation):
//   Zero → Z_i = 0 (the head says nothing);
//   Mean → every row of Z_i becomes the mean of Z_i's rows over the sentence's own tokens (the head says the same
//          thing at every position, so only what it says about THIS sentence in general is kept).
enum class HeadOffMode { Zero, Mean };
struct HeadOff {
    int head = 0;
    HeadOffMode mode = HeadOffMode::Zero;
    friend bool operator==(const HeadOff&, const HeadOff&) = default;
};

inline constexpr int kMaxDModel = 4096;
inline constexpr int kMaxHeads = 256;

struct AttentionConfig {
    int dModel = 64;
    int heads = 8;
    int dK = 0;  // 0 → d_model / h
    int dV = 0;  // 0 → d_model / h
    int kvHeads = 0;  // h_kv, 0 → h: K and V heads; fewer is grouped-query attention (1: multi-query)
    MaskKind mask = MaskKind::None;
    // With a causal mask: query p sees only keys p − W + 1 … p (HF's sliding_window_overlay: k > q − W); 0 = no window.
    int slidingWindow = 0;
    // RoPE: θ_j for j = 0 … d_k/2 − 1 (1 × d_k/2); empty = no rotary positions.
    RowVector rotaryFrequencies;
    MaskFill fill = MaskFill::MinusBillion;
    SoftmaxMode softmax = SoftmaxMode::Safe;
    std::optional<float> scale;  // default 1/√d_k
    // Also compute Q with h separate d_model × d_k matrices and record the largest difference from the fused
    // path (the question "why 3 linear layers, not 3·h?"). Costs one more projection; benchmarks of the bare forward pass turn it off.
    bool comparePerHead = true;
    // Padding also hides the padded QUERY rows (mask b × 1 × l_q × l_k): those rows have no key left, the case
    // where softmax cannot normalise (safe zeros vs PyTorch's NaN). Off: PyTorch's key-padding mask b × 1 × 1 × l_k.
    bool maskPaddedQueries = false;
    // Memory: of the four l_q × l_k maps the Trace stores A and S; S·scale and the masked scores are derived from S
    // when read (derived_maps.h). When one map of the batch (b·h·l_q·l_k floats) is larger than this, S is derived
    // too (from Q_i and K_i). Not an input of the numbers: what is derived is bit for bit what the pass computed.
    std::int64_t storeMapsUpTo = 16LL << 20;  // 64 MiB per map: (1024, 768, 12) is stored, (2048, 1024, 16) derived
    // Whether anyone will look at the per-stage maps S, S·scale and masked S (a stage view, `dump`). Off, the pass
    // neither stores them nor records their statistics: they are derived on demand like a large batch's, and their
    // statistics computed when asked (valueStats). A, Z and every other tensor are the same bits either way.
    bool keepStageMaps = true;
    // Heads switched off in this layer: their Z_i is replaced (HeadOffMode) in the concatenation [Z_0 … Z_{h−1}]
    // before W^O; Z_i itself (ZHeads) stays as computed. A head outside 0 … h − 1 throws InputError.
    std::vector<HeadOff> headsOff;

    // Every member equal; the rotary frequencies by size and value (Eigen's own == needs equal sizes).
    friend bool operator==(const AttentionConfig& a, const AttentionConfig& b);
};

// The sizes after defaults are applied and checked.
struct Dimensions {
    int dModel = 0;
    int heads = 0;
    int kvHeads = 0;  // h_kv, dividing h
    int dK = 0;
    int dV = 0;
    float scale = 0.0f;
};

// Applies defaults and checks the sizes; throws InputError naming the bad value and what is allowed
// (for example the valid head counts for this d_model).
Dimensions resolveDimensions(const AttentionConfig& config);
// The K/V head query head i reads: i / (h / h_kv).
inline int keyValueHead(const Dimensions& dims, int queryHead) {
    return dims.kvHeads > 0 ? queryHead / (dims.heads / dims.kvHeads) : queryHead;  // 0: dimensions not resolved
}
// Head counts h that divide d_model (so d_k = d_model / h is whole), ascending.
std::vector<int> validHeadCounts(int dModel);

struct Weights {
    Matrix wq;  // d_model × h·d_k
    Matrix wk;  // d_model × h_kv·d_k
    Matrix wv;  // d_model × h_kv·d_v
    Matrix wo;  // h·d_v × d_model
    // 1 × (h·d_k | h_kv·d_k | h_kv·d_v | d_model), each empty when the layer lacks it (Qwen2: b^Q, b^K, b^V only)
    RowVector bq, bk, bv, bo;
    // Qwen3's per-head RMSNorm of q and k before RoPE: γ 1 × d_k each, or empty.
    RowVector qNorm, kNorm;
    float qkNormEps = 1e-6f;
    bool hasBiases() const { return bq.size() > 0; }
};

// Xavier-uniform (Glorot) weights from a seed: U(−a, a) with a = √(6 / (fan_in + fan_out)); biases U(−0.1, 0.1).
Weights initWeights(const Dimensions& dims, std::uint64_t seed, bool withBiases);
// Throws InputError naming the matrix, the expected shape and the shape found.
void checkWeightShapes(const Weights& weights, const Dimensions& dims);

// The inputs of one forward pass, one matrix per batch element (unpadded; forward pads to the longest).
struct AttentionInput {
    std::vector<Matrix> keyValueSide;  // b × (l_k,b × d_model): the sentence (self) or the encoder side (cross)
    std::vector<Matrix> querySide;     // empty for self-attention; else b × (l_q,b × d_model) from the decoder
    bool isCross() const { return !querySide.empty(); }
};

// Every tensor the forward pass makes, with PyTorch's shapes. The names are the .npy file names of `dump`.
enum class TensorId : int {
    X,                // b × l_k × d_model   the key/value side input (the sentence for self-attention)
    XQuery,           // b × l_q × d_model   the query side input (cross-attention only; else empty)
    WQ, WK, WV, WO,   // the fused weights (see legend)
    Q, K, V,          // b × l_q × h·d_k, b × l_k × h_kv·d_k, b × l_k × h_kv·d_v
    QHeads,           // b × h × l_q × d_k   Q split into heads
    KHeads,           // b × h_kv × l_k × d_k   (h_kv = h unless grouped-query)
    VHeads,           // b × h_kv × l_k × d_v
    Scores,           // b × h × l_q × l_k   S_i = Q_i K_iᵀ
    ScaledScores,     // b × h × l_q × l_k   S_i · scale
    Mask,             // b × 1 × 1 × l_k (padding) or b × 1 × l_q × l_k (causal, both, padded queries); 1 = keep
    MaskedScores,     // b × h × l_q × l_k   masked entries replaced by the fill value
    AttentionWeights, // b × h × l_q × l_k   A_i = softmax(masked scores) row-wise
    ZHeads,           // b × h × l_q × d_v   Z_i = A_i V_i
    Concat,           // b × l_q × h·d_v     [Z_0 … Z_{h−1}]
    Output,           // b × l_q × d_model   O = Concat W^O (+ b^O)
    // RoPE runs only (else empty): the heads before the rotation (after the per-head RMSNorm, when there is one).
    // QHeads and KHeads above are then the rotated ones, the ones the scores use.
    QHeadsBeforeRope, // b × h × l_q × d_k
    KHeadsBeforeRope, // b × h_kv × l_k × d_k
    Count
};
inline constexpr int kTensorCount = static_cast<int>(TensorId::Count);

// What one axis of a tensor's displayed matrix (its last two dimensions) counts.
enum class Axis {
    QueryTokens,  // rows of Q, S, A, Z, O: the tokens that ask
    KeyTokens,    // rows of X, K, V and columns of S, A: the tokens that are looked at
    Features,     // d_model, d_k or d_v indices
    Broadcast,    // the single row of a b × 1 × 1 × l padding mask (tensorAxes says when)
};
inline bool isTokens(Axis axis) { return axis == Axis::QueryTokens || axis == Axis::KeyTokens; }

// The one table of tensor metadata: names, what the axes count, one matrix per head or not, probabilities or not.
// The screen, the figures, the scene builder, dump and sessions all read it.
struct TensorInfo {
    TensorId id;
    std::string_view key;      // file-name friendly: "attention_weights"
    std::string_view symbol;   // as in the paper: "A_i"
    std::string_view meaning;  // one plain sentence
    bool perHead = false;      // b × h × … × …: one matrix per head
    bool probability = false;  // values in [0, 1] (attention weights, the mask): a sequential colormap
    Axis rows = Axis::Features;
    Axis cols = Axis::Features;
};
const TensorInfo& tensorInfo(TensorId id);
inline bool isPerHead(TensorId id) { return tensorInfo(id).perHead; }
struct TensorAxes {
    Axis rows, cols;
};
std::optional<TensorId> findTensor(std::string_view key);

// What a tensor holds, for the colour scales: its finite range and whether it has NaN or ±∞.
struct ValueStats {
    float lo = std::numeric_limits<float>::infinity();   // smallest finite value
    float hi = -std::numeric_limits<float>::infinity();  // largest finite value
    float maxAbs = 0.0f;                                  // largest finite |value|
    bool hasNan = false;
    bool hasInfinity = false;
    void add(float value);
    void addAll(const float* values, std::size_t count);  // vectorised when every value is finite
    void merge(const ValueStats& other);
};

class DerivedSliceCache;  // derived_maps.h

// Every intermediate of one forward pass. What it keeps: every tensor, except that S·scale and the masked scores
// (and a large batch's S: AttentionConfig::storeMapsUpTo) are derived on demand (isDerived): their shape is set and
// their data empty, and core::mapSlice (derived_maps.h) gives any (batch, head) slice of them.
struct Trace {
    Dimensions dims;
    MaskKind mask = MaskKind::None;
    MaskFill fill = MaskFill::MinusBillion;
    SoftmaxMode softmax = SoftmaxMode::Safe;
    bool cross = false;
    int batch = 0;
    int queryLength = 0;                 // l_q (padded)
    int keyLength = 0;                   // l_k (padded)
    std::vector<int> queryLengths;       // b: unpadded l_q per batch element
    std::vector<int> keyLengths;         // b: unpadded l_k per batch element
    std::array<Tensor, kTensorCount> tensors;
    // b × l_q, row-major: 1 where every key of that query row is masked (the row softmax cannot normalise).
    std::vector<std::uint8_t> fullyMaskedRows;
    // The per-head path (h separate d_model × d_k matrices) against the fused one: max |difference|.
    float perHeadMaxDifference = 0.0f;
    // Tensors whose data is derived on demand instead of stored (their shape is set, their data empty).
    std::array<bool, kTensorCount> derived{};
    // Statistics known without reading the data: the forward pass records the derived maps'; recordValueStats
    // (derived_maps.h) the others', so a worker thread can do it rather than the UI thread.
    std::array<std::optional<ValueStats>, kTensorCount> stats{};
    // Derived slices already computed, shared by copies of this Trace (they derive the same values).
    std::shared_ptr<DerivedSliceCache> derivedCache;

    bool isDerived(TensorId id) const { return derived[static_cast<std::size_t>(id)]; }
    // Whether the tensor exists in this run (stored or derived): X_query only in cross-attention, the mask only
    // when one is applied.
    bool has(TensorId id) const { return isDerived(id) || !(*this)[id].empty(); }
    const Tensor& operator[](TensorId id) const { return tensors[static_cast<std::size_t>(id)]; }
    Tensor& operator[](TensorId id) { return tensors[static_cast<std::size_t>(id)]; }
    int fullyMaskedRowCount() const;
};

// The axes of one displayed slice of `id` in `trace`: the table's, except a padding mask's single row (Broadcast).
TensorAxes tensorAxes(TensorId id, const Trace& trace);

// Runs the forward pass (stages 2–10 of docs/design.md) and returns every intermediate.
// Throws InputError when the inputs do not fit the weights or the configuration (e.g. causal + cross).
Trace forward(const AttentionInput& input, const Weights& weights, const AttentionConfig& config);
// The same, writing into `trace` and reusing its buffers where they are large enough: a caller that recomputes
// often (the GUI, benchmarks) keeps two Traces and alternates, and skips allocating and faulting in fresh pages.
void forwardInto(const AttentionInput& input, const Weights& weights, const AttentionConfig& config, Trace& trace);

// Stages [3–10] again on a Trace whose X, weights, Q, K and V are current (made by forwardInto with the same
// inputs and weights), for a config that differs only in what those stages use: the mask, the fill, the softmax
// mode, the scale, padded queries, storeMapsUpTo, comparePerHead. Changing the mask thus does not redo the
// projections. Throws std::logic_error when the sizes differ (that needs forwardInto).
void reattendInto(const Weights& weights, const AttentionConfig& config, Trace& trace);
// A Trace with only what reattendInto reads: the sizes, X (and X_query), the weights, Q, K and V.
Trace projectionsOf(const Trace& full);

// The lean pass for a transformer's layers nobody steps through: self-attention of `input` (no cross) with the
// same numbers as forward (mask, fill, softmax mode, GQA, RoPE, window) but none of its intermediates: Q, K and V
// come out of one fused projection, the per-stage maps are never formed, masked keys outside a panel's visible
// columns are skipped, and each head's Z goes straight into its block of the concatenation.
struct LeanAttention {
    Tensor output;  // b × l × d_model: O = Z W^O + b^O
    // b × h: 1 where an unpadded query row of that head has weights that are not finite (an overflow).
    std::vector<std::uint8_t> nonFiniteHeads;
};
// `attentionWeights`, when given, receives A (b × h × l × l, padded; masked weights exactly 0). Throws InputError as
// forward does, and for cross-attention input.
LeanAttention attendLean(const AttentionInput& input, const Weights& weights, const AttentionConfig& config, float* attentionWeights);

// Head i's slice of a fused weight: columns i·width … (i+1)·width − 1, copied (d_model × width).
Matrix headBlock(const Matrix& fused, int head, int width);

}  // namespace attnviz::core
