// test_hostile_parsers.cpp — issue #31's parser findings, each class with the input that showed it:
//   * a tokenizer.json whose pre-tokenizer pattern backtracks just under PCRE2's limit at every character, or whose
//     normalizers double the text step after step, is refused by the work budget (core/limits.h) instead of taking
//     minutes or all memory; ordinary long text under Llama-3's pattern still passes;
//   * config.json numbers outside what attnviz computes with (rms_norm_eps 1e300, rope_theta 1e300) are refused
//     before any conversion, and the shard index has a size cap;
//   * every error message reachable from a hostile tokenizer.json, config.json or model.safetensors.index.json,
//     over a corpus of hostile strings (escape sequences, CR, BEL, NUL, C1 controls, bidi overrides, invalid UTF-8,
//     100,000 characters), holds no raw control byte and stays short;
//   * a model.safetensors whose token table is all holes (a 2.3 GB sparse file made by truncate) is refused from its
//     extents before a page is read.
#include "core/tokenizer.h"  // InputError
#include "core/tokenizers/pipeline.h"
#include "core/unicode.h"  // findInvalidUtf8
#include "io/checkpoint.h"
#include "io/memory_budget.h"
#include "io/safe_read.h"
#include "io/scratch_dir.h"
#include "io/tokenizer_json.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace {

using namespace attnviz;
using json = nlohmann::json;
namespace fs = std::filesystem;

const fs::path kDecoders = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/decoders";

// The message `run` ends with (FileError or InputError), or "accepted".
std::string messageOf(const std::function<void()>& run) {
    try {
        run();
    } catch (const io::FileError& error) {
        return error.what();
    } catch (const core::InputError& error) {
        return error.what();
    }
    return "accepted";
}

// A tokenizer.json text → the tokenizer, and a sentence through it.
void encodeWith(const std::string& tokenizerJson, std::string_view sentence) {
    const core::PipelineTokenizer tokenizer(io::parseTokenizerJson(tokenizerJson, "tokenizer.json"));
    (void)tokenizer.encode(sentence);
}

// A WordLevel model knowing "[UNK]" only, with the given steps.
json wordLevel(json steps) {
    steps["model"] = {{"type", "WordLevel"}, {"vocab", {{"[UNK]", 0}}}, {"unk_token", "[UNK]"}};
    return steps;
}

void writeFile(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

}  // namespace

