// scene_view.cpp — painting a laid-out scene with ImGui and the heatmap widget. See scene_view.h.
#include "ui/views/scene_view.h"

#include "core/display_text.h"
#include "ui/views/token_boxes.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <optional>

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

// The top of the highest map's decorations in `layout` (the scene's formula and hint lie above it).
float firstMapTop(const scene::Layout& layout, const scene::Metrics& metrics) {
    float top = FLT_MAX;
    for (const scene::PlacedMap& placed : layout.maps) top = std::min(top, placed.cells.y0 - metrics.decorations(placed.map).top);
    return top;
}

// Nothing of `layout` right of `right`, and every map, decorations included, no taller than `height`.
bool eachMapWithin(const scene::Layout& layout, float right, float height, const scene::Metrics& metrics) {
    if (layout.extent.x1 > right + 0.5f) return false;
    for (const scene::PlacedMap& placed : layout.maps) {
        const scene::Insets in = metrics.decorations(placed.map);
        const scene::Rect& c = placed.cells;
        if (c.x1 + in.right > right + 0.5f || c.height() + in.top + in.bottom > height + 0.5f) return false;
    }
    return true;
}

// The stage's maps sized for its box magnified by `share` of the zoom (0: the box itself; 1: (zoom − 1) window
// widths wider and (zoom² − 1) screen heights taller, as the type's area grows with zoom²), its lines wrapped at the
// box's width, keeping every token label (scene::layoutSceneKeepingLabels).
class Magnifier {
public:
    Magnifier(const ViewContext& ctx, const scene::Scene& scene, const Box& box, const scene::Metrics& metrics)
        : scene_(scene), box_(rectOf(box)), metrics_(metrics), rules_(layoutRules(ctx)) {
        rules_.pageWidth = box_.width();
        const float zoom = ctx.state.zoom;
        wider_ = std::floor((zoom - 1.0f) * ImGui::GetWindowWidth());
        taller_ = std::floor((zoom * zoom - 1.0f) * ImGui::GetMainViewport()->WorkSize.y);
        stageHeight_ = ImGui::GetWindowContentRegionMax().y - ImGui::GetWindowContentRegionMin().y;
    }
    // `share` of the magnification, from a box at least `height` tall.
    scene::Layout at(float share, float height = 0.0f) const {
        scene::Rect magnified = box_;
        magnified.x1 += std::floor(share * wider_);
        magnified.y1 = box_.y0 + std::max(box_.height(), height) + std::floor(share * taller_);
        return scene::layoutSceneKeepingLabels(scene_, magnified, metrics_, rules_);
    }
    // The maps as large as they may be while each stays whole on screen: in the room under the stage's header (the
    // first row whole unscrolled, the others when scrolled to) or, when that room cannot hold them with their
    // labels, in the stage's visible height (each whole when scrolled to); `whole`, the full magnification, when its
    // maps fit. Either only while its cells stay at least `leastCell` (zoom must not shrink them much below zoom 1's:
    // 1024 × 768 presenting two steps in, the room under the grown header held 11 px cells where zoom 1 drew 16 px).
    // Else the smallest that keep their labels inside the box's width (`whole` keeps them when any does): a map too
    // tall for the stage goes past its bottom.
    scene::Layout largestWhole(scene::Layout whole, float labelledCell, float leastCell) const {
        // Maps that scroll the stage leave its scrollbar's width free at the right.
        const auto right = [&](const scene::Layout& l) { return l.extent.y1 > box_.y1 + 0.5f ? box_.x1 - ImGui::GetStyle().ScrollbarSize : box_.x1; };
        const auto underHeader = [&](const scene::Layout& l) { return eachMapWithin(l, right(l), box_.y1 - firstMapTop(l, metrics_), metrics_); };
        const auto inStage = [&](const scene::Layout& l) { return eachMapWithin(l, right(l), stageHeight_, metrics_); };
        if (underHeader(whole)) return whole;
        if (std::optional<scene::Layout> l = largest(underHeader, 0.0f); l && scene::smallestTokenCell(*l) >= leastCell) return *l;
        if (std::optional<scene::Layout> l = largest(inStage, stageHeight_); l && scene::smallestTokenCell(*l) >= leastCell) return *l;
        scene::Layout least = at(0.0f, stageHeight_);
        const bool leastReads = scene::smallestTokenCell(least) >= labelledCell && least.extent.x1 <= right(least) + 0.5f;
        return leastReads ? least : whole;
    }

private:
    // The largest share of the magnification, to 1/256, whose layout from a box `height` tall passes `within`.
    template <class Within>
    std::optional<scene::Layout> largest(const Within& within, float height) const {
        scene::Layout best = at(0.0f, height);
        if (!within(best)) return std::nullopt;
        float fits = 0.0f, tooLarge = 1.0f;
        for (int i = 0; i < 8; ++i) {
            const float middle = (fits + tooLarge) / 2.0f;
            scene::Layout tried = at(middle, height);
            if (within(tried)) fits = middle, best = std::move(tried);
            else tooLarge = middle;
        }
        return best;
    }

    const scene::Scene& scene_;
    scene::Rect box_;
    const scene::Metrics& metrics_;
    scene::Rules rules_;
    float wider_ = 0.0f, taller_ = 0.0f, stageHeight_ = 0.0f;
};

}  // namespace

scene::Layout layoutInBox(const ViewContext& ctx, const scene::Scene& scene, const Box& box) {
    const scene::Rules rules = layoutRules(ctx);
    const ScreenMetrics metrics(ctx);
    scene::Layout fitted = scene::layoutSceneKeepingLabels(scene, rectOf(box), metrics, rules);
    const float zoom = ctx.state.zoom;
    if (zoom <= 1.0f) return fitted;
    const Magnifier magnifier(ctx, scene, box, metrics);
    scene::Layout grown = magnifier.at(1.0f);
    if (grown.maps.empty()) return grown;  // stage 0's token boxes: the words grow with the zoom, the page scrolls
    // The box's own layout while it keeps the labels and its cells are not much smaller than zoom 1's (the magnified
    // cells shrunk back by the zoom: beside the grown labels they may lose a fifth, no more).
    constexpr float kMostShrink = 0.8f;
    const float fittedCell = scene::smallestTokenCell(fitted);
    const float leastCell = std::max(rules.labelledCell(), kMostShrink * scene::smallestTokenCell(grown) / zoom);
    const bool fittedReads = fittedCell >= leastCell;
    if (fittedReads) {
        const bool fits = eachMapInside(grown, rectOf(box), metrics);
        return fits && scene::mapArea(grown) > scene::mapArea(fitted) ? grown : fitted;
    }
    // Else the maps as large as the box's height allows each of them, stacked where the box's width does not hold
    // them side by side: the stage scrolls from one whole map to the next (the bundled BERT at 1280 × 800 two steps
    // in: the magnified S₀ showed 4 of its 15 rows, the box's own layout 10 px cells).
    // Presenting, zoom is asked for to read from the back: the maps never shrink much below zoom 1's (1024 × 768 two
    // steps in would have 11 px cells for 16); at a desk, every map on one screen comes first.
    return magnifier.largestWhole(std::move(grown), rules.labelledCell(), ctx.state.presenting ? leastCell : rules.labelledCell());
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
