// colorbar.cpp — a colour bar's rows, frame, ticks and labels. See colorbar.h.
#include "scene/colorbar.h"

#include "scene/number_text.h"

#include <algorithm>
#include <cmath>

namespace attnviz::scene {
namespace {

Rgba8 opaqueSample(colormap::Colormap map, float value, colormap::Range range) {
    const colormap::Rgb8 c = colormap::sample(map, value, range.lo, range.hi);
    return {c.r, c.g, c.b, 255};
}

// Pixel offset (unit 1) from the bar's top of a value's row.
float rowOf(float value, colormap::Range range, int height) {
    return (range.hi - value) / (range.hi - range.lo) * static_cast<float>(height);
}

float labelWidth(const ColorbarTick& tick, const ColorbarSizes& sizes, const TypeMeasure& type) {
    return type.width(tick.label, sizes.labelSize, FontFace::Regular);
}

Drawing::Stroke frameAround(const PixelRect& bar, Rgba8 colour, int unit) {
    return {{bar.x - unit, bar.y - unit, bar.width + 2 * unit, bar.height + 2 * unit}, colour, unit};
}

// lo, 0 when the range holds it, and hi.
std::vector<ColorbarTick> belowTicks(colormap::Range range) {
    std::vector<ColorbarTick> ticks{{range.lo, formatRangeEnd(range.lo)}};
    if (range.lo < 0.0f && range.hi > 0.0f) ticks.push_back({0.0f, "0"});
    if (range.hi > range.lo) ticks.push_back({range.hi, formatRangeEnd(range.hi)});
    return ticks;
}

ColorbarPicture vertical(const ColorbarSpec& spec, const ColorbarSizes& sizes, const TypeMeasure& type, const ColorbarInk& ink) {
    const int u = spec.unit, height = spec.length;
    const colormap::Range range = spec.range;
    ColorbarPicture picture;
    picture.bar = {spec.x * u, spec.y * u, sizes.barWidth * u, height * u};
    const PixelRect& bar = picture.bar;
    for (int row = 0; row < bar.height; ++row) {
        const float t = (static_cast<float>(row) + 0.5f) / static_cast<float>(bar.height);
        picture.colours.push_back({{bar.x, bar.y + row, bar.width, 1}, opaqueSample(spec.map, range.hi - t * (range.hi - range.lo), range)});
    }
    picture.frame = frameAround(bar, ink.frame, u);
    const float ascent = type.ascent(sizes.labelSize), descent = type.descent(sizes.labelSize);
    const float labelX = static_cast<float>((spec.x + sizes.barWidth + sizes.tickLength + sizes.labelGap) * u);
    for (ColorbarTick& tick : colorbarTicks(range, height, sizes, type)) {
        const float row = range.hi > range.lo ? rowOf(tick.value, range, height) : 0.0f;
        const int tickY = bar.y + std::clamp(static_cast<int>(std::lround(row * u)), 0, bar.height - u);
        picture.ticks.push_back({{bar.right(), tickY, sizes.tickLength * u, u}, ink.frame});
        // The label's digits centred on the tick, but the end labels inside the bar's height.
        const float baseline = std::clamp(row + (ascent - descent) / 2.0f, ascent - 2.0f, static_cast<float>(height));
        picture.labels.push_back({labelX, (static_cast<float>(spec.y) + baseline) * u, sizes.labelSize * u, std::move(tick.label), FontFace::Regular, ink.text});
    }
    return picture;
}

ColorbarPicture horizontal(const ColorbarSpec& spec, const ColorbarSizes& sizes, const TypeMeasure& type, const ColorbarInk& ink) {
    const int u = spec.unit, x = spec.x, width = spec.length;
    const colormap::Range range = spec.range;
    ColorbarPicture picture;
    picture.bar = {x * u, spec.y * u, width * u, sizes.belowBarHeight * u};
    const PixelRect& bar = picture.bar;
    for (int column = 0; column < bar.width; ++column) {
        const float t = (static_cast<float>(column) + 0.5f) / static_cast<float>(bar.width);
        picture.colours.push_back({{bar.x + column, bar.y, 1, bar.height}, opaqueSample(spec.map, range.lo + t * (range.hi - range.lo), range)});
    }
    picture.frame = frameAround(bar, ink.frame, u);
    const float baseline = static_cast<float>(spec.y + sizes.belowBarHeight + sizes.tickLength + sizes.labelGap) + type.ascent(sizes.labelSize);
    std::vector<ColorbarTick> ticks = belowTicks(range);
    // lo's label from the bar's left end, hi's ending at its right end, 0's centred on its tick when it clears both.
    const float loRight = static_cast<float>(x) + labelWidth(ticks.front(), sizes, type) + static_cast<float>(sizes.belowLabelGap);
    const float hiLeft = static_cast<float>(x + width) - labelWidth(ticks.back(), sizes, type) - static_cast<float>(sizes.belowLabelGap);
    const float span = range.hi - range.lo;
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        ColorbarTick& tick = ticks[i];
        const float at = static_cast<float>(x) + (span > 0.0f ? (tick.value - range.lo) / span * static_cast<float>(width) : 0.0f);
        const float w = labelWidth(tick, sizes, type);
        float left = at - w / 2.0f;
        if (i == 0) left = static_cast<float>(x);
        else if (i + 1 == ticks.size()) left = static_cast<float>(x + width) - w;
        else if (left < loRight || left + w > hiLeft) continue;
        const int tickX = std::clamp(static_cast<int>(std::lround(at * static_cast<float>(u))), bar.x, bar.right() - u);
        picture.ticks.push_back({{tickX, bar.bottom(), u, sizes.tickLength * u}, ink.frame});
        picture.labels.push_back({left * static_cast<float>(u), baseline * static_cast<float>(u), sizes.labelSize * u, std::move(tick.label), FontFace::Regular, ink.text});
    }
    return picture;
}

}  // namespace

