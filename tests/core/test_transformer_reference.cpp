// test_transformer_reference.cpp — trained GPT-2, BERT and Llama-family passes against an independent PyTorch
// implementation (tests/reference/make_transformer_fixtures.py → tests/reference/models/, make_decoder_fixtures.py →
// tests/reference/decoders/: llama with GQA 8:2 and llama3 RoPE scaling, MQA in BF16, qwen2 biases + a sliding window
// on one layer + shards, qwen3 q/k norm + head_dim ≠ d_model / h in F16, mistral's window; and attnviz's bundled decoder
// against make_bundled_decoder_reference.py), in the manner of llm.c's test_gpt2.c:
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
const fs::path kDecoders = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/decoders";

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
    const bool gpt2 = model.config.family != core::ModelFamily::Bert;  // decoders: causal
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

// The pass of `folder` (under `root`, or `modelFolder` when given) on the ragged batch of `<family>_ids.json` (the
// decoders' shared ids.json) against `<family>_*.npy` under `root`.
core::TransformerPass checkAgainstTorch(const std::string& folder, const std::string& family, const fs::path& root = kModels,
                                        const fs::path& modelFolder = {}) {
    const core::TransformerModel model = io::loadTransformer(modelFolder.empty() ? root / folder : modelFolder);
    core::checkTransformer(model);
    std::ifstream in(root == kModels || !modelFolder.empty() ? root / (family + "_ids.json") : root / "ids.json");
    const auto ids = nlohmann::json::parse(in).get<std::vector<std::vector<int>>>();
    core::TransformerPass pass = core::runTransformer(model, ids, 1, configFor(model, true));
    for (int b = 0; b < static_cast<int>(ids.size()); ++b) {
        const Comparison hidden = compareHidden(pass.hiddenStates, io::readNpy(root / (family + "_hidden_" + std::to_string(b) + ".npy")), b);
        const Comparison attention = compareAttention(pass.attentionWeights, io::readNpy(root / (family + "_attention_" + std::to_string(b) + ".npy")), b);
        std::cout << folder << " sentence " << b << ": largest difference from PyTorch " << hidden.largest << " (hidden, "
                  << hidden.compared << " values), " << attention.largest << " (attention, " << attention.compared << ")\n";
        CHECK(hidden.compared > 0);
        CHECK(hidden.largest < 1e-4);
        CHECK(attention.largest < 1e-4);
    }
    return pass;
}

