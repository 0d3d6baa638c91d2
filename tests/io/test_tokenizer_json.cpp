// test_tokenizer_json.cpp — each tokenizer.json step on small files written here: the five Split behaviours (with
// the examples HuggingFace's documentation gives), invert, Metaspace's prepend schemes, Digits, the BERT steps, the
// normalizers, added tokens' lstrip / rstrip / single_word, the BPE options (byte fallback, fuse_unk, ignore_merges,
// prefix and suffix), the post-processors; and every refusal: one sentence naming the unsupported step or the
// broken key. (The real files against HuggingFace's ids are in test_tokenizer_reference.cpp.)
#include "core/tokenizer.h"  // InputError
#include "core/tokenizers/pipeline.h"
#include "io/tokenizer_json.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

namespace {

using namespace attnviz;
using json = nlohmann::json;
using Pieces = std::vector<std::string>;

// A WordLevel model knowing `pieces` (ids in order, "[UNK]" first), with the given steps.
json wordLevel(const Pieces& pieces, json steps = json::object()) {
    json vocabulary = {{"[UNK]", 0}};
    for (std::size_t i = 0; i < pieces.size(); ++i) vocabulary[pieces[i]] = static_cast<int>(i + 1);
    steps["model"] = {{"type", "WordLevel"}, {"vocab", vocabulary}, {"unk_token", "[UNK]"}};
    return steps;
}

core::PipelineTokenizer tokenizer(const json& file) { return core::PipelineTokenizer(io::parseTokenizerJson(file.dump(), "tokenizer.json")); }

Pieces pieces(const json& file, std::string_view text) { return tokenizer(file).encode(text).pieces; }

json split(const char* behavior, bool invert = false) {
    return {{"type", "Split"}, {"pattern", {{"String", "-"}}}, {"behavior", behavior}, {"invert", invert}};
}

std::string refusal(const json& file) {
    try {
        (void)tokenizer(file);
    } catch (const io::FileError& error) {
        return error.what();
    } catch (const core::InputError& error) {
        return error.what();
    }
    return "accepted";
}

}  // namespace

TEST_CASE("tokenizer.json Split: the five behaviours on HuggingFace's example, and invert") {
    const Pieces known{"the", "-", "final", "--", "countdown", "the-", "final-", "-final", "-countdown"};
    const auto with = [&](const json& step) { return pieces(wordLevel(known, {{"pre_tokenizer", step}}), "the-final--countdown"); };
    CHECK(with(split("Removed")) == Pieces{"the", "final", "countdown"});
    CHECK(with(split("Isolated")) == Pieces{"the", "-", "final", "-", "-", "countdown"});
    CHECK(with(split("MergedWithPrevious")) == Pieces{"the-", "final-", "-", "countdown"});
    CHECK(with(split("MergedWithNext")) == Pieces{"the", "-final", "-", "-countdown"});
    CHECK(with(split("Contiguous")) == Pieces{"the", "-", "final", "--", "countdown"});
    CHECK(with(split("Removed", true)) == Pieces{"-", "-", "-"});
    const json regex = {{"type", "Split"}, {"pattern", {{"Regex", "\\p{N}{1,3}"}}}, {"behavior", "Isolated"}};
    CHECK(pieces(wordLevel({"123", "45", "x"}, {{"pre_tokenizer", regex}}), "12345x") == Pieces{"123", "45", "x"});
}

