// kv_cache.h — a decoder's sentence growing one token at a time: every layer keeps the keys and values of the
// tokens so far, and a new token computes only its own row — its query against every cached key and value — instead
// of the whole sentence again. The numbers are those of runTransformer on the grown sentence (to float rounding),
// because a causal decoder's earlier rows never look at later tokens.
//
// Shapes (attention.h's names): per layer K rows l × h_kv·d_k (after the q/k norm and RoPE, as the scores use them)
// and V rows l × h_kv·d_v, row p = token p. Decoders only (GPT-2 and the Llama family): in BERT every row looks at
// every other, so a new token changes all of them and nothing can be cached.
// What this file does not do: tokenize, pick the token (prediction.h), or keep a Trace for the stages.
#pragma once

#include "core/transformer/transformer.h"

#include <vector>

namespace attnviz::core {

class KvCache {
public:
    KvCache() = default;
    // An empty cache for `model`'s layers. Throws InputError for BERT.
    explicit KvCache(const TransformerModel& model);

    // Runs token `id` at position length(): through every block, its query row against the cached keys and values
    // and its own (the layer's sliding window respected), its K and V rows appended. Returns its final hidden row
    // (1 × d_model, after the final norm): nextTokenLogits(model, row) predicts the token after it. Throws
    // InputError for an id outside the vocabulary or a sentence longer than the model's positions.
    const RowVector& append(const TransformerModel& model, int id);
    // Keeps the first `length` tokens (a shorter prefix of the sentence, after an undo).
    void truncate(int length);

    int length() const { return static_cast<int>(ids_.size()); }
    const std::vector<int>& ids() const { return ids_; }
    int layers() const { return static_cast<int>(layers_.size()); }
    // Layer i's cached rows: length() × h_kv·d_k keys and length() × h_kv·d_v values.
    MatrixView keys(int layer) const;
    MatrixView values(int layer) const;
    // The newest token's final hidden row (empty before the first append).
    const RowVector& lastHidden() const { return lastHidden_; }

private:
    struct LayerRows {
        Matrix keys, values;  // capacity × width; the first length() rows hold tokens
    };
    RowVector attendNewRow(const TransformerModel& model, int layer, const RowVector& x);

    std::vector<int> ids_;
    std::vector<LayerRows> layers_;
    RowVector lastHidden_;
};

// A cache holding `ids`, appended one at a time.
KvCache prefilledCache(const TransformerModel& model, const std::vector<int>& ids);

}  // namespace attnviz::core
