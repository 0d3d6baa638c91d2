// test_questions.cpp — ask mode's questions (core/questions.h), drawn from runs of the seeded layer, the bundled
// decoder (a grouped-query Llama) and the bundled BERT: each question's truth is the run's own number (recomputed here
// with plain loops from the run's matrices), its choices are distinct as drawn text (and as pictures), the truth's
// place is uniform over seeds (χ²), and a question that does not apply to a model is not offered.
#include "core/questions.h"
#include "core/typed_prediction.h"

#include "core/derived_maps.h"
#include "core/display_text.h"
#include "io/model_folder.h"
#include "core/transformer/prediction_words.h"

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace {

namespace fs = std::filesystem;
using namespace attnviz;
using core::QuestionKind;

const fs::path kModels = fs::path(ATTNVIZ_SOURCE_DIR) / "assets/models";

std::shared_ptr<const core::TrainedModel> bundled(const char* name) {
    static std::map<std::string, std::shared_ptr<const core::TrainedModel>> models;
    auto& model = models[name];
    if (!model) model = io::loadModelFolder(kModels / name);
    REQUIRE(model != nullptr);
    return model;
}

core::ModelRun trainedRun(const char* name, const std::string& sentence) {
    const std::shared_ptr<const core::TrainedModel> model = bundled(name);
    core::ModelSpec spec;
    spec.model = core::TrainedLayer{model};
    spec.sentences = {sentence};
    spec.attention.dModel = model->config().dModel;
    spec.attention.heads = model->config().heads;
    return core::runModel(spec);
}

const core::ModelRun& seededRun() {
    static const core::ModelRun run = core::runModel(core::ModelSpec{});
    return run;
}

core::ModelRun seededRunWith(core::MaskKind mask, std::vector<std::string> sentences, bool maskPaddedQueries = false) {
    core::ModelSpec spec;
    spec.sentences = std::move(sentences);
    spec.attention.mask = mask;
    spec.attention.maskPaddedQueries = maskPaddedQueries;
    return core::runModel(spec);
}

const core::ModelRun& causalRun() {
    static const core::ModelRun run = seededRunWith(core::MaskKind::Causal, {std::string(core::kDefaultSentence)});
    return run;
}

const core::ModelRun& decoderRun() {
    static const core::ModelRun run = trainedRun("attnviz-mini-llama", "the cat sat on the mat and the dog sat on the");
    return run;
}

void checkWellFormed(const core::Question& q) {
    CAPTURE(q.prompt);
    CHECK(q.prompt.back() == '?');
    REQUIRE(q.choices.size() == (q.kind == QuestionKind::Scaling ? 3u : 4u));
    REQUIRE(q.truth >= 0);
    REQUIRE(q.truth < static_cast<int>(q.choices.size()));
    std::set<std::string> texts;
    std::vector<core::CellPicture> pictures;
    for (const core::QuestionChoice& c : q.choices) {
        CHECK_FALSE(c.text.empty());
        texts.insert(c.text);
        CHECK(c.picture.has_value() == (q.kind == QuestionKind::Mask));
        if (c.picture && std::find(pictures.begin(), pictures.end(), *c.picture) == pictures.end()) pictures.push_back(*c.picture);
    }
    CHECK(texts.size() == q.choices.size());  // distinct as drawn
    if (q.kind == QuestionKind::Mask) CHECK(pictures.size() == q.choices.size());
    CHECK_FALSE(q.why.empty());
}

// χ² of the truth's places over seeds 0 … 99 against a uniform spread.
double truthPlaceChiSquare(QuestionKind kind, const core::ModelRun& run, int places) {
    std::vector<int> counts(static_cast<std::size_t>(places), 0);
    std::vector<std::set<int>> placesByResidue(static_cast<std::size_t>(places));  // not guessable from the question's number
    for (std::uint64_t seed = 0; seed < 100; ++seed) {
        const std::optional<core::Question> q = core::askQuestion(kind, run, {0, 0, std::nullopt, seed});
        REQUIRE(q);
        checkWellFormed(*q);
        ++counts[static_cast<std::size_t>(q->truth)];
        placesByResidue[seed % static_cast<std::uint64_t>(places)].insert(q->truth);
    }
    for (const std::set<int>& seen : placesByResidue) CHECK(seen.size() == static_cast<std::size_t>(places));
    const double expected = 100.0 / places;
    double chi = 0.0;
    for (int c : counts) chi += (c - expected) * (c - expected) / expected;
    std::string spread;
    for (int c : counts) spread += " " + std::to_string(c);
    MESSAGE(core::questionTitle(kind) << " — the truth's places:" << spread << ", χ² " << chi);
    return chi;
}

}  // namespace

