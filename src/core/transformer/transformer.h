// transformer.h — a trained GPT-2, BERT or Llama-family decoder as plain data, and its forward pass through every
// layer.
//
// What a checkpoint becomes once io::loadCheckpoint has read it: the config values attnviz needs and every
// weight as a float32 matrix, oriented so that a layer is always `X · W + b` (in × out), whatever the checkpoint
// stored (GPT-2's Conv1D is in × out already; nn.Linear is out × in and io transposes it, except the MLP's F32
// weights, which stay in the mapped file as stored: LinearWeight). The F32 token table (also the tied LM head) stays in
// the mapped file too (WeightMatrix).
// The Llama family (HF model_type llama — SmolLM too —, mistral, qwen2, qwen3) is a pre-norm decoder: RMSNorm,
// rotary positions (no position table), grouped-query attention, a SwiGLU MLP, a final RMSNorm and an LM head.
//
// The pass (runTransformer) calls core::forward for the stepped layer's attention (its full Trace, shown) and
// core::attendLean for every other layer: the same fused row kernels and the same GEMMs, without the intermediates.
//
// Dimension names as in attention.h, plus: n_layers (blocks), d_ff (the MLP's inner width), vocab (vocabulary
// size), n_pos (position table rows, or the longest sentence a RoPE model takes).
// What this file does not do: read files, tokenize, or know about drawing.
#pragma once

#include "core/attention.h"
#include "core/matrix.h"
#include "core/names.h"
#include "core/gemm.h"
#include "core/transformer/model_family.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnviz::core {

// Llama 3's rope_scaling {"rope_type": "llama3"} (modeling_rope_utils.py _compute_llama3_parameters): long
// wavelengths are slowed by `factor`, short ones kept, the band between smoothly interpolated.
struct Llama3RopeScaling {
    double factor = 8.0;
    double lowFreqFactor = 1.0;
    double highFreqFactor = 4.0;
    double originalMaxPositions = 8192.0;
};

struct TransformerConfig {
    ModelFamily family = ModelFamily::Gpt2;  // the tensor layout; what the family computes is traits()
    int layers = 0;         // n_layers
    int dModel = 0;         // n_embd / hidden_size
    int heads = 0;          // n_head / num_attention_heads
    int dFf = 0;            // n_inner (GPT-2: 4·d_model when null) / intermediate_size
    int maxPositions = 0;   // n_positions / max_position_embeddings
    int vocabSize = 0;
    int typeVocabSize = 0;  // BERT's token type table rows (2); 0 for GPT-2
    float layerNormEps = 1e-5f;  // GPT-2 layer_norm_epsilon 1e-5; BERT layer_norm_eps 1e-12; Llama rms_norm_eps
    // The Llama family only:
    std::string modelType;  // config.json's model_type: "llama", "mistral", "qwen2", "qwen3" ("gpt2", "bert")
    int kvHeads = 0;        // num_key_value_heads h_kv (0 → heads)
    int headDim = 0;        // head_dim d_k = d_v (0 → d_model / heads); Qwen3 may have h·d_k ≠ d_model
    double ropeTheta = 10000.0;
    std::optional<Llama3RopeScaling> ropeScaling;
    std::vector<int> slidingWindows;  // per layer: its window W, 0 = the whole causal past; empty = none anywhere
    bool tiedEmbeddings = false;      // tie_word_embeddings: the LM head is the token embedding table
    bool attentionBias = false;       // b^Q, b^K, b^V (Qwen2 always; attention_bias: b^O too, except Qwen2)

    int keyValueHeads() const { return kvHeads > 0 ? kvHeads : heads; }
    int headWidth() const { return headDim > 0 ? headDim : dModel / heads; }
    // The family's row of the table (model_family.h): norm, positions, MLP, biases, mask, tokenizer.
    const FamilyTraits& traits() const { return familyTraits(family, modelType); }
};

// A weight matrix of the model (rows × cols, row-major), held one of two ways:
//  * owned: a matrix of the model's own (a widened BF16/F16 tensor, a transposed one, tests);
//  * mapped: float32 values read in place from a memory-mapped checkpoint as stored, never copied; `storage` keeps
//    the mapping alive as long as any model holding the weight (io fills it; the core opens no file).
// Reads go through view() (a Map of the values, wherever they are) and row().
class WeightMatrix {
public:
    WeightMatrix() = default;
    WeightMatrix(Matrix values) : owned_(std::move(values)) {}  // NOLINT(google-explicit-constructor): W = matrix
    template <typename Derived>
    WeightMatrix(const Eigen::MatrixBase<Derived>& values) : owned_(values) {}  // NOLINT(google-explicit-constructor)
    WeightMatrix(const float* rowMajor, Eigen::Index rows, Eigen::Index cols, std::shared_ptr<const void> storage)
        : mapped_(rowMajor), mappedRows_(rows), mappedCols_(cols), storage_(std::move(storage)) {}

