// test_checkpoint.cpp — safetensors files and model folders, good and bad: every damaged file is one FileError
// naming the file, the tensor and what is wrong, never a crash (the fuzz target fuzz_safetensors does the same at
// random). The files are written here byte by byte, so each defect is exactly the one named.
#include "io/checkpoint.h"
#include "io/model_folder.h"
#include "io/memory_budget.h"
#include "io/model_library.h"
#include "io/safe_read.h"
#include "io/safetensors.h"
#include "io/scratch_dir.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <future>
#include <limits>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace attnviz;

const fs::path kModels = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models";
const fs::path kDecoders = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/decoders";

std::string withLength(const std::string& header, const std::string& data) {
    std::string file(8, '\0');
    std::uint64_t length = header.size();
    for (int i = 0; i < 8; ++i) file[static_cast<std::size_t>(i)] = static_cast<char>((length >> (8 * i)) & 0xFF);
    return file + header + data;
}

std::span<const std::byte> bytesOf(const std::string& text) { return {reinterpret_cast<const std::byte*>(text.data()), text.size()}; }

std::string refusal(const std::string& file) {
    try {
        io::parseSafetensorsHeader(bytesOf(file), "bad.safetensors");
    } catch (const io::FileError& error) {
        return error.what();
    }
    return "no error";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string floats(std::initializer_list<float> values) {
    std::string bytes(values.size() * 4, '\0');
    std::memcpy(bytes.data(), std::data(values), bytes.size());
    return bytes;
}

// A copy of a fixture model folder to damage.
fs::path copyOf(const test::ScratchDir& dir, const std::string& fixture) {
    fs::copy(kModels / fixture, dir / fixture, fs::copy_options::recursive);
    return dir / fixture;
}

}  // namespace

TEST_CASE("safetensors: F16 and BF16 become float32 exactly, subnormals, infinities and NaN included") {
    const auto decode = [](std::initializer_list<std::uint16_t> raw, const char* dtype) {
        std::string bytes;
        for (std::uint16_t v : raw) bytes += std::string{static_cast<char>(v & 0xFF), static_cast<char>(v >> 8)};
        return io::decodeTensor(bytesOf(bytes), dtype, "t");
    };
    const std::vector<float> half = decode({0x3C00, 0xC000, 0x0001, 0x8400, 0x7C00, 0x7E00, 0x0000, 0x7BFF}, "F16");
    CHECK(half[0] == 1.0f);
    CHECK(half[1] == -2.0f);
    CHECK(half[2] == std::ldexp(1.0f, -24));  // the smallest subnormal half
    CHECK(half[3] == -std::ldexp(1.0f, -14));
    CHECK(half[4] == std::numeric_limits<float>::infinity());
    CHECK(std::isnan(half[5]));
    CHECK(half[6] == 0.0f);
    CHECK(half[7] == 65504.0f);
    const std::vector<float> bf16 = decode({0x3F80, 0xC040, 0x7F80, 0x0001}, "BF16");
    CHECK(bf16[0] == 1.0f);
    CHECK(bf16[1] == -3.0f);
    CHECK(bf16[2] == std::numeric_limits<float>::infinity());
    CHECK(bf16[3] == std::ldexp(1.0f, -133));
    CHECK_THROWS_WITH_AS(io::decodeTensor(bytesOf("12345678"), "I64", "w"), doctest::Contains("I64"), io::FileError);
}

