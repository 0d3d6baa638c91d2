// label_fit.cpp — the one label-fitting rule. See label_fit.h.
#include "scene/label_fit.h"

#include "scene/axis_labels.h"
#include "scene/layout.h"

#include <algorithm>

namespace attnviz::scene {

float tokenLabelRoomOfEm(float labelEm) { return kTokenLabelRoomPerEm * labelEm - kLabelSlack; }

AxisLabelFit fitAxisLabels(const AxisFitSpec& spec) {
    if (spec.tokens) {
        const float size = std::clamp(spec.cellExtent / kTokenLabelRoomPerEm, spec.floor, std::max(spec.floor, spec.full));
        return {size, labelStep(spec.count, spec.cellExtent, tokenLabelRoomOfEm(size), spec.headBlock)};
    }
    const float room = spec.columns ? spec.widestNumber + spec.numberGap : kDejaVuLinePerEm * spec.full;
    return {spec.full, labelStep(spec.count, spec.cellExtent, room, spec.headBlock)};
}

}  // namespace attnviz::scene
