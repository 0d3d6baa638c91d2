// logit_lens.h — the logit lens (nostalgebraist 2020; "raw, no learned translator", unlike the tuned lens): what the
// model would predict if it stopped after layer i. Each layer's residual stream (TransformerPass::hiddenStates[i])
// goes through the final norm and the prediction head: a decoder's ln_f / model.norm and LM head, BERT's masked-word
// head (BERT has no final norm: its hidden states are already each block's LayerNorm output). The last hidden state
// is already after the final norm (as HF's output_hidden_states), so it goes straight to the head: never normed twice.
//
// Shapes: n_layers + 1 lens rows per position (the embeddings, then each block's output); vocab log-probabilities
// log softmax(logits), computed in double. What this file does not do: tokenize, read files or draw.
#pragma once

#include "core/transformer/transformer.h"

namespace attnviz::core {

// The lens at every layer for sentence `sentence` of `pass` (its first `length` positions): (n_layers + 1) × length ×
// vocab log-probabilities. Throws InputError for a model that predicts nothing (BERT without a masked-word head).
Tensor logitLensLogProbs(const TransformerModel& model, const TransformerPass& pass, int sentence, int length);

// The k most probable tokens of each lens row, most probable first (ties: the lower id first): ids and their
// log-probabilities, each (n_layers + 1) × length × k (ids as float32, exact below 2^24). Throws InputError as above,
// and for k outside 1 … vocab.
struct LensTop {
    Tensor ids;
    Tensor logProbs;
};
LensTop logitLensTop(const TransformerModel& model, const TransformerPass& pass, int sentence, int length, int k);

// What the lens grid on screen shows, without holding every log-probability (a 128k vocabulary × 33 rows × 64 positions
// is a gigabyte): each lens row's most probable token (ties: the lower id) and the log-probability that row gives the
// model's final prediction at the position (the last row's most probable token), each (n_layers + 1) × length.
// Throws InputError as above.
struct LensAgreement {
    Matrix topIds;         // ids as float32, exact below 2^24
    Matrix finalLogProbs;
};
LensAgreement logitLensAgreement(const TransformerModel& model, const TransformerPass& pass, int sentence, int length);

}  // namespace attnviz::core
