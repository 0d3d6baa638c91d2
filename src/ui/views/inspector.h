// inspector.h — how one cell was computed, as data: the hover inspector prints it and the matrix views
// outline the operand rows and columns it names.
//
// For a product cell (Q = XW^Q, S = QKᵀ, Z = AV, O = ZW^O) the dot product is recomputed from the operands
// and its largest terms listed; for a softmax cell, its row of scores with max and sum; for a masked cell,
// which mask and why; for NaN, where it came from. Pure: reads a ModelRun, no ImGui, so tests assert on it.
#pragma once

#include "ui/app_state.h"

#include <optional>
#include <string>
#include <vector>

namespace attnviz::ui {

// A part of another matrix this cell was made from, outlined while the cell is hovered.
struct Highlight {
    enum class Kind { Row, Column, Cell };
    MatrixRef matrix;
    Kind kind = Kind::Cell;
    int row = 0;  // for Row and Cell
    int col = 0;  // for Column and Cell
};

// One term a_j · b_j of a dot product.
struct DotTerm {
    int index = 0;       // j
    std::string label;   // "dim 3", or the key token for Z = AV
    float left = 0.0f;   // a_j
    float right = 0.0f;  // b_j
    float product = 0.0f;
};

// The softmax of one row of masked scores, for an attention-weight cell.
struct SoftmaxDetail {
    std::vector<float> scores;       // the row of masked scores S_i[r, :] (l_k)
    std::vector<bool> masked;        // l_k: true where the mask removed the key
    std::vector<std::string> keys;   // l_k key tokens
    float max = 0.0f;                // max_j scores[j]
    double sumExp = 0.0;             // Σ_j exp(scores[j] − max)
    double rowSum = 0.0;             // Σ_j A[r, j]: 1 unless the row is fully masked
    int column = 0;                  // the hovered key
};

struct Explanation {
    CellRef cell;
    float value = 0.0f;
    std::string where;               // "A₂ row 1 “animal”, column 9 “it”"
    std::string formula;             // "A₂[1, 9] = exp(S[1, 9] − max) / Σ_j exp(S[1, j] − max)"
    std::vector<std::string> notes;  // plain sentences: what the cell means, masks, NaN, heads
    std::vector<DotTerm> terms;      // products only: the largest |a_j · b_j| first
    int termCount = 0;               // length of the dot product (d_model, d_k or l_k)
    float termSum = 0.0f;            // Σ_j a_j · b_j (+ bias), recomputed; equals `value` up to rounding
    std::optional<SoftmaxDetail> softmax;
    std::vector<Highlight> highlights;
    bool masked = false;             // the mask removed this cell (mask, masked scores, weights)
};

inline constexpr int kListedTerms = 6;

// Explains `cell` of the run at batch element `batch`; nullopt when the cell is outside its matrix.
std::optional<Explanation> explainCell(const core::ModelRun& run, const CellRef& cell, int batch);

}  // namespace attnviz::ui
