// layout.cpp — scene + box + metrics + rules → rectangles. See layout.h.
#include "scene/layout.h"

#include "scene/axis_labels.h"
#include "scene/token_layout.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace attnviz::scene {
namespace {

// The share of a line's width the compact weights (W^Q, W^K, W^V side by side) may take together.
constexpr float kCompactWeightsShare = 0.3f;

bool tokenRows(const Map& map) { return core::isTokens(map.rowAxis) || map.rowAxis == core::Axis::Broadcast; }
bool tokenColumns(const Map& map) { return core::isTokens(map.colAxis); }

// How well a layout keeps what a reader needs, compared lexicographically: every token label kept and weights
// square and large enough, token labels at full size, then the maps' area.
struct Quality {
    bool readable = false;
    bool fullLabels = false;
    float area = 0.0f;
    bool operator<(const Quality& o) const {
        if (readable != o.readable) return !readable;
        if (fullLabels != o.fullLabels) return !fullLabels;
        return area < o.area;
    }
};

// Cells more than 4:1 read as a strip, not a matrix; token rows may be taller, up to their labels' height.
bool squashed(const PlacedMap& m, float comfortableRow) {
    const float cw = m.cells.width() / static_cast<float>(m.map.cols), ch = m.cells.height() / static_cast<float>(m.map.rows);
    const bool tooFlat = ch * 4.0f < cw - 0.01f;
    const bool tooTall = cw * 4.0f < ch - 0.01f && !(tokenRows(m.map) && ch <= comfortableRow + 0.01f);
    return tooFlat || tooTall;
}

Rect grow(Rect r, const Insets& in) { return {r.x0 - in.left, r.y0 - in.top, r.x1 + in.right, r.y1 + in.bottom}; }

Rect unite(const Rect& a, const Rect& b) {
    if (a.width() <= 0.0f && a.height() <= 0.0f) return b;
    return {std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1), std::max(a.y1, b.y1)};
}

class Placer {
public:
    Placer(const Metrics& metrics, const Rules& rules) : metrics_(metrics), rules_(rules) {}

    void map(Layout& layout, const Map& map, float x, float y, float cw, float ch) const {
        const Rect cells{x, y, x + cw * static_cast<float>(map.cols), y + ch * static_cast<float>(map.rows)};
        layout.maps.push_back({map, cells});
        layout.extent = unite(layout.extent, grow(cells, metrics_.decorations(map)));
    }
    void text(Layout& layout, std::string text, TextRole role, Rect box) const {
        layout.extent = unite(layout.extent, box);
        layout.texts.push_back({std::move(text), role, box, std::nullopt, {}});
    }
    // Between two maps with no operator between them (a head's tiles).
    float tileGap() const { return std::round(rules_.gap() / 2.0f); }
    static bool followsMap(const std::vector<Term>& terms, std::size_t i) { return i > 0 && std::holds_alternative<Map>(terms[i - 1]); }
    static bool followsOperator(const std::vector<Term>& terms, std::size_t i) { return i > 0 && std::holds_alternative<Operator>(terms[i - 1]); }
    // Where text and rows end on the right: the page (Rules::pageWidth) when it is narrower than `box`.
    float pageRight(const Rect& box) const { return rules_.pageWidth > 0.0f ? std::min(box.x1, box.x0 + rules_.pageWidth) : box.x1; }

    Quality quality(const Layout& layout) const {
        Quality q;
        const float smallest = smallestTokenCell(layout);
        q.readable = smallest >= rules_.labelledCell();
        q.fullLabels = smallest >= rules_.comfortableRow();
        for (const PlacedMap& m : layout.maps) {
            const float weightSide = m.map.compactWeight ? rules_.minCompactWeightSide() : rules_.minWeightSide();
            if (m.map.isWeight() && m.cells.height() < weightSide - 0.5f) q.readable = false;
            if (squashed(m, rules_.comfortableRow())) q.readable = false;
            if (std::min(m.cells.width() / static_cast<float>(m.map.cols), m.cells.height() / static_cast<float>(m.map.rows)) <
                rules_.smallestCell - 0.01f) {
                q.readable = false;
            }
        }
        q.area = mapArea(layout);
        return q;
    }

