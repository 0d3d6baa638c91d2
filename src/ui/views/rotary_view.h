// rotary_view.h — RoPE drawn: each (x_j, x_{j+d_k/2}) pair of q or k rows as a small 2-D plot, and the score of one
// q and one k against the offset between their positions.
//
//   drawRotaryPairs    one square per pair, side by side in a box: each position's vector after the rotation as an
//                      arrow from the centre, coloured light (position 0) to dark (the last), the unrotated vector as
//                      a thin grey arrow, and θ_j under the square. From any core::RotaryPairs: one vector placed at
//                      several positions (the question view), or a head's rows of the trace (stage 3's RoPE step:
//                      rotaryPairsOfRun).
//   drawOffsetScores   rot(q, m)·rot(k, n) against m − n, the same placement shifted drawn over it as dots.
//
// What it deliberately does not do: rotate anything (core/decoder_lessons.h does) or choose rows and heads.
#pragma once

#include "core/decoder_lessons.h"
#include "core/model.h"
#include "ui/views/drawing.h"

#include <optional>
#include <string>
#include <vector>

namespace attnviz::ui {

// A run's rotary frequencies and a head's rows as pairs: the core's, shared with the exported RoPE figure.
using core::rotaryFrequenciesOf;
using core::rotaryPairsOfRun;

struct RotaryPlotStyle {
    std::vector<std::string> positionLabels;  // a label per position drawn at the arrow tips (empty: numbers)
    int highlight = -1;                       // a position drawn thicker, or −1
    bool showBefore = true;                   // the unrotated vectors as thin grey arrows
};

// The pairs of `pairs` as squares side by side in `box` (at most as many as fit, each at least ~5 lines tall).
// Returns the y below the drawing (squares and the θ_j line under them).
float drawRotaryPairs(ImDrawList& list, const Box& box, const core::RotaryPairs& pairs, const RotaryPlotStyle& style = {});

// The scores of `scores` against the offset m − n in `box`: a line for q at m = o, k at n = 0, and dots for the
// same pair both moved t places later. Axis labels in the current font.
void drawOffsetScores(ImDrawList& list, const Box& box, const core::RelativeScores& scores);

}  // namespace attnviz::ui
