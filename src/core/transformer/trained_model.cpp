// trained_model.cpp — one stepped layer of a trained GPT-2, BERT or Llama-family model as a ModelRun. See
// trained_model.h.
#include "core/transformer/trained_model.h"

#include "core/limits.h"
#include "core/model.h"
#include "core/random.h"
#include "core/sentence_words.h"

#include <cmath>
#include <cstdio>

#include <algorithm>
#include <functional>
#include <limits>
#include <mutex>

namespace attnviz::core {
namespace {

void checkLayer(const TrainedLayer& trained) {
    const TrainedModel& model = *trained.model;
    const int layers = model.config().layers;
    if (trained.layer < 0 || trained.layer >= layers) {
        throw InputError("Layer " + std::to_string(trained.layer) + " does not exist: " + model.name + " has layers 0 to " +
                         std::to_string(layers - 1) + ".");
    }
}

// One sentence through the model's tokenizer, checked against the token limit and the position table. A sentence
// over the limit is tokenized only until it holds kTokensCountedPerLimit times the limit (core/limits.h): up to
// there the refusal counts exactly, beyond it says "more than".
Encoding encodeSentence(const TrainedModel& model, const std::string& sentence, int tokenLimit, std::size_t index,
                        std::size_t count) {
    const std::string which = count > 1 ? "Sentence " + std::to_string(index + 1) + ": " : "";
    if (isBlankSentence(sentence)) throw InputError(which + kEmptySentenceMessage);
    const int limit = std::min(tokenLimit, model.config().maxPositions);
    const int counted = limit * limits::kTokensCountedPerLimit;
    Encoding encoding;
    try {
        encoding = model.tokenizer->encode(sentence, static_cast<std::size_t>(counted));
    } catch (const InputError& error) {
        throw InputError(which + error.what());
    }
    const int length = static_cast<int>(encoding.ids.size());
    if (length == 0) throw InputError(which + "Type a sentence: it has no tokens.");
    if (length > limit) {
        const bool positions = model.config().maxPositions <= tokenLimit;
        const bool whole = length <= counted;  // else the tokenizer stopped: the first `length` tokens only
        const std::vector<std::string> typedWords = whole ? model.tokenizer->typedWords(sentence) : std::vector<std::string>{};
        const VocabularyFit fit = vocabularyFit(sentenceWords(encoding, typedWords));
        throw InputError(which + "The sentence has " + (whole ? std::to_string(length) : "more than " + std::to_string(counted)) +
                         " tokens; " +
                         (positions ? model.name + " has positions for " + std::to_string(limit) + " at most. "
                                    : "at most " + std::to_string(limit) + " are allowed. ") +
                         overLimitAdvice(fit, length, limit, positions, whole));
    }
    return encoding;
}

// Rows of a table for each sentence's ids (or positions), zero-padded: b × l × d_model.
Tensor tableRows(const Eigen::Ref<const Matrix>& table, const std::vector<std::vector<int>>& indices, int length) {
    const int batch = static_cast<int>(indices.size());
    Tensor rows({batch, length, static_cast<int>(table.cols())});
    for (int b = 0; b < batch; ++b) {
        Eigen::Map<Matrix> slice(rows.sliceData(b), length, table.cols());
        const auto& sentence = indices[static_cast<std::size_t>(b)];
        for (std::size_t p = 0; p < sentence.size(); ++p) slice.row(static_cast<Eigen::Index>(p)) = table.row(sentence[p]);
    }
    return rows;
}

}  // namespace

// [SECTION] the untrained copy

namespace {

constexpr float kInitStd = 0.02f;

// N(0, std²) by Box–Muller from two uniform draws (u1 in (0, 1] so the log is finite).
float normal(SplitMix64& random, float std) {
    const float u1 = 1.0f - random.uniform(0.0f, 1.0f);
    const float u2 = random.uniform(0.0f, 1.0f);
    return std * std::sqrt(-2.0f * std::log(u1)) * std::cos(6.2831853f * u2);
}

void redraw(Matrix& m, SplitMix64& random) {
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = normal(random, kInitStd);
}

void reset(LayerNormWeights& norm) {
    norm.gamma.setOnes();
    norm.beta.setZero();
}

void redrawBlock(BlockWeights& block, SplitMix64& random) {
    for (Matrix* m : {&block.attention.wq, &block.attention.wk, &block.attention.wv, &block.attention.wo, &block.mlpIn.editable(),
                      &block.mlpGate.editable(), &block.mlpOut.editable()}) {
        redraw(*m, random);
    }
    for (RowVector* gamma : {&block.attention.qNorm, &block.attention.kNorm}) gamma->setOnes();
    for (RowVector* bias : {&block.attention.bq, &block.attention.bk, &block.attention.bv, &block.attention.bo, &block.mlpInBias,
                            &block.mlpOutBias}) {
        bias->setZero();
    }
    reset(block.ln1);
    reset(block.ln2);
}

}  // namespace

TrainedModel untrainedCopy(const TrainedModel& model, std::uint64_t seed) {
    TrainedModel copy = model;
    copy.name = model.name + " (untrained)";
    copy.bundled = false;
    SplitMix64 random(streamSeed("untrained " + model.name, seed));
    TransformerWeights& w = copy.transformer.weights;
    for (Matrix* table : {&w.tokenEmbeddings.editable(), &w.positionEmbeddings, &w.tokenTypeEmbeddings, &w.lmHead.editable()}) redraw(*table, random);
    for (LayerNormWeights* norm : {&w.embeddingLayerNorm, &w.finalLayerNorm}) {
        if (norm->gamma.size() > 0) reset(*norm);
    }
    for (BlockWeights& block : w.blocks) redrawBlock(block, random);
    if (w.maskedLm) {
        redraw(w.maskedLm->transform, random);
        w.maskedLm->transformBias.setZero();
        reset(w.maskedLm->norm);
        w.maskedLm->bias.setZero();
    }
    return copy;
}

std::shared_ptr<const TrainedModel> untrainedTwin(const std::shared_ptr<const TrainedModel>& model) {
    static std::mutex mutex;
    static std::weak_ptr<const TrainedModel> source;
    static std::shared_ptr<const TrainedModel> copy;
    const std::lock_guard lock(mutex);
    if (source.lock() != model || !copy) {
        copy = std::make_shared<const TrainedModel>(untrainedCopy(*model, kUntrainedSeed));
        source = model;
    }
    return copy;
}

std::string TrainedModel::familyName() const { return std::string(config().traits().name); }

// [SECTION] named heads and the attention views' helpers

const NamedHead* TrainedModel::namedHead(int layer, int head) const {
    for (const NamedHead& named : namedHeads) {
        if (named.layer == layer && named.head == head) return &named;
    }
    return nullptr;
}

const NamedHead* TrainedModel::featuredHead() const {
    for (const NamedHead& named : namedHeads) {
        if (named.name.find("coreference") != std::string::npos) return &named;
    }
    return namedHeads.empty() ? nullptr : &namedHeads.front();
}

std::vector<int> visibleTokens(const TrainedModel& model, const std::vector<std::string>& tokens) {
    std::vector<int> keep;
    const bool decoder = model.config().traits().decoder;  // decoders: the first token
    for (std::size_t t = 0; t < tokens.size(); ++t) {
        const bool special = decoder ? t == 0 : tokens[t] == "[CLS]" || tokens[t] == "[SEP]";
        if (!special) keep.push_back(static_cast<int>(t));
    }
    return keep;
}

Matrix renormalisedAttention(const Matrix& attention, const std::vector<int>& keep) {
    const auto n = static_cast<Eigen::Index>(keep.size());
    Matrix kept(n, n);
    for (Eigen::Index r = 0; r < n; ++r) {
        for (Eigen::Index c = 0; c < n; ++c) kept(r, c) = attention(keep[static_cast<std::size_t>(r)], keep[static_cast<std::size_t>(c)]);
        const float sum = kept.row(r).sum();
        if (sum < kNothingLeft) kept.row(r).setZero();
        else kept.row(r) /= sum;
    }
    return kept;
}

std::vector<int> rowsWithNothingLeft(const Matrix& attention, const std::vector<int>& keep) {
    std::vector<int> empty;
    for (std::size_t r = 0; r < keep.size(); ++r) {
        float sum = 0.0f;
        for (int c : keep) sum += attention(keep[r], c);
        if (sum < kNothingLeft) empty.push_back(static_cast<int>(r));
    }
    return empty;
}

int rowsWithNothingLeft(const Tensor& attention, int batch, int length, const std::vector<int>& keep) {
    const int layers = attention.dim(0), batches = attention.dim(1), heads = attention.dim(2);
    int count = 0;
    for (int map = 0; map < layers * heads; ++map) {
        const MatrixView a = attention.slice(((map / heads) * batches + batch) * heads + map % heads);
        count += static_cast<int>(rowsWithNothingLeft(a.topLeftCorner(length, length), keep).size());
    }
    return count;
}

Matrix firstTokenShare(const Tensor& attention, int batch, int length, bool causal) {
    const int layers = attention.dim(0), batches = attention.dim(1), heads = attention.dim(2);
    const int first = causal ? 1 : 0;
    Matrix share(layers, heads);
    for (int layer = 0; layer < layers; ++layer) {
        for (int head = 0; head < heads; ++head) {
            const MatrixView map = attention.slice((layer * batches + batch) * heads + head);
            double sum = 0.0;
            for (int row = first; row < length; ++row) sum += map(row, 0);
            share(layer, head) = length > first ? static_cast<float>(sum / (length - first)) : std::numeric_limits<float>::quiet_NaN();
        }
    }
    return share;
}

// [SECTION] the stage words of a trained model

namespace {

StageWords tokenWords(const TrainedModel& model) {
    const std::string vocabulary = std::to_string(model.config().vocabSize);
    const FamilyTraits& family = model.config().traits();
    if (family.vocabulary == VocabularyFiles::ByteLevelBpe) {
        // GPT-2 has said "byte-level BPE pieces" since its first version; the Llama family "BPE pieces".
        const std::string_view pieces = family.layout == ModelFamily::Gpt2 ? "byte-level BPE pieces" : "BPE pieces";
        return {"sentence -> byte-level BPE pieces -> ids",
                "ids = tokenizer(sentence)[\"input_ids\"]  # " + std::string(family.tokenizerClass) + ", {b} x {l}",
                std::string(family.name) + " cuts the text into " + std::string(pieces) + " from a vocabulary of " + vocabulary +
                    ": common words are one piece, rare words several. ␣ marks the space a piece starts with; the number "
                    "under a piece is its id, the row of the embedding table it takes."};
    }
    return {"sentence -> [CLS] WordPiece pieces [SEP] -> ids", "ids = tokenizer(sentence)[\"input_ids\"]  # BertTokenizerFast, {b} x {l}",
            "BERT lower-cases (uncased models), splits at spaces and punctuation, then cuts each word into the longest pieces of "
            "its " + vocabulary + "-piece vocabulary; ## marks a piece that continues a word. [CLS] starts and [SEP] ends every "
            "sentence. The number under a piece is its id."};
}

// "Blocks 0 … 4 each add …" or, for the first layer, that none comes before it.
std::string blocksBefore(int layer, const std::string& what) {
    if (layer == 0) return "No block comes before layer 0. ";
    return (layer == 1 ? std::string("Block 0 adds ") : "Blocks 0 … " + std::to_string(layer - 1) + " each add ") + what + "; ";
}

StageWords embedWords(const TrainedModel& model, int layer) {
    const std::string n = std::to_string(layer);
    const PositionKind positions = model.config().traits().positions;
    if (positions == PositionKind::Rotary) {
        return {"h_0 = E[ids],   X = " + trainedInput(model, layer),
                "h = embed_tokens(ids); h = layers[:" + n + "](h); x = layers[" + n + "].input_layernorm(h)  # {b} x {l} x {d_model}",
                "Each piece's row of the token table E is h_0: no position table is added (PE shows zeros). Positions enter "
                "inside attention instead, as rotations of q and k (RoPE). " +
                    blocksBefore(layer, "attention and SwiGLU MLP output to this residual stream") + "X is the stream entering block " + n +
                    ", normalised by its RMSNorm (input_layernorm: each row divided by its root mean square, times γ)."};
    }
    if (positions == PositionKind::LearnedTable) {
        return {"h_0 = E[ids] + P,   X = " + trainedInput(model, layer),
                "h = wte(ids) + wpe(pos); h = blocks[:" + n + "](h); x = h" + "[" + n + "].ln_1(h)  # {b} x {l} x {d_model}",
                "Each piece's row of the token table E plus its position's row of the learned position table P gives h_0. " +
                    blocksBefore(layer, "attention and MLP output to this residual stream") + "X is the stream entering block " + n +
                    ", normalised by its ln_1 (GPT-2 normalises before attention)."};
    }
    return {"h_0 = LayerNorm(E[ids] + P + T_0),   X = " + trainedInput(model, layer),
            "h = embeddings(ids); h = encoder.layer[:" + n + "](h); x = h  # {b} x {l} x {d_model}",
            "Each piece's row of the token table E, its position's row of the learned table P and the sentence-A row T_0 are "
            "summed and normalised: h_0. " + blocksBefore(layer, "attention and an MLP, each followed by a LayerNorm") + "X is h_" + n +
                ", the input of block " + n + "."};
}

}  // namespace

// RMSNorm with this run's numbers: the first token's row of h_N, its root mean square, and what X's row became.
std::string rmsNormNumbers(const ModelRun& run) {
    const Tensor& hidden = run.modelPass->hiddenStates;  // (n_layers + 1) × b × l × d_model
    const int layer = run.spec.trained()->layer;
    const RowVector h = hidden.slice(layer * hidden.dim(1)).row(0);
    const RowVector x = run.trace[TensorId::X].slice(0).row(0);
    char numbers[160];
    std::snprintf(numbers, sizeof numbers, "%.3g; X's row has root mean square %.3g",
                  std::sqrt(static_cast<double>(h.squaredNorm()) / static_cast<double>(h.size())),
                  std::sqrt(static_cast<double>(x.squaredNorm()) / static_cast<double>(x.size())));
    return " RMSNorm, not GPT-2's LayerNorm: no mean is subtracted and there is no β. Here the first token's row of h_" +
           std::to_string(layer) + " has root mean square " + numbers + " (1 before γ).";
}

StageWords stageWords(const ModelRun& run, StageId id) {
    if (const TrainedLayer* trained = run.spec.trained()) {
        if (std::optional<StageWords> words = trainedStageWords(*trained->model, trained->layer, id)) {
            words->pytorch = substituteShapes(words->pytorch, run.trace);
            const bool rmsNorm = trained->model->config().traits().norm == NormKind::RmsNorm;
            if (id == StageId::Embed && rmsNorm && run.modelPass && run.trace.has(TensorId::X)) words->explanation += rmsNormNumbers(run);
            return *words;
        }
    }
    const Stage& s = stage(id);
    return {std::string(s.formula), codeLine(s, run.trace), std::string(s.explanation)};
}

StageWords ropeStepWords(const ModelRun& run) {
    const Stage& step = ropeStep();
    StageWords words{std::string(step.formula), codeLine(step, run.trace), std::string(step.explanation)};
    const TrainedLayer* trained = run.spec.trained();
    if (trained == nullptr || !trained->model->config().ropeScaling) return words;
    char factor[32];
    std::snprintf(factor, sizeof factor, "%.3g", static_cast<double>(trained->model->config().ropeScaling->factor));
    words.formula += ", rescaled by llama3 rope_scaling (factor " + std::string(factor) + ")";
    return words;
}

std::string trainedInput(const TrainedModel& model, int layer) {
    const std::string stream = "h_" + std::to_string(layer);
    const std::string_view norm = model.config().traits().inputNorm;
    return norm.empty() ? stream : std::string(norm) + "(" + stream + ")";
}

std::optional<StageWords> trainedStageWords(const TrainedModel& model, int layer, StageId stage) {
    if (stage == StageId::Tokens) return tokenWords(model);
    if (stage == StageId::Embed) return embedWords(model, layer);
    return std::nullopt;
}

// [SECTION] running the stepped layer

AttentionConfig trainedAttention(const ModelSpec& spec, const TrainedLayer& trained, const std::vector<int>& lengths, bool modelHeads) {
    const TransformerConfig& config = trained.model->config();
    AttentionConfig attention = spec.attention;
    const bool ragged = std::adjacent_find(lengths.begin(), lengths.end(), std::not_equal_to<>()) != lengths.end();
    if (!config.traits().decoder) attention.mask = ragged ? MaskKind::Padding : MaskKind::None;
    else attention.mask = ragged ? MaskKind::Both : MaskKind::Causal;
    attention.scale.reset();  // the trained model's 1/√d_k
    if (config.traits().groupedQueryAttention) {
        // Grouped K/V heads, RoPE and the window belong to the trained heads: a Llama-family layer is not re-split.
        return layerAttention(config, trained.layer, attention);
    }
    attention.dModel = config.dModel;
    if (modelHeads || attention.heads <= 0) attention.heads = config.heads;
    attention.dK = 0;
    attention.dV = 0;
    return attention;
}

ModelRun runTrainedModel(const ModelSpec& spec, const TrainedLayer& trained, const RunOptions& options) {
    checkLayer(trained);
    const TrainedModel& model = *trained.model;
    ModelRun run;
    run.spec = spec;
    std::vector<int> lengths;
    for (std::size_t i = 0; i < spec.sentences.size(); ++i) {
        Encoding encoding = encodeSentence(model, spec.sentences[i], spec.tokenLimit, i, spec.sentences.size());
        lengths.push_back(static_cast<int>(encoding.ids.size()));
        run.tokenIds.push_back(std::move(encoding.ids));
        run.tokens.push_back(std::move(encoding.labels));
    }
    run.queryTokens = run.tokens;

    const AttentionConfig own = trainedAttention(spec, trained, lengths, true);
    const AttentionConfig shown = trainedAttention(spec, trained, lengths, false);
    run.dims = resolveDimensions(shown);
    PassOptions passOptions;
    passOptions.allAttentionWeights = options.everyLayerAttention;
    TransformerPass pass = runTransformer(model.transformer, run.tokenIds, trained.layer, own, passOptions, spec.headsOff);
    run.weights = model.transformer.weights.blocks[static_cast<std::size_t>(trained.layer)].attention;
    run.resplitHeads = shown.heads != own.heads;
    if (run.resplitHeads && !spec.headsOff.empty()) {
        throw InputError("Heads are switched off among the model's own " + std::to_string(own.heads) + " heads; show the layer with them (not --heads " +
                         std::to_string(shown.heads) + ").");
    }
    if (run.resplitHeads) {
        // The same X and the same trained W^Q, W^K, W^V, W^O, cut into another number of heads.
        run.trace = forward(AttentionInput{pass.steppedInput, {}}, run.weights, shown);
    } else {
        run.trace = std::move(pass.steppedTrace);
    }
    pass.steppedTrace = Trace{};

    const int length = *std::max_element(lengths.begin(), lengths.end());
    run.embeddings = tableRows(model.transformer.weights.tokenEmbeddings.view(), run.tokenIds, length);
    if (model.config().traits().positions == PositionKind::Rotary) {
        run.positions = Tensor({length, model.config().dModel});  // RoPE models add no position rows: zeros
    } else {
        std::vector<int> positions(static_cast<std::size_t>(length));
        for (int p = 0; p < length; ++p) positions[static_cast<std::size_t>(p)] = p;
        run.positions = tableRows(model.transformer.weights.positionEmbeddings, {positions}, length);
        run.positions.shape = {length, model.config().dModel};  // l × d_model, as the seeded model's PE
    }
    run.modelPass = std::make_shared<const TransformerPass>(std::move(pass));
    return run;
}

ModelRun rerunHeadsOff(const ModelRun& previous, const ModelSpec& spec) {
    const TrainedLayer* trained = spec.trained();
    if (!trained || !previous.modelPass || previous.resplitHeads) return runModel(spec);
    ModelRun run = previous;
    run.spec = spec;
    std::vector<int> lengths;
    for (const std::vector<int>& ids : run.tokenIds) lengths.push_back(static_cast<int>(ids.size()));
    PassOptions options;
    options.allAttentionWeights = !previous.modelPass->attentionWeights.empty();
    const TransformerModel& model = trained->model->transformer;
    TransformerPass pass = resumeTransformer(model, run.tokenIds, trained->layer, trainedAttention(spec, *trained, lengths, true), options,
                                             *previous.modelPass, previous.spec.headsOff, spec.headsOff);
    if (trained->layer >= firstDifferentLayer(previous.spec.headsOff, spec.headsOff, model.config.layers)) run.trace = std::move(pass.steppedTrace);
    pass.steppedTrace = Trace{};
    run.modelPass = std::make_shared<const TransformerPass>(std::move(pass));
    // Compared with every head on: B does not depend on the heads off, and stays.
    const bool sameB = previous.compared && spec.compareWith && spec.compareKind == CompareKind::HeadsOff && previous.spec.compareKind == CompareKind::HeadsOff;
    run.compared = sameB ? previous.compared : comparedRun(spec, RunOptions{options.allAttentionWeights});
    return run;
}

}  // namespace attnviz::core