    // The formula (and the hint, when `withHint`) across the top of `box`; returns the box below them.
    Rect header(Layout& layout, const Figure& figure, Rect box, bool withHint) const {
        const float right = pageRight(box);
        if (!figure.formula.empty()) {
            const float h = metrics_.textHeight(figure.formula, TextRole::Formula, right - box.x0);
            text(layout, figure.formula, TextRole::Formula, {box.x0, box.y0, right, box.y0 + h});
            box.y0 += h + 6.0f * rules_.scale;
        }
        if (withHint && !figure.hint.empty()) {
            const float h = metrics_.textHeight(figure.hint, TextRole::Hint, right - box.x0);
            text(layout, figure.hint, TextRole::Hint, {box.x0, box.y0, right, box.y0 + h});
            box.y0 += h;
        }
        if (!figure.formula.empty() || (withHint && !figure.hint.empty())) box.y0 += std::round(10.0f * rules_.scale);  // no text, no space
        return box;
    }

    Layout line(const std::vector<Term>& terms, Rect box) const;
    Layout line(const std::vector<Term>& terms, Rect box, float weightShare, bool& weightBound) const;
    // The shares of a line's width its weight matrices may take, tried in order while one reads better.
    static constexpr float kWeightShares[] = {0.34f, 0.42f, 0.5f};
    void placeRows(Layout& layout, const std::vector<Term>& terms, const std::vector<Insets>& insets, std::vector<float>& cellW,
                   std::vector<float>& cellH, std::vector<float>& width, const Rect& box) const;
    Layout stack(const Stack& stack, Rect box) const;
    Layout textbook(const Product& product, Rect box) const;
    float notesHeight(const std::vector<Note>& notes, float width) const;
    void notes(Layout& layout, const std::vector<Note>& notes, Rect box) const;
    Layout tokens(const Figure& figure, const Tokens& tokens, const Rect& box) const;
    Layout figure(const Figure& figure, const Rect& box) const;
    Layout scene(const Scene& scene, const Rect& box) const;

private:
    const Metrics& metrics_;
    const Rules& rules_;
};

// Compact weights side by side (W^Q W^K W^V) share one cell size, so their shapes compare (W^K of grouped-query
// attention as tall as W^Q and narrower), and together take at most kCompactWeightsShare of the line's width.
// No narrower than its name ("W^K"): the narrowest keeps its title whole.
void shareCompactWeightCells(const std::vector<Term>& terms, float availW, const Metrics& metrics, std::vector<float>& squares, float& squaresW) {
    float shared = std::numeric_limits<float>::infinity(), columns = 0.0f, named = 0.0f;
    for (std::size_t i = 0; i < terms.size(); ++i) {
        const Map* map = std::get_if<Map>(&terms[i]);
        if (map == nullptr || !map->compactWeight) continue;
        shared = std::min(shared, squares[i]);
        columns += static_cast<float>(map->cols);
        named = std::max(named, metrics.textWidth(core::tensorInfo(map->tensor).symbol, TextRole::Heading) / static_cast<float>(map->cols));
    }
    if (columns == 0.0f) return;
    shared = std::min(shared, std::max(availW * kCompactWeightsShare / columns, named));
    for (std::size_t i = 0; i < terms.size(); ++i) {
        const Map* map = std::get_if<Map>(&terms[i]);
        if (map == nullptr || !map->compactWeight) continue;
        squares[i] = shared;
        squaresW += shared * static_cast<float>(map->cols);
    }
}

// Terms side by side. Maps with token rows share one cell height, so their rows line up; a map with feature rows
// (a weight matrix, Kᵀ) gets square cells of its own, up to a third of the width, or up to half of it when that
// reads better (a weight the width binds beside token rows that cannot grow taller: the height is not wasted).
Layout Placer::line(const std::vector<Term>& terms, Rect box) const {
    bool weightBound = false;
    Layout best = line(terms, box, kWeightShares[0], weightBound);
    Quality bestQuality = quality(best);
    for (std::size_t s = 1; s < std::size(kWeightShares) && weightBound; ++s) {
        Layout wider = line(terms, box, kWeightShares[s], weightBound);
        const Quality q = quality(wider);
        if (!(bestQuality < q)) break;
        best = std::move(wider), bestQuality = q;
    }
    return best;
}

