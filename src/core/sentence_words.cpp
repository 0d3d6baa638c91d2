// sentence_words.cpp — a tokenized sentence read back as words. See sentence_words.h.
#include "core/sentence_words.h"

#include "core/display_text.h"
#include "core/unicode.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace attnviz::core {
namespace {

constexpr std::string_view kContinuation = "##";
// Marks a word's first piece carries in a label: attnviz's readable space, GPT-2's "Ġ", SentencePiece's "▁".
constexpr std::string_view kStartMarks[] = {"␣", "Ġ", "▁"};

bool startsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool isUnknownPiece(std::string_view piece) { return piece == "[UNK]" || piece == "<unk>" || piece == "<|unk|>"; }

// The label without its word-start mark ("␣cat" → "cat"), and whether it had one.
std::pair<std::string, bool> withoutStartMark(const std::string& label) {
    for (std::string_view mark : kStartMarks) {
        if (startsWith(label, mark)) return {label.substr(mark.size()), true};
    }
    return {label, false};
}

bool isAlphanumericEdge(std::string_view text, bool last) {
    if (text.empty()) return false;
    const std::vector<char32_t> characters = decodeUtf8(text);
    return isAlphanumeric(last ? characters.back() : characters.front());
}

bool isOneLetter(std::string_view text) {
    const std::vector<char32_t> characters = decodeUtf8(text);
    return characters.size() == 1 && isLetter(characters.front());
}

bool usesStartMarks(const Encoding& encoding) {
    return std::any_of(encoding.labels.begin(), encoding.labels.end(), [](const std::string& label) { return withoutStartMark(label).second; });
}


// "suitcase, trophy" (at most `shown`, then "…"), each word as drawn and echoed: a character beyond U+FFFF as its
// code point, a pasted 20,000-character word as 80 of them.
std::string listed(const std::vector<SentenceWord>& words, std::size_t shown) {
    std::string text;
    for (std::size_t i = 0; i < words.size() && i < shown; ++i) text += (i ? ", " : "") + displayText(echoed(words[i].text));  // 😀 → [U+1F600]
    return words.size() > shown ? text + ", …" : text;
}

int piecesOf(const std::vector<SentenceWord>& words) {
    return std::accumulate(words.begin(), words.end(), 0, [](int sum, const SentenceWord& w) { return sum + w.count; });
}

}  // namespace

std::vector<SentenceWord> sentenceWords(const Encoding& encoding, const std::vector<std::string>& typedWords) {
    const bool marked = usesStartMarks(encoding);
    std::vector<SentenceWord> words;
    bool open = false;  // the last token was a piece of words.back()
    std::string lastPiece;
    for (std::size_t i = 0; i < encoding.labels.size(); ++i) {
        if (encoding.special[i]) {
            open = false;
            continue;
        }
        const std::string& label = encoding.labels[i];
        std::string body = label;
        bool continues = false;
        if (startsWith(label, kContinuation) && label.size() > kContinuation.size()) {
            body = label.substr(kContinuation.size());
            continues = open;
        } else if (marked) {
            auto [stripped, hasMark] = withoutStartMark(label);
            body = stripped;
            continues = open && !hasMark && isAlphanumericEdge(lastPiece, true) && isAlphanumericEdge(body, false);
        }
        if (!continues) words.push_back({{}, static_cast<int>(i), 0, 0, false});
        SentenceWord& word = words.back();
        word.text += body;
        ++word.count;
        word.unknown = word.unknown || isUnknownPiece(encoding.pieces[i]);
        word.loneLetters += isOneLetter(body) ? 1 : 0;
        lastPiece = body;
        open = true;
    }
    for (std::size_t k = 0; k < words.size(); ++k) {
        if (words[k].count < 2) words[k].loneLetters = 0;  // a letter written alone is a word
        if (words[k].unknown && typedWords.size() == words.size()) words[k].text = typedWords[k];
    }
    return words;
}

int VocabularyFit::tokensWithoutLetterSplitting(int tokens) const { return tokens - piecesOf(lettered) + static_cast<int>(lettered.size()); }

