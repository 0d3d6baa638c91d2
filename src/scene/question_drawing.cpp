// question_drawing.cpp — a question laid out and drawn into one Drawing (see question_drawing.h): [Kicker and
// prompt], [Choices] with the class's counts beside them, [Reveal]'s sentence and why, [Answer row]. Positions are
// computed the same way revealed or not; `revealed` only decides what is added to the list.
#include "scene/question_drawing.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

namespace attnviz::scene {
namespace {

constexpr Rgba8 kInk{30, 30, 30, 255}, kGrey{95, 95, 100, 255}, kBackground{255, 255, 255, 255};
constexpr Rgba8 kChoiceFill{244, 246, 249, 255}, kChoiceEdge{196, 200, 208, 255}, kSelectedEdge{40, 100, 200, 255};
constexpr Rgba8 kTruthFill{222, 243, 224, 255}, kTruthEdge{40, 140, 60, 255}, kWrongEdge{200, 60, 50, 255};
constexpr Rgba8 kKeptCell{255, 255, 255, 255}, kRemovedCell{70, 70, 80, 255};
constexpr Rgba8 kExtraCell{215, 60, 50, 255}, kMissedCell{240, 160, 40, 255};  // clicked cells revealed: marked but kept, removed but not marked
constexpr Rgba8 kClassBar{125, 150, 205, 255}, kModelBar{40, 140, 60, 255}, kBadgeFill{70, 80, 100, 255}, kBadgeInk{255, 255, 255, 255};

// DejaVu's ascender and line height per em (hhea: 1901 and 1901 + 483 units of 2048).
constexpr float kAscent = 1901.0f / 2048.0f, kLine = 2384.0f / 2048.0f;

int px(float v) { return static_cast<int>(std::lround(v)); }

class Painter {
public:
    Painter(Drawing& drawing, const TextWidth& measure, float& smallest, int& bottom)
        : drawing_(drawing), measure_(measure), smallest_(smallest), bottom_(bottom) {}

