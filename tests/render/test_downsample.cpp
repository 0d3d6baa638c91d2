// test_downsample.cpp — max-|x| pooling keeps what a learner must see: the sign of the strongest value, NaN,
// ±inf, and a kept cell in a mostly masked block. Non-square, asymmetric inputs catch row/column mix-ups.
#include "render/downsample.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace attnviz::test {
namespace {

render::MatrixSlice slice(const std::vector<float>& values, int rows, int cols) { return {values, rows, cols}; }

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
