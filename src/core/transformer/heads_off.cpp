// heads_off.cpp — the heads-off list, its words, and the prediction before → after. See heads_off.h.
#include "core/transformer/heads_off.h"

#include "core/transformer/prediction.h"

#include <algorithm>
#include <cmath>

namespace attnviz::core {
namespace {

bool inLayerOrder(const HeadAblation& a, const HeadAblation& b) { return a.layer != b.layer ? a.layer < b.layer : a.head < b.head; }

}  // namespace

bool setHeadOff(std::vector<HeadAblation>& heads, int layer, int head, std::optional<HeadOffMode> mode) {
    const auto same = [&](const HeadAblation& a) { return a.layer == layer && a.head == head; };
    const auto found = std::find_if(heads.begin(), heads.end(), same);
    if (!mode) {
        if (found == heads.end()) return false;
        heads.erase(found);
        return true;
    }
    if (found != heads.end()) {
        if (found->mode == *mode) return false;
        found->mode = *mode;
        return true;
    }
    heads.push_back({layer, head, *mode});
    std::sort(heads.begin(), heads.end(), inLayerOrder);
    return true;
}

std::optional<HeadOffMode> headOffMode(const std::vector<HeadAblation>& heads, int layer, int head) {
    for (const HeadAblation& a : heads) {
        if (a.layer == layer && a.head == head) return a.mode;
    }
    return std::nullopt;
}

const char* headOffLabel(HeadOffMode mode) { return mode == HeadOffMode::Zero ? "off" : "mean"; }

namespace {

// In layer order, whatever order the list has (`dump --ablate 2.0,1.3` keeps the order typed).
std::string joined(std::vector<HeadAblation> heads, const char* zero, const char* mean) {
    std::sort(heads.begin(), heads.end(), inLayerOrder);
    std::string text;
    for (const HeadAblation& a : heads) {
        if (!text.empty()) text += ", ";
        text += std::to_string(a.layer) + "." + std::to_string(a.head) + (a.mode == HeadOffMode::Zero ? zero : mean);
    }
    return text;
}

// log Σ exp(logits) in double, shifted by the largest logit: log p(id) = logits[id] − this.
double logSumExp(const RowVector& logits) {
    const double top = static_cast<double>(logits.maxCoeff());
    double sum = 0.0;
    for (Eigen::Index i = 0; i < logits.size(); ++i) sum += std::exp(static_cast<double>(logits[i]) - top);
    return top + std::log(sum);
}

int mostLikely(const RowVector& logits) {
    Eigen::Index best = 0;
    logits.maxCoeff(&best);  // the first of equal maxima: the lower id, as topTokens orders ties
    return static_cast<int>(best);
}

}  // namespace

std::string headsOffText(const std::vector<HeadAblation>& heads) { return joined(heads, " off", " mean"); }

std::string headsOffCaption(const std::vector<HeadAblation>& heads) {
    if (heads.empty()) return {};
    return "Heads switched off: " + joined(heads, " (Z_i zeroed)", " (Z_i replaced by its mean)") +
           "; every number after them is the ablated run's.";
}

PredictionShift predictionShift(const RowVector& intactLogits, const RowVector& ablatedLogits) {
    const double intactNorm = logSumExp(intactLogits), ablatedNorm = logSumExp(ablatedLogits);
    PredictionShift shift;
    shift.beforeId = mostLikely(intactLogits);
    shift.afterId = mostLikely(ablatedLogits);
    shift.beforeLogProb = static_cast<double>(intactLogits[shift.beforeId]) - intactNorm;
    shift.afterLogProb = static_cast<double>(ablatedLogits[shift.afterId]) - ablatedNorm;
    shift.beforeIdAfter = static_cast<double>(ablatedLogits[shift.beforeId]) - ablatedNorm;
    return shift;
}

PredictionShift predictionShift(const TransformerModel& model, const TransformerPass& intact, const TransformerPass& ablated,
                                int sentence, int position) {
    return predictionShift(predictionLogits(model, intact, sentence, position), predictionLogits(model, ablated, sentence, position));
}

}  // namespace attnviz::core