TEST_CASE("the seeded layer is asked the attended word, shapes, scaling and the weighted sum, never a prediction, shared K/V heads or an absent mask") {
    const std::vector<QuestionKind> offered = core::offeredQuestions(seededRun(), {});
    CHECK(offered == std::vector<QuestionKind>{QuestionKind::MostAttended, QuestionKind::Shape, QuestionKind::Scaling, QuestionKind::WeightedSum});
    CHECK_FALSE(core::askQuestion(QuestionKind::NextToken, seededRun(), {}));
    CHECK_FALSE(core::askQuestion(QuestionKind::SharedKeyValues, seededRun(), {}));
    CHECK_FALSE(core::askQuestion(QuestionKind::Mask, seededRun(), {}));
    // A padding mask that removes nothing (one sentence: no padding) is not asked about either.
    CHECK_FALSE(core::askQuestion(QuestionKind::Mask, seededRunWith(core::MaskKind::Padding, {"the cat sat on the mat"}), {}));
    CHECK(core::askQuestion(QuestionKind::Mask, causalRun(), {}));
    CHECK(core::findQuestionKind("mask") == QuestionKind::Mask);
    CHECK(core::findQuestionKind("weighted-sum") == QuestionKind::WeightedSum);
}

TEST_CASE("the bundled BERT is never asked which query heads share a K/V head — the bundled decoder is, and what it predicts") {
    const core::ModelRun bert = trainedRun("attnviz-mini-bert", "the cat sat on the [MASK] .");
    CHECK_FALSE(core::askQuestion(QuestionKind::SharedKeyValues, bert, {}));
    const std::optional<core::Question> fill = core::askQuestion(QuestionKind::NextToken, bert, {});
    REQUIRE(fill);
    CHECK(fill->prompt.find("[MASK]") != std::string::npos);
    const std::vector<QuestionKind> offered = core::offeredQuestions(decoderRun(), {});
    CHECK(std::count(offered.begin(), offered.end(), QuestionKind::SharedKeyValues) == 1);
    CHECK(std::count(offered.begin(), offered.end(), QuestionKind::NextToken) == 1);
}

TEST_CASE("which word does the query attend to most: the truth is the row's largest weight, every choice its word's weight") {
    const core::ModelRun& run = seededRun();
    const int row = core::followedQueryRow(run, 0, 2);
    const core::MatrixView a = core::mapSlice(run.trace, core::TensorId::AttentionWeights, 0, 2).view();
    Eigen::Index best = 0;
    a.row(row).maxCoeff(&best);
    const std::optional<core::Question> q = core::askQuestion(QuestionKind::MostAttended, run, {0, 2, std::nullopt, 7});
    REQUIRE(q);
    checkWellFormed(*q);
    const core::QuestionChoice& truth = q->choices[static_cast<std::size_t>(q->truth)];
    CHECK(truth.text == core::labelText(run.tokens[0][static_cast<std::size_t>(best)]));
    CHECK(*truth.value == a(row, best));
    CHECK(q->prompt == "Which word does “" + core::labelText(run.queryTokens[0][static_cast<std::size_t>(row)]) + "” attend to most in head 2?");
    for (const core::QuestionChoice& c : q->choices) CHECK(*c.value <= *truth.value);
    CHECK(q->answer.values.size() == run.tokens[0].size());
}

