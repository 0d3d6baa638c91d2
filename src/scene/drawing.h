// drawing.h — a picture as a list of primitives: the one description its players paint. The exporters' raster
// canvas (export/canvas.h), SVG painter (export/svg_painter.h) and PDF painter (export/pdf_painter.h) play it on
// paper; ui/views/drawing_player.h plays it into ImGui's draw list on screen. Plain data: no ImGui, no files.
//
// Six primitives, in drawing order, in canvas pixels (x right, y down, origin at the top-left corner):
//   Fill    a rectangle in one colour
//   Cells   a heatmap: cols × rows cells of one size, each in its exact colormap colour (row-major)
//   Stroke  a rectangle's outline drawn `thickness` pixels inwards from its edge
//   Line    a straight anti-aliased line `width` pixels wide (the token → token lines; alpha is the weight)
//   Hatch   diagonal ↗ lines over a rectangle, `spacing` apart and `thickness` wide, phased on the canvas origin
//   Text    one run of text (already in visual order, core::displayText) in DejaVu Sans at an em size in pixels,
//           its pen at (x, baseline); upwards: a quarter turn counter-clockwise, the baseline at x, the pen at y
// What this file deliberately does not do: paint (the players do), lay out, or measure text (export/text.h and
// ImGui's fonts measure, each for its own player).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace attnviz::scene {

struct Rgba8 {
    std::uint8_t r = 0, g = 0, b = 0, a = 255;
    friend bool operator==(const Rgba8&, const Rgba8&) = default;
};

// An axis-aligned pixel rectangle: columns x … x+width−1, rows y … y+height−1.
struct PixelRect {
    int x = 0, y = 0, width = 0, height = 0;
    int right() const { return x + width; }
    int bottom() const { return y + height; }
    bool empty() const { return width <= 0 || height <= 0; }
};

enum class FontFace { Regular, Bold, Mono };  // DejaVu Sans, DejaVu Sans Bold, DejaVu Sans Mono (code)

struct Drawing {
    struct Fill {
        PixelRect rect;
        Rgba8 color;
    };
    struct Cells {
        int x = 0, y = 0, cellWidth = 1, cellHeight = 1, cols = 0, rows = 0;
        std::vector<Rgba8> colors;  // rows × cols, row-major
        PixelRect cell(int row, int col) const { return {x + col * cellWidth, y + row * cellHeight, cellWidth, cellHeight}; }
    };
    struct Stroke {
        PixelRect rect;
        Rgba8 color;
        int thickness = 1;
    };
    struct Line {
        float x0 = 0.0f, y0 = 0.0f, x1 = 0.0f, y1 = 0.0f, width = 1.0f;
        Rgba8 color;
    };
    struct Hatch {
        PixelRect rect;
        Rgba8 color;
        int spacing = 5, thickness = 1;
    };
    struct Text {
        int x = 0, baseline = 0;  // upwards: x is the baseline, baseline the pen's y
        std::string utf8;
        float size = 12.0f;
        FontFace face = FontFace::Regular;
        Rgba8 color;
        bool upwards = false;
    };
    using Primitive = std::variant<Fill, Cells, Stroke, Line, Hatch, Text>;

    int width = 0, height = 0;
    Rgba8 background;
    std::vector<Primitive> primitives;
};

}  // namespace attnviz::scene
