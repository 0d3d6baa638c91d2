// embedding.cpp — deterministic token rows and sinusoidal positions. See embedding.h.
#include "core/embedding.h"

#include "core/random.h"

#include <cmath>

namespace attnviz::core {

RowVector tokenEmbedding(const std::string& token, int dModel, std::uint64_t seed) {
    SplitMix64 random(streamSeed(token, seed));
    RowVector row(dModel);
    for (int j = 0; j < dModel; ++j) row(j) = random.uniform(-1.0f, 1.0f);
    return row;
}

Matrix positionalEncoding(int length, int dModel) {
    Matrix pe(length, dModel);
    for (int pos = 0; pos < length; ++pos) {
        for (int j = 0; j < dModel; ++j) {
            const int pairIndex = j / 2;  // 2i and 2i+1 share a frequency
            const double angle = pos / std::pow(10000.0, 2.0 * pairIndex / dModel);
            pe(pos, j) = static_cast<float>(j % 2 == 0 ? std::sin(angle) : std::cos(angle));
        }
    }
    return pe;
}

Matrix embed(const std::vector<std::string>& tokens, int dModel, std::uint64_t seed, bool withPositions) {
    const int length = static_cast<int>(tokens.size());
    Matrix x(length, dModel);
    for (int row = 0; row < length; ++row) x.row(row) = tokenEmbedding(tokens[static_cast<std::size_t>(row)], dModel, seed);
    if (withPositions) x += positionalEncoding(length, dModel);
    return x;
}

}  // namespace attnviz::core
