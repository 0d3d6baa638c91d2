// pipeline.h — every vocabulary's tokenizer: a HuggingFace tokenizer.json, or the classic files made into the same
// definition (classic_vocabularies.h), run the way HuggingFace's tokenizers library runs it:
//
//   text ─ added tokens split off (special ones matched on the raw text) ─ normalizer ─ pre-tokenizer ─ model ─
//        post-processor ─ ids
//
//   normalizer      Sequence, NFC / NFD / NFKC / NFKD, Lowercase, StripAccents, BertNormalizer, Prepend, Replace,
//                   Strip
//   pre-tokenizer   Sequence, ByteLevel (GPT-2's pattern or none), Split (a string or a PCRE2 pattern: \p{L},
//                   (?i:…), look-ahead; five delimiter behaviours, invert), Metaspace, BertPreTokenizer, Whitespace,
//                   WhitespaceSplit, Digits, Punctuation
//   model           BPE (merges by rank, unknown token, fuse_unk, byte_fallback "<0x41>", ignore_merges,
//                   continuing_subword_prefix, end_of_word_suffix), WordPiece, WordLevel
//   post-processor  Sequence, TemplateProcessing (single sequence), BertProcessing, RobertaProcessing, ByteLevel
// The decoder only decides how pieces are labelled on screen (LabelStyle). Truncation and padding are not applied:
// attnviz shows one sentence at its own length.
// TokenizerDefinition is plain data (io/tokenizer_json.h reads it from the file); PipelineTokenizer checks it once
// (every merge's parts and result in the vocabulary, patterns that compile, unknown tokens that exist) and throws
// InputError with one sentence when it cannot be used.
#pragma once

#include "core/tokenizers/tokenizer.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace attnviz::core {
namespace pipeline {
class WorkBudget;
}

// {"String": "▁"} or {"Regex": "\\s+"}.
struct TextPattern {
    std::string text;
    bool regex = false;
};

struct NormalizerStep {
    enum class Kind { Sequence, Nfc, Nfd, Nfkc, Nfkd, Lowercase, StripAccents, Bert, Prepend, Replace, Strip };
    Kind kind = Kind::Sequence;
    std::vector<NormalizerStep> steps;  // Sequence
    TextPattern pattern;                // Replace: what is replaced …
    std::string content;                // … by what; Prepend: the prefix
    // BertNormalizer (stripAccents already resolved: tokenizer.json's null means "as lowercase")
    bool cleanText = true, handleChineseChars = true, lowercase = true, stripAccents = true;
    bool stripLeft = true, stripRight = true;  // Strip
};

// What a Split does with the text its pattern matches (HuggingFace's SplitDelimiterBehavior).
enum class SplitBehavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };
enum class PrependScheme { Always, First, Never };  // Metaspace: add "▁" before every split, the text's first, none

struct PreTokenizerStep {
    enum class Kind { Sequence, ByteLevel, Split, Metaspace, Bert, Whitespace, WhitespaceSplit, Digits, Punctuation };
    Kind kind = Kind::Sequence;
    std::vector<PreTokenizerStep> steps;              // Sequence
    bool addPrefixSpace = false, useRegex = true;     // ByteLevel
    TextPattern pattern;                              // Split
    SplitBehavior behavior = SplitBehavior::Isolated; // Split, Punctuation
    bool invert = false;                              // Split
    std::string replacement = "\xE2\x96\x81";         // Metaspace ("▁")
    PrependScheme prependScheme = PrependScheme::Always;
    bool split = true;                                // Metaspace
    bool individualDigits = false;                    // Digits
};

struct VocabularyModel {
    enum class Kind { Bpe, WordPiece, WordLevel };
    Kind kind = Kind::Bpe;
    std::unordered_map<std::string, int> vocabulary;          // piece → id
    std::vector<std::pair<std::string, std::string>> merges;  // BPE, rank 0 first
    std::optional<std::string> unknownToken;
    std::string continuingSubwordPrefix;  // BPE ("" usually), WordPiece ("##")
    std::string endOfWordSuffix;          // BPE
    bool fuseUnknown = false, byteFallback = false, ignoreMerges = false;  // BPE
    int maxInputCharsPerWord = 100;       // WordPiece
};

struct PostProcessorStep {
    enum class Kind { Sequence, Template, Bert, Roberta, ByteLevel };
    struct Item {
        bool special = false;  // a special token (its key in specialTokens), or the sequence itself
        std::string name;
    };
    Kind kind = Kind::Sequence;
    std::vector<PostProcessorStep> steps;  // Sequence
    std::vector<Item> single;              // Template: the single-sequence template
    std::map<std::string, std::vector<std::pair<int, std::string>>> specialTokens;  // Template: key → (id, piece)s
    std::pair<std::string, int> cls, sep;  // Bert, Roberta
};

struct AddedToken {
    int id = 0;
    std::string content;
    bool special = false;
    bool singleWord = false, leftStrip = false, rightStrip = false;
    bool normalized = false;  // matched in the normalized text rather than the raw text
};

// How pieces become labels: Plain keeps them ("##ing"); ByteLevel maps GPT-2's byte alphabet back ("Ġcat" →
// "␣cat", half a character as <F0 9F>); Metaspace shows "▁" as "␣" and byte-fallback pieces "<0xE2>" as <E2>.
// Every style shows a space, newline and tab as ␣ ↵ ⇥.
enum class LabelStyle { Plain, ByteLevel, Metaspace };

struct TokenizerDefinition {
    std::optional<NormalizerStep> normalizer;
    std::optional<PreTokenizerStep> preTokenizer;
    VocabularyModel model;
    std::optional<PostProcessorStep> postProcessor;
    std::vector<AddedToken> addedTokens;
    LabelStyle labels = LabelStyle::Plain;
    std::string source = "tokenizer.json";  // the files it came from, for name()
};

class PipelineTokenizer final : public Tokenizer {
public:
    explicit PipelineTokenizer(TokenizerDefinition definition);
    ~PipelineTokenizer() override;
    PipelineTokenizer(const PipelineTokenizer&) = delete;
    PipelineTokenizer& operator=(const PipelineTokenizer&) = delete;

    using Tokenizer::encode;
    Encoding encode(std::string_view text, std::size_t maxTokens) const override;
    int vocabularySize() const override { return static_cast<int>(pieces_.size()); }
    std::string pieceOf(int id) const override;
    std::string name() const override;  // "WordPiece (vocab.txt)", "byte-level BPE (tokenizer.json)"
    // WordPiece and WordLevel: the pre-tokenizer's words of the normalized text, and the added tokens that are not
    // special ("[MASK]"); BPE: none (its pre-tokens are in the byte alphabet or carry "▁", not as typed).
    std::vector<std::string> typedWords(std::string_view text) const override;

private:
    struct Machinery;  // compiled patterns, BPE merge table, added-token index
    // The text as the model receives it: added tokens, and between them the pre-tokenizer's splits of the normalized
    // text. Throws InputError for invalid UTF-8 and for text past the work budget.
    struct PreToken {
        const AddedToken* added = nullptr;  // an added token, or …
        std::string text;                   // … a split for the vocabulary model
    };
    std::vector<PreToken> preTokens(std::string_view text) const;
    void appendPiece(int id, Encoding& out) const;

    TokenizerDefinition definition_;
    std::vector<std::string> pieces_;  // id → piece (model vocabulary and added tokens)
    std::unique_ptr<Machinery> machinery_;
    std::size_t specialsAdded_ = 0;  // tokens the post-processor adds to any text ([CLS] and [SEP]: 2)
};

}  // namespace attnviz::core
