// model.cpp — sentences → tokens → X → weights → cell edits → forward(). See model.h.
#include "core/model.h"

#include "core/embedding.h"
#include "core/random.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace attnviz::core {
namespace {

// Prefixes an error with the sentence it came from when there is more than one.
std::vector<std::string> tokenizeNumbered(const std::string& sentence, const TokenizeOptions& options,
                                          std::string_view side, std::size_t index, std::size_t count) {
    try {
        return tokenize(sentence, options);
    } catch (const InputError& error) {
        if (count == 1 && side == "Sentence") throw;
        throw InputError(std::string(side) + " " + std::to_string(index + 1) + ": " + error.what());
    }
}

std::vector<std::vector<std::string>> tokenizeAll(const std::vector<std::string>& sentences, const TokenizeOptions& options,
                                                  std::string_view side) {
    std::vector<std::vector<std::string>> all;
    for (std::size_t i = 0; i < sentences.size(); ++i) all.push_back(tokenizeNumbered(sentences[i], options, side, i, sentences.size()));
    return all;
}

int longestOf(const std::vector<std::vector<std::string>>& tokens) {
    std::size_t length = 0;
    for (const auto& t : tokens) length = std::max(length, t.size());
    return static_cast<int>(length);
}

void checkEmbeddingTable(const EmbeddingTable& table, int dModel) {
    if (table.rows.cols() != dModel) {
        throw InputError("The embedding table has " + std::to_string(table.rows.cols()) + " columns but d_model is " +
                         std::to_string(dModel) + ".");
    }
}

// 1 × d_model for one token: its table row, the table's "[UNK]" row for a token the table lacks, else (no table,
// or no "[UNK]") the seeded embedding.
RowVector embeddingOf(const std::string& token, int dModel, std::uint64_t seed, const EmbeddingTable* table) {
    if (table == nullptr) return tokenEmbedding(token, dModel, seed);
    const auto found = table->index.find(token);
    const int row = found != table->index.end() ? found->second : table->unknownRow;
    if (row < 0) return tokenEmbedding(token, dModel, seed);
    if (row >= table->rows.rows()) {
        throw InputError("The embedding table sends \"" + token + "\" to row " + std::to_string(row) + " but has only " +
                         std::to_string(table->rows.rows()) + " rows.");
    }
    return table->rows.row(row);
}

// E[ids] for every sentence, zero-padded: b × l × d_model (no positions).
Tensor embeddingRows(const std::vector<std::vector<std::string>>& tokens, int dModel, std::uint64_t seed,
                     const EmbeddingTable* table) {
    const int batch = static_cast<int>(tokens.size());
    const int length = longestOf(tokens);
    Tensor rows({batch, length, dModel});
    for (int b = 0; b < batch; ++b) {
        Eigen::Map<Matrix> slice(rows.sliceData(b), length, dModel);
        const auto& sentence = tokens[static_cast<std::size_t>(b)];
        for (std::size_t p = 0; p < sentence.size(); ++p) {
            slice.row(static_cast<Eigen::Index>(p)) = embeddingOf(sentence[p], dModel, seed, table);
        }
    }
    return rows;
}

// The unpadded X of each sentence: its embedding rows plus positions.
std::vector<Matrix> inputsOf(const Tensor& embeddings, const std::vector<std::vector<std::string>>& tokens, const Matrix& positions) {
    std::vector<Matrix> inputs;
    for (std::size_t b = 0; b < tokens.size(); ++b) {
        const Eigen::Index length = static_cast<Eigen::Index>(tokens[b].size());
        inputs.emplace_back(embeddings.slice(static_cast<int>(b)).topRows(length) + positions.topRows(length));
    }
    return inputs;
}

// The unpadded output rows of every batch element: what a next layer takes as its input.
std::vector<Matrix> outputRows(const Trace& trace) {
    std::vector<Matrix> rows;
    for (int b = 0; b < trace.batch; ++b) {
        rows.emplace_back(trace[TensorId::Output].slice(b).topRows(trace.queryLengths[static_cast<std::size_t>(b)]));
    }
    return rows;
}

// A self-attention layer before the cross-attention one, with weights of its own (seeded from its name).
Trace precedingLayer(const std::vector<Matrix>& inputs, const ModelSpec& spec, const SeededLayer& seeded, const Dimensions& dims,
                     MaskKind mask, std::string_view layerName) {
    AttentionConfig config = spec.attention;
    config.mask = mask;
    AttentionInput input;
    input.keyValueSide = inputs;
    return forward(input, initWeights(dims, streamSeed(layerName, seeded.seed), seeded.biases), config);
}

// [cell edits] The input rows of the sentence an X or X_dec edit names.
Matrix& editedInput(const CellEdit& edit, AttentionInput& input) {
    if (edit.matrix == TensorId::XQuery && !input.isCross()) {
        throw InputError("X_dec exists only in cross-attention: give decoder sentences, or edit X.");
    }
    std::vector<Matrix>& sentences = edit.matrix == TensorId::XQuery ? input.querySide : input.keyValueSide;
    if (edit.batch < 0 || edit.batch >= static_cast<int>(sentences.size())) {
        throw InputError("An edit of " + std::string(tensorInfo(edit.matrix).symbol) + " names sentence " +
                         std::to_string(static_cast<long long>(edit.batch) + 1) + " but the batch has " + std::to_string(sentences.size()) + ".");
    }
    return sentences[static_cast<std::size_t>(edit.batch)];
}

Matrix& editedWeight(const CellEdit& edit, Weights& weights) {
    if (edit.batch != 0) {
        throw InputError("An edit of " + std::string(tensorInfo(edit.matrix).symbol) +
                         " takes batch 0: every sentence shares the weights.");
    }
    switch (edit.matrix) {
        case TensorId::WQ: return weights.wq;
        case TensorId::WK: return weights.wk;
        case TensorId::WV: return weights.wv;
        default: return weights.wo;
    }
}

// The matrix an edit writes into; InputError for a matrix that is not an input or a weight.
Matrix& editTarget(const CellEdit& edit, AttentionInput& input, Weights& weights) {
    switch (edit.matrix) {
        case TensorId::X: case TensorId::XQuery: return editedInput(edit, input);
        case TensorId::WQ: case TensorId::WK: case TensorId::WV: case TensorId::WO: return editedWeight(edit, weights);
        default:
            throw InputError("Only cells of X, X_dec, W^Q, W^K, W^V and W^O can be edited (not " +
                             std::string(tensorInfo(edit.matrix).symbol) + ").");
    }
}

void applyCellEdit(const CellEdit& edit, AttentionInput& input, Weights& weights) {
    const std::string cell = std::string(tensorInfo(edit.matrix).symbol) + "[" + std::to_string(edit.row) + ", " +
                             std::to_string(edit.col) + "]";
    if (!std::isfinite(edit.value)) throw InputError("The edited cell " + cell + " must hold a finite number.");
    Matrix& target = editTarget(edit, input, weights);
    if (edit.row < 0 || edit.row >= target.rows() || edit.col < 0 || edit.col >= target.cols()) {
        throw InputError("The edited cell " + cell + " lies outside the matrix, which is " + std::to_string(target.rows()) +
                         " x " + std::to_string(target.cols()) + ".");
    }
    target(edit.row, edit.col) = edit.value;
}

bool masksPadding(MaskKind kind) { return kind == MaskKind::Padding || kind == MaskKind::Both; }

void checkBatch(const ModelSpec& spec) {
    if (spec.sentences.empty()) throw InputError("Give at least one sentence.");
    if (spec.sentences.size() > static_cast<std::size_t>(kMaxBatch)) {
        throw InputError("A batch holds at most " + std::to_string(kMaxBatch) + " sentences (got " +
                         std::to_string(spec.sentences.size()) + ").");
    }
    const SeededLayer* seeded = spec.seeded();
    if (seeded && !seeded->decoderSentences.empty() && seeded->decoderSentences.size() != spec.sentences.size()) {
        throw InputError("Cross-attention needs one decoder sentence per encoder sentence (got " +
                         std::to_string(seeded->decoderSentences.size()) + " for " + std::to_string(spec.sentences.size()) + ").");
    }
}

ModelRun runSeededLayer(const ModelSpec& spec, const SeededLayer& seeded) {
    ModelRun run;
    run.spec = spec;
    run.dims = resolveDimensions(spec.attention);
    const TokenizeOptions options{seeded.prependCls, spec.tokenLimit};
    run.tokens = tokenizeAll(spec.sentences, options, "Sentence");
    const bool cross = !seeded.decoderSentences.empty();
    run.queryTokens = cross ? tokenizeAll(seeded.decoderSentences, options, "Decoder sentence") : run.tokens;

    const int dModel = run.dims.dModel;
    const int longest = std::max(longestOf(run.tokens), longestOf(run.queryTokens));
    const Matrix positions = seeded.positional ? positionalEncoding(longest, dModel) : Matrix::Zero(longest, dModel);
    run.positions = Tensor({longest, dModel});
    Eigen::Map<Matrix>(run.positions.data.data(), longest, dModel) = positions;

    const EmbeddingTable* table = seeded.embeddingTable.get();
    if (table) checkEmbeddingTable(*table, dModel);
    run.embeddings = embeddingRows(run.tokens, dModel, seeded.seed, table);
    AttentionInput input;
    input.keyValueSide = inputsOf(run.embeddings, run.tokens, positions);
    if (cross) {
        run.queryEmbeddings = embeddingRows(run.queryTokens, dModel, seeded.seed, table);
        input.querySide = inputsOf(run.queryEmbeddings, run.queryTokens, positions);
    }

    if (cross && seeded.encoderSelfAttentionFirst) {
        const MaskKind mask = masksPadding(spec.attention.mask) ? MaskKind::Padding : MaskKind::None;
        run.encoderTrace = precedingLayer(input.keyValueSide, spec, seeded, run.dims, mask, "encoder self-attention");
        input.keyValueSide = outputRows(*run.encoderTrace);
    }
    if (cross && seeded.decoderCausalSelfAttentionFirst) {
        const MaskKind mask = masksPadding(spec.attention.mask) ? MaskKind::Both : MaskKind::Causal;
        run.decoderTrace = precedingLayer(input.querySide, spec, seeded, run.dims, mask, "decoder self-attention");
        input.querySide = outputRows(*run.decoderTrace);
    }

    if (seeded.customWeights) {
        checkWeightShapes(*seeded.customWeights, run.dims);
        run.weights = *seeded.customWeights;
    } else {
        run.weights = initWeights(run.dims, seeded.seed, seeded.biases);
    }
    for (const CellEdit& edit : seeded.cellEdits) applyCellEdit(edit, input, run.weights);
    run.trace = forward(input, run.weights, spec.attention);
    return run;
}

}  // namespace

