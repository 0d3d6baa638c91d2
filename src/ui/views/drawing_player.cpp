// drawing_player.cpp — scene::Drawing's primitives as ImDrawList calls. See drawing_player.h.
#include "ui/views/drawing_player.h"

#include "ui/views/drawing.h"

#include <cfloat>
#include <cmath>
#include <variant>

namespace attnviz::ui {
namespace {

ImU32 imColor(scene::Rgba8 c) { return IM_COL32(c.r, c.g, c.b, c.a); }

ImVec2 corner(ImVec2 origin, float x, float y) { return {origin.x + x, origin.y + y}; }

void fill(ImDrawList& list, ImVec2 origin, const scene::PixelRect& r, scene::Rgba8 color) {
    if (r.empty()) return;
    list.AddRectFilled(corner(origin, static_cast<float>(r.x), static_cast<float>(r.y)),
                       corner(origin, static_cast<float>(r.right()), static_cast<float>(r.bottom())), imColor(color));
}

void play(const scene::Drawing::Fill& f, ImDrawList& list, ImVec2 origin, const Fonts&) { fill(list, origin, f.rect, f.color); }

void play(const scene::Drawing::Cells& cells, ImDrawList& list, ImVec2 origin, const Fonts&) {
    for (int r = 0; r < cells.rows; ++r) {
        for (int c = 0; c < cells.cols; ++c) fill(list, origin, cells.cell(r, c), cells.colors[static_cast<std::size_t>(r) * cells.cols + c]);
    }
}

// The canvas strokes `thickness` pixels inwards; ImGui centres a stroke on a path it already moves half a pixel
// inside the rectangle: moved (thickness − 1) / 2 further, the stroke's outer edge is the rectangle's.
void play(const scene::Drawing::Stroke& s, ImDrawList& list, ImVec2 origin, const Fonts&) {
    if (s.rect.empty() || s.thickness <= 0) return;
    const float inset = static_cast<float>(s.thickness - 1) / 2.0f;
    list.AddRect(corner(origin, static_cast<float>(s.rect.x) + inset, static_cast<float>(s.rect.y) + inset),
                 corner(origin, static_cast<float>(s.rect.right()) - inset, static_cast<float>(s.rect.bottom()) - inset), imColor(s.color), 0.0f, 0,
                 static_cast<float>(s.thickness));
}

void play(const scene::Drawing::Line& l, ImDrawList& list, ImVec2 origin, const Fonts&) {
    list.AddLine(corner(origin, l.x0, l.y0), corner(origin, l.x1, l.y1), imColor(l.color), l.width);
}

// The canvas's pattern: pixels with (x + y) mod spacing < thickness, x and y from the drawing's origin. Each
// stripe is the line x + y = k·spacing + thickness/2, clipped to the rectangle.
void play(const scene::Drawing::Hatch& h, ImDrawList& list, ImVec2 origin, const Fonts&) {
    if (h.rect.empty() || h.spacing <= 0 || h.thickness <= 0) return;
    const ImVec2 min = corner(origin, static_cast<float>(h.rect.x), static_cast<float>(h.rect.y));
    const ImVec2 max = corner(origin, static_cast<float>(h.rect.right()), static_cast<float>(h.rect.bottom()));
    list.PushClipRect(min, max, true);
    const int first = (h.rect.x + h.rect.y) / h.spacing * h.spacing, last = h.rect.right() + h.rect.bottom();
    for (int k = first; k <= last; k += h.spacing) {
        const float sum = static_cast<float>(k) + static_cast<float>(h.thickness) / 2.0f;  // x + y on the stripe's centre
        const float x0 = static_cast<float>(h.rect.x) - 1.0f, x1 = static_cast<float>(h.rect.right()) + 1.0f;
        list.AddLine(corner(origin, x0, sum - x0), corner(origin, x1, sum - x1), imColor(h.color), static_cast<float>(h.thickness));
    }
    list.PopClipRect();
}

// The atlas font of `face` baked nearest to `pixelHeight` (ImGui scales glyphs; far from their size they blur).
ImFont* fontFor(const Fonts& fonts, scene::FontFace face, float pixelHeight) {
    if (face == scene::FontFace::Bold) return font(fonts.bold);
    if (face == scene::FontFace::Mono) return font(fonts.mono);
    ImFont* nearest = font(fonts.regular);
    for (ImFont* candidate : {fonts.small, fonts.large}) {
        if (candidate && std::fabs(candidate->FontSize - pixelHeight) < std::fabs(nearest->FontSize - pixelHeight)) nearest = candidate;
    }
    return nearest;
}

// ImGui places a line by its top, Ascent (at the font's baked size) above the baseline.
void play(const scene::Drawing::Text& t, ImDrawList& list, ImVec2 origin, const Fonts& fonts) {
    const float pixelHeight = t.size * kLineHeightPerEm;
    ImFont* typeface = fontFor(fonts, t.face, pixelHeight);
    const float ascent = typeface->Ascent * pixelHeight / typeface->FontSize;
    const ImU32 color = imColor(t.color);
    if (t.upwards) {  // the baseline is the vertical line x; the tops of the letters face left
        addVerticalText(list, typeface, pixelHeight, corner(origin, static_cast<float>(t.x) - ascent, static_cast<float>(t.baseline)), color, t.utf8);
        return;
    }
    list.AddText(typeface, pixelHeight, corner(origin, static_cast<float>(t.x), static_cast<float>(t.baseline) - ascent), color, t.utf8.c_str());
}

}  // namespace

void playPrimitive(const scene::Drawing::Primitive& primitive, ImDrawList& list, ImVec2 origin, const Fonts& fonts) {
    std::visit([&](const auto& p) { play(p, list, origin, fonts); }, primitive);
}

void playLabels(const std::vector<scene::AxisLabel>& labels, ImDrawList& list, const Fonts& fonts) {
    for (const scene::AxisLabel& label : labels) {
        const scene::Drawing::Text text{static_cast<int>(std::lround(label.x)), static_cast<int>(std::lround(label.baseline)), label.text, label.size,
                                        label.face, label.color, label.upwards};
        play(text, list, {0.0f, 0.0f}, fonts);
    }
}

float playedTextWidth(const Fonts& fonts, std::string_view text, float size, scene::FontFace face) {
    const float pixelHeight = size * kLineHeightPerEm;
    return fontFor(fonts, face, pixelHeight)->CalcTextSizeA(pixelHeight, FLT_MAX, 0.0f, text.data(), text.data() + text.size()).x;
}

scene::TypeMeasure playedType(const Fonts& fonts) {
    return {[&fonts](std::string_view text, float size, scene::FontFace face) { return playedTextWidth(fonts, text, size, face); }, kAscentPerEm, kDescentPerEm};
}

void playDrawing(const scene::Drawing& drawing, ImDrawList& list, ImVec2 origin, const Fonts& fonts) {
    if (drawing.background.a > 0) fill(list, origin, {0, 0, drawing.width, drawing.height}, drawing.background);
    for (const scene::Drawing::Primitive& primitive : drawing.primitives) playPrimitive(primitive, list, origin, fonts);
}

}  // namespace attnviz::ui
