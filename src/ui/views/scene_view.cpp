// scene_view.cpp — painting a laid-out scene with ImGui and the heatmap widget. See scene_view.h.
#include "ui/views/scene_view.h"

#include "core/display_text.h"
#include "ui/views/token_boxes.h"

#include <cfloat>
#include <cmath>

namespace attnviz::ui {
namespace {

constexpr ImU32 kText = IM_COL32(30, 30, 30, 255);
constexpr ImU32 kHint = IM_COL32(90, 90, 90, 255);

ImFont* fontFor(const Fonts& fonts, scene::TextRole role) {
    switch (role) {
        case scene::TextRole::Operator: case scene::TextRole::Formula: case scene::TextRole::Token: return font(fonts.large);
        case scene::TextRole::Heading: return font(fonts.bold);
        case scene::TextRole::Label: return font(fonts.small);
        case scene::TextRole::Hint: break;
    }
    return font(fonts.regular);
}

// A role's type size: its font's, except token labels, drawn at the label size the rules give them.
float sizeFor(const ViewContext& ctx, scene::TextRole role) {
    return role == scene::TextRole::Label ? tokenLabelSize(ctx) : fontFor(ctx.fonts, role)->FontSize;
}

ColorbarSide colorbarSide(scene::Colorbar side) {
    switch (side) {
        case scene::Colorbar::Right: return ColorbarSide::Right;
        case scene::Colorbar::Below: return ColorbarSide::Below;
        case scene::Colorbar::None: break;
    }
    return ColorbarSide::None;
}

MatrixSource sourceOf(scene::Source source) {
    switch (source) {
        case scene::Source::TokenEmbeddings: return MatrixSource::TokenEmbeddings;
        case scene::Source::Positions: return MatrixSource::Positions;
        case scene::Source::Computed: return MatrixSource::Computed;
        case scene::Source::Trace: break;
    }
    return MatrixSource::Trace;
}

}  // namespace

MatrixRef matrixRef(const scene::Map& map) { return {sourceOf(map.source), map.tensor, map.head, map.computed}; }

HeatmapOptions heatmapOptions(const ViewContext& ctx, const scene::Map& map) {
    HeatmapOptions o;
    o.rowLabels = map.rowLabels;
    o.colLabels = map.colLabels;
    o.colorbar = colorbarSide(map.colorbar);
    o.transposed = map.transposed;
    o.rowSums = map.rowSums;
    if (map.rangeOf) o.range = ctx.summaries.get(ctx.run, *map.rangeOf).range;
    if (map.range) o.range = colormap::Range{map.range->first, map.range->second};
    o.caption = map.title;
    o.frameHead = map.frame;
    if (map.frame) o.title = TitleStyle::Compact;  // a head's tile is narrow: its name and numbers on one line
    o.headsPerColour = map.headsPerColour;
    o.focusRow = map.focusRow;
    return o;
}

scene::Rect rectOf(const Box& box) { return {box.min.x, box.min.y, box.max.x, box.max.y}; }

scene::Insets ScreenMetrics::decorations(const scene::Map& map) const {
    const Insets in = heatmapInsets(ctx_, matrixRef(map), heatmapOptions(ctx_, map));
    return {in.left, in.top, in.right, in.bottom};
}

float ScreenMetrics::textWidth(std::string_view text, scene::TextRole role) const {
    return fontFor(ctx_.fonts, role)->CalcTextSizeA(sizeFor(ctx_, role), FLT_MAX, 0.0f, text.data(), text.data() + text.size()).x;
}

float ScreenMetrics::textHeight(std::string_view text, scene::TextRole role, float wrapWidth) const {
    return fontFor(ctx_.fonts, role)->CalcTextSizeA(sizeFor(ctx_, role), FLT_MAX, wrapWidth, text.data(), text.data() + text.size()).y;
}

namespace {

// Every map of `layout`, its decorations included, lies inside `box`: none is cut by its edges or scrolled off.
bool eachMapInside(const scene::Layout& layout, const scene::Rect& box, const scene::Metrics& metrics) {
    for (const scene::PlacedMap& placed : layout.maps) {
        const scene::Insets in = metrics.decorations(placed.map);
        const scene::Rect& c = placed.cells;
        if (c.x0 - in.left < box.x0 - 0.5f || c.y0 - in.top < box.y0 - 0.5f || c.x1 + in.right > box.x1 + 0.5f || c.y1 + in.bottom > box.y1 + 0.5f) {
            return false;
        }
    }
    return true;
}

}  // namespace

scene::Layout layoutInBox(const ViewContext& ctx, const scene::Scene& scene, const Box& box) {
    const scene::Rules rules = layoutRules(ctx);
    const ScreenMetrics metrics(ctx);
    scene::Layout fitted = scene::layoutSceneKeepingLabels(scene, rectOf(box), metrics, rules);
    const float zoom = ctx.state.zoom;
    if (zoom <= 1.0f) return fitted;
    // The stage as if magnified: (zoom − 1) window widths wider, (zoom² − 1) screen heights taller (the type's area
    // grows with zoom²), its lines wrapped at the box's width. Taken while each of its maps still fits the box.
    scene::Rules paged = rules;
    paged.pageWidth = box.width();
    scene::Rect magnified = rectOf(box);
    magnified.x1 += std::floor((zoom - 1.0f) * ImGui::GetWindowWidth());
    magnified.y1 += std::floor((zoom * zoom - 1.0f) * ImGui::GetMainViewport()->WorkSize.y);
    scene::Layout grown = scene::layoutSceneKeepingLabels(scene, magnified, metrics, paged);
    if (grown.maps.empty()) return grown;  // stage 0's token boxes: the words grow with the zoom, the page scrolls
    // The box's own layout only while it keeps the labels: else the magnified one, which grows downwards (a box
    // too short for a map at the zoom's label floor: the page scrolls rather than a label is lost).
    if (scene::smallestTokenCell(fitted) < rules.labelledCell()) return grown;
    // Nor when its cells would be much smaller than zoom 1's (the magnified cells shrunk back by the zoom): beside
    // the grown labels they may lose a fifth, no more; a box that cannot hold more scrolls instead (1024 × 768
    // presenting, two steps in: the grown header left 11 px cells where zoom 1 drew 16 px).
    constexpr float kMostShrink = 0.8f;
    if (scene::smallestTokenCell(fitted) < kMostShrink * scene::smallestTokenCell(grown) / zoom) return grown;
    const bool fits = eachMapInside(grown, rectOf(box), metrics);
    return fits && scene::mapArea(grown) > scene::mapArea(fitted) ? grown : fitted;
}

void paintLayout(ViewContext& ctx, const scene::Layout& layout) {
    for (const scene::PlacedMap& placed : layout.maps) {
        const scene::Rect& c = placed.cells;
        HeatmapOptions options = heatmapOptions(ctx, placed.map);
        // A narrow map's shapes would be cut beside its name: its title on one line, name and numbers.
        if (c.width() < 8.0f * ImGui::GetFontSize()) options.title = TitleStyle::Compact;
        drawHeatmap(ctx, matrixRef(placed.map), {c.x0, c.y0}, {c.x1, c.y1}, options);
    }
    paintTokenBoxes(ctx, layout.tokens);
    ImDrawList& list = *ImGui::GetWindowDrawList();
    for (const scene::PlacedText& text : layout.texts) {
        ImFont* f = fontFor(ctx.fonts, text.role);
        const float wrap = text.role == scene::TextRole::Operator ? 0.0f : text.box.width();
        if (text.swatch) list.AddRectFilled({text.swatchBox.x0, text.swatchBox.y0}, {text.swatchBox.x1, text.swatchBox.y1}, headColor(*text.swatch));
        list.AddText(f, f->FontSize, {text.box.x0, text.box.y0}, text.role == scene::TextRole::Hint ? kHint : kText, core::clipped(text.text).c_str(), nullptr, wrap);
    }
}

}  // namespace attnviz::ui
