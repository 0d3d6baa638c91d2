// panel_model_view.cpp — BertViz's model view for a trained model: the attention weights A of every layer ×
// head on the sentence shown, one small map each (rows: layers, columns: heads). Clicking a map steps through that
// layer and head at the softmax stage; hovering names it and, for heads the model card names (heads.json), says
// what it does. "hide special tokens" drops [CLS]/[SEP] (GPT-2: the first token) and renormalises each row, as
// Clark et al. 2019 and exBERT do, because most of the weight in middle layers rests on them.
// Each map is coloured from 0 to its own largest weight (the colorbar line says so), so weak structure shows. Under
// each map a bar gives the head's mean share of weight on the first token (core::firstTokenShare): attention sinks;
// under that, the name heads.json gives the head, else its strongest role and score as the Head roles view scores it
// ("prev 0.93": core::headRolesOnRepeats, computed on the model worker, role_label.h).
// Each map is read once per run (and per "hide special tokens" state): its texture and largest weight are kept.
// The layers' height binds the square maps; the width left spreads the columns (so a named head's caption is whole)
// and, where the rows are tall enough, holds the query tokens left of each layer's first map.
// Does not compute attention (ModelRun::modelPass holds every layer's A, kept only for runs asked for while this view
// is open: App recomputes the run when it opens) or draw the stepped layer's stages.
#include "core/display_text.h"
#include "core/sentence_words.h"
#include "ui/layer_analysis.h"
#include "ui/panels/heads_off_view.h"
#include "ui/panels/panels.h"
#include "ui/views/sentence_notes.h"
#include "ui/views/drawing.h"
#include "ui/views/role_label.h"
#include "ui/widgets/widget_label.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <optional>
#include <string>