// The line with its weight matrices taking at most `weightShare` of the width; `weightBound`: one was bound by it.
Layout Placer::line(const std::vector<Term>& terms, Rect box, float weightShare, bool& weightBound) const {
    weightBound = false;
    Layout layout;
    const float gap = rules_.gap(), maxCell = rules_.maxCell();
    float fixedW = 0.0f, fixedTop = 0.0f, fixedBottom = 0.0f, squareCols = 0.0f, otherCols = 0.0f, tokenRowCount = 0.0f;
    std::vector<Insets> insets;
    for (std::size_t i = 0; i < terms.size(); ++i) {
        const Term& term = terms[i];
        if (const auto* op = std::get_if<Operator>(&term)) {
            fixedW += metrics_.textWidth(op->glyph, TextRole::Operator) + gap;
            insets.push_back({});
            continue;
        }
        const Map& map = std::get<Map>(term);
        insets.push_back(metrics_.decorations(map));
        if (followsMap(terms, i)) insets.back().left += tileGap();
        fixedW += insets.back().left + insets.back().right;
        fixedTop = std::max(fixedTop, insets.back().top);
        fixedBottom = std::max(fixedBottom, insets.back().bottom);
        if (tokenRows(map)) tokenRowCount = std::max(tokenRowCount, static_cast<float>(map.rows));
        if (tokenColumns(map)) squareCols += static_cast<float>(map.cols);
        else if (tokenRows(map)) otherCols += static_cast<float>(map.cols);
    }
    const float availW = std::max(1.0f, box.width() - fixedW), availH = std::max(1.0f, box.height() - fixedTop - fixedBottom);
    // The feature-row maps' rows first, as tall as the box allows: square cells (at most a third of the width),
    // except that token columns (Kᵀ) take the token cells' width below.
    std::vector<float> squares(terms.size(), 0.0f);
    float squaresW = 0.0f;
    for (std::size_t i = 0; i < terms.size(); ++i) {
        const Map* map = std::get_if<Map>(&terms[i]);
        if (map == nullptr || tokenRows(*map)) continue;
        squares[i] = std::min(availH / static_cast<float>(map->rows), maxCell);
        if (tokenColumns(*map)) continue;
        if (map->compactWeight) continue;  // the compact weights' share is a joint one (shareCompactWeightCells)
        const float bound = availW * weightShare / static_cast<float>(map->cols);
        if (bound < squares[i]) squares[i] = bound, weightBound = true;
        squaresW += squares[i] * static_cast<float>(map->cols);
    }
    shareCompactWeightCells(terms, availW, metrics_, squares, squaresW);
    // Then the token rows' height, from large to small, until the maps fit the width: token × token maps keep
    // square cells, the others share what is left, their cells at most 3:1 (token rows may be taller, up to their
    // labels' height).
    const float maxRowsH = tokenRowCount > 0.0f ? std::min(availH / tokenRowCount, maxCell) : 0.0f;
    float ch = maxRowsH, cw = 0.0f;
    // Without token columns the width left does not depend on the rows' height: start at the tallest row the 3:1
    // rule (or the comfortable row) allows, not at a quarter-pixel step below it that moves with the box.
    if (squareCols == 0.0f && otherCols > 0.0f) {
        ch = std::min(ch, std::max(3.0f * std::min((availW - squaresW) / otherCols, maxCell), rules_.comfortableRow()));
    }
    // Steps of a quarter pixel, with a stop at the comfortable row on the way: a row a step short of it would
    // lose its full-size label (and the hint or side room that wait for full labels).
    const auto smaller = [&](float h) { return h > rules_.comfortableRow() && h - 0.25f < rules_.comfortableRow() ? rules_.comfortableRow() : h - 0.25f; };
    const auto fitsAt = [&](float h) {
        const float left = availW - squaresW - squareCols * h;
        cw = otherCols > 0.0f ? std::min({left / otherCols, maxCell, 3.0f * h}) : 0.0f;
        return left >= -0.01f && (otherCols == 0.0f || cw * 3.0f >= h || h <= rules_.comfortableRow());
    };
    float tooTall = 0.0f;  // the last row height tried that did not fit
    for (; ch > 0.5f; ch = smaller(ch)) {
        if (fitsAt(ch)) break;
        tooTall = ch;
    }
    // The quarter-pixel steps overshoot: the tallest rows that fit lie between the step that fits and the one
    // above it (48 tokens at 1920 × 1080: a step landed 0.06 px under the label floor the width allowed, and S and
    // A were stacked).
    if (tooTall > 0.0f && ch > 0.5f) {
        for (int i = 0; i < 12; ++i) {
            const float middle = (ch + tooTall) / 2.0f;
            if (fitsAt(middle)) ch = middle;
            else tooTall = middle;
        }
    }
    fitsAt(ch);  // cw for the rows chosen
    ch = std::max(ch, 0.5f);
    const auto cellWidth = [&](const Map& map) { return tokenColumns(map) ? ch : cw; };
    std::vector<float> cellW(terms.size(), 0.0f), cellH(terms.size(), 0.0f), width(terms.size(), 0.0f);
    for (std::size_t i = 0; i < terms.size(); ++i) {
        if (const auto* op = std::get_if<Operator>(&terms[i])) {
            width[i] = metrics_.textWidth(op->glyph, TextRole::Operator) + gap;
            continue;
        }
        const Map& map = std::get<Map>(terms[i]);
        cellW[i] = squares[i] > 0.0f && !tokenColumns(map) ? squares[i] : cellWidth(map);
        cellH[i] = squares[i] > 0.0f ? squares[i] : ch;
        width[i] = insets[i].left + cellW[i] * static_cast<float>(map.cols) + insets[i].right;
    }
    placeRows(layout, terms, insets, cellW, cellH, width, box);
    return layout;
}

