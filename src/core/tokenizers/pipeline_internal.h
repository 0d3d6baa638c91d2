// pipeline_internal.h — the parts of PipelineTokenizer (pipeline.h) that its three source files share: a PCRE2
// pattern, the normalizer and pre-tokenizer steps (pipeline_steps.cpp) and the vocabulary models
// (pipeline_models.cpp). Not for use outside src/core/tokenizers.
#pragma once

#include "core/tokenizers/pipeline.h"

#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace attnviz::core::pipeline {

// A compiled pattern: a PCRE2 regular expression in UTF + UCP mode (so \p{L}, \s and \w are Unicode's), or a literal
// string. Throws InputError when the pattern does not compile; matching throws InputError when PCRE2's match limit
// is reached (a pattern that backtracks without end).
class Regex {
public:
    explicit Regex(const TextPattern& pattern);
    ~Regex();
    Regex(const Regex&) = delete;
    Regex& operator=(const Regex&) = delete;
    // Every non-overlapping match, left to right, as [begin, end) byte ranges; an empty match is skipped.
    std::vector<std::pair<std::size_t, std::size_t>> findAll(std::string_view text) const;

private:
    struct Code;
    std::unique_ptr<Code> code_;
};

// Each pattern of a definition, compiled once (keyed by the pattern's address inside the definition).
using Patterns = std::unordered_map<const TextPattern*, std::unique_ptr<Regex>>;
void compilePatterns(const TokenizerDefinition& definition, Patterns& patterns);

std::string normalize(const NormalizerStep& step, std::string text, const Patterns& patterns);

// A piece of the text between pre-tokenizer steps; atStart: it begins the whole text (Metaspace's "first").
struct Split {
    std::string text;
    bool atStart = false;
};
std::vector<Split> preTokenize(const PreTokenizerStep& step, std::vector<Split> splits, const Patterns& patterns);

// A word (one pre-token) → vocabulary ids by the BPE, WordPiece or WordLevel model.
class VocabularyRunner {
public:
    explicit VocabularyRunner(const VocabularyModel& model);  // throws InputError for an unusable model
    void encode(const std::string& word, std::vector<int>& ids) const;

private:
    std::vector<int> bpe(const std::string& word) const;
    void bpeSymbols(const std::string& word, std::vector<int>& symbols) const;
    void wordPiece(const std::string& word, std::vector<int>& ids) const;
    int idOf(const std::string& piece) const;  // −1 when absent

    const VocabularyModel& model_;
    int unknown_ = -1;
    std::unordered_map<unsigned long long, std::pair<int, int>> merges_;  // (left id, right id) → (rank, merged id)
    std::vector<int> byteIds_;  // byte → id of "<0xXX>" (−1 when absent), for byte_fallback
    mutable std::mutex cacheMutex_;
    mutable std::unordered_map<std::string, std::vector<int>> cache_;
};

}  // namespace attnviz::core::pipeline
