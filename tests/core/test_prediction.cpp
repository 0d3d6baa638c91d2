// test_prediction.cpp — what a trained model predicts, against an independent float64 PyTorch forward
// (tests/reference/make_prediction_fixtures.py → tests/reference/predictions/): the top ten next tokens with their
// probabilities at three temperatures for every decoder fixture and GPT-2 (tied to wte), BERT's masked-word head in
// the BertForMaskedLM layout; and the KV cache: a sentence grown one token at a time equals a full forward of the
// grown sentence (every layer's cached K and V rows, the final hidden row, the logits) within 1e-4.
#include "core/transformer/kv_cache.h"
#include "core/transformer/prediction.h"
#include "io/checkpoint.h"
#include "io/model_folder.h"
#include "io/npy.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <iostream>

namespace {

namespace fs = std::filesystem;
using namespace attnviz;

const fs::path kReference = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference";
const fs::path kPredictions = kReference / "predictions";
const std::vector<std::string> kDecoders{"llama-gqa-llama3", "llama-mqa-bf16", "qwen2-bias-window-sharded", "qwen3-qknorm-headdim", "mistral-window"};

nlohmann::json readJson(const fs::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

// Our top ten at every position and temperature against the reference's: the same ids in the same order (where the
// reference's probabilities are not tied within float rounding) and probabilities within 1e-5.
void checkTopTen(const core::TransformerModel& model, const core::TransformerPass& pass, const nlohmann::json& expected) {
    double largest = 0.0;
    int compared = 0;
    for (const auto& [temperature, positions] : expected.items()) {
        for (std::size_t position = 0; position < positions.size(); ++position) {
            const core::RowVector logits = core::predictionLogits(model, pass, 0, static_cast<int>(position));
            const std::vector<core::TokenChoice> ours = core::topTokens(logits, 10, std::stof(temperature));
            const nlohmann::json& theirs = positions[position];
            REQUIRE(ours.size() == theirs.size());
            for (std::size_t i = 0; i < ours.size(); ++i) {
                const double p = theirs[i]["probability"].get<double>();
                largest = std::max(largest, std::abs(ours[i].probability - p));
                const bool tied = (i > 0 && std::abs(theirs[i - 1]["probability"].get<double>() - p) < 1e-6) ||
                                  (i + 1 < theirs.size() && std::abs(theirs[i + 1]["probability"].get<double>() - p) < 1e-6);
                if (!tied) CHECK(ours[i].id == theirs[i]["id"].get<int>());
                ++compared;
            }
        }
    }
    std::cout << "top ten: " << compared << " probabilities, largest difference from PyTorch " << largest << "\n";
    CHECK(compared > 0);
    CHECK(largest < 1e-5);
}

std::vector<int> firstSentence(const fs::path& idsJson) { return readJson(idsJson)[0].get<std::vector<int>>(); }

// Grows ids[0..] one token at a time in a KV cache; after each, compares with the full forward of the prefix:
// every layer's cached keys and values (the stepped layer's rotated K heads, V heads) and the final hidden row.
double appendAgainstFullForward(const core::TransformerModel& model, const std::vector<int>& ids) {
    core::KvCache cache(model);
    double largest = 0.0;
    for (std::size_t n = 1; n <= ids.size(); ++n) {
        const core::RowVector& last = cache.append(model, ids[n - 1]);
        const std::vector<int> prefix(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n));
        for (int layer = 0; layer < model.config.layers; ++layer) {
            const core::TransformerPass pass = core::runTransformer(model, {prefix}, layer, core::modelAttention(model));
            const core::Trace& t = pass.steppedTrace;
            const int kvHeads = t.dims.kvHeads, dk = t.dims.dK, dv = t.dims.dV;
            for (int head = 0; head < kvHeads; ++head) {
                largest = std::max<double>(largest, (cache.keys(layer).middleCols(head * dk, dk) - t[core::TensorId::KHeads].slice(0, head)).cwiseAbs().maxCoeff());
                largest = std::max<double>(largest, (cache.values(layer).middleCols(head * dv, dv) - t[core::TensorId::VHeads].slice(0, head)).cwiseAbs().maxCoeff());
            }
            if (layer + 1 == model.config.layers) {
                const core::RowVector full = pass.hiddenStates.slice(model.config.layers).row(static_cast<Eigen::Index>(n) - 1);
                largest = std::max<double>(largest, (last - full).cwiseAbs().maxCoeff());
                largest = std::max<double>(largest, (core::nextTokenLogits(model, last) - core::nextTokenLogits(model, full)).cwiseAbs().maxCoeff());
            }
        }
    }
    return largest;
}

}  // namespace