// The terms of a line in rows: one row, or on a page narrower than the box (Rules::pageWidth) as many as the
// terms need, a new row starting where a map or an operator with its right operand would cross the page's right
// edge. A map wider than the page alone is scaled down to its width. In each row the maps' middles line up.
void Placer::placeRows(Layout& layout, const std::vector<Term>& terms, const std::vector<Insets>& insets, std::vector<float>& cellW,
                       std::vector<float>& cellH, std::vector<float>& width, const Rect& box) const {
    const float gap = rules_.gap();
    const float page = rules_.pageWidth > 0.0f ? std::min(rules_.pageWidth, box.width()) : std::numeric_limits<float>::infinity();
    // Chunks that never part: a map, or an operator with the map after it.
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < terms.size(); ++i) {
        if (i == 0 || !followsOperator(terms, i)) starts.push_back(i);
    }
    starts.push_back(terms.size());
    std::vector<std::size_t> rowStarts{0};
    float x = 0.0f;
    for (std::size_t c = 0; c + 1 < starts.size(); ++c) {
        float w = 0.0f, cells = 0.0f;
        for (std::size_t i = starts[c]; i < starts[c + 1]; ++i) {
            w += width[i];
            if (const Map* map = std::get_if<Map>(&terms[i])) cells += cellW[i] * static_cast<float>(map->cols);
        }
        if (w > page && cells > 0.0f) {  // alone too wide: its maps' cells shrink to the page
            const float factor = std::max(0.05f, (page - (w - cells)) / cells);
            for (std::size_t i = starts[c]; i < starts[c + 1]; ++i) {
                const Map* map = std::get_if<Map>(&terms[i]);
                if (map == nullptr) continue;
                width[i] -= cellW[i] * static_cast<float>(map->cols) * (1.0f - factor);
                cellW[i] *= factor;
                cellH[i] *= factor;
            }
            w = page;
        }
        if (x > 0.0f && x + w > page + 0.01f) rowStarts.push_back(starts[c]), x = 0.0f;
        x += w;
    }
    rowStarts.push_back(terms.size());
    float y = box.y0;
    for (std::size_t r = 0; r + 1 < rowStarts.size(); ++r) {
        float top = 0.0f, bottom = 0.0f, tallest = 0.0f;
        for (std::size_t i = rowStarts[r]; i < rowStarts[r + 1]; ++i) {
            if (const Map* map = std::get_if<Map>(&terms[i])) {
                top = std::max(top, insets[i].top);
                bottom = std::max(bottom, insets[i].bottom);
                tallest = std::max(tallest, static_cast<float>(map->rows) * cellH[i]);
            }
        }
        const float centre = y + top + tallest / 2.0f;
        x = box.x0;
        for (std::size_t i = rowStarts[r]; i < rowStarts[r + 1]; ++i) {
            if (const auto* op = std::get_if<Operator>(&terms[i])) {
                const float w = width[i] - gap;
                const float h = metrics_.textHeight(op->glyph, TextRole::Operator, 0.0f);
                text(layout, op->glyph, TextRole::Operator, {x + gap / 2.0f, centre - h / 2.0f, x + gap / 2.0f + w, centre + h / 2.0f});
            } else {
                const Map& map = std::get<Map>(terms[i]);
                const float height = cellH[i] * static_cast<float>(map.rows);
                this->map(layout, map, x + insets[i].left, centre - height / 2.0f, cellW[i], cellH[i]);
            }
            x += width[i];
        }
        y = centre + tallest / 2.0f + bottom + gap;
    }
}

