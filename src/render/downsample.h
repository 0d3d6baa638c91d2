// downsample.h — max-|x| pooling: how a matrix with more cells than pixels (or than GL_MAX_TEXTURE_SIZE) is
// shrunk before upload without losing the cells a learner needs to see.
//
// Each output cell is the input value of largest magnitude in its factorRows × factorCols block, sign kept
// (a lone −5 among small values stays a −5, where striding or averaging would hide it). NaN beats everything
// and ±inf beats every finite value, so special values stay visible. A 0/1 mask pooled this way is 1 when any
// cell of the block is kept: a block is drawn as masked only if all of it is masked.
//
// Pure CPU code with no GL, so it is unit-tested headless. It does not choose factors for a screen size:
// poolingFactor() does that and the GL renderer applies it.
#pragma once

#include "render/heatmap_renderer.h"

#include <vector>

namespace attnviz::render {

struct PooledMatrix {
    std::vector<float> values;  // rows × cols, row-major
    int rows = 0;               // ceil(source rows / factorRows)
    int cols = 0;               // ceil(source cols / factorCols)
};

// Blocks start at multiples of the factors; the last block along an axis may be partial.
PooledMatrix poolMaxAbs(const MatrixSlice& source, int factorRows, int factorCols);

// The smallest power of two f with ceil(cells / f) ≤ limit (1 when cells ≤ limit; limit ≥ 1).
int poolingFactor(int cells, int limit);

// A rows × cols slice copied as cols × rows.
std::vector<float> transposed(const MatrixSlice& source);

}  // namespace attnviz::render