    bool isMapped() const { return mapped_ != nullptr; }
    Eigen::Index rows() const { return isMapped() ? mappedRows_ : owned_.rows(); }
    Eigen::Index cols() const { return isMapped() ? mappedCols_ : owned_.cols(); }
    Eigen::Index size() const { return rows() * cols(); }
    const float* data() const { return isMapped() ? mapped_ : owned_.data(); }
    MatrixView view() const { return MatrixView(data(), rows(), cols()); }
    Eigen::Map<const RowVector> row(Eigen::Index i) const { return Eigen::Map<const RowVector>(data() + i * cols(), cols()); }  // 1 × cols
    // The owned matrix, to change values (the untrained copy, tests); a mapped matrix is copied first.
    Matrix& editable() {
        if (isMapped()) *this = WeightMatrix(Matrix(view()));
        return owned_;
    }
    friend bool operator==(const WeightMatrix& a, const WeightMatrix& b) {
        return a.rows() == b.rows() && a.cols() == b.cols() && a.view() == b.view();
    }

private:
    Matrix owned_;
    const float* mapped_ = nullptr;
    Eigen::Index mappedRows_ = 0, mappedCols_ = 0;
    std::shared_ptr<const void> storage_;
};

// A Linear layer's weight W, applied as X · W (in × out). Held one of two ways:
//  * owned: an in × out matrix in the model (GPT-2's Conv1D as stored, a widened BF16/F16 tensor, tests);
//  * mapped: nn.Linear's out × in float32 values as stored in a memory-mapped checkpoint (a mapped WeightMatrix),
//    never copied. The product multiplies by the stored matrix transposed (core::gemm takes either layout).
class LinearWeight {
public:
    LinearWeight() = default;
    LinearWeight(Matrix inByOut) : stored_(std::move(inByOut)) {}  // NOLINT(google-explicit-constructor): W = matrix
    template <typename Derived>
    LinearWeight(const Eigen::MatrixBase<Derived>& inByOut) : stored_(inByOut) {}  // NOLINT(google-explicit-constructor)
    // nn.Linear's weight as stored, out × in, mapped (io::TensorReader::linear).
    static LinearWeight mappedOutByIn(WeightMatrix outByIn) {
        LinearWeight weight;
        weight.stored_ = std::move(outByIn);
        return weight;
    }

    bool isMapped() const { return stored_.isMapped(); }
    Eigen::Index rows() const { return isMapped() ? stored_.cols() : stored_.rows(); }  // in
    Eigen::Index cols() const { return isMapped() ? stored_.rows() : stored_.cols(); }  // out
    Eigen::Index size() const { return stored_.size(); }
    // Every value in storage order (in × out owned, out × in mapped): what a finiteness check reads.
    const float* data() const { return stored_.data(); }
    // Columns [first, first + width) of x · W into `out` (x.rows() × width), by core::gemm.
    void multiplyInto(const GemmInput& x, Eigen::Index first, Eigen::Index width, GemmOutput out) const {
        if (isMapped()) {
            gemm(x, stored_.view().middleRows(first, width), BLayout::Transposed, out);
        } else {
            gemm(x, stored_.view().middleCols(first, width), BLayout::AsStored, out);
        }
    }
    // In × out as a matrix of its own (a copy when mapped).
    Matrix dense() const { return isMapped() ? Matrix(stored_.view().transpose()) : Matrix(stored_.view()); }
    // The owned matrix, to change values (the untrained copy, tests); a mapped weight becomes owned first.
    Matrix& editable() {
        if (isMapped()) stored_ = WeightMatrix(dense());
        return stored_.editable();
    }
    friend bool operator==(const LinearWeight& a, const Matrix& b) { return a.rows() == b.rows() && a.cols() == b.cols() && a.dense() == b; }

private:
    WeightMatrix stored_;  // in × out owned, out × in mapped
};

struct LayerNormWeights {
    RowVector gamma;  // 1 × d_model ("weight")
    RowVector beta;   // 1 × d_model ("bias"); empty for an RMSNorm
};