// A decoder folder of tests/reference/decoders: hidden states, attention, and the LM head's logits at every position.
core::TransformerPass checkDecoder(const std::string& folder, const fs::path& modelFolder = {}) {
    core::TransformerPass pass = checkAgainstTorch(folder, folder, kDecoders, modelFolder);
    const core::TransformerModel model = io::loadTransformer(modelFolder.empty() ? kDecoders / folder : modelFolder);
    const Tensor expected = io::readNpy(kDecoders / (folder + "_logits.npy"));  // l × vocab, sentence 0
    double largest = 0.0;
    for (int position = 0; position < expected.dim(0); ++position) {
        const core::RowVector logits = core::nextTokenLogits(model, pass, 0, position);
        REQUIRE(logits.size() == expected.dim(1));
        for (int v = 0; v < expected.dim(1); ++v) {
            largest = std::max(largest, static_cast<double>(std::abs(logits(v) - expected.data[static_cast<std::size_t>(position) * expected.dim(1) + v])));
        }
    }
    std::cout << folder << ": largest logit difference from PyTorch " << largest << "\n";
    CHECK(largest < 1e-4);
    return pass;
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

TEST_CASE("Llama (SmolLM, Llama 3): grouped-query 8:2 heads, llama3 RoPE scaling, head_dim 6, tied LM head") {
    const core::TransformerPass pass = checkDecoder("llama-gqa-llama3");
    const core::Trace& t = pass.steppedTrace;
    CHECK(t.dims.heads == 8);
    CHECK(t.dims.kvHeads == 2);
    CHECK(t[core::TensorId::KHeads].shape == std::vector<int>{2, 2, 7, 6});
    CHECK(t[core::TensorId::QHeads].shape == std::vector<int>{2, 8, 7, 6});
    CHECK(t[core::TensorId::WK].shape == std::vector<int>{48, 12});
    // The scores use the rotated heads; the unrotated ones are kept beside them, equal at position 0 only.
    REQUIRE(t.has(core::TensorId::QHeadsBeforeRope));
    REQUIRE(t[core::TensorId::KHeadsBeforeRope].shape == std::vector<int>{2, 2, 7, 6});
    const core::MatrixView before = t[core::TensorId::KHeadsBeforeRope].slice(0, 1), after = t[core::TensorId::KHeads].slice(0, 1);
    CHECK(before.row(0) == after.row(0));
    CHECK((before.row(3) - after.row(3)).norm() > 1e-3f);
    CHECK(std::abs(before.row(3).norm() - after.row(3).norm()) < 1e-5f);  // a rotation keeps the length
}

TEST_CASE("attnviz-mini-llama, the bundled decoder: every layer and the next-token logits match a float64 PyTorch forward") {
    // tests/reference/make_bundled_decoder_reference.py: make_decoder_fixtures.py's forward on the committed weights.
    checkDecoder("attnviz-mini-llama", fs::path(ATTNVIZ_SOURCE_DIR) / "assets/models/attnviz-mini-llama");
}

TEST_CASE("Llama with one K/V head (multi-query), its own lm_head, in BF16") {
    const core::TransformerPass pass = checkDecoder("llama-mqa-bf16");
    CHECK(pass.steppedTrace[core::TensorId::VHeads].dim(1) == 1);
}

TEST_CASE("Qwen2: q/k/v biases without b^O, a sliding window on layer 1 only, weights in two shards") {
    const core::TransformerModel model = io::loadTransformer(kDecoders / "qwen2-bias-window-sharded");
    CHECK(model.config.slidingWindows == std::vector<int>{0, 3});
    CHECK(model.weights.blocks[0].attention.bk.size() == 16);
    CHECK(model.weights.blocks[0].attention.bo.size() == 0);
    const core::TransformerPass pass = checkDecoder("qwen2-bias-window-sharded");
    // Layer 1 (stepped): query 6 sees keys 4, 5, 6 only.
    const core::MatrixView a = pass.steppedTrace[core::TensorId::AttentionWeights].slice(0, 0);
    CHECK(a(6, 3) == 0.0f);
    CHECK(a(6, 4) > 0.0f);
}

TEST_CASE("Qwen3: per-head q/k RMSNorm before RoPE, head_dim 12 × 4 heads ≠ d_model 32, in F16") {
    const core::TransformerPass pass = checkDecoder("qwen3-qknorm-headdim");
    CHECK(pass.steppedTrace[core::TensorId::Concat].dim(2) == 48);
    CHECK(pass.steppedTrace[core::TensorId::WO].shape == std::vector<int>{48, 32});
}

TEST_CASE("Mistral: a sliding window of 4 on every layer, shorter than the sentence") {
    checkDecoder("mistral-window");
}

TEST_CASE("the dtype the weights file stored is kept beside the float32 weights (the KV cache is counted in it)") {
    CHECK(io::loadTransformer(kDecoders / "llama-mqa-bf16").storedDtype == core::Dtype::BF16);
    CHECK(io::loadTransformer(kDecoders / "qwen3-qknorm-headdim").storedDtype == core::Dtype::F16);
    CHECK(io::loadTransformer(kDecoders / "qwen2-bias-window-sharded").storedDtype == core::Dtype::F32);  // over both shards
}

TEST_CASE("a decoder folder that attnviz does not compute is refused in one sentence") {
    const test::ScratchDir dir("decoder-configs");
    const auto refusal = [&](const std::string& key, const nlohmann::json& value) {
        std::ifstream in(kDecoders / "mistral-window" / "config.json");
        nlohmann::json config = nlohmann::json::parse(in);
        config[key] = value;
        fs::create_directories(dir / key);
        std::ofstream(dir / key / "config.json") << config.dump();
        try {
            io::readTransformerConfig(dir / key / "config.json");
        } catch (const io::FileError& error) {
            return std::string(error.what());
        }
        return std::string();
    };
    CHECK(refusal("rope_scaling", {{"rope_type", "yarn"}, {"factor", 4.0}}).find("\"yarn\"; attnviz computes plain RoPE") != std::string::npos);
    CHECK(refusal("hidden_act", "gelu").find("\"hidden_act\" is \"gelu\"") != std::string::npos);
    CHECK(refusal("num_key_value_heads", 3).find("do not divide the 4 attention heads") != std::string::npos);
    CHECK(refusal("partial_rotary_factor", 0.5).find("rotates whole heads only") != std::string::npos);
    CHECK(refusal("model_type", "gemma").find("opens gpt2, bert, llama, mistral, qwen2 and qwen3") != std::string::npos);
}

TEST_CASE("a shard index naming a path or a missing file is refused before any shard is read") {
    const test::ScratchDir dir("decoder-shards");
    const fs::path source = kDecoders / "qwen2-bias-window-sharded";
    const auto loadWithIndex = [&](const std::string& name, const std::string& shard) {
        const fs::path folder = dir / name;
        fs::create_directories(folder);
        for (const auto& entry : fs::directory_iterator(source)) fs::copy_file(entry.path(), folder / entry.path().filename());
        std::ifstream in(source / "model.safetensors.index.json");
        nlohmann::json index = nlohmann::json::parse(in);
        index["weight_map"]["model.norm.weight"] = shard;
        std::ofstream(folder / "model.safetensors.index.json") << index.dump();
        try {
            io::loadTransformer(folder);
        } catch (const io::FileError& error) {
            return std::string(error.what());
        }
        return std::string();
    };
    CHECK(loadWithIndex("path", "../model-00001-of-00002.safetensors").find("without a path") != std::string::npos);
    CHECK(loadWithIndex("absolute", "/etc/passwd").find("without a path") != std::string::npos);
    CHECK(loadWithIndex("missing", "model-00003-of-00002.safetensors").find("which is not in") != std::string::npos);
    std::ifstream in(source / "model.safetensors.index.json");
    const std::string holder = nlohmann::json::parse(in)["weight_map"]["model.norm.weight"];
    const std::string other = holder == "model-00001-of-00002.safetensors" ? "model-00002-of-00002.safetensors" : "model-00001-of-00002.safetensors";
    CHECK(loadWithIndex("wrong", other).find("which does not hold it") != std::string::npos);
    CHECK(loadWithIndex("right", holder).empty());
}

#ifndef __EMSCRIPTEN__  // `attnviz dump` is desktop-only: the page has no io::writeDump (docs/web.md)
TEST_CASE("dump --model of a decoder: every layer's hidden states, one attention map per query head, token ids") {
    const std::shared_ptr<const core::TrainedModel> model = io::loadModelFolder(kDecoders / "llama-gqa-llama3");
    CHECK(model->familyName() == "Llama");
    core::ModelSpec spec;
    spec.model = core::TrainedLayer{model};
    spec.sentences = {"the cat", "at the"};
    spec.trained()->layer = 1;
    const core::ModelRun run = core::runModel(spec);
    CHECK(run.trace.mask == (run.tokenIds[0].size() == run.tokenIds[1].size() ? core::MaskKind::Causal : core::MaskKind::Both));
    CHECK(run.trace.dims.kvHeads == 2);
    const test::ScratchDir dir("decoder-dump");
    io::writeDump(run, dir / "run", false);
    const int length = run.trace.keyLength;
    CHECK(io::readNpy(dir / "run" / "hidden_states.npy").shape == std::vector<int>{3, 2, length, 48});
    CHECK(io::readNpy(dir / "run" / "all_attention_weights.npy").shape == std::vector<int>{2, 2, 8, length, length});
    CHECK(io::readNpy(dir / "run" / "k_heads.npy").shape == std::vector<int>{2, 2, length, 6});
    CHECK(io::readNpy(dir / "run" / "k_heads_before_rope.npy").shape == std::vector<int>{2, 2, length, 6});
    CHECK_FALSE(fs::exists(dir / "run" / "b_q.npy"));
    std::ifstream manifest(dir / "run" / "manifest.json");
    const nlohmann::json json = nlohmann::json::parse(manifest);
    CHECK(json["token_ids"][0] == nlohmann::json(run.tokenIds[0]));
    CHECK(json["model"]["type"] == "llama");
    CHECK(json["model"]["config"]["kv_heads"] == 2);
}
#endif

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

#ifndef __EMSCRIPTEN__  // `attnviz dump` is desktop-only: the page has no io::writeDump (docs/web.md)
TEST_CASE("runModel on a trained model: its tokenizer, the stepped layer, a re-split, and a dump with every layer") {
    const std::shared_ptr<const core::TrainedModel> model = io::loadModelFolder(kModels / "bert-original-names");
    core::ModelSpec spec;
    spec.model = core::TrainedLayer{model};
    spec.sentences = {"The cat sat.", "the cat"};
    spec.attention.heads = 4;
    spec.trained()->layer = 1;
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
#endif

TEST_CASE("one rule for empty input: an empty or whitespace-only sentence is refused the same way by every model") {
    std::vector<core::ModelSpec> specs(3);
    specs[1].model = core::TrainedLayer{io::loadModelFolder(kModels / "bert-original-names")};
    specs[2].model = core::TrainedLayer{io::loadModelFolder(kModels / "gpt2-hf-names")};
    for (core::ModelSpec& spec : specs) {
        if (spec.trainedModel()) spec.attention.heads = spec.trainedModel()->config().heads;
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
    model.weights.blocks[0].mlpOut.editable().col(0).setConstant(3e38f);  // output feature 0: a sum of 64 such products
    model.weights.blocks[0].mlpOutBias(0) = 3e38f;
    CHECK_THROWS_WITH_AS(core::runTransformer(model, {{2, 57, 58, 3}}, 0, config),
                         doctest::Contains("layer 0 (after its feed-forward part)"), core::InputError);
}
