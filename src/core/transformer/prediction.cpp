// prediction.cpp — the LM head, the masked-word head and the top k at a temperature. See prediction.h.
#include "core/transformer/prediction.h"

#include "core/unicode.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attnviz::core {

PredictionKind predictionKind(const TransformerModel& model) {
    if (model.config.traits().decoder) return PredictionKind::NextToken;
    return model.weights.maskedLm ? PredictionKind::MaskedWord : PredictionKind::None;
}

std::string whyNoPrediction(const TransformerModel& model) {
    if (predictionKind(model) == PredictionKind::None) {
        return "This " + std::string(model.config.traits().name) + " folder has no masked-word head (cls.predictions.*), so it has nothing to predict words with.";
    }
    return "";
}

RowVector maskedWordLogits(const TransformerModel& model, const RowVector& lastHidden) {
    if (!model.weights.maskedLm) throw InputError(whyNoPrediction(model));
    return predictionHeadLogits(model, lastHidden);
}

Matrix predictionHeadLogits(const TransformerModel& model, const Matrix& hidden) {
    const PredictionKind kind = predictionKind(model);
    if (kind == PredictionKind::None) throw InputError(whyNoPrediction(model));
    if (kind == PredictionKind::NextToken) {
        const MatrixView table = (model.weights.lmHead.size() > 0 ? model.weights.lmHead : model.weights.tokenEmbeddings).view();
        Matrix logits(hidden.rows(), table.rows());  // rows × vocab = hidden · tableᵀ
        gemm(hidden, table, BLayout::Transposed, logits);
        return logits;
    }
    const MaskedLmHead& head = *model.weights.maskedLm;
    const Matrix transformed = layerNorm(geluErf((hidden * head.transform).rowwise() + head.transformBias), head.norm, model.config.layerNormEps);
    Matrix logits(hidden.rows(), model.weights.tokenEmbeddings.rows());  // rows × vocab = transformed · Eᵀ
    gemm(transformed, model.weights.tokenEmbeddings.view(), BLayout::Transposed, logits);
    return logits.rowwise() + head.bias;
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

Tensor allPredictionLogits(const TransformerModel& model, const TransformerPass& pass, const std::vector<int>& lengths) {
    const int batch = static_cast<int>(lengths.size()), length = pass.hiddenStates.dim(2), vocab = model.config.vocabSize;
    Tensor logits({batch, length, vocab});
    for (int b = 0; b < batch; ++b) {
        Eigen::Map<Matrix> rows(logits.sliceData(b), length, vocab);
        for (int p = 0; p < lengths[static_cast<std::size_t>(b)]; ++p) rows.row(p) = predictionLogits(model, pass, b, p);
    }
    return logits;
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

namespace {

// GPT-2's bytes_to_unicode, inverted: the printable bytes stand for themselves, the other 68 for U+0100 … U+0143 in
// byte order. −1 for a code point outside the alphabet.
int byteOfByteLevel(char32_t cp) {
    const auto printable = [](int b) { return (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255); };
    if (cp < 256) return printable(static_cast<int>(cp)) ? static_cast<int>(cp) : -1;
    int next = 256;
    for (int b = 0; b < 256; ++b) {
        if (printable(b)) continue;
        if (static_cast<char32_t>(next) == cp) return b;
        ++next;
    }
    return -1;
}

std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
    return text;
}

}  // namespace

std::string pieceText(const std::string& piece) {
    if (piece.size() == 6 && piece.rfind("<0x", 0) == 0 && piece.back() == '>') {  // SentencePiece's byte fallback
        const std::string byte(1, static_cast<char>(std::stoi(piece.substr(3, 2), nullptr, 16)));
        return findInvalidUtf8(byte) == std::string_view::npos ? byte : "";
    }
    if (piece.rfind("##", 0) == 0 && piece.size() > 2) return piece.substr(2);
    if (findInvalidUtf8(piece) != std::string_view::npos) return "";
    std::string bytes;
    bool byteLevel = true, beyondLatin1 = false;
    for (char32_t cp : decodeUtf8(piece)) {
        const int b = byteOfByteLevel(cp);
        byteLevel = byteLevel && b >= 0;
        beyondLatin1 = beyondLatin1 || cp >= 256;
        bytes += static_cast<char>(b);
    }
    // A byte-level piece decodes to valid UTF-8, or (with one of U+0100 … U+0143 in it) to part of a character:
    // nothing to append. Otherwise it is a SentencePiece or WordLevel piece: its own text, "▁" for a space.
    if (byteLevel && findInvalidUtf8(bytes) == std::string_view::npos) return bytes;
    if (byteLevel && beyondLatin1) return "";
    return replaceAll(piece, "\u2581", " ");
}

}  // namespace attnviz::core
