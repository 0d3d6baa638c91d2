// transformer.h — a trained GPT-2 or BERT model as plain data, and its forward pass through every layer.
//
// What a checkpoint becomes once io::loadCheckpoint has read it: the config values attnviz needs and every
// weight as a row-major float32 matrix, oriented so that a layer is always `X · W + b` (in × out), whatever the
// checkpoint stored (GPT-2's Conv1D is in × out already; BERT's nn.Linear is out × in and io transposes it).
//
// The pass (runTransformer) calls core::forward for every layer's attention: the stepped layer the app shows and
// the same layer inside the full model are one code path, so they are the same numbers.
//
// Dimension names as in attention.h, plus: n_layers (blocks), d_ff (the MLP's inner width), vocab (vocabulary
// size), n_pos (position table rows).
// What this file does not do: read files, tokenize, or know about drawing.
#pragma once

#include "core/attention.h"
#include "core/matrix.h"

#include <string>
#include <vector>

namespace attnviz::core {

enum class ModelFamily {
    Gpt2,  // decoder only, pre-LN blocks, causal mask, learned positions, gelu_new (tanh approximation), ln_f
    Bert,  // encoder, post-LN blocks, no causal mask, learned positions + token type 0, exact (erf) GELU
};

struct TransformerConfig {
    ModelFamily family = ModelFamily::Gpt2;
    int layers = 0;         // n_layers
    int dModel = 0;         // n_embd / hidden_size
    int heads = 0;          // n_head / num_attention_heads
    int dFf = 0;            // n_inner (GPT-2: 4·d_model when null) / intermediate_size
    int maxPositions = 0;   // n_positions / max_position_embeddings
    int vocabSize = 0;
    int typeVocabSize = 0;  // BERT's token type table rows (2); 0 for GPT-2
    float layerNormEps = 1e-5f;  // GPT-2 layer_norm_epsilon 1e-5; BERT layer_norm_eps 1e-12
};

struct LayerNormWeights {
    RowVector gamma;  // 1 × d_model ("weight")
    RowVector beta;   // 1 × d_model ("bias")
};

// One block's weights, every matrix in × out (applied as X · W + b).
struct BlockWeights {
    // W^Q, W^K, W^V: d_model × d_model (head i's columns i·d_k … (i+1)·d_k − 1), W^O: d_model × d_model, with
    // their biases (every GPT-2 and BERT attention layer has them).
    Weights attention;
    // GPT-2 (pre-LN): ln1 = ln_1 before attention, ln2 = ln_2 before the MLP.
    // BERT (post-LN): ln1 = attention.output.LayerNorm after attention + residual, ln2 = output.LayerNorm after
    // the MLP + residual.
    LayerNormWeights ln1, ln2;
    Matrix mlpIn;        // d_model × d_ff  (GPT-2 mlp.c_fc, BERT intermediate.dense)
    RowVector mlpInBias;  // 1 × d_ff
    Matrix mlpOut;       // d_ff × d_model (GPT-2 mlp.c_proj, BERT output.dense)
    RowVector mlpOutBias; // 1 × d_model
};

struct TransformerWeights {
    Matrix tokenEmbeddings;      // vocab × d_model  (wte / word_embeddings)
    Matrix positionEmbeddings;   // n_pos × d_model  (wpe / position_embeddings)
    Matrix tokenTypeEmbeddings;  // BERT: type_vocab × d_model (row 0 is used); empty for GPT-2
    LayerNormWeights embeddingLayerNorm;  // BERT's embeddings.LayerNorm; empty for GPT-2
    std::vector<BlockWeights> blocks;     // n_layers
    LayerNormWeights finalLayerNorm;      // GPT-2's ln_f; empty for BERT
};

struct TransformerModel {
    TransformerConfig config;
    TransformerWeights weights;
};

// Throws InputError naming the first weight whose shape does not follow from the config, or that holds a value
// that is not finite.
void checkTransformer(const TransformerModel& model);

// What one pass of a batch through the whole model computes.
struct TransformerPass {
    // (n_layers + 1) × b × l × d_model: hidden[i] is the residual stream entering block i; the last is the
    // model's output (after ln_f for GPT-2), as HuggingFace's output_hidden_states. Padded rows are zero.
    Tensor hiddenStates;
    // n_layers × b × h × l × l: every layer's attention weights A (HuggingFace's output_attentions).
    Tensor attentionWeights;
    // The stepped layer: its attention input X (GPT-2: ln_1(h); BERT: h), b × (l_b × d_model) unpadded, and the
    // full Trace of its attention (stages 2–10).
    std::vector<Matrix> steppedInput;
    Trace steppedTrace;
};

// Runs ids (b sentences of token ids, each 1 … n_pos long; shorter ones are padded and masked) through every
// block. `stepped` picks the layer whose Trace is kept whole; `attention` configures it (d_model and heads must
// be the model's; mask: causal for GPT-2, padding when the batch is ragged; the caller picks fill and softmax).
// Throws InputError for an id outside the vocabulary, a sentence longer than n_pos, or a bad layer index, and for a
// pass that overflows: the first layer whose attention weights (head named) or output are not finite.
TransformerPass runTransformer(const TransformerModel& model, const std::vector<std::vector<int>>& ids, int stepped,
                               const AttentionConfig& attention);

// LayerNorm over each row (biased variance, as torch.nn.LayerNorm): rows × d_model → rows × d_model.
Matrix layerNorm(const Matrix& rows, const LayerNormWeights& weights, float eps);
// GPT-2's gelu_new: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), elementwise.
Matrix geluTanh(const Matrix& x);
// BERT's exact GELU: 0.5·x·(1 + erf(x / √2)), elementwise.
Matrix geluErf(const Matrix& x);

}  // namespace attnviz::core
