// head_measures.cpp — what a head does, as numbers: the copy view's scores and head_detector's roles (see head_measures.h).
#include "core/head_measures.h"

#include "core/random.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

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

// [SECTION] head roles

std::string_view headRoleKey(HeadRole role) {
    switch (role) {
        case HeadRole::PreviousToken: return "previous_token";
        case HeadRole::DuplicateToken: return "duplicate_token";
        case HeadRole::Induction: return "induction";
        case HeadRole::FirstToken: return "first_token";
        case HeadRole::Self: return "self";
    }
    return "";
}

bool measuredOnRepeatedTokens(HeadRole role) { return role == HeadRole::DuplicateToken || role == HeadRole::Induction; }

Matrix detectionPattern(HeadRole role, const std::vector<int>& ids) {
    const int length = static_cast<int>(ids.size());
    Matrix pattern = Matrix::Zero(length, length);
    const auto sameToken = [&](int q, int k) { return ids[static_cast<std::size_t>(q)] == ids[static_cast<std::size_t>(k)]; };
    for (int q = 0; q < length; ++q) {
        for (int k = 0; k <= q; ++k) {  // lower triangular, as every detector pattern
            bool expected = false;
            switch (role) {
                case HeadRole::PreviousToken: expected = k == q - 1; break;
                case HeadRole::DuplicateToken: expected = k < q && sameToken(q, k); break;
                case HeadRole::Induction: expected = k >= 1 && k - 1 < q && sameToken(q, k - 1); break;  // duplicate, shifted right
                case HeadRole::FirstToken: expected = k == 0; break;
                case HeadRole::Self: expected = k == q; break;
            }
            pattern(q, k) = expected ? 1.0f : 0.0f;
        }
    }
    return pattern;
}

double detectorScore(const Matrix& attention, const Matrix& pattern) {
    const double total = attention.cast<double>().sum();
    return total != 0.0 ? attention.cast<double>().cwiseProduct(pattern.cast<double>()).sum() / total : 0.0;
}

std::vector<int> repeatedRandomTokens(const Tokenizer& tokenizer, int vocab, int half, std::uint64_t seed) {
    const Encoding framing = tokenizer.encode("a");
    std::vector<int> before, after;
    std::unordered_set<int> taken;  // special tokens and ids already drawn
    bool text = false;
    for (std::size_t i = 0; i < framing.ids.size(); ++i) {
        if (!framing.special[i]) {
            text = true;
            continue;
        }
        (text ? after : before).push_back(framing.ids[i]);
        taken.insert(framing.ids[i]);
    }
    SplitMix64 random(seed);
    std::vector<int> drawn;
    while (static_cast<int>(drawn.size()) < half && static_cast<int>(taken.size()) < vocab) {
        const int id = static_cast<int>(random.next() % static_cast<std::uint64_t>(vocab));
        if (taken.insert(id).second) drawn.push_back(id);
    }
    std::vector<int> sequence = before;
    for (int copy = 0; copy < 2; ++copy) sequence.insert(sequence.end(), drawn.begin(), drawn.end());
    sequence.insert(sequence.end(), after.begin(), after.end());
    return sequence;
}

namespace {

// Every layer × head of one sentence's attention (n_layers × b × h × l × l, its first ids.size() tokens) scored
// against one role's pattern: n_layers × h.
Matrix scoreEveryHead(const Tensor& attention, int sentence, const std::vector<int>& ids, HeadRole role) {
    const int layers = attention.dim(0), batch = attention.dim(1), heads = attention.dim(2), length = static_cast<int>(ids.size());
    const Matrix pattern = detectionPattern(role, ids);
    Matrix scores(layers, heads);
    for (int layer = 0; layer < layers; ++layer) {
        for (int head = 0; head < heads; ++head) {
            const Matrix map = attention.slice((layer * batch + sentence) * heads + head).topLeftCorner(length, length);
            scores(layer, head) = static_cast<float>(detectorScore(map, pattern));
        }
    }
    return scores;
}

}  // namespace

HeadRoles headRoles(const TransformerModel& model, const Tensor& attention, int sentence, const std::vector<int>& ids,
                    const std::vector<int>& repeated) {
    AttentionConfig config = modelAttention(model);
    config.keepStageMaps = false;
    HeadRoles roles;
    roles.repeated = repeated;
    roles.repeatedAttention = runTransformer(model, {repeated}, 0, config, {.allAttentionWeights = true, .steppedTrace = false}).attentionWeights;
    for (HeadRole role : kHeadRoles) {
        const bool onRepeated = measuredOnRepeatedTokens(role);
        roles.scores[static_cast<std::size_t>(role)] =
            onRepeated ? scoreEveryHead(roles.repeatedAttention, 0, repeated, role) : scoreEveryHead(attention, sentence, ids, role);
    }
    return roles;
}

HeadRoles headRolesOnRepeats(const TransformerModel& model, const Tokenizer& tokenizer, const Tensor& attention, int sentence,
                             const std::vector<int>& ids) {
    const TransformerConfig& c = model.config;
    const int half = std::max(1, std::min(kRepeatedTokenCount, (c.maxPositions - 4) / 2));  // 4: room for any framing
    return headRoles(model, attention, sentence, ids, repeatedRandomTokens(tokenizer, c.vocabSize, half, kRepeatedTokenSeed));
}

HeadRole strongestRole(const HeadRoles& roles, int layer, int head) {
    HeadRole strongest = kHeadRoles.front();
    for (HeadRole role : kHeadRoles) {
        if (roles.scores[static_cast<std::size_t>(role)](layer, head) > roles.scores[static_cast<std::size_t>(strongest)](layer, head)) strongest = role;
    }
    return strongest;
}

}  // namespace attnviz::core