TEST_CASE("what will the model predict: the top-1 and three distinct pieces of ranks 2–10, each with its probability") {
    const std::optional<core::Question> q = core::askQuestion(QuestionKind::NextToken, decoderRun(), {0, 0, std::nullopt, 3});
    REQUIRE(q);
    checkWellFormed(*q);
    CHECK(q->prompt == "What will attnviz-mini-llama predict after “…sat on the”?");  // words as typed, not "␣sat"
    const std::vector<float>& top = q->answer.values;  // the ten most likely, most likely first
    REQUIRE(top.size() == 10u);
    CHECK(*q->choices[static_cast<std::size_t>(q->truth)].value == top[0]);
    CHECK(q->choices[static_cast<std::size_t>(q->truth)].text == q->answer.labels[0]);
    for (int i = 0; i < 4; ++i) {
        if (i == q->truth) continue;
        const auto rank = std::find(q->answer.labels.begin() + 1, q->answer.labels.end(), q->choices[static_cast<std::size_t>(i)].text);
        CHECK(rank != q->answer.labels.end());  // one of ranks 2–10
    }
    // Another seed draws other distractors or another order.
    std::set<std::string> orders;
    for (std::uint64_t seed = 0; seed < 10; ++seed) {
        const core::Question asked = *core::askQuestion(QuestionKind::NextToken, decoderRun(), {0, 0, std::nullopt, seed});
        std::string order;
        for (const core::QuestionChoice& c : asked.choices) order += c.text + "|";
        orders.insert(order);
    }
    CHECK(orders.size() >= 8u);
}

TEST_CASE("the truth's place among the choices is uniform over 100 seeds (χ², p = 0.01), for every kind") {
    CHECK(truthPlaceChiSquare(QuestionKind::MostAttended, seededRun(), 4) < 11.34);
    CHECK(truthPlaceChiSquare(QuestionKind::Shape, seededRun(), 4) < 11.34);
    CHECK(truthPlaceChiSquare(QuestionKind::NextToken, decoderRun(), 4) < 11.34);
    CHECK(truthPlaceChiSquare(QuestionKind::SharedKeyValues, decoderRun(), 4) < 11.34);
    CHECK(truthPlaceChiSquare(QuestionKind::Scaling, seededRun(), 3) < 9.21);
    CHECK(truthPlaceChiSquare(QuestionKind::Mask, causalRun(), 4) < 11.34);
    CHECK(truthPlaceChiSquare(QuestionKind::WeightedSum, seededRun(), 4) < 11.34);
}

TEST_CASE("shapes come from this run's sizes: Q_i is l × d_k, S_i l × l, the concatenation l × h·d_v") {
    const core::ModelRun& run = seededRun();
    const int l = run.trace.queryLengths[0];
    const core::Dimensions& d = run.trace.dims;
    std::set<std::string> asked;
    for (std::uint64_t seed = 0; seed < 30; ++seed) {
        const core::Question q = *core::askQuestion(QuestionKind::Shape, run, {0, 1, std::nullopt, seed});
        const std::string truth = q.choices[static_cast<std::size_t>(q.truth)].text;
        CAPTURE(q.prompt);
        if (q.prompt.find("Q₁") != std::string::npos) CHECK(truth == std::to_string(l) + " × " + std::to_string(d.dK));
        else if (q.prompt.find("S₁") != std::string::npos) CHECK(truth == std::to_string(l) + " × " + std::to_string(l));
        else CHECK(truth == std::to_string(l) + " × " + std::to_string(d.heads * d.dV));
        asked.insert(q.prompt);
    }
    CHECK(asked.size() == 3u);
}

TEST_CASE("scaling by 1/√d_k < 1 always makes a row flatter: the truth is 'flatter', the entropies in the why") {
    for (int head = 0; head < seededRun().trace.dims.heads; ++head) {
        const core::Question q = *core::askQuestion(QuestionKind::Scaling, seededRun(), {0, head, std::nullopt, 5});
        checkWellFormed(q);
        CHECK(q.choices[static_cast<std::size_t>(q.truth)].text == "flatter (more even)");
        CHECK(core::entropyBits(q.answer.values) > core::entropyBits(q.answer.before));
        CHECK(q.why.find("bits") != std::string::npos);
    }
    CHECK(core::entropyBits({0.5f, 0.5f}) == doctest::Approx(1.0));
    CHECK(core::entropyBits({1.0f, 0.0f}) == 0.0);
}