TEST_CASE("safetensors: every damaged layout is refused with what is wrong") {
    const std::string good = withLength(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})", floats({1, 2}));
    CHECK(io::parseSafetensorsHeader(bytesOf(good), "good").at("a").elementCount() == 2);
    CHECK(contains(refusal("abc"), "too short"));
    CHECK(contains(refusal(good.substr(0, good.size() - 4)), "truncated"));
    CHECK(contains(refusal(withLength(std::string(20, ' '), "").substr(0, 12)), "has only"));  // header past the end
    std::string huge = good;
    huge[6] = 1;  // a length of 2^48
    CHECK(contains(refusal(huge), "more than 100 MB"));
    CHECK(contains(refusal(withLength("{not json", "")), "not valid JSON"));
    CHECK(contains(refusal(withLength("[1, 2]", "")), "not a JSON object"));
    CHECK(contains(refusal(withLength(R"({"a": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 8]}})", floats({1, 2}))), "need 16"));
    CHECK(contains(refusal(withLength(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                                          "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}})", floats({1, 2, 3}))), "overlap"));
    CHECK(contains(refusal(withLength(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [8, 0]}})", floats({1, 2}))), "end before"));
    CHECK(contains(refusal(withLength(R"({"a": {"dtype": "Q4", "shape": [2], "data_offsets": [0, 8]}})", floats({1, 2}))), "unknown dtype \"Q4\""));
    CHECK(contains(refusal(withLength(R"({"a": {"dtype": "F32", "shape": [-2], "data_offsets": [0, 8]}})", floats({1, 2}))), "whole number"));
    CHECK(contains(refusal(withLength(R"({"a": {"dtype": "F32", "shape": [2]}})", floats({1, 2}))), "data_offsets"));
    CHECK(contains(refusal(withLength(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})", floats({1, 2}))), "no error"));
}

TEST_CASE("checkpoint: a damaged model folder is one clear error naming the file and the tensor") {
    const test::ScratchDir dir("checkpoint");
    SUBCASE("truncated weights") {
        const fs::path model = copyOf(dir, "gpt2-plain-bf16");
        fs::resize_file(model / "model.safetensors", fs::file_size(model / "model.safetensors") - 100);
        CHECK_THROWS_WITH_AS(io::loadTransformer(model), doctest::Contains("truncated"), io::FileError);
    }
    SUBCASE("a shape the config does not imply") {
        const fs::path model = copyOf(dir, "bert-plain-f16");
        std::string config = "{\"model_type\": \"bert\", \"num_hidden_layers\": 3, \"hidden_size\": 32, \"num_attention_heads\": 4, "
                             "\"intermediate_size\": 128, \"max_position_embeddings\": 16, \"vocab_size\": 64}";
        std::ofstream(model / "config.json") << config;
        CHECK_THROWS_WITH_AS(io::loadTransformer(model), doctest::Contains("intermediate.dense.weight\" is 64 × 32 but config.json implies 128 × 32"), io::FileError);
    }
    SUBCASE("a GPT-2 attention variant attnviz does not compute") {
        const fs::path model = copyOf(dir, "gpt2-plain-bf16");
        std::ofstream(model / "config.json") << R"({"model_type": "gpt2", "n_layer": 3, "n_embd": 32, "n_head": 4, "n_positions": 16,
                                                   "vocab_size": 262, "scale_attn_weights": false})";
        CHECK_THROWS_WITH_AS(io::loadTransformer(model), doctest::Contains("\"scale_attn_weights\": false"), io::FileError);
    }
    SUBCASE("a missing tensor") {
        const fs::path model = copyOf(dir, "gpt2-plain-bf16");
        std::ofstream(model / "config.json") << R"({"model_type": "gpt2", "n_layer": 4, "n_embd": 32, "n_head": 4, "n_positions": 16, "vocab_size": 262})";
        CHECK_THROWS_WITH_AS(io::loadTransformer(model), doctest::Contains("no tensor \"transformer.h.3.ln_1.weight\""), io::FileError);
    }
    SUBCASE("a NaN weight") {
        const fs::path model = copyOf(dir, "gpt2-hf-names");
        std::fstream file(model / "model.safetensors", std::ios::in | std::ios::out | std::ios::binary);
        const auto entries = io::SafetensorsFile(model / "model.safetensors").entries();
        char length[8];
        file.read(length, 8);
        std::uint64_t header = 0;
        for (int i = 7; i >= 0; --i) header = header << 8 | static_cast<unsigned char>(length[i]);
        file.seekp(static_cast<std::streamoff>(8 + header + entries.at("transformer.ln_f.bias").begin + 4));
        const float nan = std::numeric_limits<float>::quiet_NaN();
        file.write(reinterpret_cast<const char*>(&nan), 4);
        file.close();
        CHECK_THROWS_WITH_AS(io::loadTransformer(model), doctest::Contains("\"transformer.ln_f.bias\" holds NaN at index 1"), io::FileError);
    }
    SUBCASE("an unknown model_type, a .bin only, a missing tokenizer file") {
        const fs::path model = copyOf(dir, "bert-plain-f16");
        fs::remove(model / "vocab.txt");
        CHECK(contains(io::checkModelFolder(model), "lacks the tokenizer's vocab.txt"));
        CHECK_THROWS_WITH_AS(io::loadModelFolder(model), doctest::Contains("vocab.txt"), io::FileError);
        fs::rename(model / "model.safetensors", model / "pytorch_model.bin");
        CHECK(contains(io::checkModelFolder(model), "has only pytorch_model.bin"));
        CHECK(contains(io::checkModelFolder(model), "torch.load('pytorch_model.bin'"));
        // The hint runs no pickled code: PyTorch loads tensors only (issue 31).
        CHECK(contains(io::checkModelFolder(model), "map_location='cpu',weights_only=True)"));
        std::ofstream(model / "config.json") << R"({"model_type": "gemma"})";
        // Built from the family table: every family it holds is named, Mistral and Qwen2 too.
        CHECK(contains(io::checkModelFolder(model), "\"gemma\" model; attnviz opens GPT-2 (model_type gpt2), BERT (bert), Llama (llama), "
                                                    "Mistral (mistral), Qwen2 (qwen2) and Qwen3 (qwen3)."));
        CHECK(contains(io::checkModelFolder(dir / "nowhere"), "is not a folder"));
    }
}