// The feature columns' cell width of a laid-out line (its maps with token rows and feature columns share one).
float featureCellWidth(const Layout& layout) {
    for (const PlacedMap& m : layout.maps) {
        if (tokenRows(m.map) && !tokenColumns(m.map)) return m.cells.width() / static_cast<float>(m.map.cols);
    }
    return 0.0f;
}

float featureColumns(const Layout& layout) {
    float columns = 0.0f;
    for (const PlacedMap& m : layout.maps) {
        if (tokenRows(m.map) && !tokenColumns(m.map)) columns += static_cast<float>(m.map.cols);
    }
    return columns;
}

void append(Layout& into, Layout&& part) {
    for (PlacedMap& m : part.maps) into.maps.push_back(std::move(m));
    for (PlacedText& t : part.texts) into.texts.push_back(std::move(t));
    into.extent = unite(into.extent, part.extent);
}

// Moves everything placed in `layout` down by `dy`.
void moveDown(Layout& layout, float dy) {
    for (PlacedMap& m : layout.maps) m.cells.y0 += dy, m.cells.y1 += dy;
    for (PlacedText& t : layout.texts) t.box.y0 += dy, t.box.y1 += dy, t.swatchBox.y0 += dy, t.swatchBox.y1 += dy;
    layout.extent.y0 += dy, layout.extent.y1 += dy;
}

// Lines in equal shares of the height. Each is laid out in the full width first; a line whose feature cells came
// out wider than the narrowest line's is laid out again in the width it used, less what narrows them to it. A
// line wrapped onto more rows than its share holds (Rules::pageWidth) pushes the lines below it down.
Layout Placer::stack(const Stack& stack, Rect box) const {
    const float gap = rules_.gap(), count = static_cast<float>(stack.lines.size());
    const float share = (box.height() - gap * (count - 1.0f)) / count;
    std::vector<Layout> lines;
    float narrowest = std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < stack.lines.size(); ++i) {
        const float y0 = box.y0 + static_cast<float>(i) * (share + gap);
        lines.push_back(line(stack.lines[i].terms, {box.x0, y0, box.x1, y0 + share}));
        if (const float cw = featureCellWidth(lines.back()); cw > 0.0f) narrowest = std::min(narrowest, cw);
    }
    Layout layout;
    float pushed = 0.0f;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const float cw = featureCellWidth(lines[i]);
        const float y0 = box.y0 + static_cast<float>(i) * (share + gap);
        if (cw > narrowest + 0.01f) {
            const float width = (lines[i].extent.x1 - box.x0) - (cw - narrowest) * featureColumns(lines[i]);
            lines[i] = line(stack.lines[i].terms, {box.x0, y0, box.x0 + width, y0 + share});
        }
        moveDown(lines[i], pushed);
        pushed += std::max(0.0f, lines[i].extent.y1 - (y0 + pushed + share));
        append(layout, std::move(lines[i]));
    }
    return layout;
}

// The height the notes take under the maps, with the space above them.
float Placer::notesHeight(const std::vector<Note>& notes, float width) const {
    Layout scratch;
    this->notes(scratch, notes, {0.0f, 0.0f, width, 0.0f});
    return notes.empty() ? 0.0f : scratch.extent.height() + std::round(8.0f * rules_.scale);
}

// Notes flow left to right under the maps, a swatch before each legend entry, wrapping to new rows.
void Placer::notes(Layout& layout, const std::vector<Note>& notes, Rect box) const {
    box.x1 = pageRight(box);
    const float line = metrics_.textHeight("Ag", TextRole::Hint, 0.0f);
    const float swatch = std::round(line * 0.7f), pad = std::round(6.0f * rules_.scale), spacing = std::round(24.0f * rules_.scale);
    float x = box.x0, y = box.y0, rowHeight = 0.0f;
    for (const Note& note : notes) {
        const float lead = note.headColour ? swatch + pad : 0.0f;
        const float width = std::min(lead + metrics_.textWidth(note.text, TextRole::Hint) + 1.0f, box.width());  // + 1: never wrapped by rounding
        if (x > box.x0 && x + width > box.x1) x = box.x0, y += rowHeight, rowHeight = 0.0f;
        const float height = metrics_.textHeight(note.text, TextRole::Hint, width - lead);
        PlacedText placed{note.text, TextRole::Hint, {x + lead, y, x + width, y + height}, note.headColour, {}};
        if (note.headColour) placed.swatchBox = {x, y + (line - swatch) / 2.0f, x + swatch, y + (line + swatch) / 2.0f};
        layout.extent = unite(layout.extent, {x, y, x + width, y + height});
        layout.texts.push_back(std::move(placed));
        rowHeight = std::max(rowHeight, height);
        x += width + spacing;
    }
}

