// token_boxes.cpp — painting stage 0's token boxes with ImGui. See token_boxes.h.
#include "ui/views/token_boxes.h"

#include "core/display_text.h"
#include "core/unicode.h"
#include "scene/token_layout.h"
#include "ui/views/heatmap_view.h"

#include <cfloat>
#include <cmath>

namespace attnviz::ui {
namespace {

constexpr ImU32 kText = IM_COL32(30, 30, 30, 255);
constexpr ImU32 kHint = IM_COL32(90, 90, 90, 255);
constexpr ImU32 kBorder = IM_COL32(40, 100, 200, 255);

ImU32 fillOf(scene::Token::Kind kind) {
    switch (kind) {
        case scene::Token::Kind::Padding: return IM_COL32(225, 225, 225, 255);
        case scene::Token::Kind::Special: return IM_COL32(255, 236, 200, 255);
        case scene::Token::Kind::Piece: break;
    }
    return IM_COL32(225, 236, 252, 255);
}

// The font for a token's text at `size` pixels: the display font when the text is grown past the large font's
// size (an upscaled glyph blurs) and the display font has every character of it, else the large one.
ImFont* wordFont(const ViewContext& ctx, float size, const std::string& text) {
    ImFont* large = font(ctx.fonts.large);
    ImFont* display = ctx.fonts.display;
    if (display == nullptr || size <= 1.25f * large->FontSize) return large;
    for (char32_t c : core::decodeUtf8(text)) {
        if (c > 0xFFFF || display->FindGlyphNoFallback(static_cast<ImWchar>(c)) == nullptr) return large;
    }
    return display;
}

// `text` centred on x at `top`, in `f` at `size` pixels.
void centred(ImDrawList& list, ImFont* f, float size, float x, float top, ImU32 colour, const std::string& label) {
    const std::string text = core::clipped(label);
    const float width = f->CalcTextSizeA(size, FLT_MAX, 0.0f, text.c_str()).x;
    list.AddText(f, size, {std::round(x - width / 2.0f), top}, colour, text.c_str());
}

}  // namespace

float tokenLabelSize(const ViewContext& ctx) { return layoutRules(ctx).labels.full; }

void paintTokenBoxes(const ViewContext& ctx, const std::vector<scene::PlacedToken>& tokens) {
    ImDrawList& list = *ImGui::GetWindowDrawList();
    ImFont* large = font(ctx.fonts.large);
    ImFont* small = font(ctx.fonts.small);
    const float rounding = std::round(6.0f * ctx.scale);
    for (const scene::PlacedToken& placed : tokens) {
        const scene::Rect& b = placed.box;
        const bool padding = placed.token.kind == scene::Token::Kind::Padding;
        list.AddRectFilled({b.x0, b.y0}, {b.x1, b.y1}, fillOf(placed.token.kind), rounding);
        list.AddRect({b.x0, b.y0}, {b.x1, b.y1}, kBorder, rounding, 0, std::max(1.0f, 1.5f * ctx.scale));
        const float middle = (b.x0 + b.x1) / 2.0f;
        const float textSize = large->FontSize * placed.textScale, labelSize = tokenLabelSize(ctx) * placed.labelScale;
        const float textHeight = large->CalcTextSizeA(textSize, FLT_MAX, 0.0f, "Ag").y;
        const float labelHeight = small->CalcTextSizeA(labelSize, FLT_MAX, 0.0f, "Ag").y;
        // The text and its lines centred in the box's height (the layout's padding above and below).
        const float gap = scene::tokenTextGap(ctx.scale);
        float y = (b.y0 + b.y1) / 2.0f - (textHeight + gap + labelHeight * static_cast<float>(placed.lines.size())) / 2.0f;
        centred(list, wordFont(ctx, textSize, placed.token.text), textSize, middle, y, padding ? kHint : kText, placed.token.text);
        y += textHeight + gap;
        for (const std::string& line : placed.lines) {
            centred(list, small, labelSize, middle, y, kHint, line);
            y += labelHeight;
        }
        if (ctx.drawnTokens != nullptr) ctx.drawnTokens->push_back({{b.x0, b.y0}, {b.x1, b.y1}, placed.token.text, labelSize, textSize});
    }
}

}  // namespace attnviz::ui
