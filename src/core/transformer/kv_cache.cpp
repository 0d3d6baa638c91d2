// kv_cache.cpp — one new token through every block against the cached keys and values. See kv_cache.h.
//
// Per block, for the new row x at position p (1 × d_model), as runTransformer computes row p:
//   GPT-2: a = ln_1(h); Llama: a = input_layernorm(h)
//   q, k, v = a W^Q + b^Q, a W^K + b^K, a W^V + b^V        1 × h·d_k, 1 × h_kv·d_k, 1 × h_kv·d_v
//   per head: Qwen3's q/k RMSNorm, RoPE at angle p·θ_j      (Llama family)
//   K, V ← the cache with k, v appended                     (p + 1) × h_kv·d_k, (p + 1) × h_kv·d_v
//   head i: a_i = softmax(q_i K_jᵀ · scale) over keys p − W + 1 … p, z_i = a_i V_j (j = i / (h / h_kv))
//   h += [z_0 … z_{h−1}] W^O + b^O; h += MLP(norm(h))
#include "core/transformer/kv_cache.h"

#include <algorithm>
#include <cmath>

namespace attnviz::core {
namespace {

// HF's rotate-half RoPE on one head's row at `position` (attention.cpp's rotateRows for a single row): the pair
// (x_j, x_{j+d_k/2}) turns by position·θ_j, cos and sin computed in double as there.
void rotate(Eigen::Ref<RowVector> row, const RowVector& frequencies, int position) {
    const Eigen::Index half = frequencies.size();
    for (Eigen::Index j = 0; j < half; ++j) {
        const double angle = static_cast<double>(position) * static_cast<double>(frequencies(j));
        const float c = static_cast<float>(std::cos(angle)), s = static_cast<float>(std::sin(angle));
        const float x1 = row(j), x2 = row(j + half);
        row(j) = x1 * c - x2 * s;
        row(j + half) = x2 * c + x1 * s;
    }
}

// Each head's slice of `row` (1 × heads·width) through Qwen3's RMSNorm (γ given) and RoPE (frequencies given).
void prepareHeads(RowVector& row, int heads, int width, const RowVector& gamma, float eps, const RowVector& frequencies, int position) {
    for (int head = 0; head < heads; ++head) {
        auto slice = row.segment(static_cast<Eigen::Index>(head) * width, width);
        if (gamma.size() > 0) slice = (slice / std::sqrt(slice.squaredNorm() / static_cast<float>(width) + eps)).cwiseProduct(gamma);
        if (frequencies.size() > 0) rotate(slice, frequencies, position);
    }
}

RowVector affine(const RowVector& x, const Matrix& w, const RowVector& b) {
    RowVector out(w.cols());
    gemm(x, w, BLayout::AsStored, out);
    if (b.size() > 0) out += b;
    return out;
}

// The same through an MLP weight, owned or mapped.
RowVector affine(const RowVector& x, const LinearWeight& w, const RowVector& b) {
    RowVector out(w.cols());
    w.multiplyInto(x, 0, w.cols(), out);
    if (b.size() > 0) out += b;
    return out;
}

// The block's feed-forward part on the one row (transformer.cpp's mlp, without its column blocks across
// cores: one row is bound by reading the weights, and handing work to threads cost more than it saved).
RowVector feedForwardRow(const RowVector& x, const BlockWeights& block, MlpKind kind) {
    if (kind == MlpKind::SwiGlu) {  // SwiGLU: down(silu(gate(x)) ⊙ up(x))
        const RowVector gated = silu(affine(x, block.mlpGate, {})).cwiseProduct(affine(x, block.mlpIn, {}));
        return affine(gated, block.mlpOut, {});
    }
    return affine(geluTanh(affine(x, block.mlpIn, block.mlpInBias)), block.mlpOut, block.mlpOutBias);  // GPT-2
}

void appendRow(Matrix& rows, int length, const RowVector& row) {
    if (length >= rows.rows()) rows.conservativeResize(std::max<Eigen::Index>(16, 2 * rows.rows()), row.size());
    rows.row(length) = row;
}

}  // namespace

KvCache::KvCache(const TransformerModel& model) {
    if (!model.config.traits().decoder) {
        throw InputError("A " + std::string(model.config.traits().name) + " encoder has no KV cache: every row looks at every later token too, so a new token changes them all.");
    }
    layers_.resize(static_cast<std::size_t>(model.config.layers));
}

// Row-major: the first length() rows are contiguous.
MatrixView KvCache::keys(int layer) const {
    const Matrix& rows = layers_[static_cast<std::size_t>(layer)].keys;
    return MatrixView(rows.data(), length(), rows.cols());
}

MatrixView KvCache::values(int layer) const {
    const Matrix& rows = layers_[static_cast<std::size_t>(layer)].values;
    return MatrixView(rows.data(), length(), rows.cols());
}

void KvCache::truncate(int length) {
    ids_.resize(static_cast<std::size_t>(std::clamp(length, 0, this->length())));
    lastHidden_.resize(0);
}

// The attention part of block `layer` for the new row's normed input x (1 × d_model): 1 × d_model.
RowVector KvCache::attendNewRow(const TransformerModel& model, int layer, const RowVector& x) {
    const TransformerConfig& c = model.config;
    const Weights& w = model.weights.blocks[static_cast<std::size_t>(layer)].attention;
    const AttentionConfig settings = layerAttention(c, layer, AttentionConfig{});
    const Dimensions d = resolveDimensions(settings);
    const int position = length() - 1;  // ids_ already holds the new token
    RowVector q = affine(x, w.wq, w.bq), k = affine(x, w.wk, w.bk);
    prepareHeads(q, d.heads, d.dK, w.qNorm, w.qkNormEps, settings.rotaryFrequencies, position);
    prepareHeads(k, d.kvHeads, d.dK, w.kNorm, w.qkNormEps, settings.rotaryFrequencies, position);
    LayerRows& cache = layers_[static_cast<std::size_t>(layer)];
    appendRow(cache.keys, position, k);
    appendRow(cache.values, position, affine(x, w.wv, w.bv));
    const int first = settings.slidingWindow > 0 ? std::max(0, position - settings.slidingWindow + 1) : 0;
    const int visible = position + 1 - first;
    RowVector z(d.heads * d.dV);
    for (int head = 0; head < d.heads; ++head) {
        const int shared = keyValueHead(d, head);
        const auto keys = cache.keys.block(first, static_cast<Eigen::Index>(shared) * d.dK, visible, d.dK);        // visible × d_k
        const auto values = cache.values.block(first, static_cast<Eigen::Index>(shared) * d.dV, visible, d.dV);    // visible × d_v
        RowVector scores = (keys * q.segment(static_cast<Eigen::Index>(head) * d.dK, d.dK).transpose()).transpose() * d.scale;
        scores = (scores.array() - scores.maxCoeff()).exp().matrix();
        scores /= scores.sum();
        z.segment(static_cast<Eigen::Index>(head) * d.dV, d.dV) = scores * values;
    }
    return affine(z, w.wo, w.bo);
}

const RowVector& KvCache::append(const TransformerModel& model, int id) {
    const TransformerConfig& c = model.config;
    if (static_cast<int>(layers_.size()) != c.layers) throw InputError("This KV cache belongs to another model.");
    if (id < 0 || id >= c.vocabSize) {
        throw InputError("Token id " + std::to_string(id) + " is outside the vocabulary (0 to " + std::to_string(c.vocabSize - 1) + ").");
    }
    if (length() >= c.maxPositions) throw InputError("The sentence is full: the model has positions for " + std::to_string(c.maxPositions) + " tokens.");
    const TransformerWeights& weights = model.weights;
    const FamilyTraits& family = c.traits();
    const bool rms = family.norm == NormKind::RmsNorm;
    ids_.push_back(id);
    RowVector h = weights.tokenEmbeddings.row(id);
    if (family.positions != PositionKind::Rotary) h += weights.positionEmbeddings.row(length() - 1);
    const auto norm = [&](const RowVector& row, const LayerNormWeights& n) -> RowVector {
        return rms ? rmsNorm(row, n.gamma, c.layerNormEps) : layerNorm(row, n, c.layerNormEps);
    };
    for (int layer = 0; layer < c.layers; ++layer) {
        const BlockWeights& block = weights.blocks[static_cast<std::size_t>(layer)];
        h += attendNewRow(model, layer, norm(h, block.ln1));
        h += feedForwardRow(norm(h, block.ln2), block, family.mlp);
    }
    lastHidden_ = norm(h, weights.finalLayerNorm);
    return lastHidden_;
}

KvCache prefilledCache(const TransformerModel& model, const std::vector<int>& ids) {
    KvCache cache(model);
    for (int id : ids) cache.append(model, id);
    return cache;
}

}  // namespace attnviz::core
