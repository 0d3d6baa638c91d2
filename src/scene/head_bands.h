// head_bands.h — a map's axis cut into the heads' blocks (Q's h·d_k columns, W_O's h·d_v rows): where each head's
// block lies along the axis and which head colour it takes. The screen's maps (ui/views/heatmap_view.cpp: bands,
// outlines) and the exported panels (export/matrix_panel.cpp: stripes, separators) draw the blocks from this one
// description. Plain arithmetic: the painters choose thickness and paint.
#pragma once

#include <vector>

namespace attnviz::scene {

// Head `head`'s block: from … to along the axis (pixels), in head colour `colour` (colormap::headColor's index).
struct HeadBand {
    float from = 0.0f, to = 0.0f;
    int head = 0, colour = 0;
};

// `count` cells `extent` long from `start`, cut into blocks of `block` cells (the last one may be short); head i
// takes colour i / headsPerColour (query heads that share a K/V head share its colour). No block: no bands.
std::vector<HeadBand> headBands(int count, int block, float start, float extent, int headsPerColour = 1);

}  // namespace attnviz::scene
