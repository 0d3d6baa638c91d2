// rotary_view.cpp — see rotary_view.h.
#include "ui/views/rotary_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnviz::ui {
namespace {

const ImU32 kFrame = IM_COL32(200, 200, 200, 255);
const ImU32 kBefore = IM_COL32(150, 150, 150, 200);
const ImU32 kText = IM_COL32(70, 70, 70, 255);
const ImU32 kLine = IM_COL32(30, 90, 190, 255);
const ImU32 kDot = IM_COL32(235, 120, 20, 255);

// Light blue at position 0 to dark blue at the last.
ImU32 positionColor(int position, int count) {
    const float t = count > 1 ? static_cast<float>(position) / static_cast<float>(count - 1) : 1.0f;
    const auto mix = [t](float a, float b) { return static_cast<int>(a + (b - a) * t); };
    return IM_COL32(mix(150, 10), mix(190, 40), mix(240, 120), 255);
}

void arrow(ImDrawList& list, ImVec2 from, ImVec2 to, ImU32 color, float thickness) {
    list.AddLine(from, to, color, thickness);
    const float dx = to.x - from.x, dy = to.y - from.y, length = std::sqrt(dx * dx + dy * dy);
    if (length < 4.0f) return;
    const float ux = dx / length, uy = dy / length, head = std::min(6.0f + thickness, length * 0.4f);
    list.AddTriangleFilled(to, {to.x - ux * head - uy * head * 0.45f, to.y - uy * head + ux * head * 0.45f},
                           {to.x - ux * head + uy * head * 0.45f, to.y - uy * head - ux * head * 0.45f}, color);
}

std::string format(const char* pattern, double value) {
    char text[32];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

// One pair's square: the circle its vectors' lengths reach, the axes, and an arrow per position.
void pairSquare(ImDrawList& list, ImVec2 min, float side, const core::RotaryPairs& p, int j, const RotaryPlotStyle& style) {
    const ImVec2 centre{min.x + side / 2.0f, min.y + side / 2.0f};
    const float radius = side * 0.42f;
    double longest = 0.0;
    for (int pos = 0; pos < p.positionCount(); ++pos) longest = std::max(longest, std::hypot(p.beforeX(pos, j), p.beforeY(pos, j)));
    const float scale = longest > 0.0 ? radius / static_cast<float>(longest) : 0.0f;
    const auto at = [&](double x, double y) { return ImVec2{centre.x + static_cast<float>(x) * scale, centre.y - static_cast<float>(y) * scale}; };
    list.AddRect(min, {min.x + side, min.y + side}, kFrame);
    list.AddCircle(centre, radius, kFrame, 48);
    list.AddLine({min.x + 2.0f, centre.y}, {min.x + side - 2.0f, centre.y}, kFrame);
    list.AddLine({centre.x, min.y + 2.0f}, {centre.x, min.y + side - 2.0f}, kFrame);
    const int count = p.positionCount();
    if (style.showBefore) {
        for (int pos = 0; pos < count; ++pos) arrow(list, centre, at(p.beforeX(pos, j), p.beforeY(pos, j)), kBefore, 1.0f);
    }
    const bool labels = count <= 12;
    for (int pos = 0; pos < count; ++pos) {
        const ImVec2 tip = at(p.afterX(pos, j), p.afterY(pos, j));
        arrow(list, centre, tip, positionColor(pos, count), pos == style.highlight ? 3.0f : 1.6f);
        if (!labels) continue;
        const std::string label = static_cast<std::size_t>(pos) < style.positionLabels.size() ? style.positionLabels[static_cast<std::size_t>(pos)]
                                                                                               : std::to_string(pos);
        const ImVec2 outward{tip.x + (tip.x - centre.x) * 0.12f - 3.0f, tip.y + (tip.y - centre.y) * 0.12f - ImGui::GetFontSize() * 0.5f};
        list.AddText(outward, positionColor(pos, count), label.c_str());
    }
}

}  // namespace

float drawRotaryPairs(ImDrawList& list, const Box& box, const core::RotaryPairs& pairs, const RotaryPlotStyle& style) {
    const int n = pairs.pairCount();
    if (n == 0 || pairs.positionCount() == 0) return box.min.y;
    const float line = ImGui::GetTextLineHeight(), gap = line * 0.8f;
    const float side = std::max(line * 5.0f, std::min((box.width() - gap * static_cast<float>(n - 1)) / static_cast<float>(n), box.height() - line * 1.4f));
    for (int j = 0; j < n; ++j) {
        const ImVec2 min{box.min.x + static_cast<float>(j) * (side + gap), box.min.y};
        pairSquare(list, min, side, pairs, j, style);
        const std::string caption = fitText("pair " + std::to_string(j) + ": θ_" + std::to_string(j) + " = " + format("%.3g", pairs.frequencies(j)),
                                            side, ImGui::GetFont(), ImGui::GetFontSize());
        list.AddText({min.x, min.y + side + 2.0f}, kText, caption.c_str());
    }
    return box.min.y + side + line * 1.4f;
}

void drawOffsetScores(ImDrawList& list, const Box& box, const core::RelativeScores& scores) {
    if (scores.score.empty()) return;
    const float line = ImGui::GetTextLineHeight();
    const Box plot{{box.min.x + ImGui::CalcTextSize("−00.00 ").x, box.min.y + line * 0.5f}, {box.max.x - line, box.max.y - line * 1.6f}};
    double lo = std::min(*std::min_element(scores.score.begin(), scores.score.end()), 0.0);
    double hi = std::max(*std::max_element(scores.score.begin(), scores.score.end()), 0.0);
    if (hi - lo < 1e-12) hi = lo + 1.0;
    const int last = scores.offsets.back();
    const auto at = [&](int offset, double value) {
        return ImVec2{plot.min.x + plot.width() * static_cast<float>(offset) / static_cast<float>(std::max(last, 1)),
                      plot.max.y - plot.height() * static_cast<float>((value - lo) / (hi - lo))};
    };
    list.AddRect(plot.min, plot.max, kFrame);
    list.AddLine(at(0, 0.0), at(last, 0.0), kFrame);  // score 0
    for (std::size_t i = 1; i < scores.score.size(); ++i) {
        list.AddLine(at(scores.offsets[i - 1], scores.score[i - 1]), at(scores.offsets[i], scores.score[i]), kLine, 2.0f);
    }
    for (std::size_t i = 0; i < scores.shiftedScore.size(); ++i) list.AddCircleFilled(at(scores.offsets[i], scores.shiftedScore[i]), 3.0f, kDot);
    list.AddText({box.min.x, plot.min.y - line * 0.5f}, kText, format("%.2f", hi).c_str());
    list.AddText({box.min.x, plot.max.y - line * 0.5f}, kText, format("%.2f", lo).c_str());
    for (int tick : {0, last / 2, last}) {
        const std::string label = std::to_string(tick);
        list.AddText({at(tick, lo).x - ImGui::CalcTextSize(label.c_str()).x / 2.0f, plot.max.y + 2.0f}, kText, label.c_str());
    }
    const char* axis = "← offset m − n";
    list.AddText({at(last, lo).x - ImGui::CalcTextSize(std::to_string(last).c_str()).x - ImGui::CalcTextSize(axis).x - line, plot.max.y + 2.0f}, kText,
                 axis);
}

}  // namespace attnviz::ui