// One block's weights, every matrix in × out (applied as X · W + b).
struct BlockWeights {
    // W^Q, W^K, W^V: d_model × d_model (head i's columns i·d_k … (i+1)·d_k − 1), W^O: d_model × d_model, with
    // their biases (every GPT-2 and BERT attention layer has them). Llama family: W^Q d_model × h·d_k, W^K and W^V
    // d_model × h_kv·d_k, W^O h·d_k × d_model; biases b^Q, b^K, b^V only with attention_bias (Qwen2 always);
    // Qwen3's q_norm and k_norm (1 × d_k).
    Weights attention;
    // GPT-2 (pre-LN): ln1 = ln_1 before attention, ln2 = ln_2 before the MLP.
    // BERT (post-LN): ln1 = attention.output.LayerNorm after attention + residual, ln2 = output.LayerNorm after
    // the MLP + residual.
    // Llama family (pre-norm, RMSNorm: γ only): ln1 = input_layernorm, ln2 = post_attention_layernorm.
    LayerNormWeights ln1, ln2;
    LinearWeight mlpIn;   // d_model × d_ff  (GPT-2 mlp.c_fc, BERT intermediate.dense, Llama mlp.up_proj)
    RowVector mlpInBias;  // 1 × d_ff; empty for Llama
    LinearWeight mlpGate; // d_model × d_ff  (Llama mlp.gate_proj: SwiGLU's silu(X·gate) ⊙ (X·up)); empty otherwise
    LinearWeight mlpOut;  // d_ff × d_model (GPT-2 mlp.c_proj, BERT output.dense, Llama mlp.down_proj)
    RowVector mlpOutBias; // 1 × d_model; empty for Llama
};

// BertForMaskedLM's head (modeling_bert.py BertLMPredictionHead): transform = LayerNorm(gelu(h · W + b)), then the
// decoder, tied to the token table, plus a bias of its own: logits = transform · E^T + bias.
struct MaskedLmHead {
    Matrix transform;              // d_model × d_model (cls.predictions.transform.dense, in × out)
    RowVector transformBias;       // 1 × d_model
    LayerNormWeights norm;         // cls.predictions.transform.LayerNorm
    RowVector bias;                // 1 × vocab (cls.predictions.bias)
};

struct TransformerWeights {
    WeightMatrix tokenEmbeddings;  // vocab × d_model (wte / word_embeddings); F32 read in place from the mapped file
    Matrix positionEmbeddings;   // n_pos × d_model  (wpe / position_embeddings); empty for Llama (RoPE)
    Matrix tokenTypeEmbeddings;  // BERT: type_vocab × d_model (row 0 is used); empty for GPT-2
    LayerNormWeights embeddingLayerNorm;  // BERT's embeddings.LayerNorm; empty for GPT-2
    std::vector<BlockWeights> blocks;     // n_layers
    LayerNormWeights finalLayerNorm;      // GPT-2's ln_f, Llama's model.norm (γ only); empty for BERT
    // Llama lm_head.weight: vocab × d_model (F32 mapped, as the token table); empty when tied (the token table) and
    // for GPT-2 / BERT
    WeightMatrix lmHead;
    std::optional<MaskedLmHead> maskedLm;  // BERT folders with cls.predictions.* (BertForMaskedLM); none otherwise
};

struct TransformerModel {
    TransformerConfig config;
    TransformerWeights weights;  // float32, whatever the file stored
    std::optional<Dtype> storedDtype;  // what the weights file stored most values as; nullopt: not a safetensors file
};

// Throws InputError naming the first weight whose shape does not follow from the config, or that holds a value
// that is not finite.
void checkTransformer(const TransformerModel& model);

// What one pass of a batch through the whole model computes.
struct TransformerPass {
    // (n_layers + 1) × b × l × d_model: hidden[i] is the residual stream entering block i; the last is the
    // model's output (after ln_f for GPT-2), as HuggingFace's output_hidden_states. Padded rows are zero.
    Tensor hiddenStates;
    // n_layers × b × h × l × l: every layer's attention weights A (HuggingFace's output_attentions), one map per
    // query head also when K/V heads are shared.
    Tensor attentionWeights;
    // The stepped layer: its attention input X (GPT-2: ln_1(h); BERT: h; Llama: input_layernorm(h)), b × (l_b ×
    // d_model) unpadded, and the
    // full Trace of its attention (stages 2–10).
    std::vector<Matrix> steppedInput;
    Trace steppedTrace;
};

