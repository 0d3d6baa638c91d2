// heatmap_view.cpp — the labeled heatmap widget. See heatmap_view.h.
//
// Order of drawing: texture (renderer), grid, head blocks, highlights, values, then labels, title and
// colorbar around the cells. Every decoration's size comes from measure(), which heatmapInsets() also uses,
// so a layout that asked for the insets gets exactly that.
#include "ui/views/heatmap_view.h"

#include "colormap/head_colors.h"
#include "scene/axis_labels.h"
#include "scene/label_fit.h"
#include "scene/cell_values.h"
#include "scene/number_text.h"
#include "scene/colorbar.h"
#include "scene/head_bands.h"
#include "scene/map_outlines.h"

#include "ui/widgets/cell_editor.h"
#include "ui/views/drawing.h"
#include "ui/views/drawing_player.h"
#include "ui/views/matrix_info.h"
#include "ui/views/number_format.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnviz::ui {
namespace {

constexpr int kMaxLabelChars = 12;
constexpr ImU32 kTextColor = IM_COL32(30, 30, 30, 255);
constexpr ImU32 kDimText = IM_COL32(90, 90, 90, 255);
constexpr ImU32 kNarrowText = IM_COL32(200, 90, 0, 255);  // the narrow-range note: the orange of the followed row

struct Fitted {
    MatrixInfo info;
    int rows = 0, cols = 0;  // displayed
    Axis rowAxis = Axis::Features, colAxis = Axis::Features;
    int blockRows = 0, blockCols = 0;  // displayed head blocks
};

Fitted fitted(const ViewContext& ctx, const MatrixRef& ref, bool transposed) {
    Fitted f{matrixInfo(ctx.run, ref, ctx.state.batch)};
    f.rows = transposed ? f.info.cols : f.info.rows;
    f.cols = transposed ? f.info.rows : f.info.cols;
    f.rowAxis = transposed ? f.info.colAxis : f.info.rowAxis;
    f.colAxis = transposed ? f.info.rowAxis : f.info.colAxis;
    f.blockRows = transposed ? f.info.headBlockCols : f.info.headBlockRows;
    f.blockCols = transposed ? f.info.headBlockRows : f.info.headBlockCols;
    return f;
}

// [SECTION] Measuring

struct Measure {
    float line = 0, smallLine = 0;
    float title = 0, colLabels = 0, band = 0, rowLabels = 0, rowBand = 0, colorbarRight = 0, colorbarBelow = 0, sums = 0;
};

ImFont* smallFont(const ViewContext& ctx) { return font(ctx.fonts.small); }
float smallSize(const ViewContext& ctx) { return ctx.fonts.small ? ctx.fonts.small->FontSize : ImGui::GetFontSize(); }
float textWidth(ImFont* f, float size, const std::string& text) { return f->CalcTextSizeA(size, FLT_MAX, 0.0f, text.c_str()).x; }


// The label of token `index` on `axis`: the matrix's own (a compared sentence's) or the run's.
std::string fullLabel(const ViewContext& ctx, const MatrixInfo& info, Axis axis, int index) {
    if (isTokens(axis) && index >= 0 && index < static_cast<int>(info.tokenLabels.size())) {
        return core::labelText(info.tokenLabels[static_cast<std::size_t>(index)]);
    }
    return axisLabel(ctx.run, axis, ctx.state.batch, index);
}

std::string shortLabel(const ViewContext& ctx, const MatrixInfo& info, Axis axis, int index) {
    std::string label = fullLabel(ctx, info, axis, index);
    if (codepointCount(label) > kMaxLabelChars) label = fitText(label, textWidth(smallFont(ctx), smallSize(ctx), std::string(kMaxLabelChars - 1, 'n')), smallFont(ctx), smallSize(ctx));
    return label;
}

// The smallest type cell numbers shrink to: the label floor away from a lecture (scene::labelSizes).
float labelFloor(const ViewContext& ctx) { return scene::labelSizes(smallSize(ctx), false, 0).floor; }

// Token labels' sizes for a map drawn with `o`: the lecture's floor when presenting, unless it is a thumbnail.
scene::LabelSizes tokenLabels(const ViewContext& ctx, const HeatmapOptions& o) {
    return scene::labelSizes(smallSize(ctx), ctx.state.presenting && o.lectureLabels, longestTokenAxis(ctx));
}

// Measured once per run (SummaryCache::widestLabel), not every frame.
// A matrix with labels of its own is measured every frame (a compared sentence: tens of labels).
float widestLabel(const ViewContext& ctx, const MatrixInfo& info, Axis axis, int count, float tokenSize) {
    const SummaryCache::LabelsKey key{static_cast<int>(axis), count, ctx.state.batch, isTokens(axis) ? tokenSize : smallSize(ctx)};
    const bool ownLabels = !info.tokenLabels.empty();
    if (const std::optional<float> known = ownLabels ? std::nullopt : ctx.summaries.widestLabel(key)) return *known;
    float widest = 0.0f;
    const int step = isTokens(axis) ? 1 : std::max(1, count - 1);  // feature labels: the last index is the widest
    for (int i = isTokens(axis) ? 0 : count - 1; i < count; i += step) {
        widest = std::max(widest, textWidth(smallFont(ctx), isTokens(axis) ? tokenSize : smallSize(ctx), shortLabel(ctx, info, axis, i)));
    }
    if (!ownLabels) ctx.summaries.setWidestLabel(key, widest);
    return widest;
}

// The screen's colour bar (scene/colorbar.h): 12 pixels wide (10 under a map), ticks, gaps and tick spacing as on
// paper, in the small font, all times the UI scale.
scene::ColorbarSizes colorbarSizes(const ViewContext& ctx) {
    const auto px = [&](float base) { return static_cast<int>(std::lround(base * ctx.scale)); };
    return {px(12.0f), px(10.0f), px(4.0f), px(3.0f), px(6.0f), smallSize(ctx) / kLineHeightPerEm, px(50.0f)};
}

// `range`: the colour bar's, whose labels it makes room for (at the window's height: the most ticks it could get).
Measure measure(const ViewContext& ctx, const Fitted& f, const HeatmapOptions& o, colormap::Range range) {
    Measure m;
    m.line = ImGui::GetFontSize();
    m.smallLine = smallSize(ctx);
    const float pad = 4.0f * ctx.scale;
    if (o.title == TitleStyle::Full) m.title = 2.0f * m.line + pad;
    if (o.title == TitleStyle::Compact) m.title = m.line + pad;
    const float tokenSize = tokenLabels(ctx, o).full;
    if (o.colLabels) m.colLabels = (isTokens(f.colAxis) ? widestLabel(ctx, f.info, f.colAxis, f.cols, tokenSize) : m.smallLine) + pad;
    if (o.headBlocks && f.blockCols > 0) m.band = m.smallLine + 2.0f;
    if (o.rowLabels) m.rowLabels = widestLabel(ctx, f.info, f.rowAxis, f.rows, tokenSize) + 2.0f * pad;
    if (o.headBlocks && f.blockRows > 0) m.rowBand = m.smallLine * 0.6f;
    float legendWidth = m.smallLine + 4.0f + textWidth(smallFont(ctx), m.smallLine, "masked");
    if (f.info.probability) {  // room for rangeNote's widest
        for (const char* note : {"0 … map max", "÷ row max", "fixed 0 … 1"}) legendWidth = std::max(legendWidth, textWidth(smallFont(ctx), m.smallLine, note));
    }
    if (o.colorbar == ColorbarSide::Right) {
        const int tallest = static_cast<int>(ImGui::GetIO().DisplaySize.y);
        const float bar = static_cast<float>(scene::colorbarWidth(range, tallest, colorbarSizes(ctx), playedType(ctx.fonts)));
        m.colorbarRight = 3.0f * pad + std::max(bar, legendWidth);
    }
    if (o.colorbar == ColorbarSide::Below) m.colorbarBelow = pad * 2.0f + static_cast<float>(scene::colorbarBelowHeight(colorbarSizes(ctx), playedType(ctx.fonts)));
    if (o.rowSums) m.sums = textWidth(smallFont(ctx), m.smallLine, "Σ 0.000") + 2.0f * pad;
    return m;
}

// [SECTION] Colors and ranges

colormap::Colormap colormapFor(const ViewContext& ctx, const MatrixInfo& info) {
    return info.probability ? ctx.state.sequential : ctx.state.diverging;
}

// Probabilities other than the mask's 0/1 follow AppState::probabilityScale.
bool followsProbabilityScale(const MatrixRef& ref, const MatrixInfo& info) {
    return info.probability && !(ref.source == MatrixSource::Trace && ref.tensor == core::TensorId::Mask);
}

bool rowNormalisedColors(const ViewContext& ctx, const MatrixRef& ref, const MatrixInfo& info) {
    return followsProbabilityScale(ref, info) && ctx.state.probabilityScale == colormap::ProbabilityScale::RowMax;
}

// A question view's matrix: [0, 1] for weights, else ±max|x| over its finite values, and which special values it has.
ValueSummary computedSummary(const scene::Computed& computed) {
    ValueSummary s;
    float largest = 0.0f;
    for (const float v : computed.values.reshaped()) {
        s.hasNan = s.hasNan || std::isnan(v);
        s.hasInfinity = s.hasInfinity || std::isinf(v);
        if (std::isfinite(v)) largest = std::max(largest, std::fabs(v));
    }
    s.range = computed.probability ? colormap::Range{0.0f, 1.0f} : colormap::Range{-std::max(largest, 1e-6f), std::max(largest, 1e-6f)};
    return s;
}

ValueSummary summaryFor(const ViewContext& ctx, const MatrixRef& ref, const MatrixInfo& info, const HeatmapOptions& o) {
    ValueSummary s = ref.source == MatrixSource::Computed ? computedSummary(*ref.computed) : ctx.summaries.get(ctx.run, rangeTensor(ref));
    // A trained model's E[ids] and P get their own range; the seeded layer's keep X's, so E + P = X adds up in colour.
    if ((ref.source == MatrixSource::TokenEmbeddings || ref.source == MatrixSource::Positions) && ctx.run.spec.trainedModel()) s.range = ctx.summaries.embeddings(ctx.run);
    if (followsProbabilityScale(ref, info)) {
        const render::MatrixSlice slice = matrixSlice(ctx.run, ref, ctx.state.batch);
        s.range = ctx.summaries.probabilityRange(slice, ctx.state.probabilityScale);
        s.narrow = ctx.summaries.narrowRange(slice);
    }
    if (o.range) s.range = *o.range;
    return s;
}

// What the texture holds: the values, or for "row max" each row divided by its largest value (drawn on 0 … 1).
render::MatrixSlice colorSlice(const ViewContext& ctx, const MatrixRef& ref, bool rowNormalised) {
    render::MatrixSlice slice = matrixSlice(ctx.run, ref, ctx.state.batch);
    if (!rowNormalised) return slice;
    auto normalised = std::make_shared<std::vector<float>>(colormap::rowNormalised(slice.values, slice.rows, slice.cols));
    return {*normalised, slice.rows, slice.cols, normalised};
}

// The mask texture that goes with a matrix whose masked cells should be hatched.
render::HeatmapHandle maskFor(ViewContext& ctx, const MatrixRef& ref) {
    if (ref.source == MatrixSource::Computed) {
        const core::Matrix& mask = ref.computed->mask;
        if (mask.size() == 0) return {};
        return ctx.renderer.heatmap(textureKey(ref, ctx.state.batch, false, true),
                                    render::MatrixSlice{{mask.data(), static_cast<std::size_t>(mask.size())}, static_cast<int>(mask.rows()), static_cast<int>(mask.cols())});
    }
    const bool masks = ref.source == MatrixSource::Trace &&
                       (ref.tensor == core::TensorId::MaskedScores || ref.tensor == core::TensorId::AttentionWeights ||
                        ref.tensor == core::TensorId::Mask);
    if (!masks || ctx.run.trace[core::TensorId::Mask].empty()) return {};
    const MatrixRef mask{MatrixSource::Trace, core::TensorId::Mask, 0};
    return ctx.renderer.heatmap(textureKey(mask, ctx.state.batch, false), matrixSlice(ctx.run, mask, ctx.state.batch));
}

bool cellMasked(const ViewContext& ctx, const MatrixRef& ref, const render::HeatmapHandle& mask, int row, int col) {
    if (!mask) return false;
    if (ref.source == MatrixSource::Computed) {
        const core::Matrix& m = ref.computed->mask;
        return m(m.rows() == 1 ? 0 : row, col) == 0.0f;
    }
    const render::MatrixSlice m = matrixSlice(ctx.run, {MatrixSource::Trace, core::TensorId::Mask, 0}, ctx.state.batch);
    return valueAt(m, m.rows == 1 ? 0 : row, col) == 0.0f;
}

// [SECTION] Cell geometry

struct Grid {
    ImVec2 min, max;
    float cw = 0, ch = 0;
    ImVec2 cellMin(int r, int c) const { return {min.x + c * cw, min.y + r * ch}; }
    ImVec2 cellMax(int r, int c) const { return {min.x + (c + 1) * cw, min.y + (r + 1) * ch}; }
};

// A cell in the matrix's own coordinates → displayed (row, col).
std::pair<int, int> displayed(int row, int col, bool transposed) { return transposed ? std::pair{col, row} : std::pair{row, col}; }

void drawGridLines(ImDrawList& list, const Grid& g, int rows, int cols) {
    if (g.cw < 9.0f || g.ch < 9.0f) return;
    const ImU32 line = IM_COL32(255, 255, 255, 70);
    for (int c = 1; c < cols; ++c) list.AddLine({g.min.x + c * g.cw, g.min.y}, {g.min.x + c * g.cw, g.max.y}, line);
    for (int r = 1; r < rows; ++r) list.AddLine({g.min.x, g.min.y + r * g.ch}, {g.max.x, g.min.y + r * g.ch}, line);
}

// The heads' blocks of columns and of rows (scene::headBands), each outlined in its head's colour.
void drawHeadBlocks(ImDrawList& list, const Grid& g, const Fitted& f, int headsPerColour, float thickness) {
    for (const scene::HeadBand& band : scene::headBands(f.cols, f.blockCols, g.min.x, g.cw, headsPerColour)) {
        list.AddRect({band.from, g.min.y}, {band.to, g.max.y}, headColor(band.colour), 0.0f, 0, thickness);
    }
    for (const scene::HeadBand& band : scene::headBands(f.rows, f.blockRows, g.min.y, g.ch)) {
        list.AddRect({g.min.x, band.from}, {g.max.x, band.to}, headColor(band.colour), 0.0f, 0, thickness);
    }
}

void outline(ImDrawList& list, ImVec2 a, ImVec2 b, ImU32 color, float thickness) {
    list.AddRect({a.x - 1, a.y - 1}, {b.x + 1, b.y + 1}, IM_COL32(0, 0, 0, 255), 0.0f, 0, thickness + 2.0f);
    list.AddRect({a.x - 1, a.y - 1}, {b.x + 1, b.y + 1}, color, 0.0f, 0, thickness);
}

// Outlines the rows, columns and cells the explanation of the hovered cell names in this matrix.
void drawHighlights(const ViewContext& ctx, ImDrawList& list, const Grid& g, const MatrixRef& ref, const Fitted& f, bool transposed) {
    if (!ctx.explanation) return;
    const ImU32 color = IM_COL32(255, 230, 0, 255);
    for (const Highlight& h : ctx.explanation->highlights) {
        if (!(h.matrix == ref)) continue;
        Highlight::Kind kind = h.kind;
        if (transposed && kind != Highlight::Kind::Cell) kind = kind == Highlight::Kind::Row ? Highlight::Kind::Column : Highlight::Kind::Row;
        const int index = h.kind == Highlight::Kind::Row ? h.row : h.col;
        if (kind == Highlight::Kind::Row && index < f.rows) outline(list, g.cellMin(index, 0), g.cellMax(index, f.cols - 1), color, 2.0f);
        if (kind == Highlight::Kind::Column && index < f.cols) outline(list, g.cellMin(0, index), g.cellMax(f.rows - 1, index), color, 2.0f);
        if (kind == Highlight::Kind::Cell) {
            const auto [r, c] = displayed(h.row, h.col, transposed);
            if (r < f.rows && c < f.cols) outline(list, g.cellMin(r, c), g.cellMax(r, c), color, 3.0f);
        }
    }
}

// A number's em at most this share of a cell's height on screen (a line of the small font and a pixel).
constexpr float kValueHeightShare = 1.0f / kLineHeightPerEm;
// The largest type a cell's number may take (px): the small type; presenting, as large as
// scene::kLectureValueShare of the cell's height allows, up to the body type (numbers read from the back of the
// room: ≥ 18 px at 1080p for ≤ 16 tokens).
float largestValueSize(const ViewContext& ctx, const Grid& g) {
    if (!ctx.state.presenting) return smallSize(ctx);
    return std::max(smallSize(ctx), std::min(scene::kLectureValueShare * g.ch, ImGui::GetFontSize()));
}

// The words a computed map prints in its cells instead of its numbers (the logit lens's top tokens), or null.
const std::vector<std::string>* cellWords(const MatrixRef& ref) {
    return ref.computed && !ref.computed->cellTexts.empty() ? &ref.computed->cellTexts : nullptr;
}

// The numbers in the cells (scene/cell_values.h, as on paper), or a computed map's words, recorded in ctx.drawn's
// last heatmap. Returns the type size they were drawn at (px); 0 when the cells are too small for them. Words are
// printed also when numbers are switched off: they are the map's content.
float drawValues(ViewContext& ctx, ImDrawList& list, const Grid& g, const MatrixRef& ref, const Fitted& f, const ValueSummary& s,
                 colormap::Colormap map, render::HeatmapHandle mask, bool transposed) {
    const std::vector<std::string>* words = cellWords(ref);
    if (!ctx.state.showValues && words == nullptr) return 0.0f;
    // Weights print as ".12" when "0.12" does not fit (presenting: does not fit at the largest size): softmax maps
    // show their numbers in smaller cells. The type shrinks to fit a cell, down to the token labels' floor (a
    // projector's large type would otherwise hide them).
    const scene::TypeMeasure type = playedType(ctx.fonts);
    const float heightShare = ctx.state.presenting ? scene::kLectureValueShare / kLineHeightPerEm : kValueHeightShare;
    const scene::CellValueSizing sizing{g.cw, g.ch, largestValueSize(ctx, g) / kLineHeightPerEm, labelFloor(ctx) / kLineHeightPerEm, heightShare};
    const auto sizeFitting = [&](std::string widest) { return scene::cellValueSize(sizing, std::span(&widest, 1), type); };
    const bool weights = words == nullptr && followsProbabilityScale(ref, f.info);
    const bool shortForm = weights && (ctx.state.presenting ? sizeFitting("0.00") < sizing.full : sizeFitting("0.00") <= 0.0f);
    const float size = words ? scene::cellValueSize(sizing, *words, type) : sizeFitting(shortForm ? ".00" : weights ? "0.00" : "\u22120.00");
    if (size <= 0.0f) return 0.0f;
    const render::MatrixSlice values = matrixSlice(ctx.run, ref, ctx.state.batch);
    const render::MatrixSlice colors = colorSlice(ctx, ref, rowNormalisedColors(ctx, ref, f.info));
    const auto textOf = [&](int r, int c) {
        const auto [sr, sc] = displayed(r, c, transposed);
        if (words) return (*words)[static_cast<std::size_t>(sr) * static_cast<std::size_t>(values.cols) + static_cast<std::size_t>(sc)];
        const float v = valueAt(values, sr, sc);
        return shortForm ? formatProbabilityCell(v) : scene::formatCellValue(v);
    };
    const auto colourOf = [&](int r, int c) {
        const auto [sr, sc] = displayed(r, c, transposed);
        return cellMasked(ctx, ref, mask, sr, sc) ? colormap::kMaskedColor : colormap::sample(map, valueAt(colors, sr, sc), s.range.lo, s.range.hi);
    };
    const std::vector<scene::AxisLabel> numbers = scene::cellValues({g.min.x, g.min.y, g.cw, g.ch, f.rows, f.cols}, size, textOf, colourOf, type);
    playLabels(numbers, list, ctx.fonts);
    for (const scene::AxisLabel& number : numbers) ctx.drawn.back().cellValues.push_back(number.text);
    return size * kLineHeightPerEm;
}

// [SECTION] Decorations

void drawTitle(const ViewContext& ctx, ImDrawList& list, const Fitted& f, const HeatmapOptions& o, ImVec2 at, float width) {
    if (o.title == TitleStyle::None) return;
    const std::string name = (o.caption.empty() ? f.info.name : o.caption) + (o.transposed ? "ᵀ" : "");
    const std::string numbers = std::to_string(f.rows) + " × " + std::to_string(f.cols);
    const ImU32 nameColor = o.frameHead ? headColor(*o.frameHead) : kTextColor;
    ImFont* bold = font(ctx.fonts.bold);
    const float line = ImGui::GetFontSize();
    list.PushClipRect(at, {at.x + width, at.y + 2.0f * line + 2.0f}, true);
    list.AddText(bold, line, at, nameColor, name.c_str());
    const float nameWidth = textWidth(bold, line, name) + 8.0f * ctx.scale;
    if (o.title == TitleStyle::Compact) {
        if (nameWidth + textWidth(smallFont(ctx), smallSize(ctx), numbers) <= width) {
            list.AddText(smallFont(ctx), smallSize(ctx), {at.x + nameWidth, at.y + (line - smallSize(ctx))}, kDimText, numbers.c_str());
        }
    } else {
        std::string paper = f.info.paperShape;
        if (o.transposed) {
            const auto split = paper.find(" × ");
            if (split != std::string::npos) paper = paper.substr(split + 3) + " × " + paper.substr(0, split);
        }
        // A shape is never cut: when "d_model × h·d_k = 64 × 64" does not fit beside the name, the numbers alone do
        // (and shrink to the small font before they would be cut).
        const std::string full = paper + " = " + numbers;
        ImFont* regular = font(ctx.fonts.regular);
        if (nameWidth + textWidth(regular, line, full) <= width) {
            list.AddText(regular, line, {at.x + nameWidth, at.y}, kTextColor, full.c_str());
        } else if (nameWidth + textWidth(regular, line, numbers) <= width) {
            list.AddText(regular, line, {at.x + nameWidth, at.y}, kTextColor, numbers.c_str());
        } else {
            list.AddText(smallFont(ctx), smallSize(ctx), {at.x + nameWidth, at.y + (line - smallSize(ctx))}, kTextColor, numbers.c_str());
        }
        std::string tensor = "PyTorch " + f.info.tensorShape + " = " + f.info.numericShape + (o.transposed ? " (drawn transposed)" : "");
        if (textWidth(smallFont(ctx), smallSize(ctx), tensor) > width) tensor = "PyTorch " + f.info.numericShape;
        list.AddText(smallFont(ctx), smallSize(ctx), {at.x, at.y + line + 1.0f}, kDimText, fitText(tensor, width, smallFont(ctx), smallSize(ctx)).c_str());
    }
    list.PopClipRect();
}

// How an axis's labels fit cells `cellExtent` pixels long (scene::fitAxisLabels, as on paper): token labels shrink
// to fit their cells, down to a floor (70 % of the small font, never under 9 px), before any is skipped: every label
// of a 20-token sentence stays on screen at 1280×800. Numbers keep the small font.
scene::AxisLabelFit fitLabels(const ViewContext& ctx, Axis axis, int count, float cellExtent, const scene::LabelSizes& labels, int headBlock,
                              bool columns = false) {
    const float small = smallSize(ctx) / kLineHeightPerEm;
    scene::AxisFitSpec spec{count, cellExtent, isTokens(axis), columns, isTokens(axis) ? labels.full / kLineHeightPerEm : small,
                            labels.floor / kLineHeightPerEm, headBlock};
    if (columns && !isTokens(axis)) spec.widestNumber = textWidth(smallFont(ctx), smallSize(ctx), std::to_string(count - 1));
    return scene::fitAxisLabels(spec);
}

constexpr scene::LabelInk kLabelInk{{30, 30, 30, 255}, {30, 30, 30, 255}, {colormap::kFocusRowColor.r, colormap::kFocusRowColor.g, colormap::kFocusRowColor.b, 255}};

scene::TextWidthOf screenTextWidth(const ViewContext& ctx) {
    return [&ctx](std::string_view text, float size, scene::FontFace face) { return playedTextWidth(ctx.fonts, text, size, face); };
}

// Row labels, every `step`-th; the focused row's always, in bold and the focus colour (scene::rowLabels).
void drawRowLabels(const ViewContext& ctx, ImDrawList& list, const Grid& g, const Fitted& f, const scene::LabelSizes& labels, std::optional<int> focusRow) {
    const scene::AxisLabelFit fit = fitLabels(ctx, f.rowAxis, f.rows, g.ch, labels, f.blockRows);
    const scene::AxisLabelSpec spec{f.rows, fit.step, g.min.y, g.ch, g.min.x - 6.0f * ctx.scale, fit.size, focusRow};
    playLabels(scene::rowLabels(spec, [&](int r) { return shortLabel(ctx, f.info, f.rowAxis, r); }, screenTextWidth(ctx), kLabelInk), list, ctx.fonts);
}

// A head's tile framed in its colour, the focused query row outlined (scene/map_outlines.h, as on paper).
void drawOutlines(const ViewContext& ctx, ImDrawList& list, const Grid& g, const Fitted& f, const HeatmapOptions& o) {
    const int left = static_cast<int>(std::lround(g.min.x)), top = static_cast<int>(std::lround(g.min.y));
    const scene::PixelRect cells{left, top, static_cast<int>(std::lround(g.max.x)) - left, static_cast<int>(std::lround(g.max.y)) - top};
    scene::MapOutlineSpec spec{cells, f.rows, o.focusRow, std::nullopt, o.emphasized};
    if (o.frameHead) {
        const colormap::Rgb8 frame = colormap::headColor(*o.frameHead);
        spec.frame = scene::Rgba8{frame.r, frame.g, frame.b, 255};
    }
    for (const scene::Drawing::Stroke& stroke : scene::mapOutlines(spec)) playPrimitive(stroke, list, {0.0f, 0.0f}, ctx.fonts);
}

// Column labels (scene::columnLabels): tokens upwards from `bottom`, indices centred over their columns, dimmed.
void drawColumnLabels(const ViewContext& ctx, ImDrawList& list, const Grid& g, const Fitted& f, float bottom, const scene::LabelSizes& labels) {
    const bool tokens = isTokens(f.colAxis);
    const scene::AxisLabelFit fit = fitLabels(ctx, f.colAxis, f.cols, g.cw, labels, f.blockCols, true);
    const scene::AxisLabelSpec spec{f.cols, fit.step, g.min.x, g.cw, tokens ? bottom - 3.0f : bottom - 2.0f - kDescentPerEm * fit.size, fit.size, std::nullopt,
                                    std::numeric_limits<int>::max(), tokens};
    const scene::LabelInk ink = tokens ? kLabelInk : scene::LabelInk{{90, 90, 90, 255}, {90, 90, 90, 255}, {90, 90, 90, 255}};
    const auto text = [&](int c) { return tokens ? shortLabel(ctx, f.info, f.colAxis, c) : std::to_string(c); };
    playLabels(scene::columnLabels(spec, text, screenTextWidth(ctx), ink), list, ctx.fonts);
}

// A band in each head's colour over its block of columns ("head 2" in it when it fits), and beside its rows.
void drawHeadBands(const ViewContext& ctx, ImDrawList& list, const Grid& g, const Fitted& f, const Measure& m, int headsPerColour) {
    const float size = smallSize(ctx);
    for (const scene::HeadBand& band : scene::headBands(f.cols, f.blockCols, g.min.x, g.cw, headsPerColour)) {
        const ImVec2 a{band.from, g.min.y - m.band}, b{band.to, g.min.y - 2.0f};
        list.AddRectFilled(a, b, headColor(band.colour));
        const std::string label = (b.x - a.x > textWidth(smallFont(ctx), size, "head 00") + 4.0f ? "head " : "") + std::to_string(band.head);
        const float w = textWidth(smallFont(ctx), size, label);
        if (w + 2.0f <= b.x - a.x) list.AddText(smallFont(ctx), size, {(a.x + b.x - w) / 2.0f, a.y}, IM_COL32_WHITE, label.c_str());
    }
    for (const scene::HeadBand& band : scene::headBands(f.rows, f.blockRows, g.min.y, g.ch)) {
        list.AddRectFilled({g.min.x - m.rowBand, band.from}, {g.min.x - 2.0f, band.to}, headColor(band.colour));
    }
}

// Each labelled row's sum beside it, at its label's size (as on paper).
void drawRowSums(const ViewContext& ctx, ImDrawList& list, const Grid& g, const MatrixRef& ref, const Fitted& f, const scene::LabelSizes& labels,
                 bool transposed) {
    const float size = smallSize(ctx);
    const render::MatrixSlice values = matrixSlice(ctx.run, ref, ctx.state.batch);
    const scene::AxisLabelFit fit = fitLabels(ctx, f.rowAxis, f.rows, g.ch, labels, f.blockRows);
    list.AddText(smallFont(ctx), size, {g.max.x + 6.0f * ctx.scale, g.min.y - size - 2.0f}, kDimText, "row Σ");
    const auto sumOf = [&](int r) {
        double sum = 0.0;
        for (int c = 0; c < f.cols; ++c) {
            const auto [sr, sc] = displayed(r, c, transposed);
            sum += valueAt(values, sr, sc);
        }
        return formatValue(static_cast<float>(sum));
    };
    scene::AxisLabelSpec spec{f.rows, fit.step, g.min.y, g.ch, g.max.x + 6.0f * ctx.scale, fit.size};
    spec.fromEdge = true;
    playLabels(scene::rowLabels(spec, sumOf, screenTextWidth(ctx), kLabelInk), list, ctx.fonts);
}

// The colorbar's word on its range, under it: which probability scale is on (empty for other matrices).
std::string rangeNote(const ViewContext& ctx, bool probabilityScaled) {
    if (!probabilityScaled) return {};
    switch (ctx.state.probabilityScale) {
        case colormap::ProbabilityScale::MapMax: return "0 … map max";
        case colormap::ProbabilityScale::RowMax: return "÷ row max";
        case colormap::ProbabilityScale::Fixed: return "fixed 0 … 1";
    }
    return {};
}

// What the map's legend says, as an exported panel of it says (scene/legend.h). The screen draws every masked cell
// grey, so special values are looked for in the others only, and only in maps whose tensor the pass found them in.
scene::LegendFacts legendFactsFor(ViewContext& ctx, const MatrixRef& ref, const ValueSummary& s, const render::HeatmapHandle& mask) {
    const auto make = [&] {
        scene::LegendFacts facts;
        facts.isMaskMatrix = ref.source == MatrixSource::Trace && ref.tensor == core::TensorId::Mask;
        facts.maskedLabel = ref.source == MatrixSource::Computed ? ref.computed->maskedLegend : scene::maskedLegend(ref.tensor, ctx.run.trace.fill);
        const render::MatrixSlice values = matrixSlice(ctx.run, ref, ctx.state.batch);
        const auto masked = [&](int r, int c) { return cellMasked(ctx, ref, mask, r, c); };
        for (int r = 0; r < values.rows && mask && !facts.masked; ++r) {
            for (int c = 0; c < values.cols && !facts.masked; ++c) facts.masked = masked(r, c);
        }
        if (s.hasNan || s.hasInfinity) facts.special = scene::specialValuesIn(core::MatrixView(values.values.data(), values.rows, values.cols), masked);
        return facts;
    };
    if (ref.source == MatrixSource::Computed) return make();  // a question view's matrix may change within a run
    return ctx.summaries.legendFacts(textureKey(ref, ctx.state.batch, false), make);
}

// The swatch's look on screen: masked cells hatched grey, as the heatmap shader draws them.
void drawSwatch(ImDrawList& list, scene::LegendSwatch swatch, ImVec2 min, ImVec2 max) {
    switch (swatch) {
        case scene::LegendSwatch::Masked: addHatchedRect(list, min, max); return;
        case scene::LegendSwatch::Kept: list.AddRectFilled(min, max, toImU32(colormap::kKeptColor)); return;
        case scene::LegendSwatch::Nan: list.AddRectFilled(min, max, toImU32(colormap::kNanColor)); return;
        case scene::LegendSwatch::PositiveInf: list.AddRectFilled(min, max, toImU32(colormap::kPositiveInfColor)); return;
        case scene::LegendSwatch::NegativeInf: list.AddRectFilled(min, max, toImU32(colormap::kNegativeInfColor)); return;
    }
}

// What each legend entry's colour means, in the colour bar's tooltip.
const char* swatchExplanation(scene::LegendSwatch swatch) {
    switch (swatch) {
        case scene::LegendSwatch::Masked: return "Hatched grey: masked cells (the mask removed them).";
        case scene::LegendSwatch::Kept: return "Green: cells the mask keeps.";
        case scene::LegendSwatch::Nan: return "Magenta: NaN (not a number), e.g. softmax of a row masked with −∞.";
        case scene::LegendSwatch::PositiveInf: return "White: +∞.";
        case scene::LegendSwatch::NegativeInf: return "Near-black blue: −∞.";
    }
    return "";
}

void colorbarTooltip(const ViewContext& ctx, const ValueSummary& s, colormap::Colormap map, bool probability,
                     const std::vector<scene::LegendEntry>& legend) {
    ImGui::BeginTooltip();
    ImGui::Text("Colormap %s", std::string(colormap::name(map)).c_str());
    if (probability) {
        switch (ctx.state.probabilityScale) {
            case colormap::ProbabilityScale::MapMax: ImGui::Text("Probabilities: 0 … %s, the largest weight of this map.", formatValue(s.range.hi).c_str()); break;
            case colormap::ProbabilityScale::RowMax: ImGui::TextUnformatted("Probabilities: each row divided by its largest weight, so 1 is every query's favourite key."); break;
            case colormap::ProbabilityScale::Fixed: ImGui::TextUnformatted("Probabilities: fixed range 0 … 1."); break;
        }
        ImGui::TextUnformatted("View ▸ colour range in the left panel changes this.");
    } else {
        ImGui::Text("Signed values: symmetric range ±%s (largest |x| over all heads), 0 in the middle.", formatValue(s.range.hi).c_str());
    }
    for (const scene::LegendEntry& entry : legend) ImGui::TextUnformatted(swatchExplanation(entry.swatch));
    ImGui::EndTooltip();
}

// The height one legend entry takes: its words wrapped at `width` beside the swatch, at least one line.
float legendEntryHeight(const ViewContext& ctx, const scene::LegendEntry& entry, float width) {
    const float size = smallSize(ctx);
    const float wrap = std::max(width - size - 4.0f, size);
    return std::max(size, smallFont(ctx)->CalcTextSizeA(size, FLT_MAX, wrap, entry.label.c_str()).y) + 3.0f;
}

float legendHeight(const ViewContext& ctx, const std::vector<scene::LegendEntry>& legend, float width) {
    float height = 0.0f;
    for (const scene::LegendEntry& entry : legend) height += legendEntryHeight(ctx, entry, width);
    return height;
}

// The entries top to bottom from `at`, each a swatch and its words wrapped at `width`; returns the height used.
float drawLegend(const ViewContext& ctx, ImDrawList& list, const std::vector<scene::LegendEntry>& legend, ImVec2 at, float width) {
    const float size = smallSize(ctx), top = at.y;
    for (const scene::LegendEntry& entry : legend) {
        drawSwatch(list, entry.swatch, at, {at.x + size, at.y + size});
        list.AddText(smallFont(ctx), size, {at.x + size + 4.0f, at.y}, kTextColor, entry.label.c_str(), nullptr, std::max(width - size - 4.0f, size));
        at.y += legendEntryHeight(ctx, entry, width);
    }
    return at.y - top;
}

// Plays scene::colorbar's bar and records what it drew in ctx.drawn's last heatmap (tests compare it with paper's).
scene::PixelRect playColorbar(ViewContext& ctx, ImDrawList& list, const scene::ColorbarSpec& spec) {
    constexpr scene::ColorbarInk kInk{{70, 70, 76, 255}, {30, 30, 30, 255}};
    const scene::ColorbarPicture picture = scene::colorbar(spec, colorbarSizes(ctx), playedType(ctx.fonts), kInk);
    for (const scene::Drawing::Fill& fill : picture.colours) playPrimitive(fill, list, {0.0f, 0.0f}, ctx.fonts);
    playPrimitive(picture.frame, list, {0.0f, 0.0f}, ctx.fonts);
    for (const scene::Drawing::Fill& tick : picture.ticks) playPrimitive(tick, list, {0.0f, 0.0f}, ctx.fonts);
    playLabels(picture.labels, list, ctx.fonts);
    DrawnHeatmap& drawn = ctx.drawn.back();
    drawn.colorbar = spec;
    for (const scene::AxisLabel& label : picture.labels) drawn.colorbarLabels.push_back(label.text);
    return picture.bar;
}

int rounded(float pixels) { return static_cast<int>(std::lround(pixels)); }

void drawColorbar(ViewContext& ctx, ImDrawList& list, const Grid& g, const Measure& m, const HeatmapOptions& o,
                  const ValueSummary& s, colormap::Colormap map, bool probability, const scene::LegendFacts& facts) {
    const std::vector<scene::LegendEntry> legend = scene::legendEntries(facts);
    const std::string note = rangeNote(ctx, probability && !o.range);
    const float size = smallSize(ctx), pad = 4.0f * ctx.scale;
    // A near-uniform probability map's note (core::narrowRangeNote), in orange under the range's note: its colours
    // stretch a range of a few hundredths.
    // Beside the map, in the colorbar's narrow column: "narrow range:" over its two ends.
    std::string narrow = s.narrow.value_or("");
    if (const std::size_t colon = narrow.find(": "); colon != std::string::npos && o.colorbar == ColorbarSide::Right) narrow.replace(colon, 2, ":\n");
    const float narrowWrap = m.colorbarRight - 3.0f * pad;
    const float narrowHeight = s.narrow && o.colorbar == ColorbarSide::Right ? smallFont(ctx)->CalcTextSizeA(size, FLT_MAX, narrowWrap, narrow.c_str()).y + 3.0f : 0.0f;
    scene::PixelRect bar;
    if (o.colorbar == ColorbarSide::Right) {
        const float words = legendHeight(ctx, legend, narrowWrap) + (note.empty() ? 0.0f : size + 3.0f) + narrowHeight;
        // Never taller than the cells (it would run into the heading below): a short bar keeps only its top value.
        const float height = std::max(g.max.y - g.min.y - words, size);
        bar = playColorbar(ctx, list, {map, s.range, rounded(g.max.x + m.sums + 2.0f * pad), rounded(g.min.y), rounded(height)});
        const float legendTop = static_cast<float>(bar.bottom()) + 4.0f;
        const float noteY = legendTop + drawLegend(ctx, list, legend, {static_cast<float>(bar.x), legendTop}, narrowWrap);
        if (!note.empty()) list.AddText(smallFont(ctx), size, {static_cast<float>(bar.x), noteY}, kDimText, note.c_str());
        if (s.narrow) {
            const float narrowY = noteY + (note.empty() ? 0.0f : size + 3.0f);
            list.AddText(smallFont(ctx), size, {static_cast<float>(bar.x), narrowY}, kNarrowText, narrow.c_str(), nullptr, narrowWrap);
        }
    } else {
        const int width = std::max(rounded(g.max.x - g.min.x), scene::colorbarBelowMinWidth(s.range, colorbarSizes(ctx), playedType(ctx.fonts)));
        bar = playColorbar(ctx, list, {map, s.range, rounded(g.min.x), rounded(g.max.y + pad), width, true});
        const float right = static_cast<float>(bar.right()) + pad;
        float legendWidth = 0.0f;  // one line per entry, as wide as its longest
        for (const scene::LegendEntry& entry : legend) legendWidth = std::max(legendWidth, size + 4.0f + textWidth(smallFont(ctx), size, entry.label) + pad);
        drawLegend(ctx, list, legend, {right, static_cast<float>(bar.y)}, legendWidth);
        const float noteX = right + legendWidth;
        if (!note.empty()) list.AddText(smallFont(ctx), size, {noteX, static_cast<float>(bar.y)}, kDimText, note.c_str());
        if (s.narrow) list.AddText(smallFont(ctx), size, {noteX, static_cast<float>(bar.y) + (note.empty() ? 0.0f : size + 3.0f)}, kNarrowText, narrow.c_str());
    }
    const ImVec2 barMin{static_cast<float>(bar.x), static_cast<float>(bar.y)}, barMax{static_cast<float>(bar.right()), static_cast<float>(bar.bottom())};
    if (ImGui::IsMouseHoveringRect(barMin, barMax) && ImGui::IsWindowHovered()) colorbarTooltip(ctx, s, map, probability, legend);
    ctx.drawn.back().legend = legend;
}

void tokenTooltip(const ViewContext& ctx, const Grid& g, const Fitted& f, const Measure& m) {
    if (!ImGui::IsWindowHovered()) return;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (isTokens(f.rowAxis) && mouse.x >= g.min.x - m.rowLabels && mouse.x < g.min.x && mouse.y >= g.min.y && mouse.y < g.max.y) {
        const int r = static_cast<int>((mouse.y - g.min.y) / g.ch);
        ImGui::SetTooltip("%s  (token %d)", fullLabel(ctx, f.info, f.rowAxis, r).c_str(), r);
    }
    if (isTokens(f.colAxis) && mouse.y >= g.min.y - m.colLabels - m.band && mouse.y < g.min.y && mouse.x >= g.min.x && mouse.x < g.max.x) {
        const int c = static_cast<int>((mouse.x - g.min.x) / g.cw);
        ImGui::SetTooltip("%s  (token %d)", fullLabel(ctx, f.info, f.colAxis, c).c_str(), c);
    }
}

// "A₀ naive [it, animal] = 0.31": a question view's cell, which the inspector does not explain.
void computedTooltip(const ViewContext& ctx, const scene::Computed& computed, int row, int col) {
    MatrixInfo info;
    info.tokenLabels = computed.tokenLabels;
    const std::string rowName = fullLabel(ctx, info, computed.rowAxis, row);
    const std::string colName = fullLabel(ctx, info, computed.colAxis, col);
    ImGui::SetTooltip("%s [%s, %s] = %s", computed.name.c_str(), rowName.c_str(), colName.c_str(), formatValue(computed.values(row, col)).c_str());
}

// Hover and click over the cells: sets AppState::hovered (in the matrix's own coordinates), pins on click, and
// asks for the cell editor on a double-click (the value field) or right-click (the cell menu).
HeatmapResult interact(ViewContext& ctx, const MatrixRef& ref, const Grid& g, const Fitted& f, const HeatmapOptions& o) {
    const bool transposed = o.transposed;
    HeatmapResult result;
    ImGui::PushID(static_cast<int>(render::TextureKeyHash{}(textureKey(ref, 0, transposed)) & 0x7fffffff));
    ImGui::SetCursorScreenPos(g.min);
    ImGui::InvisibleButton("cells", {std::max(1.0f, g.max.x - g.min.x), std::max(1.0f, g.max.y - g.min.y)});
    result.clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
    if (ImGui::IsItemHovered()) {
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        const int r = std::clamp(static_cast<int>((mouse.y - g.min.y) / g.ch), 0, f.rows - 1);
        const int c = std::clamp(static_cast<int>((mouse.x - g.min.x) / g.cw), 0, f.cols - 1);
        const auto [sr, sc] = displayed(r, c, transposed);
        result.hovered = true;
        if (ref.source == MatrixSource::Computed) {  // a question view's own matrix: its value, nothing for the inspector
            computedTooltip(ctx, *ref.computed, sr, sc);
            ImGui::PopID();
            return result;
        }
        ctx.state.hovered = CellRef{ref, sr, sc};
        const bool doubleClicked = ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left);  // keeps the first click's pin
        if (result.clicked && o.pinOnClick && !doubleClicked) ctx.state.pinned = ctx.state.pinned == ctx.state.hovered ? std::nullopt : ctx.state.hovered;
        const bool rightClicked = ImGui::IsMouseClicked(ImGuiMouseButton_Right);
        if (o.pinOnClick && (doubleClicked || rightClicked)) {
            requestCellEdit(ctx, *ctx.state.hovered, rightClicked ? mouse : ImVec2(g.cellMin(r, c).x, g.cellMax(r, c).y), rightClicked);
        }
    }
    ImGui::PopID();
    return result;
}