TEST_CASE("checkpoint: GPT-2's c_attn splits by columns into W^Q, W^K, W^V — BERT's Linear weights are transposed") {
    const core::TransformerModel gpt2 = io::loadTransformer(kModels / "gpt2-plain-bf16");
    const io::SafetensorsFile gpt2File(kModels / "gpt2-plain-bf16" / "model.safetensors");
    const core::Matrix attn = gpt2File.matrix("h.1.attn.c_attn.weight");  // d × 3d, in × out
    CHECK(gpt2.weights.blocks[1].attention.wq == attn.leftCols(32));
    CHECK(gpt2.weights.blocks[1].attention.wk == attn.middleCols(32, 32));
    CHECK(gpt2.weights.blocks[1].attention.wv == attn.rightCols(32));
    const core::TransformerModel bert = io::loadTransformer(kModels / "bert-original-names");
    const io::SafetensorsFile bertFile(kModels / "bert-original-names" / "model.safetensors");
    const core::Matrix intermediate = bertFile.matrix("bert.encoder.layer.2.intermediate.dense.weight");  // out × in: 64 × 32
    REQUIRE(intermediate.rows() == 64);
    CHECK(bert.weights.blocks[2].mlpIn == intermediate.transpose());
    CHECK(bert.weights.blocks[0].ln1.gamma == bertFile.matrix("bert.encoder.layer.0.attention.output.LayerNorm.gamma"));
    // Both naming variants and storage dtypes give the same numbers.
    CHECK(io::loadTransformer(kModels / "bert-plain-f16").weights.blocks[2].mlpIn.dense() == bert.weights.blocks[2].mlpIn.dense());
}

