// token_layout.h — stage 0's token boxes placed in a box: each sentence under its heading, its boxes left to right
// wrapping onto new rows, every box as wide as its widest line (the token in TextRole::Token, "id 42" and "pos 3"
// in TextRole::Label, which the painter draws at the label size the rules give every token label). Part of the
// layout (layout.h calls it for a scene's Tokens); no ImGui.
#pragma once

#include "scene/layout.h"

namespace attnviz::scene {

// The room between a box's token and its lines, at UI scale `scale` (the painters leave it too): a "␣" or "g"
// reaches below the baseline.
inline float tokenTextGap(float scale) { return 3.0f * scale; }

// The headings and boxes of `tokens` from the top of `box`; rows wrap at its width. The type is the largest up to
// Rules::tokenGrowth times its size at which the rows fit the box, else shrunk down to the label floor, the rows
// wrapped at the narrowest width that needs no more of them (rows of even length); the extent
// grows below the box when the rows need more height than that (the stage scrolls). Zoomed in (Rules::pageWidth),
// the type is the largest Rules::tokenGrowth allows, wrapped at the page.
Layout layoutTokenBoxes(const Tokens& tokens, const Rect& box, const Metrics& metrics, const Rules& rules);

}  // namespace attnviz::scene
