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

// The pixels per cell of the choices' pictures: the largest grid about 3.6 ems on its longer side, 2 px at least.
int pictureCellSize(const core::Question& q, const Sizes& s) {
    int side = 0;
    for (const core::QuestionChoice& c : q.choices) {
        if (c.picture) side = std::max({side, c.picture->rows, c.picture->cols});
    }
    return side > 0 ? std::max(2, px(s.body * 3.6f) / side) : 0;
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
    if (!look.tally.empty()) p.text(left + inner - px(p.width(look.tally, s.body, FontFace::Bold)), y, look.tally, s.body, FontFace::Bold, kInk);
    y += p.text(left, y, "Predict first · stage " + std::to_string(stage.number()) + ", " + std::string(stage.title), s.body, FontFace::Regular, kGrey);
    y += px(s.body * 0.4f);
    const int promptTop = y;
    for (const std::string& line : p.wrapped(q.prompt, static_cast<float>(inner), s.prompt, FontFace::Bold)) y += p.text(left, y, line, s.prompt, FontFace::Bold, kInk);
    out.prompt = {left, promptTop, inner, y - promptTop};
    y += px(s.body * 0.8f);

    // [Choices] Left: the choices; right: the class's counts (and, revealed, the model's numbers).
    const int total = std::accumulate(picks.counts.begin(), picks.counts.end(), 0);
    const int distributionWidth = std::min(px(static_cast<float>(inner) * 0.42f), px(s.body * 26.0f));
    const int choicesWidth = inner - distributionWidth - s.margin;
    const int distributionX = left + choicesWidth + s.margin;
    const std::string classHeader = total > 0 ? "the class's answers" : "+ / − count the class's answers";
    const bool valued = std::any_of(q.choices.begin(), q.choices.end(), [](const core::QuestionChoice& c) { return c.value.has_value(); });
    const bool classShown = look.classCounts && (total > 0 || !revealed);
    const std::string modelHeader = revealed && valued ? "model" : "";
    const std::string header = classShown ? (revealed ? (valued ? "class · model" : "class") : classHeader) : modelHeader;
    y += p.text(distributionX, y, header, s.body, FontFace::Regular, kGrey);
    const int choicesTop = y;
    float largestValue = 0.0f;
    for (const core::QuestionChoice& c : q.choices) largestValue = std::max(largestValue, c.value.value_or(0.0f));
    const int pad = px(s.body * 0.4f);
    const int pictureCell = pictureCellSize(q, s);
    int rowHeight = s.rowHeight;
    for (const core::QuestionChoice& c : q.choices) {
        if (c.picture) rowHeight = std::max(rowHeight, pictureCell * c.picture->rows + 2 * pad);
    }
    for (int i = 0; i < static_cast<int>(q.choices.size()); ++i) {
        const core::QuestionChoice& c = q.choices[static_cast<std::size_t>(i)];
        const PixelRect row{left, y, choicesWidth, rowHeight};
        out.choices.push_back(row);
        const bool truth = revealed && i == q.truth, picked = picks.picked == i;
        p.fill(row, truth ? kTruthFill : kChoiceFill);
        p.stroke(row, truth ? kTruthEdge : revealed && picked ? kWrongEdge : picked ? kSelectedEdge : kChoiceEdge, picked || truth ? 3 : 1);
        const int badge = s.rowHeight - 2 * pad;
        const PixelRect badgeRect{row.x + pad, row.y + (rowHeight - badge) / 2, badge, badge};
        p.fill(badgeRect, picked ? kSelectedEdge : kBadgeFill);
        const std::string digit = std::to_string(i + 1);
        const int textTop = row.y + (rowHeight - px(s.choice * kLine)) / 2;
        p.text(badgeRect.x + px((static_cast<float>(badge) - p.width(digit, s.choice, FontFace::Bold)) / 2.0f), textTop, digit, s.choice, FontFace::Bold, kBadgeInk);
        int textX = badgeRect.right() + px(s.body * 0.7f);
        if (c.picture) textX = cellPicture(p, *c.picture, textX, row.y + pad, pictureCell) + px(s.body * 0.7f);
        const std::string mark = truth ? "  ✓" : "";
        const FontFace face = truth ? FontFace::Bold : FontFace::Regular;
        choiceText(p, c.text, mark, static_cast<float>(row.right() - textX - px(s.body * 0.5f)), textX, row.y + pad, rowHeight - 2 * pad, s.choice, face);
        const int count = i < static_cast<int>(picks.counts.size()) ? picks.counts[static_cast<std::size_t>(i)] : 0;
        distributionLanes(p, s, {distributionX, row.y + (rowHeight - s.rowHeight) / 2, distributionWidth, s.rowHeight},
                          classShown ? std::optional<int>(count) : std::nullopt, total, revealed ? c.value : std::nullopt, largestValue, truth);
        y += rowHeight + s.rowGap;
    }
    out.distribution = {distributionX, choicesTop, distributionWidth, y - choicesTop};
    y += px(s.body * 0.5f);

    // [Reveal] The gap and why, or how to reveal: both take the revealed block's height, so the answer's rectangle
    // stands where reveal puts it.
    const std::vector<std::string> gap = p.wrapped(core::gapSentence(q, picks.picked), static_cast<float>(inner), s.choice, FontFace::Bold);
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
