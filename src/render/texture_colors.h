// texture_colors.h — the pixels of a heatmap texture: every cell colored on the CPU by colormap::sample when the
// texture is made, so the GL renderer's shader only reads texels (under a software rasteriser, coloring per pixel
// in the shader was most of a frame: docs/performance.md) and a cell on screen has the PNG export's color.
#pragma once

#include "colormap/colormap.h"

#include <cstdint>
#include <span>
#include <vector>

namespace attnviz::render {

// colormap::sample(map, v, lo, hi) of every value v, as RGBA8 pixels (alpha 255), four bytes per value in order.
std::vector<std::uint8_t> colorRgba(colormap::Colormap map, std::span<const float> values, float lo, float hi);

}  // namespace attnviz::render
