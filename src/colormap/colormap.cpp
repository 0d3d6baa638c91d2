// colormap.cpp — lookup tables and the CPU sampler (the shader's twin). See colormap.h.
#include "colormap/colormap.h"

#include <algorithm>
#include <cmath>

namespace attnviz::colormap {
namespace {
#include "colormap/colormap_tables.inc"

constexpr std::array<Colormap, 5> kAll{Colormap::Viridis, Colormap::Cividis, Colormap::Magma,
                                       Colormap::Coolwarm, Colormap::RdBu};
}  // namespace

bool isDiverging(Colormap map) { return map == Colormap::Coolwarm || map == Colormap::RdBu; }

std::string_view name(Colormap map) {
    switch (map) {
        case Colormap::Viridis: return "viridis";
        case Colormap::Cividis: return "cividis";
        case Colormap::Magma: return "magma";
        case Colormap::Coolwarm: return "coolwarm";
        case Colormap::RdBu: return "rdbu";
    }
    return "viridis";
}

std::optional<Colormap> findColormap(std::string_view wanted) {
    for (Colormap map : kAll) {
        if (name(map) == wanted) return map;
    }
    return std::nullopt;
}

std::span<const Colormap> allColormaps() { return kAll; }

const std::array<Rgb8, kTableSize>& table(Colormap map) {
    switch (map) {
        case Colormap::Viridis: return kViridisTable;
        case Colormap::Cividis: return kCividisTable;
        case Colormap::Magma: return kMagmaTable;
        case Colormap::Coolwarm: return kCoolwarmTable;
        case Colormap::RdBu: return kRdbuTable;
    }
    return kViridisTable;
}

ValueClass classify(float value) {
    if (std::isnan(value)) return ValueClass::Nan;
    if (std::isinf(value)) return value > 0 ? ValueClass::PositiveInf : ValueClass::NegativeInf;
    return ValueClass::Finite;
}

int tableIndex(float value, float lo, float hi) {
    if (!(hi > lo)) return kTableSize / 2;
    const float t = std::clamp((value - lo) / (hi - lo), 0.0f, 1.0f);
    return std::min(static_cast<int>(std::floor(t * kTableSize)), kTableSize - 1);
}

Rgb8 sample(Colormap map, float value, float lo, float hi) {
    switch (classify(value)) {
        case ValueClass::Nan: return kNanColor;
        case ValueClass::PositiveInf: return kPositiveInfColor;
        case ValueClass::NegativeInf: return kNegativeInfColor;
        case ValueClass::Finite: break;
    }
    return table(map)[static_cast<std::size_t>(tableIndex(value, lo, hi))];
}

Range computeRange(std::span<const float> values, RangeKind kind) {
    if (kind == RangeKind::Probability) return {0.0f, 1.0f};
    float lo = INFINITY, hi = -INFINITY, maxAbs = 0.0f;
    for (float v : values) {
        if (!std::isfinite(v)) continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        maxAbs = std::max(maxAbs, std::fabs(v));
    }
    return rangeFromExtremes(lo, hi, maxAbs, kind);
}

Range rangeFromExtremes(float lo, float hi, float maxAbs, RangeKind kind) {
    if (kind == RangeKind::Probability) return {0.0f, 1.0f};
    if (kind == RangeKind::Symmetric) {
        if (maxAbs == 0.0f) maxAbs = 1.0f;
        return {-maxAbs, maxAbs};
    }
    if (!(hi >= lo)) return {0.0f, 1.0f};  // no finite value
    if (hi == lo) return {lo - 0.5f, hi + 0.5f};
    return {lo, hi};
}

std::string_view name(ProbabilityScale scale) {
    switch (scale) {
        case ProbabilityScale::MapMax: return "map";
        case ProbabilityScale::RowMax: return "row";
        case ProbabilityScale::Fixed: return "fixed";
    }
    return "map";
}

std::optional<ProbabilityScale> findProbabilityScale(std::string_view wanted) {
    for (ProbabilityScale scale : {ProbabilityScale::MapMax, ProbabilityScale::RowMax, ProbabilityScale::Fixed}) {
        if (name(scale) == wanted) return scale;
    }
    return std::nullopt;
}

std::string_view describe(ProbabilityScale scale) {
    switch (scale) {
        case ProbabilityScale::MapMax: return "0 \u2026 max of this map";
        case ProbabilityScale::RowMax: return "each row \u00F7 its max";
        case ProbabilityScale::Fixed: return "fixed 0 \u2026 1";
    }
    return "";
}

Range probabilityRange(std::span<const float> values, ProbabilityScale scale) {
    if (scale != ProbabilityScale::MapMax) return {0.0f, 1.0f};
    float largest = 0.0f;
    for (float v : values) {
        if (std::isfinite(v)) largest = std::max(largest, v);
    }
    return {0.0f, std::max(largest, 1e-6f)};
}

std::vector<float> rowNormalised(std::span<const float> values, int rows, int cols) {
    std::vector<float> out(values.begin(), values.end());
    for (int r = 0; r < rows; ++r) {
        const std::span<float> row(out.data() + static_cast<std::size_t>(r) * cols, static_cast<std::size_t>(cols));
        float largest = 0.0f;
        for (float v : row) {
            if (std::isfinite(v)) largest = std::max(largest, v);
        }
        if (largest <= 0.0f) continue;
        for (float& v : row) {
            if (std::isfinite(v)) v /= largest;
        }
    }
    return out;
}

}  // namespace attnviz::colormap
