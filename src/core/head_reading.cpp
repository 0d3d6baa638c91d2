// head_reading.cpp — what a named head does on this sentence, as its numbers show. See head_reading.h.
#include "core/head_reading.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace attnviz::core {
namespace {

// One key of a row: a special token or a word, its tokens [first, first + count).
struct Key {
    std::string text;
    int first = 0;
    int count = 1;
    bool isWord = false;  // a word of the text with a letter or digit (not [SEP], not ".")
};

std::vector<Key> keysOf(const Encoding& encoding, const std::vector<SentenceWord>& words) {
    std::vector<Key> keys;
    for (std::size_t i = 0; i < encoding.labels.size(); ++i) {
        if (encoding.special[i]) keys.push_back({encoding.labels[i], static_cast<int>(i), 1, false});
    }
    for (const SentenceWord& word : words) {
        const bool alphanumeric = std::any_of(word.text.begin(), word.text.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || (c & 0x80); });
        keys.push_back({word.text, word.first, word.count, alphanumeric});
    }
    return keys;
}

float weightOn(const std::vector<float>& row, const Key& key) {
    float sum = 0.0f;
    for (int p = key.first; p < key.first + key.count && p < static_cast<int>(row.size()); ++p) sum += row[static_cast<std::size_t>(p)];
    return sum;
}

// The keys of `row`, heaviest first (ties in sentence order), with their weights.
std::vector<std::pair<Key, float>> heaviest(const std::vector<Key>& keys, const std::vector<float>& row) {
    std::vector<std::pair<Key, float>> ranked;
    for (const Key& key : keys) ranked.emplace_back(key, weightOn(row, key));
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return ranked;
}

// The text of the word or special token at position `position` ("it", "[SEP]").
std::string textAt(const std::vector<Key>& keys, int position) {
    for (const Key& key : keys) {
        if (position >= key.first && position < key.first + key.count) return key.text;
    }
    return "?";
}

// "it → trophy 0.58, suitcase 0.31": the row's two heaviest keys.
std::string weightsLine(const std::vector<Key>& keys, const std::vector<float>& row, int position) {
    const auto ranked = heaviest(keys, row);
    std::vector<WordWeight> top;
    for (std::size_t i = 0; i < ranked.size() && i < 2; ++i) top.push_back({ranked[i].first.text, ranked[i].second});
    return wordWeightsLine(textAt(keys, position), top);
}

float roundedToHundredths(float value) { return std::round(value * 100.0f) / 100.0f; }

// The pronoun row, read: its weights, then what they show (no word, a close call) and whether the other rows copy
// its word.
std::string pronounReading(const std::vector<Key>& keys, const AttentionRows& map, int pronoun) {
    const auto ranked = heaviest(keys, map[static_cast<std::size_t>(pronoun)]);
    std::string line = weightsLine(keys, map[static_cast<std::size_t>(pronoun)], pronoun);
    if (ranked.empty()) return line;
    const auto& [top, weight] = ranked.front();
    if (!top.isWord) return line + ": most of its weight is on no word, so the head names no noun here";
    if (ranked.size() > 1 && roundedToHundredths(weight) - roundedToHundredths(ranked[1].second) <= kCloseCall + 1e-4f) {
        line += ": a close call (the top two within 0.2)";
    }
    float others = 0.0f;
    int count = 0;
    for (int q = 0; q < static_cast<int>(map.size()); ++q) {
        if (q == pronoun) continue;
        others += weightOn(map[static_cast<std::size_t>(q)], top);
        ++count;
    }
    if (count > 0 && others / static_cast<float>(count) >= kCopiedWeight) {
        line += "; the other rows copy the same noun (" + top.text + " " + twoDecimals(others / static_cast<float>(count)) +
                " on average): the head was only taught the \"it\" row";
    }
    return line;
}

}  // namespace

int pronounRow(const std::vector<SentenceWord>& words) {
    const auto found = std::find_if(words.begin(), words.end(), [](const SentenceWord& w) { return w.text == "it" || w.text == "It"; });
    return found != words.end() ? found->first : -1;
}

std::string headReading(const Encoding& encoding, const std::vector<SentenceWord>& words, const AttentionRows& map, int row, bool coreference) {
    const std::size_t length = encoding.labels.size();
    if (map.size() != length || std::any_of(map.begin(), map.end(), [&](const auto& r) { return r.size() != length; })) return {};
    const std::vector<Key> keys = keysOf(encoding, words);
    const bool rowShown = row >= 0 && row < static_cast<int>(length);
    if (!coreference) return rowShown ? weightsLine(keys, map[static_cast<std::size_t>(row)], row) : std::string();
    const int pronoun = pronounRow(words);
    if (pronoun < 0) {
        const std::string lacks = "no \"it\" here (the only row this head was taught)";
        return rowShown ? lacks + "; " + weightsLine(keys, map[static_cast<std::size_t>(row)], row) : lacks;
    }
    if (!rowShown || row == pronoun) return pronounReading(keys, map, pronoun);
    return weightsLine(keys, map[static_cast<std::size_t>(row)], row) + " (the head was taught only the \"it\" row)";
}

}  // namespace attnviz::core
