// row_chart.h — one row of a matrix as a bar chart with a token under each bar: a query's scores before
// softmax and its weights after, so "softmax turns a row of scores into positive weights that sum to 1"
// can be seen bar by bar. Bars use the heatmaps' colormaps; masked keys are hatched.
//
// Draws into a rectangle it is given; does not pick the row (the stage view does) or compute anything but
// the bar heights.
#pragma once

#include "ui/views/view_context.h"

#include <string>
#include <vector>

namespace attnviz::ui {

struct RowChart {
    std::string title;                 // "scores of “it”"
    std::vector<float> values;         // one bar per key
    std::vector<std::string> labels;   // the key tokens
    std::vector<bool> masked;          // empty, or one flag per key
    colormap::Range range;             // bar heights span this range (0 is the baseline when it is inside)
    colormap::Colormap map = colormap::Colormap::Viridis;
    int highlight = -1;                // a key to outline (the hovered column), or −1
};

void drawRowChart(const ViewContext& ctx, ImVec2 min, ImVec2 max, const RowChart& chart);

}  // namespace attnviz::ui
