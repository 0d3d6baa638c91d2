// notation.h — how each Trace tensor is named and read in a figure: its title in paper notation with the head
// number filled in ("A_2 = softmax(Q_2 K_2^T / sqrt(d_k))"), what its rows and columns are (tokens or feature
// indices, in head blocks or not), and which colormap and range it gets by default.
//
// Titles use the ASCII formula markup of text.h (A_2, W^Q, sqrt); drawFormula typesets them.
// What this file deliberately does not do: slice tensors, measure or draw anything.
#pragma once

#include "colormap/colormap.h"
#include "core/attention.h"
#include "core/model.h"

#include <string>
#include <string_view>

namespace attnviz::exporting {

// What one axis of a displayed matrix runs over.
enum class AxisKind {
    QueryTokens,  // the query side's tokens (the sentence in self-attention)
    KeyTokens,    // the key/value side's tokens
    Index,        // feature indices 0 … n−1 (or the broadcast axis of a padding mask)
};

struct AxisNotation {
    AxisKind kind = AxisKind::Index;
    std::string role;   // what a reader should call it: "queries", "keys", "tokens", "features of X"
    int headBlock = 0;  // > 0: the axis is h blocks of this width, block i belonging to head i
};

struct MatrixNotation {
    AxisNotation rows;
    AxisNotation cols;
};

using core::isPerHead;  // the core's tensor table
// The axes of one displayed slice of `id` (for the mask: 1 × l_k or l_q × l_k, as the Trace holds it).
MatrixNotation matrixNotation(core::TensorId id, const core::Trace& trace);
// "A_2", "W^Q", "Q_2": per-head symbols carry `head` ("2", or "i" for every head), others as in tensorInfo.
std::string matrixSymbol(core::TensorId id, std::string_view head);
// "A_2 = softmax(Q_2 K_2^T / sqrt(d_k))": the symbol and how it was made, as a title.
// X's origin follows `spec`: E[ids] (+ PE) for the seeded layer, the residual stream for a trained model's layer.
std::string matrixTitle(core::TensorId id, std::string_view head, const core::Trace& trace, const core::ModelSpec& spec);
// "/ sqrt(d_k)" for the paper's scale 1/√d_k, "* 0.25" for a custom one.
std::string scaleText(const core::Trace& trace);

// Probabilities (attention weights) on a sequential map over [0, 1]; every other matrix is signed and gets a
// diverging map on ±max|x|. An override map keeps probabilities on [0, 1], and gives signed matrices ±max|x| if
// it is diverging, [min, max] if sequential.
colormap::Colormap defaultColormap(core::TensorId id);
colormap::RangeKind rangeKind(core::TensorId id, colormap::Colormap map);

}  // namespace attnviz::exporting
