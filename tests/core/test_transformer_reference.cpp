// test_transformer_reference.cpp — trained GPT-2 and BERT passes against an independent PyTorch implementation
// (tests/reference/make_transformer_fixtures.py → tests/reference/models/), in the manner of llm.c's test_gpt2.c:
// every layer's hidden states and attention weights of each sentence of a ragged batch within atol 1e-4, read
// through io::loadTransformer from four folders (HuggingFace's and plain tensor names; F32, F16 and BF16 storage),
// which must therefore give the same numbers. Also: the stepped layer the app shows IS that layer of the pass (bit
// for bit), where its X comes from, what a bad id or layer gets, and runModel on a trained model end to end.
#include "core/model.h"
#include "io/checkpoint.h"
#include "io/dump.h"
#include "io/model_folder.h"
#include "io/npy.h"
#include "io/scratch_dir.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <iostream>

namespace {

namespace fs = std::filesystem;
using namespace attnviz;
using core::Tensor;

const fs::path kModels = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models";

std::vector<std::vector<int>> idsOf(const std::string& family) {
    std::ifstream in(kModels / (family + "_ids.json"));
    return nlohmann::json::parse(in).get<std::vector<std::vector<int>>>();
}

// The largest |ours − expected| over `expected`'s elements, where ours is the sub-block of `ours` at the same
// indices (ours is padded to the batch's longest sentence; expected is one unpadded sentence).
struct Comparison {
    double largest = 0.0;
    int compared = 0;
};

core::AttentionConfig configFor(const core::TransformerModel& model, bool ragged) {
    core::AttentionConfig config;
    config.dModel = model.config.dModel;
    config.heads = model.config.heads;
    const bool gpt2 = model.config.family == core::ModelFamily::Gpt2;
    config.mask = gpt2 ? (ragged ? core::MaskKind::Both : core::MaskKind::Causal) : (ragged ? core::MaskKind::Padding : core::MaskKind::None);
    return config;
}

// hidden: ours (n + 1) × b × l × d vs expected (n + 1) × l_b × d for sentence b.
Comparison compareHidden(const Tensor& ours, const Tensor& expected, int b) {
    Comparison c;
    const int layers = expected.dim(0), length = expected.dim(1), width = expected.dim(2), batch = ours.dim(1), padded = ours.dim(2);
    for (int i = 0; i < layers; ++i) {
        for (int t = 0; t < length; ++t) {
            for (int k = 0; k < width; ++k) {
                const float a = ours.data[((static_cast<std::size_t>(i) * batch + b) * padded + t) * width + k];
                const float e = expected.data[(static_cast<std::size_t>(i) * length + t) * width + k];
                c.largest = std::max(c.largest, static_cast<double>(std::abs(a - e)));
                ++c.compared;
            }
        }
    }
    return c;
}

// attention: ours n × b × h × l × l vs expected n × h × l_b × l_b.
Comparison compareAttention(const Tensor& ours, const Tensor& expected, int b) {
    Comparison c;
    const int layers = expected.dim(0), heads = expected.dim(1), length = expected.dim(2), batch = ours.dim(1), padded = ours.dim(3);
    for (int i = 0; i < layers; ++i) {
        for (int h = 0; h < heads; ++h) {
            for (int q = 0; q < length; ++q) {
                for (int k = 0; k < length; ++k) {
                    const std::size_t slice = (static_cast<std::size_t>(i) * batch + b) * heads + h;
                    const float a = ours.data[(slice * padded + q) * padded + k];
                    const float e = expected.data[((static_cast<std::size_t>(i) * heads + h) * length + q) * length + k];
                    c.largest = std::max(c.largest, static_cast<double>(std::abs(a - e)));
                    ++c.compared;
                }
            }
        }
    }
    return c;
}

void checkAgainstTorch(const std::string& folder, const std::string& family) {
    const core::TransformerModel model = io::loadTransformer(kModels / folder);
    core::checkTransformer(model);
    const auto ids = idsOf(family);
    const core::TransformerPass pass = core::runTransformer(model, ids, 1, configFor(model, true));
    for (int b = 0; b < static_cast<int>(ids.size()); ++b) {
        const Comparison hidden = compareHidden(pass.hiddenStates, io::readNpy(kModels / (family + "_hidden_" + std::to_string(b) + ".npy")), b);
        const Comparison attention = compareAttention(pass.attentionWeights, io::readNpy(kModels / (family + "_attention_" + std::to_string(b) + ".npy")), b);
        std::cout << folder << " sentence " << b << ": largest difference from PyTorch " << hidden.largest << " (hidden, "
                  << hidden.compared << " values), " << attention.largest << " (attention, " << attention.compared << ")\n";
        CHECK(hidden.compared > 0);
        CHECK(hidden.largest < 1e-4);
        CHECK(attention.largest < 1e-4);
    }
}

}  // namespace