namespace attnviz::ui {
namespace {

const ImU32 kLabelColor = IM_COL32(60, 60, 60, 255);
const ImU32 kNamedColor = IM_COL32(230, 120, 0, 255);  // the frame of a head heads.json names

// The model view's texture of one layer's head (its own source: never a stage's or a question view's texture).
render::TextureKey modelViewKey(int layer, int head, int batch, bool hidden) {
    render::TextureKey key;
    key.source = render::TextureKey::Source::ModelView;
    key.layer = layer;
    key.head = head;
    key.batch = batch;
    key.variant = hidden ? 1 : 0;  // special tokens hidden: rows renormalised, other numbers
    return key;
}

// Layer `layer`, head `head` of the sentence shown: its unpadded l × l map, or the special tokens left out.
core::Matrix headMap(const ViewContext& ctx, int layer, int head, const std::vector<int>* keep) {
    const core::Tensor& all = ctx.run.modelPass->attentionWeights;  // n_layers × b × h × l × l
    const int batch = ctx.state.batch, heads = all.dim(2);
    const int length = ctx.run.trace.keyLengths[static_cast<std::size_t>(batch)];
    const core::MatrixView map = all.slice((layer * all.dim(1) + batch) * heads + head);
    const core::Matrix unpadded = map.topLeftCorner(length, length);
    return keep ? core::renormalisedAttention(unpadded, *keep) : unpadded;
}

// Reads a map (an l × l copy, renormalised when special tokens are hidden) only in the first frame of a run that
// draws it: afterwards its texture and its largest weight are known, and a frame copies nothing.
void drawMap(ViewContext& ctx, int layer, int head, const std::vector<int>* keep, ImVec2 min, ImVec2 max) {
    const render::TextureKey key = modelViewKey(layer, head, ctx.state.batch, keep != nullptr);
    render::HeatmapHandle handle = ctx.renderer.find(key);
    std::optional<float> top = ctx.summaries.mapTop(key);
    if (!handle || !top) {
        const core::Matrix map = headMap(ctx, layer, head, keep);
        if (map.size() == 0) return;
        top = std::max(map.maxCoeff(), 1e-6f);
        ctx.summaries.setMapTop(key, *top);
        handle = ctx.renderer.heatmap(key, render::MatrixSlice{{map.data(), static_cast<std::size_t>(map.size())},
                                                               static_cast<int>(map.rows()), static_cast<int>(map.cols())});
    }
    ctx.renderer.draw(*ImGui::GetWindowDrawList(), handle, min, max, {ctx.state.sequential, 0.0f, *top});
}

// What a named head does on this sentence: "it → trophy 0.58, suitcase 0.31".
std::string readingOf(const ViewContext& ctx, const core::NamedHead& named) {
    return onThisSentence(ctx.run, ctx.state.batch, named, defaultQueryRow(ctx.run, ctx.state.batch, named));
}

// `role`: the head's strongest role and score ("prev 0.93"), or empty before the roles arrive; `cell`: the hovered
// cell as "it → animal: 1.00" (every map's rows and columns are the same tokens, so this names them at any size).
void hoverText(const ViewContext& ctx, int layer, int head, float sink, const std::string& role, const std::string& cell) {
    const core::NamedHead* named = ctx.run.spec.trainedModel()->namedHead(layer, head);
    const int percent = std::isfinite(sink) ? static_cast<int>(std::lround(sink * 100.0f)) : 0;
    const std::string roleLine = role.empty() ? "" : "strongest role: " + role + " (Head roles view)\n";
    std::string text = "layer " + std::to_string(layer) + ", head " + std::to_string(head);
    if (named) text += ": " + named->name;
    text += "\n" + cell;
    if (named) text += "\n" + named->what + "\non this sentence: " + readingOf(ctx, *named);
    text += "\n" + roleLine + std::to_string(percent) + "% of each row's weight on the first token\nclick to step through it";
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36.0f);  // the model card's sentence on what the head was taught is long
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

// The cell of a map drawn in [min, max] with `tokens` as its rows and columns under `mouse`, as "query → key: weight".
std::string hoveredCell(const ViewContext& ctx, int layer, int head, const std::vector<int>* keep, const std::vector<std::string>& tokens,
                        ImVec2 min, ImVec2 max, ImVec2 mouse) {
    const int count = static_cast<int>(tokens.size());
    const auto index = [count](float at, float from, float to) {
        return std::clamp(static_cast<int>((at - from) / (to - from) * static_cast<float>(count)), 0, count - 1);
    };
    const int row = index(mouse.y, min.y, max.y), column = index(mouse.x, min.x, max.x);
    const core::Matrix map = headMap(ctx, layer, head, keep);  // l × l (or the kept tokens'): read only while hovered
    if (row >= map.rows() || column >= map.cols()) return "";
    return tokens[static_cast<std::size_t>(row)] + " \xe2\x86\x92 " + tokens[static_cast<std::size_t>(column)] + ": " +
           core::twoDecimals(map(row, column));
}

// The caption under a head's map, at most `width` wide: its heads.json name (clipped), else its strongest role and
// score ("prev 0.93"), just the role ("prev") when that is all that fits, nothing when not even that does or before
// the roles arrive (`roles` null).
std::string headCaption(const core::TrainedModel& model, const core::HeadRoles* roles, int layer, int head, float width) {
    if (const core::NamedHead* named = model.namedHead(layer, head)) return fitText(named->name, width, ImGui::GetFont(), ImGui::GetFontSize());
    if (roles == nullptr) return "";
    const std::string full = strongestRoleLabel(*roles, layer, head);
    if (ImGui::CalcTextSize(full.c_str()).x <= width) return full;
    const std::string role = roleShortName(core::strongestRole(*roles, layer, head));
    return ImGui::CalcTextSize(role.c_str()).x <= width ? role : "";
}

// Under a map: a bar as long as the share of each row's weight the head gives the first token (an attention sink),
// with the percentage on it when the map is wide enough.
void sinkBar(ImDrawList& list, ImVec2 min, float width, float height, float share) {
    if (!std::isfinite(share)) return;
    list.AddRectFilled(min, {min.x + width, min.y + height}, IM_COL32(225, 225, 225, 255));
    list.AddRectFilled(min, {min.x + width * std::clamp(share, 0.0f, 1.0f), min.y + height}, IM_COL32(240, 150, 60, 255));
    const std::string percent = std::to_string(static_cast<int>(std::lround(share * 100.0f))) + "%";
    if (height >= ImGui::GetFontSize() && ImGui::CalcTextSize(percent.c_str()).x < width) list.AddText(min, kLabelColor, percent.c_str());
}

// `rolesPending`: the heads' roles are still being scored on the model worker.
void controlsLine(ViewContext& ctx, bool rolesPending) {
    const core::TrainedModel& model = *ctx.run.spec.trainedModel();
    ImGui::Checkbox(widgetLabel(model.config().traits().decoder ? "hide the first token" : "hide special tokens").c_str(), &ctx.state.hideSpecialTokens);
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(model.config().traits().decoder
                              ? "Leave out the first token (decoders put much of their weight there) and renormalise each row"
                              : "Leave out [CLS] and [SEP] (BERT's middle layers put most weight there) and renormalise each row");
    }
    const std::string howToRead =
        "A of every layer × head of " + model.name + " on this sentence; each map is coloured from 0 to its own largest weight. "
        "Hover a cell for its query and key; click a map to step through it. The orange bar under a map: the mean share of a "
        "row's weight on the first token" + (model.config().traits().decoder ? " (rows 1 … l−1: row 0 has only itself)" : "") +
        " (an attention sink). Under it, the head's name from the model card, else its strongest role and score as the Head "
        "roles view measures it (prev, dup, induct, sink, self; 0 to 1)" +
        (rolesPending ? " \xe2\x80\x94 scoring the heads on the model worker\xe2\x80\xa6" : "") + ".";
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    if (ctx.state.presenting) {  // the room goes to the maps: the lecturer says it; the paragraph waits under the mouse
        ImGui::SameLine(0.0f, ImGui::GetFontSize());
        ImGui::TextUnformatted("how to read these maps (hover)");
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
            ImGui::TextUnformatted(howToRead.c_str());
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
    } else {
        ImGui::TextWrapped("%s", howToRead.c_str());
    }
    ImGui::PopStyleColor();
    // The heads heads.json names (framed below, their job in the tooltip) and what each does on this sentence.
    std::string readings;
    for (const core::NamedHead& named : model.namedHeads) {
        const std::string reading = readingOf(ctx, named);
        if (!reading.empty()) readings += (readings.empty() ? "On this sentence: " : "; ") + named.name + ": " + reading;
    }
    if (readings.empty()) return;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.65f, 0.35f, 0.0f, 1.0f));
    ImGui::TextWrapped("%s.", readings.c_str());
    ImGui::PopStyleColor();
}

