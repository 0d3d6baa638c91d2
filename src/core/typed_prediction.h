// typed_prediction.h — the typed-word answer of "What will the model predict?" (issue #36: four choices *or* a typed
// word): the word cut into the model's pieces as the model would read it there, and where the model ranks it.
//
// Where the word goes: after the sentence and a space for a decoder ("…too" + " tired" → "␣tired"), alone in place of
// [MASK] for BERT ("tired"). A word of several pieces ("␣ele" "phant") is ranked by its FIRST piece — the one the
// model predicts at this position; the pieces after it would need another pass each, so the reveal says so on screen.
// Rank and probability are those of the question's answer row: softmax(logits) in double over the whole vocabulary at
// temperature 1, rank 1 the most likely (ties: the lower id first, as core::topTokens orders them).
//
// What this file does not do: draw (scene/question_drawing.h) or keep what was typed (ui's ask state).
#pragma once

#include "core/model.h"
#include "core/questions.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::core {

struct TypedWordRank {
    std::string word;                 // as typed, spaces at either end left out
    std::vector<std::string> pieces;  // the model's pieces as drawn labels: {"␣tired"} or {"␣ele", "phant"}
    int rank = 0;                     // of the first piece, 1 = the model's most likely
    int vocabulary = 0;               // how many pieces the model chooses among
    float probability = 0.0f;         // of the first piece
    bool top() const { return rank == 1; }
    friend bool operator==(const TypedWordRank&, const TypedWordRank&) = default;
};

// The position whose prediction the question asks about in sentence `batch`: the last token (decoders), the first
// [MASK] (BERT with a masked-word head); −1 when the run predicts nothing there (the seeded layer, no [MASK]).
int predictionPositionOf(const ModelRun& run, int batch);

// The typed word's rank at the prediction `run` makes for sentence `batch` (the question kind NextToken's position),
// or nullopt when the run predicts nothing there or the word is empty (only spaces). Throws InputError (one sentence)
// for a word the model's tokenizer cannot read (invalid UTF-8, longer than a word).
std::optional<TypedWordRank> rankTypedWord(const ModelRun& run, int batch, std::string_view word);

// Reveal's sentence for a typed word: "You typed “tired”: the model ranks it 3 of 2,048 (probability 8.1%); it put
// 31.0% on “␣hungry”." (percentages: a word ranked 1,024th still shows its 0.0065%) A word of several pieces adds "(2 pieces, ranked by the first, “␣ele”)".
std::string typedGapSentence(const Question& question, const TypedWordRank& typed);

// The most characters a typed word may hold (the field refuses more).
inline constexpr int kMaxTypedWord = 40;

}  // namespace attnviz::core