// The explained cell in white (it was hovered last frame), the pinned one in orange.
void outlinePointer(const ViewContext& ctx, ImDrawList& list, const Grid& g, const MatrixRef& ref, bool transposed) {
    const auto mark = [&](const std::optional<CellRef>& cell, ImU32 color) {
        if (!cell || !(cell->matrix == ref)) return;
        const auto [r, c] = displayed(cell->row, cell->col, transposed);
        outline(list, g.cellMin(r, c), g.cellMax(r, c), color, 2.0f);
    };
    if (ctx.explanation && ctx.explanation->cell != ctx.state.pinned) mark(ctx.explanation->cell, IM_COL32(255, 255, 255, 255));
    mark(ctx.state.pinned, IM_COL32(255, 120, 0, 255));
}

}  // namespace

colormap::Range sharedWeightsRange(const std::vector<std::pair<const ViewContext*, MatrixRef>>& maps) {
    colormap::Range range{0.0f, 0.0f};
    for (const auto& [view, ref] : maps) {
        const render::MatrixSlice slice = matrixSlice(view->run, ref, view->state.batch);
        range.hi = std::max(range.hi, view->summaries.probabilityRange(slice, maps.front().first->state.probabilityScale).hi);
    }
    return range;
}

int longestTokenAxis(const ViewContext& ctx) { return std::max(ctx.run.trace.queryLength, ctx.run.trace.keyLength); }

