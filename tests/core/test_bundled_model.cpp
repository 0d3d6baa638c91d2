// test_bundled_model.cpp — what attnviz's own small model (assets/models/attnviz-tiny-bert, trained by
// tools/train/train_bundled_model.py) must show, read from the committed files through the app's own loader,
// tokenizer and forward pass, on sentences the training never saw (tests/data/bundled_model/, written by the
// training script beside the figures its independent NumPy forward measured):
//   1. the Illustrated Transformer's figure: the coreference head's row for "it" peaks on "animal" in the default
//      sentence, on "street" with "wide";
//   2. on 240 held-out sentences the referent outweighs the other noun in at least 90% (half of them use words no
//      coreference sentence had in training);
//   3. the other catalogued heads do their named job: mean weight on the expected key as the NumPy forward found.
#include "core/model.h"
#include "io/model_folder.h"

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
    spec.trained = bundled();
    spec.sentences = {sentence};
    spec.attention.dModel = bundled()->config().dModel;
    spec.attention.heads = bundled()->config().heads;
    spec.layer = layer;
    return core::runModel(spec);
}

// Head `head`'s weights (one sentence) as a matrix.
core::Matrix attentionOf(const core::ModelRun& run, int head) { return run.trace[core::TensorId::AttentionWeights].slice(0, head); }

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

nlohmann::json figures() {
    std::ifstream in(kData / "figures.json");
    return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("the bundled model: it → animal when tired, it → street when wide") {
    CHECK(itLooksAt(std::string(core::kDefaultSentence)) == "animal");
    CHECK(itLooksAt("The animal didn't cross the street because it was too wide") == "street");
    CHECK(bundled()->featuredHead()->name.find("coreference") != std::string::npos);
}

TEST_CASE("the bundled model: on held-out sentences the referent outweighs the other noun in at least 90%") {
    const core::NamedHead& coref = namedHead("coreference");
    std::ifstream in(kData / "coreference_heldout.tsv");
    std::string line;
    std::getline(in, line);  // the header
    int total = 0, right = 0;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string sentence, referent, other;
        std::getline(fields, sentence, '\t');
        std::getline(fields, referent, '\t');
        std::getline(fields, other, '\t');
        const core::ModelRun run = runOn(sentence, coref.layer);
        const core::Matrix a = attentionOf(run, coref.head);
        const int it = positionOf(run, "it");
        right += a(it, positionOf(run, referent)) > a(it, positionOf(run, other)) ? 1 : 0;
        ++total;
    }
    std::cout << "coreference head on held-out sentences: referent above the other noun in " << right << " of " << total << "\n";
    CHECK(total >= 200);
    CHECK(right >= total * 9 / 10);
    CHECK(std::abs(right - figures()["coreference_referent_above_other"].get<int>()) <= 2);  // as the NumPy forward found
}

TEST_CASE("the bundled model: the other catalogued heads do their named job on held-out text") {
    std::vector<std::string> sentences;
    std::ifstream in(kData / "plain_heldout.txt");
    for (std::string line; std::getline(in, line);) sentences.push_back(line);
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
    CHECK(checked >= 2);
}

TEST_CASE("bundled model: stage words say what X is for this model, for the screen and the exports alike") {
    const core::ModelRun run = runOn("the cat sat", 1);
    const core::StageWords embed = core::stageWords(run, core::StageId::Embed);
    CHECK(embed.formula.find("X = h_1") != std::string::npos);
    CHECK(embed.formula.find("+ PE") == std::string::npos);  // the seeded layer's sinusoidal E[ids] + PE is not this model's X
    CHECK(embed.pytorch.find("1 x 5 x 64") != std::string::npos);  // [CLS] the cat sat [SEP]: shapes substituted
    const core::StageWords tokens = core::stageWords(run, core::StageId::Tokens);
    CHECK(tokens.formula.find("WordPiece") != std::string::npos);
    // Stages the trained model has no words of its own for keep the stage's.
    CHECK(core::stageWords(run, core::StageId::Softmax).formula == std::string(core::stage(core::StageId::Softmax).formula));
    const core::ModelRun seeded = core::runModel(core::ModelSpec{});
    CHECK(core::stageWords(seeded, core::StageId::Embed).formula == std::string(core::stage(core::StageId::Embed).formula));
}