TEST_CASE("checkpoint: F32 MLP weights stay in the mapped file — a file cut short on disk then reads as zeros, not SIGBUS") {
    const test::ScratchDir dir("cut-short");
    const fs::path folder = copyOf(dir, "bert-original-names");
    const core::TransformerModel bert = io::loadTransformer(folder);
    const core::LinearWeight& weight = bert.weights.blocks[2].mlpIn;
    REQUIRE(weight.isMapped());
    const io::SafetensorsFile file(folder / "model.safetensors");
    CHECK(weight == core::Matrix(file.matrix("bert.encoder.layer.2.intermediate.dense.weight").transpose()));
    CHECK_FALSE(file.cutShort());
    fs::resize_file(folder / "model.safetensors", 8);  // as a save in place ("wb") leaves it for a moment
    CHECK(weight.dense().isZero());  // each read past the new end would have raised SIGBUS
    CHECK(file.matrix("bert.encoder.layer.2.intermediate.dense.weight").isZero());
    CHECK(file.cutShort());
    CHECK(io::anyMappedFileCutShort());  // what the app's notice asks
}

namespace {

// The byte of `file` where `tensor`'s values start (after the 8-byte length and the header).
std::uintmax_t tensorStart(const fs::path& file, const std::string& tensor) {
    const io::SafetensorsFile stored(file);
    std::uint64_t bufferSize = 0;
    for (const auto& [name, entry] : stored.entries()) bufferSize = std::max(bufferSize, entry.end);
    return fs::file_size(file) - bufferSize + stored.entries().at(tensor).begin;
}

}  // namespace

TEST_CASE("checkpoint: an F32 token table (the tied LM head) stays in the mapped file — cut short under it, it reads as zeros, not SIGBUS") {
    const test::ScratchDir dir("cut-table");
    fs::copy(kDecoders / "llama-gqa-llama3", dir / "llama", fs::copy_options::recursive);
    const fs::path file = dir / "llama" / "model.safetensors";
    const core::Matrix original = io::SafetensorsFile(file).matrix("model.embed_tokens.weight");  // 262 × 48
    io::ModelLibrary library;
    const std::shared_ptr<const core::TrainedModel> first = library.openNow(dir / "llama");
    const core::TransformerWeights& w = first->transformer.weights;
    REQUIRE(w.tokenEmbeddings.isMapped());
    CHECK(w.lmHead.size() == 0);  // tied: nextTokenLogits multiplies by the mapped table
    CHECK(w.tokenEmbeddings == core::WeightMatrix(original));
    CHECK_FALSE(io::loadTransformer(kDecoders / "llama-mqa-bf16").weights.tokenEmbeddings.isMapped());  // BF16: widened
    CHECK_FALSE(io::weightsCutShort(first->transformer));
    CHECK(library.openNow(dir / "llama") == first);  // held: shared, not read again

    fs::resize_file(file, tensorStart(file, "model.embed_tokens.weight"));  // the table and all after it are gone
    CHECK(w.tokenEmbeddings.row(261).isZero());  // a page wholly past the new end: SIGBUS without the guard
    CHECK(w.tokenEmbeddings.view().isZero());
    CHECK(io::weightsCutShort(first->transformer));
    // Opened again, the folder is read again rather than the held zeros shared: the cut file is refused in a
    // sentence, and once whole again it gives the stored values.
    CHECK_THROWS_WITH_AS(library.openNow(dir / "llama"), doctest::Contains("model.safetensors"), io::FileError);
    fs::copy_file(kDecoders / "llama-gqa-llama3" / "model.safetensors", dir / "llama" / "saved.safetensors");
    fs::rename(dir / "llama" / "saved.safetensors", file);
    const std::shared_ptr<const core::TrainedModel> again = library.openNow(dir / "llama");
    CHECK(again != first);
    CHECK(again->transformer.weights.tokenEmbeddings == core::WeightMatrix(original));
    CHECK_FALSE(io::weightsCutShort(again->transformer));
}