TEST_CASE("the scaling question is not asked of a row that is one-hot with and without ÷√d_k (nothing to see)") {
    core::ModelRun bert = trainedRun("attnviz-mini-bert", "The animal didn't cross the street because it was too tired.");
    core::ModelSpec spec = bert.spec;
    spec.trained()->layer = 2;  // head 0: the coreference head, "it" -> animal 1.00
    const core::ModelRun coreference = core::runModel(spec);
    const core::QuestionSetting itRow{0, 0, std::nullopt, 5};
    const core::Question attended = *core::askQuestion(QuestionKind::MostAttended, coreference, itRow);
    REQUIRE(attended.answer.values.size() > 0);
    CHECK(*std::max_element(attended.answer.values.begin(), attended.answer.values.end()) > 0.99f);
    CHECK_FALSE(core::askQuestion(QuestionKind::Scaling, coreference, itRow));
    CHECK(core::askQuestion(QuestionKind::Scaling, coreference, {0, 1, std::nullopt, 5}));  // a head that spreads its weight
}

TEST_CASE("the shared K/V heads: query head i reads K/V head i / (h / h_kv), the repeat-not-interleave slip among the wrong ones") {
    const core::ModelRun& run = decoderRun();
    const core::Dimensions& d = run.trace.dims;
    REQUIRE(d.kvHeads < d.heads);
    for (std::uint64_t seed = 0; seed < 8; ++seed) {
        const core::Question q = *core::askQuestion(QuestionKind::SharedKeyValues, run, {0, 0, std::nullopt, seed});
        // The query heads whose K/V head is the one the prompt names, as the truth must list them.
        std::vector<int> sharing;
        for (int head = 0; head < d.heads; ++head) {
            if (q.prompt.ends_with("share K/V head " + std::to_string(core::keyValueHead(d, head)) + "?")) sharing.push_back(head);
        }
        REQUIRE(sharing.size() == static_cast<std::size_t>(d.heads / d.kvHeads));
        const std::string listed = sharing.size() >= 3 ? "heads " + std::to_string(sharing.front()) + "–" + std::to_string(sharing.back())
                                                       : "heads " + std::to_string(sharing[0]) + " and " + std::to_string(sharing[1]);
        CHECK(q.choices[static_cast<std::size_t>(q.truth)].text == listed);
        // Repeating K/V heads instead of interleaving them is among the wrong answers.
        std::string strided = "heads ";
        const int kv = core::keyValueHead(d, sharing[0]);
        for (int i = 0; i < d.heads / d.kvHeads; ++i) strided += (i == 0 ? "" : i + 1 == d.heads / d.kvHeads ? " and " : ", ") + std::to_string(kv + i * d.kvHeads);
        CHECK(std::count_if(q.choices.begin(), q.choices.end(), [&](const core::QuestionChoice& c) { return c.text == strided; }) == 1);
    }
}

TEST_CASE("reveal's sentence says the gap: the pick and its number beside the truth and its number") {
    core::Question q;
    q.valueName = "weight";
    q.choices = {{"street", 0.12f}, {"animal", 0.61f}, {"it", 0.05f}, {"tired", 0.2f}};
    q.truth = 1;
    CHECK(core::gapSentence(q, 0) == "You chose “street” (weight 0.12); the model put 0.61 on “animal”.");
    CHECK(core::gapSentence(q, 1) == "Right: “animal” (weight 0.61).");
    CHECK(core::gapSentence(q, std::nullopt) == "The answer: “animal” (weight 0.61).");
    q.choices = {{"11 × 16", std::nullopt}, {"16 × 11", std::nullopt}};
    q.truth = 0;
    CHECK(core::gapSentence(q, 1) == "You chose “16 × 11”; the answer is “11 × 16”.");
    CHECK(core::questionValueText(0.0031f) == "0.0031");
    CHECK(core::questionValueText(9.9e-16f) == "< 0.001");
}