scene::Rules layoutRules(const ViewContext& ctx) {
    scene::Rules rules{ctx.scale, scene::labelSizes(smallSize(ctx), ctx.state.presenting, 0)};
    rules.mapLabelFloor = scene::labelSizes(smallSize(ctx), ctx.state.presenting, longestTokenAxis(ctx)).floor;
    if (ctx.state.presenting) rules.tokenGrowth = scene::kLectureTokenGrowth;
    return rules;
}
float smallestLabelledCell(const ViewContext& ctx) { return layoutRules(ctx).labelledCell(); }
float comfortableTokenRow(const ViewContext& ctx) { return layoutRules(ctx).comfortableRow(); }

ImVec2 displayShape(const ViewContext& ctx, const MatrixRef& ref, bool transposed) {
    const Fitted f = fitted(ctx, ref, transposed);
    return {static_cast<float>(f.rows), static_cast<float>(f.cols)};
}

Insets heatmapInsets(const ViewContext& ctx, const MatrixRef& ref, const HeatmapOptions& options) {
    const Fitted f = fitted(ctx, ref, options.transposed);
    const Measure m = measure(ctx, f, options, summaryFor(ctx, ref, f.info, options).range);
    return {m.rowLabels + m.rowBand, m.title + m.colLabels + m.band, m.sums + m.colorbarRight, m.colorbarBelow};
}