TEST_CASE("heads.json: entries are checked against the model's layers and heads") {
    core::TransformerConfig config;
    config.layers = 2;
    config.heads = 4;
    const auto heads = io::parseNamedHeads(R"([{"name": "previous token", "layer": 0, "head": 3, "what": "looks back"}])", config, "heads.json");
    REQUIRE(heads.size() == 1);
    CHECK(heads[0].head == 3);
    CHECK_THROWS_WITH_AS(io::parseNamedHeads(R"([{"name": "x", "layer": 2, "head": 0, "what": "y"}])", config, "heads.json"),
                         doctest::Contains("layer 2, but the model's are 0 to 1"), io::FileError);
    CHECK_THROWS_WITH_AS(io::parseNamedHeads(R"([{"name": "x", "layer": 0, "head": "0", "what": "y"}])", config, "heads.json"),
                         doctest::Contains("\"head\" as a whole number"), io::FileError);
    CHECK_THROWS_AS(io::parseNamedHeads("{", config, "heads.json"), io::FileError);
}

TEST_CASE("safetensors: a shape whose size overflows 64 bits is refused, not wrapped around") {
    CHECK(contains(refusal(withLength(R"({"a": {"dtype": "F32", "shape": [1099511627776, 1099511627776], "data_offsets": [0, 8]}})",
                                      floats({1, 2}))),
                   "overflows 64 bits"));
}

// [SECTION] hostile folders: files that are not files, files too large, files that cannot be read

namespace {

// `load`'s error message, or "loaded" — or "blocked" when it has not returned within 5 s (a FIFO opened the old
// way blocks forever: the thread is left behind so the test can fail instead of hanging).
std::string outcomeWithin5s(std::function<void()> load) {
    auto done = std::make_shared<std::promise<std::string>>();
    std::future<std::string> outcome = done->get_future();
    std::thread([done, load = std::move(load)] {
        try {
            load();
            done->set_value("loaded");
        } catch (const io::FileError& error) {
            done->set_value(error.what());
        } catch (const std::exception& error) {
            done->set_value(std::string("unexpected: ") + error.what());
        }
    }).detach();
    if (outcome.wait_for(std::chrono::seconds(5)) != std::future_status::ready) return "blocked";
    return outcome.get();
}

std::string openingError(const fs::path& model) {
    return outcomeWithin5s([model] { io::loadModelFolder(model); });
}

fs::path bundledCopy(const test::ScratchDir& dir) {
    fs::copy(fs::path(ATTNVIZ_SOURCE_DIR) / "assets/models/attnviz-mini-bert", dir / "model", fs::copy_options::recursive);
    return dir / "model";
}

void replaceWithFifo(const fs::path& file) {
    fs::remove(file);
    REQUIRE(::mkfifo(file.c_str(), 0644) == 0);
}

}  // namespace

TEST_CASE("hostile folders: a FIFO, a device or a folder in place of any file is refused by name, without blocking") {
    const test::ScratchDir dir("hostile");
    for (const char* name : {"config.json", "model.safetensors", "vocab.txt", "tokenizer_config.json", "heads.json", "README.md"}) {
        CAPTURE(name);
        const fs::path model = bundledCopy(dir);
        replaceWithFifo(model / name);
        const std::string error = openingError(model);
        CHECK(contains(error, name));
        CHECK(contains(error, "is a FIFO (named pipe), not a file"));
        fs::remove(model / name);
        fs::create_symlink("/dev/zero", model / name);
        CHECK(contains(openingError(model), "is a character device, not a file"));
        fs::remove(model / name);
        fs::create_directory(model / name);
        CHECK(contains(openingError(model), "is a folder, not a file"));
        fs::remove_all(model);
    }
    const fs::path gpt2 = copyOf(dir, "gpt2-hf-names");
    for (const char* name : {"vocab.json", "merges.txt"}) {
        CAPTURE(name);
        fs::rename(gpt2 / name, dir / "kept");
        replaceWithFifo(gpt2 / name);
        CHECK(contains(openingError(gpt2), "is a FIFO (named pipe), not a file"));
        fs::remove(gpt2 / name);
        fs::rename(dir / "kept", gpt2 / name);
    }
}

