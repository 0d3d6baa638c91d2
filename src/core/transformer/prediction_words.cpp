// prediction_words.cpp — see prediction_words.h.
#include "core/transformer/prediction_words.h"

#include "core/decoder_lessons.h"
#include "core/transformer/prediction.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

namespace attnviz::core {
namespace {

// A space as "␣", a newline as "↵", a tab as "⇥", any other control character as its byte in hex, as the token
// labels write half a character (byte-level BPE's "Ē" is the byte 0x12: "<12>"), so no label is blank.
std::string readable(const std::string& text) {
    std::string shown;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == ' ') shown += "\xe2\x90\xa3";
        else if (c == '\n') shown += "\xe2\x86\xb5";
        else if (c == '\t') shown += "\xe2\x87\xa5";
        else if (byte < 0x20 || byte == 0x7f) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "<%02X>", byte);
            shown += hex;
        } else shown += c;
    }
    return shown;
}

}  // namespace

std::string choiceLabel(const Tokenizer& tokenizer, int id) {
    const std::string piece = tokenizer.pieceOf(id);
    if (piece.empty()) return "id " + std::to_string(id) + " (no piece)";
    const std::string text = pieceText(piece);
    return readable(text.empty() ? piece : text);
}

std::string percentText(float probability) {
    char text[24];
    const double percent = 100.0 * probability;
    if (percent >= 0.1 || percent == 0.0) std::snprintf(text, sizeof text, "%.1f%%", percent);
    else std::snprintf(text, sizeof text, "%.2g%%", percent);
    return text;
}

int firstMaskPosition(const Tokenizer& tokenizer, const std::vector<int>& ids) {
    for (std::size_t p = 0; p < ids.size(); ++p) {
        if (tokenizer.pieceOf(ids[p]) == "[MASK]") return static_cast<int>(p);
    }
    return -1;
}

std::vector<MaskableWord> maskableWords(std::string_view sentence) {
    std::vector<MaskableWord> words;
    std::size_t start = sentence.find_first_not_of(' ');
    while (start != std::string_view::npos) {
        const std::size_t end = std::min(sentence.find(' ', start), sentence.size());
        std::size_t letters = end;
        while (letters > start && std::ispunct(static_cast<unsigned char>(sentence[letters - 1])) != 0) --letters;
        if (letters > start) words.push_back({start, letters - start});
        start = sentence.find_first_not_of(' ', end);
    }
    return words;
}

int lastContentWord(std::string_view sentence) {
    static const std::set<std::string, std::less<>> kFunctionWords = {
        "a", "an", "the", "it", "is", "was", "were", "be", "been", "are", "am", "too", "very", "so", "and", "or", "but", "of",
        "to", "in", "on", "at", "by", "for", "with", "from", "as", "because", "that", "this", "he", "she", "they", "we", "i",
        "you", "his", "her", "its", "their", "not", "do", "did", "does", "have", "has", "had", "there", "then", "than"};
    const std::vector<MaskableWord> words = maskableWords(sentence);
    for (int i = static_cast<int>(words.size()) - 1; i >= 0; --i) {
        std::string word(sentence.substr(words[static_cast<std::size_t>(i)].start, words[static_cast<std::size_t>(i)].length));
        std::transform(word.begin(), word.end(), word.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (word != "[mask]" && !kFunctionWords.contains(word)) return i;
    }
    return -1;
}

std::string withMask(std::string_view sentence, MaskableWord word) {
    return std::string(sentence.substr(0, word.start)) + "[MASK]" + std::string(sentence.substr(word.start + word.length));
}

std::string predictionSource(const TrainedModel& model) {
    const TransformerConfig& config = model.transformer.config;
    const std::string vocabulary = groupedDigits(config.vocabSize) + "-piece vocabulary";
    if (predictionKind(model.transformer) == PredictionKind::MaskedWord) {
        return "BERT learns to fill a blanked-out word: its masked-word head turns the last layer's row at [MASK] (1 × d_model) "
               "into one logit per piece of its " + vocabulary + ", and softmax at temperature T turns them into the bars.";
    }
    const bool tied = config.traits().lmHeadIsTokenTable || config.tiedEmbeddings;
    return "The last token's row of the last layer (1 × d_model, after the final norm) times the LM head (" +
           std::string(tied ? "the token embedding table E, transposed: tied weights" : "lm_head, d_model × vocab") +
           ") gives one logit per piece of the " + vocabulary + "; softmax(logits / T) gives the bars (T < 1 sharpens them, "
           "T > 1 flattens them).";
}

std::string seededPredictsNothing(std::string_view howToOpen) {
    return "The seeded layer is one attention layer with random weights and no vocabulary to score, so it predicts no "
           "token; open a trained model (" + std::string(howToOpen) + ") to see what one predicts.";
}

}  // namespace attnviz::core
