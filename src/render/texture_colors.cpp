// texture_colors.cpp — see texture_colors.h.
#include "render/texture_colors.h"

namespace attnviz::render {

std::vector<std::uint8_t> colorRgba(colormap::Colormap map, std::span<const float> values, float lo, float hi) {
    std::vector<std::uint8_t> rgba(values.size() * 4);
    for (std::size_t i = 0; i < values.size(); ++i) {
        const colormap::Rgb8 color = colormap::sample(map, values[i], lo, hi);
        rgba[4 * i] = color.r;
        rgba[4 * i + 1] = color.g;
        rgba[4 * i + 2] = color.b;
        rgba[4 * i + 3] = 255;
    }
    return rgba;
}

}  // namespace attnviz::render
