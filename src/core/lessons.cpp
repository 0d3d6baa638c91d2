// lessons.cpp — see lessons.h. Each function reads a finished Trace; none changes it.
#include "core/lessons.h"

#include "core/random.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace attnviz::core {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// softmax of one row of masked scores (row max subtracted); zeros when the row is fully masked.
void softmaxRow(Eigen::Ref<RowVector> row, bool fullyMasked) {
    if (fullyMasked) {
        row.setZero();
        return;
    }
    row = (row.array() - row.maxCoeff()).exp().matrix();
    row /= row.sum();
}

}  // namespace

NaiveSlicing naiveSlicingAttention(const Trace& t, const Weights& w) {
    const Dimensions& d = t.dims;
    if (d.dK * d.heads != d.dModel || d.dV * d.heads != d.dModel) {
        throw InputError("Naive slicing needs d_k = d_v = d_model / h (free d_k / d_v are set).");
    }
    const int b = t.batch, h = d.heads, lq = t.queryLength, lk = t.keyLength, dk = d.dK;
    const Tensor& queryInput = t.cross ? t[TensorId::XQuery] : t[TensorId::X];
    NaiveSlicing result{Tensor({b, h, lq, lk}), Tensor({b, lq, d.dModel}), 0.0f};
    Tensor concat({b, lq, d.dModel});
    const Tensor& mask = t[TensorId::Mask];
    const float fill = t.fill == MaskFill::MinusInfinity ? -std::numeric_limits<float>::infinity() : -1e9f;
    for (int batch = 0; batch < b; ++batch) {
        for (int i = 0; i < h; ++i) {
            const int first = i * dk;  // head i's slice of X and its d_k × d_k block of W_i
            const Matrix q = queryInput.slice(batch).middleCols(first, dk) * w.wq.block(first, first, dk, dk);
            const Matrix k = t[TensorId::X].slice(batch).middleCols(first, dk) * w.wk.block(first, first, dk, dk);
            const Matrix v = t[TensorId::X].slice(batch).middleCols(first, dk) * w.wv.block(first, first, dk, dk);
            Eigen::Map<Matrix> a(result.attentionWeights.sliceData(batch * h + i), lq, lk);
            a = (q * k.transpose()) * d.scale;
            for (int r = 0; r < lq; ++r) {
                if (!mask.empty()) {
                    const MatrixView m = mask.slice(batch, 0);
                    for (int c = 0; c < lk; ++c) {
                        if (m(m.rows() == 1 ? 0 : r, c) == 0.0f) a(r, c) = fill;
                    }
                }
                softmaxRow(a.row(r), t.fullyMaskedRows[static_cast<std::size_t>(batch) * lq + r] != 0);
            }
            Eigen::Map<Matrix>(concat.sliceData(batch), lq, d.dModel).middleCols(first, dk) = a * v;
        }
        Eigen::Map<Matrix> out(result.output.sliceData(batch), lq, d.dModel);
        out = concat.slice(batch) * w.wo;
        if (w.hasBiases()) out.rowwise() += w.bo;
        result.largestOutputDifference =
            std::max(result.largestOutputDifference, (out - t[TensorId::Output].slice(batch)).cwiseAbs().maxCoeff());
    }
    return result;
}

RowSharpness rowSharpness(const Trace& t) {
    const Tensor& a = t[TensorId::AttentionWeights];
    const int b = t.batch, h = t.dims.heads, lq = t.queryLength;
    RowSharpness result{Tensor({b, h, lq}), Tensor({b, h, lq})};
    for (int s = 0; s < a.sliceCount(); ++s) {
        const MatrixView weights = a.slice(s);
        const int batch = s / h;
        for (int r = 0; r < lq; ++r) {
            const std::size_t at = static_cast<std::size_t>(s) * lq + r;
            if (t.fullyMaskedRows[static_cast<std::size_t>(batch) * lq + r]) {
                result.entropy.data[at] = result.maxWeight.data[at] = kNaN;
                continue;
            }
            double entropy = 0.0;
            for (Eigen::Index c = 0; c < weights.cols(); ++c) {
                const double p = weights(r, c);
                if (p > 0.0) entropy -= p * std::log(p);
            }
            result.entropy.data[at] = static_cast<float>(entropy);
            result.maxWeight.data[at] = weights.row(r).maxCoeff();
        }
    }
    return result;
}

