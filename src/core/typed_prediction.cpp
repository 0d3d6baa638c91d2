// typed_prediction.cpp — a typed word ranked by the prediction the question asks about (see typed_prediction.h): its
// pieces are what the tokenizer adds when the word follows the sentence (or stands alone, for [MASK]), its rank and
// probability those of its first piece in softmax(logits) over the whole vocabulary.
#include "core/typed_prediction.h"

#include "core/decoder_lessons.h"
#include "core/display_text.h"
#include "core/input_error.h"
#include "core/transformer/prediction.h"
#include "core/transformer/prediction_words.h"

#include <algorithm>
#include <cmath>

namespace attnviz::core {
namespace {

std::string quoted(const std::string& text) { return "\xe2\x80\x9c" + text + "\xe2\x80\x9d"; }

std::string_view trimmed(std::string_view word) {
    const std::size_t start = word.find_first_not_of(" \t\n\r");
    if (start == std::string_view::npos) return {};
    return word.substr(start, word.find_last_not_of(" \t\n\r") - start + 1);
}

// The pieces `word` adds to `context`'s encoding: the encoding of context + word without the tokens it shares with
// the context's at the start (the sentence, a decoder's <|begin_of_text|>) and at the end (BERT's [SEP]).
Encoding addedPieces(const Tokenizer& tokenizer, const std::string& context, const std::string& withWord) {
    const Encoding before = tokenizer.encode(context), after = tokenizer.encode(withWord);
    std::size_t head = 0;
    while (head < before.ids.size() && head < after.ids.size() && before.ids[head] == after.ids[head]) ++head;
    std::size_t tail = 0;
    while (tail < before.ids.size() - head && tail < after.ids.size() - head &&
           before.ids[before.ids.size() - 1 - tail] == after.ids[after.ids.size() - 1 - tail]) {
        ++tail;
    }
    Encoding added;
    for (std::size_t i = head; i < after.ids.size() - tail; ++i) appendToken(added, after.ids[i], after.pieces[i], after.labels[i], after.special[i]);
    return added;
}

}  // namespace

int predictionPositionOf(const ModelRun& run, int batch) {
    const TrainedModel* model = run.spec.trainedModel();
    if (model == nullptr || !run.modelPass) return -1;
    const std::vector<int>& ids = run.tokenIds.at(static_cast<std::size_t>(batch));
    switch (predictionKind(model->transformer)) {
        case PredictionKind::NextToken: return static_cast<int>(ids.size()) - 1;
        case PredictionKind::MaskedWord: return firstMaskPosition(*model->tokenizer, ids);
        case PredictionKind::None: return -1;
    }
    return -1;
}

std::optional<TypedWordRank> rankTypedWord(const ModelRun& run, int batch, std::string_view typed) {
    const std::string_view word = trimmed(typed);
    const int position = predictionPositionOf(run, batch);
    if (word.empty() || position < 0) return std::nullopt;
    if (word.size() > static_cast<std::size_t>(kMaxTypedWord) * 4) throw InputError("Type one word (at most " + std::to_string(kMaxTypedWord) + " characters).");
    const TrainedModel& model = *run.spec.trainedModel();
    const bool decoder = predictionKind(model.transformer) == PredictionKind::NextToken;
    const std::string sentence = decoder ? std::string(trimmed(run.spec.sentences.at(static_cast<std::size_t>(batch)))) : std::string();
    const Encoding pieces = addedPieces(*model.tokenizer, sentence, decoder ? sentence + " " + std::string(word) : std::string(word));
    if (pieces.ids.empty()) return std::nullopt;
    const RowVector logits = predictionLogits(model.transformer, *run.modelPass, batch, position);
    const int first = pieces.ids.front();
    if (first < 0 || first >= logits.size()) return std::nullopt;
    // softmax in double over the whole vocabulary, as topTokens computes it; rank in topTokens' order.
    const double largest = static_cast<double>(logits.maxCoeff());
    double total = 0.0;
    int ahead = 0;
    for (Eigen::Index v = 0; v < logits.size(); ++v) {
        total += std::exp(static_cast<double>(logits(v)) - largest);
        if (logits(v) > logits(first) || (logits(v) == logits(first) && v < first)) ++ahead;
    }
    TypedWordRank rank;
    rank.word = std::string(word);
    for (std::size_t i = 0; i < pieces.ids.size(); ++i) rank.pieces.push_back(labelText(choiceLabel(*model.tokenizer, pieces.ids[i])));
    rank.rank = ahead + 1;
    rank.vocabulary = static_cast<int>(logits.size());
    rank.probability = static_cast<float>(std::exp(static_cast<double>(logits(first)) - largest) / total);
    return rank;
}

std::string typedGapSentence(const Question& question, const TypedWordRank& typed) {
    const QuestionChoice& truth = question.choices.at(static_cast<std::size_t>(question.truth));
    const std::string pieces = typed.pieces.size() > 1
                                   ? " (" + std::to_string(typed.pieces.size()) + " pieces, ranked by the first, " + quoted(typed.pieces.front()) + ")"
                                   : "";
    const std::string ranked = "the model ranks it " + groupedDigits(typed.rank) + " of " + groupedDigits(typed.vocabulary) + " (probability " +
                               percentText(typed.probability) + ")";
    if (typed.top()) return "Right: you typed " + quoted(typed.word) + pieces + ", and " + ranked + ".";
    const std::string put = truth.value ? percentText(*truth.value) : std::string("the most");
    return "You typed " + quoted(typed.word) + pieces + ": " + ranked + "; it put " + put + " on " + quoted(truth.text) + ".";
}

}  // namespace attnviz::core
