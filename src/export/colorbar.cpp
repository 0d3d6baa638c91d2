// colorbar.cpp — color scale with end labels and nice ticks. See colorbar.h.
#include "export/colorbar.h"

#include "export/number_text.h"
#include "export/text.h"

#include <algorithm>
#include <cmath>

namespace attnviz::exporting {
namespace {

constexpr int kTickLength = 4;
constexpr int kTickLabelGap = 3;

// Base-pixel offset from the bar's top of a value's row.
float rowOf(float value, colormap::Range range, int height) {
    return (range.hi - value) / (range.hi - range.lo) * static_cast<float>(height);
}

}  // namespace

std::vector<ColorbarTick> colorbarTicks(colormap::Range range, int height) {
    std::vector<ColorbarTick> ticks{{range.hi, formatRangeEnd(range.hi)}};
    const float span = range.hi - range.lo;
    // End labels sit inside the bar's extent (a full line from its end); interior labels are centred on
    // their tick: keep half a line plus a gap between them.
    const float clearance = 1.5f * lineMetrics(kTickSize, FontFace::Regular).height() + 3.0f;
    if (span > 0.0f) {
        const float step = niceStep(span, std::max(1, height / 50));
        for (float value = std::ceil(range.lo / step) * step; value < range.hi; value += step) {
            const float row = rowOf(value, range, height);
            if (row < clearance || row > static_cast<float>(height) - clearance) continue;
            ticks.push_back({value, formatTick(value, step)});
        }
    }
    ticks.push_back({range.lo, formatRangeEnd(range.lo)});
    return ticks;
}

int colorbarWidth(colormap::Range range, int height) {
    float widest = 0.0f;
    for (const ColorbarTick& tick : colorbarTicks(range, height)) {
        widest = std::max(widest, textWidth(tick.label, kTickSize, FontFace::Regular));
    }
    return kColorbarBarWidth + kTickLength + kTickLabelGap + static_cast<int>(std::ceil(widest));
}

void drawColorbar(Canvas& canvas, int x, int y, int height, int scale, colormap::Colormap map, colormap::Range range,
                  const Theme& theme) {
    const int barX = x * scale, barY = y * scale, barWidth = kColorbarBarWidth * scale, barHeight = height * scale;
    for (int row = 0; row < barHeight; ++row) {
        const float t = (static_cast<float>(row) + 0.5f) / static_cast<float>(barHeight);
        const float value = range.hi - t * (range.hi - range.lo);
        canvas.fillRect({barX, barY + row, barWidth, 1}, opaque(colormap::sample(map, value, range.lo, range.hi)));
    }
    canvas.strokeRect({barX - scale, barY - scale, barWidth + 2 * scale, barHeight + 2 * scale}, theme.frame, scale);

    const LineMetrics metrics = lineMetrics(kTickSize, FontFace::Regular);
    const TextStyle style{kTickSize * scale, FontFace::Regular, theme.secondaryText};
    for (const ColorbarTick& tick : colorbarTicks(range, height)) {
        const float row = range.hi > range.lo ? rowOf(tick.value, range, height) : 0.0f;
        const int tickY = barY + std::clamp(static_cast<int>(std::lround(row * scale)), 0, barHeight - scale);
        canvas.fillRect({barX + barWidth, tickY, kTickLength * scale, scale}, theme.frame);
        // Centre the label's digits on the tick, but keep the end labels inside the bar's height.
        float baseline = row + (metrics.ascent - metrics.descent) / 2.0f;
        baseline = std::clamp(baseline, metrics.ascent - 2.0f, static_cast<float>(height));
        drawText(canvas, static_cast<float>((x + kColorbarBarWidth + kTickLength + kTickLabelGap) * scale),
                 (static_cast<float>(y) + baseline) * scale, tick.label, style);
    }
}

// [SECTION] The horizontal bar

namespace {

constexpr int kBelowBarHeight = 8;
constexpr int kBelowLabelGap = 6;  // base pixels between two labels

// lo, 0 when the range holds it, and hi.
std::vector<ColorbarTick> belowTicks(colormap::Range range) {
    std::vector<ColorbarTick> ticks{{range.lo, formatRangeEnd(range.lo)}};
    if (range.lo < 0.0f && range.hi > 0.0f) ticks.push_back({0.0f, "0"});
    if (range.hi > range.lo) ticks.push_back({range.hi, formatRangeEnd(range.hi)});
    return ticks;
}

}  // namespace

int colorbarBelowHeight() {
    return kBelowBarHeight + kTickLength + kTickLabelGap + static_cast<int>(std::ceil(lineMetrics(kTickSize, FontFace::Regular).height()));
}

int colorbarBelowMinWidth(colormap::Range range) {
    const std::vector<ColorbarTick> ticks = belowTicks(range);
    return static_cast<int>(std::ceil(textWidth(ticks.front().label, kTickSize, FontFace::Regular) +
                                      textWidth(ticks.back().label, kTickSize, FontFace::Regular))) + kBelowLabelGap;
}

void drawColorbarBelow(Canvas& canvas, int x, int y, int width, int scale, colormap::Colormap map, colormap::Range range,
                       const Theme& theme) {
    const int barX = x * scale, barY = y * scale, barWidth = width * scale, barHeight = kBelowBarHeight * scale;
    for (int column = 0; column < barWidth; ++column) {
        const float t = (static_cast<float>(column) + 0.5f) / static_cast<float>(barWidth);
        const float value = range.lo + t * (range.hi - range.lo);
        canvas.fillRect({barX + column, barY, 1, barHeight}, opaque(colormap::sample(map, value, range.lo, range.hi)));
    }
    canvas.strokeRect({barX - scale, barY - scale, barWidth + 2 * scale, barHeight + 2 * scale}, theme.frame, scale);
    const TextStyle style{kTickSize * scale, FontFace::Regular, theme.secondaryText};
    const float baseline = static_cast<float>(y + kBelowBarHeight + kTickLength + kTickLabelGap) + lineMetrics(kTickSize, FontFace::Regular).ascent;
    const std::vector<ColorbarTick> ticks = belowTicks(range);
    const auto labelWidth = [](const ColorbarTick& tick) { return textWidth(tick.label, kTickSize, FontFace::Regular); };
    // lo's label from the bar's left end, hi's ending at its right end, 0's centred on its tick when it clears both.
    const float loRight = static_cast<float>(x) + labelWidth(ticks.front()) + kBelowLabelGap;
    const float hiLeft = static_cast<float>(x + width) - labelWidth(ticks.back()) - kBelowLabelGap;
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        const ColorbarTick& tick = ticks[i];
        const float span = range.hi - range.lo;
        const float at = static_cast<float>(x) + (span > 0.0f ? (tick.value - range.lo) / span * static_cast<float>(width) : 0.0f);
        float left = at - labelWidth(tick) / 2.0f;
        if (i == 0) left = static_cast<float>(x);
        else if (i + 1 == ticks.size()) left = static_cast<float>(x + width) - labelWidth(tick);
        else if (left < loRight || left + labelWidth(tick) > hiLeft) continue;
        const int tickX = std::clamp(static_cast<int>(std::lround(at * static_cast<float>(scale))), barX, barX + barWidth - scale);
        canvas.fillRect({tickX, barY + barHeight, scale, kTickLength * scale}, theme.frame);
        drawText(canvas, left * static_cast<float>(scale), baseline * static_cast<float>(scale), tick.label, style);
    }
}

}  // namespace attnviz::exporting