TEST_CASE("hostile tokenizer.json: a pattern that backtracks at every character is refused by the work budget") {
    // (x+x+)+y backtracks 2^n times over a run of n x's before the \S alternative matches one character: ~500,000
    // PCRE2 steps for every 19 bytes here, each call under the old 10,000,000-step limit, so the old code spent
    // ~80 M steps on these 3,000 bytes (seconds under the sanitizers) and went on linearly with the text.
    const json split = {{"type", "Split"}, {"pattern", {{"Regex", "(?:x+x+)+y|\\S"}}}, {"behavior", "Isolated"}};
    std::string text;
    while (text.size() < 3'000) text += "xxxxxxxxxxxxxxxxxx ";
    const std::string message = messageOf([&] { encodeWith(wordLevel({{"pre_tokenizer", split}}).dump(), text); });
    CHECK(message.starts_with("The tokenizer's pattern \"(?:x+x+)+y|\\S\" needs more matching work than attnviz allows for a text of 3002 bytes"));
}

TEST_CASE("hostile tokenizer.json: normalizers that double the text step after step are stopped at the step that crosses the cap") {
    // 12 × "e → ee" on 100 e's: 409,600 bytes, accepted before; 40 such steps took 4.4 GB (issue #31).
    json replaces = json::array();
    for (int i = 0; i < 12; ++i) replaces.push_back({{"type", "Replace"}, {"pattern", {{"String", "e"}}}, {"content", "ee"}});
    const json normalizer = {{"type", "Sequence"}, {"normalizers", replaces}};
    const std::string message = messageOf([&] { encodeWith(wordLevel({{"normalizer", normalizer}}).dump(), std::string(100, 'e')); });
    CHECK(message == "The tokenizer's normalizer Replace makes the text of 100 bytes more than 16 times longer; attnviz stops there.");
    // A Metaspace replacement of 10,000 bytes for each of 1,000 spaces: 10 MB.
    const json metaspace = {{"type", "Metaspace"}, {"replacement", std::string(10'000, 'r')}, {"prepend_scheme", "never"}, {"split", false}};
    CHECK(messageOf([&] { encodeWith(wordLevel({{"pre_tokenizer", metaspace}}).dump(), std::string(1'000, ' ')); })
              .starts_with("The tokenizer's pre-tokenizer Metaspace makes the text of 1000 bytes more than 16 times longer"));
}

TEST_CASE("hostile tokenizer.json: the budget leaves ordinary text alone, however long (Llama-3's pattern, 200,000 bytes)") {
    const std::string llama3 =
        R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
    const json split = {{"type", "Split"}, {"pattern", {{"Regex", llama3}}}, {"behavior", "Isolated"}};
    const json steps = {{"normalizer", {{"type", "NFKC"}}}, {"pre_tokenizer", {{"type", "Sequence"}, {"pretokenizers", {split, {{"type", "Digits"}}}}}}};
    std::string text;
    while (text.size() < 200'000) text += "The cat's 12345 naps, \"quietly\"; l'été — 日本語 ok?\n";
    CHECK(messageOf([&] { encodeWith(wordLevel(steps).dump(), text); }) == "accepted");
    CHECK(messageOf([&] { encodeWith(wordLevel(steps).dump(), std::string(10'000, ' ') + "word"); }) == "accepted");
    CHECK(messageOf([&] { encodeWith(wordLevel(steps).dump(), std::string(100'000, 'w')); }) == "accepted");
}

TEST_CASE("hostile config.json: numbers beyond what attnviz computes with are refused before any conversion") {
    const test::ScratchDir dir("hostile-config");
    const fs::path config = dir / "config.json";
    const json original = json::parse(io::readWholeFile(kDecoders / "llama-gqa-llama3" / "config.json"));
    const auto refusal = [&](const std::function<void(json&)>& change) {
        json changed = original;
        change(changed);
        writeFile(config, changed.dump());
        return messageOf([&] { io::readTransformerConfig(config); });
    };
    CHECK(refusal([](json&) {}) == "accepted");
    CHECK(refusal([](json& j) { j["rms_norm_eps"] = 1e300; }).ends_with("\"rms_norm_eps\" must be a number from 1e-30 to 1 (got 1e+300)."));
    CHECK(refusal([](json& j) { j["rms_norm_eps"] = 1e-300; }).ends_with("\"rms_norm_eps\" must be a number from 1e-30 to 1 (got 1e-300)."));
    CHECK(refusal([](json& j) { j["rope_theta"] = 1e300; }).ends_with("\"rope_theta\" must be a number from 0 to 1e+12 (got 1e+300)."));
    CHECK(refusal([](json& j) { j["rope_scaling"]["factor"] = 1e300; }).ends_with("\"factor\" must be a number from 0 to 1e+12 (got 1e+300)."));
    CHECK(refusal([](json& j) { j["rope_theta"] = 0; }).ends_with("\"rope_theta\" must be a positive number."));
    writeFile(config, R"({"model_type": "gpt2", "n_layer": 1, "n_embd": 8, "n_head": 2, "n_positions": 8, "vocab_size": 8, "layer_norm_epsilon": 1e39})");  // beyond float's range
    CHECK(messageOf([&] { io::readTransformerConfig(config); }).find("\"layer_norm_epsilon\" must be a number from 1e-30 to 1") != std::string::npos);
}

TEST_CASE("hostile model.safetensors.index.json: larger than any real index is refused before it is parsed") {
    const test::ScratchDir dir("hostile-index");
    fs::copy(kDecoders / "qwen2-bias-window-sharded", dir / "model", fs::copy_options::recursive);
    const fs::path index = dir / "model" / "model.safetensors.index.json";
    fs::resize_file(index, io::kMaxShardIndexBytes + 1);  // its JSON then ends in NUL bytes: size is checked first
    CHECK(messageOf([&] { io::loadTransformer(dir / "model"); }).find("a file of its kind is at most") != std::string::npos);
}

namespace {

// `from`'s model.safetensors with its token table declared `rows` tall and moved to the file's end, which
// resize_file (truncate) then extends to the table's full length: every byte of the table is a hole.
void writeSparseTokenTable(const fs::path& from, const fs::path& to, std::int64_t rows) {
    const std::string stored = io::readWholeFile(from);
    std::uint64_t headerLength = 0;
    for (int i = 7; i >= 0; --i) headerLength = headerLength << 8 | static_cast<std::uint8_t>(stored[static_cast<std::size_t>(i)]);
    const json original = json::parse(stored.substr(8, headerLength));
    const std::string_view buffer = std::string_view(stored).substr(8 + headerLength);
    json header = {{"__metadata__", original["__metadata__"]}};
    std::string values;
    for (const auto& [name, entry] : original.items()) {
        if (name == "__metadata__" || name == "model.embed_tokens.weight") continue;
        const std::uint64_t begin = entry["data_offsets"][0], end = entry["data_offsets"][1];
        header[name] = {{"dtype", entry["dtype"]}, {"shape", entry["shape"]}, {"data_offsets", {values.size(), values.size() + (end - begin)}}};
        values += buffer.substr(begin, end - begin);
    }
    const std::int64_t width = original["model.embed_tokens.weight"]["shape"][1];
    const std::uint64_t tableBytes = static_cast<std::uint64_t>(rows * width) * sizeof(float);
    header["model.embed_tokens.weight"] = {{"dtype", "F32"}, {"shape", {rows, width}}, {"data_offsets", {values.size(), values.size() + tableBytes}}};
    const std::string headerText = header.dump();
    std::string length(8, '\0');
    for (int i = 0; i < 8; ++i) length[static_cast<std::size_t>(i)] = static_cast<char>(headerText.size() >> (8 * i) & 0xff);
    writeFile(to, length + headerText + values);
    fs::resize_file(to, fs::file_size(to) + tableBytes);
}

}  // namespace

TEST_CASE("hostile model.safetensors: a 2.3 GB token table that is all holes (made by truncate) is refused before it is read") {
    const test::ScratchDir dir("sparse-table");
    fs::copy(kDecoders / "llama-gqa-llama3", dir / "model", fs::copy_options::recursive);
    const fs::path folder = dir / "model";
    json config = json::parse(io::readWholeFile(folder / "config.json"));
    config["vocab_size"] = 12'000'000;  // × width 48 × 4 bytes: a 2.3 GB table
    writeFile(folder / "config.json", config.dump());
    writeSparseTokenTable(kDecoders / "llama-gqa-llama3" / "model.safetensors", folder / "model.safetensors", 12'000'000);
    REQUIRE(fs::file_size(folder / "model.safetensors") > 2'300'000'000);
    io::setAvailableMemoryForTesting(64'000'000'000);  // a machine with room for it: the memory check passes
    const std::string message = messageOf([&] { io::loadTransformer(folder); });
    io::setAvailableMemoryForTesting(std::nullopt);
    CHECK(message.find("model.safetensors' is 2.3 GB long, but 2.3 GB of it are holes the file system never stored") != std::string::npos);
    CHECK(message.ends_with("weights are written whole, so attnviz does not read it."));
    // A file written whole has no holes: the fixture itself.
    CHECK(io::RegularFile(kDecoders / "llama-gqa-llama3" / "model.safetensors").holeBytes() == 0);
}

namespace {

// Strings a file from the internet may hold, each a way to take over or flood a terminal.
std::vector<std::string> hostileStrings() {
    return {"\x1b]0;owned\x07\x1b[2J fetched OK",
            "line\rfetched OK",
            "bell\x07\x07",
            std::string("nul\0byte", 8),
            "\xc2\x9b" "31m C1 CSI",
            "\xe2\x80\xae" "desrever \xe2\x81\xa6isolate",
            "\xff\xfe\xc3 invalid UTF-8",
            std::string(100'000, 'x') + "\x1b[0m",
            "\x1b[31m" + std::string(5'000, '\x1b')};
}

// `text` as a JSON string literal, bytes as they are except the quote, the backslash and C0 controls (escaped, so
// the parser hands them to attnviz raw); invalid UTF-8 stays invalid (the parser's own error path).
std::string jsonLiteral(const std::string& text) {
    std::string out = "\"";
    for (unsigned char c : text) {
        if (c == '"' || c == '\\') out += std::string("\\") + static_cast<char>(c);
        else if (c < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
            out += escaped;
        } else out += static_cast<char>(c);
    }
    return out + "\"";
}

// What in `message` could reach a terminal raw, or "" when it is safe: C0 controls and DEL, C1 controls, bidi
// overrides and isolates, line and paragraph separators, invalid UTF-8; or a message longer than 1,000 bytes.
std::string unsafePart(const std::string& message) {
    if (message.size() > 1'000) return "a message of " + std::to_string(message.size()) + " bytes";
    if (core::findInvalidUtf8(message) != std::string_view::npos) return "invalid UTF-8";
    for (std::size_t i = 0; i < message.size(); ++i) {
        const auto byte = [&](std::size_t at) { return at < message.size() ? static_cast<unsigned char>(message[at]) : 0; };
        if (byte(i) < 0x20 || byte(i) == 0x7f) return "the control byte " + std::to_string(byte(i)) + " at " + std::to_string(i);
        if (byte(i) == 0xc2 && byte(i + 1) >= 0x80 && byte(i + 1) <= 0x9f) return "a C1 control at " + std::to_string(i);
        const bool bidi = byte(i) == 0xe2 && ((byte(i + 1) == 0x80 && byte(i + 2) >= 0xa8 && byte(i + 2) <= 0xae) ||
                                              (byte(i + 1) == 0x81 && byte(i + 2) >= 0xa6 && byte(i + 2) <= 0xa9));
        if (bidi) return "a bidi or separator character at " + std::to_string(i);
    }
    return "";
}

// Every tokenizer.json error path a string from the file reaches, with `h` (a JSON literal) in it.
std::vector<std::string> hostileTokenizers(const std::string& h) {
    const std::string unk = R"("model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"})";
    return {
        "{" + unk + R"(, "normalizer": {"type": )" + h + "}}",
        "{" + unk + R"(, "pre_tokenizer": {"type": )" + h + "}}",
        "{" + unk + R"(, "post_processor": {"type": )" + h + "}}",
        R"({"model": {"type": )" + h + "}}",
        "{" + unk + R"(, "pre_tokenizer": {"type": "Split", "pattern": {"String": "-"}, "behavior": )" + h + "}}",
        "{" + unk + R"(, "pre_tokenizer": {"type": "Metaspace", "prepend_scheme": )" + h + "}}",
        "{" + unk + R"(, "pre_tokenizer": {"type": "Split", "pattern": {"Regex": )" + h.substr(0, h.size() - 1) + R"(("}}})",
        "{" + unk + R"(, "post_processor": {"type": "TemplateProcessing", "single": [], "special_tokens": {)" + h + R"(: {"ids": [1], "tokens": []}}}})",
        "{" + unk + R"(, "post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": )" + h + R"(}}], "special_tokens": {}}})",
        R"({"model": {"type": "WordLevel", "vocab": {)" + h + R"(: "seven"}}})",
        R"({"model": {"type": "WordLevel", "vocab": {"a": )" + h + "}}}",
        R"({"model": {"type": "WordLevel", "vocab": {"a": 0}, "unk_token": )" + h + "}}",
        R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": [)" + h.substr(0, h.size() - 1) + R"(  x"]}})",
        R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": [[)" + h + ", " + h + "]]}}",
        "{" + unk + R"(, "post_processor": {"type": "BertProcessing", "cls": [)" + h + ", " + h + R"(], "sep": ["s", 1]}})",
    };
}

}  // namespace

TEST_CASE("hostile strings: no tokenizer.json, config.json or shard-index error lets a control byte through, or runs long") {
    const test::ScratchDir dir("hostile-strings");
    const fs::path llama = dir / "llama", sharded = dir / "sharded";
    fs::copy(kDecoders / "llama-gqa-llama3", llama, fs::copy_options::recursive);
    fs::copy(kDecoders / "qwen2-bias-window-sharded", sharded, fs::copy_options::recursive);
    const std::string llamaConfig = io::readWholeFile(llama / "config.json");
    const std::string qwenConfig = io::readWholeFile(sharded / "config.json");
    const json index = json::parse(io::readWholeFile(sharded / "model.safetensors.index.json"));
    const std::string shard = index["weight_map"].begin().value().get<std::string>();
    // config.json with one member replaced by `value` (a JSON literal): `text` ends in "}".
    const auto withMember = [](const std::string& text, const std::string& member) { return text.substr(0, text.rfind('}')) + ", " + member + "}"; };

    int paths = 0;
    for (const std::string& hostile : hostileStrings()) {
        const std::string h = jsonLiteral(hostile);
        std::vector<std::string> messages;
        for (const std::string& file : hostileTokenizers(h)) messages.push_back(messageOf([&] { encodeWith(file, "a b"); }));
        for (const std::string& member : {R"("rope_scaling": {"rope_type": )" + h + "}", R"("rms_norm_eps": )" + h,
                                          R"("partial_rotary_factor": )" + h, R"("hidden_act": )" + h, R"("model_type": )" + h}) {
            writeFile(llama / "config.json", withMember(llamaConfig, member));
            messages.push_back(messageOf([&] { io::readTransformerConfig(llama / "config.json"); }));
        }
        writeFile(llama / "config.json", llamaConfig);
        writeFile(sharded / "config.json", withMember(qwenConfig, R"("use_sliding_window": true, "layer_types": [)" + h + ", " + h + "]"));
        messages.push_back(messageOf([&] { io::readTransformerConfig(sharded / "config.json"); }));
        writeFile(sharded / "config.json", qwenConfig);
        for (const std::string& weightMap : {"{" + h + ": 5}", "{" + h + ": \"" + shard + "\"}", "{\"x\": " + h + "}"}) {
            writeFile(sharded / "model.safetensors.index.json", R"({"weight_map": )" + weightMap + "}");
            messages.push_back(messageOf([&] { io::loadTransformer(sharded); }));
        }
        for (const std::string& message : messages) {
            INFO("hostile string " << paths / static_cast<int>(messages.size()) << ", message: " << message.substr(0, 300));
            CHECK(message != "accepted");
            CHECK(unsafePart(message) == "");
        }
        paths += static_cast<int>(messages.size());
    }
    MESSAGE(paths << " error paths checked");
}
