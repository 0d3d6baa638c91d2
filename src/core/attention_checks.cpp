// attention_checks.cpp — what attention accepts: the configuration's sizes (resolveDimensions), the weights' shapes
// and the input batch, each refusal an InputError naming the bad value and what is allowed.
#include "core/attention.h"
#include "core/attention_internal.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

namespace attnviz::core {

namespace {

void checkSequences(const std::vector<Matrix>& sequences, int dModel, std::string_view side) {
    for (std::size_t b = 0; b < sequences.size(); ++b) {
        const Matrix& m = sequences[b];
        if (m.rows() < 1) throw InputError(std::string(side) + " sentence " + std::to_string(b + 1) + " has no tokens.");
        if (m.cols() != dModel) {
            throw InputError(std::string(side) + " input " + std::to_string(b + 1) + " has " + std::to_string(m.cols()) +
                             " columns but d_model is " + std::to_string(dModel) + ".");
        }
    }
}

}  // namespace

namespace attention_detail {

void checkInput(const AttentionInput& input, const AttentionConfig& config, const Dimensions& dims) {
    if (input.keyValueSide.empty()) throw InputError("The batch is empty: give at least one sentence.");
    checkSequences(input.keyValueSide, dims.dModel, "Key/value");
    if (input.isCross()) {
        if (input.querySide.size() != input.keyValueSide.size()) {
            throw InputError("Cross-attention needs one decoder sentence per encoder sentence (got " +
                             std::to_string(input.querySide.size()) + " for " +
                             std::to_string(input.keyValueSide.size()) + ").");
        }
        checkSequences(input.querySide, dims.dModel, "Query");
        if (config.mask == MaskKind::Causal || config.mask == MaskKind::Both) {
            throw InputError("A causal mask applies to self-attention; cross-attention takes mask none or padding.");
        }
    }
}

}  // namespace attention_detail

std::vector<int> validHeadCounts(int dModel) {
    std::vector<int> counts;
    for (int h = 1; h <= std::min(dModel, kMaxHeads); ++h) {
        if (dModel % h == 0) counts.push_back(h);
    }
    return counts;
}

namespace {

// Every member of an AttentionConfig but its rotary frequencies, for ==.
auto tiedScalars(const AttentionConfig& c) {
    return std::tie(c.dModel, c.heads, c.dK, c.dV, c.kvHeads, c.mask, c.slidingWindow, c.fill, c.softmax, c.scale,
                    c.comparePerHead, c.maskPaddedQueries, c.storeMapsUpTo, c.keepStageMaps, c.headsOff);
}

}  // namespace

bool operator==(const AttentionConfig& a, const AttentionConfig& b) {
    const bool sameFrequencies = a.rotaryFrequencies.size() == b.rotaryFrequencies.size() && a.rotaryFrequencies == b.rotaryFrequencies;
    return sameFrequencies && tiedScalars(a) == tiedScalars(b);
}

Dimensions resolveDimensions(const AttentionConfig& config) {
    if (config.dModel < 1 || config.dModel > kMaxDModel) {
        throw InputError("d_model must be between 1 and " + std::to_string(kMaxDModel) + " (got " +
                         std::to_string(config.dModel) + ").");
    }
    if (config.heads < 1 || config.heads > kMaxHeads) {
        throw InputError("The head count must be between 1 and " + std::to_string(kMaxHeads) + " (got " +
                         std::to_string(config.heads) + ").");
    }
    // d_k or d_v left at 0 default to d_model / h, which must then be whole.
    const bool needsDivision = config.dK <= 0 || config.dV <= 0;
    if (needsDivision && config.dModel % config.heads != 0) {
        std::string valid;
        for (int h : validHeadCounts(config.dModel)) valid += (valid.empty() ? "" : ", ") + std::to_string(h);
        throw InputError(std::to_string(config.heads) + " heads do not divide d_model = " + std::to_string(config.dModel) +
                         "; valid head counts are " + valid + ".");
    }
    if (config.dK < 0 || config.dV < 0 || config.dK > kMaxDModel || config.dV > kMaxDModel) {
        throw InputError("d_k and d_v must be between 1 and " + std::to_string(kMaxDModel) + " (or 0 for d_model / h).");
    }
    const int kvHeads = config.kvHeads > 0 ? config.kvHeads : config.heads;
    if (config.kvHeads < 0 || config.heads % kvHeads != 0) {
        throw InputError("The K/V head count must divide the " + std::to_string(config.heads) + " query heads (got " +
                         std::to_string(config.kvHeads) + ").");
    }
    if (config.slidingWindow < 0) throw InputError("The sliding window must be 0 (none) or a number of tokens.");
    Dimensions dims;
    dims.dModel = config.dModel;
    dims.heads = config.heads;
    dims.kvHeads = kvHeads;
    dims.dK = config.dK > 0 ? config.dK : std::max(1, config.dModel / config.heads);
    dims.dV = config.dV > 0 ? config.dV : std::max(1, config.dModel / config.heads);
    if (static_cast<long long>(dims.heads) * std::max(dims.dK, dims.dV) > 4LL * kMaxDModel) {
        throw InputError("h x d_k and h x d_v must be at most " + std::to_string(4 * kMaxDModel) + ".");
    }
    dims.scale = config.scale.value_or(1.0f / std::sqrt(static_cast<float>(dims.dK)));
    if (!std::isfinite(dims.scale)) throw InputError("The score scale must be a finite number.");
    if (config.rotaryFrequencies.size() > 0 && (dims.dK % 2 != 0 || config.rotaryFrequencies.size() != dims.dK / 2)) {
        throw InputError("Rotary positions need an even d_k and d_k / 2 frequencies (d_k = " + std::to_string(dims.dK) + ").");
    }
    return dims;
}

void checkWeightShapes(const Weights& weights, const Dimensions& dims) {
    const auto expect = [](std::string_view name, Eigen::Index rows, Eigen::Index cols, Eigen::Index wantRows, Eigen::Index wantCols) {
        if (rows != wantRows || cols != wantCols) {
            throw InputError(std::string(name) + " should be " + std::to_string(wantRows) + " x " + std::to_string(wantCols) +
                             " but is " + std::to_string(rows) + " x " + std::to_string(cols) + ".");
        }
    };
    const int hq = dims.heads * dims.dK, hk = dims.kvHeads * dims.dK, hv = dims.kvHeads * dims.dV;
    expect("W^Q", weights.wq.rows(), weights.wq.cols(), dims.dModel, hq);
    expect("W^K", weights.wk.rows(), weights.wk.cols(), dims.dModel, hk);
    expect("W^V", weights.wv.rows(), weights.wv.cols(), dims.dModel, hv);
    expect("W^O", weights.wo.rows(), weights.wo.cols(), dims.heads * dims.dV, dims.dModel);
    // Each bias and norm is optional (an empty vector); given, it has its width.
    const auto optional = [&](std::string_view name, const RowVector& v, Eigen::Index width) {
        if (v.size() > 0) expect(name, 1, v.size(), 1, width);
    };
    optional("b^Q", weights.bq, hq);
    optional("b^K", weights.bk, hk);
    optional("b^V", weights.bv, hv);
    optional("b^O", weights.bo, dims.dModel);
    optional("the q norm's γ", weights.qNorm, dims.dK);
    optional("the k norm's γ", weights.kNorm, dims.dK);
}

}  // namespace attnviz::core
