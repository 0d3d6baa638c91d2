// compare.cpp — the focused head of two sentences aligned by position, and A − B. See compare.h.
#include "core/compare.h"

#include "core/display_text.h"
#include "core/input_error.h"
#include "core/transformer/heads_off.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnviz::core {
namespace {

// Head `head` of sentence `batch` in `trace`, without the padding: l × l (l the sentence's own length).
Matrix unpaddedWeights(const Trace& trace, int batch, int head) {
    const int rows = trace.queryLengths.at(static_cast<std::size_t>(batch)), cols = trace.keyLengths.at(static_cast<std::size_t>(batch));
    const Matrix padded(trace[TensorId::AttentionWeights].slice(batch, head));
    return padded.topLeftCorner(rows, cols);
}

}  // namespace

float SentenceComparison::largestDifference() const {
    return difference.size() == 0 ? 0.0f : difference.cwiseAbs().maxCoeff();
}

SentenceComparison compareSentences(const ModelRun& run, int batch, int head) {
    if (!run.compared) throw InputError("There is no second sentence to compare with: turn compare on and type one.");
    if (batch < 0 || batch >= run.trace.batch) throw InputError("Sentence " + std::to_string(batch) + " does not exist.");
    if (head < 0 || head >= run.trace.dims.heads || head >= run.compared->trace.dims.heads) {
        throw InputError("Head " + std::to_string(head) + " does not exist in both runs.");
    }
    SentenceComparison c;
    c.a = unpaddedWeights(run.trace, batch, head);
    const int batchB = run.spec.compareKind == CompareKind::Sentence ? 0 : batch;  // B: compareWith alone, or the same sentences
    c.b = unpaddedWeights(run.compared->trace, batchB, head);
    if (c.a.rows() != c.a.cols() || c.b.rows() != c.b.cols()) {  // l_dec × l_enc: no one position to align both ways
        throw InputError("Compare lines up a sentence's attention to itself; here the queries come from the decoder sentence and the "
                         "keys from the encoder's (cross-attention), so no position lines up with itself. Remove the decoder sentence to compare.");
    }
    c.tokensA = run.queryTokens.at(static_cast<std::size_t>(batch));
    c.tokensB = run.compared->queryTokens.at(static_cast<std::size_t>(batchB));
    c.tokensA.resize(static_cast<std::size_t>(c.a.rows()));
    c.tokensB.resize(static_cast<std::size_t>(c.b.rows()));
    c.aligned = static_cast<int>(std::min(c.a.rows(), c.b.rows()));
    c.difference = c.a.topLeftCorner(c.aligned, c.aligned) - c.b.topLeftCorner(c.aligned, c.aligned);
    return c;
}

CellChange largestChange(const SentenceComparison& c) {
    CellChange change;
    float largest = -1.0f;
    for (int r = 0; r < c.aligned; ++r) {
        for (int k = 0; k < c.aligned; ++k) {
            if (std::fabs(c.difference(r, k)) <= largest) continue;
            largest = std::fabs(c.difference(r, k));
            change = {r, k, c.a(r, k), c.b(r, k)};
        }
    }
    return change;
}

std::string alignedLabel(const SentenceComparison& c, int position) {
    const std::string& a = c.tokensA.at(static_cast<std::size_t>(position));
    const std::string& b = c.tokensB.at(static_cast<std::size_t>(position));
    return a == b ? a : a + "/" + b;
}

std::string largestChangeText(const SentenceComparison& c) {
    if (c.aligned == 0 || c.largestDifference() == 0.0f) return "A and B attend identically on every aligned cell of this head.";
    const CellChange change = largestChange(c);
    const auto quoted = [&](int position) { return "\u201C" + labelText(alignedLabel(c, position)) + "\u201D"; };
    char numbers[96];
    std::snprintf(numbers, sizeof numbers, "%.2f in A and %.2f in B (A \u2212 B = %+.2f)", static_cast<double>(change.a),
                  static_cast<double>(change.b), static_cast<double>(change.difference()));
    return "Largest change: the row of " + quoted(change.row) + " gives " + quoted(change.col) + " " + numbers + ".";
}

