// panel_content.h — from a ModelRun to what one heatmap panel shows: the slice of a Trace tensor (one sentence,
// one head, transposed if asked), token or index labels, masked cells, colormap and range, title and captions.
//
// Shapes: a b × h × l_q × l_k tensor gives its (batch, head) slice l_q × l_k; b × l × d gives (batch) l × d;
// weights are d × d' as they are. Transposed (K_i^T in S_i = Q_i K_i^T) swaps the slice and its axes.
// What this file deliberately does not do: measure or draw (matrix_panel.h), or place panels (figure.cpp).
#pragma once

#include "core/model.h"
#include "export/figure.h"
#include "export/matrix_panel.h"

#include <optional>
#include <vector>

namespace attnviz::exporting {

struct MatrixRequest {
    core::TensorId tensor = core::TensorId::X;
    int head = 0;
    bool transposed = false;
};

// Cell sizes in base pixels, one for token axes and one for feature-index axes.
struct CellPlan {
    int feature = 8;
    int token = 16;
};

// The displayed values, rows × cols. Throws ExportError when the tensor is empty in this run.
core::Matrix matrixValues(const core::ModelRun& run, const MatrixRequest& request, int batch);
// The colormap a request is drawn with under this style.
colormap::Colormap chosenColormap(core::TensorId id, const FigureStyle& style);
// One range over every request's values (masked scores left out), for panels that share a color scale.
colormap::Range sharedRange(const core::ModelRun& run, const std::vector<MatrixRequest>& requests, int batch,
                            const FigureStyle& style);

// Attention weights whose values span less than 0.2 get a last caption line "narrow range: a … b"
// (core::narrowRangeNote): on "0 … map max" their colours stretch a few hundredths. panelContent calls it; a figure
// that trims the captions calls it again after.
void markNarrowRange(PanelContent& content, core::TensorId tensor);

// `range`: a shared color scale, or nullopt for the matrix's own. Captions (shape, slice, axes) are left out
// when `withCaptions` is false (the heads grid states them once for all panels).
PanelContent panelContent(const core::ModelRun& run, const MatrixRequest& request, int batch, const FigureStyle& style,
                          std::optional<colormap::Range> range, bool withCaptions);
// E[ids] (`positions` false) or the positional encoding PE of sentence `batch`: l × d_model, token rows, coloured on
// X's range when X = E[ids] + PE, so the three maps of the embedding stage read on one scale.
PanelContent embeddingContent(const core::ModelRun& run, bool positions, int batch, const FigureStyle& style);
// The range the window colours `id` on: its finite extremes over every sentence and head (masked scores: the
// scaled scores' range).
colormap::Range screenRange(const core::ModelRun& run, core::TensorId id, colormap::Colormap map);
PanelOptions panelOptions(const PanelContent& content, CellPlan cells, const FigureStyle& style, bool colorbar);

// Rows and columns of the displayed matrix, and whether each axis is tokens (for cell planning).
struct DisplayedShape {
    int rows = 0, cols = 0;
    bool tokenRows = false, tokenCols = false;
};
DisplayedShape displayedShape(const core::ModelRun& run, const MatrixRequest& request);

}  // namespace attnviz::exporting