// With the first token hidden, rows that gave it everything have nothing to renormalise: say so instead of dividing by 0.
void nothingLeftNote(const ViewContext& ctx, const std::vector<int>& keep, int length) {
    const int empty = core::rowsWithNothingLeft(ctx.run.modelPass->attentionWeights, ctx.state.batch, length, keep);
    if (empty == 0) return;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%d rows (over all maps) gave all their weight to the hidden tokens: nothing is left to renormalise, so "
                       "they are drawn empty.", empty);
    ImGui::PopStyleColor();
}

// The maps' rows as tokens: every token of the sentence, or those left when the special tokens are hidden.
std::vector<std::string> rowTokens(const ViewContext& ctx, const std::vector<int>* kept, int length) {
    const std::vector<std::string>& all = ctx.run.tokens[static_cast<std::size_t>(ctx.state.batch)];
    std::vector<std::string> rows;
    if (kept) {
        for (int index : *kept) rows.push_back(core::labelText(all[static_cast<std::size_t>(index)]));
    } else {
        for (int index = 0; index < length; ++index) rows.push_back(core::labelText(all[static_cast<std::size_t>(index)]));
    }
    return rows;
}

// The query tokens left of each layer's first map, drawn when a row is tall enough for type of kMinRowLabelPx.
constexpr float kMinRowLabelPx = 9.0f;
constexpr float kRowLabelShare = 0.9f;  // of a row's height
struct RowLabels {
    float size = 0.0f;   // px; under kMinRowLabelPx: none drawn
    float width = 0.0f;  // the room they take left of the maps
};