TEST_CASE("hostile folders: symlinks are followed (Hugging Face snapshots link into blobs/)") {
    const test::ScratchDir dir("symlinked");
    const fs::path model = bundledCopy(dir);
    fs::create_directory(dir / "blobs");
    for (const char* name : {"config.json", "model.safetensors", "vocab.txt", "heads.json"}) {
        fs::rename(model / name, dir / "blobs" / name);
        fs::create_symlink(dir / "blobs" / name, model / name);
    }
    CHECK(openingError(model) == "loaded");
}

TEST_CASE("hostile folders: each text file has a size cap — a README over its cap is left out, not fatal") {
    const test::ScratchDir dir("oversized");
    const fs::path model = bundledCopy(dir);
    fs::resize_file(model / "README.md", io::kMaxReadmeBytes + 1);
    const auto opened = io::loadModelFolder(model);
    CHECK(opened->card.empty());
    const std::string config = io::readWholeFile(model / "config.json");
    std::ofstream(model / "config.json") << config << std::string(io::kMaxConfigBytes, ' ');
    CHECK(contains(openingError(model), "config.json' is 4.0 MB; a file of its kind is at most 4.0 MB"));
    std::ofstream(model / "config.json") << config;
    fs::resize_file(model / "heads.json", io::kMaxConfigBytes + 1);
    CHECK(contains(openingError(model), "heads.json' is 4.0 MB; a file of its kind is at most 4.0 MB"));
}

TEST_CASE("hostile folders: an unreadable config.json says so, distinct from a missing one") {
    const test::ScratchDir dir("unreadable");
    const fs::path model = bundledCopy(dir);
    fs::permissions(model / "config.json", fs::perms::none);
    if (::geteuid() == 0) {
        MESSAGE("running as root: chmod 000 does not deny reading, so the permission case is skipped");
    } else {
        const std::string error = openingError(model);
        CHECK(contains(error, "Permission denied"));
        CHECK_FALSE(contains(error, "has no config.json"));
    }
    fs::permissions(model / "config.json", fs::perms::owner_read | fs::perms::owner_write);
    fs::permissions(model, fs::perms::owner_read);  // the folder lists but cannot be entered
    if (::geteuid() != 0) {
        CHECK(contains(io::checkModelFolder(model), "Permission denied"));
    }
    fs::permissions(model, fs::perms::owner_all);
    fs::remove(model / "config.json");
    CHECK(contains(io::checkModelFolder(model), "has no config.json"));
}

// [SECTION] hostile folders: deep JSON, control characters and megabytes in what messages echo

namespace {

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

void writeFile(const fs::path& path, const std::string& bytes) { std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes; }

// A config.json's text with one more member (JSON keeps the last of repeated keys, as nlohmann reads them).
std::string withMember(std::string config, const std::string& key, const std::string& valueJson) {
    config.erase(config.rfind('}'));
    return config + ", \"" + key + "\": " + valueJson + "}";
}

}  // namespace

