// head_measures.h — what one attention head does, as a number.
//
// [Copy view] previousTokenScore and inductionScore, after TransformerLens's head_detector: each a mean over the
// query rows that HAVE an expected key of the weight put there (1 = all of it there, 1/(q+1) a uniform causal row).
// The bundled decoder's tests and the "How does it copy?" view use them.
//
// [Head roles] (issue 35) The detector itself, as transformer_lens/head_detector.py (TransformerLensOrg/
// TransformerLens) defines it, transcribed here: a 0/1 lower-triangular detection pattern P per role and the "mul"
// measure score = Σ(A ⊙ P) / ΣA, with its defaults exclude_bos = exclude_current_token = False. Its three patterns —
// previous-token (P[q, q−1]), duplicate-token (P[q, k] for every earlier k with the same token), induction (the
// duplicate pattern shifted one key right: the token after an earlier copy) — plus two of ours in the same form:
// first-token (P[q, 0], the attention sink) and self (P[q, q]). headRoles scores every layer × head of a model.
#pragma once

#include "core/matrix.h"
#include "core/tokenizers/tokenizer.h"
#include "core/transformer/transformer.h"

#include <array>
#include <string_view>

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

// [Head roles]
enum class HeadRole { PreviousToken, DuplicateToken, Induction, FirstToken, Self };
inline constexpr int kHeadRoleCount = 5;
inline constexpr std::array<HeadRole, kHeadRoleCount> kHeadRoles{HeadRole::PreviousToken, HeadRole::DuplicateToken, HeadRole::Induction,
                                                                 HeadRole::FirstToken, HeadRole::Self};
// "previous_token", "duplicate_token", "induction", "first_token", "self": the dump's JSON keys.
std::string_view headRoleKey(HeadRole role);

// The role's detection pattern for a sentence of token ids: l × l, 0 or 1, lower triangular.
Matrix detectionPattern(HeadRole role, const std::vector<int>& ids);
// head_detector's "mul" score: Σ(A ⊙ P) / ΣA over one head's l × l map (0 when A sums to 0).
double detectorScore(const Matrix& attention, const Matrix& pattern);

// A sequence on which duplicate-token and induction heads show themselves: `half` token ids drawn at random (seeded,
// none twice, none of the tokenizer's own special tokens), then the same ids again, framed by the special tokens the
// tokenizer puts around any text (a BOS; BERT's [CLS] … [SEP]).
std::vector<int> repeatedRandomTokens(const Tokenizer& tokenizer, int vocab, int half, std::uint64_t seed);
// What dump --head-roles draws: 20 tokens (fewer when the model's positions do not hold 2 × 20 + its framing).
inline constexpr int kRepeatedTokenCount = 20;
inline constexpr std::uint64_t kRepeatedTokenSeed = 35;  // any fixed seed: the same tokens every run

// Every layer × head's score for each role (kHeadRoles order): previous-token, first-token and self on the sentence
// (ids; its attention is sentence `sentence` of `attention`, n_layers × b × h × l × l); duplicate-token and induction
// on `repeated` (repeatedRandomTokens), through a pass of its own.
struct HeadRoles {
    std::vector<int> repeated;                      // the random tokens repeated twice, framed
    Tensor repeatedAttention;                       // their pass's attention: n_layers × 1 × h × l × l
    std::array<Matrix, kHeadRoleCount> scores;      // each n_layers × h
};
HeadRoles headRoles(const TransformerModel& model, const Tensor& attention, int sentence, const std::vector<int>& ids,
                    const std::vector<int>& repeated);
// headRoles with the repeated tokens dump --head-roles and the head roles view use: kRepeatedTokenCount random ids
// (fewer when the model's positions do not hold twice that and its framing), seed kRepeatedTokenSeed.
HeadRoles headRolesOnRepeats(const TransformerModel& model, const Tokenizer& tokenizer, const Tensor& attention, int sentence,
                             const std::vector<int>& ids);
// The role layer × head scores highest on (ties: the earlier in kHeadRoles).
HeadRole strongestRole(const HeadRoles& roles, int layer, int head);
// Which tokens a role is measured on: the sentence, or the repeated random tokens.
bool measuredOnRepeatedTokens(HeadRole role);

}  // namespace attnviz::core
