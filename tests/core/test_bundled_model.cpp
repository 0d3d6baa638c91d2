// test_bundled_model.cpp — what attnviz's own model (assets/models/attnviz-mini-bert, trained by
// tools/train/train_bundled_model.py) must show, read from the committed files through the app's own loader,
// tokenizer and forward pass, on sentences the training never saw (tests/data/bundled_model/, written by the
// training script beside the figures its independent NumPy forward measured):
//   1. the Illustrated Transformer's figure: the coreference head's row for "it" peaks on "animal" in the default
//      sentence;
//   2. on 300 held-out sentences (nouns from other WordNet classes, other verbs, other adjectives) the referent
//      outweighs the other noun in at least 90% (a word's weight: the sum over its pieces);
//   3. everyday sentences a lecturer would type are words, not letters: at most 2% lone-letter pieces;
//   4. the other catalogued heads do their named job: mean weight on the expected key as the NumPy forward found;
//   5. on Winograd-style sentences (world knowledge decides) it does what the NumPy forward found: reported, not
//      claimed to be right.
#include "core/head_reading.h"
#include "core/model.h"
#include "io/model_folder.h"
#include "io/model_library.h"
#include "io/safetensors.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace attnviz;

const fs::path kData = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/data/bundled_model";

std::shared_ptr<const core::TrainedModel> bundled() {
    static const std::shared_ptr<const core::TrainedModel> model = io::loadBundledModel();
    REQUIRE(model != nullptr);
    return model;
}

const core::NamedHead& namedHead(const std::string& fragment) {
    for (const core::NamedHead& head : bundled()->namedHeads) {
        if (head.name.find(fragment) != std::string::npos) return head;
    }
    FAIL("heads.json names no head with \"" << fragment << "\"");
    throw std::logic_error("unreachable");
}

core::ModelRun runOn(const std::string& sentence, int layer) {
    core::ModelSpec spec;
    spec.model = core::TrainedLayer{bundled()};
    spec.sentences = {sentence};
    spec.attention.dModel = bundled()->config().dModel;
    spec.attention.heads = bundled()->config().heads;
    spec.trained()->layer = layer;
    return core::runModel(spec);
}

// Head `head`'s weights (one sentence) as a matrix.
core::Matrix attentionOf(const core::ModelRun& run, int head) { return run.trace[core::TensorId::AttentionWeights].slice(0, head); }

bool continuesWord(const std::string& piece) { return piece.rfind("##", 0) == 0; }

// Each word of the sentence as [first, end) of its pieces: a piece without "##" starts a word ([CLS] and [SEP] are words).
std::vector<std::pair<int, int>> wordSpans(const std::vector<std::string>& tokens) {
    std::vector<std::pair<int, int>> spans;
    for (int i = 0; i < static_cast<int>(tokens.size()); ++i) {
        if (continuesWord(tokens[static_cast<std::size_t>(i)]) && !spans.empty()) spans.back().second = i + 1;
        else spans.emplace_back(i, i + 1);
    }
    return spans;
}

std::string spelled(const std::vector<std::string>& tokens, std::pair<int, int> span) {
    std::string word;
    for (int i = span.first; i < span.second; ++i) {
        const std::string& piece = tokens[static_cast<std::size_t>(i)];
        word += continuesWord(piece) ? piece.substr(2) : piece;
    }
    return word;
}

// The weight row `query` of `a` gives the (first) word spelled `word`: the sum over its pieces.
double weightOnWord(const core::ModelRun& run, const core::Matrix& a, int query, const std::string& word) {
    const auto& tokens = run.tokens[0];
    for (const auto& span : wordSpans(tokens)) {
        if (spelled(tokens, span) == word) return a.row(query).segment(span.first, span.second - span.first).sum();
    }
    FAIL("no word \"" << word << "\" in the sentence");
    return 0.0;
}

int positionOf(const core::ModelRun& run, const std::string& label) {
    const auto& tokens = run.tokens[0];
    const auto found = std::find(tokens.begin(), tokens.end(), label);
    REQUIRE_MESSAGE(found != tokens.end(), "no token \"" << label << "\" in the sentence");
    return static_cast<int>(found - tokens.begin());
}

// The token the coreference head's "it" row weighs most.
std::string itLooksAt(const std::string& sentence) {
    const core::NamedHead& coref = namedHead("coreference");
    const core::ModelRun run = runOn(sentence, coref.layer);
    const core::Matrix a = attentionOf(run, coref.head);
    Eigen::Index best = 0;
    a.row(positionOf(run, "it")).maxCoeff(&best);
    return run.tokens[0][static_cast<std::size_t>(best)];
}

