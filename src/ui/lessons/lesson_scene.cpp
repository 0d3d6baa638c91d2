// lesson_scene.cpp — frames, derived runs, layout and reported text for the lesson views. See lesson_scene.h.
#include "ui/lessons/lesson_scene.h"

#include "core/display_text.h"
#include "io/model_library.h"
#include "scene/cell_values.h"
#include "ui/session/session_menu.h"
#include "ui/views/drawing.h"
#include "ui/views/drawing_player.h"
#include "ui/views/matrix_info.h"
#include "ui/views/scene_view.h"
#include "ui/widgets/widget_label.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <variant>

namespace attnviz::ui {
namespace {

ImVec4 toneColor(Tone tone) {
    switch (tone) {
        case Tone::Point: return {0.1f, 0.3f, 0.6f, 1.0f};
        case Tone::Warning: return {0.72f, 0.22f, 0.0f, 1.0f};
        case Tone::Code: return {0.15f, 0.35f, 0.15f, 1.0f};
        case Tone::Dim: return {0.35f, 0.35f, 0.35f, 1.0f};
        case Tone::Plain: break;
    }
    return {0.12f, 0.12f, 0.12f, 1.0f};
}

ImFont* toneFont(const ViewContext& ctx, Tone tone) { return font(tone == Tone::Code ? ctx.fonts.mono : ctx.fonts.regular); }

std::string captionOf(const ViewContext& view, const MatrixRef& ref, const HeatmapOptions& options) {
    return options.caption.empty() ? matrixInfo(view.run, ref, view.state.batch).name : options.caption;
}

// The map drawn last (drawHeatmap appends it to ViewContext::drawn), as the report keeps it.
void reportDrawn(LessonFrame& frame, const MatrixRef& ref, const HeatmapOptions& options) {
    const ViewContext& view = frame.ctx;
    frame.report.figures.push_back(captionOf(view, ref, options));
    if (view.drawn.empty()) return;
    const DrawnHeatmap& d = view.drawn.back();
    const MatrixInfo info = matrixInfo(view.run, ref, view.state.batch);
    const Axis rows = d.transposed ? info.colAxis : info.rowAxis, cols = d.transposed ? info.rowAxis : info.colAxis;
    frame.report.maps.push_back({frame.report.figures.back(), d.min, d.max, d.rows, d.cols, options.rowLabels && core::isTokens(rows),
                                 options.colLabels && core::isTokens(cols), !options.lectureLabels});
}

bool anyContains(const std::vector<std::string>& texts, std::string_view fragment) {
    return std::any_of(texts.begin(), texts.end(), [&](const std::string& t) { return t.find(fragment) != std::string::npos; });
}

}  // namespace

// [SECTION] Report

float ShownMap::smallestTokenCell() const {
    float smallest = std::numeric_limits<float>::infinity();
    if (tokenRowLabels) smallest = std::min(smallest, (max.y - min.y) / static_cast<float>(rows));
    if (tokenColLabels) smallest = std::min(smallest, (max.x - min.x) / static_cast<float>(cols));
    return smallest;
}

bool LessonReport::says(std::string_view fragment) const { return anyContains(texts, fragment); }
bool LessonReport::shows(std::string_view fragment) const { return anyContains(figures, fragment); }

// [SECTION] Computed matrices

const std::string& ComputedCache::error(const Key& key) const {
    static const std::string none;
    const auto found = errors_.find(tupleOf(key));
    return found != errors_.end() ? found->second : none;
}

void ComputedCache::clear() {
    values_.clear();
    errors_.clear();
}

std::shared_ptr<const scene::Computed> computedMatrix(LessonFrame& frame, int matrix, int head, int variant, const ComputedSpec& spec,
                                                      const std::function<core::Matrix()>& values, const std::function<core::Matrix()>& mask) {
    const scene::Computed::Identity identity{static_cast<int>(frame.report.lesson), matrix, head, variant, frame.ctx.state.batch};
    return frame.computed.get<scene::Computed>(identity, [&] {
        scene::Computed c{spec};
        c.identity = identity;
        c.values = values();
        if (mask) c.mask = mask();
        return c;
    });
}

const std::vector<int>& shownSentenceIds(const LessonFrame& frame) {
    const core::ModelRun& run = frame.ctx.run;
    return run.tokenIds[static_cast<std::size_t>(std::clamp(frame.ctx.state.batch, 0, run.trace.batch - 1))];
}

std::shared_ptr<const LayerAnalysis> trainedModelAnalysis(LessonFrame& frame, AnalysisKind kind, const std::string& needs) {
    if (frame.ctx.run.spec.trainedModel() == nullptr) {
        if (!offerBundledDecoder(frame, "This question " + needs + ": open attnviz's own decoder, or any model.")) {
            say(frame, "This question " + needs + ": open one (the Model box).", Tone::Warning);
        }
        return nullptr;
    }
    const int batch = std::clamp(frame.ctx.state.batch, 0, frame.ctx.run.trace.batch - 1);
    std::shared_ptr<const LayerAnalysis> analysis = frame.analyses->get(batch, kind);
    if (analysis != nullptr) return analysis;
    const std::string& error = frame.analyses->error(batch, kind);
    say(frame, error.empty() ? "Computing every layer of this sentence on the model worker\u2026" : error, error.empty() ? Tone::Dim : Tone::Warning);
    return nullptr;
}

std::string withHead(const char* symbol, int head, const char* suffix) {
    std::string name = symbol;
    name += subscript(head);
    name += suffix;
    return name;
}

scene::Map computedMap(const std::shared_ptr<const scene::Computed>& computed) {
    scene::Map map;
    map.source = scene::Source::Computed;
    map.computed = computed;
    map.rows = static_cast<int>(computed->values.rows());
    map.cols = static_cast<int>(computed->values.cols());
    map.rowAxis = computed->rowAxis;
    map.colAxis = computed->colAxis;
    return map;
}

scene::Map sceneMap(const LessonFrame& frame, const MatrixRef& ref) {
    return ref.computed ? computedMap(ref.computed) : scene::traceMap(frame.ctx.run.trace, ref.tensor, ref.head);
}

MatrixRef computedRef(const std::shared_ptr<const scene::Computed>& computed) {
    MatrixRef ref;
    ref.source = MatrixSource::Computed;
    ref.computed = computed;
    return ref;
}

// [SECTION] Layout

Box remainingBox(LessonFrame& frame) {
    const ImVec2 windowPos = ImGui::GetWindowPos();
    const ImVec2 contentMin = ImGui::GetWindowContentRegionMin(), contentMax = ImGui::GetWindowContentRegionMax();
    const ImVec2 cursor = ImGui::GetCursorScreenPos();
    // The maps' box scales with the zoom, as the stage's does (drawStageView): zoomed in, it grows by
    // (zoom − 1) window heights and the page scrolls; zoomed out, it is the box zoom 1 would give times the zoom
    // in both directions (the text above it shrinks with the type), so maps never grow when the type shrinks; but
    // never narrower than kMinMapsWidth: the label floor does not shrink with the type.
    const float zoom = frame.ctx.state.zoom, height = contentMax.y - contentMin.y;
    const float change = zoom > 1.0f ? (zoom - 1.0f) * ImGui::GetMainViewport()->WorkSize.y : (zoom - 1.0f) * height;
    const float right = windowPos.x + contentMax.x, page = right - cursor.x;
    const float width = std::max(page * std::min(1.0f, zoom), std::min(page, kMinMapsWidth));
    const float bottom = std::max(windowPos.y + contentMax.y + change, cursor.y + kMinMapsHeight * frame.ctx.scale);  // scrolls with the content
    frame.contentBottom = std::max(frame.contentBottom, bottom);
    return {cursor, {cursor.x + width, bottom}};
}

HeatmapOptions compactMap(const std::string& caption, bool rowLabels, bool colLabels) {
    HeatmapOptions o;
    o.title = TitleStyle::Compact;
    o.caption = caption;
    o.rowLabels = rowLabels;
    o.colLabels = colLabels;
    o.colorbar = ColorbarSide::None;
    o.headBlocks = false;
    return o;
}

namespace {

// The width a stacked map's cells take in a box `width` wide beside `decorations` (its labels, colorbar): at most
// 60 % of the window's width, the rest left to the decorations and the page's margins, so that a map does not
// narrow from one zoom step to the next as its labels and the margins grow (until they need more than that).
float stackedCellsWidth(float width, float decorations) { return std::min(width - decorations, 0.6f * ImGui::GetMainViewport()->WorkSize.x); }

float mapsSideBySide(LessonFrame& frame, const Box& box, const std::vector<MapItem>& maps, const std::vector<std::string>& between);

// Zoomed in, maps side by side would narrow as their labels and titles grow (the width binds them, or binds them
// a step further in). So each map gets a row of its own across the width (stackedCellsWidth; its cells as tall as
// they are wide at most; a squeezed wide map takes the width too), the operator between them pointing down, and
// the page scrolls: the maps grow with the zoom, as showScene's stacked line does. Returns the y below the last.
float stackedMapRow(LessonFrame& frame, const Box& box, const std::vector<MapItem>& maps, const std::vector<std::string>& between) {
    ImFont* large = font(frame.ctx.fonts.large);
    const float gap = std::round(12.0f * frame.ctx.scale);
    float y = box.min.y;
    for (std::size_t i = 0; i < maps.size(); ++i) {
        MapItem alone = maps[i];
        alone.widthShare = 0.0f;
        const Insets insets = heatmapInsets(frame.ctx, alone.ref, alone.options);
        const float cells = stackedCellsWidth(box.width(), insets.left + insets.right);
        y = mapsSideBySide(frame, {{box.min.x, y}, {box.min.x + insets.left + insets.right + cells, y + insets.top + insets.bottom + cells}}, {alone}, {});
        if (i + 1 == maps.size()) break;
        y += gap;
        if (i >= between.size() || between[i].empty()) continue;
        std::string glyph = between[i];
        if (const std::size_t arrow = glyph.rfind("→"); arrow != std::string::npos) glyph.replace(arrow, std::string("→").size(), "↓");
        ImGui::GetWindowDrawList()->AddText(large, large->FontSize, {box.min.x, y}, IM_COL32(30, 30, 30, 255), glyph.c_str());
        y += large->FontSize + gap;
    }
    return y;
}

// The maps in one row, on one cell size (showMapRow, not zoomed in).
float mapsSideBySide(LessonFrame& frame, const Box& box, const std::vector<MapItem>& maps, const std::vector<std::string>& between) {
    ViewContext& ctx = frame.ctx;
    ImFont* large = font(ctx.fonts.large);
    const auto operatorWidth = [&](std::size_t i) {
        return (i < between.size() ? large->CalcTextSizeA(large->FontSize, FLT_MAX, 0.0f, between[i].c_str()).x : 0.0f) +
               std::round(22.0f * ctx.scale);
    };
    std::vector<Insets> insets;
    std::vector<ImVec2> shapes;
    std::vector<bool> weights;  // feature × feature maps (W^Q, W^O): square cells, so their shape reads true
    std::vector<float> floorRows;  // labelled token rows: the shortest row whose label is drawn; others 0
    const float smallPx = ctx.fonts.small ? ctx.fonts.small->FontSize : ImGui::GetFontSize();  // the labels' type
    float fixedW = 0.0f, top = 0.0f, bottom = 0.0f, cols = 0.0f, rows = 0.0f, weightCols = 0.0f, weightRows = 0.0f;
    bool square = true, anySized = false;  // square cells only when every map that takes cells by count is square
    for (std::size_t i = 0; i < maps.size(); ++i) {
        const MapItem& m = maps[i];
        insets.push_back(heatmapInsets(ctx, m.ref, m.options));
        shapes.push_back(displayShape(ctx, m.ref, m.options.transposed));
        const MatrixInfo info = matrixInfo(ctx.run, m.ref, ctx.state.batch);
        weights.push_back(m.widthShare <= 0.0f && info.rowAxis == Axis::Features && info.colAxis == Axis::Features);
        const bool tokenRows = m.options.rowLabels && core::isTokens(m.options.transposed ? info.colAxis : info.rowAxis);
        const scene::LabelSizes labels = scene::labelSizes(smallPx, ctx.state.presenting && m.options.lectureLabels, longestTokenAxis(ctx));
        floorRows.push_back(tokenRows ? 0.85f * labels.floor : 0.0f);
        fixedW += insets.back().left + insets.back().right + (i + 1 < maps.size() ? operatorWidth(i) : 0.0f) + m.widthShare * box.width();
        top = std::max(top, insets.back().top);
        bottom = std::max(bottom, insets.back().bottom);
        rows = std::max(rows, shapes.back().x);
        if (m.widthShare > 0.0f) continue;
        cols += shapes.back().y;
        anySized = true;
        square = square && shapes.back().x == shapes.back().y;
        if (weights.back()) weightCols += shapes.back().y, weightRows = std::max(weightRows, shapes.back().x);
    }
    square = square && anySized;
    const float maxCell = kMaxCell * ctx.scale, height = box.height() - top - bottom;
    // Below a pixel per column the renderer shrinks columns (downsample.h), so a 768-wide W^Q still fits.
    float cw = std::clamp((box.width() - fixedW) / std::max(cols, 1.0f), 0.05f, maxCell);
    // Weights take square cells no taller than the row allows; the other maps share the width they leave.
    const float weightCell = std::min(cw, std::max(height / std::max(weightRows, 1.0f), 0.05f));
    if (!square && weightCols > 0.0f && cols > weightCols) {
        cw = std::clamp((box.width() - fixedW - weightCell * weightCols) / (cols - weightCols), 0.05f, maxCell);
    }
    // Rows are as tall as the row's height allows for each map: maps with as many rows line up, a 13-token X
    // is not squeezed to the height of a 64-row W^Q beside it, and token rows keep room for their labels: never
    // shorter than their floor (14 px presenting), the row growing below the box and the page scrolling instead.
    const float labelRow = smallPx + 5.0f;
    const float floorRow = floorRows.empty() ? 0.0f : *std::max_element(floorRows.begin(), floorRows.end());
    const auto rowHeight = [&](float mapRows, float cellWidth, float floor) {
        return std::max(std::min({std::max(height / mapRows, 0.05f), maxCell, std::max(3.0f * cellWidth, labelRow)}), floor);
    };
    if (square) cw = std::min(cw, rowHeight(rows, cw, floorRow));
    cw = std::min(cw, 3.0f * rowHeight(rows, cw, 0.0f));
    float x = box.min.x, lowest = box.min.y;
    for (std::size_t i = 0; i < maps.size(); ++i) {
        const MapItem& m = maps[i];
        const bool squareWeights = weights[i] && !square;
        const float width = m.widthShare > 0.0f ? m.widthShare * box.width() : (squareWeights ? weightCell : cw) * shapes[i].y;
        // A squeezed (widthShare) map keeps the row's cell height, so its rows line up with its neighbours'.
        const float ch = square ? cw : squareWeights ? weightCell : rowHeight(shapes[i].x, anySized ? cw : width / shapes[i].y, floorRows[i]);
        const ImVec2 min{x + insets[i].left, box.min.y + top};
        const ImVec2 max{min.x + width, min.y + ch * shapes[i].x};
        showMap(frame, m.ref, min, max, m.options);
        lowest = std::max(lowest, max.y + insets[i].bottom);
        x = max.x + insets[i].right;
        if (i + 1 == maps.size()) break;
        if (i < between.size()) {
            const float w = large->CalcTextSizeA(large->FontSize, FLT_MAX, 0.0f, between[i].c_str()).x;
            ImGui::GetWindowDrawList()->AddText(large, large->FontSize, {x + (operatorWidth(i) - w) / 2.0f, (min.y + max.y - large->FontSize) / 2.0f},
                                                IM_COL32(30, 30, 30, 255), between[i].c_str());
        }
        x += operatorWidth(i);
    }
    frame.contentBottom = std::max(frame.contentBottom, lowest);
    return lowest;
}

}  // namespace

float showMapRow(LessonFrame& frame, const Box& box, const std::vector<MapItem>& maps, const std::vector<std::string>& between) {
    return frame.ctx.state.zoom > 1.0f ? stackedMapRow(frame, box, maps, between) : mapsSideBySide(frame, box, maps, between);
}

HeatmapResult showMapInBox(LessonFrame& frame, const MatrixRef& ref, const Box& box, const HeatmapOptions& options) {
    const HeatmapResult result = drawHeatmapInBox(frame.ctx, ref, box.min, box.max, options);
    reportDrawn(frame, ref, options);
    return result;
}

HeatmapResult showMap(LessonFrame& frame, const MatrixRef& ref, ImVec2 cellsMin, ImVec2 cellsMax, const HeatmapOptions& options) {
    const HeatmapResult result = drawHeatmap(frame.ctx, ref, cellsMin, cellsMax, options);
    reportDrawn(frame, ref, options);
    return result;
}

ImVec2 showWordMap(LessonFrame& frame, const MatrixRef& ref, const Box& box) {
    const ViewContext& ctx = frame.ctx;
    HeatmapOptions options = compactMap(ref.computed->name);
    options.colorbar = ColorbarSide::Right;  // the colours are the map's numbers, which the words replace: say how much
    const Insets insets = heatmapInsets(ctx, ref, options);
    // The words' type (px, as ImGui sizes fonts): the small type; presenting, the lecture's label floor, which
    // drawValues keeps within scene::kLectureValueShare of a row. Measured as drawValues measures them
    // (scene::cellValueSize, 2 px each side).
    ImFont* small = font(ctx.fonts.small);
    const float size = ctx.state.presenting ? std::max(small->FontSize, layoutRules(ctx).labels.floor) : small->FontSize;
    const scene::TypeMeasure type = playedType(ctx.fonts);
    float widestPerEm = 0.0f;
    for (const std::string& word : ref.computed->cellTexts) widestPerEm = std::max(widestPerEm, type.width(word, 1.0f, scene::FontFace::Regular));
    const float cols = static_cast<float>(ref.computed->values.cols()), rows = static_cast<float>(ref.computed->values.rows());
    // The title is never wider than its map: room for it and its shape.
    const auto widthOf = [](ImFont* f, const std::string& text) { return f->CalcTextSizeA(f->FontSize, FLT_MAX, 0.0f, text.c_str()).x; };
    const float titleWidth = widthOf(font(ctx.fonts.bold), ref.computed->name) + widthOf(small, "  " + ref.computed->numericShape);
    const float cellWidth = std::max(std::ceil(widestPerEm * size / kLineHeightPerEm) + 6.0f * ctx.scale, (titleWidth - insets.left - insets.right) / cols);
    const float cellHeight = std::ceil(size * kLineHeightPerEm / (ctx.state.presenting ? scene::kLectureValueShare : 1.0f)) + 2.0f * ctx.scale;
    // Narrowed to the box's width; never shortened below the words' rows: a long sentence scrolls instead.
    const float narrowing = std::min(1.0f, (box.width() - insets.left - insets.right) / (cols * cellWidth));
    const ImVec2 cellsMin{box.min.x + insets.left, box.min.y + insets.top};
    const ImVec2 cellsMax{cellsMin.x + std::floor(cols * cellWidth * narrowing), cellsMin.y + rows * cellHeight};
    showMap(frame, ref, cellsMin, cellsMax, options);
    const ImVec2 end{cellsMax.x + insets.right, cellsMax.y + insets.bottom};
    frame.contentBottom = std::max(frame.contentBottom, end.y);
    return end;
}

namespace {

// Lays `scene` out from the top of `room`, growing the room downwards while a token row is too short for its
// label at the floor (scene::layoutSceneKeepingLabels); paints and reports it.
scene::Layout placeScene(LessonFrame& frame, const scene::Scene& scene, scene::Rect room) {
    ViewContext& ctx = frame.ctx;
    const scene::Rules rules = layoutRules(ctx);
    const ScreenMetrics metrics(ctx);
    const scene::Layout layout = scene::layoutSceneKeepingLabels(scene, room, metrics, rules);
    frame.contentBottom = std::max(frame.contentBottom, layout.extent.y1);
    const std::size_t before = ctx.drawn.size();
    paintLayout(ctx, layout);
    for (std::size_t i = 0; i < layout.maps.size() && before + i < ctx.drawn.size(); ++i) {
        const scene::Map& map = layout.maps[i].map;
        const DrawnHeatmap& d = ctx.drawn[before + i];
        frame.report.figures.push_back(map.title.empty() ? matrixInfo(ctx.run, d.matrix, ctx.state.batch).name : map.title);
        frame.report.maps.push_back({frame.report.figures.back(), d.min, d.max, d.rows, d.cols, map.rowLabels && core::isTokens(map.rowAxis),
                                     map.colLabels && core::isTokens(map.colAxis), false});
    }
    return layout;
}

// Zoomed in, a line of maps side by side is bound by the width: its cells would narrow as the labels and titles
// grow. So each map gets a row of its own across the whole width (as tall as it is wide at most), the operator
// between them pointing down, and the page scrolls: the maps grow with the zoom.
scene::Layout stackedLine(LessonFrame& frame, const scene::Scene& scene, const scene::Line& line, const Box& box) {
    ImFont* large = font(frame.ctx.fonts.large);
    const float gap = std::round(12.0f * frame.ctx.scale);
    scene::Layout stacked;
    stacked.extent = {box.min.x, box.min.y, box.max.x, box.min.y};
    float y = box.min.y;
    for (const scene::Term& term : line.terms) {
        if (const auto* op = std::get_if<scene::Operator>(&term)) {
            std::string glyph = op->glyph;
            if (const std::size_t arrow = glyph.rfind("→"); arrow != std::string::npos) glyph.replace(arrow, std::string("→").size(), "↓");
            ImGui::GetWindowDrawList()->AddText(large, large->FontSize, {box.min.x, y}, IM_COL32(30, 30, 30, 255), glyph.c_str());
            frame.report.texts.push_back(glyph);
            y += large->FontSize + gap;
            continue;
        }
        const scene::Scene single{scene.stage, {scene::Figure{scene::Line{{term}}, "", ""}}, std::nullopt};
        const scene::Insets in = ScreenMetrics(frame.ctx).decorations(std::get<scene::Map>(term));
        const float cells = stackedCellsWidth(box.width(), in.left + in.right);  // as showMapRow's stacked maps
        scene::Layout one = placeScene(frame, single, {box.min.x, y, box.min.x + in.left + in.right + cells, y + in.top + in.bottom + cells});
        for (scene::PlacedMap& m : one.maps) stacked.maps.push_back(std::move(m));
        y = one.extent.y1 + gap;
    }
    stacked.extent.y1 = y;
    frame.contentBottom = std::max(frame.contentBottom, y);
    return stacked;
}

}  // namespace

scene::Layout showScene(LessonFrame& frame, const scene::Scene& scene, const Box& box) {
    if (frame.ctx.state.zoom > 1.0f && scene.figures.size() == 1) {
        if (const auto* line = std::get_if<scene::Line>(&scene.figures.front().composition)) return stackedLine(frame, scene, *line, box);
    }
    return placeScene(frame, scene, rectOf(box));
}

void showChart(LessonFrame& frame, const Box& box, const RowChart& chart) {
    frame.report.figures.push_back(chart.title);
    frame.contentBottom = std::max(frame.contentBottom, box.max.y);  // a chart pushed down by stacked maps scrolls into view
    drawRowChart(frame.ctx, box.min, box.max, chart);
}

std::optional<DrawnHeatmap> lastDrawn(const std::vector<DrawnHeatmap>& drawn, const MatrixRef& ref) {
    for (auto it = drawn.rbegin(); it != drawn.rend(); ++it) {
        if (it->matrix == ref) return *it;
    }
    return std::nullopt;
}

void outlineRow(const std::optional<DrawnHeatmap>& drawn, int row, ImU32 color) {
    if (!drawn || row < 0 || row >= drawn->rows) return;
    const float ch = (drawn->max.y - drawn->min.y) / static_cast<float>(drawn->rows);
    const ImVec2 a{drawn->min.x - 2.0f, drawn->min.y + ch * static_cast<float>(row) - 1.0f};
    const ImVec2 b{drawn->max.x + 2.0f, a.y + ch + 2.0f};
    ImGui::GetWindowDrawList()->AddRect(a, b, IM_COL32(0, 0, 0, 255), 0.0f, 0, 5.0f);
    ImGui::GetWindowDrawList()->AddRect(a, b, color, 0.0f, 0, 3.0f);
}

// [SECTION] Controls

void sameLineIfFits(float width, float spacing) {
    ImGui::SameLine(0.0f, spacing);
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

float checkboxWidth(const char* label) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

float buttonWidth(const char* label) { return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x; }

void headPicker(LessonFrame& frame) {
    int& head = frame.ctx.state.head;
    const int heads = frame.ctx.run.trace.dims.heads;
    ImGui::PushID("lesson head");
    if (ImGui::ArrowButton("previous", ImGuiDir_Left)) head = (head + heads - 1) % heads;
    ImGui::SameLine();
    const std::string label = "head " + std::to_string(head) + " of " + std::to_string(heads);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(headColor(head)));
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(core::clipped(label).c_str());
    ImGui::PopStyleColor();
    ImGui::SameLine();
    if (ImGui::ArrowButton("next", ImGuiDir_Right)) head = (head + 1) % heads;
    ImGui::PopID();
    frame.report.texts.push_back(label);
}

// [SECTION] Text

bool offerBundledDecoder(LessonFrame& frame, const std::string& why, bool llamaOnly) {
    const core::TrainedModel* model = frame.ctx.state.spec.trainedModel();
    const bool wanted = model != nullptr && model->config().traits().decoder &&
                        (!llamaOnly || model->config().traits().positions == core::PositionKind::Rotary);
    if (wanted || !io::bundledDecoderFolder()) return false;
    say(frame, why, Tone::Dim);
    const char* label = "Open attnviz's own decoder (a small trained Llama)";
    if (ImGui::Button(widgetLabel(label).c_str())) requestBundledDecoder(frame.ctx.state);
    frame.report.buttons.push_back({label, ImGui::GetItemRectMin(), ImGui::GetItemRectMax()});
    return true;
}

void say(LessonFrame& frame, const std::string& text, Tone tone) {
    frame.report.texts.push_back(text);
    ImGui::PushFont(toneFont(frame.ctx, tone));
    ImGui::PushStyleColor(ImGuiCol_Text, toneColor(tone));
    ImGui::TextWrapped("%s", core::clipped(text).c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

float sayAt(LessonFrame& frame, ImVec2 at, float width, const std::string& text, Tone tone) {
    frame.report.texts.push_back(text);
    ImFont* f = toneFont(frame.ctx, tone);
    const std::string shown = core::clipped(text);
    ImGui::GetWindowDrawList()->AddText(f, f->FontSize, at, ImGui::ColorConvertFloat4ToU32(toneColor(tone)), shown.c_str(), nullptr, width);
    return f->CalcTextSizeA(f->FontSize, FLT_MAX, width, shown.c_str()).y;
}

void heading(LessonFrame& frame, const std::string& text) {
    frame.report.texts.push_back(text);
    ImGui::PushFont(font(frame.ctx.fonts.bold));
    ImGui::TextUnformatted(core::clipped(text).c_str());
    ImGui::PopFont();
}

std::string scientific(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1e", value);
    return text;
}

}  // namespace attnviz::ui
