// panel_stage_view.cpp — the centre of the window: the current stage's header and matrices. A stage whose
// picture is maps and operators is a scene (scene/scene.h): laid out once (scene/layout.h: the textbook product,
// lines, the label floor, side content that gives way first) and painted (ui/views/scene_view.h); this file only
// adds what a scene's side room holds (a row's bar charts, every head's tiles, RoPE's turning pairs). Stage 0's
// token boxes are a scene too; every head's grid (A) draws its own picture here.
// Does not explain cells (panel_inspector.cpp) or print the stage's text (panel_stage_text.cpp).
#include "core/display_text.h"
#include "ui/views/drawing.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/matrix_info.h"
#include "ui/panels/heads_off_view.h"
#include "ui/panels/panels.h"
#include "ui/views/rotary_view.h"
#include "ui/views/row_chart.h"
#include "ui/views/scene_view.h"
#include "ui/widgets/widget_label.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace attnviz::ui {
namespace {

using core::StageId;
using core::TensorId;

constexpr ImU32 kText = IM_COL32(30, 30, 30, 255);
constexpr ImU32 kHint = IM_COL32(90, 90, 90, 255);

MatrixRef traceRef(TensorId tensor, int head = 0) { return {MatrixSource::Trace, tensor, head}; }

float gapOf(const ViewContext& ctx) { return std::round(18.0f * ctx.scale); }

// `wrapWidth` > 0 wraps the text to that width (a width, not an x coordinate).
void text(ImFont* f, ImVec2 at, ImU32 color, const std::string& s, float wrapWidth = 0.0f) {
    ImGui::GetWindowDrawList()->AddText(f, f->FontSize, at, color, core::clipped(s).c_str(), nullptr, wrapWidth);
}

// [SECTION] Head tiles

// Heads of `tensor` side by side, one shared colorbar at the right end, row labels on the first only.
void drawHeadTiles(ViewContext& ctx, const Box& box, TensorId tensor, bool rowLabels, bool colLabels) {
    const int heads = std::min(ctx.run.trace.dims.heads, scene::kMaxTiles);
    const auto options = [&](int head) {
        HeatmapOptions o;
        o.title = TitleStyle::Compact;
        o.rowLabels = rowLabels && head == 0;
        o.colLabels = colLabels;
        o.colorbar = head == heads - 1 ? ColorbarSide::Right : ColorbarSide::None;
        o.headBlocks = false;
        o.frameHead = head;
        o.lectureLabels = false;
        return o;
    };
    const Insets first = heatmapInsets(ctx, traceRef(tensor, 0), options(0));
    const Insets last = heatmapInsets(ctx, traceRef(tensor, heads - 1), options(heads - 1));
    const ImVec2 shape = displayShape(ctx, traceRef(tensor, 0), false);
    const float gap = std::round(12.0f * ctx.scale), maxCell = kMaxCell * ctx.scale;
    const float availW = box.width() - first.left - last.right - gap * static_cast<float>(heads - 1);
    float cw = std::min(availW / (static_cast<float>(heads) * shape.y), maxCell);
    float ch = std::min((box.height() - first.top) / shape.x, maxCell);
    cw = std::min(cw, 4.0f * ch);
    ch = std::min(ch, std::max(4.0f * cw, comfortableTokenRow(ctx)));  // every tiled tensor has token rows
    float x = box.min.x + first.left;
    for (int head = 0; head < heads; ++head) {
        const ImVec2 min{x, box.min.y + first.top};
        drawHeatmap(ctx, traceRef(tensor, head), min, {min.x + cw * shape.y, min.y + ch * shape.x}, options(head));
        x += cw * shape.y + gap;
    }
    if (heads < ctx.run.trace.dims.heads) {
        text(font(ctx.fonts.small), {box.min.x, box.max.y - ImGui::GetFontSize()}, kHint,
             "(the first " + std::to_string(heads) + " of " + std::to_string(ctx.run.trace.dims.heads) + " heads)");
    }
}

// One colour range for every head of `tensor`, so colours compare across the grid and one colorbar says it:
// the tensor's own for signed maps, for attention weights 0 … the largest weight of any head (or the scale's 0 … 1).
colormap::Range sharedHeadsRange(ViewContext& ctx, TensorId tensor) {
    if (tensor != TensorId::AttentionWeights) return ctx.summaries.get(ctx.run, tensor).range;
    std::vector<std::pair<const ViewContext*, MatrixRef>> heads;
    for (int head = 0; head < ctx.run.trace.dims.heads; ++head) heads.emplace_back(&ctx, traceRef(tensor, head));
    return sharedWeightsRange(heads);
}

// Every head's map of `tensor` in a grid, all with the same cell size: token labels on the first column and the
// top row, one colorbar at the end of the top row; clicking a head focuses it.
void drawAllHeads(ViewContext& ctx, const Box& box, TensorId tensor) {
    const int heads = ctx.run.trace.dims.heads;
    const ImVec2 shape = displayShape(ctx, traceRef(tensor, 0), false);
    const colormap::Range range = sharedHeadsRange(ctx, tensor);
    const auto options = [&](int head, int columns, bool labels) {
        HeatmapOptions o;
        o.title = TitleStyle::Compact;
        o.rowLabels = labels && head % columns == 0;
        o.colLabels = labels && head < columns;
        o.colorbar = head == std::min(columns, heads) - 1 ? ColorbarSide::Right : ColorbarSide::None;
        o.frameHead = head;
        o.emphasized = head == ctx.state.head;
        o.pinOnClick = false;
        o.lectureLabels = false;
        o.range = range;
        o.caption = "head " + std::to_string(head);
        return o;
    };
    // The first column reserves room for row labels, the top row for column labels, the top row's last head for
    // the colorbar; every grid of cells gets the same size.
    const float gap = std::round(10.0f * ctx.scale);
    struct Grid {
        float cell = 0.0f;
        Insets corner, plain, last;  // head 0 (labels on both axes), a head inside the grid, the top row's last
    };
    const auto gridFor = [&](int columns, bool labels) {
        const int rows = (heads + columns - 1) / columns;
        Grid g;
        g.corner = heatmapInsets(ctx, traceRef(tensor, 0), options(0, columns, labels));
        g.plain = heatmapInsets(ctx, traceRef(tensor, 0), options(columns, columns, false));  // row 1, column 0, unlabelled
        g.plain.left = heatmapInsets(ctx, traceRef(tensor, 0), options(heads, heads + 1, false)).left;
        g.last = heatmapInsets(ctx, traceRef(tensor, std::min(columns, heads) - 1), options(std::min(columns, heads) - 1, columns, labels));
        const float fixedW = g.corner.left + g.last.right + static_cast<float>(columns) * gap;
        const float fixedH = g.corner.top + static_cast<float>(rows - 1) * g.plain.top + static_cast<float>(rows) * (g.plain.bottom + gap);
        const float width = (box.width() - fixedW) / (static_cast<float>(columns) * shape.y);
        const float height = (box.height() - fixedH) / (static_cast<float>(rows) * shape.x);
        g.cell = std::min({width, height, kMaxCell * ctx.scale});
        return g;
    };
    int columns = 1;
    float best = 0.0f;
    for (int c = 1; c <= heads; ++c) {  // the column count that gives the biggest cells
        if (const float size = gridFor(c, true).cell; size > best) best = size, columns = c;
    }
    const bool labels = best >= 8.0f * ctx.scale;  // below that, token labels would be unreadable: the inspector names cells
    const Grid g = gridFor(columns, labels);
    const float w = g.cell * shape.y, h = g.cell * shape.x;
    for (int head = 0; head < heads; ++head) {
        const int column = head % columns, row = head / columns;
        const ImVec2 min{box.min.x + g.corner.left + static_cast<float>(column) * (w + gap),
                         box.min.y + g.corner.top + static_cast<float>(row) * (h + g.plain.bottom + gap + g.plain.top)};
        const HeatmapResult r = drawHeatmap(ctx, traceRef(tensor, head), min, {min.x + w, min.y + h}, options(head, columns, labels));
        if (r.clicked) {
            ctx.state.head = head;
            ctx.state.allHeads = false;
        }
    }
}

// [SECTION] Stages

// [SECTION] One query row as bars

// The query row the charts show: the row of the explained cell when it is an l × l map of the focused head,
// else the row the stages follow ("it" under a coreference head, else the last token: core::followedQueryRow).
int chartRow(const ViewContext& ctx) {
    const int last = core::followedQueryRow(ctx.run, ctx.state.batch, ctx.state.head);
    if (!ctx.explanation) return last;
    const MatrixRef& m = ctx.explanation->cell.matrix;
    const bool square = m.tensor == TensorId::Scores || m.tensor == TensorId::ScaledScores || m.tensor == TensorId::MaskedScores ||
                        m.tensor == TensorId::AttentionWeights;
    return square && m.head == ctx.state.head ? ctx.explanation->cell.row : last;
}

int chartColumn(const ViewContext& ctx) { return ctx.explanation ? ctx.explanation->cell.col : -1; }

std::vector<float> rowOf(const ViewContext& ctx, TensorId tensor, int row) {
    const render::MatrixSlice m = matrixSlice(ctx.run, traceRef(tensor, ctx.state.head), ctx.state.batch);
    return {m.values.begin() + static_cast<std::ptrdiff_t>(row) * m.cols, m.values.begin() + static_cast<std::ptrdiff_t>(row + 1) * m.cols};
}

std::vector<std::string> keyLabels(const ViewContext& ctx) {
    std::vector<std::string> labels;
    for (int j = 0; j < ctx.run.trace.keyLength; ++j) labels.push_back(axisLabel(ctx.run, Axis::KeyTokens, ctx.state.batch, j));
    return labels;
}

std::vector<bool> maskedKeys(const ViewContext& ctx, int row) {
    const core::Tensor& mask = ctx.run.trace[TensorId::Mask];
    std::vector<bool> masked(static_cast<std::size_t>(ctx.run.trace.keyLength), false);
    if (mask.empty()) return masked;
    const core::MatrixView m = mask.slice(ctx.state.batch, 0);
    for (std::size_t j = 0; j < masked.size(); ++j) masked[j] = m(m.rows() == 1 ? 0 : row, static_cast<Eigen::Index>(j)) == 0.0f;
    return masked;
}

// softmax of one row, for the scale stage's "what if we did not scale" comparison (display only).
std::vector<float> softmax(const std::vector<float>& scores, float scale) {
    const float top = *std::max_element(scores.begin(), scores.end()) * scale;
    std::vector<float> weights;
    double sum = 0.0;
    for (float s : scores) sum += std::exp(static_cast<double>(s * scale - top));
    for (float s : scores) weights.push_back(static_cast<float>(std::exp(static_cast<double>(s * scale - top)) / sum));
    return weights;
}

std::string quotedToken(const ViewContext& ctx, int row) { return "“" + axisLabel(ctx.run, Axis::QueryTokens, ctx.state.batch, row) + "”"; }


// Two charts side by side in `box`.
void drawChartPair(const ViewContext& ctx, const Box& box, const RowChart& left, const RowChart& right) {
    const float gap = gapOf(ctx) * 2.0f, half = (box.width() - gap) / 2.0f;
    drawRowChart(ctx, box.min, {box.min.x + half, box.max.y}, left);
    drawRowChart(ctx, {box.min.x + half + gap, box.min.y}, box.max, right);
}

// [SECTION] Stages drawn from their scene (scene/scene.h), laid out once (scene/layout.h)

scene::SceneChoices sceneChoices(const ViewContext& ctx) {
    scene::SceneChoices choices;
    choices.head = ctx.state.head;
    switch (ctx.state.projection) {
        case Projection::Query: choices.projection = TensorId::Q; break;
        case Projection::Key: choices.projection = TensorId::K; break;
        case Projection::Value: choices.projection = TensorId::V; break;
        case Projection::All: break;
    }
    if (const core::TrainedLayer* trained = ctx.run.spec.trained()) choices.blocksBeforeX = trained->layer;
    choices.focusRow = chartRow(ctx);
    choices.ropeStep = ctx.state.ropeStep;
    return choices;
}

// Lays `scene` out in `box` and paints it; returns the room its side content got, below the side's heading.
std::optional<Box> paintScene(ViewContext& ctx, const scene::Scene& scene, const Box& box) {
    const scene::Layout layout = layoutInBox(ctx, scene, box);
    paintLayout(ctx, layout);
    // The panel scrolls to the maps' end, and no further: the cursor stands an item spacing below the last item, and
    // a dummy there made the content that much taller than a box it fits (a scrollbar for nothing).
    const float lastItemBottom = ImGui::GetCursorScreenPos().y - ImGui::GetStyle().ItemSpacing.y;
    ImGui::SetCursorScreenPos({box.min.x, std::max(lastItemBottom, layout.extent.y1)});
    ImGui::Dummy({0.0f, 0.0f});
    if (!layout.side) return std::nullopt;
    Box side{{layout.side->x0, layout.side->y0 + gapOf(ctx)}, {layout.side->x1, layout.side->y1}};
    if (!scene.side->heading.empty()) {
        const Box heading = takeTop(side, ImGui::GetFontSize() * 1.5f);
        text(font(ctx.fonts.bold), heading.min, kText, scene.side->heading);
    }
    return side;
}

void scaleCharts(ViewContext& ctx, const Box& box) {
    const int r = chartRow(ctx);
    const std::vector<float> scores = rowOf(ctx, TensorId::Scores, r);
    const colormap::Range probability{0.0f, 1.0f};
    drawChartPair(ctx, box,
                  {"softmax of row " + quotedToken(ctx, r) + " without scaling", softmax(scores, 1.0f), keyLabels(ctx), {}, probability, ctx.state.sequential, chartColumn(ctx)},
                  {"… and with ÷√d_k (mask aside): less peaked", softmax(scores, ctx.run.trace.dims.scale), keyLabels(ctx), {}, probability, ctx.state.sequential, chartColumn(ctx)});
}

void softmaxCharts(ViewContext& ctx, const Box& box) {
    const int r = chartRow(ctx);
    const std::vector<bool> masked = maskedKeys(ctx, r);
    drawChartPair(ctx, box,
                  {"scores of query " + quotedToken(ctx, r) + " (hover a row to change)", rowOf(ctx, TensorId::MaskedScores, r), keyLabels(ctx), masked,
                   ctx.summaries.get(ctx.run, TensorId::MaskedScores).range, ctx.state.diverging, chartColumn(ctx)},
                  {"its weights: positive, summing to 1", rowOf(ctx, TensorId::AttentionWeights, r), keyLabels(ctx), masked, {0.0f, 1.0f},
                   ctx.state.sequential, chartColumn(ctx)});
}

// O beside X: the same shape, l × d_model.
void outputComparison(ViewContext& ctx, const Box& box) {
    scene::Scene comparison;
    comparison.figures.push_back({scene::Line{{scene::traceMap(ctx.run.trace, TensorId::Output), scene::Operator{"vs"},
                                               scene::traceMap(ctx.run.trace, TensorId::X)}}, "", ""});
    paintScene(ctx, comparison, box);
}

// The mask stage without a mask: what masks do, two buttons to try one, and the scores passing unchanged.
Box noMaskIntroduction(ViewContext& ctx, Box box) {
    ImGui::SetCursorScreenPos(box.min);
    ImGui::PushFont(font(ctx.fonts.large));
    ImGui::TextUnformatted("No mask: every query may look at every key.");
    ImGui::PopFont();
    ImGui::TextWrapped("An encoder masks padding (b × 1 × 1 × l, the same row for every query); a decoder also hides later "
                       "tokens (causal, b × 1 × l × l). Try one:");
    core::AttentionConfig& a = ctx.state.spec.attention;
    if (ImGui::Button("causal mask")) a.mask = core::MaskKind::Causal;
    ImGui::SameLine();
    if (ImGui::Button("padding mask")) a.mask = core::MaskKind::Padding;
    box.min.y = ImGui::GetCursorScreenPos().y + gapOf(ctx);
    return box;
}

// The RoPE step's side room: the focused head's q, pair by pair, each token at its own position.
void rotaryPairsOfHead(ViewContext& ctx, const Box& box) {
    const int pairs = std::min(4, ctx.run.trace.dims.dK / 2);
    const std::optional<core::RotaryPairs> turned = rotaryPairsOfRun(ctx.run, ctx.state.batch, ctx.state.head, false, pairs);
    if (!turned) return;
    RotaryPlotStyle style;
    for (const std::string& token : ctx.run.queryTokens.at(static_cast<std::size_t>(ctx.state.batch))) style.positionLabels.push_back(core::labelText(token));
    style.highlight = chartRow(ctx);
    drawRotaryPairs(*ImGui::GetWindowDrawList(), box, *turned, style);
}

// A stage whose picture is a scene: its maps where the layout puts them, then what its side room holds.
void sceneView(ViewContext& ctx, Box box, const scene::Scene& scene) {
    if (scene.stage == StageId::Mask && !ctx.run.trace.has(TensorId::Mask)) box = noMaskIntroduction(ctx, box);
    const std::optional<Box> side = paintScene(ctx, scene, box);
    if (!side) return;
    switch (scene.stage) {
        case StageId::Scale: scaleCharts(ctx, *side); break;
        case StageId::Softmax: softmaxCharts(ctx, *side); break;
        case StageId::WeightedSum: drawHeadTiles(ctx, *side, TensorId::ZHeads, true, false); break;
        case StageId::Output: outputComparison(ctx, *side); break;
        case StageId::SplitHeads: rotaryPairsOfHead(ctx, *side); break;
        default: break;
    }
}

// [SECTION] Header

void headPicker(ViewContext& ctx) {
    const int heads = ctx.run.trace.dims.heads;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float needed = 3.0f * ImGui::GetFrameHeight() + ImGui::CalcTextSize("head 00 of 00").x + ImGui::CalcTextSize("all heads (A)").x +
                         4.0f * style.ItemSpacing.x + style.ItemInnerSpacing.x;
    if (ImGui::GetContentRegionAvail().x < needed) ImGui::NewLine();  // never past the panel's edge
    ImGui::PushID("heads");
    if (ImGui::ArrowButton("previous", ImGuiDir_Left)) ctx.state.head = (ctx.state.head + heads - 1) % heads;
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(headColor(ctx.state.head)));
    ImGui::Text("head %d of %d", ctx.state.head, heads);
    ImGui::PopStyleColor();
    ImGui::SameLine();
    if (ImGui::ArrowButton("next", ImGuiDir_Right)) ctx.state.head = (ctx.state.head + 1) % heads;
    ImGui::SameLine();
    ImGui::Checkbox("all heads (A)", &ctx.state.allHeads);
    ImGui::PopID();
}

