// compare.h — two runs side by side (issue 35): the focused head's attention weights of a run's sentence (A) and of
// its compared run (B), aligned by position, and their difference A − B. B is another sentence (ModelSpec::
// compareWith), the same sentence with every head on (A has ModelSpec::headsOff), or the same sentence through the
// model untrained (ModelSpec::compareKind); the words saying which are here, for the window and the slide.
//
// Alignment: position p of A faces position p of B. When the two tokenize to different lengths, the first
// min(l_A, l_B) positions (the shared prefix of positions) are compared and the rest of the longer sentence is
// marked (its rows and columns are left out of A − B). Both runs come from core's one forward (runModel); this file
// only slices and subtracts. What it does not do: run the model, choose colours, or draw.
#pragma once

#include "core/model.h"
#include "core/names.h"

#include <string>
#include <vector>

namespace attnviz::core {

struct SentenceComparison {
    Matrix a;           // l_A × l_A: head `head` of sentence A (run's sentence `batch`), unpadded
    Matrix b;           // l_B × l_B: the same head of B (the compared run's only sentence)
    Matrix difference;  // aligned × aligned: a − b on the shared positions
    int aligned = 0;    // min(l_A, l_B)
    std::vector<std::string> tokensA, tokensB;  // l_A and l_B labels
    bool sameLength() const { return a.rows() == b.rows(); }
    float largestDifference() const;  // max |a − b| over the aligned cells (0 when they agree)
};

// Head `head` of the stepped layer's attention weights in sentence `batch` of `run` and in run.compared. Throws
// InputError when the run has no comparison, or the head or sentence does not exist.
SentenceComparison compareSentences(const ModelRun& run, int batch, int head);

// What A and B are, in words for a caption: for two sentences A = “…” and B = “…”; heads off: A = “…” with
// heads 1.3 off and B = the same sentence with every head on; untrained: A = “…” through the model as trained and B
// through it untrained. `batch` is A's sentence.
struct PairWords {
    std::string a, b;
};
PairWords pairWords(const ModelRun& run, int batch, std::size_t sentenceCharacters = 80);
// A title's words for what is compared: "Two sentences", "Heads off vs every head on", "Trained vs untrained".
std::string comparedWhat(CompareKind kind);
// The question the view asks in large type: "Two sentences: where does each token look in A, and in B?", …
std::string compareQuestion(CompareKind kind);
// Why A − B is zero everywhere by construction, or "": no head off yet, or every head off in the stepped layer or
// after it (a head's own attention is computed before its output is dropped; only later layers read the change).
std::string whyNoDifference(const ModelSpec& spec);

// The sentence compare starts from when it is turned on: the minimal pair of the lesson ("…too tired" → "…too
// wide", its last "tired" swapped), or `sentence` itself when it has no "tired".
std::string defaultComparedSentence(const std::string& sentence);

// "The two sentences tokenize to 15 and 16 tokens: the first 15 positions are compared, B's last token (“[SEP]”) is
// marked and left out of A − B; …" — empty when they have the same length.
std::string lengthWarning(const SentenceComparison& comparison);

// The aligned cell whose attention changed most (the largest |A − B|; the first in row-major order on a tie).
struct CellChange {
    int row = 0, col = 0;
    float a = 0.0f, b = 0.0f;
    float difference() const { return a - b; }
};
CellChange largestChange(const SentenceComparison& comparison);

// A token's label in the difference map: the token when A and B have the same one at `position`, else "tired/wide".
std::string alignedLabel(const SentenceComparison& comparison, int position);

// "Largest change: the row of “it” gives “animal” 0.62 in A and 0.08 in B (A − B = +0.54)." — or, when the two
// agree everywhere, that they do.
std::string largestChangeText(const SentenceComparison& comparison);

}  // namespace attnviz::core
