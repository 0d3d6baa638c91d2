// panel_content.cpp — slicing, labels, masks, ranges and captions for one heatmap. See panel_content.h.
#include "export/panel_content.h"

#include "core/derived_maps.h"
#include "core/display_text.h"
#include "core/narrow_range.h"
#include "core/stages.h"
#include "export/export_error.h"
#include "export/notation.h"

#include <algorithm>
#include <cmath>

namespace attnviz::exporting {
namespace {

using core::TensorId;

constexpr std::string_view kPaddingLabel = "[PAD]";

// Throws ExportError saying why when the run has no such matrix.
void requireMatrix(const core::ModelRun& run, TensorId id) {
    if (run.trace.has(id)) return;
    const std::string key(core::tensorInfo(id).key);
    if (id == TensorId::Mask) {
        throw ExportError("The matrix 'mask' is empty in this run because no mask is applied; choose --mask padding, "
                          "causal or both, or another matrix.");
    }
    if (id == TensorId::XQuery) {
        throw ExportError("The matrix 'x_query' exists only in cross-attention (--cross); choose another matrix.");
    }
    throw ExportError("The matrix '" + key + "' is empty in this run.");
}

// The slice a figure shows: (batch, head) of b × h × … tensors, (batch) of b × … ones, weights as they are;
// derived maps derived (core/derived_maps.h).
core::MapSlice sliceOf(const core::ModelRun& run, TensorId id, int batch, int head) {
    requireMatrix(run, id);
    return core::mapSlice(run.trace, id, batch, head);
}

std::vector<std::string> splitShape(const std::string& symbolic) {
    std::vector<std::string> parts;
    const std::string separator = " \u00D7 ";
    std::size_t at = 0;
    for (std::size_t next; (next = symbolic.find(separator, at)) != std::string::npos; at = next + separator.size()) {
        parts.push_back(symbolic.substr(at, next - at));
    }
    parts.push_back(symbolic.substr(at));
    return parts;
}

std::string joinShape(const std::vector<std::string>& parts) {
    std::string text;
    for (const std::string& part : parts) text += (text.empty() ? "" : " \u00D7 ") + part;
    return text;
}

// The tensor's shape in symbols, "b × h × l × d_k" (the mask's as the Trace holds it: 1 or l_q rows).
std::vector<std::string> symbolicDims(TensorId id, const core::Trace& trace) {
    if (id != TensorId::Mask) return splitShape(core::symbolicShape(id, trace));
    const std::string queries = trace.cross ? "l_q" : "l", keys = trace.cross ? "l_k" : "l";
    return {"b", "1", trace[id].rows() == 1 ? "1" : queries, keys};
}

std::vector<std::string> numericDims(const core::Tensor& tensor) {
    std::vector<std::string> parts;
    for (int extent : tensor.shape) parts.push_back(std::to_string(extent));
    return parts;
}

// "head 2 of b × h × l × d_k = 1 × 8 × 11 × 8": where the displayed slice comes from (empty for weights).
std::string sliceCaption(TensorId id, const core::ModelRun& run, int batch, int head) {
    const core::Tensor& tensor = run.trace[id];
    if (tensor.rank() <= 2) return {};
    std::string where;
    if (run.trace.batch > 1) where = "sentence " + std::to_string(batch);
    if (isPerHead(id)) where += (where.empty() ? "" : ", ") + std::string("head ") + std::to_string(head);
    const std::string whole = joinShape(symbolicDims(id, run.trace)) + " = " + joinShape(numericDims(tensor));
    if (id == TensorId::Mask) return whole + ", broadcast over heads";
    return where.empty() ? "from " + whole : where + " of " + whole;
}

std::vector<std::string> captions(const core::ModelRun& run, const MatrixRequest& request, int batch,
                                  const MatrixNotation& axes, const core::Matrix& values) {
    std::vector<std::string> dims = symbolicDims(request.tensor, run.trace);
    std::string rowSymbol = dims[dims.size() - 2], colSymbol = dims.back();
    if (request.transposed) std::swap(rowSymbol, colSymbol);
    std::string shape = rowSymbol + " \u00D7 " + colSymbol + " = " + std::to_string(values.rows()) + " \u00D7 " +
                        std::to_string(values.cols());
    if (request.transposed) shape += ", transposed";
    std::vector<std::string> lines{shape};
    if (std::string slice = sliceCaption(request.tensor, run, batch, request.head); !slice.empty()) {
        lines.push_back(std::move(slice));
    }
    lines.push_back("rows: " + axes.rows.role + "  \u00B7  columns: " + axes.cols.role);
    return lines;
}

PanelAxis axisLabels(const AxisNotation& notation, int count, const core::ModelRun& run, int batch) {
    PanelAxis axis;
    axis.headBlock = notation.headBlock;
    if (notation.kind == AxisKind::Index) {
        for (int i = 0; i < count; ++i) axis.labels.push_back(std::to_string(i));
        return axis;
    }
    const auto& sentences = notation.kind == AxisKind::QueryTokens ? run.queryTokens : run.tokens;
    const std::vector<std::string>& tokens = sentences.at(static_cast<std::size_t>(batch));
    axis.tokens = true;
    axis.paddingFrom = static_cast<int>(tokens.size());
    for (int i = 0; i < count; ++i) {
        // Cut as the screen cuts a token (core::labelText: 48 characters, then …), before any width is measured.
        axis.labels.push_back(i < axis.paddingFrom ? core::labelText(tokens[static_cast<std::size_t>(i)]) : std::string(kPaddingLabel));
    }
    return axis;
}

bool hidesMaskedCells(TensorId id) { return id == TensorId::MaskedScores || id == TensorId::AttentionWeights; }

// rows × cols flags, 1 where the Trace's mask (broadcast over heads and, for padding, over query rows) is 0.
std::vector<std::uint8_t> maskedCells(const core::ModelRun& run, TensorId id, int batch, const core::Matrix& values) {
    const core::Tensor& mask = run.trace[TensorId::Mask];
    if (!hidesMaskedCells(id) || mask.empty()) return {};
    const core::MatrixView m = mask.slice(batch, 0);
    std::vector<std::uint8_t> masked(static_cast<std::size_t>(values.size()), 0);
    bool any = false;
    for (Eigen::Index r = 0; r < values.rows(); ++r) {
        for (Eigen::Index c = 0; c < values.cols(); ++c) {
            const bool hidden = m(m.rows() == 1 ? 0 : r, c) == 0.0f;
            masked[static_cast<std::size_t>(r * values.cols() + c)] = hidden ? 1 : 0;
            any = any || hidden;
        }
    }
    return any ? masked : std::vector<std::uint8_t>{};
}

// The values a color scale must cover: every finite-or-not value except masked scores (their fill value
// would squash every real score into the middle of the scale).
void appendRangeValues(std::vector<float>& out, const core::Matrix& values, const std::vector<std::uint8_t>& masked,
                       TensorId id) {
    for (Eigen::Index i = 0; i < values.size(); ++i) {
        const bool skip = id == TensorId::MaskedScores && !masked.empty() && masked[static_cast<std::size_t>(i)];
        if (!skip) out.push_back(values.data()[i]);
    }
}

// The values of a matrix row after row (Eigen stores column after column).
std::vector<float> rowMajor(const core::Matrix& values) {
    std::vector<float> out;
    out.reserve(static_cast<std::size_t>(values.size()));
    for (Eigen::Index r = 0; r < values.rows(); ++r) {
        for (Eigen::Index c = 0; c < values.cols(); ++c) out.push_back(values(r, c));
    }
    return out;
}

}  // namespace

core::Matrix matrixValues(const core::ModelRun& run, const MatrixRequest& request, int batch) {
    const core::MapSlice slice = sliceOf(run, request.tensor, batch, request.head);
    if (request.transposed) return slice.view().transpose();
    return slice.view();
}

colormap::Colormap chosenColormap(TensorId id, const FigureStyle& style) {
    return style.colormap.value_or(defaultColormap(id));
}

// The range the window colors a tensor on (ui SummaryCache): its finite extremes over every sentence and head,
// so a head's figure matches the screen and heads exported one by one share a scale. Masked scores take the
// scaled scores' range (the fill value would squash every real score into the middle).
colormap::Range screenRange(const core::ModelRun& run, TensorId id, colormap::Colormap map) {
    const TensorId scaleOf = id == TensorId::MaskedScores ? TensorId::ScaledScores : id;
    const core::ValueStats stats = core::valueStats(run.trace, scaleOf);
    return colormap::rangeFromExtremes(stats.lo, stats.hi, stats.maxAbs, rangeKind(id, map));
}

colormap::Range sharedRange(const core::ModelRun& run, const std::vector<MatrixRequest>& requests, int batch,
                            const FigureStyle& style) {
    std::vector<float> values;
    for (const MatrixRequest& request : requests) {
        const core::Matrix matrix = matrixValues(run, request, batch);
        appendRangeValues(values, matrix, maskedCells(run, request.tensor, batch, matrix), request.tensor);
    }
    const TensorId first = requests.front().tensor;
    if (first == TensorId::AttentionWeights) return colormap::probabilityRange(values, style.probabilityScale);
    return colormap::computeRange(values, rangeKind(first, chosenColormap(first, style)));
}

void markNarrowRange(PanelContent& content, TensorId tensor) {
    if (tensor != TensorId::AttentionWeights) return;
    if (std::optional<std::string> narrow = core::narrowRangeNote(rowMajor(content.values))) content.captions.push_back(std::move(*narrow));
}

PanelContent panelContent(const core::ModelRun& run, const MatrixRequest& request, int batch, const FigureStyle& style,
                          std::optional<colormap::Range> range, bool withCaptions) {
    const TensorId id = request.tensor;
    PanelContent content;
    content.values = matrixValues(run, request, batch);
    MatrixNotation axes = matrixNotation(id, run.trace);
    if (request.transposed) std::swap(axes.rows, axes.cols);
    content.title = request.transposed ? matrixSymbol(id, std::to_string(request.head)) + "^T"
                                       : matrixTitle(id, std::to_string(request.head), run.trace, run.spec);
    if (withCaptions) content.captions = captions(run, request, batch, axes, content.values);
    content.rows = axisLabels(axes.rows, static_cast<int>(content.values.rows()), run, batch);
    content.cols = axisLabels(axes.cols, static_cast<int>(content.values.cols()), run, batch);
    content.masked = maskedCells(run, id, batch, content.values);
    content.maskedLook = id == TensorId::MaskedScores ? MaskedLook::GreyHatched : MaskedLook::HatchedOverColor;
    content.maskedLegend = scene::maskedLegend(id, run.trace.fill);
    content.isMaskMatrix = id == TensorId::Mask;
    content.map = chosenColormap(id, style);
    const bool weights = id == TensorId::AttentionWeights;
    if (weights && style.probabilityScale == colormap::ProbabilityScale::RowMax) {
        content.colorValues = content.values;
        const std::vector<float> rows = colormap::rowNormalised(rowMajor(content.values), static_cast<int>(content.values.rows()),
                                                                static_cast<int>(content.values.cols()));
        for (Eigen::Index r = 0; r < content.values.rows(); ++r) {
            for (Eigen::Index c = 0; c < content.values.cols(); ++c) content.colorValues(r, c) = rows[static_cast<std::size_t>(r * content.values.cols() + c)];
        }
    }
    if (range) {
        content.range = *range;
    } else if (weights) {
        content.range = colormap::probabilityRange(rowMajor(content.values), style.probabilityScale);
    } else {
        content.range = screenRange(run, id, content.map);
    }
    if (weights && withCaptions) content.captions.push_back("colours: " + std::string(colormap::describe(style.probabilityScale)));
    markNarrowRange(content, id);  // on every export, captioned or not
    if (isPerHead(id)) content.head = request.head;
    return content;
}

PanelContent embeddingContent(const core::ModelRun& run, bool positions, int batch, const FigureStyle& style) {
    PanelContent content;
    const int tokens = run.trace.keyLength;
    content.values = positions ? core::Matrix(run.positions.slice(0).topRows(tokens)) : core::Matrix(run.embeddings.slice(batch));
    content.title = positions ? "PE" : "E[ids]";
    content.captions = {"l \u00D7 d_model = " + std::to_string(content.values.rows()) + " \u00D7 " + std::to_string(content.values.cols())};
    const int rows = static_cast<int>(content.values.rows()), cols = static_cast<int>(content.values.cols());
    content.rows = axisLabels({AxisKind::KeyTokens, "tokens", 0}, rows, run, batch);
    content.cols = axisLabels({AxisKind::Index, "features", 0}, cols, run, batch);
    content.map = chosenColormap(TensorId::X, style);
    // On X's scale where X = E[ids] + PE; a trained model's X is blocks later, larger: E and PE on their own.
    content.range = run.spec.trainedModel() ? colormap::computeRange(rowMajor(content.values), rangeKind(TensorId::X, content.map))
                                     : screenRange(run, TensorId::X, content.map);
    return content;
}

PanelOptions panelOptions(const PanelContent& content, CellPlan cells, const FigureStyle& style, bool colorbar) {
    PanelOptions options;
    options.cellWidth = content.cols.tokens ? cells.token : cells.feature;
    options.cellHeight = content.rows.tokens ? cells.token : cells.feature;
    options.colorbar = colorbar;
    options.cellValues = style.cellValues;
    return options;
}

DisplayedShape displayedShape(const core::ModelRun& run, const MatrixRequest& request) {
    requireMatrix(run, request.tensor);
    const core::Tensor& tensor = run.trace[request.tensor];  // its shape: a derived map has one too
    const MatrixNotation axes = matrixNotation(request.tensor, run.trace);
    DisplayedShape shape{tensor.rows(), tensor.cols(), axes.rows.kind != AxisKind::Index,
                         axes.cols.kind != AxisKind::Index};
    if (request.transposed) {
        std::swap(shape.rows, shape.cols);
        std::swap(shape.tokenRows, shape.tokenCols);
    }
    return shape;
}

}  // namespace attnviz::exporting
