// row_chart.cpp — bar chart of one matrix row. See row_chart.h.
#include "ui/views/row_chart.h"

#include "scene/axis_labels.h"
#include "scene/label_fit.h"

#include "ui/views/drawing.h"
#include "ui/views/number_format.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {

void drawRowChart(const ViewContext& ctx, ImVec2 min, ImVec2 max, const RowChart& chart) {
    ImDrawList& list = *ImGui::GetWindowDrawList();
    ImFont* bold = font(ctx.fonts.bold);
    ImFont* small = font(ctx.fonts.small);
    const float size = small->FontSize;
    list.AddText(bold, bold->FontSize, min, IM_COL32(30, 30, 30, 255), fitText(chart.title, max.x - min.x, bold, bold->FontSize).c_str());
    const int n = static_cast<int>(chart.values.size());
    if (n == 0) return;
    // Labels are vertical, one per bar while the bars give them a map's token label's room, then every
    // `labelStep`-th (scene::fitAxisLabels, the maps' rule), in the small font.
    const float estimatedSlot = (max.x - min.x) / static_cast<float>(n);
    const float em = size / scene::kDejaVuLinePerEm;
    const int labelStep = scene::fitAxisLabels({n, estimatedSlot, true, true, em, em}).step;
    float labelHeight = 0.0f;
    for (int j = 0; j < n; j += labelStep) {
        const std::string label = fitText(chart.labels[static_cast<std::size_t>(j)], 70.0f * ctx.scale, small, size);
        labelHeight = std::max(labelHeight, small->CalcTextSizeA(size, FLT_MAX, 0.0f, label.c_str()).x);
    }
    const float tickWidth = small->CalcTextSizeA(size, FLT_MAX, 0.0f, "-0.000").x + 6.0f;
    const ImVec2 plotMin{min.x + tickWidth, min.y + bold->FontSize + 2.0f * size};  // room for a value above the top bar
    // In a short box the key labels go first (the bars and their numbers matter more; hovering a map names them).
    const bool labels = max.y - labelHeight - size - 8.0f - plotMin.y >= 40.0f;
    const ImVec2 plotMax{max.x, max.y - (labels ? labelHeight + size + 8.0f : size + 2.0f)};  // and below the lowest
    if (plotMax.y - plotMin.y < 10.0f || plotMax.x - plotMin.x < 10.0f) {
        list.AddText(small, size, {min.x, min.y + bold->FontSize + 2.0f}, IM_COL32(90, 90, 90, 255),
                     "(too short for this chart: a taller window, or Ctrl+− to zoom out, shows it)");
        return;
    }
    const float lo = std::min(chart.range.lo, 0.0f), hi = std::max(chart.range.hi, 0.0f);
    const auto yOf = [&](float v) { return plotMax.y - (std::clamp(v, lo, hi) - lo) / (hi - lo) * (plotMax.y - plotMin.y); };
    const float slot = (plotMax.x - plotMin.x) / static_cast<float>(n);
    list.AddLine({plotMin.x, yOf(0.0f)}, {plotMax.x, yOf(0.0f)}, IM_COL32(0, 0, 0, 160));
    for (float tick : {lo, hi}) {
        const std::string text = formatValue(tick);
        list.AddText(small, size, {min.x, yOf(tick) - size / 2.0f}, IM_COL32(90, 90, 90, 255), text.c_str());
    }
    for (int j = 0; j < n; ++j) {
        const float x0 = plotMin.x + slot * static_cast<float>(j) + slot * 0.15f, x1 = x0 + slot * 0.7f;
        const float v = chart.values[static_cast<std::size_t>(j)];
        const bool masked = !chart.masked.empty() && chart.masked[static_cast<std::size_t>(j)];
        const ImVec2 a{x0, std::min(yOf(0.0f), yOf(v))}, b{x1, std::max(yOf(0.0f), yOf(v))};
        if (masked) addHatchedRect(list, {x0, plotMin.y}, {x1, plotMax.y});
        else if (std::isfinite(v)) list.AddRectFilled(a, {b.x, std::max(b.y, a.y + 1.0f)}, toImU32(colormap::sample(chart.map, v, chart.range.lo, chart.range.hi)));
        const std::string number = formatCell(v);
        const float numberWidth = small->CalcTextSizeA(size, FLT_MAX, 0.0f, number.c_str()).x;
        if (numberWidth <= slot && !masked) {
            const float y = v >= 0.0f ? a.y - size - 1.0f : b.y + 1.0f;
            list.AddText(small, size, {(x0 + x1 - numberWidth) / 2.0f, y}, IM_COL32(60, 60, 60, 255), number.c_str());
        }
        if (j == chart.highlight) list.AddRect({x0 - 2.0f, plotMin.y}, {x1 + 2.0f, plotMax.y}, IM_COL32(255, 170, 0, 255), 0.0f, 0, 2.0f);
        if (!labels || j % labelStep != 0) continue;
        const std::string label = fitText(chart.labels[static_cast<std::size_t>(j)], 70.0f * ctx.scale, small, size);
        addVerticalText(list, small, size, {(x0 + x1) / 2.0f - size / 2.0f, max.y}, IM_COL32(30, 30, 30, 255), label);
    }
}

}  // namespace attnviz::ui
