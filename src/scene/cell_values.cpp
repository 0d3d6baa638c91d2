// cell_values.cpp — one size for a map's numbers, each centred on its cell. See cell_values.h.
#include "scene/cell_values.h"

#include <algorithm>

namespace attnviz::scene {

float cellValueCeiling(const CellValueSizing& sizing) {
    const float size = std::min(sizing.full, sizing.heightShare * sizing.cellHeight);
    return size >= sizing.floor ? size : 0.0f;
}

float cellValueSize(const CellValueSizing& sizing, std::span<const std::string> texts, const TypeMeasure& type) {
    float size = cellValueCeiling(sizing);
    if (size <= 0.0f) return 0.0f;
    // Widths are proportional to the size: measured at 1 em, the largest size that fits is the room over the width.
    const float room = sizing.cellWidth - 2.0f * sizing.padding;
    for (const std::string& text : texts) {
        const float unitWidth = type.width(text, 1.0f, FontFace::Regular);
        if (unitWidth > 0.0f) size = std::min(size, room / unitWidth);
    }
    return size >= sizing.floor ? size : 0.0f;
}

Rgba8 cellValueInk(colormap::Rgb8 background) {
    const bool dark = 0.2126f * background.r + 0.7152f * background.g + 0.0722f * background.b < 140.0f;
    return dark ? Rgba8{255, 255, 255, 235} : Rgba8{20, 20, 20, 235};
}

std::vector<AxisLabel> cellValues(const CellGrid& grid, float size, const CellTextOf& textOf, const CellColourOf& colourOf, const TypeMeasure& type) {
    std::vector<AxisLabel> values;
    if (size <= 0.0f) return values;
    for (int r = 0; r < grid.rows; ++r) {
        for (int c = 0; c < grid.cols; ++c) {
            std::string text = textOf(r, c);
            if (text.empty()) continue;
            const float width = type.width(text, size, FontFace::Regular);
            const float x = grid.x + static_cast<float>(c) * grid.cellWidth + (grid.cellWidth - width) / 2.0f;
            const float baseline = grid.y + static_cast<float>(r) * grid.cellHeight + grid.cellHeight / 2.0f + kCapMiddleEm * size;
            values.push_back({x, baseline, size, std::move(text), FontFace::Regular, cellValueInk(colourOf(r, c))});
        }
    }
    return values;
}

}  // namespace attnviz::scene