TEST_CASE("Decoders: the top ten next tokens at temperatures 0.7, 1 and 2 match PyTorch at every position") {
    for (const std::string& name : kDecoders) {
        CAPTURE(name);
        const core::TransformerModel model = io::loadTransformer(kReference / "decoders" / name);
        CHECK(core::predictionKind(model) == core::PredictionKind::NextToken);
        const core::TransformerPass pass = core::runTransformer(model, {firstSentence(kReference / "decoders/ids.json")}, 0, core::modelAttention(model));
        checkTopTen(model, pass, readJson(kPredictions / (name + "_top10.json")));
    }
}

TEST_CASE("GPT-2: next-token logits through the tied token table match PyTorch, and so does the top ten") {
    const core::TransformerModel model = io::loadTransformer(kReference / "models/gpt2-hf-names");
    const core::TransformerPass pass = core::runTransformer(model, {firstSentence(kReference / "models/gpt2_ids.json")}, 0, core::modelAttention(model));
    const core::Tensor expected = io::readNpy(kPredictions / "gpt2_logits.npy");
    double largest = 0.0;
    for (int position = 0; position < expected.dim(0); ++position) {
        const core::RowVector logits = core::predictionLogits(model, pass, 0, position);
        for (int v = 0; v < expected.dim(1); ++v) largest = std::max<double>(largest, std::abs(logits(v) - expected.data[static_cast<std::size_t>(position * expected.dim(1) + v)]));
    }
    std::cout << "GPT-2 logits: largest difference from PyTorch " << largest << "\n";
    CHECK(largest < 1e-4);
    checkTopTen(model, pass, readJson(kPredictions / "gpt2_top10.json"));
}

TEST_CASE("BERT with cls.predictions.*: the masked-word head matches PyTorch's BertForMaskedLM — without it, nothing") {
    const core::TransformerModel model = io::loadTransformer(kPredictions / "bert-mlm");
    REQUIRE(model.weights.maskedLm.has_value());
    CHECK(core::predictionKind(model) == core::PredictionKind::MaskedWord);
    const std::vector<int> ids = readJson(kPredictions / "bert-mlm_ids.json").get<std::vector<int>>();
    const core::TransformerPass pass = core::runTransformer(model, {ids}, 0, core::modelAttention(model));
    const core::Tensor expected = io::readNpy(kPredictions / "bert-mlm_logits.npy");
    double largest = 0.0;
    for (int position = 0; position < expected.dim(0); ++position) {
        const core::RowVector logits = core::predictionLogits(model, pass, 0, position);
        for (int v = 0; v < expected.dim(1); ++v) largest = std::max<double>(largest, std::abs(logits(v) - expected.data[static_cast<std::size_t>(position * expected.dim(1) + v)]));
    }
    std::cout << "BERT masked-word logits: largest difference from PyTorch " << largest << "\n";
    CHECK(largest < 1e-4);
    checkTopTen(model, pass, readJson(kPredictions / "bert-mlm_top10.json"));

    // bert-base-uncased's file has a bare cls.predictions.bias beside other heads: no head, and one sentence why.
    const core::TransformerModel bare = io::loadTransformer(kReference / "models/bert-original-names");
    CHECK_FALSE(bare.weights.maskedLm.has_value());
    CHECK(core::predictionKind(bare) == core::PredictionKind::None);
    CHECK_THROWS_WITH_AS(core::predictionLogits(bare, pass, 0, 0), doctest::Contains("no masked-word head"), core::InputError);
}

TEST_CASE("The bundled model fills a [MASK] with its masked-word head") {
    const auto model = io::loadModelFolder(fs::path(ATTNVIZ_SOURCE_DIR) / "assets/models/attnviz-mini-bert");
    REQUIRE(core::predictionKind(model->transformer) == core::PredictionKind::MaskedWord);
    const core::Encoding encoding = model->tokenizer->encode("the cat sat on the [MASK] .");
    const core::TransformerPass pass = core::runTransformer(model->transformer, {encoding.ids}, 0, core::modelAttention(model->transformer));
    const auto mask = std::find(encoding.pieces.begin(), encoding.pieces.end(), "[MASK]");
    REQUIRE(mask != encoding.pieces.end());
    const std::vector<core::TokenChoice> top = core::topTokens(core::predictionLogits(model->transformer, pass, 0, static_cast<int>(mask - encoding.pieces.begin())), 10, 1.0f);
    REQUIRE(top.size() == 10);
    float sum = 0.0f;
    for (std::size_t i = 0; i < top.size(); ++i) {
        if (i > 0) CHECK(top[i].probability <= top[i - 1].probability);
        sum += top[i].probability;
    }
    CHECK(sum <= 1.0001f);
    CHECK(top[0].probability > 0.0f);
}