TEST_CASE("tokenizer.json pre-tokenizers: Metaspace, Digits, BERT's, Whitespace, a Sequence") {
    const json always = {{"type", "Metaspace"}, {"replacement", "▁"}, {"prepend_scheme", "always"}};
    CHECK(pieces(wordLevel({"▁a", "▁b"}, {{"pre_tokenizer", always}}), "a b") == Pieces{"▁a", "▁b"});
    json first = always;
    first["prepend_scheme"] = "first";
    const json added = {{{"id", 9}, {"content", "<x>"}, {"special", true}}};
    CHECK(pieces(wordLevel({"▁a", "b"}, {{"pre_tokenizer", first}, {"added_tokens", added}}), "a<x>b") == Pieces{"▁a", "<x>", "b"});
    const json digits = {{"type", "Digits"}, {"individual_digits", true}};
    CHECK(pieces(wordLevel({"a", "1", "2"}, {{"pre_tokenizer", digits}}), "a12") == Pieces{"a", "1", "2"});
    CHECK(pieces(wordLevel({"a", "12"}, {{"pre_tokenizer", {{"type", "Digits"}}}}), "a12") == Pieces{"a", "12"});
    CHECK(pieces(wordLevel({"don", "'", "t", "!"}, {{"pre_tokenizer", {{"type", "BertPreTokenizer"}}}}), " don't\u3000!!") ==
          Pieces{"don", "'", "t", "!", "!"});
    CHECK(pieces(wordLevel({"hi", "?!", "x_1"}, {{"pre_tokenizer", {{"type", "Whitespace"}}}}), "hi?! x_1") == Pieces{"hi", "?!", "x_1"});
    const json sequence = {{"type", "Sequence"}, {"pretokenizers", {{{"type", "WhitespaceSplit"}}, digits}}};
    CHECK(pieces(wordLevel({"a", "1", "b"}, {{"pre_tokenizer", sequence}}), " a1\tb ") == Pieces{"a", "1", "b"});
}

TEST_CASE("tokenizer.json normalizers: NFKC, lower case (İ as two characters), accents, Strip, Replace, Prepend") {
    const auto normalized = [](const json& normalizer, std::string_view text, const Pieces& known) {
        return pieces(wordLevel(known, {{"normalizer", normalizer}}), text);
    };
    CHECK(normalized({{"type", "NFKC"}}, "\uFB01", {"fi"}) == Pieces{"fi"});
    CHECK(normalized({{"type", "Lowercase"}}, "\u0130A", {"i\u0307a"}) == Pieces{"i\u0307a"});
    const json accents = {{"type", "Sequence"}, {"normalizers", {{{"type", "NFD"}}, {{"type", "StripAccents"}}}}};
    CHECK(normalized(accents, "caf\u00e9", {"cafe"}) == Pieces{"cafe"});
    CHECK(normalized({{"type", "Strip"}, {"strip_left", true}, {"strip_right", false}}, "  a ", {"a "}) == Pieces{"a "});
    CHECK(normalized({{"type", "Replace"}, {"pattern", {{"Regex", "\\s+"}}}, {"content", "_"}}, "a \t b", {"a_b"}) == Pieces{"a_b"});
    CHECK(normalized({{"type", "Prepend"}, {"prepend", "▁"}}, "a", {"▁a"}) == Pieces{"▁a"});
    const json bert = {{"type", "BertNormalizer"}, {"lowercase", true}, {"strip_accents", nullptr}};
    CHECK(normalized(bert, "\u00c9t\u00e9\u00ad\x01", {"ete"}) == Pieces{"ete"});  // soft hyphen and a control dropped
}

TEST_CASE("tokenizer.json added tokens: matched before the normalizer, lstrip / rstrip, single_word") {
    const json lowercase = {{"type", "Lowercase"}};
    json tokens = {{{"id", 7}, {"content", "<MASK>"}, {"special", true}, {"lstrip", true}, {"rstrip", true}},
                   {{"id", 8}, {"content", "ab"}, {"special", false}, {"single_word", true}, {"normalized", false}}};
    const json file = wordLevel({"x", "y", "xab", "abx"}, {{"normalizer", lowercase}, {"pre_tokenizer", {{"type", "WhitespaceSplit"}}}, {"added_tokens", tokens}});
    const core::Encoding mask = tokenizer(file).encode("X  <MASK>  Y");
    CHECK(mask.pieces == Pieces{"x", "<MASK>", "y"});  // not lower-cased, and its spaces taken with it
    CHECK(mask.special == std::vector<bool>{false, true, false});
    CHECK(pieces(file, "ab xab abx") == Pieces{"ab", "xab", "abx"});  // only the free-standing "ab" is the added token
    CHECK(tokenizer(file).encode("ab").ids == std::vector<int>{8});
}