const SeededLayer& seededChoices(const ModelSpec& spec) {
    static const SeededLayer defaults;
    const SeededLayer* seeded = spec.seeded();
    return seeded ? *seeded : defaults;
}

std::shared_ptr<const Tokenizer> tokenizerOf(const ModelSpec& spec) {
    if (const TrainedLayer* trained = spec.trained()) return trained->model->tokenizer;
    return std::make_shared<const WordTokenizer>(TokenizeOptions{spec.seeded()->prependCls, spec.tokenLimit});
}

ModelSpec comparedSpec(const ModelSpec& spec) {
    ModelSpec compared = spec;
    compared.compareWith.reset();
    compared.compareKind = CompareKind::Sentence;
    switch (spec.compareKind) {
        case CompareKind::Sentence:
            compared.sentences = {spec.compareWith.value_or("")};
            // Cross-attention: the compared sentence is the encoder's, beside the first decoder sentence.
            if (SeededLayer* seeded = compared.seeded(); seeded && seeded->decoderSentences.size() > 1) seeded->decoderSentences.resize(1);
            break;
        case CompareKind::HeadsOff: compared.headsOff.clear(); break;
        case CompareKind::Untrained:
            if (TrainedLayer* trained = compared.trained()) trained->model = untrainedTwin(trained->model);
            break;
    }
    return compared;
}

