// model.h — from sentences to a Trace in one call: tokenize → embed (+ positions) → weights → forward.
//
// ModelSpec is everything a user chooses that defines the numbers (the GUI's AppState and the CLI both fill
// one): the sentences and attention settings, and either the seeded single layer or a trained model's layer, with
// what only that one has. ModelRun is everything computed from it, for display, dump and export. Pure: no files,
// no GL.
#pragma once

#include "core/attention.h"
#include "core/names.h"
#include "core/tokenizer.h"
#include "core/transformer/trained_model.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace attnviz::core {

inline constexpr std::string_view kDefaultSentence = "The animal didn't cross the street because it was too tired";

// A trained embedding lookup (io::loadEmbeddingTable reads one from .npy + vocabulary): token t's row of X is
// rows.row(index[t]). A token not in `index` takes row `unknownRow` when it is ≥ 0 (the vocabulary's "[UNK]"),
// else the seeded embedding every token gets without a table (tokenEmbedding).
struct EmbeddingTable {
    Matrix rows;                                 // vocab_size × d_model
    std::unordered_map<std::string, int> index;  // token → row of `rows`
    int unknownRow = -1;                         // the "[UNK]" row, or −1 for the seeded fallback
};

// One typed-in value replacing a cell, in the matrix's own row-major (row, col): of X or X_query (in batch
// element `batch`), or of a weight matrix W^Q, W^K, W^V, W^O (batch 0: the batch shares the weights).
struct CellEdit {
    TensorId matrix = TensorId::X;  // X, XQuery, WQ, WK, WV or WO
    int batch = 0;
    int row = 0;
    int col = 0;
    float value = 0.0f;
    friend bool operator==(const CellEdit&, const CellEdit&) = default;
};

// The seeded single layer: Xavier weights from a seed (or loaded from .npy files), with the teaching tools only it
// has: cross-attention and the layers before it, loaded embeddings, typed-in cells.
struct SeededLayer {
    std::uint64_t seed = 42;
    bool positional = true;     // add sinusoidal positional encoding to the embeddings
    bool prependCls = false;    // "[CLS]" first in every sentence
    bool biases = false;        // linear layers with biases
    // Instead of seeded Xavier init (shapes are checked), and trained embeddings instead of the seeded ones
    // (columns must be d_model). Shared and const because specs are copied (into every ModelRun, an undo history),
    // so compared by identity: weights loaded again are a new pointer.
    std::shared_ptr<const Weights> customWeights;
    std::shared_ptr<const EmbeddingTable> embeddingTable;
    // Cross-attention: empty → self-attention; else one decoder sentence (the queries' side) per sentence, and
    // optionally a layer of its own with its own seeded weights before the cross-attention on either side.
    std::vector<std::string> decoderSentences;
    bool encoderSelfAttentionFirst = false;        // K and V come from the encoder's self-attention output, not its X
    bool decoderCausalSelfAttentionFirst = false;  // the queries' input is the decoder's causal self-attention output
    // Applied in order (a later edit of the same cell wins) to the inputs and weights of the layer being taught:
    // X / X_query edits after embedding, positions and any layer before it; weight edits after init or
    // customWeights. A cell outside its matrix, or a value that is not finite, throws InputError.
    std::vector<CellEdit> cellEdits;
    friend bool operator==(const SeededLayer&, const SeededLayer&) = default;
};

// A trained GPT-2, BERT or Llama-family model (trained_model.h) and the layer the stages step through; every
// other layer runs around it. Shared and const (a checkpoint is hundreds of MB), so compared by identity.
struct TrainedLayer {
    std::shared_ptr<const TrainedModel> model;  // never null
    int layer = 0;                              // 0 … n_layers − 1
    friend bool operator==(const TrainedLayer&, const TrainedLayer&) = default;
};

struct ModelSpec {
    std::vector<std::string> sentences{std::string(kDefaultSentence)};  // b ≥ 1; the key/value side
    // A trained layer takes its mask, scale and sizes from the model; h other than the model's re-splits its
    // projections into h heads (GPT-2 and BERT).
    AttentionConfig attention;
    int tokenLimit = kDefaultTokenLimit;
    std::variant<SeededLayer, TrainedLayer> model;
    // Heads switched off (a trained model only; any number, in any layers): the pass reruns with their Z_i zeroed or
    // replaced by its mean before W^O (HeadAblation). Empty: the model as trained.
    std::vector<HeadAblation> headsOff;
    // [Compare] Compare is on while compareWith holds a sentence (issue 35). A is always this spec's run (what the
    // stage shows); the run's `compared` is B, which core/compare.h aligns with A by position. compareKind says what B
    // is: compareWith through the same model (Sentence); the same sentences with every head on (HeadsOff: A − B is
    // what switching headsOff off changed); or the same sentences through the same model untrained (Untrained,
    // core::untrainedTwin). The last two leave compareWith unused, kept as the draft of the first.
    std::optional<std::string> compareWith;
    CompareKind compareKind = CompareKind::Sentence;

