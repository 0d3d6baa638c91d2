// matrix_info.h — what the views need to know about one on-screen matrix: its data slice, its name, its
// shape in paper notation and as a PyTorch tensor, what its rows and columns are (tokens or feature
// indices), its head blocks and how it is colored.
//
// Reads a ModelRun; draws nothing, and knows nothing of layout or GL. One place for these facts, so the
// heatmap widget, the inspector and the tests agree on them.
#pragma once

#include "render/heatmap_renderer.h"
#include "scene/scene.h"
#include "ui/app_state.h"

#include <cstdint>
#include <string>

namespace attnviz::ui {

// What one axis of a matrix counts (the core's table says it for every tensor).
using core::Axis;
using core::isPerHead;

struct MatrixInfo {
    int rows = 0;               // of the chosen batch element and head's matrix (its values: matrixSlice)
    int cols = 0;
    Axis rowAxis = Axis::Features;
    Axis colAxis = Axis::Features;
    std::string name;           // "Q₂", "W^Q", "E[ids]"
    std::string paperShape;     // the matrix as in the paper: "l × d_k"
    std::string tensorShape;    // the whole tensor as PyTorch holds it: "b × h × l × d_k"
    std::string numericShape;   // the same in numbers: "1 × 8 × 13 × 8"
    int headBlockCols = 0;      // > 0: columns are h blocks of this width (W^Q, Q, Z …), one per head
    int headBlockRows = 0;      // > 0: rows are h blocks (W^O)
    bool probability = false;   // fixed [0, 1] on a sequential map; else ±max|x| on a diverging one
    std::vector<std::string> tokenLabels;  // a computed matrix's own token labels (scene::Computed); empty: the run's
};

// Whether the run holds data for `ref` (no mask tensor when the mask is off, no X_dec in self-attention).
bool hasMatrix(const core::ModelRun& run, const MatrixRef& ref);
// Everything above for `ref` at batch element `batch`, without reading a value. Requires hasMatrix(run, ref).
MatrixInfo matrixInfo(const core::ModelRun& run, const MatrixRef& ref, int batch);
// The values. A view into the run, except for the score maps a large run derives on demand (core/derived_maps.h:
// one GEMM, then cached): read them when needed, not every frame.
render::MatrixSlice matrixSlice(const core::ModelRun& run, const MatrixRef& ref, int batch);
inline float valueAt(const render::MatrixSlice& m, int row, int col) {
    return m.values[static_cast<std::size_t>(row) * static_cast<std::size_t>(m.cols) + static_cast<std::size_t>(col)];
}

// The token an axis index stands for ("<pad>" past the sentence end); for feature axes the index itself.
std::string axisLabel(const core::ModelRun& run, Axis axis, int batch, int index);
// "₂" for head 2: the scene's, one spelling of head numbers for the screen and the figures.
using scene::subscript;
// A key for HeatmapRenderer::heatmap(): one per (matrix, batch, transposed, mask-or-values); a question view's
// matrix by its identity (its own source, never equal to a run tensor's key). `rowNormalised`: the texture holds
// each row divided by its largest value (the "row max" colour range).
render::TextureKey textureKey(const MatrixRef& ref, int batch, bool transposed, bool isMask = false, bool rowNormalised = false);
// The tensor whose range colors `ref`: E[ids], PE and X share X's, so E + PE = X reads in one scale.
core::TensorId rangeTensor(const MatrixRef& ref);

}  // namespace attnviz::ui