// result_j = left · top_j: tops above their results, left beside them. The token rows' height is searched from
// large to small; for each, the other sizes follow from the rules, and the best-reading candidate wins.
Layout Placer::textbook(const Product& product, Rect box) const {
    const float gap = rules_.gap(), maxCell = rules_.maxCell();
    const Map& left = product.left;
    const Insets li = metrics_.decorations(left);
    const float m = static_cast<float>(left.rows), k = static_cast<float>(left.cols);
    float n = 0.0f, pairsW = 0.0f, topTop = 0.0f, topBottom = 0.0f, resultTop = li.top, bottom = li.bottom;
    std::vector<float> pairLeft, pairRight;
    for (const Product::Pair& pair : product.pairs) {
        const Insets ti = metrics_.decorations(pair.top), ri = metrics_.decorations(pair.result);
        n += static_cast<float>(pair.result.cols);
        pairLeft.push_back(std::max(ti.left, ri.left));
        pairRight.push_back(std::max(ti.right, ri.right));
        pairsW += pairLeft.back() + pairRight.back() + gap;
        topTop = std::max(topTop, ti.top);
        topBottom = std::max(topBottom, ti.bottom);
        resultTop = std::max(resultTop, ri.top);
        bottom = std::max(bottom, ri.bottom);
    }
    const Map& top = product.pairs.front().top;
    const Map& result = product.pairs.front().result;
    const float availW = box.width() - li.left - li.right - pairsW;
    const float availH = box.height() - topTop - topBottom - gap - resultTop - bottom;
    if (availW <= 0.0f || availH <= 0.0f) return {};

    struct Cells {
        float chm = 0, chk = 0, cw = 0, cwL = 0;  // token rows, top's rows, result's columns, left's columns
    };
    const auto cellsFor = [&](float chm) -> std::optional<Cells> {
        Cells c{chm, 0, 0, 0};
        const float chkMax = std::min((availH - m * chm) / k, maxCell);
        if (chkMax <= 0.05f) return std::nullopt;
        float cw = result.tokenByToken() ? chm : maxCell;
        if (top.isWeight()) cw = std::min(cw, chkMax);
        if (left.tokenByToken()) {
            c.cwL = chm;
            cw = std::min(cw, (availW - k * c.cwL) / n);
        } else {
            cw = std::min(cw, availW / (n + k));
            c.cwL = std::min({(availW - n * cw) / k, maxCell, 3.0f * chm});
        }
        if (cw <= 0.05f || c.cwL <= 0.05f || (result.tokenByToken() && cw < chm - 0.01f)) return std::nullopt;
        c.cw = cw;
        c.chk = top.isWeight() ? cw : std::min(chkMax, std::max(3.0f * cw, tokenRows(top) ? rules_.comfortableRow() : 0.0f));
        return c;
    };
    // On a page narrower than the box (Rules::pageWidth), a pair that would cross its right edge starts a new band
    // of pairs below, right of the left operand's column.
    const auto place = [&](const Cells& c) {
        Layout layout;
        const float xL = box.x0 + li.left;
        float yT = box.y0 + topTop, yR = yT + k * c.chk + topBottom + gap + resultTop;
        map(layout, left, xL, yR, c.cwL, c.chm);
        const float firstX = xL + k * c.cwL + li.right + gap, band = yR - yT + m * c.chm + bottom + gap + topTop;
        float x = firstX;
        for (std::size_t j = 0; j < product.pairs.size(); ++j) {
            const float pairW = pairLeft[j] + static_cast<float>(product.pairs[j].result.cols) * c.cw + pairRight[j];
            if (x > firstX && x + pairW > pageRight(box) + 0.01f) x = firstX, yT += band, yR += band;
            const float xR = x + pairLeft[j];
            map(layout, product.pairs[j].top, xR, yT, c.cw, c.chk);
            map(layout, product.pairs[j].result, xR, yR, c.cw, c.chm);
            x = xR + static_cast<float>(product.pairs[j].result.cols) * c.cw + pairRight[j] + gap;
        }
        return layout;
    };
    std::optional<Layout> best;
    Quality bestQuality;
    for (float chm = std::min(maxCell, availH / m); chm > 0.5f; chm -= 0.25f) {
        const std::optional<Cells> c = cellsFor(chm);
        if (!c) continue;
        Layout candidate = place(*c);
        const Quality q = quality(candidate);
        if (!best || bestQuality < q) best = std::move(candidate), bestQuality = q;
    }
    return best ? *best : Layout{};
}

