// tokenizer.h — the one interface every tokenizer implements: text in, the tokens that become the rows of X out,
// each with the id the model indexes its embedding table by and a label a learner can read.
//
// Implementations: the seeded layer's word splitter (core/tokenizer.h: WordTokenizer) and the pipeline of a
// HuggingFace tokenizer.json (pipeline.h: normalizer → pre-tokenizer → BPE / WordPiece / WordLevel →
// post-processor), which GPT-2's and BERT's classic vocabulary files become too (classic_vocabularies.h). Pure:
// vocabularies come in as data (io reads the files), so nothing here opens a file.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::core {

struct Encoding {
    std::vector<int> ids;             // what the model's embedding table is indexed by
    std::vector<std::string> pieces;  // the vocabulary's own strings ("Ġcat", "##ing", "▁the", "[CLS]")
    std::vector<std::string> labels;  // the same pieces drawn readably: a leading space as "␣", bytes of a split
                                      // character as <E2 80>, BERT's "##" kept
    std::vector<bool> special;        // a special token ([CLS], <|begin_of_text|>), not a piece of the text
};

// encode()'s maxTokens when every token is wanted.
inline constexpr std::size_t kEveryToken = std::numeric_limits<std::size_t>::max();

class Tokenizer {
public:
    virtual ~Tokenizer() = default;
    // The model's own special tokens included (BERT: [CLS] … [SEP]; Llama: <s> or <|begin_of_text|> first, as the
    // tokenizer says; GPT-2: none). Throws InputError for invalid UTF-8 (naming the byte offset) or text the
    // tokenizer cannot encode (the message says why).
    Encoding encode(std::string_view text) const { return encode(text, kEveryToken); }
    // The same, but it stops once the encoding holds more than maxTokens tokens (special ones counted; at the end of
    // a word, so the last word is whole): such a text is refused, and its first tokens are there to say why. A
    // pasted megabyte so costs the vocabulary work of maxTokens tokens, not of the megabyte (its normalizing and
    // pre-tokenizing stay whole: linear, and bounded by the work budget of core/limits.h).
    virtual Encoding encode(std::string_view text, std::size_t maxTokens) const = 0;
    // Ids run from 0 to vocabularySize() − 1; 0 for the word splitter, whose ids number a batch's own words.
    virtual int vocabularySize() const = 0;
    // The vocabulary string of an id ("" when out of range).
    virtual std::string pieceOf(int id) const = 0;
    virtual std::string name() const = 0;  // "words and punctuation", "WordPiece (vocab.txt)"
    // The words as the tokenizer cut the text before its vocabulary ("abz" where the encoding has [UNK]), one per
    // word of the encoding, to name the words the vocabulary lacked (core/sentence_words.h); empty when the
    // tokenizer's words are not the text as typed.
    virtual std::vector<std::string> typedWords(std::string_view) const { return {}; }
};

// Appends one token to an encoding.
void appendToken(Encoding& encoding, int id, std::string piece, std::string label, bool special = false);

// A batch padded to its longest sentence with [PAD] (id `padId`), and BERT's attention mask: b × l, 1 = a real
// token, 0 = padding.
struct PaddedBatch {
    std::vector<std::vector<int>> ids;
    std::vector<std::vector<int>> attentionMask;
};
PaddedBatch padBatch(const std::vector<Encoding>& sentences, int padId);

}  // namespace attnviz::core