// Runs ids (b sentences of token ids, each 1 … n_pos long; shorter ones are padded and masked) through every
// block. `stepped` picks the layer whose Trace is kept whole; `attention` configures every layer (the mask: causal
// for decoders, padding when the batch is ragged; the caller picks fill and softmax), with layerAttention's sizes.
// Throws InputError for an id outside the vocabulary, a sentence longer than n_pos, or a bad layer index, and for a
// pass that overflows: the first layer whose attention weights (head named) or output are not finite.
// What a pass keeps besides the hidden states. Every layer but the stepped one takes core::attendLean (no Trace).
struct PassOptions {
    bool allAttentionWeights = true;  // fill TransformerPass::attentionWeights (the model view, dump); off: left empty
    bool steppedTrace = true;         // the stepped layer's full Trace; off: it takes the lean path too (benchmarks)
};
// One head of the model switched off (issue 35: "does this head matter?"): layer `layer`'s head `head`, its Z_i
// zeroed or replaced by its mean over the sentence's tokens before W^O (HeadOffMode). An input like the sentence:
// ModelSpec holds a list of them, compared with ==.
struct HeadAblation {
    int layer = 0;
    int head = 0;
    HeadOffMode mode = HeadOffMode::Zero;
    friend bool operator==(const HeadAblation&, const HeadAblation&) = default;
};
// The heads of `ablations` in `layer`, as that layer's AttentionConfig::headsOff takes them.
std::vector<HeadOff> headsOffIn(const std::vector<HeadAblation>& ablations, int layer);
// The first layer where `a` and `b` switch different heads off (or off differently); n_layers when they agree.
int firstDifferentLayer(const std::vector<HeadAblation>& a, const std::vector<HeadAblation>& b, int layers);

// The attention a whole-model run over unpadded sentences uses: the model's own d_model and heads, its family's mask
// (causal for a decoder, none for an encoder), no per-head comparison. runTransformer adds each layer's rest.
AttentionConfig modelAttention(const TransformerModel& model);

// `ablations` switch heads off (each a layer 0 … n_layers − 1 and a head 0 … h − 1, else InputError).
TransformerPass runTransformer(const TransformerModel& model, const std::vector<std::vector<int>>& ids, int stepped,
                               const AttentionConfig& attention, const PassOptions& options = {},
                               const std::vector<HeadAblation>& ablations = {});

// runTransformer with `ablations` for a pass `previous` of the same model, ids, stepped layer, attention and options
// that had `previousAblations`: the layers before the first that differs (firstDifferentLayer) are not run again —
// their hidden states and attention weights are previous's — and the rest are. The same numbers as runTransformer,
// bit for bit. When the stepped layer is among the reused ones its steppedInput is previous's and its steppedTrace is
// previous's (empty if the caller moved it out: keep your own).
TransformerPass resumeTransformer(const TransformerModel& model, const std::vector<std::vector<int>>& ids, int stepped,
                                  const AttentionConfig& attention, const PassOptions& options, const TransformerPass& previous,
                                  const std::vector<HeadAblation>& previousAblations, const std::vector<HeadAblation>& ablations);

// `base` with what the model fixes for `layer`: d_model, h, h_kv, d_k = d_v, the layer's sliding window and the
// rotary frequencies (Llama family). runTransformer applies it to every layer's attention.
AttentionConfig layerAttention(const TransformerConfig& config, int layer, AttentionConfig base);
// RoPE's θ_j = rope_theta^(−2j/d_k), j = 0 … d_k/2 − 1, with Llama 3 scaling when the config has it (1 × d_k/2).
RowVector rotaryFrequencies(const TransformerConfig& config);

// The next-token logits after `position` of sentence `sentence`: its row of the last hidden state (already through
// the final norm) times the LM head (the token table when tied; GPT-2's is wte): 1 × vocab. Throws InputError for
// BERT (no LM head here) or a position outside the sentence.
RowVector nextTokenLogits(const TransformerModel& model, const TransformerPass& pass, int sentence, int position);

// The same from a final hidden row (1 × d_model, already through the final norm): row · LM headᵀ, 1 × vocab.
RowVector nextTokenLogits(const TransformerModel& model, const RowVector& finalHidden);

// LayerNorm over each row (biased variance, as torch.nn.LayerNorm): rows × d_model → rows × d_model.
Matrix layerNorm(const Matrix& rows, const LayerNormWeights& weights, float eps);
// GPT-2's gelu_new: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), elementwise.
Matrix geluTanh(const Matrix& x);
// BERT's exact GELU: 0.5·x·(1 + erf(x / √2)), elementwise.
Matrix geluErf(const Matrix& x);
// RMSNorm over each row (LlamaRMSNorm): x / √(mean(x²) + ε) · γ.
Matrix rmsNorm(const Matrix& rows, const RowVector& gamma, float eps);
// SiLU (swish): x · σ(x), elementwise.
Matrix silu(const Matrix& x);

}  // namespace attnviz::core
