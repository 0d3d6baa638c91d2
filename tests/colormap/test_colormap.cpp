// test_colormap.cpp — the CPU sampler the shader mirrors: ends, clamping, the top index, special values.
#include "colormap/colormap.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

using namespace attnviz::colormap;

TEST_CASE("index rule: 0 → first entry, 1 → last entry, clamped outside, degenerate range → middle") {
    CHECK(tableIndex(0.0f, 0.0f, 1.0f) == 0);
    CHECK(tableIndex(1.0f, 0.0f, 1.0f) == 255);      // t = 1 would be 256: the top index is clamped
    CHECK(tableIndex(0.999f, 0.0f, 1.0f) == 255);
    CHECK(tableIndex(0.5f, 0.0f, 1.0f) == 128);
    CHECK(tableIndex(-3.0f, 0.0f, 1.0f) == 0);
    CHECK(tableIndex(7.0f, 0.0f, 1.0f) == 255);
    CHECK(tableIndex(0.0f, -2.0f, 2.0f) == 128);
    CHECK(tableIndex(5.0f, 1.0f, 1.0f) == 128);
}

TEST_CASE("viridis runs from dark purple to yellow — coolwarm is blue → red") {
    CHECK(sample(Colormap::Viridis, 0.0f, 0, 1) == Rgb8{68, 1, 84});
    CHECK(sample(Colormap::Viridis, 1.0f, 0, 1) == Rgb8{253, 231, 37});
    const Rgb8 low = sample(Colormap::Coolwarm, -1.0f, -1, 1), high = sample(Colormap::Coolwarm, 1.0f, -1, 1);
    CHECK(low.b > low.r);
    CHECK(high.r > high.b);
}

TEST_CASE("NaN and ±inf get their own colors, never a colormap color") {
    const float inf = std::numeric_limits<float>::infinity();
    CHECK(sample(Colormap::Viridis, std::nanf(""), 0, 1) == kNanColor);
    CHECK(sample(Colormap::Viridis, inf, 0, 1) == kPositiveInfColor);
    CHECK(sample(Colormap::Viridis, -inf, 0, 1) == kNegativeInfColor);
    CHECK(classify(1.0f) == ValueClass::Finite);
}

TEST_CASE("ranges: probability fixed, symmetric ±max|x| over finite values, min-max") {
    const std::vector<float> v{-0.5f, 2.0f, std::nanf(""), -std::numeric_limits<float>::infinity()};
    const Range sym = computeRange(v, RangeKind::Symmetric);
    CHECK(sym.lo == -2.0f);
    CHECK(sym.hi == 2.0f);
    const Range mm = computeRange(v, RangeKind::MinMax);
    CHECK(mm.lo == -0.5f);
    CHECK(mm.hi == 2.0f);
    CHECK(computeRange(v, RangeKind::Probability).hi == 1.0f);
    CHECK(computeRange(std::vector<float>{0, 0}, RangeKind::Symmetric).hi == 1.0f);
    CHECK(computeRange(std::vector<float>{}, RangeKind::MinMax).hi == 1.0f);
}

TEST_CASE("colormaps are found by name, and every table has 256 entries") {
    for (Colormap map : allColormaps()) {
        CHECK(findColormap(name(map)) == map);
        CHECK(table(map).size() == 256);
    }
    CHECK_FALSE(findColormap("jet").has_value());
    CHECK(isDiverging(Colormap::Coolwarm));
    CHECK_FALSE(isDiverging(Colormap::Viridis));
}

TEST_CASE("probability scales: map max spans 0 to the largest finite weight, row max divides each row by its own") {
    const std::vector<float> weights{0.1f, 0.3f, 0.2f,   // row 0: max 0.3
                                     0.0f, 0.0f, 0.0f,   // row 1: fully masked, left as it is
                                     0.25f, std::numeric_limits<float>::quiet_NaN(), 0.05f};
    const Range map = probabilityRange(weights, ProbabilityScale::MapMax);
    CHECK(map.lo == 0.0f);
    CHECK(map.hi == doctest::Approx(0.3f));
    CHECK(probabilityRange(weights, ProbabilityScale::Fixed).hi == 1.0f);
    CHECK(probabilityRange(weights, ProbabilityScale::RowMax).hi == 1.0f);
    CHECK(probabilityRange(std::vector<float>(4, 0.0f), ProbabilityScale::MapMax).hi > 0.0f);  // never a zero span

    const std::vector<float> rows = rowNormalised(weights, 3, 3);
    CHECK(rows[0] == doctest::Approx(1.0f / 3.0f));
    CHECK(rows[1] == doctest::Approx(1.0f));
    CHECK(rows[3] == 0.0f);
    CHECK(rows[6] == doctest::Approx(1.0f));
    CHECK(std::isnan(rows[7]));
    CHECK(rows[8] == doctest::Approx(0.2f));

    CHECK(findProbabilityScale("row") == ProbabilityScale::RowMax);
    CHECK(name(ProbabilityScale::MapMax) == "map");
    CHECK_FALSE(findProbabilityScale("rows").has_value());
}
