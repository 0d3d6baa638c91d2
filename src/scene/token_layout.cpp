// token_layout.cpp — stage 0's token boxes in rows. See token_layout.h.
#include "scene/token_layout.h"

#include <algorithm>
#include <cmath>

namespace attnviz::scene {
namespace {

Rect unite(const Rect& a, const Rect& b) {
    if (a.width() <= 0.0f && a.height() <= 0.0f) return b;
    return {std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1), std::max(a.y1, b.y1)};
}

// "id 42" (when the token takes a row of E) and "pos 3".
std::vector<std::string> linesOf(const Token& token) {
    std::vector<std::string> lines;
    if (token.id) lines.push_back("id " + std::to_string(*token.id));
    lines.push_back("pos " + std::to_string(token.position));
    return lines;
}

struct Spacing {
    float padX, padY, gap, rowGap, sentenceGap;
    explicit Spacing(float scale)
        : padX(std::round(10.0f * scale)), padY(std::round(6.0f * scale)), gap(std::round(10.0f * scale)),
          rowGap(std::round(12.0f * scale)), sentenceGap(std::round(24.0f * scale)) {}
};

// The boxes with the token text at `textScale` of its type size and the lines at `labelScale` of theirs.
Layout placeAt(const Tokens& tokens, const Rect& box, const Metrics& metrics, const Rules& rules, float textScale, float labelScale) {
    const Spacing s(rules.scale);
    const float tokenH = textScale * metrics.textHeight("Ag", TextRole::Token, 0.0f);
    const float labelH = labelScale * metrics.textHeight("Ag", TextRole::Label, 0.0f);
    Layout layout;
    float y = box.y0;
    for (const TokenRow& row : tokens.sentences) {
        if (!row.heading.empty()) {
            const float h = metrics.textHeight(row.heading, TextRole::Heading, box.width());
            const Rect at{box.x0, y, box.x1, y + h};
            layout.texts.push_back({row.heading, TextRole::Heading, at, std::nullopt, {}});
            layout.extent = unite(layout.extent, at);
            y += h + std::round(6.0f * rules.scale);
        }
        // One height for the sentence's boxes: its tallest (a padding box has no id line).
        std::size_t lineCount = 1;
        for (const Token& token : row.tokens) lineCount = std::max(lineCount, linesOf(token).size());
        const float height = 2.0f * s.padY + tokenH + tokenTextGap(rules.scale) + static_cast<float>(lineCount) * labelH;
        float x = box.x0;
        for (const Token& token : row.tokens) {
            std::vector<std::string> lines = linesOf(token);
            float width = std::max(textScale * metrics.textWidth(token.text, TextRole::Token), 2.0f * tokenH);
            for (const std::string& line : lines) width = std::max(width, labelScale * metrics.textWidth(line, TextRole::Label));
            width = std::min(std::ceil(width) + 2.0f * s.padX, box.width());
            if (x > box.x0 && x + width > box.x1) x = box.x0, y += height + s.rowGap;
            const Rect at{x, y, x + width, y + height};
            layout.tokens.push_back({token, std::move(lines), at, textScale, labelScale});
            layout.extent = unite(layout.extent, at);
            x += width + s.gap;
        }
        y += height + s.sentenceGap;
    }
    return layout;
}

}  // namespace

Layout layoutTokenBoxes(const Tokens& tokens, const Rect& box, const Metrics& metrics, const Rules& rules) {
    // Before the rows overflow the box, the lines shrink to the label floor and the token text to the floor's height.
    const float labelMin = std::min(1.0f, rules.labels.floor / rules.labels.full);
    const float tokenH = metrics.textHeight("Ag", TextRole::Token, 0.0f), labelH = metrics.textHeight("Ag", TextRole::Label, 0.0f);
    const float textMin = std::min(1.0f, labelMin * labelH / std::max(tokenH, 1.0f));
    for (float f = 1.0f;; f -= 0.05f) {
        const float text = std::max(f, textMin), label = std::max(f, labelMin);
        Layout laid = placeAt(tokens, box, metrics, rules, text, label);
        if (laid.extent.y1 <= box.y1 + 0.5f || (text <= textMin && label <= labelMin)) return laid;
    }
}

}  // namespace attnviz::scene
