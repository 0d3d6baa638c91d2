// test_subword_tokenizers.cpp — GPT-2's BPE and BERT's WordPiece (classic vocabularies made into pipelines,
// classic_vocabularies.h) on tiny vocabularies built here, for the edge cases
// the real-vocabulary tests (tests/io/test_tokenizer_reference.cpp) do not pin down one by one: empty text, invalid
// UTF-8, words too long or unmatched, BERT's cleaning of C* characters and its split at line separators, labels of
// GPT-2's Ġ and of split bytes, a padded batch; and the tokens read back as words (sentence_words.h: lone letters,
// [UNK], a word's weight in a row). Expectations are worked by hand from HuggingFace's algorithms (and
// Python's unicodedata categories, noted where used), not taken from our output.
#include "core/display_text.h"
#include "core/sentence_words.h"
#include "core/tokenizer.h"  // InputError
#include "core/tokenizers/byte_level.h"
#include "core/tokenizers/classic_vocabularies.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

using namespace attnviz::core;

// ids: [PAD]=0 [UNK]=1 [CLS]=2 [SEP]=3 ab=4 a=5 ##a=6 b=7 cat=8 ##s=9 !=10
PipelineTokenizer tinyWordPiece() {
    return PipelineTokenizer(wordPieceDefinition({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "ab", "a", "##a", "b", "cat", "##s", "!"}, {}));
}

// The 256 byte pieces (id = byte), then "Ġc" = 256 and "Ġcat" = 257 from two merges.
PipelineTokenizer tinyBpe() {
    std::unordered_map<std::string, int> vocabulary;
    for (int b = 0; b < 256; ++b) vocabulary.emplace(byteToUnicode()[static_cast<std::size_t>(b)], b);
    vocabulary.emplace("Ġc", 256);
    vocabulary.emplace("at", 257);
    vocabulary.emplace("Ġcat", 258);
    return PipelineTokenizer(byteLevelBpeDefinition(vocabulary, {{"Ġ", "c"}, {"a", "t"}, {"Ġc", "at"}}));
}

}  // namespace

TEST_CASE("WordPiece: empty text is [CLS] [SEP] — invalid UTF-8 names its byte") {
    const PipelineTokenizer bert = tinyWordPiece();
    CHECK(bert.encode("").ids == std::vector<int>{2, 3});
    CHECK(bert.encode(" \t\n ").ids == std::vector<int>{2, 3});
    CHECK_THROWS_WITH_AS(bert.encode("ab \xE2\x82"), doctest::Contains("byte 3"), InputError);
}

TEST_CASE("WordPiece: greedy longest match with ## — a word with an unmatched part or over 100 characters is one [UNK]") {
    const PipelineTokenizer bert = tinyWordPiece();
    CHECK(bert.encode("cats!").pieces == std::vector<std::string>{"[CLS]", "cat", "##s", "!", "[SEP]"});
    CHECK(bert.encode("aaa").ids == std::vector<int>{2, 5, 6, 6, 3});
    CHECK(bert.encode("ab").ids == std::vector<int>{2, 4, 3});    // "ab" beats "a" + "##b" (which is absent anyway)
    CHECK(bert.encode("abz cat").ids == std::vector<int>{2, 1, 8, 3});  // z matches nothing: the whole word is [UNK]
    CHECK(bert.encode(std::string(100, 'a')).ids.size() == 102);  // 100 characters: a ##a … ##a
    CHECK(bert.encode(std::string(101, 'a')).ids == std::vector<int>{2, 1, 3});
}

TEST_CASE("WordPiece cleaning: every C* character dropped, line and paragraph separators split words") {
    const PipelineTokenizer bert = tinyWordPiece();
    // Python's unicodedata: U+E000 is Co (private use), U+0378 Cn (unassigned), U+00AD Cf; HuggingFace's
    // _is_control drops every category starting with "C", so each leaves "ab".
    CHECK(bert.encode("a\xEE\x80\x80"
                      "b").ids == std::vector<int>{2, 4, 3});
    CHECK(bert.encode("a\xCD\xB8"
                      "b").ids == std::vector<int>{2, 4, 3});
    CHECK(bert.encode("a\xC2\xAD"
                      "b").ids == std::vector<int>{2, 4, 3});
    // U+2028 (Zl) and U+2029 (Zp): Python's str.split() splits "a\u2028b" into ["a", "b"].
    CHECK(bert.encode("a\xE2\x80\xA8"
                      "b").ids == std::vector<int>{2, 5, 7, 3});
    CHECK(bert.encode("a\xE2\x80\xA9"
                      "b").ids == std::vector<int>{2, 5, 7, 3});
    // Uncased: "ÁB" → lower "áb" → NFD "a" U+0301 "b" → the Mn accent dropped → "ab".
    CHECK(bert.encode("\xC3\x81"
                      "B").ids == std::vector<int>{2, 4, 3});
}

TEST_CASE("GPT-2 BPE: empty text, invalid UTF-8, merges by rank, labels of Ġ and of split bytes") {
    const PipelineTokenizer gpt2 = tinyBpe();
    CHECK(gpt2.encode("").ids.empty());
    CHECK_THROWS_WITH_AS(gpt2.encode("cat\xC0\x80"), doctest::Contains("byte 3"), InputError);  // overlong NUL
    const Encoding cat = gpt2.encode("a cat");
    CHECK(cat.ids == std::vector<int>{'a', 258});
    CHECK(cat.pieces == std::vector<std::string>{"a", "Ġcat"});
    CHECK(cat.labels == std::vector<std::string>{"a", "␣cat"});
    // 😀 is F0 9F 98 80 in UTF-8; with no merges for it, each byte is its own piece, drawn in hex.
    const Encoding emoji = gpt2.encode("\xF0\x9F\x98\x80");
    CHECK(emoji.ids == std::vector<int>{0xF0, 0x9F, 0x98, 0x80});
    CHECK(emoji.labels == std::vector<std::string>{"<F0>", "<9F>", "<98>", "<80>"});
    CHECK(byteLevelLabel("Ġ" + byteToUnicode()[0xF0] + byteToUnicode()[0x9F]) == "␣<F0 9F>");
}