    // One line of text with its top at `top`; returns the line's height.
    int text(int x, int top, const std::string& utf8, float size, FontFace face, Rgba8 colour) {
        if (utf8.empty()) return px(size * kLine);
        drawing_.primitives.push_back(Drawing::Text{x, px(static_cast<float>(top) + size * kAscent), utf8, size, face, colour, false});
        note(size, top + px(size * kLine));
        return px(size * kLine);
    }
    // `utf8` fitted to `width`, cut with "…" when it is wider.
    std::string fitted(const std::string& utf8, float width, float size, FontFace face) const {
        if (measure_(utf8, size, face) <= width) return utf8;
        std::string cut = utf8;
        while (!cut.empty() && measure_(cut + "…", size, face) > width) {
            do cut.pop_back();
            while (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0x80);  // whole characters only
            if (!cut.empty() && static_cast<unsigned char>(cut.back()) >= 0xC0) cut.pop_back();
        }
        return cut + "…";
    }
    // Words wrapped to `width`, as lines.
    std::vector<std::string> wrapped(const std::string& utf8, float width, float size, FontFace face) const {
        std::istringstream words(utf8);
        std::vector<std::string> lines{""};
        for (std::string word; words >> word;) {
            const std::string joined = lines.back().empty() ? word : lines.back() + " " + word;
            if (lines.back().empty() || measure_(joined, size, face) <= width) lines.back() = joined;
            else lines.push_back(word);
        }
        return lines;
    }
    float width(const std::string& utf8, float size, FontFace face) const { return measure_(utf8, size, face); }
    void fill(PixelRect r, Rgba8 c) {
        drawing_.primitives.push_back(Drawing::Fill{r, c});
        note(0.0f, r.bottom());
    }
    void line(Drawing::Line l) { drawing_.primitives.push_back(l); }
    void stroke(PixelRect r, Rgba8 c, int thickness) { drawing_.primitives.push_back(Drawing::Stroke{r, c, thickness}); }
    void cells(Drawing::Cells c) {
        note(0.0f, c.y + c.rows * c.cellHeight);
        drawing_.primitives.push_back(std::move(c));
    }
    void upwardText(int x, int pen, const std::string& utf8, float size, Rgba8 colour) {
        drawing_.primitives.push_back(Drawing::Text{x, pen, utf8, size, FontFace::Regular, colour, true});
        note(size, pen);
    }

private:
    void note(float size, int bottom) {
        if (size > 0.0f) smallest_ = smallest_ == 0.0f ? size : std::min(smallest_, size);
        bottom_ = std::max(bottom_, bottom);
    }
    Drawing& drawing_;
    const TextWidth& measure_;
    float& smallest_;
    int& bottom_;
};

struct Sizes {
    float body, prompt, choice;
    int margin, rowHeight, rowGap;
};

Sizes sizesFor(float type) {
    return {type, std::round(type * 1.45f), std::round(type * 1.2f), px(type), px(type * 1.2f * 2.0f), px(type * 0.45f)};
}

std::string share(int count, int total) { return total > 0 ? std::to_string(px(100.0f * static_cast<float>(count) / static_cast<float>(total))) + "%" : ""; }

// [SECTION] Answer row

// One row of colours over labelled keys, its title above it and its labels under it (upright when every label fits
// its cell, else upwards); returns the row's rectangle with its labels.
PixelRect answerRow(Painter& p, const Sizes& s, const QuestionLook& look, int x, int top, int width, const std::string& title,
                    const std::vector<std::string>& labels, const std::vector<float>& values, bool draw) {
    const int titleHeight = px(s.body * kLine) + px(s.body * 0.3f);
    const int n = static_cast<int>(values.size());
    const int cell = std::max(4, std::min(width / std::max(n, 1), px(s.body * 5.0f)));
    const int cellHeight = px(s.body * 1.6f);
    bool upright = true;
    float longest = 0.0f;
    for (const std::string& label : labels) {
        const float w = p.width(label, s.body, FontFace::Regular);
        upright = upright && w <= static_cast<float>(cell - 4);
        longest = std::max(longest, w);
    }
    const int labelHeight = upright ? px(s.body * kLine) : px(std::min(longest, s.body * 8.0f)) + 4;
    const PixelRect rect{x, top, cell * n, titleHeight + cellHeight + 4 + labelHeight};
    if (!draw) return rect;
    p.text(x, top, title, s.body, FontFace::Bold, kInk);
    Drawing::Cells row{x, top + titleHeight, cell, cellHeight, n, 1, {}};
    for (float v : values) row.colors.push_back(look.probabilityColour ? look.probabilityColour(v) : Rgba8{0, 0, 0, 255});
    p.cells(std::move(row));
    const int labelsTop = top + titleHeight + cellHeight + 4;
    for (int j = 0; j < n && j < static_cast<int>(labels.size()); ++j) {
        const std::string& label = labels[static_cast<std::size_t>(j)];
        if (upright) {
            const float w = p.width(label, s.body, FontFace::Regular);
            p.text(x + j * cell + px((static_cast<float>(cell) - w) / 2.0f), labelsTop, label, s.body, FontFace::Regular, kInk);
        } else {
            const std::string cut = p.fitted(label, s.body * 8.0f, s.body, FontFace::Regular);
            p.upwardText(x + j * cell + px(static_cast<float>(cell) / 2.0f + s.body * 0.35f), labelsTop + px(p.width(cut, s.body, FontFace::Regular)), cut, s.body, kInk);
        }
    }
    return rect;
}

// A choice's words and its mark (✓) in its row beside the badge (and picture), centred on the row's height: wrapped
// when the row is tall enough for the lines (a pictured choice), else on one line cut with "…" before the mark.
void choiceText(Painter& p, const std::string& text, const std::string& mark, float width, int x, int top, int height, float size, FontFace face) {
    const int line = px(size * kLine);
    std::vector<std::string> lines = p.wrapped(text + mark, width, size, face);
    const bool fits = static_cast<int>(lines.size()) * line <= height &&
                      std::all_of(lines.begin(), lines.end(), [&](const std::string& l) { return p.width(l, size, face) <= width; });
    if (!fits) lines = {p.fitted(text, width - p.width(mark, size, face), size, face) + mark};
    int y = top + (height - static_cast<int>(lines.size()) * line) / 2;
    for (const std::string& l : lines) y += p.text(x, y, l, size, face, kInk);
}

// [SECTION] The distribution column

// One choice's cell of the distribution column, `cell` one standard row high: the class's share as a bar with its
// count ("–" before any is typed), and the model's number as a bar with its value; the two share the row when both
// are drawn, one alone takes the row.
void distributionLanes(Painter& p, const Sizes& s, PixelRect cell, std::optional<int> count, int total, std::optional<float> model, float largest,
                       bool truth) {
    const int lanes = (count ? 1 : 0) + (model ? 1 : 0);
    if (lanes == 0) return;
    const int barRoom = cell.width - px(s.body * 6.5f), textX = cell.x + barRoom + px(s.body * 0.4f), line = px(s.body * kLine);
    const int laneHeight = lanes == 2 ? (cell.height - 6) / 2 : cell.height - px(s.body * 0.9f);
    int top = cell.y + (lanes == 2 ? 2 : px(s.body * 0.45f));
    if (count) {
        if (total > 0 && *count > 0) p.fill({cell.x, top, std::max(2, px(static_cast<float>(barRoom) * *count / static_cast<float>(total))), laneHeight}, kClassBar);
        p.text(textX, top + (laneHeight - line) / 2, total > 0 ? std::to_string(*count) + " · " + share(*count, total) : "–", s.body, FontFace::Regular, kInk);
        top += laneHeight + 2;
    }
    if (model) {
        const float fraction = largest > 0.0f ? *model / std::max(largest, 1e-6f) : 0.0f;
        p.fill({cell.x, top, std::max(2, px(static_cast<float>(barRoom) * fraction)), laneHeight}, kModelBar);
        p.text(textX, top + (laneHeight - line) / 2, core::questionValueText(*model), s.body, truth ? FontFace::Bold : FontFace::Regular, kInk);
    }
}

// [SECTION] Cell pictures

// The pixels per cell of the choices' pictures: the largest grid about `ems` ems on its longer side, 2 px at least.
int pictureCellSize(const core::Question& q, const Sizes& s, float ems) {
    int side = 0;
    for (const core::QuestionChoice& c : q.choices) {
        if (c.picture) side = std::max({side, c.picture->rows, c.picture->cols});
    }
    return side > 0 ? std::max(2, px(s.body * ems) / side) : 0;
}

// A query × key grid with its removed cells dark, kept cells white; returns its right edge.
int cellPicture(Painter& p, const core::CellPicture& picture, int x, int y, int cell) {
    Drawing::Cells grid{x, y, cell, cell, picture.cols, picture.rows, {}};
    for (int i = 0; i < picture.rows; ++i) {
        for (int j = 0; j < picture.cols; ++j) grid.colors.push_back(picture.isRemoved(i, j) ? kRemovedCell : kKeptCell);
    }
    p.cells(std::move(grid));
    const PixelRect frame{x - 1, y - 1, cell * picture.cols + 2, cell * picture.rows + 2};
    p.stroke(frame, kGrey, 1);
    return frame.right();
}

// [SECTION] Choices, the clicked cells and the typed word

// One choice in `row`: its fill and edge (the truth green once revealed, the pick blue, a wrong pick red), the badge
// with its digit, its picture and its words.
void drawChoice(Painter& p, const Sizes& s, const core::QuestionChoice& c, int index, bool truth, bool picked, bool revealed, PixelRect row, int pictureCell,
                float textSize) {
    const int pad = px(s.body * 0.4f);
    p.fill(row, truth ? kTruthFill : kChoiceFill);
    p.stroke(row, truth ? kTruthEdge : revealed && picked ? kWrongEdge : picked ? kSelectedEdge : kChoiceEdge, picked || truth ? 3 : 1);
    const int badge = s.rowHeight - 2 * pad;
    const PixelRect badgeRect{row.x + pad, row.y + (row.height - badge) / 2, badge, badge};
    p.fill(badgeRect, picked ? kSelectedEdge : kBadgeFill);
    const std::string digit = std::to_string(index + 1);
    const int textTop = row.y + (row.height - px(s.choice * kLine)) / 2;
    p.text(badgeRect.x + px((static_cast<float>(badge) - p.width(digit, s.choice, FontFace::Bold)) / 2.0f), textTop, digit, s.choice, FontFace::Bold, kBadgeInk);
    int textX = badgeRect.right() + px(s.body * 0.7f);
    if (c.picture) textX = cellPicture(p, *c.picture, textX, row.y + (row.height - pictureCell * c.picture->rows) / 2, pictureCell) + px(s.body * 0.7f);
    choiceText(p, c.text, truth ? "  ✓" : "", static_cast<float>(row.right() - textX - px(s.body * 0.5f)), textX, row.y + pad, row.height - 2 * pad, textSize,
               truth ? FontFace::Bold : FontFace::Regular);
}

// The mask answered by clicking cells, in the choices' room: one grid as large as the room's height (removed cells
// dark as the student marks them; revealed, a cell marked wrong red and a removed cell not marked orange), and beside
// it what to do or, revealed, what the colours mean.
void cellForm(Painter& p, const Sizes& s, const core::Question& q, const core::CellPicture& truth, const core::CellPicture& marked, bool revealed, PixelRect room,
              QuestionLayout& out) {
    const int side = std::max(truth.rows, truth.cols);
    // The words on the rows (left) and columns (above, upwards) when a cell is a line of type high, else none.
    const auto longest = [&](const std::vector<std::string>& labels) {
        float w = 0.0f;
        for (const std::string& l : labels) w = std::max(w, p.width(l, s.body, FontFace::Regular));
        return std::min(static_cast<int>(std::ceil(w)) + 1 + px(s.body * 0.4f), px(s.body * 5.0f));  // ceil: the widest word is not cut
    };
    const int rowLabels = longest(q.rowLabels), columnLabels = longest(q.columnLabels);
    const int labelledCell = std::min(room.height - columnLabels, room.width / 2 - rowLabels) / std::max(side, 1);
    const bool labelled = !q.rowLabels.empty() && labelledCell >= px(s.body * kLine);
    const int cell = labelled ? labelledCell : std::max(4, std::min(room.height, room.width / 2) / std::max(side, 1));
    const int gridX = room.x + 1 + (labelled ? rowLabels : 0), gridY = room.y + 1 + (labelled ? columnLabels : 0);
    if (labelled) {
        for (int i = 0; i < truth.rows && i < static_cast<int>(q.rowLabels.size()); ++i) {
            const std::string label = p.fitted(q.rowLabels[static_cast<std::size_t>(i)], static_cast<float>(rowLabels - px(s.body * 0.4f)), s.body, FontFace::Regular);
            p.text(gridX - px(s.body * 0.3f) - px(p.width(label, s.body, FontFace::Regular)), gridY + i * cell + (cell - px(s.body * kLine)) / 2, label, s.body, FontFace::Regular, kInk);
        }
        for (int j = 0; j < truth.cols && j < static_cast<int>(q.columnLabels.size()); ++j) {
            const std::string label = p.fitted(q.columnLabels[static_cast<std::size_t>(j)], static_cast<float>(columnLabels - px(s.body * 0.4f)), s.body, FontFace::Regular);
            p.upwardText(gridX + j * cell + cell / 2 + px(s.body * 0.35f), gridY - px(s.body * 0.3f), label, s.body, kInk);
        }
    }
    const bool sameGrid = marked.rows == truth.rows && marked.cols == truth.cols && marked.removed.size() == truth.removed.size();
    Drawing::Cells grid{gridX, gridY, cell, cell, truth.cols, truth.rows, {}};
    for (int i = 0; i < truth.rows; ++i) {
        for (int j = 0; j < truth.cols; ++j) {
            const bool mark = sameGrid && marked.isRemoved(i, j), removed = truth.isRemoved(i, j);
            grid.colors.push_back(!revealed ? (mark ? kRemovedCell : kKeptCell) : mark == removed ? (mark ? kRemovedCell : kKeptCell) : mark ? kExtraCell : kMissedCell);
        }
    }
    out.cellGrid = {grid.x, grid.y, cell * truth.cols, cell * truth.rows};
    out.cellSize = cell;
    p.cells(std::move(grid));
    const PixelRect& g = out.cellGrid;  // thin lines between the cells, so that each is a target of its own
    for (int i = 1; i < truth.rows; ++i) p.line({static_cast<float>(g.x), static_cast<float>(g.y + i * cell), static_cast<float>(g.right()), static_cast<float>(g.y + i * cell), 1.0f, kChoiceEdge});
    for (int j = 1; j < truth.cols; ++j) p.line({static_cast<float>(g.x + j * cell), static_cast<float>(g.y), static_cast<float>(g.x + j * cell), static_cast<float>(g.bottom()), 1.0f, kChoiceEdge});
    p.stroke({g.x - 1, g.y - 1, g.width + 2, g.height + 2}, kGrey, 1);
    const int x = out.cellGrid.right() + s.margin, width = room.right() - x;
    int y = room.y;
    const auto line = [&](const std::string& text, Rgba8 colour) {
        for (const std::string& l : p.wrapped(text, static_cast<float>(width), s.body, FontFace::Regular)) y += p.text(x, y, l, s.body, FontFace::Regular, colour);
    };
    if (!revealed) {
        line("Rows are queries, columns keys. Click the cells the mask removes; click again to keep one.", kInk);
        line("G: back to the four pictures.", kGrey);
        return;
    }
    const int swatch = px(s.body * kLine * 0.8f);
    for (const auto& [colour, meaning] : {std::pair{kRemovedCell, "removed, marked"}, std::pair{kExtraCell, "kept, but marked"}, std::pair{kMissedCell, "removed, not marked"}}) {
        p.fill({x, y + (px(s.body * kLine) - swatch) / 2, swatch, swatch}, colour);
        y += p.text(x + swatch + px(s.body * 0.4f), y, meaning, s.body, FontFace::Regular, kInk);
    }
}

// The prediction's typed-word row: "or type a word:" and the field (the screen puts its text field on it; revealed,
// the word is drawn in it), then how a word of several pieces is ranked. Returns the row's bottom.
int typedWordRow(Painter& p, const Sizes& s, const std::string& typed, bool revealed, int left, int top, int width, QuestionLayout& out) {
    const std::string label = "or type a word (T):";
    const int lineTop = top + (s.rowHeight - px(s.choice * kLine)) / 2;
    p.text(left, lineTop, label, s.choice, FontFace::Regular, kInk);
    const int fieldX = left + px(p.width(label, s.choice, FontFace::Regular)) + px(s.body * 0.6f);
    out.typedField = {fieldX, top + px(s.body * 0.3f), px(s.choice * 10.0f), s.rowHeight - px(s.body * 0.6f)};
    out.typedType = s.choice;
    p.stroke(out.typedField, kChoiceEdge, 1);
    if (revealed) p.text(fieldX + px(s.body * 0.4f), lineTop, p.fitted(typed, static_cast<float>(out.typedField.width) - s.body, s.choice, FontFace::Bold), s.choice, FontFace::Bold, kInk);
    const int noteX = out.typedField.right() + px(s.body * 0.6f);
    const std::string note = p.fitted("a word of several pieces is ranked by its first", static_cast<float>(left + width - noteX), s.body, FontFace::Regular);
    p.text(noteX, top + (s.rowHeight - px(s.body * kLine)) / 2, note, s.body, FontFace::Regular, kGrey);
    return top + s.rowHeight;
}

// Reveal's sentence: the clicked cells', the typed word's, or the pick's gap.
std::string gapText(const core::Question& q, const QuestionPicks& picks) {
    const core::QuestionChoice& truth = q.choices.at(static_cast<std::size_t>(q.truth));
    if (picks.cells && truth.picture) return core::cellsGapSentence(q, *picks.cells);
    if (picks.typedRank) return core::typedGapSentence(q, *picks.typedRank);
    return core::gapSentence(q, picks.picked);
}

// [SECTION] The whole question at one type size

QuestionLayout layoutAt(const core::Question& q, const QuestionPicks& picks, bool revealed, int width, const QuestionLook& look, const TextWidth& measure,
                        float type) {
    QuestionLayout out;
    out.drawing.width = width;
    out.drawing.background = kBackground;
    Painter p(out.drawing, measure, out.smallestType, out.bottom);
    const Sizes s = sizesFor(type);
    const int left = s.margin, inner = width - 2 * s.margin;
    int y = s.margin;

    // [Kicker and prompt]
    const core::Stage& stage = core::stage(q.stage);
    if (!look.tally.empty()) {
        const int tallyWidth = px(p.width(look.tally, s.body, FontFace::Bold));
        out.tally = {left + inner - tallyWidth, y, tallyWidth, p.text(left + inner - tallyWidth, y, look.tally, s.body, FontFace::Bold, kInk)};
    }
    y += p.text(left, y, "Predict first · stage " + std::to_string(stage.number()) + ", " + std::string(stage.title), s.body, FontFace::Regular, kGrey);
    y += px(s.body * 0.4f);
    const int promptTop = y;
    for (const std::string& line : p.wrapped(q.prompt, static_cast<float>(inner), s.prompt, FontFace::Bold)) y += p.text(left, y, line, s.prompt, FontFace::Bold, kInk);
    out.prompt = {left, promptTop, inner, y - promptTop};
    y += px(s.body * 0.8f);

    // [Choices] Left: the choices; right: the class's counts (and, revealed, the model's numbers). With nothing to
    // put beside them (a slide of choices without numbers), two columns of cards take the width, pictures larger.
    const int total = std::accumulate(picks.counts.begin(), picks.counts.end(), 0);
    const bool valued = std::any_of(q.choices.begin(), q.choices.end(), [](const core::QuestionChoice& c) { return c.value.has_value(); });
    const bool cards = !look.classCounts && !valued;
    const int distributionWidth = cards ? 0 : std::min(px(static_cast<float>(inner) * 0.42f), px(s.body * 26.0f));
    const int choicesWidth = cards ? inner : inner - distributionWidth - s.margin;
    const int distributionX = left + choicesWidth + s.margin;
    const std::string classHeader = total > 0 ? "the class's answers" : "+ / − count the class's answers";
    const bool classShown = look.classCounts && (total > 0 || !revealed) && !picks.cells;
    const std::string modelHeader = revealed && valued ? "model" : "";
    const std::string header = classShown ? (revealed ? (valued ? "class · model" : "class") : classHeader) : modelHeader;
    y += p.text(distributionX, y, header, s.body, FontFace::Regular, kGrey);
    const int choicesTop = y;
    float largestValue = 0.0f;
    for (const core::QuestionChoice& c : q.choices) largestValue = std::max(largestValue, c.value.value_or(0.0f));
    const int pad = px(s.body * 0.4f);
    const int pictureCell = pictureCellSize(q, s, cards ? 7.0f : 3.6f);
    int rowHeight = cards ? px(static_cast<float>(s.rowHeight) * 2.0f) : s.rowHeight;  // cards: tall, their words in the prompt's size
    for (const core::QuestionChoice& c : q.choices) {
        if (c.picture) rowHeight = std::max(rowHeight, pictureCell * c.picture->rows + 2 * pad);
    }
    const int count = static_cast<int>(q.choices.size());
    const int columns = cards ? 2 : 1, rows = (count + columns - 1) / columns;
    const int choiceWidth = (choicesWidth - (columns - 1) * s.margin) / columns;
    const core::QuestionChoice& truthChoice = q.choices.at(static_cast<std::size_t>(q.truth));
    if (picks.cells && truthChoice.picture) {
        cellForm(p, s, q, *truthChoice.picture, *picks.cells, revealed, {left, y, choicesWidth, rows * rowHeight + (rows - 1) * s.rowGap}, out);
    } else {
        for (int i = 0; i < count; ++i) {
            const PixelRect row{left + (i % columns) * (choiceWidth + s.margin), y + (i / columns) * (rowHeight + s.rowGap), choiceWidth, rowHeight};
            out.choices.push_back(row);
            drawChoice(p, s, q.choices[static_cast<std::size_t>(i)], i, revealed && i == q.truth, picks.picked == i, revealed, row, pictureCell, cards ? s.prompt : s.choice);
            const int counted = i < static_cast<int>(picks.counts.size()) ? picks.counts[static_cast<std::size_t>(i)] : 0;
            if (!cards) {
                distributionLanes(p, s, {distributionX, row.y + (rowHeight - s.rowHeight) / 2, distributionWidth, s.rowHeight},
                                  classShown ? std::optional<int>(counted) : std::nullopt, total, revealed ? q.choices[static_cast<std::size_t>(i)].value : std::nullopt,
                                  largestValue, revealed && i == q.truth);
            }
        }
    }
    y += rows * (rowHeight + s.rowGap);
    out.distribution = {distributionX, choicesTop, distributionWidth, y - choicesTop};
    if (look.typedWord && q.kind == core::QuestionKind::NextToken) y = typedWordRow(p, s, picks.typed, revealed, left, y, inner, out) + s.rowGap;
    y += px(s.body * 0.5f);

    // [Reveal] The gap and why, or how to reveal: both take the revealed block's height, so the answer's rectangle
    // stands where reveal puts it.
    const std::vector<std::string> gap = p.wrapped(gapText(q, picks), static_cast<float>(inner), s.choice, FontFace::Bold);
    const std::vector<std::string> why = p.wrapped(q.why, static_cast<float>(inner), s.body, FontFace::Regular);
    const int choiceLine = px(s.choice * kLine), bodyLine = px(s.body * kLine);
    const int revealedHeight = static_cast<int>(gap.size()) * choiceLine + static_cast<int>(why.size() + 1) * bodyLine;
    int at = y;
    if (revealed) {
        for (const std::string& line : gap) at += p.text(left, at, line, s.choice, FontFace::Bold, kInk);
        for (const std::string& line : why) at += p.text(left, at, line, s.body, FontFace::Regular, kInk);
        p.text(left, at, look.whyPrompt, s.body, FontFace::Regular, kGrey);
    } else {
        at += p.text(left, at, look.revealHint, s.choice, FontFace::Regular, kInk);
        p.text(left, at, look.keysHint, s.body, FontFace::Regular, kGrey);
    }
    y += std::max(revealedHeight, choiceLine + bodyLine);
    y += px(s.body * 0.6f);

    // [Answer row]
    if (!q.answer.values.empty()) {
        int top = y;
        PixelRect rect{left, y, 0, 0};
        if (!q.answer.before.empty()) {
            const PixelRect before = answerRow(p, s, look, left, top, inner, q.answer.beforeTitle, q.answer.labels, q.answer.before, revealed);
            top = before.bottom() + px(s.body * 0.5f);
        }
        const PixelRect after = answerRow(p, s, look, left, top, inner, q.answer.title, q.answer.labels, q.answer.values, revealed);
        rect.width = std::max(after.width, rect.width);
        rect.height = after.bottom() - rect.y;
        out.answer = rect;
        out.bottom = std::max(out.bottom, rect.bottom());
    }
    return out;
}

}  // namespace

std::optional<std::pair<int, int>> cellAt(const QuestionLayout& layout, const core::CellPicture& grid, int x, int y) {
    const PixelRect& r = layout.cellGrid;
    if (layout.cellSize <= 0 || x < r.x || y < r.y || x >= r.right() || y >= r.bottom()) return std::nullopt;
    const int row = (y - r.y) / layout.cellSize, column = (x - r.x) / layout.cellSize;
    if (row >= grid.rows || column >= grid.cols) return std::nullopt;
    return std::pair{row, column};
}

QuestionLayout layoutQuestion(const core::Question& question, const QuestionPicks& picks, bool revealed, int width, int height, const QuestionLook& look,
                              const TextWidth& measure) {
    // The largest type from look.type down to the floor at which the revealed question (the taller) fits the height.
    float type = std::max(look.type, look.minType);
    while (type > look.minType && layoutAt(question, picks, true, width, look, measure, type).bottom > height) type = std::max(look.minType, type - 1.0f);
    QuestionLayout layout = layoutAt(question, picks, revealed, width, look, measure, type);
    layout.drawing.height = height;
    return layout;
}

}  // namespace attnviz::scene
