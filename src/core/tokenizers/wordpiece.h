// wordpiece.h — BERT's tokenizer: the basic tokenizer, then WordPiece (Devlin et al. 2019; HuggingFace's
// BertTokenizer).
//
//   1. Clean: drop NUL, U+FFFD and every C* character but \t \n \r (controls, format, private use, unassigned);
//      every whitespace character (Zs, Zl, Zp, \t \n \r) becomes a space.
//   2. Put spaces around CJK ideographs (each becomes a word of its own).
//   3. Split at spaces. Uncased models lower-case each word, and (uncased, or strip_accents) decompose it (NFD)
//      and drop the combining marks: "Café" → "cafe".
//   4. Split off every punctuation character (ASCII !–/ :–@ [–` {–~ and Unicode's P* categories): "didn't" →
//      "didn", "'", "t".
//   5. WordPiece: the longest vocabulary piece from the start of the word, then the longest "##" piece from where
//      it ended, and so on; a word with a part no piece matches, or over 100 characters, is "[UNK]".
//   6. "[CLS]" first and "[SEP]" last.
// Labels are the pieces themselves ("##ing" keeps its ##, which says it continues a word).
// Lower-casing is per character (utf8proc), as HuggingFace's fast tokenizer does: a capital Greek sigma at a word's
// end becomes σ, where the slow Python BertTokenizer's str.lower() gives the final ς.
// A "[MASK]" typed into the text stays one token when the vocabulary has it (BertTokenizer's never_split), for the
// masked-word head to fill.
// What it does not do: read files (io/tokenizer_files.h), or keep the user's "[CLS]" typed into the text as a
// special token (it is split like any punctuation).
#pragma once

#include "core/tokenizers/tokenizer.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace attnviz::core {

struct WordPieceOptions {
    bool lowercase = true;       // do_lower_case (uncased models)
    bool stripAccents = true;    // strip_accents; HuggingFace's default follows do_lower_case
    bool splitCjk = true;        // tokenize_chinese_chars
    int maxWordCharacters = 100; // max_input_chars_per_word
};

class WordPieceTokenizer final : public Tokenizer {
public:
    // pieces: the vocabulary, id = index. Throws InputError when [UNK], [CLS] or [SEP] is missing or a piece repeats.
    WordPieceTokenizer(std::vector<std::string> pieces, WordPieceOptions options);

    Encoding encode(std::string_view text) const override;
    int vocabularySize() const override { return static_cast<int>(pieces_.size()); }
    std::string pieceOf(int id) const override;
    std::string name() const override { return options_.lowercase ? "WordPiece (uncased)" : "WordPiece (cased)"; }

    // Steps 1–4: the words WordPiece then cuts (no [CLS]/[SEP]).
    std::vector<std::string> basicTokens(std::string_view text) const;
    int idOf(const std::string& piece) const;  // −1 when absent

private:
    void wordPieces(const std::string& word, Encoding& out) const;
    void add(int id, Encoding& out) const;

    std::vector<std::string> pieces_;
    std::unordered_map<std::string, int> ids_;
    WordPieceOptions options_;
    int unknown_ = 0, cls_ = 0, sep_ = 0;
};

// A batch padded to its longest sentence with [PAD] (id `padId`), and BERT's attention mask: b × l, 1 = a real
// token, 0 = padding.
struct PaddedBatch {
    std::vector<std::vector<int>> ids;
    std::vector<std::vector<int>> attentionMask;
};
PaddedBatch padBatch(const std::vector<Encoding>& sentences, int padId);

}  // namespace attnviz::core