namespace {

// The run's mask for batch element `batch` as a picture, read cell by cell (a 1 × l_k padding mask repeated down).
core::CellPicture maskAsPicture(const core::ModelRun& run, int batch) {
    const core::Tensor& mask = run.trace[core::TensorId::Mask];
    const int rows = run.trace.queryLength, cols = run.trace.keyLength, maskRows = mask.dim(2);
    core::CellPicture picture{rows, cols, {}};
    for (int i = 0; i < rows; ++i) {
        for (int j = 0; j < cols; ++j) {
            const float keep = mask.data[(static_cast<std::size_t>(batch) * maskRows + (maskRows == 1 ? 0 : i)) * cols + j];
            picture.removed.push_back(keep == 0.0f ? 1 : 0);
        }
    }
    return picture;
}

// Whether the run's mask hides key `j` from query `row` of batch element 0 (no mask: nothing hidden).
bool hidden(const core::ModelRun& run, int row, int j) {
    if (!run.trace.has(core::TensorId::Mask)) return false;
    return maskAsPicture(run, 0).isRemoved(row, j);
}

const core::QuestionChoice& truthOf(const core::Question& q) { return q.choices[static_cast<std::size_t>(q.truth)]; }

}  // namespace

TEST_CASE("which cells does the mask remove: the truth's picture is the run's mask cell for cell, the wrong ones plausible and distinct") {
    SUBCASE("causal: above the diagonal; the transposed mask and the diagonal slip among the wrong ones") {
        for (std::uint64_t seed = 0; seed < 8; ++seed) {
            const core::Question q = *core::askQuestion(QuestionKind::Mask, causalRun(), {0, 1, std::nullopt, seed});
            checkWellFormed(q);
            CHECK(q.prompt == "Which cells of the scores does the causal mask remove (rows: queries, columns: keys)?");
            CHECK(*truthOf(q).picture == maskAsPicture(causalRun(), 0));
            CHECK(truthOf(q).text == "above the diagonal");
            const int l = causalRun().trace.queryLength;
            int upper = 0;
            for (int i = 0; i < l; ++i) {
                for (int j = 0; j < l; ++j) upper += truthOf(q).picture->isRemoved(i, j) == (j > i);
            }
            CHECK(upper == l * l);  // independent of the mask tensor: j > i, nothing else
            CHECK(q.stage == core::StageId::Mask);
        }
        std::set<std::string> wrong;
        for (std::uint64_t seed = 0; seed < 40; ++seed) {
            const core::Question q = *core::askQuestion(QuestionKind::Mask, causalRun(), {0, 0, std::nullopt, seed});
            for (const core::QuestionChoice& c : q.choices) wrong.insert(c.text);
        }
        CHECK(wrong.count("below the diagonal") == 1);
        CHECK(wrong.count("the diagonal and above") == 1);
    }
    SUBCASE("padding: the shorter sentence's padded keys are the last columns, in every row") {
        const core::ModelRun run = seededRunWith(core::MaskKind::Padding, {"the cat sat on the mat", "the cat sat"});
        const core::Question q = *core::askQuestion(QuestionKind::Mask, run, {1, 0, std::nullopt, 3});
        checkWellFormed(q);
        const int padded = run.trace.keyLength - run.trace.keyLengths[1];
        REQUIRE(padded > 1);
        CHECK(truthOf(q).text == "the last " + std::to_string(padded) + " columns");
        CHECK(*truthOf(q).picture == maskAsPicture(run, 1));
        CHECK(q.why.find("padding") != std::string::npos);
        CHECK_FALSE(core::askQuestion(QuestionKind::Mask, run, {0, 0, std::nullopt, 3}));  // the longest sentence: nothing padded
    }
    SUBCASE("causal and padding, padded queries hidden too") {
        const core::ModelRun run = seededRunWith(core::MaskKind::Both, {"the cat sat on the mat", "the cat sat"}, true);
        const core::Question q = *core::askQuestion(QuestionKind::Mask, run, {1, 0, std::nullopt, 5});
        checkWellFormed(q);
        CHECK(*truthOf(q).picture == maskAsPicture(run, 1));
        CHECK(truthOf(q).text.find("above the diagonal") == 0);
        CHECK(truthOf(q).text.find("rows") != std::string::npos);
    }
}

