// prediction.cpp — the LM head, the masked-word head and the top k at a temperature. See prediction.h.
#include "core/transformer/prediction.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attnviz::core {

PredictionKind predictionKind(const TransformerModel& model) {
    if (model.config.family != ModelFamily::Bert) return PredictionKind::NextToken;
    return model.weights.maskedLm ? PredictionKind::MaskedWord : PredictionKind::None;
}

std::string whyNoPrediction(const TransformerModel& model) {
    if (model.config.family == ModelFamily::Bert && !model.weights.maskedLm) {
        return "This BERT folder has no masked-word head (cls.predictions.*), so it has nothing to predict words with.";
    }
    return "";
}

RowVector maskedWordLogits(const TransformerModel& model, const RowVector& lastHidden) {
    if (!model.weights.maskedLm) throw InputError(whyNoPrediction(model));
    const MaskedLmHead& head = *model.weights.maskedLm;
    const Matrix transformed = layerNorm(geluErf(lastHidden * head.transform + head.transformBias), head.norm, model.config.layerNormEps);
    return (model.weights.tokenEmbeddings * transformed.transpose()).transpose() + head.bias;
}

RowVector predictionLogits(const TransformerModel& model, const TransformerPass& pass, int sentence, int position) {
    switch (predictionKind(model)) {
        case PredictionKind::NextToken: return nextTokenLogits(model, pass, sentence, position);
        case PredictionKind::MaskedWord: break;
        case PredictionKind::None: throw InputError(whyNoPrediction(model));
    }
    const Tensor& hidden = pass.hiddenStates;
    if (sentence < 0 || sentence >= hidden.dim(1) || position < 0 || position >= hidden.dim(2)) {
        throw InputError("There is no token " + std::to_string(position) + " in sentence " + std::to_string(sentence + 1) + ".");
    }
    return maskedWordLogits(model, hidden.slice(model.config.layers * hidden.dim(1) + sentence).row(position));
}

std::vector<TokenChoice> topTokens(const RowVector& logits, int k, float temperature) {
    if (!(temperature >= kMinTemperature && temperature <= kMaxTemperature)) {
        throw InputError("The temperature must be between " + std::to_string(kMinTemperature) + " and " + std::to_string(kMaxTemperature) + ".");
    }
    if (k < 1) throw InputError("Ask for at least one token.");
    const Eigen::Index vocab = logits.size();
    const double largest = static_cast<double>(logits.maxCoeff());
    double total = 0.0;
    for (Eigen::Index v = 0; v < vocab; ++v) total += std::exp((static_cast<double>(logits(v)) - largest) / temperature);
    std::vector<int> order(static_cast<std::size_t>(vocab));
    std::iota(order.begin(), order.end(), 0);
    const auto count = std::min<std::size_t>(static_cast<std::size_t>(k), order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), order.end(),
                      [&](int a, int b) { return logits(a) > logits(b) || (logits(a) == logits(b) && a < b); });
    std::vector<TokenChoice> top;
    for (std::size_t i = 0; i < count; ++i) {
        const int id = order[i];
        const double p = std::exp((static_cast<double>(logits(id)) - largest) / temperature) / total;
        top.push_back({id, static_cast<float>(p), logits(id)});
    }
    return top;
}

}  // namespace attnviz::core
