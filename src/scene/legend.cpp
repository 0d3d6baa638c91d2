// legend.cpp — the words beside a map's colour bar, screen and paper alike. See legend.h.
#include "scene/legend.h"

#include "core/names.h"

#include <cmath>

namespace attnviz::scene {

SpecialValues specialValuesIn(const Eigen::Ref<const core::Matrix>& values, const std::function<bool(int, int)>& drawnGrey) {
    SpecialValues found;
    for (Eigen::Index r = 0; r < values.rows(); ++r) {
        for (Eigen::Index c = 0; c < values.cols(); ++c) {
            const float v = values(r, c);
            if (std::isfinite(v) || (drawnGrey && drawnGrey(static_cast<int>(r), static_cast<int>(c)))) continue;
            if (std::isnan(v)) found.nan = true;
            else if (v > 0.0f) found.positiveInf = true;
            else found.negativeInf = true;
        }
    }
    return found;
}

std::string maskedLegend(core::TensorId matrix, core::MaskFill fill) {
    if (matrix == core::TensorId::Mask) return "0: masked";
    if (matrix == core::TensorId::MaskedScores) return "masked (mask = 0): set to " + std::string(core::shownText(fill));
    return "masked (mask = 0): weight 0";
}

std::vector<LegendEntry> legendEntries(const LegendFacts& facts) {
    std::vector<LegendEntry> entries;
    if (facts.isMaskMatrix) entries.push_back({LegendSwatch::Kept, "1: may attend"});
    if (facts.masked || facts.isMaskMatrix) entries.push_back({LegendSwatch::Masked, facts.maskedLabel});
    if (facts.special.nan) entries.push_back({LegendSwatch::Nan, "NaN (not a number)"});
    if (facts.special.positiveInf) entries.push_back({LegendSwatch::PositiveInf, "+\u221E"});
    if (facts.special.negativeInf) entries.push_back({LegendSwatch::NegativeInf, "\u2212\u221E"});
    return entries;
}

}  // namespace attnviz::scene
