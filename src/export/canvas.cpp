// canvas.cpp — RGBA8 raster with clipped fills, source-over blending and hatching. See canvas.h.
#include "export/canvas.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace attnviz::exporting {
namespace {

std::uint8_t toByte(float value) { return static_cast<std::uint8_t>(std::lround(std::clamp(value, 0.0f, 255.0f))); }

// Porter–Duff source over, straight alpha; `sourceAlpha` in 0 … 1 already includes coverage.
void blendOver(Rgba8& destination, Rgba8 source, float sourceAlpha) {
    if (sourceAlpha <= 0.0f) return;
    const float destinationAlpha = destination.a / 255.0f;
    const float outAlpha = sourceAlpha + destinationAlpha * (1.0f - sourceAlpha);
    const float destinationWeight = destinationAlpha * (1.0f - sourceAlpha);
    const auto mix = [&](std::uint8_t s, std::uint8_t d) { return toByte((s * sourceAlpha + d * destinationWeight) / outAlpha); };
    destination = {mix(source.r, destination.r), mix(source.g, destination.g), mix(source.b, destination.b),
                   toByte(outAlpha * 255.0f)};
}

}  // namespace

Canvas::Canvas(int width, int height, Rgba8 background) : width_(width), height_(height) {
    if (width < 0 || height < 0) throw std::invalid_argument("Canvas size must not be negative.");
    pixels_.assign(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), background);
    opaque_ = background.a == 255;
    drawing_.width = width;
    drawing_.height = height;
    drawing_.background = background;
}

PixelRect Canvas::clip(PixelRect rect) const {
    const int left = std::max(rect.x, 0), top = std::max(rect.y, 0);
    const int right = std::min(rect.right(), width_), bottom = std::min(rect.bottom(), height_);
    return {left, top, std::max(right - left, 0), std::max(bottom - top, 0)};
}

void Canvas::fillRect(PixelRect rect, Rgba8 color) {
    drawing_.primitives.emplace_back(Drawing::Fill{rect, color});
    fillPixels(rect, color);
}

void Canvas::fillCells(Drawing::Cells cells) {
    for (int r = 0; r < cells.rows; ++r) {
        for (int c = 0; c < cells.cols; ++c) fillPixels(cells.cell(r, c), cells.colors[static_cast<std::size_t>(r) * cells.cols + c]);
    }
    drawing_.primitives.emplace_back(std::move(cells));
}

void Canvas::drawLine(Drawing::Line line) {
    drawing_.primitives.emplace_back(line);
    const float dx = line.x1 - line.x0, dy = line.y1 - line.y0, lengthSquared = dx * dx + dy * dy;
    const float reach = line.width / 2.0f + 1.0f;
    // Coverage from the distance of each pixel centre to the segment, over the pixels within reach of it: walk
    // the long axis, visit the short axis's few pixels around the line.
    const auto cover = [&](int x, int y) {
        const float px = x + 0.5f, py = y + 0.5f;
        const float t = lengthSquared > 0.0f ? std::clamp(((px - line.x0) * dx + (py - line.y0) * dy) / lengthSquared, 0.0f, 1.0f) : 0.0f;
        const float distance = std::hypot(px - (line.x0 + t * dx), py - (line.y0 + t * dy));
        const float coverage = std::clamp(line.width / 2.0f + 0.5f - distance, 0.0f, 1.0f);
        if (coverage > 0.0f) blendPixel(x, y, line.color, toByte(coverage * 255.0f));
    };
    const bool wide = std::fabs(dx) >= std::fabs(dy);
    const float from = wide ? std::min(line.x0, line.x1) : std::min(line.y0, line.y1);
    const float to = wide ? std::max(line.x0, line.x1) : std::max(line.y0, line.y1);
    const float slope = wide ? (dx != 0.0f ? dy / dx : 0.0f) : (dy != 0.0f ? dx / dy : 0.0f);
    const float span = reach * std::sqrt(1.0f + slope * slope);
    for (int along = static_cast<int>(std::floor(from - reach)); along <= static_cast<int>(std::ceil(to + reach)); ++along) {
        const float centre = wide ? line.y0 + (along + 0.5f - line.x0) * slope : line.x0 + (along + 0.5f - line.y0) * slope;
        for (int across = static_cast<int>(std::floor(centre - span)); across <= static_cast<int>(std::ceil(centre + span)); ++across) {
            if (wide) cover(along, across);
            else cover(across, along);
        }
    }
}

void Canvas::fillPixels(PixelRect rect, Rgba8 color) {
    const PixelRect r = clip(rect);
    if (r.empty()) return;
    opaque_ = opaque_ && color.a == 255;
    for (int y = r.y; y < r.bottom(); ++y) {
        std::fill_n(pixels_.begin() + static_cast<std::ptrdiff_t>(index(r.x, y)), r.width, color);
    }
}

void Canvas::blendPixel(int x, int y, Rgba8 color, std::uint8_t coverage) {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
    blendOver(pixels_[index(x, y)], color, (coverage / 255.0f) * (color.a / 255.0f));
}

void Canvas::strokeRect(PixelRect rect, Rgba8 color, int thickness) {
    const int t = std::min({thickness, rect.width, rect.height});
    if (t <= 0) return;
    drawing_.primitives.emplace_back(Drawing::Stroke{rect, color, t});
    fillPixels({rect.x, rect.y, rect.width, t}, color);
    fillPixels({rect.x, rect.bottom() - t, rect.width, t}, color);
    fillPixels({rect.x, rect.y + t, t, rect.height - 2 * t}, color);
    fillPixels({rect.right() - t, rect.y + t, t, rect.height - 2 * t}, color);
}

void Canvas::hatchRect(PixelRect rect, Rgba8 lineColor, int spacing, int thickness) {
    const PixelRect r = clip(rect);
    if (spacing <= 0 || thickness <= 0) return;
    drawing_.primitives.emplace_back(Drawing::Hatch{rect, lineColor, spacing, thickness});
    const float alpha = lineColor.a / 255.0f;
    for (int y = r.y; y < r.bottom(); ++y) {
        for (int x = r.x; x < r.right(); ++x) {
            if ((x + y) % spacing < thickness) blendOver(pixels_[index(x, y)], lineColor, alpha);
        }
    }
}

}  // namespace attnviz::exporting
