// head_measures.h — what one attention head does, as a number: the previous-token and induction scores of
// TransformerLens's head_detector (its "previous_token_head" and "induction_head" detection patterns, with the
// "mul" measure), on one sentence's attention map. The bundled decoder's tests and the "How does it copy?" view
// use them; later issues add more measures here.
//
// Both are a mean over query rows of the weight the row puts on ONE expected key, so 1 means "all of it there"
// and 1/(q+1) is what a uniform causal row would give.
#pragma once

#include "core/matrix.h"
#include "core/tokenizers/tokenizer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attnviz::core {

// For each query position q, the key an induction head should look at: the token right after the latest earlier
// occurrence of ids[q] (nullopt when ids[q] has not occurred before, or occurred just before q).
std::vector<std::optional<int>> inductionTargets(const std::vector<int>& ids);

// Mean over query rows 1 … l−1 of A[q, q−1]: how much a head looks at the token just before. A: l × l.
double previousTokenScore(const Matrix& attention);

// Mean over the query rows at `fromQuery` or later that have an induction target of A[q, target]: how much a head
// looks at what came after the query token the last time. A: l × l; ids: the sentence's l token ids. 0 when no row
// has a target.
double inductionScore(const Matrix& attention, const std::vector<int>& ids, int fromQuery = 0);

// `words` everyday nouns drawn at random (seeded, no word twice) among those `tokenizer` keeps whole (" river" is one
// piece), then the same words again: the sentence on which an induction head shows itself ("river lamp … river lamp …").
std::string repeatedWordSentence(std::uint64_t seed, int words, const Tokenizer& tokenizer);

// Next-token accuracy on a sentence that repeats itself: over the rows whose token is new (no earlier occurrence)
// and over the rows whose token came before (inductionTargets), the share whose most likely next token (`predicted`,
// one per position) is the token that follows. The last position has no next token and is left out.
struct CopyAccuracy {
    double newTokens = 0.0, repeatedTokens = 0.0;
    int newRows = 0, repeatedRows = 0;
};
CopyAccuracy copyAccuracy(const std::vector<int>& ids, const std::vector<int>& predicted);

}  // namespace attnviz::core