HeatmapResult drawHeatmap(ViewContext& ctx, const MatrixRef& ref, ImVec2 cellsMin, ImVec2 cellsMax, const HeatmapOptions& o) {
    const Fitted f = fitted(ctx, ref, o.transposed);
    const ValueSummary s = summaryFor(ctx, ref, f.info, o);
    const Measure m = measure(ctx, f, o, s.range);
    const Grid g{cellsMin, cellsMax, (cellsMax.x - cellsMin.x) / static_cast<float>(std::max(1, f.cols)),
                 (cellsMax.y - cellsMin.y) / static_cast<float>(std::max(1, f.rows))};
    ImDrawList& list = *ImGui::GetWindowDrawList();
    const colormap::Colormap map = colormapFor(ctx, f.info);
    const render::HeatmapHandle mask = maskFor(ctx, ref);
    const bool rowNormalised = rowNormalisedColors(ctx, ref, f.info);
    // Shrunk to fewer pixels than cells, a map with a feature axis shows each block's mean (its many independent
    // values would all show their extremes and saturate); a token-by-token map its strongest cell.
    const bool features = f.info.rowAxis == Axis::Features || f.info.colAxis == Axis::Features;
    const render::HeatmapHandle values = ctx.renderer.heatmap(
        textureKey(ref, ctx.state.batch, o.transposed, false, rowNormalised), [&] { return colorSlice(ctx, ref, rowNormalised); }, o.transposed,
        features ? render::Downsample::Mean : render::Downsample::Strongest);
    ctx.renderer.draw(list, values, g.min, g.max, {map, s.range.lo, s.range.hi, mask});
    ctx.drawn.push_back({ref, g.min, g.max, f.rows, f.cols, o.transposed, o.colorbar != ColorbarSide::None ? s.narrow.value_or("") : ""});

    drawGridLines(list, g, f.rows, f.cols);
    if (o.headBlocks) drawHeadBlocks(list, g, f, std::max(1, o.headsPerColour), 2.0f);
    ctx.drawn.back().valuePx = drawValues(ctx, list, g, ref, f, s, map, mask, o.transposed);
    drawOutlines(ctx, list, g, f, o);
    drawHighlights(ctx, list, g, ref, f, o.transposed);
    outlinePointer(ctx, list, g, ref, o.transposed);
    drawEditMarks(ctx, list, ref, g.min, {g.cw, g.ch}, o.transposed);

    const float outerLeft = g.min.x - m.rowLabels - m.rowBand;
    const float outerTop = g.min.y - m.title - m.colLabels - m.band;
    drawTitle(ctx, list, f, o, {outerLeft, outerTop}, (g.max.x + m.sums + m.colorbarRight) - outerLeft);
    if (o.rowLabels) drawRowLabels(ctx, list, g, f, tokenLabels(ctx, o), o.focusRow);
    if (o.colLabels) drawColumnLabels(ctx, list, g, f, g.min.y - m.band, tokenLabels(ctx, o));
    if (o.headBlocks) drawHeadBands(ctx, list, g, f, m, std::max(1, o.headsPerColour));
    if (o.rowSums) drawRowSums(ctx, list, g, ref, f, tokenLabels(ctx, o), o.transposed);
    if (o.colorbar != ColorbarSide::None) drawColorbar(ctx, list, g, m, o, s, map, followsProbabilityScale(ref, f.info), legendFactsFor(ctx, ref, s, mask));
    tokenTooltip(ctx, g, f, m);

    HeatmapResult result = interact(ctx, ref, g, f, o);
    result.outerMin = {outerLeft, outerTop};
    result.outerMax = {g.max.x + m.sums + m.colorbarRight, g.max.y + m.colorbarBelow};
    return result;
}