// The coreference head on one sentence: the weights on the referent and on the other noun in its row for "it", and
// the mean weight on the referent in every other row ([CLS] and [SEP] included).
struct ItWeights {
    double referent = 0.0, other = 0.0, otherRowsOnReferent = 0.0;
};

ItWeights itWeights(const std::string& sentence, const std::string& referent, const std::string& other) {
    const core::NamedHead& coref = namedHead("coreference");
    const core::ModelRun run = runOn(sentence, coref.layer);
    const core::Matrix a = attentionOf(run, coref.head);
    const int it = positionOf(run, "it");
    double otherRows = 0.0;
    for (int q = 0; q < a.rows(); ++q) otherRows += q == it ? 0.0 : weightOnWord(run, a, q, referent);
    return {weightOnWord(run, a, it, referent), weightOnWord(run, a, it, other), otherRows / static_cast<double>(a.rows() - 1)};
}

std::vector<std::vector<std::string>> tsvRows(const std::string& name) {
    std::ifstream in(kData / name);
    std::string line;
    std::getline(in, line);  // the header
    std::vector<std::vector<std::string>> rows;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::vector<std::string> row;
        for (std::string field; std::getline(fields, field, '\t');) row.push_back(field);
        rows.push_back(row);
    }
    return rows;
}

std::vector<std::string> lines(const std::string& name) {
    std::vector<std::string> result;
    std::ifstream in(kData / name);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty()) result.push_back(line);
    }
    return result;
}