void projectionPicker(AppState& state) {
    const std::pair<Projection, const char*> choices[] = {
        {Projection::All, "Q, K, V together"}, {Projection::Query, "Q = X W^Q"}, {Projection::Key, "K = X W^K"}, {Projection::Value, "V = X W^V"}};
    const ImGuiStyle& style = ImGui::GetStyle();
    float needed = 0.0f;
    for (const auto& [p, label] : choices) {
        needed += ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(label).x + style.ItemSpacing.x;
    }
    if (ImGui::GetContentRegionAvail().x < needed) ImGui::NewLine();  // never past the panel's edge
    for (const auto& [p, label] : choices) {
        if (ImGui::RadioButton(widgetLabel(label).c_str(), state.projection == p)) state.projection = p;
        ImGui::SameLine();
    }
    ImGui::NewLine();
}

// Stage 3 of a model with rotary positions: the split, or the RoPE step after it (R toggles), with the head it shows.
void ropePicker(ViewContext& ctx) {
    if (ImGui::RadioButton("split into heads", !ctx.state.ropeStep)) ctx.state.ropeStep = false;
    ImGui::SameLine();
    if (ImGui::RadioButton("then RoPE (R)", ctx.state.ropeStep)) ctx.state.ropeStep = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("q and k turned by their positions, before the scores");
    if (!ctx.state.ropeStep) {
        ImGui::NewLine();
        return;
    }
    ImGui::SameLine(0.0f, std::round(24.0f * ctx.scale));
    headPicker(ctx);
}

