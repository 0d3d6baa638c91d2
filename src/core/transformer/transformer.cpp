// transformer.cpp — a trained GPT-2, BERT or Llama-family model's pass through every layer. See transformer.h.
//
// [SECTION] checks      the model's shapes and values, the ids
// [SECTION] pieces      LayerNorm, RMSNorm, the two GELUs, SiLU, linear layers split across cores, the MLPs, RoPE
// [SECTION] the pass    embeddings → blocks (attention through core::forward) → hidden states → logits
#include "core/transformer/transformer.h"

#include "core/parallel.h"

#include <unsupported/Eigen/SpecialFunctions>  // the vectorised erf of BERT's GELU

#include <algorithm>
#include <cmath>
#include <string>

namespace attnviz::core {
namespace {

// [SECTION] checks

std::string shapeText(Eigen::Index rows, Eigen::Index cols) { return std::to_string(rows) + " × " + std::to_string(cols); }

template <typename EigenMatrix>
void checkWeight(const EigenMatrix& m, Eigen::Index rows, Eigen::Index cols, const std::string& name) {
    if (m.rows() != rows || m.cols() != cols) {
        throw InputError("The model's " + name + " is " + shapeText(m.rows(), m.cols()) + " but its config implies " + shapeText(rows, cols) + ".");
    }
    for (Eigen::Index i = 0; i < m.size(); ++i) {
        if (!std::isfinite(m.data()[i])) throw InputError("The model's " + name + " holds a value that is not finite (at " + std::to_string(i) + ").");
    }
}

void checkNorm(const LayerNormWeights& norm, int width, const std::string& name) {
    checkWeight(norm.gamma, 1, width, name + " γ");
    checkWeight(norm.beta, 1, width, name + " β");
}

// An optional vector (a bias, a norm's γ): empty, or 1 × width and finite.
void checkOptional(const RowVector& v, int width, const std::string& name) {
    if (v.size() > 0) checkWeight(v, 1, width, name);
}

void checkLlamaBlock(const BlockWeights& block, const TransformerConfig& c, const std::string& name) {
    const Weights& a = block.attention;
    const int q = c.heads * c.headWidth(), kv = c.keyValueHeads() * c.headWidth();
    checkWeight(a.wq, c.dModel, q, name + " W^Q");
    checkWeight(a.wk, c.dModel, kv, name + " W^K");
    checkWeight(a.wv, c.dModel, kv, name + " W^V");
    checkWeight(a.wo, q, c.dModel, name + " W^O");
    checkOptional(a.bq, q, name + " b^Q");
    checkOptional(a.bk, kv, name + " b^K");
    checkOptional(a.bv, kv, name + " b^V");
    checkOptional(a.bo, c.dModel, name + " b^O");
    checkOptional(a.qNorm, c.headWidth(), name + " q_norm γ");
    checkOptional(a.kNorm, c.headWidth(), name + " k_norm γ");
    checkWeight(block.ln1.gamma, 1, c.dModel, name + " input RMSNorm γ");
    checkWeight(block.ln2.gamma, 1, c.dModel, name + " post-attention RMSNorm γ");
    checkWeight(block.mlpGate, c.dModel, c.dFf, name + " MLP gate weight");
    checkWeight(block.mlpIn, c.dModel, c.dFf, name + " MLP up weight");
    checkWeight(block.mlpOut, c.dFf, c.dModel, name + " MLP down weight");
}

// A GPT-2 or BERT block: d_model-wide attention with every bias, two LayerNorms, a biased two-layer MLP.
void checkClassicBlock(const BlockWeights& block, const TransformerConfig& c, const std::string& name) {
    const Weights& a = block.attention;
    checkWeight(a.wq, c.dModel, c.dModel, name + " W^Q");
    checkWeight(a.wk, c.dModel, c.dModel, name + " W^K");
    checkWeight(a.wv, c.dModel, c.dModel, name + " W^V");
    checkWeight(a.wo, c.dModel, c.dModel, name + " W^O");
    checkWeight(a.bq, 1, c.dModel, name + " b^Q");
    checkWeight(a.bk, 1, c.dModel, name + " b^K");
    checkWeight(a.bv, 1, c.dModel, name + " b^V");
    checkWeight(a.bo, 1, c.dModel, name + " b^O");
    checkNorm(block.ln1, c.dModel, name + " first LayerNorm");
    checkNorm(block.ln2, c.dModel, name + " second LayerNorm");
    checkWeight(block.mlpIn, c.dModel, c.dFf, name + " MLP input weight");
    checkWeight(block.mlpInBias, 1, c.dFf, name + " MLP input bias");
    checkWeight(block.mlpOut, c.dFf, c.dModel, name + " MLP output weight");
    checkWeight(block.mlpOutBias, 1, c.dModel, name + " MLP output bias");
}

void checkIds(const TransformerConfig& config, const std::vector<std::vector<int>>& ids) {
    if (ids.empty()) throw InputError("Give at least one sentence.");
    for (std::size_t b = 0; b < ids.size(); ++b) {
        const std::string which = ids.size() > 1 ? "Sentence " + std::to_string(b + 1) + ": " : "";
        const int length = static_cast<int>(ids[b].size());
        if (length == 0) throw InputError(which + "it has no tokens.");
        if (length > config.maxPositions) {
            throw InputError(which + "it has " + std::to_string(length) + " tokens; the model has positions for " +
                             std::to_string(config.maxPositions) + ".");
        }
        for (int id : ids[b]) {
            if (id < 0 || id >= config.vocabSize) {
                throw InputError(which + "token id " + std::to_string(id) + " is outside the vocabulary (0 to " +
                                 std::to_string(config.vocabSize - 1) + ").");
            }
        }
    }
}

// [SECTION] pieces

// Output columns are computed in this many fixed blocks, whatever the core count, so the bits never depend on it.
constexpr int kColumnBlocks = 8;

// X · W + b (rows × in → rows × out), column blocks across cores when the product is big enough.
Matrix linear(const Matrix& x, const LinearWeight& w, const RowVector& b) {
    Matrix out(x.rows(), w.cols());
    const Eigen::Index blockWidth = (w.cols() + kColumnBlocks - 1) / kColumnBlocks;
    const bool big = static_cast<double>(x.rows()) * x.cols() * w.cols() > 4.0e6;
    parallelFor(kColumnBlocks, big, [&](int block) {
        const Eigen::Index first = block * blockWidth;
        const Eigen::Index width = std::min(blockWidth, w.cols() - first);
        if (width <= 0) return;
        w.multiplyInto(x, first, width, out.middleCols(first, width));
        if (b.size() > 0) out.middleCols(first, width).rowwise() += b.segment(first, width);
    });
    return out;
}

Matrix mlp(const Matrix& x, const BlockWeights& block, MlpKind kind) {
    if (kind == MlpKind::SwiGlu) {  // SwiGLU (modeling_llama.py LlamaMLP): down(silu(gate(x)) ⊙ up(x))
        const Matrix gated = silu(linear(x, block.mlpGate, block.mlpInBias)).cwiseProduct(linear(x, block.mlpIn, block.mlpInBias));
        return linear(gated, block.mlpOut, block.mlpOutBias);
    }
    const Matrix inner = linear(x, block.mlpIn, block.mlpInBias);
    return linear(kind == MlpKind::GeluTanh ? geluTanh(inner) : geluErf(inner), block.mlpOut, block.mlpOutBias);
}

// [SECTION] the pass

// h_0 of one sentence: l × d_model.
Matrix embed(const TransformerModel& model, const std::vector<int>& ids) {
    const TransformerWeights& w = model.weights;
    const auto length = static_cast<Eigen::Index>(ids.size());
    Matrix h(length, model.config.dModel);
    for (Eigen::Index p = 0; p < length; ++p) h.row(p) = w.tokenEmbeddings.row(ids[static_cast<std::size_t>(p)]);
    const PositionKind positions = model.config.traits().positions;
    if (positions == PositionKind::Rotary) return h;  // positions enter as rotations of q and k (RoPE)
    for (Eigen::Index p = 0; p < length; ++p) h.row(p) += w.positionEmbeddings.row(p);
    if (positions == PositionKind::LearnedTable) return h;
    h.rowwise() += w.tokenTypeEmbeddings.row(0);
    return layerNorm(h, w.embeddingLayerNorm, model.config.layerNormEps);
}

// Writes each sentence's unpadded rows into slice `index` of a (n + 1) × b × l × d_model tensor.
void storeHidden(Tensor& hidden, int index, const std::vector<Matrix>& rows) {
    const int batch = static_cast<int>(rows.size()), length = hidden.dim(2), width = hidden.dim(3);
    for (int b = 0; b < batch; ++b) {
        Eigen::Map<Matrix> slice(hidden.sliceData(index * batch + b), length, width);
        slice.topRows(rows[static_cast<std::size_t>(b)].rows()) = rows[static_cast<std::size_t>(b)];
    }
}

// Copies a layer's A (b × h × l × l) into slice `layer` of the n_layers × b × h × l × l tensor.
void storeAttention(Tensor& all, int layer, const Tensor& weights) {
    std::copy(weights.data.begin(), weights.data.end(), all.data.begin() + static_cast<std::ptrdiff_t>(layer) * static_cast<std::ptrdiff_t>(weights.size()));
}

// An overflow inside the model (a weight near float32's limit) must not become a map of NaN under a caption saying
// rows sum to 1: the first layer whose attention weights (the sentences' own rows; padded rows are left alone)
// or output are not finite stops the run, naming the layer and the head.
[[noreturn]] void attentionOverflows(int layer, int head) {
    throw InputError("The model overflows: layer " + std::to_string(layer) + ", head " + std::to_string(head) +
                     " gives attention weights that are not finite numbers (its scores exceed float32's range), so "
                     "they cannot be shown.");
}

void requireFiniteAttention(const Tensor& weights, const std::vector<Matrix>& rows, int layer) {
    for (int b = 0; b < weights.dim(0); ++b) {
        const Eigen::Index length = rows[static_cast<std::size_t>(b)].rows();
        for (int head = 0; head < weights.dim(1); ++head) {
            if (!weights.slice(b, head).topRows(length).allFinite()) attentionOverflows(layer, head);
        }
    }
}

// The lean pass's verdict (b × h flags, the sentences' own rows only), in the same words.
void requireFiniteAttention(const std::vector<std::uint8_t>& nonFiniteHeads, int heads, int layer) {
    for (std::size_t k = 0; k < nonFiniteHeads.size(); ++k) {
        if (nonFiniteHeads[k] != 0) attentionOverflows(layer, static_cast<int>(k) % heads);
    }
}

// The attention output of one layer: b × l × d_model, padded. The stepped layer's full Trace goes to `pass`, and
// with it its A; the other layers take the lean pass and write A straight into the pass's tensor when it is kept.
Tensor attendLayer(const AttentionInput& input, const Weights& weights, const AttentionConfig& config, int layer, bool full,
                   TransformerPass& pass, const std::vector<Matrix>& rows) {
    Tensor& all = pass.attentionWeights;  // n_layers × b × h × l × l, or empty
    float* const allWeights = all.empty() ? nullptr : all.sliceData(layer * all.dim(1) * all.dim(2));
    if (!full) {
        LeanAttention lean = attendLean(input, weights, config, allWeights);
        requireFiniteAttention(lean.nonFiniteHeads, config.heads, layer);
        return std::move(lean.output);
    }
    Trace trace = forward(input, weights, config);
    requireFiniteAttention(trace[TensorId::AttentionWeights], rows, layer);
    if (allWeights) storeAttention(pass.attentionWeights, layer, trace[TensorId::AttentionWeights]);
    Tensor output = trace[TensorId::Output];
    pass.steppedTrace = std::move(trace);
    return output;
}

void requireFiniteOutput(const std::vector<Matrix>& rows, int layer) {
    for (const Matrix& sentence : rows) {
        if (!sentence.allFinite()) {
            throw InputError("The model overflows: the output of layer " + std::to_string(layer) +
                             " (after its feed-forward part) holds values that are not finite numbers.");
        }
    }
}

}  // namespace

void checkTransformer(const TransformerModel& model) {
    const TransformerConfig& c = model.config;
    const bool headsFit = c.traits().groupedQueryAttention ? c.heads % c.keyValueHeads() == 0 && c.headWidth() % 2 == 0 && (c.headDim > 0 || c.dModel % c.heads == 0)
                                : c.dModel % c.heads == 0;
    if (c.layers < 1 || c.dModel < 1 || c.heads < 1 || !headsFit || c.dFf < 1 || c.maxPositions < 1 || c.vocabSize < 1) {
        throw InputError("The model's config is not usable: " + std::to_string(c.layers) + " layers, d_model " + std::to_string(c.dModel) +
                         ", " + std::to_string(c.heads) + " heads (must divide d_model, or be a multiple of the K/V heads with an even "
                         "head_dim), d_ff " + std::to_string(c.dFf) + ".");
    }
    if (!c.slidingWindows.empty() && static_cast<int>(c.slidingWindows.size()) != c.layers) {
        throw InputError("The model's config gives " + std::to_string(c.slidingWindows.size()) + " sliding windows for " +
                         std::to_string(c.layers) + " layers.");
    }
    const TransformerWeights& w = model.weights;
    checkWeight(w.tokenEmbeddings, c.vocabSize, c.dModel, "token embedding table");
    switch (c.family) {  // the weights outside the blocks, as each tensor layout has them
    case ModelFamily::Llama:
        checkWeight(w.finalLayerNorm.gamma, 1, c.dModel, "final RMSNorm (model.norm) γ");
        if (!c.tiedEmbeddings) checkWeight(w.lmHead, c.vocabSize, c.dModel, "LM head (lm_head)");
        break;
    case ModelFamily::Bert:
        checkWeight(w.positionEmbeddings, c.maxPositions, c.dModel, "position embedding table");
        if (const std::optional<MaskedLmHead>& mlm = w.maskedLm) {
            checkWeight(mlm->transform, c.dModel, c.dModel, "masked-word head's transform");
            checkWeight(mlm->transformBias, 1, c.dModel, "masked-word head's transform bias");
            checkNorm(mlm->norm, c.dModel, "masked-word head's LayerNorm");
            checkWeight(mlm->bias, 1, c.vocabSize, "masked-word head's bias");
        }
        checkWeight(w.tokenTypeEmbeddings, std::max(c.typeVocabSize, 1), c.dModel, "token type table");
        checkNorm(w.embeddingLayerNorm, c.dModel, "embedding LayerNorm");
        break;
    case ModelFamily::Gpt2:
        checkWeight(w.positionEmbeddings, c.maxPositions, c.dModel, "position embedding table");
        checkNorm(w.finalLayerNorm, c.dModel, "final LayerNorm (ln_f)");
        break;
    }
    if (static_cast<int>(w.blocks.size()) != c.layers) {
        throw InputError("The model has " + std::to_string(w.blocks.size()) + " blocks but its config says " + std::to_string(c.layers) + ".");
    }
    const auto checkBlock = c.family == ModelFamily::Llama ? checkLlamaBlock : checkClassicBlock;
    for (int i = 0; i < c.layers; ++i) checkBlock(w.blocks[static_cast<std::size_t>(i)], c, "layer " + std::to_string(i));
}

Matrix layerNorm(const Matrix& rows, const LayerNormWeights& weights, float eps) {
    Matrix out(rows.rows(), rows.cols());
    for (Eigen::Index r = 0; r < rows.rows(); ++r) {
        const float mean = rows.row(r).mean();
        const RowVector centred = rows.row(r).array() - mean;
        const float variance = centred.squaredNorm() / static_cast<float>(rows.cols());  // biased, as torch
        out.row(r) = (centred / std::sqrt(variance + eps)).cwiseProduct(weights.gamma) + weights.beta;
    }
    return out;
}

// Both GELUs use Eigen's vectorised tanh and erf (a few ulp from libm's one-at-a-time calls; the reference tests
// allow 1e-4).
Matrix geluTanh(const Matrix& x) {
    const float k = std::sqrt(2.0f / 3.14159265358979f);
    const auto v = x.array();
    return (0.5f * v * (1.0f + (k * (v + 0.044715f * v.cube())).tanh())).matrix();
}

Matrix geluErf(const Matrix& x) {
    const auto v = x.array();
    return (0.5f * v * (1.0f + (v * 0.70710678118654752f).erf())).matrix();
}

Matrix rmsNorm(const Matrix& rows, const RowVector& gamma, float eps) {
    Matrix out(rows.rows(), rows.cols());
    for (Eigen::Index r = 0; r < rows.rows(); ++r) {
        const float meanSquare = rows.row(r).squaredNorm() / static_cast<float>(rows.cols());
        out.row(r) = (rows.row(r) / std::sqrt(meanSquare + eps)).cwiseProduct(gamma);
    }
    return out;
}

// Eigen's vectorised exp (libm's one-at-a-time expf was a few % of a SmolLM2-shaped forward).
Matrix silu(const Matrix& x) {
    const auto v = x.array();
    return (v / (1.0f + (-v).exp())).matrix();
}

RowVector rotaryFrequencies(const TransformerConfig& config) {
    const int width = config.headWidth();
    RowVector frequencies(width / 2);
    for (int j = 0; j < width / 2; ++j) {
        double inverse = 1.0 / std::pow(config.ropeTheta, 2.0 * j / width);
        if (const std::optional<Llama3RopeScaling>& s = config.ropeScaling) {
            // _compute_llama3_parameters: wavelengths above old_context / low_freq_factor slow down by `factor`,
            // those below old_context / high_freq_factor stay, and the band between is interpolated.
            const double wavelength = 2.0 * 3.14159265358979323846 / inverse;
            const double lowWavelength = s->originalMaxPositions / s->lowFreqFactor;
            const double highWavelength = s->originalMaxPositions / s->highFreqFactor;
            if (wavelength > lowWavelength) {
                inverse /= s->factor;
            } else if (wavelength >= highWavelength) {
                const double smooth = (s->originalMaxPositions / wavelength - s->lowFreqFactor) / (s->highFreqFactor - s->lowFreqFactor);
                inverse = (1.0 - smooth) * inverse / s->factor + smooth * inverse;
            }
        }
        frequencies(j) = static_cast<float>(inverse);
    }
    return frequencies;
}

AttentionConfig modelAttention(const TransformerModel& model) {
    AttentionConfig attention;
    attention.dModel = model.config.dModel;
    attention.heads = model.config.heads;
    attention.mask = model.config.traits().decoder ? MaskKind::Causal : MaskKind::None;
    attention.comparePerHead = false;
    return attention;
}

AttentionConfig layerAttention(const TransformerConfig& config, int layer, AttentionConfig base) {
    base.dModel = config.dModel;
    base.heads = config.heads;
    if (!config.traits().groupedQueryAttention) return base;
    base.kvHeads = config.keyValueHeads();
    base.dK = base.dV = config.headWidth();
    base.scale.reset();  // head_dim^−0.5
    base.slidingWindow = config.slidingWindows.empty() ? 0 : config.slidingWindows[static_cast<std::size_t>(layer)];
    base.rotaryFrequencies = rotaryFrequencies(config);
    return base;
}

RowVector nextTokenLogits(const TransformerModel& model, const TransformerPass& pass, int sentence, int position) {
    const TransformerConfig& c = model.config;
    if (!c.traits().decoder) throw InputError("A " + std::string(c.traits().name) + " encoder predicts no next token.");
    const Tensor& hidden = pass.hiddenStates;
    if (sentence < 0 || sentence >= hidden.dim(1) || position < 0 || position >= hidden.dim(2)) {
        throw InputError("There is no token " + std::to_string(position) + " in sentence " + std::to_string(sentence + 1) + ".");
    }
    return nextTokenLogits(model, hidden.slice(c.layers * hidden.dim(1) + sentence).row(position));  // 1 × d_model, normed
}

RowVector nextTokenLogits(const TransformerModel& model, const RowVector& finalHidden) {
    // vocab × d_model, read where it is (the mapped file for F32): a matrix-vector product, no copy of the table.
    const MatrixView head = (model.weights.lmHead.size() > 0 ? model.weights.lmHead : model.weights.tokenEmbeddings).view();
    RowVector logits(head.rows());  // 1 × vocab = h (1 × d_model) · headᵀ
    gemm(finalHidden, head, BLayout::Transposed, logits);
    return logits;
}

std::vector<HeadOff> headsOffIn(const std::vector<HeadAblation>& ablations, int layer) {
    std::vector<HeadOff> heads;
    for (const HeadAblation& a : ablations) {
        if (a.layer == layer) heads.push_back({a.head, a.mode});
    }
    return heads;
}

int firstDifferentLayer(const std::vector<HeadAblation>& a, const std::vector<HeadAblation>& b, int layers) {
    for (int layer = 0; layer < layers; ++layer) {
        if (headsOffIn(a, layer) != headsOffIn(b, layer)) return layer;
    }
    return layers;
}

namespace {

void checkAblations(const TransformerConfig& c, const std::vector<HeadAblation>& ablations) {
    for (const HeadAblation& a : ablations) {
        if (a.layer < 0 || a.layer >= c.layers || a.head < 0 || a.head >= c.heads) {
            throw InputError("There is no head " + std::to_string(a.layer) + "." + std::to_string(a.head) + " to switch off: the model has layers 0 to " +
                             std::to_string(c.layers - 1) + " and heads 0 to " + std::to_string(c.heads - 1) + ".");
        }
    }
}

// Everything a pass needs checked and sized before its first layer runs.
void checkPass(const TransformerConfig& c, const std::vector<std::vector<int>>& ids, int stepped, const std::vector<HeadAblation>& ablations) {
    checkIds(c, ids);
    if (stepped < 0 || stepped >= c.layers) {
        throw InputError("Layer " + std::to_string(stepped) + " does not exist: the model has layers 0 to " + std::to_string(c.layers - 1) + ".");
    }
    checkAblations(c, ablations);
}

// Blocks `first` … n_layers − 1 on the residual stream h (b × (l_b × d_model), entering block `first`), writing
// hidden states first + 1 … n_layers and those layers' attention weights into `pass`.
void runLayers(const TransformerModel& model, std::vector<Matrix> h, int first, int stepped, const AttentionConfig& attention,
               const PassOptions& options, const std::vector<HeadAblation>& ablations, TransformerPass& pass) {
    const TransformerConfig& c = model.config;
    const int batch = static_cast<int>(h.size());
    AttentionConfig other = attention;
    other.comparePerHead = false;
    const FamilyTraits& family = c.traits();
    const bool preNorm = family.normPlacement == NormPlacement::PreNorm;
    const auto norm = [&](const Matrix& rows, const LayerNormWeights& weights) {  // rows × d_model → rows × d_model
        return family.norm == NormKind::RmsNorm ? rmsNorm(rows, weights.gamma, c.layerNormEps) : layerNorm(rows, weights, c.layerNormEps);
    };
    for (int layer = first; layer < c.layers; ++layer) {
        const BlockWeights& block = model.weights.blocks[static_cast<std::size_t>(layer)];
        AttentionInput input;
        for (const Matrix& rows : h) {
            input.keyValueSide.push_back(preNorm ? norm(rows, block.ln1) : rows);
        }
        const bool full = layer == stepped && options.steppedTrace;
        AttentionConfig config = layerAttention(c, layer, full ? attention : other);
        config.headsOff = headsOffIn(ablations, layer);
        const Tensor output = attendLayer(input, block.attention, config, layer, full, pass, h);
        for (int b = 0; b < batch; ++b) {
            Matrix& rows = h[static_cast<std::size_t>(b)];
            const auto attended = output.slice(b).topRows(rows.rows());
            if (preNorm) {
                rows += attended;
                rows += mlp(norm(rows, block.ln2), block, family.mlp);
            } else {
                rows = norm(rows + attended, block.ln1);
                rows = norm(rows + mlp(rows, block, family.mlp), block.ln2);
            }
        }
        requireFiniteOutput(h, layer);
        if (layer == stepped) pass.steppedInput = std::move(input.keyValueSide);
        if (layer + 1 < c.layers || !preNorm) storeHidden(pass.hiddenStates, layer + 1, h);
    }
    if (preNorm) {
        const LayerNormWeights& final = model.weights.finalLayerNorm;
        for (Matrix& rows : h) rows = norm(rows, final);
        storeHidden(pass.hiddenStates, c.layers, h);
    }
}

}  // namespace

TransformerPass runTransformer(const TransformerModel& model, const std::vector<std::vector<int>>& ids, int stepped,
                               const AttentionConfig& attention, const PassOptions& options, const std::vector<HeadAblation>& ablations) {
    const TransformerConfig& c = model.config;
    checkPass(c, ids, stepped, ablations);
    int length = 0;
    std::vector<Matrix> h;  // b × (l_b × d_model): the residual stream
    for (const std::vector<int>& sentence : ids) {
        h.push_back(embed(model, sentence));
        length = std::max(length, static_cast<int>(sentence.size()));
    }
    const int batch = static_cast<int>(ids.size());
    TransformerPass pass;
    pass.hiddenStates = Tensor({c.layers + 1, batch, length, c.dModel});
    if (options.allAttentionWeights) pass.attentionWeights.reshape({c.layers, batch, c.heads, length, length});  // every element written
    storeHidden(pass.hiddenStates, 0, h);
    runLayers(model, std::move(h), 0, stepped, attention, options, ablations, pass);
    return pass;
}

TransformerPass resumeTransformer(const TransformerModel& model, const std::vector<std::vector<int>>& ids, int stepped,
                                  const AttentionConfig& attention, const PassOptions& options, const TransformerPass& previous,
                                  const std::vector<HeadAblation>& previousAblations, const std::vector<HeadAblation>& ablations) {
    const TransformerConfig& c = model.config;
    checkPass(c, ids, stepped, ablations);
    const int first = firstDifferentLayer(previousAblations, ablations, c.layers);
    TransformerPass pass;
    pass.hiddenStates = previous.hiddenStates;        // (n + 1) × b × l × d_model: 0 … first are kept
    pass.attentionWeights = previous.attentionWeights;  // layers before `first` are kept
    if (stepped < first) {
        pass.steppedInput = previous.steppedInput;
        pass.steppedTrace = previous.steppedTrace;
    }
    if (first == c.layers) return pass;
    std::vector<Matrix> h;  // the residual stream entering block `first`, unpadded
    const int batch = static_cast<int>(ids.size());
    for (int b = 0; b < batch; ++b) {
        h.emplace_back(pass.hiddenStates.slice(first * batch + b).topRows(static_cast<Eigen::Index>(ids[static_cast<std::size_t>(b)].size())));
    }
    runLayers(model, std::move(h), first, stepped, attention, options, ablations, pass);
    return pass;
}

}  // namespace attnviz::core
