// narrow_range.cpp — the note for a probability map whose values barely differ. See narrow_range.h.
#include "core/narrow_range.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace attnviz::core {
namespace {

std::string fixed(float value, int decimals) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, static_cast<double>(value));
    return text;
}

}  // namespace

std::optional<std::string> narrowRangeNote(std::span<const float> probabilities) {
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (float p : probabilities) {
        if (!std::isfinite(p)) continue;
        lo = std::min(lo, p);
        hi = std::max(hi, p);
    }
    if (lo > hi || hi - lo >= kNarrowProbabilitySpan) return std::nullopt;
    const int decimals = fixed(lo, 2) == fixed(hi, 2) ? 3 : 2;
    return "narrow range: " + fixed(lo, decimals) + " \u2026 " + fixed(hi, decimals);
}

}  // namespace attnviz::core
