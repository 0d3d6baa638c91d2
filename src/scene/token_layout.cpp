// token_layout.cpp — stage 0's token boxes in rows, at the largest type that fits the box. See token_layout.h.
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

// The sizes the boxes are made of at the roles' own type sizes, measured once: every type size tried scales them.
struct Measured {
    float tokenH = 0.0f, labelH = 0.0f;  // a line of TextRole::Token, of TextRole::Label
    std::vector<float> headingH;         // per sentence: its heading's height (0: none)
    std::vector<std::vector<float>> textW, linesW;  // per sentence, per token: its text's width, its widest line's
};

Measured measure(const Tokens& tokens, float boxWidth, const Metrics& metrics) {
    Measured m;
    m.tokenH = metrics.textHeight("Ag", TextRole::Token, 0.0f);
    m.labelH = metrics.textHeight("Ag", TextRole::Label, 0.0f);
    for (const TokenRow& row : tokens.sentences) {
        m.headingH.push_back(row.heading.empty() ? 0.0f : metrics.textHeight(row.heading, TextRole::Heading, boxWidth));
        std::vector<float>& text = m.textW.emplace_back();
        std::vector<float>& lines = m.linesW.emplace_back();
        for (const Token& token : row.tokens) {
            text.push_back(metrics.textWidth(token.text, TextRole::Token));
            float widest = 0.0f;
            for (const std::string& line : linesOf(token)) widest = std::max(widest, metrics.textWidth(line, TextRole::Label));
            lines.push_back(widest);
        }
    }
    return m;
}

// The boxes with the token text at `textScale` of its type size and the lines at `labelScale` of theirs, their rows
// wrapped at `rowsWidth` (at most the box's width); the headings span the box.
Layout placeAt(const Tokens& tokens, const Measured& m, const Rect& box, float rowsWidth, const Rules& rules, float textScale, float labelScale) {
    const Spacing s(rules.scale);
    const float tokenH = textScale * m.tokenH, labelH = labelScale * m.labelH;
    Layout layout;
    float y = box.y0;
    for (std::size_t r = 0; r < tokens.sentences.size(); ++r) {
        const TokenRow& row = tokens.sentences[r];
        if (!row.heading.empty()) {
            const Rect at{box.x0, y, box.x1, y + m.headingH[r]};
            layout.texts.push_back({row.heading, TextRole::Heading, at, std::nullopt, {}});
            layout.extent = unite(layout.extent, at);
            y += m.headingH[r] + std::round(6.0f * rules.scale);
        }
        // One height for the sentence's boxes: its tallest (a padding box has no id line).
        std::size_t lineCount = 1;
        for (const Token& token : row.tokens) lineCount = std::max(lineCount, linesOf(token).size());
        const float height = 2.0f * s.padY + tokenH + tokenTextGap(rules.scale) + static_cast<float>(lineCount) * labelH;
        float x = box.x0;
        for (std::size_t i = 0; i < row.tokens.size(); ++i) {
            const float inner = std::max({textScale * m.textW[r][i], 2.0f * tokenH, labelScale * m.linesW[r][i]});
            const float width = std::min(std::ceil(inner) + 2.0f * s.padX, box.width());
            if (x > box.x0 && x + width > box.x0 + rowsWidth) x = box.x0, y += height + s.rowGap;
            const Rect at{x, y, x + width, y + height};
            layout.tokens.push_back({row.tokens[i], linesOf(row.tokens[i]), at, textScale, labelScale});
            layout.extent = unite(layout.extent, at);
            x += width + s.gap;
        }
        y += height + s.sentenceGap;
    }
    return layout;
}

// The lines' share of their type size when the text is at `textScale` of its: the same when shrinking; growing,
// at least half the text's height (the word is what the back row reads; "id 42" and "pos 3" stay its footnote).
// A function of the text's height in pixels, not of its share: a larger text never gets smaller lines, whatever
// the zoom makes of the two roles' sizes (the lines' size may sit at the label floor while the text's shrinks).
float labelShareOf(float textScale, const Measured& m) {
    if (textScale <= 1.0f) return textScale;
    return std::max(1.0f, 0.5f * textScale * m.tokenH / std::max(m.labelH, 1.0f));
}

// The text's and the lines' shares of their type sizes. Zoomed in (the page narrower than the box), the largest
// the rules allow: the page scrolls, and no zoom step gives smaller words than the one below it (the box does not
// grow as fast as the type). Else the text's height from the largest down, in whole pixels: the first whose rows
// fit the box. Whole pixels, so that a larger box never gives a smaller one. The lines follow the text
// (labelShareOf), never under the label floor; the text, never under the floor's height.
std::pair<float, float> typeScales(const Tokens& tokens, const Measured& m, const Rect& box, const Rules& rules) {
    const float tokenH = std::max(m.tokenH, 1.0f);
    const float largest = std::max(1.0f, rules.tokenGrowth);
    if (rules.pageWidth > 0.0f) return {largest, labelShareOf(largest, m)};
    const float labelMin = std::min(1.0f, rules.labels.floor / rules.labels.full);
    const float textMin = std::min(1.0f, labelMin * m.labelH / tokenH);
    for (float h = largest * tokenH;; h = std::ceil(h) - 1.0f) {
        const float f = h / tokenH;
        const float text = std::max(f, textMin), label = std::max(labelShareOf(f, m), labelMin);
        const bool floor = text <= textMin && label <= labelMin;
        if (floor || placeAt(tokens, m, box, box.width(), rules, text, label).extent.y1 <= box.y1 + 0.5f) return {text, label};
    }
}

// The boxes at these scales, wrapped at the narrowest width that needs no more rows than the box's width: rows of
// even length rather than full rows and a last one of a single token.
Layout balanced(const Tokens& tokens, const Measured& m, const Rect& box, const Rules& rules, float text, float label) {
    Layout widest = placeAt(tokens, m, box, box.width(), rules, text, label);
    float narrow = 0.0f, wide = box.width();
    for (const PlacedToken& t : widest.tokens) narrow = std::max(narrow, t.box.width());
    if (narrow >= wide) return widest;
    Layout best = widest;
    for (int step = 0; step < 12 && wide - narrow > 1.0f; ++step) {
        const float width = (narrow + wide) / 2.0f;
        Layout tried = placeAt(tokens, m, box, width, rules, text, label);
        if (tried.extent.y1 <= widest.extent.y1 + 0.5f) wide = width, best = std::move(tried);
        else narrow = width;
    }
    return best;
}

}  // namespace

Layout layoutTokenBoxes(const Tokens& tokens, const Rect& box, const Metrics& metrics, const Rules& rules) {
    const Measured m = measure(tokens, box.width(), metrics);
    const auto [text, label] = typeScales(tokens, m, box, rules);
    return balanced(tokens, m, box, rules, text, label);
}

}  // namespace attnviz::scene
