// logit_lens.cpp — each layer's residual stream through the final norm and the prediction head. See logit_lens.h.
#include "core/transformer/logit_lens.h"

#include "core/transformer/prediction.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace attnviz::core {
namespace {

// Row `position` of hidden state `index` (0 … n_layers) of sentence `sentence`, ready for the head: through the final
// norm unless it is the last (already normed) or the model has none (BERT).
RowVector lensInput(const TransformerModel& model, const TransformerPass& pass, int index, int sentence, int position) {
    const Tensor& hidden = pass.hiddenStates;  // (n + 1) × b × l × d_model
    const RowVector row = hidden.slice(index * hidden.dim(1) + sentence).row(position);
    const TransformerConfig& c = model.config;
    if (index == c.layers || !c.traits().decoder) return row;
    const LayerNormWeights& final = model.weights.finalLayerNorm;
    return c.traits().norm == NormKind::RmsNorm ? RowVector(rmsNorm(row, final.gamma, c.layerNormEps)) : RowVector(layerNorm(row, final, c.layerNormEps));
}

// log softmax of one row of logits, in double: 1 × vocab.
Eigen::RowVectorXd logSoftmax(const RowVector& logits) {
    const Eigen::RowVectorXd x = logits.cast<double>();
    const double largest = x.maxCoeff();
    return (x.array() - (largest + std::log((x.array() - largest).exp().sum()))).matrix();
}

// Runs `each(index, position, log-probabilities)` over every lens row of the sentence, the last layer's first (its
// rows are the model's final prediction, which the others are compared with). Each layer's rows go through the head
// together: one matrix product per layer.
template <typename Each>
void forEachLensRow(const TransformerModel& model, const TransformerPass& pass, int sentence, int length, Each each) {
    if (predictionKind(model) == PredictionKind::None) throw InputError(whyNoPrediction(model));
    const int last = model.config.layers;
    Matrix inputs(length, model.config.dModel);  // length × d_model
    for (int step = 0; step <= last; ++step) {
        const int index = step == 0 ? last : step - 1;
        for (int position = 0; position < length; ++position) inputs.row(position) = lensInput(model, pass, index, sentence, position);
        const Matrix logits = predictionHeadLogits(model, inputs);  // length × vocab
        for (int position = 0; position < length; ++position) each(index, position, logSoftmax(logits.row(position)));
    }
}

// The most probable id of a row of log-probabilities; ties: the lower id.
int mostProbable(const Eigen::RowVectorXd& logProbs) {
    Eigen::Index best = 0;
    logProbs.maxCoeff(&best);  // Eigen keeps the first of equal maxima
    return static_cast<int>(best);
}

}  // namespace

Tensor logitLensLogProbs(const TransformerModel& model, const TransformerPass& pass, int sentence, int length) {
    const int vocab = model.config.vocabSize;
    Tensor lens({model.config.layers + 1, length, vocab});
    forEachLensRow(model, pass, sentence, length, [&](int index, int position, const Eigen::RowVectorXd& logProbs) {
        Eigen::Map<RowVector>(lens.sliceData(index) + static_cast<std::ptrdiff_t>(position) * vocab, vocab) = logProbs.cast<float>();
    });
    return lens;
}

LensTop logitLensTop(const TransformerModel& model, const TransformerPass& pass, int sentence, int length, int k) {
    const int vocab = model.config.vocabSize;
    if (k < 1 || k > vocab) throw InputError("The lens lists 1 to " + std::to_string(vocab) + " tokens per row (got " + std::to_string(k) + ").");
    LensTop top{Tensor({model.config.layers + 1, length, k}), Tensor({model.config.layers + 1, length, k})};
    std::vector<int> order(static_cast<std::size_t>(vocab));
    forEachLensRow(model, pass, sentence, length, [&](int index, int position, const Eigen::RowVectorXd& logProbs) {
        std::iota(order.begin(), order.end(), 0);
        std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int a, int b) {
            return logProbs(a) > logProbs(b) || (logProbs(a) == logProbs(b) && a < b);
        });
        const std::size_t at = (static_cast<std::size_t>(index) * length + position) * k;
        for (int i = 0; i < k; ++i) {
            top.ids.data[at + i] = static_cast<float>(order[static_cast<std::size_t>(i)]);
            top.logProbs.data[at + i] = static_cast<float>(logProbs(order[static_cast<std::size_t>(i)]));
        }
    });
    return top;
}

LensAgreement logitLensAgreement(const TransformerModel& model, const TransformerPass& pass, int sentence, int length) {
    const int rows = model.config.layers + 1;
    LensAgreement lens{Matrix(rows, length), Matrix(rows, length)};
    std::vector<int> finalTop(static_cast<std::size_t>(length));
    forEachLensRow(model, pass, sentence, length, [&](int index, int position, const Eigen::RowVectorXd& logProbs) {
        const int top = mostProbable(logProbs);
        if (index == rows - 1) finalTop[static_cast<std::size_t>(position)] = top;  // the last layer comes first
        lens.topIds(index, position) = static_cast<float>(top);
        lens.finalLogProbs(index, position) = static_cast<float>(logProbs(finalTop[static_cast<std::size_t>(position)]));
    });
    return lens;
}

}  // namespace attnviz::core