TEST_CASE("tokenizer.json BPE: byte fallback, fuse_unk, ignore_merges, prefix and suffix, merges as pairs") {
    json vocabulary = {{"<unk>", 0}, {"a", 1}, {"b", 2}, {"ab", 3}, {"abab", 4}, {"<0xC3>", 5}, {"<0xA9>", 6}};
    json model = {{"type", "BPE"}, {"vocab", vocabulary}, {"merges", {"a b", "ab ab"}}, {"unk_token", "<unk>"}};
    CHECK(pieces({{"model", model}}, "ababa") == Pieces{"abab", "a"});
    CHECK(pieces({{"model", model}}, "a\u00e9\u00e8\u00e8") == Pieces{"a", "<unk>", "<unk>", "<unk>"});
    model["fuse_unk"] = true;
    CHECK(pieces({{"model", model}}, "a\u00e9\u00e8\u00e8") == Pieces{"a", "<unk>"});
    model["byte_fallback"] = true;
    CHECK(pieces({{"model", model}}, "\u00e9b") == Pieces{"<0xC3>", "<0xA9>", "b"});
    CHECK(tokenizer({{"model", model}, {"decoder", {{"type", "ByteFallback"}}}}).encode("\u00e9").labels == Pieces{"<0xC3>", "<0xA9>"});
    json prefixed = {{"type", "BPE"}, {"merges", json::array({json::array({"a", "##b</w>"})})}, {"continuing_subword_prefix", "##"},
                     {"end_of_word_suffix", "</w>"}, {"vocab", {{"a", 0}, {"##b</w>", 1}, {"a##b</w>", 2}, {"a</w>", 3}}}};
    CHECK(pieces({{"model", prefixed}}, "ab") == Pieces{"a##b</w>"});
    CHECK(pieces({{"model", prefixed}}, "a") == Pieces{"a</w>"});
    json ignoring = {{"type", "BPE"}, {"vocab", {{"a", 0}, {"b", 1}, {"c", 2}, {"abc", 3}, {"ab", 4}}}, {"merges", {"a b"}}, {"ignore_merges", true}};
    CHECK(pieces({{"model", ignoring}}, "abc") == Pieces{"abc"});  // a whole word in the vocabulary, although no merge makes it
    ignoring["ignore_merges"] = false;
    CHECK(pieces({{"model", ignoring}}, "abc") == Pieces{"ab", "c"});
}

TEST_CASE("tokenizer.json post-processors: a template, BERT's and RoBERTa's, in a Sequence") {
    const json bert = {{"type", "BertProcessing"}, {"cls", {"[CLS]", 101}}, {"sep", {"[SEP]", 102}}};
    const core::PipelineTokenizer withBert = tokenizer(wordLevel({"a"}, {{"post_processor", bert}}));
    CHECK(withBert.encode("a").ids == std::vector<int>{101, 1, 102});
    CHECK(withBert.vocabularySize() == 103);  // the post-processor's ids are inside the vocabulary's range
    const json roberta = {{"type", "Sequence"}, {"processors", {{{"type", "ByteLevel"}}, {{"type", "RobertaProcessing"}, {"cls", {"<s>", 0}}, {"sep", {"</s>", 2}}}}}};
    CHECK(pieces(wordLevel({"a"}, {{"post_processor", roberta}}), "a") == Pieces{"<s>", "a", "</s>"});
    const json bos = {{"type", "TemplateProcessing"},
                      {"single", {{{"SpecialToken", {{"id", "<s>"}, {"type_id", 0}}}}, {{"Sequence", {{"id", "A"}, {"type_id", 0}}}}}},
                      {"special_tokens", {{"<s>", {{"id", "<s>"}, {"ids", {5}}, {"tokens", {"<s>"}}}}}}};
    const core::Encoding encoding = tokenizer(wordLevel({"a"}, {{"post_processor", bos}})).encode("a");
    CHECK(encoding.pieces == Pieces{"<s>", "a"});
    CHECK(encoding.special == std::vector<bool>{true, false});
}

