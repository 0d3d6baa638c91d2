// label_fit.h — the one rule for how large an axis's labels are and which cells get one, for every painter: the
// screen's maps (ui/views/heatmap_view.cpp) and row charts (ui/views/row_chart.cpp), the exported panels
// (export/matrix_panel.cpp). Token labels shrink with their cells from the painter's full size down to its floor,
// each needing kTokenLabelRoomPerEm of its size along the axis; only under the floor are labels skipped, every 1st,
// 2nd, 5th, 10th … cell keeping one (scene::labelStep). Numbers keep their full size and need a line each along
// rows, their widest and a gap across columns. Sizes in ems, lengths in the painter's pixels.
// What this file deliberately does not do: place labels (scene/axis_labels.h) or measure type (the painter passes
// its widest number).
#pragma once

namespace attnviz::scene {

// DejaVu Sans's line (hhea ascender 1901 + descender 483 units) per em (2048 units): the screen sizes its type by
// the line, the drawing list and the exporters by the em.
inline constexpr float kDejaVuLinePerEm = (1901.0f + 483.0f) / 2048.0f;
// The room a token label needs along its axis, per em of its size: 0.85 of its line (a line includes room above and
// below the letters, so neighbouring labels may crowd slightly). scene::tokenLabelRoom is this for a line in pixels.
inline constexpr float kTokenLabelRoomPerEm = 0.85f * kDejaVuLinePerEm;

// The room a token label `labelEm` ems in size needs: kTokenLabelRoomPerEm of it, less kLabelSlack so a cell a
// rounding short of the floor keeps its label.
float tokenLabelRoomOfEm(float labelEm);

struct AxisFitSpec {
    int count = 0;
    float cellExtent = 0.0f;  // along the axis, painter's pixels
    bool tokens = true;
    bool columns = false;  // the axis runs across: numbers there need their width, not their line
    float full = 0.0f, floor = 0.0f;  // ems
    int headBlock = 0;                // > 1: the axis is cut into blocks of that many cells (scene::labelStep)
    float widestNumber = 0.0f;        // columns of numbers: the widest one's width at `full`
    float numberGap = 6.0f;           // between numbers across
};
struct AxisLabelFit {
    float size = 0.0f;  // ems
    int step = 1;       // every step-th cell keeps its label (scene::labelledCells)
};
AxisLabelFit fitAxisLabels(const AxisFitSpec& spec);

}  // namespace attnviz::scene