std::vector<ColorbarTick> colorbarTicks(colormap::Range range, int height, const ColorbarSizes& sizes, const TypeMeasure& type) {
    std::vector<ColorbarTick> ticks{{range.hi, formatRangeEnd(range.hi)}};
    const float line = type.lineHeight(sizes.labelSize);
    if (static_cast<float>(height) < 2.0f * line) return ticks;
    const float span = range.hi - range.lo;
    // End labels sit inside the bar's extent (a full line from its end); interior labels are centred on
    // their tick: keep half a line plus a gap between them.
    const float clearance = 1.5f * line + 3.0f;
    if (span > 0.0f) {
        const float step = niceStep(span, std::max(1, height / std::max(1, sizes.tickSpacing)));
        for (float value = std::ceil(range.lo / step) * step; value < range.hi; value += step) {
            const float row = rowOf(value, range, height);
            if (row < clearance || row > static_cast<float>(height) - clearance) continue;
            ticks.push_back({value, formatTick(value, step)});
        }
    }
    ticks.push_back({range.lo, formatRangeEnd(range.lo)});
    return ticks;
}

int colorbarWidth(colormap::Range range, int height, const ColorbarSizes& sizes, const TypeMeasure& type) {
    float widest = 0.0f;
    for (const ColorbarTick& tick : colorbarTicks(range, height, sizes, type)) widest = std::max(widest, labelWidth(tick, sizes, type));
    return sizes.barWidth + sizes.tickLength + sizes.labelGap + static_cast<int>(std::ceil(widest));
}

int colorbarBelowHeight(const ColorbarSizes& sizes, const TypeMeasure& type) {
    return sizes.belowBarHeight + sizes.tickLength + sizes.labelGap + static_cast<int>(std::ceil(type.lineHeight(sizes.labelSize)));
}

int colorbarBelowMinWidth(colormap::Range range, const ColorbarSizes& sizes, const TypeMeasure& type) {
    const std::vector<ColorbarTick> ticks = belowTicks(range);
    return static_cast<int>(std::ceil(labelWidth(ticks.front(), sizes, type) + labelWidth(ticks.back(), sizes, type))) + sizes.belowLabelGap;
}

ColorbarPicture colorbar(const ColorbarSpec& spec, const ColorbarSizes& sizes, const TypeMeasure& type, const ColorbarInk& ink) {
    return spec.below ? horizontal(spec, sizes, type, ink) : vertical(spec, sizes, type, ink);
}

}  // namespace attnviz::scene