    SeededLayer* seeded() { return std::get_if<SeededLayer>(&model); }
    const SeededLayer* seeded() const { return std::get_if<SeededLayer>(&model); }
    TrainedLayer* trained() { return std::get_if<TrainedLayer>(&model); }
    const TrainedLayer* trained() const { return std::get_if<TrainedLayer>(&model); }
    // The trained model, or null for the seeded layer.
    const TrainedModel* trainedModel() const { return trained() ? trained()->model.get() : nullptr; }

    friend bool operator==(const ModelSpec&, const ModelSpec&) = default;
};

inline constexpr int kMaxBatch = 16;

struct ModelRun {
    ModelSpec spec;
    Dimensions dims;
    std::vector<std::vector<std::string>> tokens;       // b: key/value side tokens (the sentence, or the encoder's)
    std::vector<std::vector<std::string>> queryTokens;  // b: query side tokens (== tokens for self-attention)
    Tensor embeddings;        // b × l_k × d_model: E[ids], zero rows for padding, no positions
    Tensor queryEmbeddings;   // b × l_q × d_model (cross only)
    Tensor positions;         // max(l_q, l_k) × d_model: the positional encoding added (zeros when off)
    Weights weights;
    Trace trace;                        // the attention layer being taught
    std::optional<Trace> encoderTrace;  // cross + encoderSelfAttentionFirst: the encoder layer before it
    std::optional<Trace> decoderTrace;  // cross + decoderCausalSelfAttentionFirst: the decoder's masked layer
    // Trained layers only (spec.trained()): each sentence's vocabulary ids (b lists), and the pass through every
    // layer (hidden states, every layer's A; its steppedTrace is moved into `trace` and left empty).
    std::vector<std::vector<int>> tokenIds;
    std::shared_ptr<const TransformerPass> modelPass;
    // The stepped layer's heads are a re-split of the trained projections (spec.attention.heads ≠ the model's).
    bool resplitHeads = false;
    // B: comparedSpec(spec) through the same forward (null when compare is off).
    std::shared_ptr<const ModelRun> compared;
};

// The spec of B, with no comparison of its own: `spec` with compareWith as its only sentence (Sentence), with every
// head on (HeadsOff), or with the trained model's untrained twin (Untrained).
ModelSpec comparedSpec(const ModelSpec& spec);
struct RunOptions;
// B's run (runModel of comparedSpec), or null when compare is off. Throws InputError naming the
// compared sentence when it is refused, and in one sentence when the seeded layer is asked for heads off or untrained.
std::shared_ptr<const ModelRun> comparedRun(const ModelSpec& spec, const RunOptions& keep);

// The seeded layer's choices, or a default SeededLayer's for a trained layer: what the flat records (a dump's
// parameters, a session, the settings, an undo step's name) hold for a model without them.
const SeededLayer& seededChoices(const ModelSpec& spec);

// The tokenizer the spec's sentences go through: the trained model's own, else the word splitter with the spec's
// "[CLS]" and token limit.
std::shared_ptr<const Tokenizer> tokenizerOf(const ModelSpec& spec);

// What a run keeps beyond the stepped layer's Trace. Keeping less changes no number.
struct RunOptions {
    // A trained model's every layer's attention weights (TransformerPass::attentionWeights: the model view, dump;
    // n_layers × b × h × l² floats: 576 MiB for GPT-2 small at l = 1024). Off: left empty, and the stepped layer's
    // A is in the Trace only.
    bool everyLayerAttention = true;
};

// Throws InputError (one clear sentence, naming the sentence number when b > 1) for bad input.
ModelRun runModel(const ModelSpec& spec, const RunOptions& keep = {});

// runModel(spec) for a spec that differs from previous.spec only in the attention settings stages [3–10] use
// (mask, fill, softmax, scale, padded queries: see reattendInto): the tokens, embeddings, weights, X, Q, K and V
// are previous's, copied rather than recomputed. The same numbers as runModel(spec), bit for bit. Self-attention
// only (in cross-attention the layers before it depend on the mask); the caller checks that nothing else differs.
ModelRun rerunAttention(const ModelRun& previous, const ModelSpec& spec);

// runModel(spec) for a trained model's spec that differs from previous.spec only in headsOff: the layers before the
// first whose heads changed are previous's (core::resumeTransformer), the rest run again. The same numbers as
// runModel(spec), bit for bit; a re-split stepped layer (spec.attention.heads ≠ the model's) runs whole.
ModelRun rerunHeadsOff(const ModelRun& previous, const ModelSpec& spec);

}  // namespace attnviz::core