TEST_CASE("a padded batch: [PAD] to the longest sentence, attention mask 1 for real tokens") {
    const PipelineTokenizer bert = tinyWordPiece();
    const PaddedBatch batch = padBatch({bert.encode("cats"), bert.encode("")}, 0);
    CHECK(batch.ids == std::vector<std::vector<int>>{{2, 8, 9, 3}, {2, 3, 0, 0}});
    CHECK(batch.attentionMask == std::vector<std::vector<int>>{{1, 1, 1, 1}, {1, 1, 0, 0}});
}

TEST_CASE("sentence words: lone-letter pieces and [UNK] words, counted as issue 22 defines them") {
    const PipelineTokenizer bert = tinyWordPiece();
    const std::string text = "A cats aaa b ab! abz";
    const Encoding encoding = bert.encode(text);  // [CLS] a | cat ##s | a ##a ##a | b | ab | ! | [UNK] [SEP]
    const std::vector<SentenceWord> words = sentenceWords(encoding, bert.typedWords(text));
    REQUIRE(words.size() == 7);
    CHECK(words[1].text == "cats");
    CHECK(words[1].first == 2);
    CHECK(words[1].count == 2);
    CHECK(words[1].loneLetters == 1);  // ##s: one letter inside a word of two pieces
    CHECK(words[2].loneLetters == 3);
    CHECK(words[0].loneLetters == 0);  // the word "a" is written alone
    CHECK(words[3].loneLetters == 0);  // so is "b"
    CHECK(words[6].unknown);
    CHECK(words[6].text == "abz");  // as typed, not "[UNK]"
    const VocabularyFit fit = vocabularyFit(words);
    CHECK(fit.words == 7);
    CHECK(fit.pieces == 10);
    CHECK(fit.loneLetterPieces == 4);
    CHECK(vocabularyNotice(fit) ==
          "Outside the vocabulary: 2 of 7 words were cut into 5 pieces, 4 of them lone letters (cats, aaa); 1 word became [UNK] "
          "(abz). Such a word has no meaning of its own for the model.");
    CHECK(fit.tokensWithoutLetterSplitting(12) == 9);
    // A letter the sentence writes alone keeps its letter: d_k and I.
    const PipelineTokenizer letters(wordPieceDefinition({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "d", "_", "k", "i"}, {}));
    const VocabularyFit alone = vocabularyFit(sentenceWords(letters.encode("d_k I")));
    CHECK(alone.words == 4);
    CHECK(alone.loneLetterPieces == 0);
    CHECK(vocabularyNotice(alone).empty());
    // A word that became [UNK] is named as the screen can draw it: an emoji by its code point, not "(\uFFFD)" (issue 32).
    VocabularyFit emoji;
    emoji.words = 3;
    emoji.unknown = {SentenceWord{"\xF0\x9F\x98\x80", 2, 1, 0, true}};
    CHECK(vocabularyNotice(emoji).find("1 word became [UNK] ([U+1F600])") != std::string::npos);
    CHECK(counted(1, "head", "heads") == "1 head");  // one helper for every "N things"
    CHECK(counted(4, "head", "heads") == "4 heads");
    CHECK(counted(0, "head", "heads") == "0 heads");
}

TEST_CASE("sentence words: with word-start marks (GPT-2, SentencePiece) a piece without one joins letters to letters") {
    Encoding encoding;
    appendToken(encoding, 0, "suit", "suit");
    appendToken(encoding, 1, "case", "case");
    appendToken(encoding, 2, "\u0120it", "\u2423it");  // "Ġit" drawn "␣it"
    appendToken(encoding, 3, ".", ".");
    appendToken(encoding, 4, "\u0120x", "\u2423x");
    appendToken(encoding, 5, "y", "y");
    const std::vector<SentenceWord> words = sentenceWords(encoding);
    REQUIRE(words.size() == 4);
    CHECK(words[0].text == "suitcase");
    CHECK(words[1].text == "it");
    CHECK(words[2].text == ".");  // punctuation after a word is a word of its own
    CHECK(words[3].text == "xy");
    CHECK(words[3].loneLetters == 2);
}

TEST_CASE("sentence words: a word's weight in a row is the sum over its pieces — the two heaviest, largest first") {
    Encoding encoding;
    appendToken(encoding, 2, "[CLS]", "[CLS]", true);
    appendToken(encoding, 5, "the", "the");
    appendToken(encoding, 6, "suit", "suit");
    appendToken(encoding, 7, "##case", "##case");
    appendToken(encoding, 8, "it", "it");
    appendToken(encoding, 3, "[SEP]", "[SEP]", true);
    const std::vector<WordWeight> heaviest = heaviestWords(encoding, sentenceWords(encoding), {0.05f, 0.1f, 0.3f, 0.28f, 0.07f, 0.2f}, 2);
    REQUIRE(heaviest.size() == 2);
    CHECK(heaviest[0].word == "suitcase");
    CHECK(heaviest[0].weight == doctest::Approx(0.58f));
    CHECK(wordWeightsLine("it", heaviest) == "it \u2192 suitcase 0.58, [SEP] 0.20");
    CHECK(wordWeightsLine("it", {{"animal", 0.998f}, {"the", 0.001f}}) == "it \u2192 animal 1.00");
}
