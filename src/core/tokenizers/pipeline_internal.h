// pipeline_internal.h — the parts of PipelineTokenizer (pipeline.h) that its three source files share: a PCRE2
// pattern, the normalizer and pre-tokenizer steps (pipeline_steps.cpp) and the vocabulary models
// (pipeline_models.cpp). Not for use outside src/core/tokenizers.
#pragma once

#include "core/tokenizers/pipeline.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

struct pcre2_real_match_data_8;
using pcre2_match_data_8 = pcre2_real_match_data_8;

namespace attnviz::core::pipeline {

// What one encode() may spend (core/limits.h): PCRE2 steps, charged as the match limit each attempt ran under, and
// the bytes the normalizers and pre-tokenizers may make of the text. Each check throws InputError naming the step.
class WorkBudget {
public:
    explicit WorkBudget(std::size_t textBytes);
    // Charges `steps` of matching `pattern` (its text, quoted in the refusal).
    void chargeSteps(std::uint64_t steps, std::string_view pattern);
    // Refuses when `step` (e.g. "the normalizer Replace") has made `bytes` of text, more than the cap.
    void checkSize(std::size_t bytes, std::string_view step) const;

private:
    std::size_t textBytes_;
    std::uint64_t stepsLeft_;
};

// A compiled pattern: a PCRE2 regular expression in UTF + UCP mode (so \p{L}, \s and \w are Unicode's), or a literal
// string. Throws InputError when the pattern does not compile; matching throws InputError when one match needs more
// than PCRE2's largest match limit or the text's budget is spent (a pattern that backtracks without end).
class Regex {
public:
    explicit Regex(const TextPattern& pattern);
    ~Regex();
    Regex(const Regex&) = delete;
    Regex& operator=(const Regex&) = delete;
    // Every non-overlapping match, left to right, as [begin, end) byte ranges; an empty match is skipped.
    std::vector<std::pair<std::size_t, std::size_t>> findAll(std::string_view text, WorkBudget& budget) const;

private:
    struct Code;
    int matchOnce(std::string_view text, std::size_t start, pcre2_match_data_8* match, WorkBudget& budget) const;
    std::unique_ptr<Code> code_;
};

// Each pattern of a definition, compiled once (keyed by the pattern's address inside the definition).
using Patterns = std::unordered_map<const TextPattern*, std::unique_ptr<Regex>>;
void compilePatterns(const TokenizerDefinition& definition, Patterns& patterns);

std::string normalize(const NormalizerStep& step, std::string text, const Patterns& patterns, WorkBudget& budget);

// A piece of the text between pre-tokenizer steps; atStart: it begins the whole text (Metaspace's "first").
struct Split {
    std::string text;
    bool atStart = false;
};
std::vector<Split> preTokenize(const PreTokenizerStep& step, std::vector<Split> splits, const Patterns& patterns, WorkBudget& budget);

// A word (one pre-token) → vocabulary ids by the BPE, WordPiece or WordLevel model.
class VocabularyRunner {
public:
    explicit VocabularyRunner(const VocabularyModel& model);  // throws InputError for an unusable model
    // Appends the word's ids. maxPieces (Tokenizer::encode's maxTokens, less what the text has so far): a BPE word
    // sure to make more pieces than that (a pasted megabyte with no space is one word to Llama-2) is merged only as
    // far as it takes to make more.
    void encode(const std::string& word, std::vector<int>& ids, std::size_t maxPieces = kEveryToken) const;

private:
    std::vector<int> bpe(const std::string& word, std::size_t maxPieces) const;
    void bpeSymbols(const std::string& word, std::vector<int>& symbols, std::size_t enough) const;
    void wordPiece(const std::string& word, std::vector<int>& ids) const;
    int idOf(const std::string& piece) const;  // −1 when absent

    const VocabularyModel& model_;
    int unknown_ = -1;
    std::size_t longestPiece_ = 1;  // characters of the vocabulary's longest piece: no piece spans more
    std::unordered_map<unsigned long long, std::pair<int, int>> merges_;  // (left id, right id) → (rank, merged id)
    std::vector<int> byteIds_;  // byte → id of "<0xXX>" (−1 when absent), for byte_fallback
    mutable std::mutex cacheMutex_;
    mutable std::unordered_map<std::string, std::vector<int>> cache_;
};

}  // namespace attnviz::core::pipeline