// A trained model: which layer the stages step through, a way to the model view, what the focused head is known
// for (heads.json), and a warning when its heads are a re-split of the trained projections.
void trainedModelLine(ViewContext& ctx) {
    const int layer = ctx.run.spec.trained()->layer;
    const core::TrainedModel& model = *ctx.run.spec.trainedModel();
    ImGui::SameLine(0.0f, std::round(24.0f * ctx.scale));
    ImGui::TextColored({0.2f, 0.2f, 0.2f, 1.0f}, "%s · layer %d of %d", model.name.c_str(), layer, model.config().layers);
    ImGui::SameLine();
    if (ImGui::SmallButton("model view")) ctx.state.modelView = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Every layer × head of the model on this sentence; click one to step through it");
    if (ctx.run.resplitHeads) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.75f, 0.3f, 0.0f, 1.0f));
        const std::string resplit = (ctx.run.dims.heads == 1 ? "This head is" : "These " + std::to_string(ctx.run.dims.heads) + " heads are") +
                                    std::string(" a re-split of the trained W^Q, W^K, W^V (Q, K, V unchanged), not the ") +
                                    core::counted(model.config().heads, "head", "heads") + " " + model.name + " learned.";
        ImGui::TextWrapped("%s", resplit.c_str());
        ImGui::PopStyleColor();
    } else if (const core::NamedHead* named = model.namedHead(layer, ctx.state.head)) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.65f, 0.35f, 0.0f, 1.0f));
        ImGui::TextWrapped("Head %d is the %s head. %s", ctx.state.head, named->name.c_str(), named->what.c_str());
        ImGui::PopStyleColor();
    }
}