HeatmapResult drawHeatmapInBox(ViewContext& ctx, const MatrixRef& ref, ImVec2 boxMin, ImVec2 boxMax, const HeatmapOptions& o) {
    const Fitted f = fitted(ctx, ref, o.transposed);
    const Insets in = heatmapInsets(ctx, ref, o);
    const float availW = std::max(1.0f, boxMax.x - boxMin.x - in.left - in.right);
    const float availH = std::max(1.0f, boxMax.y - boxMin.y - in.top - in.bottom);
    const float maxCell = kMaxCell * ctx.scale;
    float cw = std::min(availW / static_cast<float>(f.cols), maxCell);
    float ch = std::min(availH / static_cast<float>(f.rows), maxCell);
    const bool square = f.rows == f.cols || (isTokens(f.rowAxis) && isTokens(f.colAxis));
    if (square) cw = ch = std::min(cw, ch);
    cw = std::min(cw, 4.0f * ch);  // no cell more than 4:1, so matrices keep a readable shape, except that
    ch = std::min(ch, std::max(4.0f * cw, isTokens(f.rowAxis) ? tokenLabels(ctx, o).full + 5.0f : 0.0f));  // token rows keep their labels
    const ImVec2 cellsMin{boxMin.x + in.left, boxMin.y + in.top};
    return drawHeatmap(ctx, ref, cellsMin, {cellsMin.x + cw * static_cast<float>(f.cols), cellsMin.y + ch * static_cast<float>(f.rows)}, o);
}

}  // namespace attnviz::ui
