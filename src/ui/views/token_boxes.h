// token_boxes.h — the screen's painter of stage 0's token boxes, where the layout placed them
// (scene/token_layout.h): the box in the token's kind of colour, its text in the large font, its id and position
// at the token label size. Decides nothing about where they go.
#pragma once

#include "scene/layout.h"
#include "ui/views/view_context.h"

#include <vector>

namespace attnviz::ui {

// The type size of a token box's id and position lines: every token label's (Rules::labels.full).
float tokenLabelSize(const ViewContext& ctx);
void paintTokenBoxes(const ViewContext& ctx, const std::vector<scene::PlacedToken>& tokens);

}  // namespace attnviz::ui