TEST_CASE("GPT-2: every layer's hidden states and attention match PyTorch, with HuggingFace's names and in BF16") {
    checkAgainstTorch("gpt2-hf-names", "gpt2");
    checkAgainstTorch("gpt2-plain-bf16", "gpt2");
}

TEST_CASE("BERT: every layer's hidden states and attention match PyTorch, with gamma/beta names and in F16") {
    checkAgainstTorch("bert-original-names", "bert");
    checkAgainstTorch("bert-plain-f16", "bert");
}

TEST_CASE("the stepped layer is that layer of the pass, bit for bit, and its X is the residual stream") {
    for (const char* folder : {"gpt2-hf-names", "bert-original-names"}) {
        const core::TransformerModel model = io::loadTransformer(kModels / folder);
        const auto ids = idsOf(model.config.family == core::ModelFamily::Gpt2 ? "gpt2" : "bert");
        for (int layer : {0, 2}) {
            const core::TransformerPass pass = core::runTransformer(model, ids, layer, configFor(model, true));
            const Tensor& a = pass.steppedTrace[core::TensorId::AttentionWeights];
            REQUIRE(a.size() * 3 == pass.attentionWeights.size());
            CHECK(std::equal(a.data.begin(), a.data.end(), pass.attentionWeights.data.begin() + static_cast<std::ptrdiff_t>(layer * a.size())));
            const int length = static_cast<int>(ids[0].size());
            const core::Matrix h = pass.hiddenStates.slice(layer * 2).topRows(length);
            const core::Matrix expected = model.config.family == core::ModelFamily::Gpt2
                                              ? core::layerNorm(h, model.weights.blocks[static_cast<std::size_t>(layer)].ln1, model.config.layerNormEps)
                                              : h;
            CHECK(pass.steppedInput[0] == expected);
        }
    }
}

TEST_CASE("a bad id, an over-long sentence or a layer outside the model is an InputError") {
    const core::TransformerModel model = io::loadTransformer(kModels / "bert-plain-f16");
    const core::AttentionConfig config = configFor(model, false);
    CHECK_THROWS_WITH_AS(core::runTransformer(model, {{2, 64, 3}}, 0, config), doctest::Contains("outside the vocabulary"), core::InputError);
    CHECK_THROWS_WITH_AS(core::runTransformer(model, {std::vector<int>(17, 5)}, 0, config), doctest::Contains("positions for 16"), core::InputError);
    CHECK_THROWS_WITH_AS(core::runTransformer(model, {{2, 5, 3}}, 3, config), doctest::Contains("layers 0 to 2"), core::InputError);
    CHECK_THROWS_AS(core::runTransformer(model, {{}}, 0, config), core::InputError);
}

