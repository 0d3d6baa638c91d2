// test_texture_colors.cpp — a heatmap texture's pixels are colormap::sample of each cell, in order, opaque: the
// colors the GL renderer uploads (test_gl_heatmap.cpp checks they reach the screen unchanged).
#include "render/texture_colors.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace attnviz::test {

TEST_CASE("texture colors: colormap::sample of every cell in order, four bytes each, opaque, special values included") {
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> values{-1.0f, 0.25f, 0.5f, 0.999f, 2.0f, std::nanf(""), inf, -inf};
    for (colormap::Colormap map : colormap::allColormaps()) {
        CAPTURE(colormap::name(map));
        const std::vector<std::uint8_t> rgba = render::colorRgba(map, values, 0.0f, 1.0f);
        REQUIRE(rgba.size() == values.size() * 4);
        for (std::size_t i = 0; i < values.size(); ++i) {
            CAPTURE(i);
            CHECK(colormap::Rgb8{rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2]} == colormap::sample(map, values[i], 0.0f, 1.0f));
            CHECK(rgba[4 * i + 3] == 255);
        }
    }
    CHECK(render::colorRgba(colormap::Colormap::Viridis, {}, 0.0f, 1.0f).empty());
}

}  // namespace attnviz::test
