// embedding.h — turns tokens into X (l × d_model): a deterministic "learned" embedding plus positions.
//
// The embedding row of a token depends only on (token string, seed, d_model): "the" gets the same row in any
// sentence, at any position, so learners can recognise it. Values are uniform in [-1, 1] (a stand-in for a
// trained lookup table; real tables can be loaded elsewhere). Positional encoding is Vaswani et al. §3.5:
//   PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model)).
#pragma once

#include "core/matrix.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnviz::core {

// One row (1 × d_model) for a token.
RowVector tokenEmbedding(const std::string& token, int dModel, std::uint64_t seed);

// l × d_model: row p is the positional encoding of position p.
Matrix positionalEncoding(int length, int dModel);

// X = E[tokens] (+ PE when withPositions): l × d_model.
Matrix embed(const std::vector<std::string>& tokens, int dModel, std::uint64_t seed, bool withPositions);

}  // namespace attnviz::core