PairWords pairWords(const ModelRun& run, int batch, std::size_t sentenceCharacters) {
    const std::string sentence = "\u201C" + clipped(run.spec.sentences.at(static_cast<std::size_t>(batch)), sentenceCharacters) + "\u201D";
    const TrainedModel* model = run.spec.trainedModel();
    const std::string name = model ? model->name : std::string("the model");
    switch (run.spec.compareKind) {
        case CompareKind::HeadsOff: {
            const std::string off = headsOffText(run.spec.headsOff);
            return {"A = " + sentence + (off.empty() ? " (no head off yet)" : (run.spec.headsOff.size() == 1 ? " with head " : " with heads ") + off), "B = the same sentence with every head on"};
        }
        case CompareKind::Untrained:
            return {"A = " + sentence + " through " + name + " as trained",
                    "B = the same sentence through it untrained (every weight redrawn at initialisation, seed " + std::to_string(kUntrainedSeed) + ")"};
        case CompareKind::Sentence: break;
    }
    return {"A = " + sentence, "B = \u201C" + clipped(run.spec.compareWith.value_or(""), sentenceCharacters) + "\u201D"};
}

std::string comparedWhat(CompareKind kind) {
    switch (kind) {
        case CompareKind::HeadsOff: return "Heads off vs every head on";
        case CompareKind::Untrained: return "Trained vs untrained";
        case CompareKind::Sentence: break;
    }
    return "Two sentences";
}

std::string compareQuestion(CompareKind kind) {
    switch (kind) {
        case CompareKind::HeadsOff: return "Heads off: where does each token look now, and with every head on?";
        case CompareKind::Untrained: return "Trained vs untrained: where does each token look, and where did it before training?";
        case CompareKind::Sentence: break;
    }
    return "Two sentences: where does each token look in A, and in B?";
}

std::string whyNoDifference(const ModelSpec& spec) {
    if (spec.compareKind != CompareKind::HeadsOff) return {};
    if (spec.headsOff.empty()) {
        return "No head is off yet, so A and B are the same run: right-click a head (its map, its tile or the model view) \u25B8 "
               "Switch off; then A is the run with it off and B the run with every head on.";
    }
    const TrainedLayer* trained = spec.trained();
    int lowest = spec.headsOff.front().layer;
    for (const HeadAblation& head : spec.headsOff) lowest = std::min(lowest, head.layer);
    if (!trained || trained->layer > lowest) return {};
    return "No head below this layer is off (the lowest off is in layer " + std::to_string(lowest) + "; this is layer " + std::to_string(trained->layer) +
           "): a head's attention is computed before its output is dropped, and only the layers after it read the change, so this "
           "layer attends the same in A and B. Step to a later layer to see what switching it off changed.";
}

std::string defaultComparedSentence(const std::string& sentence) {
    const std::size_t at = sentence.rfind("tired");
    if (at == std::string::npos) return sentence;
    return sentence.substr(0, at) + "wide" + sentence.substr(at + 5);
}

std::string lengthWarning(const SentenceComparison& c) {
    if (c.sameLength()) return {};
    const bool aLonger = c.a.rows() > c.b.rows();
    const std::vector<std::string>& longer = aLonger ? c.tokensA : c.tokensB;
    std::string rest;
    for (std::size_t i = static_cast<std::size_t>(c.aligned); i < longer.size() && i < static_cast<std::size_t>(c.aligned) + 4; ++i) {
        rest += (rest.empty() ? "\u201C" : ", \u201C") + labelText(longer[i]) + "\u201D";  // a pasted 20,000-letter word: 48
    }
    if (longer.size() > static_cast<std::size_t>(c.aligned) + 4) rest += ", \u2026";
    const int extra = static_cast<int>(longer.size()) - c.aligned;
    const std::string which = std::string(aLonger ? "A" : "B") + "'s last " + (extra == 1 ? "token" : std::to_string(extra) + " tokens");
    return "The two sentences tokenize to " + std::to_string(c.a.rows()) + " and " + std::to_string(c.b.rows()) +
           " tokens: the first " + std::to_string(c.aligned) + " positions are compared, " + which + " (" + rest + ") " +
           (extra == 1 ? "is" : "are") + " marked and left out of A \u2212 B; after a word added or removed, the positions no longer hold the same words.";
}

}  // namespace attnviz::core
