// test_downsample.cpp — max-|x| pooling keeps what a learner must see: the sign of the strongest value, NaN,
// ±inf, and a kept cell in a mostly masked block. Non-square, asymmetric inputs catch row/column mix-ups.
#include "render/downsample.h"

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace attnviz::test {
namespace {

render::MatrixSlice slice(const std::vector<float>& values, int rows, int cols) { return {values, rows, cols}; }

// The definition, block (br, bc) of rows × cols values pooled by fr × fc: the block's values in row-major order;
// the first NaN wins, else the first of largest magnitude.
float pooledByDefinition(const std::vector<float>& values, int rows, int cols, int fr, int fc, int br, int bc) {
    float kept = values[static_cast<std::size_t>(br * fr) * cols + bc * fc];
    for (int r = br * fr; r < std::min(rows, br * fr + fr); ++r) {
        for (int c = bc * fc; c < std::min(cols, bc * fc + fc); ++c) {
            const float v = values[static_cast<std::size_t>(r) * cols + c];
            if (!std::isnan(kept) && (std::isnan(v) || std::fabs(v) > std::fabs(kept))) kept = v;
        }
    }
    return kept;
}

}  // namespace

TEST_CASE("pooling keeps the value of largest magnitude with its sign, block by block") {
    // 2 × 5, row-major; blocks of 2 × 2 → 1 × 3 (the last block is partial: one column).
    const std::vector<float> values{0.1f, -5.0f, 2.0f, 0.0f, 7.0f,
                                    0.2f, 0.3f, -3.0f, 1.0f, -8.0f};
    const render::PooledMatrix p = render::poolMaxAbs(slice(values, 2, 5), 2, 2);
    CHECK(p.rows == 1);
    CHECK(p.cols == 3);
    CHECK(p.values == std::vector<float>{-5.0f, -3.0f, -8.0f});
}

TEST_CASE("pooling rows and columns by different factors") {
    // 4 × 2 pooled by 4 rows × 1 column → 1 × 2.
    const std::vector<float> values{1, 2, -9, 3, 4, -1, 0, 6};
    const render::PooledMatrix p = render::poolMaxAbs(slice(values, 4, 2), 4, 1);
    CHECK(p.rows == 1);
    CHECK(p.cols == 2);
    CHECK(p.values == std::vector<float>{-9.0f, 6.0f});
}

TEST_CASE("NaN beats everything and infinity beats every finite value") {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    const std::vector<float> values{1e9f, nan, -inf, 3.0f};
    const render::PooledMatrix p = render::poolMaxAbs(slice(values, 1, 4), 1, 2);
    REQUIRE(p.values.size() == 2);
    CHECK(std::isnan(p.values[0]));
    CHECK(p.values[1] == -inf);
}

TEST_CASE("pooling matches the definition on ragged blocks with ties, NaN and infinities") {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    // Narrow blocks (3 columns) and wide ones (32 and 40: whole runs of 16 values and a ragged end).
    for (const auto [rows, cols, fr, fc] : {std::array{7, 11, 4, 3}, std::array{5, 70, 2, 32}, std::array{3, 93, 3, 40}}) {
        CAPTURE(cols);
        // Values from a small set, so ±x ties are common; a NaN after finite values, infinities.
        const std::vector<float> pool{1.0f, -1.0f, 2.0f, -2.0f, 0.0f, 0.5f};
        std::vector<float> values;
        for (int i = 0; i < rows * cols; ++i) values.push_back(pool[static_cast<std::size_t>(i * 7 + i / 5) % pool.size()]);
        values[14] = nan;
        values[26] = inf;
        values[static_cast<std::size_t>(rows * cols - 3)] = -inf;
        const render::PooledMatrix p = render::poolMaxAbs(slice(values, rows, cols), fr, fc);
        REQUIRE(p.rows == (rows + fr - 1) / fr);
        REQUIRE(p.cols == (cols + fc - 1) / fc);
        for (int br = 0; br < p.rows; ++br) {
            for (int bc = 0; bc < p.cols; ++bc) {
                const float got = p.values[static_cast<std::size_t>(br) * p.cols + bc];
                const float want = pooledByDefinition(values, rows, cols, fr, fc, br, bc);
                CHECK_MESSAGE((std::isnan(want) ? std::isnan(got) : got == want), "block ", br, ",", bc);
            }
        }
    }
}

TEST_CASE("a pooled 0/1 mask is kept where any cell of the block is kept") {
    const std::vector<float> mask{0, 0, 1,
                                  0, 0, 0};  // 2 × 3 in blocks of 2 × 2: the second block holds the kept cell
    const render::PooledMatrix p = render::poolMaxAbs(slice(mask, 2, 3), 2, 2);
    CHECK(p.values == std::vector<float>{0.0f, 1.0f});
}

TEST_CASE("the pooling factor is the smallest power of two that fits the limit") {
    CHECK(render::poolingFactor(100, 100) == 1);
    CHECK(render::poolingFactor(101, 100) == 2);
    CHECK(render::poolingFactor(768, 200) == 4);
    CHECK(render::poolingFactor(20000, 16384) == 2);
    CHECK(render::poolingFactor(5, 0) == 8);  // a zero-pixel limit counts as one pixel
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
    const render::HeatmapHandle a = renderer->heatmap(7, slice(values, 2, 2));
    CHECK(renderer->heatmap(7, slice(values, 2, 2)) == a);
    renderer->beginFrame(1);
    renderer->heatmap(7, slice(values, 2, 2));
    CHECK(renderer->stats().uploads == 1);
    renderer->beginFrame(2);
    renderer->heatmap(7, slice(values, 2, 2));
    CHECK(renderer->stats().uploads == 2);
    CHECK_FALSE(renderer->heatmap(8, slice({}, 0, 0)));
}

}  // namespace attnviz::test
