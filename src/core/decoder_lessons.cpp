// decoder_lessons.cpp — see decoder_lessons.h. Sizes in, counts out; RoPE in double so that the demonstration's
// differences are the rotation's, not float32's.
#include "core/decoder_lessons.h"

#include "core/model.h"
#include "core/transformer/trained_model.h"

#include <algorithm>
#include <cmath>

namespace attnviz::core {

// [SECTION] K/V sharing

AttentionShape attentionShape(const TransformerConfig& config) {
    return {config.layers, config.dModel, config.heads, config.keyValueHeads(), config.headWidth()};
}

AttentionShape attentionShape(const Dimensions& dims) {
    if (dims.dK != dims.dV) throw InputError("The K/V comparison needs d_k = d_v (free d_k / d_v are set).");
    return {1, dims.dModel, dims.heads, dims.kvHeads > 0 ? dims.kvHeads : dims.heads, dims.dK};
}

int quarterKvHeads(int heads) {
    for (int candidate = heads / 4; candidate >= 2; --candidate) {
        if (heads % candidate == 0) return candidate;
    }
    return 0;
}

namespace {

KvSharing sharing(const AttentionShape& s, const char* name, int kvHeads) {
    const std::int64_t dm = s.dModel, h = s.heads, hkv = kvHeads, dk = s.headDim;
    KvSharing k;
    k.name = name;
    k.kvHeads = kvHeads;
    k.own = kvHeads == s.kvHeads;
    k.wq = dm * h * dk;
    k.wk = dm * hkv * dk;
    k.wv = dm * hkv * dk;
    k.wo = h * dk * dm;
    k.kvValuesPerTokenPerLayer = 2 * hkv * dk;
    return k;
}

}  // namespace

std::vector<KvSharing> kvSharingVariants(const AttentionShape& shape) {
    if (shape.heads < 1 || shape.kvHeads < 1 || shape.heads % shape.kvHeads != 0) {
        throw InputError("h_kv = " + std::to_string(shape.kvHeads) + " must divide h = " + std::to_string(shape.heads) + ".");
    }
    std::vector<KvSharing> variants{sharing(shape, "MHA", shape.heads)};
    const bool ownGrouped = shape.kvHeads > 1 && shape.kvHeads < shape.heads;
    const int grouped = ownGrouped ? shape.kvHeads : quarterKvHeads(shape.heads);
    if (grouped > 1) variants.push_back(sharing(shape, "GQA", grouped));
    if (shape.heads > 1) variants.push_back(sharing(shape, "MQA", 1));
    return variants;
}

std::int64_t kvCacheBytes(const KvSharing& sharing, int bytesPerValue, std::int64_t tokens) {
    return sharing.kvValuesPerTokenPerLayer * bytesPerValue * tokens;
}

std::int64_t kvCacheBytes(const KvSharing& sharing, const AttentionShape& shape, int bytesPerValue, std::int64_t tokens) {
    return kvCacheBytes(sharing, bytesPerValue, tokens) * shape.layers;
}

std::string groupedDigits(std::int64_t value) {
    const std::string digits = std::to_string(value < 0 ? -value : value);
    std::string grouped = value < 0 ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
        grouped += digits[i];
    }
    return grouped;
}

// [SECTION] RoPE

RowVector defaultRotaryFrequencies(int headDim, double theta) {
    TransformerConfig config;
    config.family = ModelFamily::Llama;
    config.dModel = config.headDim = headDim;
    config.heads = 1;
    config.ropeTheta = theta;
    return rotaryFrequencies(config);
}

