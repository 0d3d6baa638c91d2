// sentence_words.h — a tokenized sentence read back as words (issue 22): which words the vocabulary did not know
// (cut into lone letters, or turned into the unknown token), and how much weight a head's row gives each word.
//
// Words: the encoding's text tokens (special ones left out) grouped by the tokenizer's own marks. A piece continues
// the word before it when it starts with "##" (WordPiece); with tokenizers that mark where a word starts (GPT-2's
// "Ġ", SentencePiece's "▁") a piece without the mark continues the word when it joins a letter or digit to a letter
// or digit ("Ġsuit" "case"; "Ġit" "." are two words).
// A lone-letter piece is a one-letter piece ("s", "##u") of a word of two or more pieces. The word "a" or "I", and a
// letter the sentence writes alone ("d" and "k" of "d_k"), are words of one piece: no lone letters.
// A word's weight in an attention row is the sum over its pieces.
#pragma once

#include "core/tokenizers/tokenizer.h"

#include <string>
#include <vector>

namespace attnviz::core {

struct SentenceWord {
    std::string text;     // the word as its pieces spell it ("suitcase"), or as typed when it became [UNK]
    int first = 0;        // its first token's position in the encoding ([CLS] counts)
    int count = 0;        // its pieces
    int loneLetters = 0;  // of those, lone-letter pieces
    bool unknown = false; // a piece is the unknown token
};

// typedWords: the words as the tokenizer cut the text before its vocabulary (Tokenizer::typedWords), to name the
// words that became [UNK]; used only when there are as many as the encoding has words.
std::vector<SentenceWord> sentenceWords(const Encoding& encoding, const std::vector<std::string>& typedWords = {});

struct VocabularyFit {
    int words = 0;               // words of the text
    int pieces = 0;              // their pieces (special tokens left out)
    int loneLetterPieces = 0;    // over the whole sentence
    std::vector<SentenceWord> lettered;  // words with a lone-letter piece, in sentence order
    std::vector<SentenceWord> unknown;   // words that became the unknown token
    bool fits() const { return lettered.empty() && unknown.empty(); }
    // The tokens the sentence would have if every lettered word were one piece.
    int tokensWithoutLetterSplitting(int tokens) const;
};

VocabularyFit vocabularyFit(const std::vector<SentenceWord>& words);

// One or two sentences for the screen, "" when the sentence fits: "Outside the vocabulary: 2 of 12 words were cut
// into 14 pieces, 12 of them lone letters (suitcase, trophy); 1 word became [UNK] (😀). A word cut into letters
// has no meaning of its own for the model."
std::string vocabularyNotice(const VocabularyFit& fit);

// The over-the-limit sentence's tail: how many words became how many pieces, whether letter-splitting caused it,
// and the way out. tokens: the encoding's length; limit: what is allowed; positions: whether the limit is the
// model's position table (else the user's token limit); whole: the encoding is the whole sentence's (else only its
// first words were tokenized: they are called so, and letter-splitting is never said to be the cause).
std::string overLimitAdvice(const VocabularyFit& fit, int tokens, int limit, bool positions, bool whole = true);

struct WordWeight {
    std::string word;
    float weight = 0.0f;
};

// The `count` words with the largest weight in an attention row over the encoding's tokens (row.size() == its
// length), each word's weight the sum over its pieces, largest first. Special tokens are keys too ("[SEP]").
std::vector<WordWeight> heaviestWords(const Encoding& encoding, const std::vector<SentenceWord>& words,
                                      const std::vector<float>& row, int count);

// A weight as the screen shows it: "0.58".
std::string twoDecimals(float value);

// "it → trophy 0.58, suitcase 0.31": the query word and its heaviest keys, weights to two decimals; a key after the
// first that rounds to 0.00 is left out ("it → animal 1.00").
std::string wordWeightsLine(const std::string& query, const std::vector<WordWeight>& keys);

}  // namespace attnviz::core
