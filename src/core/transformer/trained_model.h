// trained_model.h — a trained checkpoint as the app holds it (weights + tokenizer + named heads), and the run of
// one stepped layer of it: what core::runModel does for a ModelSpec holding a TrainedLayer.
//
// The run is the seeded model's ModelRun with the same meaning for every field, so every stage, export and dump
// works unchanged: tokens are the tokenizer's readable labels, X is the stepped layer's real attention input
// (GPT-2: ln_1(h_N); BERT: h_N, the residual stream entering block N), the weights are the layer's real W^Q, W^K,
// W^V, W^O with their biases, and the Trace is that layer's attention. ModelRun::modelPass adds every layer's
// attention and hidden states (the model view, dump's hidden_states.npy and all_attention_weights.npy).
// What it deliberately does not do: read files (io::loadModelFolder), cross-attention or cell edits (the seeded
// layer's teaching tools, which a TrainedLayer has no room for: a trained layer inside a model cannot be edited
// without changing every layer after it).
#pragma once

#include "core/stages.h"
#include "core/tokenizers/tokenizer.h"
#include "core/transformer/transformer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnviz::core {

// A head a model card names (heads.json): {"name", "layer", "head", "what"}, 0-indexed.
struct NamedHead {
    std::string name;  // "coreference (it → its noun)"
    int layer = 0;
    int head = 0;
    std::string what;  // one sentence a teacher can read out
};

struct TrainedModel {
    std::string name;     // shown in titles: the folder's name ("gpt2", "bert-base-uncased")
    std::string folder;   // where io read it from: sessions and manifests name it; the core opens nothing
    bool bundled = false; // attnviz's own small model (assets/models/)
    TransformerModel transformer;
    std::shared_ptr<const Tokenizer> tokenizer;
    std::vector<NamedHead> namedHeads;
    std::string card;     // the folder's README.md (a model card), or empty

    const TransformerConfig& config() const { return transformer.config; }
    // "GPT-2", "BERT", or the decoder's HF model_type as a name: "Llama", "Mistral", "Qwen2", "Qwen3".
    std::string familyName() const;
    // The heads.json entry for (layer, head), or null.
    const NamedHead* namedHead(int layer, int head) const;
    // The head to open first: the named coreference head, else the first named one; null when none is named.
    const NamedHead* featuredHead() const;
    int featuredLayer() const { return featuredHead() ? featuredHead()->layer : 0; }
};

struct ModelSpec;
struct ModelRun;
struct TrainedLayer;
struct RunOptions;

// runModel for a spec holding `trained`: tokenize with the model's tokenizer, run every layer, keep the stepped one
// (trained.layer) whole. For GPT-2 and BERT, spec.attention.heads other than the model's re-splits the same trained
// W^Q, W^K, W^V, W^O into that many heads for the stepped layer only (the rest of the model keeps its own heads); a
// Llama-family layer keeps its own. The mask is the model's: causal for decoders, padding for a ragged batch.
// Throws InputError for an empty or over-long sentence, or a layer outside the model. `options` says whether every
// layer's attention weights are kept.
ModelRun runTrainedModel(const ModelSpec& spec, const TrainedLayer& trained, const RunOptions& options);

// [Model view] BertViz's model view hides the special tokens and renormalises (Clark et al. 2019, exBERT): most
// of BERT's attention in middle layers goes to [SEP], and GPT-2's to its first token.
// The positions of `tokens` (one sentence's labels) that are not special: BERT's [CLS] and [SEP], GPT-2's first.
std::vector<int> visibleTokens(const TrainedModel& model, const std::vector<std::string>& tokens);
// `attention` (l × l, one head) restricted to the rows and columns `keep` lists, each row renormalised to sum to 1:
// keep.size() × keep.size(). A row whose kept weights sum to less than kNothingLeft gave (all but float rounding of)
// its weight to the tokens left out: it stays zero rather than blowing rounding noise up to a distribution.
inline constexpr float kNothingLeft = 1e-6f;
Matrix renormalisedAttention(const Matrix& attention, const std::vector<int>& keep);
// The rows of that restriction (indices into `keep`) with nothing left to renormalise, as renormalisedAttention
// leaves them zero.
std::vector<int> rowsWithNothingLeft(const Matrix& attention, const std::vector<int>& keep);
// How many such rows every layer × head of sentence `batch` has together (attention n_layers × b × h × l × l, its
// first `length` tokens): what the model view says it leaves empty.
int rowsWithNothingLeft(const Tensor& attention, int batch, int length, const std::vector<int>& keep);

// [Attention sinks] Decoders put much of their weight on the first token whatever it is (Xiao et al. 2023).
// For every layer × head of sentence `batch` (its first `length` tokens; attention n_layers × b × h × l × l, as
// TransformerPass::attentionWeights): the mean over query rows of A[row, 0], the share the head gives the first
// token. A causal model's row 0 can only look at itself, so its rows 1 … length − 1 are averaged (NaN when
// length = 1). n_layers × h.
Matrix firstTokenShare(const Tensor& attention, int batch, int length, bool causal);

// [Untrained] The same model before training: every weight matrix and embedding drawn from N(0, 0.02²) (the
// initialisation GPT-2 and BERT start from), LayerNorms γ = 1, β = 0, biases 0; the config, tokenizer and named
// heads stay. Deterministic in `seed` (SplitMix64 + Box–Muller, the same numbers on every platform).
TrainedModel untrainedCopy(const TrainedModel& model, std::uint64_t seed);
// The seed of the untrained copy the window and the command line show (the training question, compare untrained).
inline constexpr std::uint64_t kUntrainedSeed = 42;
// untrainedCopy(*model, kUntrainedSeed), made once per model and shared (a GPT-2 has 124 M weights to redraw): the
// last model asked for keeps its copy until another is. Thread-safe.
std::shared_ptr<const TrainedModel> untrainedTwin(const std::shared_ptr<const TrainedModel>& model);

// [Stage text] What stages 0 and 1 say for a trained model instead of the seeded model's words: how its tokenizer
// splits a sentence, and where the stepped layer's X comes from (the residual stream). Stages 2–10 are the same
// attention as the seeded model's and keep their words.
struct StageWords {
    std::string formula;
    std::string pytorch;      // HuggingFace transformers style
    std::string explanation;
};
std::optional<StageWords> trainedStageWords(const TrainedModel& model, int layer, StageId stage);
// The words of `id` for this run, ready to show: a trained model's own for its tokenizer and embedding stages
// (trainedStageWords), else the stage's; the PyTorch line with this run's shapes. Screen and exports share it.
StageWords stageWords(const ModelRun& run, StageId id);
// Stage 3's RoPE step's words for this run: with llama3 rope_scaling its formula says θ_j are rescaled (θ_2 is then
// not rope_theta^(−2j/d_k): 0.000269 against 0.00215 on the llama-gqa fixture). Screen and exports share it.
StageWords ropeStepWords(const ModelRun& run);
// What X is at `layer`, in the stage texts' notation: "h_3" (BERT: the input of block 3) or "ln_1(h_3)" (GPT-2
// normalises before attention). Exported titles use it too.
std::string trainedInput(const TrainedModel& model, int layer);

// The attention settings the stepped layer runs with: spec.attention with the model's d_model, its mask for this
// batch (lengths: tokens per sentence), and the model's own head count when `modelHeads`.
AttentionConfig trainedAttention(const ModelSpec& spec, const TrainedLayer& trained, const std::vector<int>& lengths, bool modelHeads);

}  // namespace attnviz::core
