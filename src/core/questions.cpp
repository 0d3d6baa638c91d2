// questions.cpp — the questions ask mode poses, drawn from one run (see questions.h): one function per kind, each
// finding the truth in the run's numbers and its distractors among the run's own words and sizes, then one shared
// step that deals the choices in a seeded order.
#include "core/questions.h"

#include "core/derived_maps.h"
#include "core/display_text.h"
#include "core/random.h"
#include "core/transformer/prediction.h"
#include "core/transformer/prediction_words.h"

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

std::string quoted(const std::string& text) { return "\xe2\x80\x9c" + text + "\xe2\x80\x9d"; }

std::string subscriptDigits(int number) {
    static const char* const kDigits[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
    std::string text;
    for (char c : std::to_string(number)) text += kDigits[c - '0'];
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

// [SECTION] Which word does the query attend to most?

std::optional<Question> mostAttended(const ModelRun& run, const QuestionSetting& setting, SplitMix64& random) {
    if (!run.trace.has(TensorId::AttentionWeights)) return std::nullopt;
    const int row = queryRowOf(run, setting);
    const std::vector<float> weights = mapRow(run, TensorId::AttentionWeights, setting, row);
    const std::vector<std::string> labels = keyLabels(run, setting.batch);
    // A word that stands at several keys is one choice, worth its largest weight.
    std::map<std::string, float> best;
    for (std::size_t j = 0; j < labels.size(); ++j) {
        const auto [word, inserted] = best.try_emplace(labels[j], weights[j]);
        if (!inserted) word->second = std::max(word->second, weights[j]);
    }
    std::vector<std::pair<std::string, float>> words(best.begin(), best.end());
    std::sort(words.begin(), words.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    if (words.size() < 4 || words[0].second - words[1].second < kClearLead) return std::nullopt;
    // Distractors: words the query can see first (a masked key's 0 is too easy to rule out), in a seeded order.
    std::vector<std::pair<std::string, float>> others(words.begin() + 1, words.end());
    shuffle(others, random);
    std::stable_partition(others.begin(), others.end(), [](const auto& w) { return w.second > 0.0f; });
    std::vector<QuestionChoice> distractors;
    for (const auto& [text, value] : others) distractors.push_back({text, value});

    Question q;
    q.kind = QuestionKind::MostAttended;
    q.stage = StageId::Softmax;
    q.head = setting.head;
    const std::string query = quoted(queryLabel(run, setting.batch, row));
    q.prompt = "Which word does " + query + " attend to most in head " + std::to_string(setting.head) + "?";
    q.valueName = "weight";
    q.why = "Row " + query + " of A" + subscriptDigits(setting.head) + " = softmax(S" + subscriptDigits(setting.head) +
            "/√d_k): its largest weight is on " + quoted(words[0].first) + ".";
    q.answer = {"A" + subscriptDigits(setting.head) + ", row " + query, labels, weights, {}, {}};
    return deal(std::move(q), {words[0].first, words[0].second}, std::move(distractors), 4, setting.seed);
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
    const TrainedModel* model = run.spec.trainedModel();
    if (model == nullptr || !run.modelPass) return std::nullopt;
    const PredictionKind kind = predictionKind(model->transformer);
    const std::vector<int>& ids = run.tokenIds.at(static_cast<std::size_t>(setting.batch));
    const int position = kind == PredictionKind::NextToken ? static_cast<int>(ids.size()) - 1
                         : kind == PredictionKind::MaskedWord ? firstMaskPosition(*model->tokenizer, ids) : -1;
    if (position < 0) return std::nullopt;
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
    std::string text = "heads ";
    for (std::size_t i = 0; i < heads.size(); ++i) text += (i == 0 ? "" : i + 1 == heads.size() ? " and " : ", ") + std::to_string(heads[i]);
    return text;
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

}  // namespace

std::string questionTitle(QuestionKind kind) {
    switch (kind) {
        case QuestionKind::MostAttended: return "Which word does the query attend to most?";
        case QuestionKind::Shape: return "What is the shape of this matrix?";
        case QuestionKind::NextToken: return "What will the model predict?";
        case QuestionKind::Scaling: return "Does ÷√d_k make the weights sharper or flatter?";
        case QuestionKind::SharedKeyValues: return "Which query heads share a K/V head?";
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
    }
    return std::nullopt;
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
    std::snprintf(text, sizeof text, value >= 0.01f || value == 0.0f ? "%.2f" : "%.2g", static_cast<double>(value));
    return text;
}

std::string gapSentence(const Question& question, std::optional<int> picked) {
    const QuestionChoice& truth = question.choices.at(static_cast<std::size_t>(question.truth));
    const auto valued = [&](const QuestionChoice& c) { return c.value ? " (" + question.valueName + " " + questionValueText(*c.value) + ")" : std::string(); };
    if (!picked) return "The answer: " + quoted(truth.text) + valued(truth) + ".";
    if (*picked == question.truth) return "Right: " + quoted(truth.text) + valued(truth) + ".";
    const QuestionChoice& pick = question.choices.at(static_cast<std::size_t>(*picked));
    if (!truth.value) return "You chose " + quoted(pick.text) + "; the answer is " + quoted(truth.text) + ".";
    return "You chose " + quoted(pick.text) + valued(pick) + "; the model put " + questionValueText(*truth.value) + " on " + quoted(truth.text) + ".";
}

double entropyBits(const std::vector<float>& probabilities) {
    double entropy = 0.0;
    for (float p : probabilities) {
        if (p > 0.0f) entropy -= static_cast<double>(p) * std::log2(static_cast<double>(p));
    }
    return entropy;
}

}  // namespace attnviz::core
