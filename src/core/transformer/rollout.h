// rollout.h — attention rollout (Abnar & Zuidema 2020, "Quantifying Attention Flow in Transformers", eq. for
// rollout): how much each input token reaches each position through every layer so far, if attention were the only
// route. Per layer, the head-averaged attention A plus the residual connection as the identity, Ã = ½A + ½I, rows
// renormalised to sum to 1; then multiplied layer by layer: R_0 = Ã_0, R_i = Ã_i · R_{i−1}.
// What it does not explain: the MLPs and the values' sizes are left out (attention weights are not attributions).
// Computed in double from TransformerPass::attentionWeights. No files, no drawing.
#pragma once

#include "core/matrix.h"

namespace attnviz::core {

// attention: n_layers × b × h × l × l (padded); the rollout of sentence `sentence` over its first `length` tokens:
// n_layers × length × length, slice i = R_i (row q: how much of each input token reaches position q after layer i).
Tensor attentionRollout(const Tensor& attention, int sentence, int length);

}  // namespace attnviz::core