TEST_CASE("hostile folders: JSON nested 10^5 deep in any file is refused before anything recurses") {
    const test::ScratchDir dir("deep");
    const fs::path model = bundledCopy(dir);
    const std::string config = io::readWholeFile(model / "config.json");
    writeFile(model / "config.json", R"({"model_type": "bert", "hidden_size": )" + nested(100'000) + "}");
    CHECK(contains(openingError(model), "config.json: its JSON nests deeper than 64 levels"));
    writeFile(model / "config.json", withMember(config, "hidden_size", nested(60)));  // shallow enough to parse
    CHECK(contains(openingError(model), "\"hidden_size\" must be a whole number from 1 (got a list of 1)"));
    writeFile(model / "config.json", config);
    writeFile(model / "heads.json", nested(100'000));
    CHECK(contains(openingError(model), "heads.json: its JSON nests deeper than 64 levels"));
    writeFile(model / "heads.json", "[]");
    writeFile(model / "tokenizer_config.json", R"({"do_lower_case": )" + nested(100'000) + "}");
    CHECK(contains(openingError(model), "tokenizer_config.json: its JSON nests deeper than 64 levels"));
    const fs::path gpt2 = copyOf(dir, "gpt2-hf-names");
    writeFile(gpt2 / "vocab.json", R"({"a": )" + nested(100'000) + "}");
    CHECK(contains(openingError(gpt2), "vocab.json: its JSON nests deeper than 64 levels"));
    CHECK(contains(refusal(withLength(R"({"a": )" + nested(100'000) + "}", "")), "nests deeper than 64 levels"));
    // Brackets inside strings are text, not nesting.
    CHECK(contains(refusal(withLength(R"({"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[": 1})", "")), "is not described by a JSON object"));
}

TEST_CASE("hostile folders: names and values from files are cut to 80 characters and escaped in every message") {
    const std::string evil = "\x1b]0;owned\x07\x1b[2J";
    const std::string evilJson = R"(\u001b]0;owned\u0007\u001b[2J)";  // `evil` as a JSON string writes it
    const std::string tensorMessage = refusal(withLength("{\"" + evilJson + std::string(1'000'000, 'n') + R"(": {"dtype": "F32"}})", ""));
    CHECK(tensorMessage.find('\x1b') == std::string::npos);
    CHECK(tensorMessage.find('\x07') == std::string::npos);
    CHECK(contains(tensorMessage, "\\x1b]0;owned\\x07"));
    CHECK(tensorMessage.size() < 400);
    const std::string dtypeMessage = refusal(withLength(R"({"w": {"dtype": "\u001b[31m", "shape": [], "data_offsets": [0, 0]}})", ""));
    CHECK(contains(dtypeMessage, "unknown dtype \"\\x1b[31m\""));

    const test::ScratchDir dir("echo");
    const fs::path model = bundledCopy(dir);
    const std::string config = io::readWholeFile(model / "config.json");
    writeFile(model / "config.json", withMember(config, "hidden_act", R"("\u001b[31m)" + std::string(100'000, 'g') + "\""));
    std::string error = openingError(model);
    CHECK(contains(error, "\"hidden_act\" is \"\\x1b[31mggg"));
    CHECK(error.find('\x1b') == std::string::npos);
    CHECK(error.size() < 400);
    writeFile(model / "config.json", R"({"model_type": ")" + evilJson + "\"}");
    error = io::checkModelFolder(model);
    CHECK(error.find('\x1b') == std::string::npos);
    CHECK(contains(error, "\\x1b]0;owned"));
    writeFile(model / "config.json", config);
    writeFile(model / "vocab.txt", io::readWholeFile(model / "vocab.txt") + evil + "\n" + evil + "\n");
    error = openingError(model);
    CHECK(contains(error, "\"\\x1b]0;owned\\x07\\x1b[2J\" twice"));
    CHECK(error.find('\x1b') == std::string::npos);
    const fs::path gpt2 = copyOf(dir, "gpt2-hf-names");
    writeFile(gpt2 / "vocab.json", "{\"" + std::string(200'000, 'v') + R"(\u001b": [1, 2, 3]})");
    error = openingError(gpt2);
    CHECK(contains(error, "the id a list of 3; ids are whole numbers"));
    CHECK(error.size() < 400);
}

TEST_CASE("hostile folders: a model larger than the memory free is refused before anything is allocated") {
    const test::ScratchDir dir("too-large");
    const fs::path model = bundledCopy(dir);
    std::string config = io::readWholeFile(model / "config.json");
    writeFile(model / "config.json", withMember(config, "vocab_size", "16000000"));  // 16,000,000 × 128 floats
    io::setAvailableMemoryForTesting(3'200'000'000);
    const std::string error = openingError(model);
    io::setAvailableMemoryForTesting(std::nullopt);
    CHECK(contains(error, "needs 8.2 GB; this machine has 3.2 GB free."));
}