TEST_CASE("topTokens: the temperature sharpens or flattens the same order — bad temperatures are refused") {
    core::RowVector logits(5);
    logits << 1.0f, 3.0f, 2.0f, 3.0f, -1.0f;
    const std::vector<core::TokenChoice> cold = core::topTokens(logits, 3, 0.5f), hot = core::topTokens(logits, 3, 2.0f);
    CHECK(cold[0].id == 1);  // a tie: the lower id first
    CHECK(cold[1].id == 3);
    CHECK(cold[2].id == 2);
    CHECK(hot[2].id == 2);
    CHECK(cold[0].probability > hot[0].probability);
    CHECK(cold[2].probability < hot[2].probability);
    CHECK(core::topTokens(logits, 99, 1.0f).size() == 5);
    CHECK_THROWS_AS(core::topTokens(logits, 3, 0.0f), core::InputError);
    CHECK_THROWS_AS(core::topTokens(logits, 3, std::nanf("")), core::InputError);
    CHECK_THROWS_AS(core::topTokens(logits, 0, 1.0f), core::InputError);
}

TEST_CASE("KV cache: growing a sentence one token at a time equals the full forward of the grown sentence") {
    std::vector<int> ids = firstSentence(kReference / "decoders/ids.json");
    ids.insert(ids.end(), {12, 77, 1, 200, 31});  // 12 tokens: past every sliding window
    for (const std::string& name : kDecoders) {
        CAPTURE(name);
        const double largest = appendAgainstFullForward(io::loadTransformer(kReference / "decoders" / name), ids);
        std::cout << name << ": KV cache vs full forward, largest difference " << largest << "\n";
        CHECK(largest < 1e-4);
    }
    const core::TransformerModel gpt2 = io::loadTransformer(kReference / "models/gpt2-hf-names");
    const double largest = appendAgainstFullForward(gpt2, {5, 17, 42, 9, 100, 3, 255, 7, 8});
    std::cout << "gpt2-hf-names: KV cache vs full forward, largest difference " << largest << "\n";
    CHECK(largest < 1e-4);
}

TEST_CASE("KV cache: the appended logits match PyTorch's — truncating and regrowing gives the same rows — refusals") {
    const core::TransformerModel model = io::loadTransformer(kReference / "decoders/qwen3-qknorm-headdim");
    const std::vector<int> ids = firstSentence(kReference / "decoders/ids.json");
    const core::Tensor expected = io::readNpy(kReference / "decoders/qwen3-qknorm-headdim_logits.npy");
    core::KvCache cache(model);
    double largest = 0.0;
    for (std::size_t p = 0; p < ids.size(); ++p) {
        const core::RowVector logits = core::nextTokenLogits(model, cache.append(model, ids[p]));
        for (int v = 0; v < expected.dim(1); ++v) largest = std::max<double>(largest, std::abs(logits(v) - expected.data[p * static_cast<std::size_t>(expected.dim(1)) + v]));
    }
    CHECK(largest < 1e-4);
    CHECK(cache.length() == 7);
    CHECK(cache.keys(1).rows() == 7);
    CHECK(cache.keys(1).cols() == 2 * 12);  // h_kv · d_k
    const core::Matrix keys = cache.keys(1);
    cache.truncate(4);
    CHECK(cache.ids() == std::vector<int>(ids.begin(), ids.begin() + 4));
    for (std::size_t p = 4; p < ids.size(); ++p) cache.append(model, ids[p]);
    CHECK(core::Matrix(cache.keys(1)) == keys);
    CHECK_THROWS_WITH_AS(cache.append(model, 262), doctest::Contains("outside the vocabulary"), core::InputError);
    CHECK(cache.length() == 7);
    CHECK_THROWS_WITH_AS(core::KvCache(io::loadTransformer(kPredictions / "bert-mlm")), doctest::Contains("no KV cache"), core::InputError);
    core::KvCache full = core::prefilledCache(model, std::vector<int>(static_cast<std::size_t>(model.config.maxPositions), 1));
    CHECK_THROWS_WITH_AS(full.append(model, 1), doctest::Contains("positions for 32"), core::InputError);
}

TEST_CASE("pieceText: the text a vocabulary piece stands for, to append to a sentence") {
    CHECK(core::pieceText("\xc4\xa0" "cat") == " cat");    // byte-level BPE: Ġ is the space
    CHECK(core::pieceText("\xc4\x8a") == "\n");             // Ċ is the newline
    CHECK(core::pieceText("\xc3\xa9t\xc3\xa9") == "\xc3\xa9t\xc3\xa9");  // été in SentencePiece stays itself
    CHECK(core::pieceText("\xc3\x83\xc2\xa9") == "\xc3\xa9");  // Ã© byte-level: the bytes of é
    CHECK(core::pieceText("\xe2\x96\x81the") == " the");   // SentencePiece's ▁
    CHECK(core::pieceText("<0x0A>") == "\n");
    CHECK(core::pieceText("<0xE2>").empty());               // one byte of a character
    CHECK(core::pieceText("\xc3\xa2\xc4\xa2").empty());     // âĢ: bytes E2 80, half of a character
    CHECK(core::pieceText("##ing") == "ing");
    CHECK(core::pieceText("cat") == "cat");
}