void modelViewHeader(ViewContext& ctx) {
    ImGui::PushFont(font(ctx.fonts.large));
    ImGui::TextUnformatted("Model view");
    ImGui::PopFont();
    ImGui::SameLine(0.0f, std::round(24.0f * ctx.scale));
    if (ImGui::SmallButton("back to the stages")) ctx.state.modelView = false;
}

// The stage's number and title on the left; what the view can switch on the right.
void header(ViewContext& ctx) {
    const core::Stage& stage = core::stage(ctx.state.stage);
    ImGui::PushFont(font(ctx.fonts.large));
    ImGui::Text("%d · %s", stage.number(), std::string(stage.title).c_str());
    ImGui::PopFont();
    if (ctx.run.spec.trainedModel()) trainedModelLine(ctx);
    if (ctx.computing) {
        ImGui::SameLine();
        ImGui::TextColored({0.85f, 0.4f, 0.0f, 1.0f}, "computing the new inputs…");
    }
    ImGui::SameLine(0.0f, std::round(40.0f * ctx.scale));
    if (ctx.state.stage == StageId::Project) projectionPicker(ctx.state);
    else if (ctx.state.stage == StageId::SplitHeads && scene::hasRopeStep(ctx.run.trace)) ropePicker(ctx);
    else if (perHeadTensor(ctx.state.stage) && ctx.state.stage != StageId::SplitHeads && ctx.state.stage != StageId::Concat) headPicker(ctx);
    else ImGui::NewLine();
    ImGui::Spacing();
}

