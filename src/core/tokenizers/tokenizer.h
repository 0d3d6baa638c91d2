// tokenizer.h — the one interface every tokenizer implements: text in, the tokens that become the rows of X out,
// each with the id the model indexes its embedding table by and a label a learner can read.
//
// Implementations: the seeded layer's word splitter (core/tokenizer.h: WordTokenizer), GPT-2's byte-level BPE
// (bpe.h) and BERT's WordPiece (wordpiece.h) from their classic vocabulary files, and any HuggingFace
// tokenizer.json (pipeline.h: normalizer → pre-tokenizer → BPE / WordPiece / WordLevel → post-processor). Pure:
// vocabularies come in as data (io reads the files), so nothing here opens a file.
#pragma once

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

class Tokenizer {
public:
    virtual ~Tokenizer() = default;
    // The model's own special tokens included (BERT: [CLS] … [SEP]; Llama: <s> or <|begin_of_text|> first, as the
    // tokenizer says; GPT-2: none). Throws InputError for invalid UTF-8 (naming the byte offset) or text the
    // tokenizer cannot encode (the message says why).
    virtual Encoding encode(std::string_view text) const = 0;
    // Ids run from 0 to vocabularySize() − 1; 0 for the word splitter, whose ids number a batch's own words.
    virtual int vocabularySize() const = 0;
    // The vocabulary string of an id ("" when out of range).
    virtual std::string pieceOf(int id) const = 0;
    virtual std::string name() const = 0;  // "GPT-2 byte-level BPE", "WordPiece (uncased)", "tokenizer.json: BPE"
};

// Appends one token to an encoding.
void appendToken(Encoding& encoding, int id, std::string piece, std::string label, bool special = false);

}  // namespace attnviz::core
