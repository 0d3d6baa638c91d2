// head_reading.h — what a named head does on the sentence on screen, in words its numbers bear out (issue 32).
//
// A head's caption from heads.json says what it was taught; this says what it does on THIS sentence, and never
// claims what the numbers contradict. The coreference head of attnviz's own model was taught one row ("it") on one
// sentence pattern, so its reading says: which words the "it" row weighs ("it → trophy 0.58, suitcase 0.31"), a
// close call when the top two are within 0.2, that the weight went to no word (the head then names no referent),
// that a sentence without "it" has no row it was taught, and that the other rows copy the same word when they do
// (they were never taught). Other heads: the row's heaviest words.
#pragma once

#include "core/sentence_words.h"

#include <string>
#include <vector>

namespace attnviz::core {

// A head's attention map of one sentence: l rows of l weights (rows[query][key]), l the encoding's length.
using AttentionRows = std::vector<std::vector<float>>;

// The top two weights of a row count as a close call when, as shown (two decimals), they differ by at most this
// (the reading says "within 0.2").
inline constexpr float kCloseCall = 0.2f;
// Other rows "copy" the pronoun row's word when their mean weight on it is at least this.
inline constexpr float kCopiedWeight = 0.5f;

// What row `row` (the outlined one; -1 for none) of a head's map does on this sentence; for a coreference head
// (taught the "it" row only) with what the sentence lacks or the numbers show. "" when `map` is not l × l.
std::string headReading(const Encoding& encoding, const std::vector<SentenceWord>& words, const AttentionRows& map, int row,
                        bool coreference);

// The position of the sentence's (first) word "it", -1 when it has none.
int pronounRow(const std::vector<SentenceWord>& words);

}  // namespace attnviz::core
