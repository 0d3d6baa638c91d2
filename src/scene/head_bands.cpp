// head_bands.cpp — the heads' blocks along a map's axis. See head_bands.h.
#include "scene/head_bands.h"

#include <algorithm>

namespace attnviz::scene {

std::vector<HeadBand> headBands(int count, int block, float start, float extent, int headsPerColour) {
    std::vector<HeadBand> bands;
    if (block <= 0) return bands;
    for (int first = 0, head = 0; first < count; first += block, ++head) {
        const int end = std::min(first + block, count);
        bands.push_back({start + static_cast<float>(first) * extent, start + static_cast<float>(end) * extent, head, head / std::max(headsPerColour, 1)});
    }
    return bands;
}

}  // namespace attnviz::scene