nlohmann::json figures() {
    std::ifstream in(kData / "figures.json");
    return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("the bundled model: it → animal in the default sentence — the coreference head is the featured one") {
    CHECK(itLooksAt(std::string(core::kDefaultSentence)) == "animal");
    CHECK(bundled()->featuredHead()->name.find("coreference") != std::string::npos);
    CHECK(bundled()->tokenizer->vocabularySize() == 30522);
}

TEST_CASE("the bundled model: on held-out sentences the referent outweighs the other noun in at least 90%, and only in the \"it\" row") {
    int total = 0, right = 0;
    double otherRows = 0.0;
    for (const auto& row : tsvRows("coreference_heldout.tsv")) {
        REQUIRE(row.size() == 3);
        const ItWeights weights = itWeights(row[0], row[1], row[2]);
        right += weights.referent > weights.other ? 1 : 0;
        otherRows += weights.otherRowsOnReferent;
        ++total;
    }
    otherRows /= total;
    std::cout << "coreference head on held-out sentences: referent above the other noun in " << right << " of " << total
              << "; the other rows' mean weight on the referent " << otherRows << "\n";
    CHECK(total >= 300);
    CHECK(right * 10 >= total * 9);  // issue 22's target (the model before it: 249 / 300)
    CHECK(std::abs(right - figures()["coreference_referent_above_other"].get<int>()) <= 2);  // as the NumPy forward found
    // Issue 32: the other rows copied the pronoun's noun (0.74 before the fine-tuning); the head was taught "it" alone.
    CHECK(otherRows <= 0.3);
    CHECK(otherRows == doctest::Approx(figures()["coreference_other_rows_mean_weight_on_referent"].get<double>()).epsilon(0.02));
}

TEST_CASE("the bundled model: everyday sentences are words, not letters (at most 2% lone-letter pieces)") {
    // A lone-letter piece: one letter ("x" or "##x") inside a word of several pieces; a word of one letter ("a",
    // "I", the d of d_k) is written alone and is no lone letter.
    int lone = 0, pieces = 0;
    const std::vector<std::string> sentences = lines("everyday_sentences.txt");
    REQUIRE(sentences.size() >= 20);
    for (const std::string& sentence : sentences) {
        const core::ModelRun run = runOn(sentence, 0);
        const auto& tokens = run.tokens[0];
        for (const auto& [first, end] : wordSpans(tokens)) {
            const std::string& piece = tokens[static_cast<std::size_t>(first)];
            if (piece == "[CLS]" || piece == "[SEP]") continue;
            pieces += end - first;
            if (end - first == 1) continue;
            for (int i = first; i < end; ++i) {
                const std::string text = spelled(tokens, {i, i + 1});
                lone += text.size() == 1 && std::isalpha(static_cast<unsigned char>(text[0])) ? 1 : 0;
            }
        }
    }
    std::cout << "everyday sentences: " << lone << " lone-letter pieces of " << pieces << "\n";
    CHECK(lone * 50 <= pieces);
    CHECK(lone == figures()["everyday_lone_letter_pieces"].get<int>());
    CHECK(pieces == figures()["everyday_pieces"].get<int>());
}

namespace {

// `word ` `times` times over.
std::string repeated(const std::string& word, int times) {
    std::string text;
    for (int i = 0; i < times; ++i) text += word + " ";
    return text;
}

// The refusal runOn(sentence, 0) throws, or "accepted".
std::string refusalOf(const std::string& sentence) {
    try {
        runOn(sentence, 0);
    } catch (const core::InputError& error) {
        return error.what();
    }
    return "accepted";
}

}  // namespace

TEST_CASE("the bundled model: a sentence over the token limit says how many words became how many pieces, and whether letter-splitting caused it") {
    // 16 words the vocabulary spells letter by letter (z ##q ##x ##v): 66 tokens with a limit of 64.
    const std::string lettered = refusalOf(repeated("zqxv", 16));
    CHECK(lettered.find("66 tokens") != std::string::npos);
    CHECK(lettered.find("Its 16 words became 64 pieces: letter-splitting caused it, 16 words outside the vocabulary became 64 pieces, 64 of "
                        "them lone letters") != std::string::npos);
    CHECK(lettered.find("as whole words the sentence would have 18 tokens") != std::string::npos);
    CHECK(lettered.find("raise the token limit") != std::string::npos);
    // 70 words the vocabulary knows: too long, but not for its letters.
    const std::string known = refusalOf(repeated("cat", 70));
    CHECK(known.find("Its 70 words became 70 pieces. Way out: shorten the sentence or raise the token limit.") != std::string::npos);
    CHECK(known.find("letter") == std::string::npos);
}

TEST_CASE("the bundled model: a pasted text far over the token limit is tokenized only to twice the limit, and says so (issue 31)") {
    // Before, a pasted megabyte was tokenized whole on the worker (2.6 s of WordPiece) and refused with its exact
    // count ("The sentence has 10002 tokens"); now the tokenizer stops at 2 × 64 tokens.
    CHECK(refusalOf(repeated("cat", 10'000)) ==
          "The sentence has more than 128 tokens; at most 64 are allowed. Its first 127 words became 127 pieces. Way out: shorten the sentence "
          "or raise the token limit.");
    // 100 words of four lone letters: their first 32 as whole words would fit, the whole sentence (102) would not.
    // Only the first words were read, so letter-splitting is not named as the cause.
    const std::string message = refusalOf(repeated("zqxv", 100));
    CHECK(message.find("The sentence has more than 128 tokens; at most 64 are allowed. Its first 32 words became 128 pieces, 32 words "
                       "outside the vocabulary became 128 pieces") != std::string::npos);
    CHECK(message.find("letter-splitting caused it") == std::string::npos);
    CHECK(message.find("as whole words") == std::string::npos);
}

TEST_CASE("the bundled model: on Winograd-style sentences the coreference head weighs as the NumPy forward found") {
    // Reported, not claimed: world knowledge decides these, and the head was taught one sentence pattern.
    const nlohmann::json measured = figures()["winograd"];
    REQUIRE(measured.size() >= 6);
    for (const nlohmann::json& sentence : measured) {
        const auto [referent, other, _] = itWeights(sentence["sentence"], sentence["referent"], sentence["other"]);
        std::cout << sentence["sentence"].get<std::string>() << "  " << sentence["referent"].get<std::string>() << " " << referent << ", "
                  << sentence["other"].get<std::string>() << " " << other << "\n";
        CHECK(referent == doctest::Approx(sentence["weight_on_referent"].get<double>()).epsilon(0.02));
        CHECK(other == doctest::Approx(sentence["weight_on_other"].get<double>()).epsilon(0.02));
    }
}

// What the stage captions say the coreference head does on `sentence` (core::headReading, the "it" row or none).
std::string coreferenceReading(const std::string& sentence) {
    const core::NamedHead& coref = namedHead("coreference");
    const core::ModelRun run = runOn(sentence, coref.layer);
    const core::Matrix a = attentionOf(run, coref.head);
    const core::Encoding encoding = bundled()->tokenizer->encode(sentence);
    REQUIRE(static_cast<Eigen::Index>(encoding.labels.size()) == a.rows());
    core::AttentionRows map(static_cast<std::size_t>(a.rows()));
    for (Eigen::Index q = 0; q < a.rows(); ++q) map[static_cast<std::size_t>(q)].assign(a.row(q).data(), a.row(q).data() + a.cols());
    const std::string reading = core::headReading(encoding, core::sentenceWords(encoding, bundled()->tokenizer->typedWords(sentence)), map,
                                                  -1, true);
    std::cout << sentence << "  " << reading << "\n";
    return reading;
}

TEST_CASE("the bundled model: what the captions say the coreference head does on the issue's sentences is what its numbers show") {
    // Issue 32: the caption claimed "the noun it refers to" on every sentence. The trophy: suitcase 0.60, trophy 0.40.
    CHECK(coreferenceReading("The trophy would not fit in the suitcase because it was too big.") ==
          "it → suitcase 0.60, trophy 0.40: a close call (the top two within 0.2)");
    // No noun fits "raining": the "it" row rests on [SEP] (before the fine-tuning: story 0.51, raining 0.49).
    CHECK(coreferenceReading("The story was short because it was raining.").find("names no noun here") != std::string::npos);
    CHECK(coreferenceReading("My grandmother baked bread because she was hungry.") == "no \"it\" here (the only row this head was taught)");
    CHECK(coreferenceReading(std::string(core::kDefaultSentence)) == "it → animal 1.00");  // no copy note: the other rows rest on [SEP]
}

TEST_CASE("the bundled model: the other catalogued heads do their named job on held-out text") {
    const std::vector<std::string> sentences = lines("plain_heldout.txt");
    REQUIRE(sentences.size() >= 100);
    int checked = 0;
    const nlohmann::json measured = figures();
    for (const nlohmann::json& head : measured["heads"]) {
        if (!head.contains("mean_weight_on_expected_key")) continue;
        const std::string name = head["name"];
        const int layer = head["layer"], index = head["head"];
        double sum = 0.0;
        int count = 0;
        for (const std::string& sentence : sentences) {
            const core::ModelRun run = runOn(sentence, layer);
            const core::Matrix a = attentionOf(run, index);
            const int n = static_cast<int>(a.rows());
            for (int q = 1; q + 1 < n; ++q) {
                const int key = name == "previous token" ? q - 1 : name == "next token" ? q + 1 : name == "[SEP]" ? n - 1 : name == "[CLS]" ? 0 : q;
                sum += a(q, key);
                ++count;
            }
        }
        const double mean = sum / count;
        std::cout << "layer " << layer << ", head " << index << " (" << name << "): mean weight on the expected key " << mean << "\n";
        CHECK(mean == doctest::Approx(head["mean_weight_on_expected_key"].get<double>()).epsilon(0.01));
        CHECK(mean > 0.4);
        ++checked;
    }
    CHECK(checked >= 2);  // the previous-token and next-token heads
}

TEST_CASE("the bundled model: its folder keeps the masked-word head in BertForMaskedLM's layout, in F16") {
    const io::SafetensorsFile file(fs::path(bundled()->folder) / "model.safetensors");
    for (const char* name : {"cls.predictions.transform.dense.weight", "cls.predictions.transform.dense.bias",
                             "cls.predictions.transform.LayerNorm.weight", "cls.predictions.transform.LayerNorm.bias",
                             "cls.predictions.bias"}) {
        CHECK_MESSAGE(file.has(name), name);
    }
    CHECK_FALSE(file.has("cls.predictions.decoder.weight"));  // tied to the word embeddings, as in bert-base-uncased
    CHECK(file.entries().at("bert.embeddings.word_embeddings.weight").dtype == "F16");
    CHECK(fs::file_size(fs::path(bundled()->folder) / "model.safetensors") <= 10'000'000);
}

TEST_CASE("bundled model: stage words say what X is for this model, for the screen and the exports alike") {
    const core::ModelRun run = runOn("the cat sat", 1);
    const core::StageWords embed = core::stageWords(run, core::StageId::Embed);
    CHECK(embed.formula.find("X = h_1") != std::string::npos);
    CHECK(embed.formula.find("+ PE") == std::string::npos);  // the seeded layer's sinusoidal E[ids] + PE is not this model's X
    CHECK(embed.pytorch.find("1 x 5 x 128") != std::string::npos);  // [CLS] the cat sat [SEP]: shapes substituted
    const core::StageWords tokens = core::stageWords(run, core::StageId::Tokens);
    CHECK(tokens.formula.find("WordPiece") != std::string::npos);
    // Stages the trained model has no words of its own for keep the stage's.
    CHECK(core::stageWords(run, core::StageId::Softmax).formula == std::string(core::stage(core::StageId::Softmax).formula));
    const core::ModelRun seeded = core::runModel(core::ModelSpec{});
    CHECK(core::stageWords(seeded, core::StageId::Embed).formula == std::string(core::stage(core::StageId::Embed).formula));
}