// HF transformers' modeling_llama.py (read at commit 0022728): LlamaRotaryEmbedding builds inv_freq =
// 1 / base^(arange(0, d, 2) / d) (line 102) and emb = cat((freqs, freqs), -1) (line 141), so dimensions j and j + d/2
// share θ_j; rotate_half (lines 176–180) is cat((−x2, x1)) of the two halves, and apply_rotary_pos_emb (183–207)
// returns q·cos + rotate_half(q)·sin: pair (x_j, x_{j+d/2}) turned by p·θ_j.
Eigen::RowVectorXd rotateAt(const RowVector& row, int position, const RowVector& frequencies) {
    const Eigen::Index half = frequencies.size();
    if (row.size() != 2 * half) throw InputError("RoPE turns rows of d_k = 2 × the number of frequencies.");
    Eigen::RowVectorXd turned(row.size());
    for (Eigen::Index j = 0; j < half; ++j) {
        const double angle = static_cast<double>(position) * frequencies(j);
        const double x1 = row(j), x2 = row(j + half), c = std::cos(angle), s = std::sin(angle);
        turned(j) = x1 * c - x2 * s;         // x·cos + (−x2)·sin
        turned(j + half) = x2 * c + x1 * s;  // x·cos + x1·sin
    }
    return turned;
}

RotaryPairs rotaryPairs(const Matrix& rows, const RowVector& frequencies, int pairs) {
    const Eigen::Index half = frequencies.size();
    if (rows.cols() != 2 * half) throw InputError("RoPE turns rows of d_k = 2 × the number of frequencies.");
    const Eigen::Index shown = std::clamp<Eigen::Index>(pairs, 0, half), length = rows.rows();
    RotaryPairs p;
    p.angle.resize(length, shown);
    p.beforeX.resize(length, shown);
    p.beforeY.resize(length, shown);
    p.afterX.resize(length, shown);
    p.afterY.resize(length, shown);
    p.frequencies = frequencies.head(shown);
    for (Eigen::Index pos = 0; pos < length; ++pos) {
        const Eigen::RowVectorXd turned = rotateAt(rows.row(pos), static_cast<int>(pos), frequencies);
        for (Eigen::Index j = 0; j < shown; ++j) {
            p.angle(pos, j) = static_cast<double>(pos) * frequencies(j);
            p.beforeX(pos, j) = rows(pos, j);
            p.beforeY(pos, j) = rows(pos, j + half);
            p.afterX(pos, j) = turned(j);
            p.afterY(pos, j) = turned(j + half);
        }
    }
    return p;
}

RotaryPairs rotaryPairsOfOneRow(const RowVector& row, const RowVector& frequencies, int positions, int pairs) {
    return rotaryPairs(row.replicate(std::max(positions, 0), 1), frequencies, pairs);
}

RelativeScores relativeScores(const RowVector& q, const RowVector& k, const RowVector& frequencies, int maxOffset, int maxShift) {
    const auto score = [&](int m, int n) { return rotateAt(q, m, frequencies).dot(rotateAt(k, n, frequencies)); };
    RelativeScores r;
    r.unrotatedScore = q.cast<double>().dot(k.cast<double>());
    for (int offset = 0; offset <= maxOffset; ++offset) {
        r.offsets.push_back(offset);
        r.score.push_back(score(offset, 0));
        r.shiftedScore.push_back(score(offset + maxShift, maxShift));
        for (int shift = 1; shift <= maxShift; ++shift) {
            r.largestShiftDifference = std::max(r.largestShiftDifference, std::abs(score(offset + shift, shift) - r.score.back()));
        }
    }
    return r;
}

RowVector rotaryFrequenciesOf(const ModelRun& run) {
    if (!run.spec.trainedModel() || run.spec.trainedModel()->config().traits().positions != PositionKind::Rotary) return {};
    return rotaryFrequencies(run.spec.trainedModel()->config());
}

std::optional<RotaryPairs> rotaryPairsOfRun(const ModelRun& run, int batch, int head, bool keys, int pairs) {
    const Trace& t = run.trace;
    const TensorId before = keys ? TensorId::KHeadsBeforeRope : TensorId::QHeadsBeforeRope;
    const RowVector frequencies = rotaryFrequenciesOf(run);
    if (!t.has(before) || frequencies.size() == 0) return std::nullopt;
    const int slice = keys ? keyValueHead(t.dims, head) : head;
    const int length = (keys ? t.keyLengths : t.queryLengths)[static_cast<std::size_t>(batch)];
    const Matrix rows = t[before].slice(batch, slice).topRows(length);
    return rotaryPairs(rows, frequencies, pairs);
}

}  // namespace attnviz::core
