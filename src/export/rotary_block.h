// rotary_block.h — the RoPE step's turning pairs in an exported figure, as the screen's RoPE step draws them under
// its maps (ui/views/rotary_view.h): one square per (x_j, x_{j+d_k/2}) pair of a head's q rows, each position's
// vector after the rotation an arrow from the centre (light blue at position 0 to dark blue at the last), the
// unrotated vectors thin grey arrows, the tokens at the tips (up to 12 positions) and θ_j under each square.
// Drawn with the Canvas's lines and text only, so SVG and PDF get it too.
#pragma once

#include "core/model.h"
#include "export/blocks.h"

#include <memory>

namespace attnviz::exporting {

// The pairs' squares: each `side` base pixels, `columns` to a row (a stage figure: all in one row; a slide: as many
// as make them largest beside the maps).
struct RotaryGrid {
    int side = 210;
    int columns = 4;
    bool headingWraps = false;  // the heading wrapped to the squares' width (a slide), else one line over them
};

// Head `head`'s q rows of sentence `batch`, its first four pairs, under a heading. Throws ExportError for a run
// without rotary positions.
std::unique_ptr<Block> rotaryPairsBlock(const core::ModelRun& run, int head, int batch, RotaryGrid grid = {});
// The same with the largest squares (down to 80 base pixels) that fit maxWidth × maxHeight in some number of
// columns (the fewest at that size), the heading wrapped to their width.
std::unique_ptr<Block> rotaryPairsBlockIn(const core::ModelRun& run, int head, int batch, int maxWidth, int maxHeight);

}  // namespace attnviz::exporting