RowLabels rowLabelsFor(const std::vector<std::string>& tokens, float mapSide, float fontSize) {
    if (tokens.empty()) return {};
    const float size = std::min(fontSize, std::floor(mapSide / static_cast<float>(tokens.size()) * kRowLabelShare));
    if (size < kMinRowLabelPx) return {};
    float widest = 0.0f;
    for (const std::string& token : tokens) {
        widest = std::max(widest, ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0.0f, fitText(token, fontSize * 6.0f, ImGui::GetFont(), size).c_str()).x);
    }
    return {size, std::ceil(widest) + std::round(fontSize * 0.4f)};
}

void drawRowLabels(ImDrawList& list, const std::vector<std::string>& tokens, const RowLabels& labels, float mapLeft, float mapTop, float mapHeight,
                   float fontSize) {
    const float row = mapHeight / static_cast<float>(tokens.size());
    for (std::size_t r = 0; r < tokens.size(); ++r) {
        const std::string text = fitText(tokens[r], fontSize * 6.0f, ImGui::GetFont(), labels.size);
        const float width = ImGui::GetFont()->CalcTextSizeA(labels.size, FLT_MAX, 0.0f, text.c_str()).x;
        const ImVec2 at{mapLeft - std::round(fontSize * 0.3f) - width, mapTop + row * static_cast<float>(r) + (row - labels.size) / 2.0f};
        list.AddText(ImGui::GetFont(), labels.size, at, kLabelColor, text.c_str());
    }
}

}  // namespace

