// colormap.h — the colormaps of every heatmap, as data, with the CPU sampler that colors every cell.
//
// The GUI colors each heatmap texture with sample() when it makes it (render/texture_colors.h; the shader only
// reads the texels); the PNG export calls sample() directly. So a cell has the same color on screen and in an
// exported figure. Special values have their own colors (never a colormap color):
//   NaN → magenta-ish, +inf → white-hot, −inf → near-black blue, masked → grey (hatched where drawn).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace attnviz::colormap {

struct Rgb8 {
    std::uint8_t r, g, b;
    friend bool operator==(const Rgb8&, const Rgb8&) = default;
};

enum class Colormap { Viridis, Cividis, Magma, Coolwarm, RdBu };
inline constexpr int kTableSize = 256;

// Sequential maps (viridis, cividis, magma) are for values with a fixed range such as probabilities [0, 1];
// diverging maps (coolwarm, RdBu) for signed values on a symmetric range ±max|x|.
bool isDiverging(Colormap map);
std::string_view name(Colormap map);                      // "viridis"
std::optional<Colormap> findColormap(std::string_view name);
std::span<const Colormap> allColormaps();
const std::array<Rgb8, kTableSize>& table(Colormap map);

inline constexpr Rgb8 kNanColor{230, 0, 230};         // magenta: "not a number"
inline constexpr Rgb8 kPositiveInfColor{255, 255, 255};
inline constexpr Rgb8 kNegativeInfColor{10, 10, 40};
inline constexpr Rgb8 kMaskedColor{128, 128, 128};    // grey, with hatching where it is drawn
inline constexpr Rgb8 kKeptColor{112, 182, 146};      // the mask matrix's 1: may attend

// Which of the special cases a value is in (Finite otherwise).
enum class ValueClass { Finite, Nan, PositiveInf, NegativeInf };
ValueClass classify(float value);

// The lookup index of a finite value in [lo, hi]: t = clamp((v − lo) / (hi − lo), 0, 1), index =
// min(floor(t · 256), 255). A degenerate range (hi ≤ lo) maps everything to the middle (index 128).
// Every heatmap cell on screen and in an export is colored by this rule (sample below).
int tableIndex(float value, float lo, float hi);

// The color of a value: the special colors for NaN/±inf, the table entry otherwise.
Rgb8 sample(Colormap map, float value, float lo, float hi);

// The display range of a matrix: [0, 1] for probabilities; ±max|x| over finite values for diverging maps
// (±1 when all are zero); [min, max] over finite values otherwise.
struct Range {
    float lo = 0.0f;
    float hi = 1.0f;
};
enum class RangeKind { Probability, Symmetric, MinMax };
Range computeRange(std::span<const float> values, RangeKind kind);
// The same from the finite values' extremes (lo > hi when there is no finite value), for values summarised elsewhere.
Range rangeFromExtremes(float lo, float hi, float maxAbs, RangeKind kind);

// [SECTION] Probabilities: which range their colors span. Attention weights of a diffuse head stay below 0.3,
// so on a fixed 0 … 1 scale every cell is the same dark color; following the data shows the structure.
enum class ProbabilityScale {
    MapMax,  // 0 … the largest weight of the map shown (default: cells stay comparable across the map)
    RowMax,  // each row on its own 0 … its largest weight: where every query looks most, however diffuse
    Fixed,   // 0 … 1: comparable across maps, heads and models
};
std::string_view name(ProbabilityScale scale);  // "map", "row", "fixed" (the command line's and the session's words)
std::optional<ProbabilityScale> findProbabilityScale(std::string_view name);
// What the colorbar says about the scale: "0 … max of this map", "each row ÷ its max", "fixed 0 … 1".
std::string_view describe(ProbabilityScale scale);
// The range a probability map is colored on: [0, largest finite value] for MapMax (at least a tiny positive
// span, so an all-zero map stays at the bottom color), [0, 1] otherwise (RowMax colors rowNormalised values).
Range probabilityRange(std::span<const float> values, ProbabilityScale scale);
// rows × cols values with each row divided by its largest finite value (rows whose largest is not positive, e.g.
// fully masked, are left as they are); NaN and ±∞ stay what they are.
std::vector<float> rowNormalised(std::span<const float> values, int rows, int cols);

}  // namespace attnviz::colormap
