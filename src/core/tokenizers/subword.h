// subword.h — what a trained model's tokenizer gives back: ids for the model and readable pieces for the screen.
//
// GPT-2's byte-level BPE (bpe.h) and BERT's WordPiece (wordpiece.h) both implement SubwordTokenizer; the
// word-level teaching tokenizer (core/tokenizer.h) stays for the seeded model. Pure: the vocabularies come in
// as data (io reads the files), so nothing here opens a file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace attnviz::core {

struct Encoding {
    std::vector<int> ids;             // what the model's embedding table is indexed by
    std::vector<std::string> pieces;  // the vocabulary's own strings ("Ġcat", "##ing", "[CLS]")
    std::vector<std::string> labels;  // the same pieces drawn readably: GPT-2's leading space as "␣", bytes of
                                      // a split character as <E2 80>, BERT's "##" kept
};

class SubwordTokenizer {
public:
    virtual ~SubwordTokenizer() = default;
    // The model's own special tokens included (BERT: [CLS] … [SEP]; GPT-2: none). Throws InputError for invalid
    // UTF-8 (naming the byte offset).
    virtual Encoding encode(std::string_view text) const = 0;
    virtual int vocabularySize() const = 0;
    // The vocabulary string of an id ("" when out of range).
    virtual std::string pieceOf(int id) const = 0;
    virtual std::string name() const = 0;  // "GPT-2 byte-level BPE", "WordPiece (uncased)"
};

}  // namespace attnviz::core
