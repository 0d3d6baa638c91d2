// scene_view.h — the screen's painter of a laid-out scene (scene/layout.h): ImGui's fonts answer the layout's
// text metrics, the heatmap widget (heatmap_view.h) answers its decorations, and each placed map, operator and
// formula is drawn where the layout put it. Decides nothing about where things go.
#pragma once

#include "scene/layout.h"
#include "ui/views/drawing.h"
#include "ui/views/heatmap_view.h"

namespace attnviz::ui {

// The layout's questions answered with this frame's fonts and the heatmap widget's decorations.
class ScreenMetrics : public scene::Metrics {
public:
    explicit ScreenMetrics(const ViewContext& ctx) : ctx_(ctx) {}
    scene::Insets decorations(const scene::Map& map) const override;
    float textWidth(std::string_view text, scene::TextRole role) const override;
    float textHeight(std::string_view text, scene::TextRole role, float wrapWidth) const override;

private:
    const ViewContext& ctx_;
};

MatrixRef matrixRef(const scene::Map& map);
HeatmapOptions heatmapOptions(const ViewContext& ctx, const scene::Map& map);
scene::Rect rectOf(const Box& box);

// The scene laid out in `box` (the stage's visible room under its header) with this frame's type and rules. Zoomed
// in, the maps grow with the type until they fill the box: a layout sized for the box as if magnified (its lines
// wrapped at the box's width) is taken while each of its maps lies inside the box, else the box's own layout at the
// zoom's type while its cells keep their labels and are not much smaller than zoom 1's. Else each map
// is as large as the room under the header holds it, or, when that room cannot hold it with its labels, the stage's
// visible height: maps stack where the width does not hold them side by side, and the stage scrolls downwards,
// never sideways, from one whole map to the next. Only a map that cannot keep its labels in the stage's height
// (scene::layoutSceneKeepingLabels) goes past its bottom.
scene::Layout layoutInBox(const ViewContext& ctx, const scene::Scene& scene, const Box& box);
// Draws every map, operator and text of `layout`.
void paintLayout(ViewContext& ctx, const scene::Layout& layout);

}  // namespace attnviz::ui
