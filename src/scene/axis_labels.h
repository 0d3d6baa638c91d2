// axis_labels.h — a map's axis labels, described once for the screen's maps (ui/views/heatmap_view.cpp) and the
// exported panels (export/matrix_panel.cpp): which cells get a label (also the row charts'), and where each label
// goes, in what face and colour. Each painter measures its own type and plays the labels (the screen through
// ui/views/drawing_player.h, the exporters with export/text.h).
//
// Every cell is labelled when a cell gives a label the room it needs; otherwise every step-th, the step the
// smallest of 1, 2, 5, 10, 20, 50, … whose cells give it that room. An axis cut into head blocks steps by the
// block's divisors, then by 1, 2, 4, … whole blocks, so labels fall on the heads' first rows ("0, 16, 32").
// The room is the painter's to say: a token label's (tokenLabelRoom), a line of type, or a number and a gap.
#pragma once

#include "scene/drawing.h"

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::scene {

// Label every returned-th cell of `count` cells `cellExtent` long (pixels), each label needing `room` pixels along
// the axis; `headBlock` > 1: the axis is cut into blocks of that many cells. At least 1, at most `count`.
int labelStep(int count, float cellExtent, float room, int headBlock = 0);

// The room a token label `labelSize` pixels tall needs along the axis on screen: 0.85 of its size (a font's size
// includes room above and below the letters, so neighbouring labels may crowd slightly), less kLabelSlack so a cell a
// rounding short of the floor keeps its label.
float tokenLabelRoom(float labelSize);

// The cells an axis of `count` labels: every step-th from the first, and `focus` (the query the lecture follows).
std::vector<int> labelledCells(int count, int step, std::optional<int> focus = {});

// The middle of capitals and digits above the baseline, in ems (DejaVu Sans: cap height 0.73): a label's middle.
inline constexpr float kCapMiddleEm = 0.36f;

// One label, in the painter's pixels; `size` in ems (as Drawing::Text). Upwards: x is the baseline, `baseline` the
// pen's y, the text reading bottom to top.
struct AxisLabel {
    float x = 0.0f, baseline = 0.0f, size = 0.0f;
    std::string text;
    FontFace face = FontFace::Regular;
    Rgba8 color;
    bool upwards = false;
};

struct LabelInk {
    Rgba8 text, padding, focus;  // most labels; the batch's padding positions; the focused cell's (bold)
};

// An axis's cells and where its labels line up: cell i spans start + i · extent … + extent along the axis.
struct AxisLabelSpec {
    int count = 0;
    int step = 1;  // labelStep's
    float start = 0.0f, extent = 0.0f;
    float edge = 0.0f;  // rows: the labels' right edge; columns: the numbers' baseline, the tokens' pen (bottom)
    float size = 0.0f;  // ems, in the painter's pixels
    std::optional<int> focus;
    int paddingFrom = std::numeric_limits<int>::max();  // labels from this cell on are the batch's padding
    bool upwards = false;  // columns of tokens read upwards; column numbers are centred over their cells
    bool fromEdge = false;  // rows: the labels start at spec.edge (a column of values right of the cells: row sums)
};

using LabelTextOf = std::function<std::string(int cell)>;  // empty: no label for this cell
using TextWidthOf = std::function<float(std::string_view text, float size, FontFace face)>;

// How a painter measures its type: widths, and the line's extent above and below the baseline per em (DejaVu Sans's
// hhea ascender and descender on screen and on paper). Layouts of text the painters play measure with it.
struct TypeMeasure {
    TextWidthOf width;
    float ascentPerEm = 0.0f, descentPerEm = 0.0f;
    float ascent(float size) const { return ascentPerEm * size; }
    float descent(float size) const { return descentPerEm * size; }
    float lineHeight(float size) const { return ascent(size) + descent(size); }
};

// Row labels right-aligned at spec.edge (or starting there: fromEdge), each one's capitals centred on its row; the
// focused row's bold.
std::vector<AxisLabel> rowLabels(const AxisLabelSpec& spec, const LabelTextOf& textOf, const TextWidthOf& widthOf, const LabelInk& ink);
// Column labels over the cells: tokens upwards from spec.edge, their capitals centred on the column; numbers centred.
std::vector<AxisLabel> columnLabels(const AxisLabelSpec& spec, const LabelTextOf& textOf, const TextWidthOf& widthOf, const LabelInk& ink);

}  // namespace attnviz::scene
