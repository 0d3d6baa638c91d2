// downsample.h — how a matrix with more cells than pixels (or than GL_MAX_TEXTURE_SIZE) is shrunk before upload,
// to exactly as many texels as pixels, so no texel is drawn twice as wide as its neighbours (the banding and
// moiré that a power-of-two shrink plus nearest-texel sampling gave a 768-wide weight matrix in 208 pixels).
//
// Output cell i of an axis of n cells shrunk to m covers source cells [⌊i·n/m⌋, ⌊(i+1)·n/m⌋): contiguous blocks
// of ⌊n/m⌋ or ⌈n/m⌉ cells that tile the axis. Two ways to fold a block:
//   Strongest — the value of largest magnitude, sign kept (a lone −5 among small values stays a −5, where
//               averaging would hide it). NaN beats everything and ±inf every finite value, so special values
//               stay visible; a 0/1 mask block is 1 when any of its cells is kept. For token-by-token maps
//               (scores, attention, masks), where one strong cell is the point.
//   Mean       — the block's average, as any image is shrunk: for matrices with a feature axis (weights, X, Q),
//               whose many independent values would otherwise all show their block's extreme and saturate into
//               noise. A NaN or infinity in a block makes the block NaN or infinite.
//
// Pure CPU code with no GL, so it is unit-tested headless; the GL renderer picks the sizes.
#pragma once

#include "render/heatmap_renderer.h"

#include <vector>

namespace attnviz::render {

struct PooledMatrix {
    std::vector<float> values;  // rows × cols, row-major
    int rows = 0;
    int cols = 0;
};

// `source` shrunk to rows × cols (each clamped to [1, the source's]) by folding each block `how` says.
PooledMatrix shrink(const MatrixSlice& source, int rows, int cols, Downsample how);

// A rows × cols slice copied as cols × rows.
std::vector<float> transposed(const MatrixSlice& source);

}  // namespace attnviz::render
