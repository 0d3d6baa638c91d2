// drawing.cpp — ImDrawList helpers. See drawing.h.
#include "ui/views/drawing.h"

#include <sstream>

#include "core/display_text.h"
#include "colormap/head_colors.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {
namespace {

// The byte length of the UTF-8 sequence starting with `lead`.
int sequenceLength(unsigned char lead) {
    if (lead < 0x80) return 1;
    if ((lead >> 5) == 0x6) return 2;
    if ((lead >> 4) == 0xE) return 3;
    if ((lead >> 3) == 0x1E) return 4;
    return 1;
}

}  // namespace

ImU32 toImU32(colormap::Rgb8 color, int alpha) { return IM_COL32(color.r, color.g, color.b, alpha); }

ImU32 headColor(int head, int alpha) { return toImU32(colormap::headColor(head), alpha); }

ImU32 contrastText(colormap::Rgb8 background) {
    const float luminance = 0.2126f * background.r + 0.7152f * background.g + 0.0722f * background.b;
    return luminance > 140.0f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
}

std::vector<std::string> wrapToTwoLines(const std::string& text, float width, ImFont* font, float size) {
    std::istringstream words(text);
    std::vector<std::string> lines{""};
    for (std::string word; words >> word;) {
        const std::string joined = lines.back().empty() ? word : lines.back() + " " + word;
        if (font->CalcTextSizeA(size, FLT_MAX, 0.0f, joined.c_str()).x <= width || lines.back().empty() || lines.size() == 2) {
            lines.back() = joined;
        } else {
            lines.push_back(word);
        }
    }
    for (std::string& line : lines) line = fitText(line, width, font, size);
    return lines;
}

int codepointCount(const std::string& text) {
    int count = 0;
    for (std::size_t i = 0; i < text.size(); i += static_cast<std::size_t>(sequenceLength(static_cast<unsigned char>(text[i])))) ++count;
    return count;
}

std::string fitText(const std::string& whole, float maxWidth, ImFont* font, float size) {
    const std::string text = core::clipped(whole);  // no megabytes measured per frame
    if (font->CalcTextSizeA(size, FLT_MAX, 0.0f, text.c_str()).x <= maxWidth) return text;
    const std::string ellipsis = "…";
    std::string fitted;
    for (std::size_t i = 0; i < text.size();) {
        const auto length = static_cast<std::size_t>(sequenceLength(static_cast<unsigned char>(text[i])));
        const std::string candidate = fitted + text.substr(i, length);
        if (font->CalcTextSizeA(size, FLT_MAX, 0.0f, (candidate + ellipsis).c_str()).x > maxWidth) break;
        fitted = candidate;
        i += length;
    }
    return fitted + ellipsis;
}

void addVerticalText(ImDrawList& list, ImFont* font, float size, ImVec2 bottomLeft, ImU32 color, const std::string& label) {
    const std::string text = core::clipped(label, core::limits::kMaxLabelCharacters);  // laid out unclipped (below): every glyph costs
    const ImVec2 extent = font->CalcTextSizeA(size, FLT_MAX, 0.0f, text.c_str());
    // Lay the text out horizontally, then turn each new vertex about its origin: x → up, y → right. ImGui
    // drops glyphs outside the clip rectangle while laying out, so lay out against an unbounded one; the draw
    // command keeps the list's clip rectangle (pushing one per label cost a GL draw call each: thousands of
    // labels at l = 512 took 15–25 ms a frame in llvmpipe).
    const ImVec2 origin{bottomLeft.x, bottomLeft.y - extent.x};
    const int first = list.VtxBuffer.Size;
    font->RenderText(&list, size, origin, color, ImVec4(-16384.0f, -16384.0f, 16384.0f, 16384.0f), text.c_str(), nullptr);
    for (int i = first; i < list.VtxBuffer.Size; ++i) {
        ImVec2& p = list.VtxBuffer[i].pos;
        const float dx = p.x - origin.x, dy = p.y - origin.y;
        p = ImVec2(bottomLeft.x + dy, bottomLeft.y - dx);
    }
}

void addHatchedRect(ImDrawList& list, ImVec2 min, ImVec2 max) {
    const colormap::Rgb8 masked = colormap::kMaskedColor;
    list.AddRectFilled(min, max, toImU32(masked));
    const ImU32 stripe = toImU32({static_cast<std::uint8_t>(masked.r * 0.7f), static_cast<std::uint8_t>(masked.g * 0.7f),
                                  static_cast<std::uint8_t>(masked.b * 0.7f)});
    list.PushClipRect(min, max, true);
    const float step = 6.0f, height = max.y - min.y;
    for (float x = min.x - height; x < max.x; x += step) list.AddLine({x, max.y}, {x + height, min.y}, stripe, 2.0f);
    list.PopClipRect();
}

Box takeTop(Box& box, float height) {
    const Box top{box.min, {box.max.x, std::min(box.max.y, box.min.y + height)}};
    box.min.y = top.max.y;
    return top;
}

Box takeLeft(Box& box, float width) {
    const Box left{box.min, {std::min(box.max.x, box.min.x + width), box.max.y}};
    box.min.x = left.max.x;
    return left;
}

}  // namespace attnviz::ui
