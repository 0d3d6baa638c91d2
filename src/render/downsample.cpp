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

// stronger() folded over v[0, n): the first NaN, else the first value of largest magnitude. The first pass keeps
// kLanes running maxima side by side, which the compiler vectorizes; the second stops at the value it found.
float firstStrongest(const float* v, int n) {
    constexpr int kLanes = 16;
    float top[kLanes] = {};
    bool nan[kLanes] = {};
    int i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        for (int k = 0; k < kLanes; ++k) {
            const float a = std::fabs(v[i + k]);
            top[k] = a > top[k] ? a : top[k];
            nan[k] = nan[k] || v[i + k] != v[i + k];
        }
    }
    float largest = 0.0f;
    bool anyNan = false;
    for (int k = 0; k < kLanes; ++k) {
        largest = std::max(largest, top[k]);
        anyNan = anyNan || nan[k];
    }
    for (; i < n; ++i) {
        largest = std::max(largest, std::fabs(v[i]));  // NaN compares false: left to anyNan
        anyNan = anyNan || std::isnan(v[i]);
    }
    for (int j = 0; j < n; ++j) {
        if (anyNan ? std::isnan(v[j]) : std::fabs(v[j]) == largest) return v[j];
    }
    return v[0];
}

bool hasNan(const float* v, int n) {
    bool found = false;
    for (int i = 0; i < n; ++i) found = found || v[i] != v[i];  // no early exit: vectorizes
    return found;
}

// One NaN-free row folded into outRow, column offset by column offset: each pass compares every block's candidate
// at that offset with what the block kept (strictly larger magnitude wins, so ties keep the earlier column, and
// rows folded earlier). Passes over whole rows vectorize; a call per 2-cell block did not (20 ms for a 2048² map).
void foldRow(const float* in, int cols, int factorCols, float* outRow, int outCols, bool firstRow) {
    const int whole = cols / factorCols;  // blocks with all factorCols columns; a partial last one follows
    for (int k = 0; k < factorCols; ++k) {
        const bool starts = firstRow && k == 0;
        for (int block = 0; block < whole; ++block) {
            const float candidate = in[block * factorCols + k];
            const float kept = outRow[block];
            outRow[block] = starts || std::fabs(candidate) > std::fabs(kept) ? candidate : kept;
        }
    }
    if (whole < outCols) {
        const int begin = whole * factorCols;
        const float strongest = firstStrongest(in + begin, cols - begin);
        outRow[whole] = firstRow ? strongest : stronger(outRow[whole], strongest);
    }
}

}  // namespace

// Row by row, each output cell folding in the strongest of its block's columns in that row; the block's first row
// starts it. Rows are folded in order and each row's first strongest value is taken, so ties keep the first value
// in row-major order, as the definition says. Rows without NaN take the vectorized foldRow; a NaN row goes block by
// block (NaN must win wherever it is). At l = 1024 a head grid pools twelve 1024² maps per new run.
PooledMatrix poolMaxAbs(const MatrixSlice& source, int factorRows, int factorCols) {
    factorRows = std::max(1, factorRows);
    factorCols = std::max(1, factorCols);
    PooledMatrix out;
    out.rows = ceilDiv(source.rows, factorRows);
    out.cols = ceilDiv(source.cols, factorCols);
    out.values.assign(static_cast<std::size_t>(out.rows) * out.cols, 0.0f);
    for (int r = 0; r < source.rows; ++r) {
        const float* in = source.values.data() + static_cast<std::size_t>(r) * source.cols;
        float* outRow = out.values.data() + static_cast<std::size_t>(r / factorRows) * out.cols;
        const bool firstRow = r % factorRows == 0;
        if (!hasNan(in, source.cols)) {  // a NaN kept from an earlier row stays: no magnitude compares above it
            foldRow(in, source.cols, factorCols, outRow, out.cols, firstRow);
            continue;
        }
        for (int block = 0; block < out.cols; ++block) {
            const int begin = block * factorCols, end = std::min(source.cols, begin + factorCols);
            const float strongest = firstStrongest(in + begin, end - begin);
            outRow[block] = firstRow ? strongest : stronger(outRow[block], strongest);
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