void drawStage(ViewContext& ctx, const Box& box) {
    scene::Scene scene = scene::stageScene(ctx.state.stage, ctx.run, sceneChoices(ctx));
    if (ctx.state.zoom > 1.0f) scene.side.reset();  // zoomed in, the charts and tiles give way to the maps first
    sceneView(ctx, box, scene);
}

}  // namespace

void drawStageView(ViewContext& ctx) {
    const ImVec2 windowMax{ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x, ImGui::GetWindowPos().y + ImGui::GetWindowContentRegionMax().y};
    if (ctx.state.modelView && ctx.run.modelPass) {
        modelViewHeader(ctx);
        if (ctx.headsOff) ctx.headsOff->drawBanner(ctx);
        drawModelView(ctx, ImGui::GetCursorScreenPos(), windowMax);
        return;
    }
    header(ctx);
    if (ctx.headsOff) ctx.headsOff->drawBanner(ctx);
    const ImVec2 min = ImGui::GetCursorScreenPos();
    // Zoomed out, the maps shrink with the type: they take the zoom's share of the box, so the maps never get
    // smaller when the zoom goes up. Zoomed in, the box is the room the stage shows (layoutInBox grows the maps
    // until they fill it, then keeps each inside it).
    // Zoomed out, the bars, panels and text around the stage shrink with the type as well, which leaves the stage
    // more room than zoom 1 does: the share is of the room zoom 1 would leave it (the screen less the surroundings
    // grown back by 1 / zoom), so that no zoom step down gives larger maps (1024 × 768, the mask stage: 3.5 %).
    const float zoom = ctx.state.zoom, shrink = std::min(1.0f, zoom);
    const ImVec2 screen = ImGui::GetMainViewport()->WorkSize;
    const auto roomAtZoomOne = [&](float room, float screenSize) { return std::clamp(screenSize - (screenSize - room) / shrink, 0.0f, room); };
    const ImVec2 max{min.x + roomAtZoomOne(windowMax.x - min.x, screen.x) * shrink, min.y + roomAtZoomOne(windowMax.y - min.y, screen.y) * shrink};
    const Box box{min, max};
    const std::optional<TensorId> tensor = perHeadTensor(ctx.state.stage);
    const bool allHeadsView = ctx.state.allHeads && tensor && ctx.state.stage != StageId::SplitHeads && ctx.state.stage != StageId::Concat;
    if (allHeadsView && !(ctx.state.stage == StageId::Mask && ctx.run.trace[TensorId::Mask].empty())) {
        drawAllHeads(ctx, box, *tensor);
    } else {
        drawStage(ctx, box);
    }
}

}  // namespace attnviz::ui
