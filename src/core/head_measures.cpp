// head_measures.cpp — previous-token and induction scores of one attention map (see head_measures.h).
#include "core/head_measures.h"

#include "core/random.h"

#include <algorithm>
#include <unordered_map>

namespace attnviz::core {

std::vector<std::optional<int>> inductionTargets(const std::vector<int>& ids) {
    std::vector<std::optional<int>> targets(ids.size());
    std::unordered_map<int, int> latest;  // token id → its latest position so far
    for (int q = 0; q < static_cast<int>(ids.size()); ++q) {
        const auto seen = latest.find(ids[static_cast<std::size_t>(q)]);
        if (seen != latest.end() && seen->second + 1 < q) targets[static_cast<std::size_t>(q)] = seen->second + 1;
        latest[ids[static_cast<std::size_t>(q)]] = q;
    }
    return targets;
}

double previousTokenScore(const Matrix& attention) {
    const int length = static_cast<int>(attention.rows());
    if (length < 2) return 0.0;
    double sum = 0.0;
    for (int q = 1; q < length; ++q) sum += attention(q, q - 1);
    return sum / (length - 1);
}

double inductionScore(const Matrix& attention, const std::vector<int>& ids, int fromQuery) {
    const std::vector<std::optional<int>> targets = inductionTargets(ids);
    double sum = 0.0;
    int rows = 0;
    for (int q = fromQuery; q < static_cast<int>(targets.size()); ++q) {
        if (!targets[static_cast<std::size_t>(q)]) continue;
        sum += attention(q, *targets[static_cast<std::size_t>(q)]);
        ++rows;
    }
    return rows > 0 ? sum / rows : 0.0;
}

namespace {

// Everyday nouns, one BPE piece each in most vocabularies.
constexpr const char* kEverydayNouns[] = {
    "river", "lamp", "kettle", "garden", "window", "bread", "horse", "pencil", "cloud", "table", "apple", "bridge", "candle",
    "doctor", "forest", "letter", "mountain", "orange", "pocket", "rabbit", "school", "shirt", "stone", "train", "wheel",
    "basket", "bottle", "butter", "castle", "chair", "church", "coffee", "flower", "island", "kitchen", "market", "mirror",
    "money", "music", "ocean", "paper", "parent", "plate", "queen", "road", "sheep", "snow", "soldier", "spoon", "sugar",
    "teacher", "tiger", "village", "water", "winter", "wolf", "blanket", "button", "camera", "cheese"};

// Whether " word" is one piece of `tokenizer` (special tokens such as a BOS aside).
bool wholePiece(const Tokenizer& tokenizer, const std::string& word) {
    const Encoding encoding = tokenizer.encode(" " + word);
    return std::count(encoding.special.begin(), encoding.special.end(), false) == 1;
}

}  // namespace

std::string repeatedWordSentence(std::uint64_t seed, int words, const Tokenizer& tokenizer) {
    std::vector<std::string> pool;
    for (const char* noun : kEverydayNouns) {
        if (wholePiece(tokenizer, noun)) pool.emplace_back(noun);
    }
    SplitMix64 random(seed);
    std::vector<std::string> chosen;
    for (int k = 0; k < words && !pool.empty(); ++k) {
        const std::size_t at = static_cast<std::size_t>(random.next() % pool.size());
        chosen.push_back(pool[at]);
        pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(at));
    }
    std::string half;
    for (const std::string& word : chosen) half += (half.empty() ? "" : " ") + word;
    return half + " " + half;
}

CopyAccuracy copyAccuracy(const std::vector<int>& ids, const std::vector<int>& predicted) {
    const std::vector<std::optional<int>> targets = inductionTargets(ids);
    CopyAccuracy accuracy;
    int newRight = 0, repeatedRight = 0;
    for (std::size_t q = 1; q + 1 < ids.size() && q < predicted.size(); ++q) {
        const bool right = predicted[q] == ids[q + 1];
        if (targets[q]) {
            ++accuracy.repeatedRows;
            repeatedRight += right;
        } else {
            ++accuracy.newRows;
            newRight += right;
        }
    }
    accuracy.newTokens = accuracy.newRows > 0 ? static_cast<double>(newRight) / accuracy.newRows : 0.0;
    accuracy.repeatedTokens = accuracy.repeatedRows > 0 ? static_cast<double>(repeatedRight) / accuracy.repeatedRows : 0.0;
    return accuracy;
}

}  // namespace attnviz::core