// Stage 0: the token boxes, then the hint and the notes under them (the boxes leave them room); rows and words
// wrap at the page.
Layout Placer::tokens(const Figure& figure, const Tokens& tokens, const Rect& box) const {
    const Rect page{box.x0, box.y0, pageRight(box), box.y1};
    const float hintH = figure.hint.empty() ? 0.0f : metrics_.textHeight(figure.hint, TextRole::Hint, page.width()) + std::round(8.0f * rules_.scale);
    const Rect boxes{page.x0, page.y0, page.x1, page.y1 - rules_.gap() - hintH - notesHeight(figure.notes, page.width())};
    Layout layout = layoutTokenBoxes(tokens, boxes, metrics_, rules_);
    float y = layout.extent.y1 + rules_.gap();
    if (!figure.hint.empty()) {
        const float h = metrics_.textHeight(figure.hint, TextRole::Hint, page.width());
        text(layout, figure.hint, TextRole::Hint, {page.x0, y, page.x1, y + h});
        y += h + std::round(8.0f * rules_.scale);
    }
    notes(layout, figure.notes, {page.x0, y, page.x1, page.y1});
    return layout;
}

Layout Placer::figure(const Figure& figure, const Rect& box) const {
    if (const auto* tokenBoxes = std::get_if<Tokens>(&figure.composition)) return tokens(figure, *tokenBoxes, box);
    const auto laid = [&](bool withHint) {
        Layout layout;
        const Rect below = header(layout, figure, box, withHint);
        Layout maps;
        bool oneLine = false;
        const float notesH = notesHeight(figure.notes, pageRight(below) - below.x0);
        const Rect room{below.x0, below.y0, below.x1, below.y1 - notesH};
        if (const auto* line = std::get_if<Line>(&figure.composition)) {
            maps = this->line(line->terms, room);
        } else if (const auto* stacked = std::get_if<Stack>(&figure.composition)) {
            maps = stack(*stacked, room);
        } else {
            const Product& product = std::get<Product>(figure.composition);
            maps = textbook(product, room);
            if (product.pairs.size() > 1 && maps.extent.x1 > pageRight(room) + 0.5f) {  // wider than the page: fitted to it
                maps = textbook(product, {room.x0, room.y0, pageRight(room), room.y1});
            }
            if (product.pairs.size() == 1) {
                if (maps.extent.x1 > pageRight(room) + 0.5f) maps = {};  // wider than the page: in one line, wrapped
                Layout inLine = this->line({product.left, Operator{"×"}, product.pairs[0].top, Operator{"="}, product.pairs[0].result}, room);
                const Quality a = quality(maps), b = quality(inLine);
                if (maps.maps.empty() || a < b) maps = std::move(inLine), oneLine = true;  // the textbook on a tie
            }
        }
        const float notesTop = maps.maps.empty() ? room.y1 : maps.extent.y1 + std::round(8.0f * rules_.scale);
        append(layout, std::move(maps));
        notes(layout, figure.notes, {below.x0, notesTop, below.x1, below.y1});
        layout.oneLine = oneLine;
        return layout;
    };
    // The hint when the maps keep their labels at full size with it, or lose nothing to it.
    Layout withHint = laid(true), without = laid(false);
    const Quality a = quality(withHint), b = quality(without);
    return (a.readable && a.fullLabels) || !(a < b) ? withHint : without;
}