TEST_CASE("Z for the query is closest to which word's V row: the truth is the V row of largest cosine, recomputed with plain loops") {
    for (const core::ModelRun* run : {&seededRun(), &decoderRun()}) {
        const core::Trace& t = run->trace;
        for (int head = 0; head < t.dims.heads; ++head) {
            const std::optional<core::Question> q = core::askQuestion(QuestionKind::WeightedSum, *run, {0, head, std::nullopt, 11});
            if (!q) continue;  // no word leads by 0.01: not asked
            checkWellFormed(*q);
            CAPTURE(q->prompt);
            const int row = core::followedQueryRow(*run, 0, head), kv = core::keyValueHead(t.dims, head), dV = t.dims.dV;
            // Batch 0's rows, by the tensors' row-major offsets: Z b × h × l_q × d_v, V b × h_kv × l_k × d_v.
            const float* z = t[core::TensorId::ZHeads].data.data() + (static_cast<std::ptrdiff_t>(head) * t.queryLength + row) * dV;
            const float* v = t[core::TensorId::VHeads].data.data() + static_cast<std::ptrdiff_t>(kv) * t.keyLength * dV;
            std::map<std::string, double> best;  // each word the query sees: its V row's largest cosine with Z's row
            for (int j = 0; j < t.keyLengths[0]; ++j) {
                if (hidden(*run, row, j)) continue;
                double dot = 0, zz = 0, vv = 0;
                for (int k = 0; k < dV; ++k) {
                    const double zk = z[k], vk = v[static_cast<std::ptrdiff_t>(j) * dV + k];
                    dot += zk * vk;
                    zz += zk * zk;
                    vv += vk * vk;
                }
                const std::string word = core::labelText(run->tokens[0][static_cast<std::size_t>(j)]);
                const double c = dot / std::sqrt(zz * vv);
                if (!best.count(word) || c > best[word]) best[word] = c;
            }
            const auto nearest = std::max_element(best.begin(), best.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
            CHECK(truthOf(*q).text == nearest->first);
            CHECK(*truthOf(*q).value == doctest::Approx(nearest->second).epsilon(1e-5));
            for (const core::QuestionChoice& c : q->choices) CHECK(*c.value == doctest::Approx(best.at(c.text)).epsilon(1e-5));
            CHECK(q->stage == core::StageId::WeightedSum);
            CHECK(q->why.find("cosine " + core::questionValueText(*truthOf(*q).value)) != std::string::npos);
        }
    }
    CHECK(core::askQuestion(QuestionKind::WeightedSum, seededRun(), {0, 0, std::nullopt, 0}));
}

namespace {

// tests/reference/make_typed_word_reference.py's float64 PyTorch forward of the bundled decoder: typed words' pieces
// (its own Python tokenizer), first-piece rank and probability at "…because it was too".
nlohmann::json typedWordReference() {
    std::ifstream in(fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/decoders/attnviz-mini-llama_typed_words.json");
    REQUIRE(in);
    return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("a typed word for the prediction: its pieces, its first piece's rank and probability are an independent float64 forward's") {
    const nlohmann::json reference = typedWordReference();
    const core::ModelRun run = trainedRun("attnviz-mini-llama", reference["sentence"].get<std::string>());
    const core::TrainedModel& model = *run.spec.trainedModel();
    for (const nlohmann::json& word : reference["words"]) {
        const std::string typed = word["word"].get<std::string>();
        CAPTURE(typed);
        const std::optional<core::TypedWordRank> rank = core::rankTypedWord(run, 0, "  " + typed + " ");  // spaces around: left out
        REQUIRE(rank);
        CHECK(rank->word == typed);
        const std::vector<int> ids = word["ids"].get<std::vector<int>>();
        REQUIRE(rank->pieces.size() == ids.size());
        for (std::size_t i = 0; i < ids.size(); ++i) CHECK(rank->pieces[i] == core::labelText(core::choiceLabel(*model.tokenizer, ids[i])));
        CHECK(rank->rank == word["rank"].get<int>());
        CHECK(rank->vocabulary == reference["vocabulary"].get<int>());
        CHECK(rank->probability == doctest::Approx(word["probability"].get<double>()).epsilon(2e-3));
    }
}

TEST_CASE("a typed word is ranked as the question's own answer row ranks it, for the decoder and for BERT's [MASK]") {
    // Named members, not a structured binding: the page's compiler (clang 14) cannot capture one in CAPTURE's lambda.
    for (const auto& modelAndSentence : {std::pair{"attnviz-mini-llama", "the cat sat on the mat and the dog sat on the"}, std::pair{"attnviz-mini-bert", "the cat sat on the [MASK] ."}}) {
        const char* model = modelAndSentence.first;
        const char* sentence = modelAndSentence.second;
        CAPTURE(model);
        const core::ModelRun run = trainedRun(model, sentence);
        const core::Question q = *core::askQuestion(QuestionKind::NextToken, run, {});
        int compared = 0;
        for (std::size_t k = 0; k < q.answer.labels.size(); ++k) {
            const std::string label = q.answer.labels[k];
            const std::string typed = label.rfind("␣", 0) == 0 ? label.substr(std::string("␣").size()) : label;  // "␣mat" is typed "mat"
            if (typed.empty() || typed.find("##") == 0 || typed.find('<') == 0) continue;  // a piece no one types alone
            CAPTURE(typed);
            const core::TypedWordRank rank = *core::rankTypedWord(run, 0, typed);
            if (rank.pieces.size() != 1 || rank.pieces[0] != label) continue;  // typed alone it is another piece
            CHECK(rank.rank == static_cast<int>(k) + 1);
            CHECK(rank.probability == doctest::Approx(q.answer.values[k]).epsilon(1e-5));
            ++compared;
        }
        CHECK(compared >= 3);
    }
    CHECK_FALSE(core::rankTypedWord(seededRun(), 0, "animal"));  // the seeded layer predicts nothing
    CHECK_FALSE(core::rankTypedWord(decoderRun(), 0, "   "));
}

TEST_CASE("a GPT-2 model is asked what it predicts and never which query heads share K/V: the truth is its most likely piece") {
    // A tiny random GPT-2 checkpoint in Hugging Face's names (its predictions checked against PyTorch in test_prediction;
    // its byte-level vocabulary has no merges for a space and a letter, so typed words are all ranked by "␣").
    const std::shared_ptr<const core::TrainedModel> gpt2 = io::loadModelFolder(fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models/gpt2-hf-names");
    REQUIRE(gpt2 != nullptr);
    core::ModelSpec spec;
    spec.model = core::TrainedLayer{gpt2};
    spec.sentences = {"a cat sat"};
    spec.attention.dModel = gpt2->config().dModel;
    spec.attention.heads = gpt2->config().heads;
    const core::ModelRun run = core::runModel(spec);
    const std::vector<QuestionKind> offered = core::offeredQuestions(run, {});
    CHECK(std::count(offered.begin(), offered.end(), QuestionKind::NextToken) == 1);
    CHECK(std::count(offered.begin(), offered.end(), QuestionKind::SharedKeyValues) == 0);
    const core::Question q = *core::askQuestion(QuestionKind::NextToken, run, {0, 0, std::nullopt, 3});
    checkWellFormed(q);
    REQUIRE(!q.answer.values.empty());
    CHECK(q.choices[static_cast<std::size_t>(q.truth)].text == q.answer.labels.front());
    CHECK(std::is_sorted(q.answer.values.rbegin(), q.answer.values.rend()));  // most likely first
    const core::TypedWordRank typed = *core::rankTypedWord(run, 0, "h");
    CHECK(typed.vocabulary == gpt2->config().vocabSize);
}

TEST_CASE("reveal's sentence for a typed word: its rank of the vocabulary and its probability, several pieces named as ranked by the first") {
    core::Question q;
    q.kind = QuestionKind::NextToken;
    q.choices = {{"␣hungry", 0.31f}, {"␣cold", 0.2f}, {"␣sad", 0.1f}, {".", 0.05f}};
    q.truth = 0;
    q.valueName = "probability";
    CHECK(core::typedGapSentence(q, {"tired", {"␣tired"}, 3, 2048, 0.081f}) ==
          "You typed “tired”: the model ranks it 3 of 2,048 (probability 8.1%); it put 31.0% on “␣hungry”.");
    CHECK(core::typedGapSentence(q, {"elephantine", {"␣ele", "phant", "ine"}, 1024, 2048, 6.5e-5f}) ==
          "You typed “elephantine” (3 pieces, ranked by the first, “␣ele”): the model ranks it 1,024 of 2,048 (probability 0.0065%); it put 31.0% on “␣hungry”.");
    CHECK(core::typedGapSentence(q, {"hungry", {"␣hungry"}, 1, 2048, 0.31f}) == "Right: you typed “hungry”, and the model ranks it 1 of 2,048 (probability 31.0%).");
}
