// axis_labels.cpp — the label thinning rule. See axis_labels.h.
#include "scene/axis_labels.h"

#include "scene/label_fit.h"
#include "scene/layout.h"

#include <algorithm>
#include <vector>

namespace attnviz::scene {
namespace {

// The steps a thinned axis may label every n-th cell with, smallest first.
std::vector<int> candidateSteps(int count, int headBlock) {
    std::vector<int> steps;
    if (headBlock > 1) {
        for (int d = 1; d < headBlock; ++d) {
            if (headBlock % d == 0) steps.push_back(d);
        }
        for (int step = headBlock; step < 2 * count; step *= 2) steps.push_back(step);
    } else {
        for (int power = 1; power < 2 * count; power *= 10) {
            for (int factor : {1, 2, 5}) steps.push_back(factor * power);
        }
    }
    return steps;
}

}  // namespace

int labelStep(int count, float cellExtent, float room, int headBlock) {
    for (const int step : candidateSteps(count, headBlock)) {
        if (static_cast<float>(step) * cellExtent >= room) return std::min(step, std::max(count, 1));
    }
    return std::max(count, 1);
}

float tokenLabelRoom(float labelSize) { return tokenLabelRoomOfEm(labelSize / kDejaVuLinePerEm); }  // label_fit.h's rule

std::vector<int> labelledCells(int count, int step, std::optional<int> focus) {
    std::vector<int> cells;
    for (int i = 0; i < count; i += std::max(step, 1)) cells.push_back(i);
    if (focus && *focus >= 0 && *focus < count && !std::binary_search(cells.begin(), cells.end(), *focus)) {
        cells.insert(std::upper_bound(cells.begin(), cells.end(), *focus), *focus);
    }
    return cells;
}

namespace {

float middleOf(const AxisLabelSpec& spec, int cell) { return spec.start + (static_cast<float>(cell) + 0.5f) * spec.extent; }

Rgba8 inkOf(const AxisLabelSpec& spec, const LabelInk& ink, int cell) {
    if (spec.focus == cell) return ink.focus;
    return cell >= spec.paddingFrom ? ink.padding : ink.text;
}

// Each labelled cell with a text, in order.
template <typename Place>
std::vector<AxisLabel> labels(const AxisLabelSpec& spec, const LabelTextOf& textOf, Place place) {
    std::vector<AxisLabel> out;
    for (const int cell : labelledCells(spec.count, spec.step, spec.focus)) {
        std::string text = textOf(cell);
        if (text.empty()) continue;
        AxisLabel& label = out.emplace_back(AxisLabel{0.0f, 0.0f, spec.size, std::move(text), FontFace::Regular, Rgba8{}, false});
        place(label, cell);
    }
    return out;
}

}  // namespace

std::vector<AxisLabel> rowLabels(const AxisLabelSpec& spec, const LabelTextOf& textOf, const TextWidthOf& widthOf, const LabelInk& ink) {
    return labels(spec, textOf, [&](AxisLabel& label, int row) {
        label.face = spec.focus == row ? FontFace::Bold : FontFace::Regular;
        label.color = inkOf(spec, ink, row);
        label.x = spec.fromEdge ? spec.edge : spec.edge - widthOf(label.text, spec.size, label.face);
        label.baseline = middleOf(spec, row) + kCapMiddleEm * spec.size;
    });
}

std::vector<AxisLabel> columnLabels(const AxisLabelSpec& spec, const LabelTextOf& textOf, const TextWidthOf& widthOf, const LabelInk& ink) {
    return labels(spec, textOf, [&](AxisLabel& label, int col) {
        label.color = inkOf(spec, ink, col);
        label.upwards = spec.upwards;
        label.x = spec.upwards ? middleOf(spec, col) + kCapMiddleEm * spec.size : middleOf(spec, col) - widthOf(label.text, spec.size, label.face) / 2.0f;
        label.baseline = spec.edge;
    });
}

}  // namespace attnviz::scene