std::shared_ptr<const ModelRun> comparedRun(const ModelSpec& spec, const RunOptions& keep) {
    if (!spec.compareWith) return nullptr;
    if (spec.compareKind == CompareKind::HeadsOff && !spec.trained()) {
        throw InputError("Comparing with heads off needs a trained model (--model): the seeded layer has no heads to switch off around it.");
    }
    if (spec.compareKind == CompareKind::Untrained && !spec.trained()) {
        throw InputError("Comparing with the untrained model needs a trained model (--model): the seeded layer's weights are already random.");
    }
    try {
        return std::make_shared<const ModelRun>(runModel(comparedSpec(spec), keep));
    } catch (const InputError& error) {
        if (spec.compareKind != CompareKind::Sentence) throw;
        throw InputError(std::string("The sentence to compare with: ") + error.what());
    }
}

ModelRun runModel(const ModelSpec& spec, const RunOptions& keep) {
    checkBatch(spec);
    ModelRun run;
    if (const TrainedLayer* trained = spec.trained()) {
        run = runTrainedModel(spec, *trained, keep);
    } else {
        if (!spec.headsOff.empty()) throw InputError("Switching heads off needs a trained model (--model): the seeded layer is the whole model.");
        run = runSeededLayer(spec, *spec.seeded());
    }
    run.compared = comparedRun(spec, keep);
    return run;
}

ModelRun rerunAttention(const ModelRun& previous, const ModelSpec& spec) {
    if ((spec.seeded() && !spec.seeded()->decoderSentences.empty()) || previous.trace.cross) {
        throw std::logic_error("rerunAttention: cross-attention's preceding layers depend on the mask; use runModel");
    }
    ModelRun run;
    run.spec = spec;
    run.dims = resolveDimensions(spec.attention);
    run.tokens = previous.tokens;
    run.queryTokens = previous.queryTokens;
    run.embeddings = previous.embeddings;
    run.positions = previous.positions;
    run.weights = previous.weights;
    run.tokenIds = previous.tokenIds;
    run.modelPass = previous.modelPass;
    run.resplitHeads = previous.resplitHeads;
    run.trace = projectionsOf(previous.trace);
    reattendInto(run.weights, spec.attention, run.trace);
    const bool sameB = previous.compared && spec.compareWith == previous.spec.compareWith && spec.compareKind == previous.spec.compareKind;
    run.compared = sameB ? std::make_shared<const ModelRun>(rerunAttention(*previous.compared, comparedSpec(spec))) : comparedRun(spec, {});
    return run;
}

}  // namespace attnviz::core
