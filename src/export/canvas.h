// canvas.h — the raster every exported figure is drawn on: RGBA8, row-major, straight (not premultiplied) alpha.
//
// Pixel (x, y) is pixels[y · width + x], bytes r, g, b, a; y grows downwards: the order of PNG rows, so the
// bytes go to libpng as they are. Every drawing call clips to the canvas, so a layout mistake can cut a
// figure but never write outside it. Blending is Porter–Duff "source over" onto a possibly transparent
// destination, so text and hatching look right on the transparent background too.
//
// Every call is also recorded in the canvas's Drawing (drawing.h), so the same figure can be painted as SVG or
// PDF; text.h records its text runs there as it rasterises them.
//
// What this file deliberately does not do: text (text.h), anti-aliased shapes, curves, or any notion of layout.
#pragma once

#include "colormap/colormap.h"
#include "export/drawing.h"

#include <cstdint>
#include <span>
#include <vector>

namespace attnviz::exporting {

static_assert(sizeof(Rgba8) == 4, "a Canvas's pixels are handed to libpng as bytes");

inline constexpr Rgba8 opaque(colormap::Rgb8 c) { return {c.r, c.g, c.b, 255}; }

class Canvas {
public:
    // A width × height image filled with `background`. Throws std::invalid_argument for a negative size.
    Canvas(int width, int height, Rgba8 background);

    int width() const { return width_; }
    int height() const { return height_; }
    // height rows of width · 4 bytes (r, g, b, a).
    std::span<const std::uint8_t> bytes() const {
        return {reinterpret_cast<const std::uint8_t*>(pixels_.data()), pixels_.size() * sizeof(Rgba8)};
    }
    Rgba8 pixel(int x, int y) const { return pixels_[index(x, y)]; }  // x, y must be inside
    // True when every pixel has alpha 255 (known without a scan: only a see-through background or a see-through
    // fill can make a pixel see-through; blending onto an opaque pixel keeps it opaque).
    bool isOpaque() const { return opaque_; }

    // Replaces the pixels of the rectangle (no blending): heatmap cells keep their exact colormap color.
    void fillRect(PixelRect rect, Rgba8 color);
    // A heatmap's cells, each filled as fillRect fills, recorded as one Cells primitive.
    void fillCells(Drawing::Cells cells);
    // Blends an anti-aliased line `width` pixels wide from (x0, y0) to (x1, y1) (pixel centres at + ½).
    void drawLine(Drawing::Line line);
    // Blends `color` over one pixel with coverage 0 … 255 (text anti-aliasing) times the color's alpha.
    void blendPixel(int x, int y, Rgba8 color, std::uint8_t coverage);
    // A 1-pixel-wide outline drawn `thickness` pixels inwards from the rectangle's edge.
    void strokeRect(PixelRect rect, Rgba8 color, int thickness);
    // Diagonal lines (↗ direction) over the rectangle, `spacing` pixels apart and `thickness` wide, phased on
    // canvas coordinates so neighbouring hatched rectangles join into one continuous pattern.
    void hatchRect(PixelRect rect, Rgba8 lineColor, int spacing, int thickness);
    // Adds a text run text.h has rasterised to the description.
    void recordText(Drawing::Text text) { drawing_.primitives.emplace_back(std::move(text)); }

    // Everything drawn so far, as primitives.
    const Drawing& drawing() const { return drawing_; }

private:
    PixelRect clip(PixelRect rect) const;
    void fillPixels(PixelRect rect, Rgba8 color);
    std::size_t index(int x, int y) const { return static_cast<std::size_t>(y) * width_ + x; }

    int width_;
    int height_;
    std::vector<Rgba8> pixels_;
    bool opaque_ = true;
    Drawing drawing_;
};

}  // namespace attnviz::exporting
