// tokenizer.h — splits a sentence into the tokens that become the rows of X.
//
// A teaching tokenizer, not a subword one: every token is a word, a number or one punctuation character, so
// each row of every matrix is a word a learner can read.
//   * Splits on Unicode whitespace; every ASCII punctuation character and common Unicode punctuation (“ ” ‘ ’ …
//     — – « » ¿ ¡) is a token of its own. So "didn't" → "didn", "'", "t" (as BERT's basic tokenizer does), and
//     "tired." → "tired", ".".
//   * Letters of any script (UTF-8 decoded) stay together; case is kept.
//   * Optional "[CLS]" first, as BERT does for classification.
// Errors (thrown as InputError with a message a user can act on): invalid UTF-8 (with the byte offset), an empty
// or whitespace-only sentence, more tokens than the limit.
#pragma once

#include "core/display_text.h"
#include "core/input_error.h"
#include "core/limits.h"
#include "core/tokenizers/tokenizer.h"

#include <string>
#include <string_view>
#include <vector>

namespace attnviz::core {

// One rule for empty input, for every model (seeded, BERT, GPT-2), GUI and CLI: a sentence holding only spaces
// and control characters is refused with this sentence, before any tokenizer adds [CLS] / [SEP] to it.
inline constexpr const char* kEmptySentenceMessage = "The sentence is empty: type at least one word.";
// True for "", "   \t ", "\u3000" …: only Unicode spaces and control characters (valid UTF-8 throughout).
bool isBlankSentence(std::string_view sentence);

using limits::kDefaultTokenLimit;  // 64 (core/limits.h)
using limits::kMaxTokenLimit;      // 2,048
inline constexpr std::string_view kClsToken = "[CLS]";

struct TokenizeOptions {
    bool prependCls = false;
    int tokenLimit = kDefaultTokenLimit;  // 1 … kMaxTokenLimit; counts [CLS]
};

// Refuses a sentence of more tokens than options.tokenLimit (reading no further than the first token past it).
// stopAfter (below the limit): returns, unrefused, once it holds more than stopAfter tokens, as Tokenizer::encode.
std::vector<std::string> tokenize(std::string_view sentence, const TokenizeOptions& options = {}, std::size_t stopAfter = kEveryToken);

// The ids of a batch's tokens in the vocabulary the batch itself makes: each distinct token gets the next id
// when first seen ("the cat saw the cat" → 0 1 2 0 1), so the same word always has the same id, as it has the
// same row of E. The seeded layer shows these where a trained model shows its vocabulary's ids.
std::vector<std::vector<int>> batchVocabularyIds(const std::vector<std::vector<std::string>>& tokens);

// tokenize() behind the Tokenizer interface: pieces and labels are the words, ids number the sentence's own
// distinct words from 0 (batchVocabularyIds numbers a whole batch), and "[CLS]" is marked special.
class WordTokenizer final : public Tokenizer {
public:
    explicit WordTokenizer(TokenizeOptions options = {}) : options_(options) {}
    using Tokenizer::encode;
    Encoding encode(std::string_view text, std::size_t maxTokens) const override;
    int vocabularySize() const override { return 0; }
    std::string pieceOf(int) const override { return {}; }
    std::string name() const override { return "words and punctuation"; }

private:
    TokenizeOptions options_;
};

}  // namespace attnviz::core