void drawModelView(ViewContext& ctx, ImVec2 min, ImVec2 max) {
    if (ctx.run.modelPass->attentionWeights.empty()) {  // a run from before the view opened: no map to draw yet
        ImGui::TextWrapped("%s", ctx.computing ? "Computing every layer's attention weights on this sentence…"
                                               : "Every layer's attention weights could not be computed for these inputs.");
        return;
    }
    const std::shared_ptr<const LayerAnalysis> analysis = ctx.analyses ? ctx.analyses->get(ctx.state.batch, AnalysisKind::Roles) : nullptr;
    const core::HeadRoles* roles = analysis && analysis->roles ? &*analysis->roles : nullptr;
    controlsLine(ctx, ctx.analyses != nullptr && analysis == nullptr && ctx.analyses->error(ctx.state.batch, AnalysisKind::Roles).empty());
    const core::TrainedLayer& trained = *ctx.run.spec.trained();
    const core::TrainedModel& model = *trained.model;
    const int layers = model.config().layers, heads = model.config().heads;
    const std::vector<int> keep = core::visibleTokens(model, ctx.run.tokens[static_cast<std::size_t>(ctx.state.batch)]);
    const std::vector<int>* hidden = ctx.state.hideSpecialTokens && !keep.empty() ? &keep : nullptr;
    const int length = ctx.run.trace.keyLengths[static_cast<std::size_t>(ctx.state.batch)];
    if (hidden) nothingLeftNote(ctx, keep, length);
    const core::Matrix sinks = core::firstTokenShare(ctx.run.modelPass->attentionWeights, ctx.state.batch, length,
                                                     model.config().traits().decoder);  // n_layers × h
    const float fontSize = ImGui::GetFontSize();
    ImVec2 origin{min.x + fontSize * 4.5f, ImGui::GetCursorScreenPos().y + fontSize * 1.4f};
    // Under every row of maps, under the sink bars (with their percentage when the maps are tall enough to spare a
    // line), a line of captions: a head's name from the model card, or its strongest role.
    const float roughSide = std::min((max.x - origin.x) / static_cast<float>(heads), (max.y - origin.y) / static_cast<float>(layers));
    const float sinkHeight = roughSide > fontSize * 4.0f ? std::round(fontSize * 1.05f) : std::max(3.0f, std::round(roughSide * 0.08f));
    const float captionHeight = std::round(fontSize * 1.2f) + sinkHeight;
    const auto sideFrom = [&](float left) {
        return std::floor(std::min((max.x - left) / static_cast<float>(heads), (max.y - origin.y) / static_cast<float>(layers) - captionHeight));
    };
    float side = sideFrom(origin.x);
    // Token labels when the rows can hold them (not at 1280 x 800: 64 px maps of 15 rows), the maps moved right of them.
    const std::vector<std::string> tokens = rowTokens(ctx, hidden, length);
    RowLabels labels = rowLabelsFor(tokens, side, fontSize);
    if (labels.size > 0.0f) {
        origin.x += labels.width;
        side = sideFrom(origin.x);
        labels.size = std::min(labels.size, std::floor(side / static_cast<float>(tokens.size()) * kRowLabelShare));
    }
    if (side < 4.0f) {
        ImGui::TextWrapped("The window is too small for %d × %d maps: hide the side panels (View menu) or enlarge it.", layers, heads);
        return;
    }
    ImDrawList& list = *ImGui::GetWindowDrawList();
    const float gap = std::max(1.0f, std::round(side * 0.06f));
    // The layers' height binds the maps (square: their cells too): the width left spreads the columns, up to twice a
    // map's side apart or as far as the widest caption needs (a named head's, or a role's "induct 0.88"), so the grid
    // spans the view and a caption is cut only when the view is too narrow for it.
    const float captionGap = std::max(gap, fontSize * 0.5f);
    float widestCaption = ImGui::CalcTextSize("induct 0.00").x;
    for (const core::NamedHead& named : model.namedHeads) widestCaption = std::max(widestCaption, ImGui::CalcTextSize(core::clipped(named.name).c_str()).x);
    const float spread = std::max(2.0f * side, widestCaption + captionGap);
    const float pitch = std::floor(std::clamp((max.x - origin.x) / static_cast<float>(heads), side, spread));
    const float captionWidth = pitch - captionGap;
    for (int head = 0; head < heads; ++head) {
        const std::string label = side > fontSize * 2.6f ? "head " + std::to_string(head) : std::to_string(head);
        list.AddText({origin.x + pitch * static_cast<float>(head), origin.y - fontSize * 1.2f}, headColor(head), label.c_str());
    }
    for (int layer = 0; layer < layers; ++layer) {
        const float y = origin.y + (side + captionHeight) * static_cast<float>(layer);
        list.AddText({min.x, y + (side - fontSize) / 2.0f}, kLabelColor, ("layer " + std::to_string(layer)).c_str());
        if (labels.size >= kMinRowLabelPx) drawRowLabels(list, tokens, labels, origin.x, y, side - gap, fontSize);
        for (int head = 0; head < heads; ++head) {
            const ImVec2 a{origin.x + pitch * static_cast<float>(head), y};
            const ImVec2 b{a.x + side - gap, a.y + side - gap};
            drawMap(ctx, layer, head, hidden, a, b);
            sinkBar(list, {a.x, b.y + 1.0f}, side - gap, sinkHeight - 1.0f, sinks(layer, head));
            const bool stepped = layer == trained.layer && head == ctx.state.head;
            const bool named = model.namedHead(layer, head) != nullptr;
            if (named) list.AddRect({a.x - 1, a.y - 1}, {b.x + 1, b.y + 1}, kNamedColor, 0.0f, 0, 2.0f);
            const std::string caption = headCaption(model, roles, layer, head, captionWidth);
            list.AddText({a.x, b.y + sinkHeight + 2.0f}, named ? kNamedColor : kLabelColor, caption.c_str());
            if (ctx.headCaptions) ctx.headCaptions->push_back(caption);
            if (stepped) list.AddRect({a.x - 2, a.y - 2}, {b.x + 2, b.y + 2}, IM_COL32(20, 20, 20, 255), 0.0f, 0, 2.5f);
            if (ctx.headsOff) ctx.headsOff->headTile(ctx, layer, head, a, b, true);
            if (!ImGui::IsMouseHoveringRect(a, b) || !ImGui::IsWindowHovered()) continue;
            hoverText(ctx, layer, head, sinks(layer, head), roles ? strongestRoleLabel(*roles, layer, head) : "",
                      hoveredCell(ctx, layer, head, hidden, tokens, a, b, ImGui::GetIO().MousePos));
            if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
                if (core::TrainedLayer* chosen = ctx.state.spec.trained()) chosen->layer = layer;
                ctx.state.head = head;
                ctx.state.stage = core::StageId::Softmax;
                ctx.state.modelView = false;
            }
        }
    }
}

}  // namespace attnviz::ui
