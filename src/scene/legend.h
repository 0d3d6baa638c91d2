// legend.h — the words beside a map's colour bar, said once for the screen's maps (ui/views/heatmap_view.cpp) and
// the exported panels (export/matrix_panel.cpp): what the hatched cells are (the mask removed them, and what they now
// hold), and which special values — NaN, +∞, −∞ — are among the cells drawn in their own colour.
//
// A masked score is replaced by the fill (−1e9 or −∞) and drawn grey, so its value is not among the colours: the
// special values are looked for only in cells drawn in colour. A masked weight is a real 0, drawn in colour under the
// hatching, so it counts.
// What this file deliberately does not do: paint the swatches (each painter hatches its own way) or place the
// entries (the screen stacks them under the bar, paper flows them under the map).
#pragma once

#include "core/attention.h"
#include "core/matrix.h"

#include <functional>
#include <string>
#include <vector>

namespace attnviz::scene {

enum class LegendSwatch { Kept, Masked, Nan, PositiveInf, NegativeInf };

struct LegendEntry {
    LegendSwatch swatch = LegendSwatch::Masked;
    std::string label;
    friend bool operator==(const LegendEntry&, const LegendEntry&) = default;
};

struct SpecialValues {
    bool nan = false, positiveInf = false, negativeInf = false;
    bool any() const { return nan || positiveInf || negativeInf; }
};

// The special values among `values`' cells, skipping those for which `drawnGrey(row, col)` is true (none when it is
// empty). rows × cols as stored or displayed: the set is the same.
SpecialValues specialValuesIn(const Eigen::Ref<const core::Matrix>& values, const std::function<bool(int, int)>& drawnGrey = {});

// What a masked cell of `matrix` means: the mask's own 0, a score set to the fill, or a weight of 0.
std::string maskedLegend(core::TensorId matrix, core::MaskFill fill);

// The hatched cells of one of two compared sentences' maps: positions the other sentence does not have.
inline constexpr const char* kBeyondOtherSentence = "not in the other sentence";

struct LegendFacts {
    bool isMaskMatrix = false;  // the mask itself: its 1s get an entry too
    bool masked = false;        // some cell is hatched
    std::string maskedLabel;    // maskedLegend(…), or a view's own ("not in the other sentence")
    SpecialValues special;
};

// In order: kept (the mask matrix), masked, NaN, +∞, −∞ — only those the map has.
std::vector<LegendEntry> legendEntries(const LegendFacts& facts);

}  // namespace attnviz::scene
