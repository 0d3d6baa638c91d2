// compare_figure.h — `attnviz export --kind compare --sentence A --compare-with B`: two sentences side by side as one
// 16:9 slide (kSlideWidth × kSlideHeight at scale 1, drawn kSlideZoom times larger, as the other slides are).
//
//   Two sentences, one head: layer 2, head 0 of attnviz-mini-bert         the title
//   A = “… too tired”   B = “… too wide”                                     the pair
//   (the length warning, when they tokenize to different lengths)
//        A                      B                    A − B                   three panels, aligned by position:
//   [l_A × l_A]  │   [l_B × l_B] ▮ 0 … max   [aligned²] ▮ ±max|A − B|        A and B on one scale, A − B diverging
//   Largest change: the row of “it” gives “animal” 0.62 in A and … (A − B = +0.54).
//
// The numbers and the words under them are core::compareSentences' and core::largestChangeText's, as on screen.
// What this file deliberately does not do: run the model (runModel's ModelRun::compared), choose files, or write.
#pragma once

#include "export/figure.h"

namespace attnviz::exporting {

// Throws ExportError when the run has no comparison (no --compare-with) or the head or sentence does not exist.
Figure drawCompareFigure(const core::ModelRun& run, int head, int batch, const FigureStyle& style);

}  // namespace attnviz::exporting