TEST_CASE("tokenizer.json refusals: one sentence naming the unsupported step or the broken key") {
    const json wordLevelModel = wordLevel({})["model"];
    CHECK(refusal({{"model", {{"type", "Unigram"}, {"vocab", json::array()}}}}) ==
          "tokenizer.json: the model \"Unigram\" is not supported (attnviz runs BPE, WordPiece and WordLevel).");
    CHECK(refusal({{"model", wordLevelModel}, {"normalizer", {{"type", "Precompiled"}}}}).starts_with("tokenizer.json: the normalizer \"Precompiled\" is not supported"));
    CHECK(refusal({{"model", wordLevelModel}, {"pre_tokenizer", {{"type", "UnicodeScripts"}}}}).starts_with("tokenizer.json: the pre-tokenizer \"UnicodeScripts\" is not supported"));
    CHECK(refusal({{"model", wordLevelModel}, {"post_processor", {{"type", "Custom"}}}}).starts_with("tokenizer.json: the post-processor \"Custom\" is not supported"));
    CHECK(refusal({{"model", {{"type", "BPE"}, {"vocab", json::object()}, {"merges", json::array()}, {"dropout", 0.1}}}}).find("dropout") != std::string::npos);
    CHECK(refusal({{"model", {{"type", "BPE"}, {"vocab", {{"a", 0}, {"b", 1}}}, {"merges", {"a b"}}}}}) ==
          "Merge 0 (\"a\" + \"b\") uses a piece that is not in the vocabulary.");
    CHECK(refusal({{"model", wordLevelModel}, {"pre_tokenizer", {{"type", "Split"}, {"pattern", {{"Regex", "(a"}}}}}}).starts_with("The pattern \"(a\" does not compile"));
    CHECK(refusal({{"model", {{"type", "WordPiece"}, {"vocab", {{"a", 0}}}}}}) == "The model needs an unknown token (unk_token) for pieces outside its vocabulary.");
    CHECK(refusal({{"model", {{"type", "WordLevel"}, {"vocab", {{"a", -1}}}}}}).find("the id of \"a\" must be a whole number") != std::string::npos);
    CHECK(refusal({{"model", {{"type", "WordLevel"}, {"vocab", {{"a", "x"}}}}}}).find("the id of \"a\" must be a whole number") != std::string::npos);
    CHECK(refusal({{"model", {{"type", "BPE"}, {"vocab", {{"a", 0}}}, {"merges", {json::array({"a"})}}}}}) ==
          "tokenizer.json: merge 0 must be \"left right\" or [\"left\", \"right\"].");
    CHECK(refusal({{"model", {{"type", "BPE"}, {"vocab", {{"a", 0}}}, {"merges", {"a  a"}}}}}) ==
          "tokenizer.json: merge 0 (\"a  a\") is not two pieces separated by one space.");
    CHECK(refusal({{"model", {{"type", "BPE"}, {"vocab", {{"a", 0}}}}}}) == "tokenizer.json: the model's \"merges\" must be a list.");
    CHECK(refusal(json::array()) == "tokenizer.json: must be a JSON object.");
    std::string deep = "{\"model\":";
    for (int i = 0; i < 100; ++i) deep += "[";
    CHECK_THROWS_WITH_AS(io::parseTokenizerJson(deep, "tokenizer.json"), doctest::Contains("more than 64 levels deep"), io::FileError);
    CHECK_THROWS_WITH_AS(io::parseTokenizerJson("{\"model\":", "tokenizer.json"), doctest::Contains("is not valid JSON"), io::FileError);
    CHECK_THROWS_WITH_AS(tokenizer(wordLevel({"a"})).encode("a\xFF"), "The text is not valid UTF-8 (at byte 1).", core::InputError);
}