VocabularyFit vocabularyFit(const std::vector<SentenceWord>& words) {
    VocabularyFit fit;
    fit.words = static_cast<int>(words.size());
    for (const SentenceWord& word : words) {
        fit.pieces += word.count;
        fit.loneLetterPieces += word.loneLetters;
        if (word.loneLetters > 0) fit.lettered.push_back(word);
        if (word.unknown) fit.unknown.push_back(word);
    }
    return fit;
}

std::string vocabularyNotice(const VocabularyFit& fit) {
    if (fit.fits()) return {};
    std::string notice = "Outside the vocabulary: ";
    if (!fit.lettered.empty()) {
        const int count = static_cast<int>(fit.lettered.size());
        notice += std::to_string(count) + " of " + counted(fit.words, "word", "words") + (count == 1 ? " was" : " were") + " cut into " +
                  counted(piecesOf(fit.lettered), "piece", "pieces") + ", " + std::to_string(fit.loneLetterPieces) + " of them lone letters (" +
                  listed(fit.lettered, 6) + ")";
    }
    if (!fit.unknown.empty()) {
        const int count = static_cast<int>(fit.unknown.size());
        notice += std::string(fit.lettered.empty() ? "" : "; ") + counted(count, "word", "words") + " became [UNK] (" + listed(fit.unknown, 6) + ")";
    }
    notice += ". Such a word has no meaning of its own for the model.";
    return notice;
}

std::string overLimitAdvice(const VocabularyFit& fit, int tokens, int limit, bool positions, bool whole) {
    std::string advice = std::string(whole ? "Its " : "Its first ") + counted(fit.words, "word", "words") + " became " +
                         counted(fit.pieces, "piece", "pieces");
    if (!fit.lettered.empty()) {
        const int asWholeWords = fit.tokensWithoutLetterSplitting(tokens);
        const bool letterSplitting = whole && asWholeWords <= limit;
        advice += std::string(letterSplitting ? ": letter-splitting caused it, " : ", ") +
                  counted(static_cast<int>(fit.lettered.size()), "word", "words") + " outside the vocabulary became " +
                  counted(piecesOf(fit.lettered), "piece", "pieces") + ", " + std::to_string(fit.loneLetterPieces) + " of them lone letters (" +
                  listed(fit.lettered, 4) + ")";
        if (letterSplitting) advice += "; as whole words the sentence would have " + std::to_string(asWholeWords) + " tokens";
    }
    std::vector<std::string> ways{"shorten the sentence"};
    if (!positions) ways.emplace_back("raise the token limit");
    if (!fit.lettered.empty()) ways.emplace_back("open a model whose vocabulary knows these words (File ▸ Open model…)");
    advice += ". Way out: ";
    for (std::size_t i = 0; i < ways.size(); ++i) advice += (i == 0 ? "" : i + 1 == ways.size() ? " or " : ", ") + ways[i];
    return advice + ".";
}

std::vector<WordWeight> heaviestWords(const Encoding& encoding, const std::vector<SentenceWord>& words, const std::vector<float>& row,
                                      int count) {
    std::vector<WordWeight> weights;
    for (std::size_t i = 0; i < encoding.labels.size() && i < row.size(); ++i) {
        if (encoding.special[i]) weights.push_back({encoding.labels[i], row[i]});
    }
    for (const SentenceWord& word : words) {
        float sum = 0.0f;
        for (int p = word.first; p < word.first + word.count && p < static_cast<int>(row.size()); ++p) sum += row[static_cast<std::size_t>(p)];
        weights.push_back({word.text, sum});
    }
    std::stable_sort(weights.begin(), weights.end(), [](const WordWeight& a, const WordWeight& b) { return a.weight > b.weight; });
    if (static_cast<int>(weights.size()) > count) weights.resize(static_cast<std::size_t>(std::max(count, 0)));
    return weights;
}

std::string twoDecimals(float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", static_cast<double>(value));
    return text;
}

std::string wordWeightsLine(const std::string& query, const std::vector<WordWeight>& keys) {
    std::string line = query + " →";
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (i > 0 && twoDecimals(keys[i].weight) == "0.00") break;  // a runner-up of nothing says nothing
        line += (i ? ", " : " ") + keys[i].word + " " + twoDecimals(keys[i].weight);
    }
    return line;
}

}  // namespace attnviz::core