TEST_CASE("runModel on a trained model: its tokenizer, the stepped layer, a re-split, and a dump with every layer") {
    const std::shared_ptr<const core::TrainedModel> model = io::loadModelFolder(kModels / "bert-original-names");
    core::ModelSpec spec;
    spec.trained = model;
    spec.sentences = {"The cat sat.", "the cat"};
    spec.attention.heads = 4;
    spec.layer = 1;
    const core::ModelRun run = core::runModel(spec);
    CHECK(run.tokens[0] == std::vector<std::string>{"[CLS]", "the", "cat", "sat", ".", "[SEP]"});
    CHECK(run.tokenIds[0] == std::vector<int>{2, 57, 58, 59, 60, 3});
    CHECK(run.trace.mask == core::MaskKind::Padding);  // ragged batch: BERT's attention mask
    CHECK(run.trace[core::TensorId::X].dim(2) == 32);
    CHECK_FALSE(run.resplitHeads);
    spec.attention.heads = 2;
    const core::ModelRun resplit = core::runModel(spec);
    CHECK(resplit.resplitHeads);
    CHECK(resplit.trace.dims.dK == 16);
    CHECK(resplit.trace[core::TensorId::Q].data == run.trace[core::TensorId::Q].data);  // Q, K, V unchanged
    spec.cellEdits = {{core::TensorId::X, 0, 0, 0, 1.0f}};
    CHECK_THROWS_WITH_AS(core::runModel(spec), doctest::Contains("cannot be edited"), core::InputError);

    const test::ScratchDir dir("trained-dump");
    io::writeDump(run, dir / "run", false);
    CHECK(io::readNpy(dir / "run" / "hidden_states.npy").shape == std::vector<int>{4, 2, 6, 32});
    CHECK(io::readNpy(dir / "run" / "all_attention_weights.npy").shape == std::vector<int>{3, 2, 4, 6, 6});
    std::ifstream manifest(dir / "run" / "manifest.json");
    const nlohmann::json json = nlohmann::json::parse(manifest);
    CHECK(json["token_ids"][0] == nlohmann::json({2, 57, 58, 59, 60, 3}));
    CHECK(json["model"]["type"] == "bert");
    CHECK(json["model"]["layer"] == 1);
    CHECK(json["model"]["n_layers"] == 3);
}

TEST_CASE("one rule for empty input: an empty or whitespace-only sentence is refused the same way by every model") {
    std::vector<core::ModelSpec> specs(3);
    specs[1].trained = io::loadModelFolder(kModels / "bert-original-names");
    specs[2].trained = io::loadModelFolder(kModels / "gpt2-hf-names");
    for (core::ModelSpec& spec : specs) {
        if (spec.trained) spec.attention.heads = spec.trained->config().heads;
        for (const char* blank : {"", "   \t ", "\n\r\v", "\xE3\x80\x80"}) {  // the last: an ideographic space
            CAPTURE(blank);
            spec.sentences = {blank};
            CHECK_THROWS_WITH_AS(core::runModel(spec), core::kEmptySentenceMessage, core::InputError);
        }
    }
}

TEST_CASE("a weight near float32's limit: the pass stops at the first layer and head that overflow, named") {
    core::TransformerModel model = io::loadTransformer(kModels / "bert-plain-f16");
    const core::AttentionConfig config = configFor(model, false);
    CHECK_NOTHROW(core::runTransformer(model, {{2, 57, 58, 3}}, 0, config));
    // Column 9 of W^Q belongs to head 1 (d_k = 8): its queries, then its scores, overflow to ±inf and softmax to NaN.
    model.weights.blocks[1].attention.wq.col(9).setConstant(3e38f);
    CHECK_THROWS_WITH_AS(core::runTransformer(model, {{2, 57, 58, 3}}, 0, config),
                         doctest::Contains("The model overflows: layer 1, head 1 gives attention weights that are not finite"), core::InputError);
    model.weights.blocks[1].attention.wq.col(9).setZero();
    model.weights.blocks[0].mlpOut.col(0).setConstant(3e38f);  // output feature 0: a sum of 64 such products
    model.weights.blocks[0].mlpOutBias(0) = 3e38f;
    CHECK_THROWS_WITH_AS(core::runTransformer(model, {{2, 57, 58, 3}}, 0, config),
                         doctest::Contains("layer 0 (after its feed-forward part)"), core::InputError);
}
