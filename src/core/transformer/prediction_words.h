// prediction_words.h — the words a model's prediction is shown with, written once for every place that shows it: the
// GUI's prediction panel and next-token view (src/ui) and the exported figure (`attnviz export --kind next`,
// src/export). A vocabulary piece as a reader reads it, a probability as a percentage, the sentence saying where
// the bars' numbers come from, and the sentence saying why the seeded layer has none.
//
// What this file does not do: compute logits or probabilities (prediction.h) or draw.
#pragma once

#include "core/tokenizers/tokenizer.h"
#include "core/transformer/trained_model.h"

#include <string>
#include <string_view>
#include <vector>

namespace attnviz::core {

// How many of the most likely tokens a prediction shows.
inline constexpr int kShownChoices = 10;

// Piece `id` as a reader reads it: its text with a space as "␣", a newline as "↵", a tab as "⇥" ("Ġcat" → "␣cat"),
// another control character as its byte in hex ("Ē", the byte 0x12, → "<12>");
// the raw piece when it has no text of its own (a byte of a split character); "id 7 (no piece)" when the tokenizer
// has no piece for the id (a model whose vocabulary is larger than its tokenizer's).
std::string choiceLabel(const Tokenizer& tokenizer, int id);

// 0.241 → "24.1%"; under 0.1 %, two significant digits (a flat prediction over 49 152 tokens is 0.0020 %, not 0.0 %).
std::string percentText(float probability);

// The first [MASK] among a sentence's token ids, or −1 when there is none.
int firstMaskPosition(const Tokenizer& tokenizer, const std::vector<int>& ids);

// One sentence saying where the probabilities come from for `model` (which predicts: PredictionKind is not None):
// a decoder's last row times its LM head (tied to the embedding table or its own lm_head), BERT's masked-word head
// at [MASK], then softmax(logits / T).
std::string predictionSource(const TrainedModel& model);

// A word of a typed sentence that can be hidden behind [MASK]: its bytes [start, start + length), trailing
// punctuation left out ("tired." → "tired").
struct MaskableWord {
    std::size_t start = 0, length = 0;
};

// The sentence's words, split at spaces, each without its trailing punctuation (a word of punctuation alone is none).
std::vector<MaskableWord> maskableWords(std::string_view sentence);

// The index in maskableWords of the last word that carries meaning ("tired" in "… because it was too tired"): the
// last one that is not a function word (it, was, too, the …); -1 when there is none.
int lastContentWord(std::string_view sentence);

// `sentence` with `word` replaced by "[MASK]" ("… too [MASK].").
std::string withMask(std::string_view sentence, MaskableWord word);

// Why the seeded layer predicts nothing, ending in how to open a model: `howToOpen` is "File ▸ Open model" on
// screen, "--model" on the command line.
std::string seededPredictsNothing(std::string_view howToOpen);

}  // namespace attnviz::core
