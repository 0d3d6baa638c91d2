// downsample.cpp — max-|x| pooling and transposition for uploads. See downsample.h.
#include "render/downsample.h"

#include <algorithm>
#include <cmath>

namespace attnviz::render {
namespace {

// Which of two values a pooled cell keeps: NaN first, then the larger magnitude (±inf included).
float stronger(float kept, float candidate) {
    if (std::isnan(kept)) return kept;
    if (std::isnan(candidate)) return candidate;
    return std::fabs(candidate) > std::fabs(kept) ? candidate : kept;
}

int ceilDiv(int a, int b) { return (a + b - 1) / b; }

}  // namespace

PooledMatrix poolMaxAbs(const MatrixSlice& source, int factorRows, int factorCols) {
    factorRows = std::max(1, factorRows);
    factorCols = std::max(1, factorCols);
    PooledMatrix out;
    out.rows = ceilDiv(source.rows, factorRows);
    out.cols = ceilDiv(source.cols, factorCols);
    out.values.assign(static_cast<std::size_t>(out.rows) * out.cols, 0.0f);
    std::vector<bool> seen(out.values.size(), false);
    for (int r = 0; r < source.rows; ++r) {
        const std::size_t outRow = static_cast<std::size_t>(r / factorRows) * out.cols;
        for (int c = 0; c < source.cols; ++c) {
            const float value = source.values[static_cast<std::size_t>(r) * source.cols + c];
            const std::size_t at = outRow + static_cast<std::size_t>(c / factorCols);
            out.values[at] = seen[at] ? stronger(out.values[at], value) : value;
            seen[at] = true;
        }
    }
    return out;
}

int poolingFactor(int cells, int limit) {
    limit = std::max(1, limit);
    int factor = 1;
    while (ceilDiv(cells, factor) > limit) factor *= 2;
    return factor;
}

std::vector<float> transposed(const MatrixSlice& source) {
    std::vector<float> out(static_cast<std::size_t>(source.rows) * source.cols);
    for (int r = 0; r < source.rows; ++r) {
        for (int c = 0; c < source.cols; ++c) {
            out[static_cast<std::size_t>(c) * source.rows + r] = source.values[static_cast<std::size_t>(r) * source.cols + c];
        }
    }
    return out;
}

}  // namespace attnviz::render
