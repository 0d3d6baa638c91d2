// test_downsample.cpp — shrinking a matrix to the pixels it is drawn in. Strongest keeps what a learner must see
// (the sign of the strongest value, NaN, ±inf, a kept cell in a mostly masked block); Mean averages; both tile the
// axis with blocks of ⌊n/m⌋ or ⌈n/m⌉ cells. Non-square, asymmetric inputs catch row/column mix-ups.
#include "render/downsample.h"

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace attnviz::test {
namespace {

// A texture key told apart by one number (the renderer hashes every field; these tests need only distinct keys).
render::TextureKey keyNumber(int number) {
    render::TextureKey key;
    key.tensor = number;
    return key;
}


using render::Downsample;

render::MatrixSlice slice(const std::vector<float>& values, int rows, int cols) { return {values, rows, cols}; }

// The definition: output cell i of an axis of n cells shrunk to m covers [⌊i·n/m⌋, ⌊(i+1)·n/m⌋).
int blockStart(int i, int n, int m) { return static_cast<int>(static_cast<long long>(i) * n / m); }

// Block (br, bc) folded by the definition, in row-major order: Strongest keeps the first NaN, else the first value
// of largest magnitude; Mean averages in double.
float foldedByDefinition(const std::vector<float>& values, int rows, int cols, int outRows, int outCols, int br, int bc, Downsample how) {
    float kept = 0.0f;
    bool first = true;
    double sum = 0.0;
    int count = 0;
    for (int r = blockStart(br, rows, outRows); r < blockStart(br + 1, rows, outRows); ++r) {
        for (int c = blockStart(bc, cols, outCols); c < blockStart(bc + 1, cols, outCols); ++c) {
            const float v = values[static_cast<std::size_t>(r) * cols + c];
            sum += v;
            ++count;
            if (first || (!std::isnan(kept) && (std::isnan(v) || std::fabs(v) > std::fabs(kept)))) kept = v;
            first = false;
        }
    }
    return how == Downsample::Mean ? static_cast<float>(sum / count) : kept;
}

}  // namespace

TEST_CASE("Strongest keeps the value of largest magnitude with its sign, block by block") {
    // 2 × 6 into 1 × 3: blocks of 2 × 2.
    const std::vector<float> values{0.1f, -5.0f, 2.0f, 0.0f, 7.0f, 0.5f,
                                    0.2f, 0.3f, -3.0f, 1.0f, -8.0f, 1.0f};
    const render::PooledMatrix p = render::shrink(slice(values, 2, 6), 1, 3, Downsample::Strongest);
    CHECK(p.rows == 1);
    CHECK(p.cols == 3);
    CHECK(p.values == std::vector<float>{-5.0f, -3.0f, -8.0f});
}

TEST_CASE("blocks are contiguous and tile the axis when the sizes do not divide") {
    // 1 × 5 into 1 × 2: columns [0, 2) and [2, 5). 4 × 1 into 3 × 1: rows [0, 1), [1, 2), [2, 4).
    const std::vector<float> row{9, -1, 2, -4, 3};
    CHECK(render::shrink(slice(row, 1, 5), 1, 2, Downsample::Strongest).values == std::vector<float>{9.0f, -4.0f});
    CHECK(render::shrink(slice(row, 1, 5), 1, 2, Downsample::Mean).values == std::vector<float>{4.0f, 1.0f / 3.0f});
    const std::vector<float> column{1, 2, -9, 3};
    CHECK(render::shrink(slice(column, 4, 1), 3, 1, Downsample::Strongest).values == std::vector<float>{1.0f, 2.0f, -9.0f});
}

TEST_CASE("Strongest: NaN beats everything and infinity beats every finite value — Mean: they spread to their block") {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    const std::vector<float> values{1e9f, nan, -inf, 3.0f, 1.0f, 2.0f};
    const render::PooledMatrix strongest = render::shrink(slice(values, 1, 6), 1, 3, Downsample::Strongest);
    REQUIRE(strongest.values.size() == 3);
    CHECK(std::isnan(strongest.values[0]));
    CHECK(strongest.values[1] == -inf);
    CHECK(strongest.values[2] == 2.0f);
    const render::PooledMatrix mean = render::shrink(slice(values, 1, 6), 1, 3, Downsample::Mean);
    CHECK(std::isnan(mean.values[0]));
    CHECK(mean.values[1] == -inf);
    CHECK(mean.values[2] == 1.5f);
}

TEST_CASE("both ways match the definition on ragged blocks with ties, NaN and infinities") {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    // Block sizes from 1 to 3 (11 → 7), 2 and 3 (70 → 32), whole and ragged (93 → 40), 768 → 208 (3 or 4), and even
    // blocks of 4 (64 → 16: NaN-free rows take the vectorized path, the NaN's row the general one).
    for (const auto [rows, cols, outRows, outCols] : {std::array{7, 11, 4, 7}, std::array{5, 70, 2, 32}, std::array{3, 93, 3, 40},
                                                       std::array{9, 768, 5, 208}, std::array{6, 64, 3, 16}}) {
        CAPTURE(cols);
        // Values from a small set, so ±x ties are common; a NaN after finite values, infinities.
        const std::vector<float> pool{1.0f, -1.0f, 2.0f, -2.0f, 0.0f, 0.5f};
        std::vector<float> values;
        for (int i = 0; i < rows * cols; ++i) values.push_back(pool[static_cast<std::size_t>(i * 7 + i / 5) % pool.size()]);
        values[14] = nan;
        values[26] = inf;
        values[static_cast<std::size_t>(rows * cols - 3)] = -inf;
        for (const Downsample how : {Downsample::Strongest, Downsample::Mean}) {
            const render::PooledMatrix p = render::shrink(slice(values, rows, cols), outRows, outCols, how);
            REQUIRE(p.rows == outRows);
            REQUIRE(p.cols == outCols);
            for (int br = 0; br < p.rows; ++br) {
                for (int bc = 0; bc < p.cols; ++bc) {
                    const float got = p.values[static_cast<std::size_t>(br) * p.cols + bc];
                    const float want = foldedByDefinition(values, rows, cols, outRows, outCols, br, bc, how);
                    CHECK_MESSAGE((std::isnan(want) ? std::isnan(got) : std::isinf(want) ? got == want : got == doctest::Approx(want).epsilon(1e-6)), "block ", br, ",", bc, " got ", got, " want ", want);
                }
            }
        }
    }
}

TEST_CASE("a shrunk 0/1 mask is kept where any cell of the block is kept") {
    const std::vector<float> mask{0, 0, 1, 0,
                                  0, 0, 0, 0};  // 2 × 4 in blocks of 2 × 2: the second block holds the kept cell
    CHECK(render::shrink(slice(mask, 2, 4), 1, 2, Downsample::Strongest).values == std::vector<float>{0.0f, 1.0f});
}

TEST_CASE("sizes are clamped to at least one cell and at most the source's") {
    const std::vector<float> values{1, 2, 3,
                                    4, 5, 6};
    const render::PooledMatrix same = render::shrink(slice(values, 2, 3), 10, 10, Downsample::Mean);
    CHECK(same.rows == 2);
    CHECK(same.cols == 3);
    CHECK(same.values == values);
    const render::PooledMatrix one = render::shrink(slice(values, 2, 3), 0, -4, Downsample::Mean);
    CHECK(one.rows == 1);
    CHECK(one.cols == 1);
    CHECK(one.values == std::vector<float>{3.5f});
}

TEST_CASE("transposing a non-square matrix") {
    const std::vector<float> values{1, 2, 3,
                                    4, 5, 6};
    CHECK(render::transposed(slice(values, 2, 3)) == std::vector<float>{1, 4, 2, 5, 3, 6});
}

TEST_CASE("the null renderer uploads a key once per generation") {
    auto renderer = render::createNullRenderer();
    const std::vector<float> values{1, 2, 3, 4};
    renderer->beginFrame(1);
    const render::HeatmapHandle a = renderer->heatmap(keyNumber(7), slice(values, 2, 2));
    CHECK(renderer->heatmap(keyNumber(7), slice(values, 2, 2)) == a);
    renderer->beginFrame(1);
    renderer->heatmap(keyNumber(7), slice(values, 2, 2));
    CHECK(renderer->stats().uploads == 1);
    renderer->beginFrame(2);
    renderer->heatmap(keyNumber(7), slice(values, 2, 2));
    CHECK(renderer->stats().uploads == 2);
    CHECK_FALSE(renderer->heatmap(keyNumber(8), slice({}, 0, 0)));
}

}  // namespace attnviz::test
