// questions.cpp — the questions ask mode poses, drawn from one run (see questions.h): one function per kind, each
// finding the truth in the run's numbers and its distractors among the run's own words and sizes, then one shared
// step that deals the choices in a seeded order.
#include "core/questions.h"

#include "core/derived_maps.h"
#include "core/display_text.h"
#include "core/names.h"
#include "core/random.h"
#include "core/transformer/prediction.h"
#include "core/transformer/prediction_words.h"
#include "core/typed_prediction.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <iterator>
#include <numeric>
#include <sstream>

namespace attnviz::core {
namespace {

// A row's largest weight must beat the next word's by this much for "which word" to have one answer.
constexpr float kClearLead = 0.01f;
// Entropies closer than this (bits) are "about the same".
constexpr double kSameEntropy = 0.01;
// A row this sure of one key with and without ÷√d_k (bits) has nothing for the scaling question to show: "about the
// same" would win by default (the bundled BERT's coreference row, 1.00 on the noun both ways).
constexpr double kOneHotEntropy = 0.05;

std::string quoted(const std::string& text) { return "\xe2\x80\x9c" + text + "\xe2\x80\x9d"; }

std::string subscriptDigits(int number) {
    static const char* const kDigits[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
    std::string text;
    for (char c : std::to_string(number)) text += kDigits[c - '0'];
    return text;
}

// "a", "a and b", "a, b and c".
std::string joinedParts(const std::vector<std::string>& parts) {
    std::string text;
    for (std::size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
    return text;
}

std::string times(int rows, int cols) { return std::to_string(rows) + " × " + std::to_string(cols); }

// A uniform index in [0, n) from the seed's stream (n is small: the modulo's bias is below 2⁻⁵⁹).
int below(SplitMix64& random, int n) { return static_cast<int>(random.next() % static_cast<std::uint64_t>(n)); }

template <typename T>
void shuffle(std::vector<T>& items, SplitMix64& random) {
    for (int i = static_cast<int>(items.size()) - 1; i > 0; --i) std::swap(items[static_cast<std::size_t>(i)], items[static_cast<std::size_t>(below(random, i + 1))]);
}

// The truth's place for question `seed`: each run of `count` consecutive seeds draws the `count` places from a bag
// shuffled for that run, so over a lecture's questions every place holds the truth equally often and no place can
// be learnt as the usual one (independent draws gave one place 11 of 100 times and another 35).
int truthPlace(std::uint64_t seed, int count) {
    const std::uint64_t n = static_cast<std::uint64_t>(count);
    SplitMix64 bag(streamSeed("the truth's places", seed / n));
    std::vector<int> places(static_cast<std::size_t>(count));
    std::iota(places.begin(), places.end(), 0);
    shuffle(places, bag);
    return places[static_cast<std::size_t>(seed % n)];
}

// The truth and `distractors` (already distinct from it and from each other as text) dealt into `count` places: the
// first count − 1 distractors in the order given, the truth at truthPlace. nullopt when there are too few.
std::optional<Question> deal(Question question, QuestionChoice truth, std::vector<QuestionChoice> distractors, int count, std::uint64_t seed) {
    if (static_cast<int>(distractors.size()) < count - 1) return std::nullopt;
    distractors.erase(distractors.begin() + (count - 1), distractors.end());
    question.truth = truthPlace(seed, count);
    question.choices = std::move(distractors);
    question.choices.insert(question.choices.begin() + question.truth, std::move(truth));
    return question;
}

// The seed's stream for one kind, so that two kinds asked with one seed draw independently.
SplitMix64 streamFor(QuestionKind kind, std::uint64_t seed) { return SplitMix64(streamSeed("question", seed) + static_cast<std::uint64_t>(kind) * 0x9E3779B97F4A7C15ull); }

std::vector<std::string> keyLabels(const ModelRun& run, int batch) {
    std::vector<std::string> labels;
    const int length = run.trace.keyLengths.at(static_cast<std::size_t>(batch));
    for (int j = 0; j < length; ++j) labels.push_back(labelText(run.tokens[static_cast<std::size_t>(batch)][static_cast<std::size_t>(j)]));
    return labels;
}

int queryRowOf(const ModelRun& run, const QuestionSetting& setting) {
    const int rows = run.trace.queryLengths.at(static_cast<std::size_t>(setting.batch));
    return std::clamp(setting.focusRow.value_or(followedQueryRow(run, setting.batch, setting.head)), 0, rows - 1);
}

std::string queryLabel(const ModelRun& run, int batch, int row) {
    return labelText(run.queryTokens[static_cast<std::size_t>(batch)][static_cast<std::size_t>(row)]);
}

// Row `row` of one (batch, head) map, its unpadded keys only.
std::vector<float> mapRow(const ModelRun& run, TensorId id, const QuestionSetting& setting, int row) {
    const MapSlice slice = mapSlice(run.trace, id, setting.batch, setting.head);
    const int keys = run.trace.keyLengths.at(static_cast<std::size_t>(setting.batch));
    const float* begin = slice.data + static_cast<std::ptrdiff_t>(row) * slice.cols;
    return {begin, begin + keys};
}

bool validSetting(const ModelRun& run, const QuestionSetting& setting) {
    return setting.batch >= 0 && setting.batch < run.trace.batch && setting.head >= 0 && setting.head < run.trace.dims.heads;
}

// [SECTION] Words as choices

using ValuedWord = std::pair<std::string, float>;

// The words at the keys not left out, each once and worth its largest value (a word at several keys is one
// choice), largest first; nullopt unless there are four and the largest leads the next by kClearLead (one answer).
std::optional<std::vector<ValuedWord>> wordsWithClearLead(const std::vector<std::string>& labels, const std::vector<float>& values,
                                                          const std::vector<bool>& leftOut) {
    std::map<std::string, float> best;
    for (std::size_t j = 0; j < labels.size(); ++j) {
        if (leftOut[j]) continue;
        const auto [word, inserted] = best.try_emplace(labels[j], values[j]);
        if (!inserted) word->second = std::max(word->second, values[j]);
    }
    std::vector<ValuedWord> words(best.begin(), best.end());
    std::sort(words.begin(), words.end(), [](const ValuedWord& a, const ValuedWord& b) { return a.second > b.second; });
    if (words.size() < 4 || words[0].second - words[1].second < kClearLead) return std::nullopt;
    return words;
}

// Every word but the first (the truth), in a seeded order, as choices with their values.
std::vector<QuestionChoice> shuffledOthers(const std::vector<ValuedWord>& words, SplitMix64& random) {
    std::vector<ValuedWord> others(words.begin() + 1, words.end());
    shuffle(others, random);
    std::vector<QuestionChoice> choices;
    for (const auto& [text, value] : others) choices.push_back({text, value});
    return choices;
}

// [SECTION] Which word does the query attend to most?

std::optional<Question> mostAttended(const ModelRun& run, const QuestionSetting& setting, SplitMix64& random) {
    if (!run.trace.has(TensorId::AttentionWeights)) return std::nullopt;
    const int row = queryRowOf(run, setting);
    const std::vector<float> weights = mapRow(run, TensorId::AttentionWeights, setting, row);
    const std::vector<std::string> labels = keyLabels(run, setting.batch);
    const std::optional<std::vector<ValuedWord>> words = wordsWithClearLead(labels, weights, std::vector<bool>(labels.size(), false));
    if (!words) return std::nullopt;
    // Distractors: words the query can see first (a masked key's 0 is too easy to rule out), in a seeded order.
    std::vector<QuestionChoice> distractors = shuffledOthers(*words, random);
    std::stable_partition(distractors.begin(), distractors.end(), [](const QuestionChoice& c) { return *c.value > 0.0f; });

    Question q;
    q.kind = QuestionKind::MostAttended;
    q.stage = StageId::Softmax;
    q.head = setting.head;
    const std::string query = quoted(queryLabel(run, setting.batch, row));
    q.prompt = "Which word does " + query + " attend to most in head " + std::to_string(setting.head) + "?";
    q.valueName = "weight";
    q.why = "Row " + query + " of A" + subscriptDigits(setting.head) + " = softmax(S" + subscriptDigits(setting.head) +
            "/√d_k): its largest weight is on " + quoted(words->front().first) + ".";
    q.answer = {"A" + subscriptDigits(setting.head) + ", row " + query, labels, weights, {}, {}};
    return deal(std::move(q), {words->front().first, words->front().second}, std::move(distractors), 4, setting.seed);
}

// [SECTION] What is the shape of …?

struct ShapeCandidate {
    std::string symbols;  // "l × d_k"
    int rows = 0, cols = 0;
};

std::optional<Question> shape(const ModelRun& run, const QuestionSetting& setting, SplitMix64& random) {
    const Dimensions& d = run.trace.dims;
    const int l = run.trace.queryLengths.at(static_cast<std::size_t>(setting.batch)), lk = run.trace.keyLengths.at(static_cast<std::size_t>(setting.batch));
    const std::string head = subscriptDigits(setting.head);
    struct Asked {
        std::string name, what;
        StageId stage;
        ShapeCandidate truth;
        std::vector<ShapeCandidate> wrong;
    };
    const Asked asked[] = {
        {"Q" + head, "head " + std::to_string(setting.head) + "'s queries", StageId::SplitHeads, {"l × d_k", l, d.dK},
         {{"d_k × l", d.dK, l}, {"l × d_model", l, d.dModel}, {"d_model × d_k", d.dModel, d.dK}, {"l × l", l, l}, {"l × h", l, d.heads}}},
        {"S" + head, "head " + std::to_string(setting.head) + "'s scores", StageId::Scores, {"l_q × l_k", l, lk},
         {{"l × d_k", l, d.dK}, {"d_k × d_k", d.dK, d.dK}, {"l × d_model", l, d.dModel}, {"h × l", d.heads, lk}, {"l × h", l, d.heads}}},
        {"concat(Z₀ … Z_h−1)", "the heads' outputs side by side", StageId::Concat, {"l × h·d_v", l, d.heads * d.dV},
         {{"l × d_v", l, d.dV}, {"h·l × d_v", d.heads * l, d.dV}, {"h × l", d.heads, l}, {"l × l", l, lk}, {"d_v × l", d.dV, l}}},
    };
    const Asked& a = asked[below(random, 3)];
    std::vector<ShapeCandidate> wrong = a.wrong;
    shuffle(wrong, random);
    std::vector<QuestionChoice> distractors;
    std::vector<std::string> drawn{times(a.truth.rows, a.truth.cols)};
    for (const ShapeCandidate& c : wrong) {
        const std::string text = times(c.rows, c.cols);
        if (std::find(drawn.begin(), drawn.end(), text) != drawn.end()) continue;  // l = d_k: one text, two shapes
        drawn.push_back(text);
        distractors.push_back({text, std::nullopt});
    }
    Question q;
    q.kind = QuestionKind::Shape;
    q.stage = a.stage;
    q.head = setting.head;
    q.prompt = "What is the shape of " + a.name + ", " + a.what + ", for this sentence?";
    q.why = a.name + " is " + a.truth.symbols + " = " + drawn[0] + " (l = " + std::to_string(l) + " tokens, d_model = " + std::to_string(d.dModel) +
            ", h = " + std::to_string(d.heads) + ", d_k = d_v = d_model / h = " + std::to_string(d.dK) + ").";
    return deal(std::move(q), {drawn[0], std::nullopt}, std::move(distractors), 4, setting.seed);
}

// [SECTION] What will the model predict?

// The sentence's last `count` words as typed (its tokens are labels: "␣sat"), at most 40 characters.
std::string lastWords(const std::string& sentence, std::size_t count) {
    std::istringstream in(sentence);
    const std::vector<std::string> words{std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
    std::string tail;
    for (std::size_t i = words.size() > count ? words.size() - count : 0; i < words.size(); ++i) tail += (tail.empty() ? "" : " ") + words[i];
    return clipped(tail, 40);
}

std::optional<Question> nextToken(const ModelRun& run, const QuestionSetting& setting, SplitMix64& random) {
    const int position = predictionPositionOf(run, setting.batch);
    if (position < 0) return std::nullopt;
    const TrainedModel* model = run.spec.trainedModel();
    const PredictionKind kind = predictionKind(model->transformer);
    const std::vector<TokenChoice> top = topTokens(predictionLogits(model->transformer, *run.modelPass, setting.batch, position), kShownChoices, 1.0f);
    const auto label = [&](const TokenChoice& c) { return labelText(choiceLabel(*model->tokenizer, c.id)); };
    // Three distinct pieces of ranks 2–10, drawn by the seed.
    std::vector<TokenChoice> ranks(top.begin() + 1, top.end());
    shuffle(ranks, random);
    std::vector<QuestionChoice> distractors;
    std::vector<std::string> drawn{label(top[0])};
    for (const TokenChoice& c : ranks) {
        if (std::find(drawn.begin(), drawn.end(), label(c)) != drawn.end()) continue;
        drawn.push_back(label(c));
        distractors.push_back({label(c), c.probability});
    }
    Question q;
    q.kind = QuestionKind::NextToken;
    q.stage = StageId::Output;
    q.valueName = "probability";
    if (kind == PredictionKind::NextToken) {
        q.prompt = "What will " + model->name + " predict after " + quoted("…" + lastWords(run.spec.sentences.at(static_cast<std::size_t>(setting.batch)), 3)) + "?";
    } else {
        q.prompt = "Which word will " + model->name + " put in place of [MASK]?";
    }
    q.why = predictionSource(*model) + " The most likely: " + quoted(drawn[0]) + ", " + percentText(top[0].probability) + ".";
    std::vector<std::string> labels;
    std::vector<float> values;
    for (const TokenChoice& c : top) labels.push_back(label(c)), values.push_back(c.probability);
    q.answer = {"the " + std::to_string(top.size()) + " most likely", labels, values, {}, {}};
    return deal(std::move(q), {drawn[0], top[0].probability}, std::move(distractors), 4, setting.seed);
}

// [SECTION] Dividing by √d_k makes the weights sharper, flatter, or leaves them?

std::vector<float> softmaxOf(const std::vector<float>& scores, const std::vector<bool>& masked) {
    float top = -INFINITY;
    for (std::size_t j = 0; j < scores.size(); ++j) if (!masked[j]) top = std::max(top, scores[j]);
    std::vector<double> exps(scores.size(), 0.0);
    for (std::size_t j = 0; j < scores.size(); ++j) if (!masked[j]) exps[j] = std::exp(static_cast<double>(scores[j] - top));
    const double sum = std::accumulate(exps.begin(), exps.end(), 0.0);
    std::vector<float> weights;
    for (double e : exps) weights.push_back(static_cast<float>(e / sum));
    return weights;
}

std::vector<bool> maskedKeys(const ModelRun& run, const QuestionSetting& setting, int row) {
    const int keys = run.trace.keyLengths.at(static_cast<std::size_t>(setting.batch));
    std::vector<bool> masked(static_cast<std::size_t>(keys), false);
    if (!run.trace.has(TensorId::Mask)) return masked;
    const MatrixView mask = run.trace[TensorId::Mask].slice(setting.batch, 0);
    for (int j = 0; j < keys; ++j) masked[static_cast<std::size_t>(j)] = mask(mask.rows() == 1 ? 0 : row, j) == 0.0f;
    return masked;
}

std::optional<Question> scaling(const ModelRun& run, const QuestionSetting& setting, SplitMix64& random) {
    if (!run.trace.has(TensorId::Scores) || !run.trace.has(TensorId::AttentionWeights)) return std::nullopt;
    const int row = queryRowOf(run, setting);
    const std::vector<bool> masked = maskedKeys(run, setting, row);
    if (std::count(masked.begin(), masked.end(), false) < 2) return std::nullopt;  // one key: nothing to spread
    const std::vector<float> before = softmaxOf(mapRow(run, TensorId::Scores, setting, row), masked);
    const std::vector<float> after = mapRow(run, TensorId::AttentionWeights, setting, row);
    const double entropyBefore = entropyBits(before), entropyAfter = entropyBits(after);
    if (entropyBefore < kOneHotEntropy && entropyAfter < kOneHotEntropy) return std::nullopt;
    const QuestionChoice sharper{"sharper (more peaked)", std::nullopt}, flatter{"flatter (more even)", std::nullopt}, same{"about the same", std::nullopt};
    const double change = entropyAfter - entropyBefore;
    const QuestionChoice& truth = change > kSameEntropy ? flatter : change < -kSameEntropy ? sharper : same;
    std::vector<QuestionChoice> distractors;
    for (const QuestionChoice* c : {&sharper, &flatter, &same}) if (c != &truth) distractors.push_back(*c);
    shuffle(distractors, random);

    Question q;
    q.kind = QuestionKind::Scaling;
    q.stage = StageId::Scale;
    q.head = setting.head;
    const std::string query = quoted(queryLabel(run, setting.batch, row));
    char numbers[160];
    std::snprintf(numbers, sizeof numbers, "The entropy of row %s: %.2f bits without scaling, %.2f bits with ×%.3g (1/√d_k, d_k = %d).",
                  query.c_str(), entropyBefore, entropyAfter, static_cast<double>(run.trace.dims.scale), run.trace.dims.dK);
    q.prompt = "In head " + std::to_string(setting.head) + ", dividing the scores by √d_k makes row " + query +
               "'s weights sharper, flatter, or leaves them about the same?";
    q.why = numbers;
    const std::vector<std::string> labels = keyLabels(run, setting.batch);
    q.answer = {"with ÷√d_k: A" + subscriptDigits(setting.head), labels, after, "without: softmax(S" + subscriptDigits(setting.head) + ")", before};
    return deal(std::move(q), truth, std::move(distractors), 3, setting.seed);
}

// [SECTION] Which query heads share K/V head k?

std::string headsText(const std::vector<int>& heads, int all) {
    if (static_cast<int>(heads.size()) == all) return "all " + std::to_string(all) + " heads";
    if (heads.size() == 1) return "only head " + std::to_string(heads[0]);
    const bool run = heads.back() - heads.front() + 1 == static_cast<int>(heads.size());
    if (run && heads.size() >= 3) return "heads " + std::to_string(heads.front()) + "–" + std::to_string(heads.back());
    std::vector<std::string> numbers;
    for (int head : heads) numbers.push_back(std::to_string(head));
    return "heads " + joinedParts(numbers);
}

std::optional<Question> sharedKeyValues(const ModelRun& run, const QuestionSetting& setting, SplitMix64& random) {
    const Dimensions& d = run.trace.dims;
    if (d.kvHeads <= 0 || d.kvHeads >= d.heads) return std::nullopt;
    const int group = d.heads / d.kvHeads, kv = below(random, d.kvHeads);
    std::vector<int> block, strided, nextBlock, every(static_cast<std::size_t>(d.heads));
    std::iota(every.begin(), every.end(), 0);
    for (int i = 0; i < group; ++i) {
        block.push_back(kv * group + i);
        strided.push_back(kv + i * d.kvHeads);  // repeat instead of repeat_interleave: the usual slip
        nextBlock.push_back(((kv + 1) % d.kvHeads) * group + i);
    }
    std::sort(nextBlock.begin(), nextBlock.end());
    const std::string truth = headsText(block, d.heads);
    std::vector<std::string> drawn{truth};
    std::vector<QuestionChoice> distractors;
    std::vector<std::vector<int>> wrong{strided, nextBlock, every, {kv * group}};
    shuffle(wrong, random);
    for (const std::vector<int>& heads : wrong) {
        const std::string text = headsText(heads, d.heads);
        if (std::find(drawn.begin(), drawn.end(), text) != drawn.end()) continue;
        drawn.push_back(text);
        distractors.push_back({text, std::nullopt});
    }
    Question q;
    q.kind = QuestionKind::SharedKeyValues;
    q.stage = StageId::SplitHeads;
    q.head = block.front();
    q.prompt = "This model has " + std::to_string(d.heads) + " query heads and " + std::to_string(d.kvHeads) + " K/V heads. Which query heads share K/V head " +
               std::to_string(kv) + "?";
    q.why = "Query head i reads K/V head i / (h / h_kv) = i / " + std::to_string(group) + ": " + truth + " read K/V head " + std::to_string(kv) + ".";
    return deal(std::move(q), {truth, std::nullopt}, std::move(distractors), 4, setting.seed);
}

// [SECTION] Which cells does the mask remove?

// A mask as the rules that build it (attention.cpp's buildMaskInto), so that every picture has words and a wrong
// picture is the truth with one rule changed: transposed, the diagonal too, padding on the wrong side.
struct MaskRules {
    bool above = false;     // key after query (j > i): the causal mask
    bool diagonal = false;  // j = i too: the slip "a word may not see itself"
    bool below = false;     // j < i: the causal mask transposed
    int window = 0;         // j ≤ i − W: a sliding window's far past (0: none)
    int lastColumns = 0, firstColumns = 0, lastRows = 0;  // padded keys; padding on the wrong side; padded queries
};

CellPicture pictureOf(const MaskRules& m, int rows, int cols) {
    CellPicture picture{rows, cols, std::vector<std::uint8_t>(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols), 0)};
    for (int i = 0; i < rows; ++i) {
        for (int j = 0; j < cols; ++j) {
            const bool removed = (m.above && j > i) || (m.diagonal && j == i) || (m.below && j < i) || (m.window > 0 && j <= i - m.window) ||
                                 j >= cols - m.lastColumns || j < m.firstColumns || i >= rows - m.lastRows;
            picture.removed[static_cast<std::size_t>(i) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(j)] = removed ? 1 : 0;
        }
    }
    return picture;
}

std::string counted(int n, const std::string& side, const std::string& one, const std::string& many) {
    return n == 1 ? "the " + side + " " + one : "the " + side + " " + std::to_string(n) + " " + many;
}

// The removed cells in words: "above the diagonal and the last 2 columns".
std::string describe(const MaskRules& m) {
    std::vector<std::string> parts;
    if (m.above) parts.push_back(m.diagonal ? "the diagonal and above" : "above the diagonal");
    else if (m.diagonal) parts.push_back("the diagonal");
    if (m.below) parts.push_back("below the diagonal");
    if (m.window > 0) parts.push_back(std::to_string(m.window) + " or more below the diagonal");
    if (m.lastColumns > 0) parts.push_back(counted(m.lastColumns, "last", "column", "columns"));
    if (m.firstColumns > 0) parts.push_back(counted(m.firstColumns, "first", "column", "columns"));
    if (m.lastRows > 0) parts.push_back(counted(m.lastRows, "last", "row", "rows"));
    return parts.empty() ? "none" : joinedParts(parts);
}

// The run's mask for one sentence as a picture over the padded l_q × l_k (a padding mask's one row repeated).
CellPicture runMaskPicture(const ModelRun& run, int batch) {
    const MatrixView mask = run.trace[TensorId::Mask].slice(batch, 0);
    const int rows = run.trace.queryLength, cols = run.trace.keyLength;
    CellPicture picture{rows, cols, std::vector<std::uint8_t>(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols), 0)};
    for (int i = 0; i < rows; ++i) {
        for (int j = 0; j < cols; ++j) picture.removed[static_cast<std::size_t>(i) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(j)] = mask(mask.rows() == 1 ? 0 : i, j) == 0.0f;
    }
    return picture;
}

// The rules that draw the run's mask exactly (trying each window and whether padded queries are hidden), or nullopt.
std::optional<MaskRules> rulesOf(const ModelRun& run, int batch, const CellPicture& truth) {
    const Trace& t = run.trace;
    const bool causal = t.mask == MaskKind::Causal || t.mask == MaskKind::Both, padding = t.mask == MaskKind::Padding || t.mask == MaskKind::Both;
    MaskRules rules;
    rules.above = causal;
    rules.lastColumns = padding ? t.keyLength - t.keyLengths.at(static_cast<std::size_t>(batch)) : 0;
    const int paddedRows = padding ? t.queryLength - t.queryLengths.at(static_cast<std::size_t>(batch)) : 0;
    for (int rows : {0, paddedRows}) {
        for (int window = 0; window < (causal ? t.queryLength : 1); ++window) {
            if (window == 1) continue;  // W = 1 would remove the diagonal's left neighbours only: not a window any model uses
            rules.lastRows = rows;
            rules.window = window;
            if (pictureOf(rules, truth.rows, truth.cols) == truth) return rules;
        }
    }
    return std::nullopt;
}

// Plausible wrong masks: the truth with one rule changed.
std::vector<MaskRules> wrongMasks(const MaskRules& truth) {
    std::vector<MaskRules> wrong;
    const auto with = [&](auto change) {
        MaskRules m = truth;
        change(m);
        wrong.push_back(m);
    };
    if (truth.above) {
        with([](MaskRules& m) {
            m.above = false;
            m.below = true;
        });  // transposed: the future visible, the past hidden
        with([](MaskRules& m) { m.diagonal = true; });                // a word may not see itself
        with([](MaskRules& m) {  // the padding only (or nothing)
            m.above = false;
            m.window = 0;
        });
    } else {
        with([](MaskRules& m) { m.above = true; });                   // a causal mask where there is none
    }
    if (truth.lastColumns > 0) {
        with([](MaskRules& m) { std::swap(m.lastColumns, m.lastRows); });    // padding as rows, not columns
        with([](MaskRules& m) { std::swap(m.lastColumns, m.firstColumns); });  // padding at the start
    } else {
        with([](MaskRules& m) { m.lastColumns = 1; });  // the last word hidden: the one "being predicted"
    }
    if (truth.window > 0) with([](MaskRules& m) { m.window = 0; });
    wrong.push_back(MaskRules{});  // nothing removed
    return wrong;
}

std::string maskName(MaskKind kind) {
    switch (kind) {
        case MaskKind::Causal: return "the causal mask";
        case MaskKind::Padding: return "the padding mask";
        case MaskKind::Both: return "the causal and padding mask";
        case MaskKind::None: break;
    }
    return "the mask";
}

std::string maskWhy(const MaskRules& m, const ModelRun& run, int batch) {
    std::vector<std::string> reasons;
    if (m.above) reasons.push_back("each word sees itself and the words before it, never a later one");
    if (m.window > 0) reasons.push_back("none more than " + std::to_string(m.window - 1) + " back (a sliding window)");
    if (m.lastColumns > 0) {
        reasons.push_back("this sentence has " + std::to_string(run.trace.keyLengths.at(static_cast<std::size_t>(batch))) + " of the batch's " +
                          std::to_string(run.trace.keyLength) + " positions, the rest padding no word attends to");
    }
    if (m.lastRows > 0) reasons.push_back("the padded query rows see nothing");
    return "The mask sets the removed scores to " + std::string(shownText(run.trace.fill)) + " before softmax, so their weights are 0: " + joinedParts(reasons) + ".";
}

// A grid side's words as drawn, `count` of them: the sentence's tokens, then "[PAD]" for the batch's padding.
std::vector<std::string> gridLabels(const std::vector<std::string>& tokens, int count) {
    std::vector<std::string> labels;
    for (int i = 0; i < count; ++i) labels.push_back(i < static_cast<int>(tokens.size()) ? labelText(tokens[static_cast<std::size_t>(i)]) : "[PAD]");
    return labels;
}

std::optional<Question> maskQuestion(const ModelRun& run, const QuestionSetting& setting, SplitMix64& random) {
    if (!run.trace.has(TensorId::Mask) || run.trace.queryLength > kMaxPictureSide || run.trace.keyLength > kMaxPictureSide) return std::nullopt;
    const CellPicture truth = runMaskPicture(run, setting.batch);
    const std::optional<MaskRules> rules = rulesOf(run, setting.batch, truth);
    if (!rules || std::count(truth.removed.begin(), truth.removed.end(), 1) == 0) return std::nullopt;  // nothing removed: no question
    std::vector<MaskRules> wrong = wrongMasks(*rules);
    shuffle(wrong, random);
    std::vector<QuestionChoice> distractors;
    std::vector<CellPicture> drawn{truth};
    std::vector<std::string> texts{describe(*rules)};
    for (const MaskRules& m : wrong) {
        CellPicture picture = pictureOf(m, truth.rows, truth.cols);
        const std::string text = describe(m);
        if (std::find(drawn.begin(), drawn.end(), picture) != drawn.end() || std::find(texts.begin(), texts.end(), text) != texts.end()) continue;
        drawn.push_back(picture);
        texts.push_back(text);
        distractors.push_back({text, std::nullopt, std::move(picture)});
    }
    Question q;
    q.kind = QuestionKind::Mask;
    q.stage = StageId::Mask;
    q.head = setting.head;
    q.prompt = "Which cells of the scores does " + maskName(run.trace.mask) + " remove (rows: queries, columns: keys)?";
    q.why = maskWhy(*rules, run, setting.batch);
    q.rowLabels = gridLabels(run.queryTokens.at(static_cast<std::size_t>(setting.batch)), truth.rows);
    q.columnLabels = gridLabels(run.tokens.at(static_cast<std::size_t>(setting.batch)), truth.cols);
    return deal(std::move(q), {texts[0], std::nullopt, truth}, std::move(distractors), 4, setting.seed);
}

// [SECTION] Z for the query is closest to which word's V row?

double cosine(const MatrixView& a, int rowA, const MatrixView& b, int rowB) {
    double dot = 0.0, normA = 0.0, normB = 0.0;
    for (Eigen::Index k = 0; k < a.cols(); ++k) {
        const double x = a(rowA, k), y = b(rowB, k);
        dot += x * y;
        normA += x * x;
        normB += y * y;
    }
    return normA > 0.0 && normB > 0.0 ? dot / std::sqrt(normA * normB) : 0.0;
}

std::optional<Question> weightedSum(const ModelRun& run, const QuestionSetting& setting, SplitMix64& random) {
    if (!run.trace.has(TensorId::ZHeads) || !run.trace.has(TensorId::VHeads) || !run.trace.has(TensorId::AttentionWeights)) return std::nullopt;
    const int row = queryRowOf(run, setting);
    const int kvHead = keyValueHead(run.trace.dims, setting.head);
    const MatrixView z = run.trace[TensorId::ZHeads].slice(setting.batch, setting.head);  // l_q × d_v
    const MatrixView v = run.trace[TensorId::VHeads].slice(setting.batch, kvHead);        // l_k × d_v
    const std::vector<bool> masked = maskedKeys(run, setting, row);
    const std::vector<std::string> labels = keyLabels(run, setting.batch);
    // Each word the query sees, worth its V row's cosine with Z's row.
    std::vector<float> cosines(labels.size(), 0.0f);
    for (std::size_t j = 0; j < labels.size(); ++j) {
        if (!masked[j]) cosines[j] = static_cast<float>(cosine(z, row, v, static_cast<int>(j)));
    }
    const std::optional<std::vector<ValuedWord>> found = wordsWithClearLead(labels, cosines, masked);
    if (!found) return std::nullopt;
    const std::vector<ValuedWord>& words = *found;
    std::vector<QuestionChoice> distractors = shuffledOthers(words, random);

    Question q;
    q.kind = QuestionKind::WeightedSum;
    q.stage = StageId::WeightedSum;
    q.head = setting.head;
    const std::string query = quoted(queryLabel(run, setting.batch, row)), zName = "Z" + subscriptDigits(setting.head), vName = "V" + subscriptDigits(kvHead);
    q.prompt = "In head " + std::to_string(setting.head) + ", " + zName + "'s row for " + query + " is closest (by cosine) to which word's " + vName + " row?";
    q.valueName = "cosine";
    char numbers[48];
    std::snprintf(numbers, sizeof numbers, "cosine %s; next ", questionValueText(words[0].second).c_str());
    q.why = zName + " row " + query + " = Σ_j A" + subscriptDigits(setting.head) + "(" + query + ", j) · " + vName + " row j: the sum lies nearest " + vName +
            " row " + quoted(words[0].first) + " (" + numbers + quoted(words[1].first) + ", " + questionValueText(words[1].second) + ").";
    std::vector<float> drawnCosines;
    for (float c : cosines) drawnCosines.push_back(std::max(0.0f, c));
    q.answer = {"cosine of " + zName + " row " + query + " with each " + vName + " row (below 0 drawn as 0)", labels, drawnCosines, {}, {}};
    return deal(std::move(q), {words[0].first, words[0].second}, std::move(distractors), 4, setting.seed);
}

}  // namespace

std::string questionTitle(QuestionKind kind) {
    switch (kind) {
        case QuestionKind::MostAttended: return "Which word does the query attend to most?";
        case QuestionKind::Shape: return "What is the shape of this matrix?";
        case QuestionKind::NextToken: return "What will the model predict?";
        case QuestionKind::Scaling: return "Does ÷√d_k make the weights sharper or flatter?";
        case QuestionKind::SharedKeyValues: return "Which query heads share a K/V head?";
        case QuestionKind::Mask: return "Which cells does the mask remove?";
        case QuestionKind::WeightedSum: return "Which word's V row is Z closest to?";
    }
    return "";
}

std::string_view questionKey(QuestionKind kind) {
    switch (kind) {
        case QuestionKind::MostAttended: return "attended";
        case QuestionKind::Shape: return "shape";
        case QuestionKind::NextToken: return "predict";
        case QuestionKind::Scaling: return "scaling";
        case QuestionKind::SharedKeyValues: return "shared-kv";
        case QuestionKind::Mask: return "mask";
        case QuestionKind::WeightedSum: return "weighted-sum";
    }
    return "";
}

std::optional<QuestionKind> findQuestionKind(std::string_view key) {
    for (QuestionKind kind : kQuestionKinds) {
        if (questionKey(kind) == key) return kind;
    }
    return std::nullopt;
}

std::optional<Question> askQuestion(QuestionKind kind, const ModelRun& run, const QuestionSetting& setting) {
    if (!validSetting(run, setting)) return std::nullopt;
    SplitMix64 random = streamFor(kind, setting.seed);
    switch (kind) {
        case QuestionKind::MostAttended: return mostAttended(run, setting, random);
        case QuestionKind::Shape: return shape(run, setting, random);
        case QuestionKind::NextToken: return nextToken(run, setting, random);
        case QuestionKind::Scaling: return scaling(run, setting, random);
        case QuestionKind::SharedKeyValues: return sharedKeyValues(run, setting, random);
        case QuestionKind::Mask: return maskQuestion(run, setting, random);
        case QuestionKind::WeightedSum: return weightedSum(run, setting, random);
    }
    return std::nullopt;
}

std::string questionKeys() {
    std::vector<std::string> keys;
    for (QuestionKind kind : kQuestionKinds) keys.emplace_back(questionKey(kind));
    std::string text = joinedParts(keys);
    const std::size_t lastAnd = text.rfind(" and ");
    return text.replace(lastAnd, 5, " or ");
}

std::vector<QuestionKind> offeredQuestions(const ModelRun& run, const QuestionSetting& setting) {
    std::vector<QuestionKind> kinds;
    for (QuestionKind kind : kQuestionKinds) {
        if (askQuestion(kind, run, setting)) kinds.push_back(kind);
    }
    return kinds;
}

std::string questionValueText(float value) {
    if (value > 0.0f && value < 0.0005f) return "< 0.001";  // a masked or ignored key: not 9.9e-16
    char text[32];
    std::snprintf(text, sizeof text, std::fabs(value) >= 0.01f || value == 0.0f ? "%.2f" : "%.2g", static_cast<double>(value));
    return text;
}

std::string gapSentence(const Question& question, std::optional<int> picked) {
    const QuestionChoice& truth = question.choices.at(static_cast<std::size_t>(question.truth));
    const auto valued = [&](const QuestionChoice& c) { return c.value ? " (" + question.valueName + " " + questionValueText(*c.value) + ")" : std::string(); };
    if (!picked) return "The answer: " + quoted(truth.text) + valued(truth) + ".";
    if (*picked == question.truth) return "Right: " + quoted(truth.text) + valued(truth) + ".";
    const QuestionChoice& pick = question.choices.at(static_cast<std::size_t>(*picked));
    if (!truth.value) return "You chose " + quoted(pick.text) + "; the answer is " + quoted(truth.text) + ".";
    if (question.kind == QuestionKind::WeightedSum) return "You chose " + quoted(pick.text) + valued(pick) + "; the nearest is " + quoted(truth.text) + valued(truth) + ".";
    return "You chose " + quoted(pick.text) + valued(pick) + "; the model put " + questionValueText(*truth.value) + " on " + quoted(truth.text) + ".";
}

CellScore scoreCells(const CellPicture& truth, const CellPicture& marked) {
    CellScore score;
    score.total = truth.rows * truth.cols;
    const bool sameGrid = marked.rows == truth.rows && marked.cols == truth.cols && marked.removed.size() == truth.removed.size();
    for (int i = 0; i < truth.rows; ++i) {
        for (int j = 0; j < truth.cols; ++j) {
            const bool removed = truth.isRemoved(i, j), mark = sameGrid && marked.isRemoved(i, j);
            score.right += removed == mark ? 1 : 0;
            score.missed += removed && !mark ? 1 : 0;
            score.extra += mark && !removed ? 1 : 0;
        }
    }
    return score;
}

std::string cellsGapSentence(const Question& question, const CellPicture& marked) {
    const CellPicture& truth = question.choices.at(static_cast<std::size_t>(question.truth)).picture.value();
    const CellScore score = scoreCells(truth, marked);
    const int removed = static_cast<int>(std::count(truth.removed.begin(), truth.removed.end(), std::uint8_t{1}));
    if (score.right == score.total) return "Right: all " + std::to_string(score.total) + " cells as the mask has them (" + std::to_string(removed) + " removed).";
    const auto cells = [](int n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? " cell" : " cells"); };
    std::vector<std::string> wrong;
    if (score.missed > 0) wrong.push_back(cells(score.missed, "removed") + " not marked");
    if (score.extra > 0) wrong.push_back(cells(score.extra, "kept") + " marked");
    return "You marked " + std::to_string(score.right) + " of " + std::to_string(score.total) + " cells right: " + joinedParts(wrong) + ".";
}

double entropyBits(const std::vector<float>& probabilities) {
    double entropy = 0.0;
    for (float p : probabilities) {
        if (p > 0.0f) entropy -= static_cast<double>(p) * std::log2(static_cast<double>(p));
    }
    return entropy;
}

}  // namespace attnviz::core
