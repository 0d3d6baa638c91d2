// heads_off.h — heads switched off as the user edits and reads them (issue 35 item 1): the list in ModelSpec::headsOff
// kept in one order (so two lists of the same heads compare ==), its words ("1.3 off, 2.0 mean"), and what switching
// them off did to the prediction: the intact run's most likely token before, the ablated run's after, and the change
// in the log-probability of the token predicted before.
//
// Shapes: logits are 1 × vocab (prediction.h); log-probabilities are log softmax(logits) at temperature 1, in double.
// What this file does not do: run the model (transformer.h's resumeTransformer does), or draw.
#pragma once

#include "core/transformer/transformer.h"

#include <optional>
#include <string>
#include <vector>

namespace attnviz::core {

// `heads` with layer `layer`'s head `head` switched off in `mode`, or switched back on (nullopt); sorted by layer,
// then head. Returns whether anything changed.
bool setHeadOff(std::vector<HeadAblation>& heads, int layer, int head, std::optional<HeadOffMode> mode);
// How layer `layer`'s head `head` is switched off in `heads`, or nullopt when it is on.
std::optional<HeadOffMode> headOffMode(const std::vector<HeadAblation>& heads, int layer, int head);

// "off" or "mean": a mark's label.
const char* headOffLabel(HeadOffMode mode);
// "1.3 off, 2.0 mean" (layer.head); "" for none.
std::string headsOffText(const std::vector<HeadAblation>& heads);
// A caption line for figures and the screen: "Heads switched off: 1.3 (Z_i zeroed), 2.0 (Z_i replaced by its mean)";
// "" for none.
std::string headsOffCaption(const std::vector<HeadAblation>& heads);

// The prediction at one position before (every head on) and after (heads off).
struct PredictionShift {
    int beforeId = -1;            // the intact run's most likely token
    double beforeLogProb = 0.0;   // its log-probability in the intact run
    int afterId = -1;             // the ablated run's most likely token
    double afterLogProb = 0.0;    // its log-probability in the ablated run
    double beforeIdAfter = 0.0;   // the intact run's token's log-probability in the ablated run
    double change() const { return beforeIdAfter - beforeLogProb; }  // Δ log p of the token predicted before
};

// From the two runs' logits at the same position (1 × vocab each).
PredictionShift predictionShift(const RowVector& intactLogits, const RowVector& ablatedLogits);
// From two passes of `model` over the same sentences: predictionLogits of each at `sentence`, `position`. Throws
// InputError as predictionLogits does.
PredictionShift predictionShift(const TransformerModel& model, const TransformerPass& intact, const TransformerPass& ablated,
                                int sentence, int position);

}  // namespace attnviz::core