Layout Placer::scene(const Scene& scene, const Rect& box) const {
    Layout best;
    Quality bestQuality;
    for (std::size_t f = 0; f < scene.figures.size(); ++f) {
        Layout layout = figure(scene.figures[f], box);
        layout.figure = static_cast<int>(f);
        const Quality q = quality(layout);
        if (f == 0 || bestQuality < q) best = std::move(layout), bestQuality = q;
        if (q.readable) break;  // the first figure that reads is the one the stage means
    }
    if (!scene.side || box.height() * scene.side->share < scene.side->minHeight * rules_.scale) return best;
    // The side content only when the maps keep their labels at full size above it.
    const float mapsHeight = std::round(box.height() * (1.0f - scene.side->share));
    Layout above = figure(scene.figures[static_cast<std::size_t>(best.figure)], {box.x0, box.y0, box.x1, box.y0 + mapsHeight});
    above.figure = best.figure;
    if (!quality(above).fullLabels) return best;
    above.side = Rect{box.x0, box.y0 + mapsHeight, box.x1, box.y1};
    return above;
}

constexpr float kScreenLabelPx = 9.0f, kLectureLabelPx = 14.0f;
constexpr int kLecturePromisedTokens = 24;  // the longest sentence whose labels the lecture keeps at kLectureLabelPx
}  // namespace

float lectureLabelFloor(int tokens) {
    if (tokens <= kLecturePromisedTokens) return kLectureLabelPx;
    return std::max(kScreenLabelPx, kLectureLabelPx * static_cast<float>(kLecturePromisedTokens) / static_cast<float>(tokens));
}

LabelSizes labelSizes(float smallPx, bool lecture, int tokens) {
    const float floor = std::max(lecture ? lectureLabelFloor(tokens) : kScreenLabelPx, 0.7f * smallPx);
    return {floor, std::max(smallPx, floor)};
}

float Rules::gap() const { return std::round(18.0f * scale); }
float Rules::labelledCell() const { return tokenLabelRoom(labelFloor()); }

Layout layoutScene(const Scene& scene, const Rect& box, const Metrics& metrics, const Rules& rules) {
    return Placer(metrics, rules).scene(scene, box);
}

Layout layoutSceneKeepingLabels(const Scene& scene, const Rect& box, const Metrics& metrics, const Rules& rules) {
    Layout best = layoutScene(scene, box, metrics, rules);
    const auto keepsLabels = [&](const Layout& layout, const Rules& kept) {
        return layout.maps.empty() || smallestTokenCell(layout) >= kept.labelledCell();
    };
    const auto take = [&](Layout tried, const Rules& kept) {
        if (smallestTokenCell(tried) > smallestTokenCell(best) + 0.01f) best = std::move(tried);
        return keepsLabels(best, kept);
    };
    if (keepsLabels(best, rules)) return best;
    // Taller: the rows' shortfall as height, a few times over (a layout is not linear in its box).
    Rect taller = box;
    for (int round = 0; round < 4; ++round) {
        float rows = 1.0f;
        for (const PlacedMap& m : best.maps) {
            if (core::isTokens(m.map.rowAxis)) rows = std::max(rows, static_cast<float>(m.map.rows));
        }
        taller.y1 += rows * (rules.labelledCell() - smallestTokenCell(best)) + 1.0f;
        if (take(layoutScene(scene, taller, metrics, rules), rules)) return best;
    }
    // A line its width binds: its maps sized for a larger box and wrapped at the page's width, as zoomed in, at the
    // untapered floor (wrapped, the page scrolls anyway: no need for maps smaller than 24 tokens' wrapped ones).
    Rules paged = rules;
    paged.pageWidth = rules.pageWidth > 0.0f ? rules.pageWidth : box.width();
    paged.mapLabelFloor = 0.0f;
    for (float k : {1.1f, 1.2f, 1.35f, 1.5f, 2.0f, 3.0f}) {
        const Rect larger{box.x0, box.y0, box.x0 + k * box.width(), box.y0 + k * box.height()};
        if (take(layoutScene(scene, larger, metrics, paged), paged)) return best;
    }
    return best;
}

float smallestTokenCell(const Layout& layout) {
    float smallest = std::numeric_limits<float>::infinity();
    for (const PlacedMap& m : layout.maps) {
        if (core::isTokens(m.map.rowAxis)) smallest = std::min(smallest, m.cells.height() / static_cast<float>(m.map.rows));
        if (core::isTokens(m.map.colAxis) && m.map.colLabels) smallest = std::min(smallest, m.cells.width() / static_cast<float>(m.map.cols));
    }
    return layout.maps.empty() ? 0.0f : smallest;
}

float mapArea(const Layout& layout) {
    float area = 0.0f;
    for (const PlacedMap& m : layout.maps) area += m.cells.width() * m.cells.height();
    return area;
}

}  // namespace attnviz::scene
