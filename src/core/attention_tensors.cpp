// attention_tensors.cpp — the table of the tensors a Trace keeps (attention.h's TensorId): each one's key, symbol,
// one-sentence meaning and axes, and the look-ups by id and by key.
#include "core/attention.h"

#include <algorithm>
#include <array>

namespace attnviz::core {
namespace {

constexpr std::array<TensorInfo, kTensorCount> kTensorInfos{{
    {TensorId::X, "x", "X", "The input: one row per token (the embedding plus its position).", false, false, Axis::KeyTokens, Axis::Features},
    {TensorId::XQuery, "x_query", "X_dec", "The decoder's input rows, which make the queries in cross-attention.", false, false, Axis::QueryTokens, Axis::Features},
    {TensorId::WQ, "w_q", "W^Q", "Query weights: h column blocks of d_k, one per head.", false, false, Axis::Features, Axis::Features},
    {TensorId::WK, "w_k", "W^K", "Key weights: h column blocks of d_k, one per head.", false, false, Axis::Features, Axis::Features},
    {TensorId::WV, "w_v", "W^V", "Value weights: h column blocks of d_v, one per head.", false, false, Axis::Features, Axis::Features},
    {TensorId::WO, "w_o", "W^O", "Output weights: mix the concatenated heads back to d_model.", false, false, Axis::Features, Axis::Features},
    {TensorId::Q, "q", "Q", "Queries: every row of X times the same W^Q.", false, false, Axis::QueryTokens, Axis::Features},
    {TensorId::K, "k", "K", "Keys: every row of X times the same W^K.", false, false, Axis::KeyTokens, Axis::Features},
    {TensorId::V, "v", "V", "Values: every row of X times the same W^V.", false, false, Axis::KeyTokens, Axis::Features},
    {TensorId::QHeads, "q_heads", "Q_i", "Queries split into heads: head i keeps columns i*d_k ... (i+1)*d_k - 1.", true, false, Axis::QueryTokens, Axis::Features},
    {TensorId::KHeads, "k_heads", "K_i", "Keys split into heads.", true, false, Axis::KeyTokens, Axis::Features},
    {TensorId::VHeads, "v_heads", "V_i", "Values split into heads.", true, false, Axis::KeyTokens, Axis::Features},
    {TensorId::Scores, "scores", "S_i", "Raw scores: S_i = Q_i K_i^T, one dot product per query-key pair.", true, false, Axis::QueryTokens, Axis::KeyTokens},
    {TensorId::ScaledScores, "scaled_scores", "S_i/sqrt(d_k)", "Scores times the scale (1/sqrt(d_k) by default).", true, false, Axis::QueryTokens, Axis::KeyTokens},
    {TensorId::Mask, "mask", "mask", "1 where a query may look at a key, 0 where it may not.", false, true, Axis::QueryTokens, Axis::KeyTokens},
    {TensorId::MaskedScores, "masked_scores", "S_i masked", "Scaled scores with masked entries set to the fill value.", true, false, Axis::QueryTokens, Axis::KeyTokens},
    {TensorId::AttentionWeights, "attention_weights", "A_i", "Attention weights: softmax of each score row; rows sum to 1.", true, true, Axis::QueryTokens, Axis::KeyTokens},
    {TensorId::ZHeads, "z_heads", "Z_i", "Each head's output: weighted sums of the value rows, Z_i = A_i V_i.", true, false, Axis::QueryTokens, Axis::Features},
    {TensorId::Concat, "concat", "Z", "The heads side by side: [Z_0 ... Z_{h-1}].", false, false, Axis::QueryTokens, Axis::Features},
    {TensorId::Output, "output", "O", "The output: Z W^O, the same shape as X.", false, false, Axis::QueryTokens, Axis::Features},
    {TensorId::QHeadsBeforeRope, "q_heads_before_rope", "Q_i before RoPE", "Each head's queries before the rotary positions turn them.", true, false, Axis::QueryTokens, Axis::Features},
    {TensorId::KHeadsBeforeRope, "k_heads_before_rope", "K_i before RoPE", "Each K/V head's keys before the rotary positions turn them.", true, false, Axis::KeyTokens, Axis::Features},
}};

}  // namespace

const TensorInfo& tensorInfo(TensorId id) { return kTensorInfos[static_cast<std::size_t>(id)]; }

TensorAxes tensorAxes(TensorId id, const Trace& trace) {
    const TensorInfo& info = tensorInfo(id);
    if (id == TensorId::Mask && trace[id].rows() == 1) return {Axis::Broadcast, info.cols};
    return {info.rows, info.cols};
}

std::optional<TensorId> findTensor(std::string_view key) {
    for (const TensorInfo& info : kTensorInfos) {
        if (info.key == key) return info.id;
    }
    return std::nullopt;
}

int Trace::fullyMaskedRowCount() const {
    return static_cast<int>(std::count(fullyMaskedRows.begin(), fullyMaskedRows.end(), std::uint8_t{1}));
}

}  // namespace attnviz::core
