// bpe.h — GPT-2's tokenizer: byte-level byte-pair encoding (Radford et al. 2019; HuggingFace's GPT2Tokenizer).
//
//   1. "<|endoftext|>" in the text is the special token (id from the vocabulary), as HuggingFace treats it.
//   2. The rest is pre-tokenized by GPT-2's pattern
//        's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//      (PCRE2 in UTF + UCP mode, which has the \p{L} and \p{N} classes std::regex lacks).
//   3. Each chunk's UTF-8 bytes become printable characters (the byte↔unicode map: a space is "Ġ"), and merges
//      are applied by rank — lowest first — until none applies; each piece is looked up in the vocabulary.
// Labels show a piece as text: its spaces as "␣", a newline as "↵", a tab as "⇥", and a piece that is not whole
// UTF-8 (half an emoji) as its bytes in hex, <F0 9F>.
// What it does not do: read files (io/tokenizer_files.h), add a BOS token (GPT-2 adds none), or normalise text.
#pragma once

#include "core/tokenizers/tokenizer.h"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace attnviz::core {

class Gpt2BpeTokenizer final : public Tokenizer {
public:
    // vocabulary: piece (in the byte↔unicode alphabet) → id; merges: pairs in rank order (rank 0 first). Throws
    // InputError when a merge's result or a single byte's character is missing from the vocabulary.
    Gpt2BpeTokenizer(std::unordered_map<std::string, int> vocabulary, const std::vector<std::pair<std::string, std::string>>& merges);
    ~Gpt2BpeTokenizer() override;

    Encoding encode(std::string_view text) const override;
    int vocabularySize() const override { return static_cast<int>(pieces_.size()); }
    std::string pieceOf(int id) const override;
    std::string name() const override { return "GPT-2 byte-level BPE"; }

    // The readable label of a vocabulary piece ("Ġcat" → "␣cat").
    static std::string labelOf(const std::string& piece);

private:
    struct Pattern;
    std::vector<std::string> bpe(const std::string& chunk) const;  // a pre-token's pieces, merges applied
    void encodeChunk(std::string_view chunk, Encoding& out) const;

    std::unordered_map<std::string, int> vocabulary_;
    std::vector<std::string> pieces_;                 // id → piece
    std::unordered_map<std::string, int> mergeRank_;  // "left right" → rank
    std::unique_ptr<Pattern> pattern_;
    mutable std::mutex cacheMutex_;
    mutable std::unordered_map<std::string, std::vector<std::string>> cache_;  // chunk → pieces
};

// GPT-2's byte ↔ unicode map: byte b as the UTF-8 of its printable stand-in (33–126, 161–172 and 174–255 stand
// for themselves; the other 68 bytes take U+0100 onwards in order, so a space is "Ġ" U+0120).
const std::vector<std::string>& byteToUnicode();

}  // namespace attnviz::core
