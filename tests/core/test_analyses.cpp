// test_analyses.cpp — issue 35's analyses against independent float64 PyTorch references
// (tests/reference/make_analysis_fixtures.py → tests/reference/analyses/) on the tiny GPT-2, BERT (with its
// masked-word head) and Llama (GQA, llama3 RoPE) fixtures: heads switched off (zeroed / meaned before the output
// projection) give every layer's hidden states within 1e-4, and the logit lens every log-probability within 1e-4;
// resuming a pass from the first changed layer gives runTransformer's numbers bit for bit; and the head_detector
// patterns, rollout and the ablation parser's core checks on hand-made inputs.
#include "core/head_measures.h"
#include "core/model.h"
#include "core/transformer/logit_lens.h"
#include "core/transformer/rollout.h"
#include "io/checkpoint.h"
#include "io/dump.h"
#include "io/model_folder.h"
#include "io/npy.h"
#include "io/scratch_dir.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>

namespace {

namespace fs = std::filesystem;
using namespace attnviz;

const fs::path kReference = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference";
const fs::path kAnalyses = kReference / "analyses";

struct Fixture {
    std::string name;  // the analyses/ file prefix
    fs::path folder;   // the model folder
};
const std::vector<Fixture> kFixtures{{"gpt2", kReference / "models/gpt2-hf-names"},
                                     {"bert-mlm", kReference / "predictions/bert-mlm"},
                                     {"llama-gqa-llama3", kReference / "decoders/llama-gqa-llama3"}};

nlohmann::json readJson(const fs::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

std::vector<core::HeadAblation> ablationsOf(const nlohmann::json& heads, core::HeadOffMode mode) {
    std::vector<core::HeadAblation> ablations;
    for (const auto& pair : heads) ablations.push_back({pair[0].get<int>(), pair[1].get<int>(), mode});
    return ablations;
}

// The largest |ours − expected| over (n + 1) × l × d hidden states of one sentence (ours: (n + 1) × 1 × l × d).
double largestHiddenDifference(const core::Tensor& ours, const core::Tensor& expected) {
    REQUIRE(ours.size() == expected.size());
    double largest = 0.0;
    for (std::size_t i = 0; i < ours.size(); ++i) largest = std::max(largest, static_cast<double>(std::abs(ours.data[i] - expected.data[i])));
    return largest;
}

}  // namespace

TEST_CASE("Heads switched off (zeroed or meaned before W^O) give PyTorch's hidden states at every layer, GPT-2, BERT and Llama") {
    for (const Fixture& fixture : kFixtures) {
        CAPTURE(fixture.name);
        const core::TransformerModel model = io::loadTransformer(fixture.folder);
        const std::vector<int> ids = readJson(kAnalyses / (fixture.name + "_ids.json")).get<std::vector<int>>();
        const nlohmann::json heads = readJson(kAnalyses / (fixture.name + "_ablations.json"));
        const core::TransformerPass intact = core::runTransformer(model, {ids}, 0, core::modelAttention(model));
        // Named members, not a structured binding: the page's compiler (clang 14) cannot capture one in CAPTURE's lambda.
        for (const auto& modeEntry : {std::pair{"zero", core::HeadOffMode::Zero}, std::pair{"mean", core::HeadOffMode::Mean}}) {
            const std::string modeName = modeEntry.first;
            const core::HeadOffMode mode = modeEntry.second;
            CAPTURE(modeName);
            const core::Tensor expected = io::readNpy(kAnalyses / (fixture.name + "_ablated_" + modeName + "_hidden.npy"));
            const core::TransformerPass ablated = core::runTransformer(model, {ids}, 0, core::modelAttention(model), {}, ablationsOf(heads[modeName], mode));
            const double largest = largestHiddenDifference(ablated.hiddenStates, expected);
            std::cout << fixture.name << " heads off (" << modeName << "): largest hidden-state difference from PyTorch " << largest << "\n";
            CHECK(largest < 1e-4);
            CHECK(largestHiddenDifference(intact.hiddenStates, expected) > 1e-2);  // switching them off changes the run
        }
    }
}

TEST_CASE("Resuming a pass from the first layer whose heads changed gives runTransformer's numbers, bit for bit") {
    const core::TransformerModel model = io::loadTransformer(kReference / "models/gpt2-hf-names");
    const std::vector<std::vector<int>> ids{{5, 17, 42, 9, 100, 3, 255}, {7, 8, 250, 261}};  // a ragged batch
    core::AttentionConfig config = core::modelAttention(model);
    config.mask = core::MaskKind::Both;
    const std::vector<core::HeadAblation> before{{0, 1, core::HeadOffMode::Zero}};
    const std::vector<core::HeadAblation> after{{0, 1, core::HeadOffMode::Zero}, {2, 3, core::HeadOffMode::Mean}};
    CHECK(core::firstDifferentLayer(before, after, 3) == 2);
    CHECK(core::firstDifferentLayer(after, after, 3) == 3);
    CHECK(core::firstDifferentLayer({{1, 0, core::HeadOffMode::Zero}}, {{1, 0, core::HeadOffMode::Mean}}, 3) == 1);
    for (int stepped : {0, 2}) {
        CAPTURE(stepped);
        const core::TransformerPass previous = core::runTransformer(model, ids, stepped, config, {}, before);
        const core::TransformerPass whole = core::runTransformer(model, ids, stepped, config, {}, after);
        const core::TransformerPass resumed = core::resumeTransformer(model, ids, stepped, config, {}, previous, before, after);
        CHECK(resumed.hiddenStates.data == whole.hiddenStates.data);
        CHECK(resumed.attentionWeights.data == whole.attentionWeights.data);
        CHECK(resumed.steppedTrace[core::TensorId::Output].data == whole.steppedTrace[core::TensorId::Output].data);
        CHECK(resumed.hiddenStates.data != previous.hiddenStates.data);
    }
}

TEST_CASE("Switching off a head the model does not have is one clear sentence — the spec compares its heads") {
    const core::TransformerModel model = io::loadTransformer(kReference / "models/gpt2-hf-names");
    CHECK_THROWS_WITH_AS(core::runTransformer(model, {{5, 17}}, 0, core::modelAttention(model), {}, {{3, 0, core::HeadOffMode::Zero}}),
                         "There is no head 3.0 to switch off: the model has layers 0 to 2 and heads 0 to 3.", core::InputError);
    CHECK_THROWS_AS(core::runTransformer(model, {{5, 17}}, 0, core::modelAttention(model), {}, {{0, 4, core::HeadOffMode::Zero}}), core::InputError);
    core::ModelSpec a, b;
    b.headsOff = {{6, 3, core::HeadOffMode::Zero}};
    CHECK_FALSE(a == b);
    a.headsOff = {{6, 3, core::HeadOffMode::Mean}};
    CHECK_FALSE(a == b);
    a.headsOff = b.headsOff;
    CHECK(a == b);
    CHECK_THROWS_WITH_AS(core::runModel(b), doctest::Contains("needs a trained model"), core::InputError);
}

TEST_CASE("The logit lens matches HF output_hidden_states -> final norm -> LM head (BERT: the masked-word head), never normed twice") {
    for (const Fixture& fixture : kFixtures) {
        CAPTURE(fixture.name);
        const core::TransformerModel model = io::loadTransformer(fixture.folder);
        const std::vector<int> ids = readJson(kAnalyses / (fixture.name + "_ids.json")).get<std::vector<int>>();
        const int length = static_cast<int>(ids.size());
        const core::TransformerPass pass = core::runTransformer(model, {ids}, 0, core::modelAttention(model));
        const core::Tensor expected = io::readNpy(kAnalyses / (fixture.name + "_lens_logprobs.npy"));  // (n + 1) × l × vocab
        const core::Tensor ours = core::logitLensLogProbs(model, pass, 0, length);
        REQUIRE(ours.shape == expected.shape);
        const double largest = largestHiddenDifference(ours, expected);
        std::cout << fixture.name << " logit lens: largest log-probability difference from PyTorch " << largest << "\n";
        CHECK(largest < 1e-4);
        const int k = 3, vocab = model.config.vocabSize;
        const core::LensTop top = core::logitLensTop(model, pass, 0, length, k);
        for (int row = 0; row < (model.config.layers + 1) * length; ++row) {
            const float* theirs = expected.data.data() + static_cast<std::size_t>(row) * vocab;
            for (int i = 0; i < k; ++i) {
                const int id = static_cast<int>(top.ids.data[static_cast<std::size_t>(row * k + i)]);
                CHECK(std::abs(top.logProbs.data[static_cast<std::size_t>(row * k + i)] - theirs[id]) < 1e-4);
                if (i > 0) CHECK(top.logProbs.data[static_cast<std::size_t>(row * k + i)] <= top.logProbs.data[static_cast<std::size_t>(row * k + i - 1)]);
            }
            CHECK(std::abs(top.logProbs.data[static_cast<std::size_t>(row * k)] - *std::max_element(theirs, theirs + vocab)) < 1e-4);
        }
    }
}

TEST_CASE("The lens grid: each row's top token and the probability it gives the final prediction, as PyTorch's lens has them") {
    for (const Fixture& fixture : kFixtures) {
        CAPTURE(fixture.name);
        const core::TransformerModel model = io::loadTransformer(fixture.folder);
        const std::vector<int> ids = readJson(kAnalyses / (fixture.name + "_ids.json")).get<std::vector<int>>();
        const int length = static_cast<int>(ids.size()), rows = model.config.layers + 1, vocab = model.config.vocabSize;
        const core::TransformerPass pass = core::runTransformer(model, {ids}, 0, core::modelAttention(model));
        const core::Tensor expected = io::readNpy(kAnalyses / (fixture.name + "_lens_logprobs.npy"));  // (n + 1) × l × vocab
        const core::LensAgreement lens = core::logitLensAgreement(model, pass, 0, length);
        REQUIRE(lens.topIds.rows() == rows);
        REQUIRE(lens.topIds.cols() == length);
        const auto theirRow = [&](int row, int position) { return expected.data.data() + (static_cast<std::size_t>(row) * length + position) * vocab; };
        int layersDisagreeing = 0;
        for (int position = 0; position < length; ++position) {
            const float* last = theirRow(rows - 1, position);
            const int finalTop = static_cast<int>(std::max_element(last, last + vocab) - last);
            for (int row = 0; row < rows; ++row) {
                const float* theirs = theirRow(row, position);
                const int ours = static_cast<int>(lens.topIds(row, position));
                CHECK(theirs[ours] >= *std::max_element(theirs, theirs + vocab) - 1e-4f);  // ours is PyTorch's top (or tied within 1e-4)
                CHECK(std::abs(lens.finalLogProbs(row, position) - theirs[finalTop]) < 1e-4);
                if (ours != finalTop) ++layersDisagreeing;
            }
            CHECK(static_cast<int>(lens.topIds(rows - 1, position)) == finalTop);
        }
        CHECK(layersDisagreeing > 0);  // the early layers predict something else: the grid is not one word repeated
    }
}

TEST_CASE("Attention rollout: ½A + ½I with A head-averaged, rows renormalised, multiplied layer by layer") {
    // 2 layers × 1 sentence × 2 heads × 2 × 2, causal maps.
    core::Tensor attention({2, 1, 2, 2, 2});
    attention.data = {1, 0, 0.5f, 0.5f, /* head 1 */ 1, 0, 0.9f, 0.1f, /* layer 1 */ 1, 0, 0.2f, 0.8f, 1, 0, 0.6f, 0.4f};
    const core::Tensor rollout = core::attentionRollout(attention, 0, 2);
    // Layer 0: mean A = [[1, 0], [0.7, 0.3]]; ½A + ½I = [[1, 0], [0.35, 0.65]] (rows sum to 1 already).
    CHECK(rollout.slice(0)(1, 0) == doctest::Approx(0.35));
    CHECK(rollout.slice(0)(1, 1) == doctest::Approx(0.65));
    // Layer 1: mean A = [[1, 0], [0.4, 0.6]] → Ã = [[1, 0], [0.2, 0.8]]; R_1 = Ã R_0: row 1 = 0.2·[1, 0] + 0.8·[0.35, 0.65].
    CHECK(rollout.slice(1)(1, 0) == doctest::Approx(0.2 + 0.8 * 0.35));
    CHECK(rollout.slice(1)(1, 1) == doctest::Approx(0.8 * 0.65));
    CHECK(rollout.slice(1)(0, 0) == doctest::Approx(1.0));
}

TEST_CASE("head_detector's patterns and 'mul' score, and first-token and self in the same form") {
    const std::vector<int> ids{7, 3, 9, 3, 9};
    const core::Matrix previous = core::detectionPattern(core::HeadRole::PreviousToken, ids);
    CHECK(previous.sum() == 4.0f);
    CHECK(previous(3, 2) == 1.0f);
    const core::Matrix duplicate = core::detectionPattern(core::HeadRole::DuplicateToken, ids);
    CHECK(duplicate.sum() == 2.0f);  // 3 at 3 → 1, 9 at 4 → 2
    CHECK(duplicate(3, 1) == 1.0f);
    CHECK(duplicate(4, 2) == 1.0f);
    const core::Matrix induction = core::detectionPattern(core::HeadRole::Induction, ids);
    CHECK(induction.sum() == 2.0f);  // the token after the earlier copy: 3 at 3 → 2, 9 at 4 → 3
    CHECK(induction(3, 2) == 1.0f);
    CHECK(induction(4, 3) == 1.0f);
    CHECK(core::detectionPattern(core::HeadRole::FirstToken, ids).col(0).sum() == 5.0f);
    CHECK(core::detectionPattern(core::HeadRole::Self, ids).trace() == 5.0f);
    // A uniform causal map: Σ(A ⊙ P) / ΣA with ΣA = l.
    core::Matrix uniform = core::Matrix::Zero(5, 5);
    for (int q = 0; q < 5; ++q) uniform.row(q).head(q + 1).setConstant(1.0f / static_cast<float>(q + 1));
    CHECK(core::detectorScore(uniform, previous) == doctest::Approx((1.0 / 2 + 1.0 / 3 + 1.0 / 4 + 1.0 / 5) / 5));
    CHECK(core::detectorScore(uniform, induction) == doctest::Approx((1.0 / 4 + 1.0 / 5) / 5));
}

TEST_CASE("Head roles: the repeated random tokens are two copies framed by the tokenizer's specials — every head is scored") {
    const core::TransformerModel model = io::loadTransformer(kReference / "models/gpt2-hf-names");
    const std::vector<int> ids{5, 17, 42, 9, 100};
    const core::TransformerPass pass = core::runTransformer(model, {ids}, 0, core::modelAttention(model));
    std::vector<int> repeated{11, 12, 13, 11, 12, 13};
    const core::HeadRoles roles = core::headRoles(model, pass.attentionWeights, 0, ids, repeated);
    for (core::HeadRole role : core::kHeadRoles) {
        const core::Matrix& scores = roles.scores[static_cast<std::size_t>(role)];
        CHECK(scores.rows() == model.config.layers);
        CHECK(scores.cols() == model.config.heads);
        CHECK(scores.minCoeff() >= 0.0f);
        CHECK(scores.maxCoeff() <= 1.0f + 1e-6f);
    }
    // Every causal row gives its first key some weight, and row 0 all of it: first-token ≥ 1/l.
    CHECK(roles.scores[static_cast<std::size_t>(core::HeadRole::FirstToken)].minCoeff() >= 1.0f / 5.0f);
    CHECK(roles.repeatedAttention.dim(3) == 6);
}

TEST_CASE("rerunHeadsOff: a trained run with other heads off, from the first changed layer, is runModel's bit for bit") {
    core::ModelSpec spec;
    spec.model = core::TrainedLayer{io::loadModelFolder(kReference / "models/gpt2-hf-names"), 1};
    spec.sentences = {"cat sat", "a dog"};
    spec.attention.heads = 4;  // the model's own (8 would re-split the stepped layer)
    spec.headsOff = {{2, 1, core::HeadOffMode::Zero}};
    const core::ModelRun previous = core::runModel(spec);
    for (const std::vector<core::HeadAblation>& next : {std::vector<core::HeadAblation>{{2, 1, core::HeadOffMode::Mean}},    // after the stepped layer
                                                        std::vector<core::HeadAblation>{{0, 3, core::HeadOffMode::Zero}}}) {  // before it
        core::ModelSpec changed = spec;
        changed.headsOff = next;
        const core::ModelRun whole = core::runModel(changed);
        const core::ModelRun resumed = core::rerunHeadsOff(previous, changed);
        CHECK(resumed.spec == changed);
        CHECK(resumed.modelPass->hiddenStates.data == whole.modelPass->hiddenStates.data);
        CHECK(resumed.modelPass->attentionWeights.data == whole.modelPass->attentionWeights.data);
        CHECK(resumed.trace[core::TensorId::Output].data == whole.trace[core::TensorId::Output].data);
        CHECK(resumed.modelPass->hiddenStates.data != previous.modelPass->hiddenStates.data);
    }
}

TEST_CASE("repeatedRandomTokens: the same random ids twice, none special and none twice in a half, framed as the tokenizer frames text") {
    const auto bert = io::loadModelFolder(kReference / "predictions/bert-mlm");
    const std::vector<int> sequence = core::repeatedRandomTokens(*bert->tokenizer, bert->config().vocabSize, 6, 35);
    const core::Encoding framing = bert->tokenizer->encode("a");
    REQUIRE(sequence.size() == 2 + 12);
    CHECK(sequence.front() == framing.ids.front());  // [CLS]
    CHECK(sequence.back() == framing.ids.back());    // [SEP]
    const std::vector<int> first(sequence.begin() + 1, sequence.begin() + 7), second(sequence.begin() + 7, sequence.end() - 1);
    CHECK(first == second);
    std::vector<int> sorted = first;
    std::sort(sorted.begin(), sorted.end());
    CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
    for (int id : first) CHECK((id != framing.ids.front() && id != framing.ids.back()));
    CHECK(core::repeatedRandomTokens(*bert->tokenizer, bert->config().vocabSize, 6, 35) == sequence);  // seeded
    const auto gpt2 = io::loadModelFolder(kReference / "models/gpt2-hf-names");
    CHECK(core::repeatedRandomTokens(*gpt2->tokenizer, gpt2->config().vocabSize, 5, 35).size() == 10);  // no framing
}

#ifndef __EMSCRIPTEN__  // `attnviz dump` is desktop-only: the page has no io::writeDump (docs/web.md)
TEST_CASE("dump: every logit-lens log-probability over the cap is refused before anything is written, the size said") {
    core::ModelSpec spec;
    spec.model = core::TrainedLayer{io::loadModelFolder(kReference / "decoders/llama-gqa-llama3"), 0};
    spec.sentences = {"the cat"};
    const core::ModelRun run = core::runModel(spec);
    const int length = static_cast<int>(run.tokenIds[0].size());
    const std::uint64_t bytes = static_cast<std::uint64_t>(3) * length * 262 * 4;  // (n_layers + 1) × b × l × vocab floats
    io::AnalysisOptions lens;
    lens.logitLens = true;
    lens.maxLensBytes = bytes - 1;
    const test::ScratchDir scratch("lens-cap");
    const fs::path dir = scratch / "dump";
    CHECK_THROWS_WITH_AS(io::writeDump(run, dir, false, {.logits = true}, {}, lens),
                         ("Every logit-lens log-probability would take " + std::to_string(bytes) + " bytes (0 MiB), more than the 0 MiB a dump "
                          "writes: leave out --logits (the top k are still written) or use a shorter sentence.").c_str(),
                         core::InputError);
    CHECK_FALSE(fs::exists(dir));
    lens.maxLensBytes = bytes;  // at the cap: written
    CHECK_NOTHROW(io::writeDump(run, dir, false, {.logits = true}, {}, lens));
    CHECK(io::readNpy(dir / "logit_lens_logprobs.npy").shape == std::vector<int>{3, 1, length, 262});
}
#endif
