// test_tokenizer.cpp — the teaching tokenizer: word/punctuation splits, UTF-8, [CLS], limits and errors.
#include "core/tokenizer.h"
#include "core/unicode.h"

#include <doctest/doctest.h>

using namespace attnviz::core;
using Tokens = std::vector<std::string>;

TEST_CASE("the default sentence splits into words and punctuation, didn't as didn ' t") {
    CHECK(tokenize("The animal didn't cross.") == Tokens{"The", "animal", "didn", "'", "t", "cross", "."});
}

TEST_CASE("whitespace of every kind separates tokens and never becomes one") {
    CHECK(tokenize("  a\tb\n c\u00A0d\u3000e ") == Tokens{"a", "b", "c", "d", "e"});
}

TEST_CASE("letters of other scripts stay together — Unicode punctuation is split off") {
    CHECK(tokenize("Καλημέρα κόσμε, привет мир…") == Tokens{"Καλημέρα", "κόσμε", ",", "привет", "мир", "…"});
    CHECK(tokenize("«bonjour»") == Tokens{"«", "bonjour", "»"});
}

TEST_CASE("[CLS] is prepended on request and counts toward the limit") {
    CHECK(tokenize("hi there", {.prependCls = true}) == Tokens{"[CLS]", "hi", "there"});
    CHECK_THROWS_AS(tokenize("a b", {.prependCls = true, .tokenLimit = 2}), InputError);
    CHECK(tokenize("a b", {.prependCls = false, .tokenLimit = 2}).size() == 2);
}

TEST_CASE("empty and whitespace-only sentences are refused with a clear message") {
    CHECK_THROWS_WITH_AS(tokenize(""), "The sentence is empty: type at least one word.", InputError);
    CHECK_THROWS_AS(tokenize(" \t\n "), InputError);
    CHECK_THROWS_AS(tokenize("   ", {.prependCls = true}), InputError);
}

TEST_CASE("more tokens than the limit is refused, naming the limit") {
    std::string long_sentence;
    for (int i = 0; i < 65; ++i) long_sentence += "w ";
    CHECK(tokenize(long_sentence, {.tokenLimit = 65}).size() == 65);
    try {
        tokenize(long_sentence);
        FAIL("expected an InputError");
    } catch (const InputError& error) {
        CHECK(std::string(error.what()).find("more than 64 tokens") != std::string::npos);
    }
    CHECK_THROWS_AS(tokenize("a", {.tokenLimit = 0}), InputError);
    CHECK_THROWS_AS(tokenize("a", {.tokenLimit = kMaxTokenLimit + 1}), InputError);
}

TEST_CASE("invalid UTF-8 is refused with the byte offset") {
    const std::string cases[] = {"ab\xFF", "ab\xC3", "ab\xC0\xAF" /* overlong '/' */, "ab\xED\xA0\x80" /* surrogate */,
                                 "ab\xF4\x90\x80\x80" /* > U+10FFFF */};
    for (const std::string& bad : cases) {
        CHECK(findInvalidUtf8(bad) == 2);
        CHECK_THROWS_WITH_AS(tokenize(bad), "The sentence is not valid UTF-8 (bad byte at offset 2).", InputError);
    }
    CHECK(findInvalidUtf8("ok ✓ 😀") == std::string_view::npos);
}

TEST_CASE("decodeUtf8 gives code points and U+FFFD for bad bytes") {
    CHECK(decodeUtf8("aé😀") == std::vector<char32_t>{U'a', U'é', U'😀'});
    CHECK(decodeUtf8("a\xFF") == std::vector<char32_t>{U'a', U'\uFFFD'});
}

TEST_CASE("batch vocabulary ids: the same token has the same id across positions and sentences") {
    const std::vector<std::vector<std::string>> tokens{{"the", "cat", "saw", "the", "cat"}, {"a", "cat"}};
    const std::vector<std::vector<int>> ids = attnviz::core::batchVocabularyIds(tokens);
    CHECK(ids == std::vector<std::vector<int>>{{0, 1, 2, 0, 1}, {3, 1}});
    CHECK(attnviz::core::batchVocabularyIds({{"The", "the"}}) == std::vector<std::vector<int>>{{0, 1}});  // case kept
}

TEST_CASE("WordTokenizer: the word splitter behind the Tokenizer interface") {
    const attnviz::core::WordTokenizer words({.prependCls = true, .tokenLimit = 8});
    const attnviz::core::Encoding encoding = words.encode("the cat saw the cat.");
    CHECK(encoding.pieces == std::vector<std::string>{"[CLS]", "the", "cat", "saw", "the", "cat", "."});
    CHECK(encoding.labels == encoding.pieces);
    CHECK(encoding.ids == std::vector<int>{0, 1, 2, 3, 1, 2, 4});  // the sentence's own words, numbered as first seen
    CHECK(encoding.special == std::vector<bool>{true, false, false, false, false, false, false});
    CHECK_THROWS_AS(words.encode("a b c d e f g h"), attnviz::core::InputError);  // the limit counts [CLS]
}

TEST_CASE("WordTokenizer: asked for at most a few tokens, it stops at the first one past them (issue 31)") {
    const attnviz::core::WordTokenizer words({.prependCls = true, .tokenLimit = 64});
    std::string pasted;  // 10,000 words, then what would be refused as more than 64 tokens
    for (int i = 0; i < 10'000; ++i) pasted += "w ";
    CHECK(words.encode(pasted, 3).pieces == std::vector<std::string>{"[CLS]", "w", "w", "w"});
    CHECK(words.encode("a", 0).pieces == std::vector<std::string>{"[CLS]", "a"});  // a word past [CLS], never "empty"
    CHECK_THROWS_WITH_AS(words.encode(pasted, 100), doctest::Contains("more than 64 tokens (65+ so far)"), attnviz::core::InputError);
    CHECK_THROWS_WITH_AS(words.encode(" ", 3), "The sentence is empty: type at least one word.", attnviz::core::InputError);
}