PoolingResult poolAndClassify(const Trace& t, bool firstTokenIsCls, Pooling pooling, int classes, std::uint64_t seed) {
    if (classes < 2 || classes > 16) throw InputError("The classifier needs 2 to 16 classes.");
    const int b = t.batch, lq = t.queryLength, dModel = t.dims.dModel;
    PoolingResult result;
    result.pooling = pooling;
    result.firstTokenIsCls = firstTokenIsCls;
    result.mix = Matrix::Zero(b, lq);
    for (int batch = 0; batch < b; ++batch) {
        const int length = t.queryLengths[static_cast<std::size_t>(batch)];
        if (pooling == Pooling::Cls) {
            result.mix(batch, 0) = 1.0f;
        } else {
            result.mix.row(batch).head(length).setConstant(1.0f / static_cast<float>(length));  // padding excluded
        }
    }
    result.pooled = Matrix(b, dModel);
    for (int batch = 0; batch < b; ++batch) result.pooled.row(batch) = result.mix.row(batch) * t[TensorId::Output].slice(batch);
    SplitMix64 random(streamSeed("classifier", seed));
    const float bound = std::sqrt(6.0f / static_cast<float>(dModel + classes));
    result.classifier = Matrix(dModel, classes);
    for (Eigen::Index k = 0; k < result.classifier.size(); ++k) result.classifier.data()[k] = random.uniform(-bound, bound);
    result.logits = result.pooled * result.classifier;
    return result;
}

std::vector<StageCost> stageCosts(const Trace& t) {
    const Dimensions& d = t.dims;
    const double b = t.batch, h = d.heads, lq = t.queryLength, lk = t.keyLength, dm = d.dModel, dk = d.dK, dv = d.dV;
    const double f = sizeof(float);
    const double maps = b * h * lq * lk * f;
    return {
        {StageId::Tokens, 0, b * lk * f},
        {StageId::Embed, 0, b * lk * dm * f},
        {StageId::Project, 2 * b * (lq * dm * h * dk + lk * dm * h * dk + lk * dm * h * dv), b * (lq * h * dk + lk * h * (dk + dv)) * f},
        {StageId::SplitHeads, 0, b * (lq * h * dk + lk * h * (dk + dv)) * f},
        {StageId::Scores, 2 * b * h * lq * lk * dk, maps},
        {StageId::Scale, b * h * lq * lk, maps},
        {StageId::Mask, 0, maps},
        {StageId::Softmax, 3 * b * h * lq * lk, maps},
        {StageId::WeightedSum, 2 * b * h * lq * lk * dv, b * h * lq * dv * f},
        {StageId::Concat, 0, b * lq * h * dv * f},
        {StageId::Output, 2 * b * lq * h * dv * dm, b * lq * dm * f},
    };
}

HeadCost headCost(const Trace& t) {
    const double lq = t.queryLength, lk = t.keyLength;
    HeadCost cost;
    cost.perHeadFlops = 2 * lq * lk * (t.dims.dK + t.dims.dV);
    cost.allHeadsFlops = cost.perHeadFlops * t.dims.heads;
    cost.oneWideHeadFlops = 2 * lq * lk * 2.0 * t.dims.dModel;
    return cost;
}

std::string formatFlops(double flops) {
    const char* units[] = {"FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP"};
    int unit = 0;
    while (flops >= 1000 && unit < 4) {
        flops /= 1000;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.2f %s", flops, units[unit]);
    return text;
}

std::string formatBytes(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB"};
    int unit = 0;
    while (bytes >= 1024 && unit < 3) {
        bytes /= 1024;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
    return text;
}

}  // namespace attnviz::core
