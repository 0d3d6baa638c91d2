// test_portable.cpp — core/portable.h's stand-ins for what the web page's compiler lacks, checked on the desktop
// against the standard library they replace: the shortest float text against std::to_chars, the float parser
// against std::from_chars, the joining thread and bit cast against what std::jthread and std::bit_cast do.
#include "core/portable.h"

#include <doctest/doctest.h>

#include <atomic>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using attnviz::core::detail::parseFloatByStrtof;
using attnviz::core::detail::shortestTextBySearch;

std::string standardShortest(float value) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

// Floats a cell editor meets (round numbers, tenths, powers of ten, the extremes) and random bit patterns.
std::vector<float> sampleFloats() {
    std::vector<float> values{0.0f, -0.0f, 1.0f, -1.0f, 100.0f, 0.1f, 0.5f, 1e-3f, 1e10f, 1e-5f, 123456.0f, 1234567.0f, 12345678.0f,
                              3.14159f, 0.3f, 1e38f, std::numeric_limits<float>::max(), std::numeric_limits<float>::min(),
                              std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::infinity(),
                              -std::numeric_limits<float>::infinity()};
    for (int exponent = -45; exponent <= 38; ++exponent) values.push_back(std::strtof(("1e" + std::to_string(exponent)).c_str(), nullptr));
    std::mt19937 random(38);
    for (int i = 0; i < 20000; ++i) {
        const float value = std::bit_cast<float>(static_cast<std::uint32_t>(random()));
        if (!std::isnan(value)) values.push_back(value);
    }
    return values;
}

}  // namespace

TEST_CASE("the page's shortest float text is std::to_chars's, character for character") {
    int differing = 0;
    for (const float value : sampleFloats()) {
        const std::string expected = standardShortest(value), got = shortestTextBySearch(value);
        if (got != expected && ++differing <= 5) CHECK_MESSAGE(got == expected, "value bits " << std::bit_cast<std::uint32_t>(value));
    }
    CHECK(differing == 0);
    CHECK(shortestTextBySearch(std::numeric_limits<float>::quiet_NaN()) == "nan");
}

TEST_CASE("the page's float parser reads what std::from_chars reads and refuses what it refuses") {
    for (const float value : sampleFloats()) {
        const std::string text = standardShortest(value);
        float parsed = 0.0f;
        REQUIRE(parseFloatByStrtof(text, parsed) == std::errc());
        CHECK(std::bit_cast<std::uint32_t>(parsed) == std::bit_cast<std::uint32_t>(value));
    }
    float unused = 0.0f;
    for (const char* bad : {"", " 1", "+1", "0x1p3", "1.5x", "abc", "1e", "--1"}) {
        CAPTURE(bad);
        CHECK(parseFloatByStrtof(bad, unused) == std::errc::invalid_argument);
    }
    CHECK(parseFloatByStrtof("1e39", unused) == std::errc::result_out_of_range);
    CHECK(parseFloatByStrtof("-1e39", unused) == std::errc::result_out_of_range);
}

TEST_CASE("JoiningThread joins when it goes, and bitCast keeps the bits") {
    std::atomic<int> done{0};
    {
        std::vector<attnviz::core::JoiningThread> threads;
        for (int i = 0; i < 3; ++i) threads.emplace_back([&done] { ++done; });
    }
    CHECK(done == 3);
    CHECK(attnviz::core::bitCast<std::uint32_t>(1.0f) == 0x3f800000u);
    CHECK(attnviz::core::bitCast<float>(0xc0000000u) == -2.0f);
}
