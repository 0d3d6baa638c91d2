// cell_edits.cpp — cell edits in the spec, without a window. See cell_edits.h.
#include "ui/session/cell_edits.h"

#include "core/tokenizer.h"

#include <algorithm>

namespace attnviz::ui {

using core::TensorId;

bool isInputTensor(TensorId t) { return t == TensorId::X || t == TensorId::XQuery; }

namespace {

bool sameCell(const core::CellEdit& a, const core::CellEdit& b) {
    return a.matrix == b.matrix && a.batch == b.batch && a.row == b.row && a.col == b.col;
}

// [SECTION] Which cells exist

// Rows × columns of the matrix an edit writes, for `spec`; nullopt when the matrix does not exist (X_dec without
// decoder sentences, a sentence past the batch) or its sentence cannot be tokenized (then the run says why).
struct Shape {
    long long rows = 0, cols = 0;
};

std::optional<Shape> inputShape(const core::ModelSpec& spec, const core::CellEdit& e, int dModel) {
    const std::vector<std::string>& sentences = e.matrix == TensorId::XQuery ? core::seededChoices(spec).decoderSentences : spec.sentences;
    if (e.batch < 0 || e.batch >= static_cast<int>(sentences.size())) return std::nullopt;
    try {
        const core::Encoding tokens = core::tokenizerOf(spec)->encode(sentences[static_cast<std::size_t>(e.batch)]);
        return Shape{static_cast<long long>(tokens.ids.size()), dModel};
    } catch (const core::InputError&) {
        return Shape{-1, -1};  // unknown: keep the edit
    }
}

std::optional<Shape> editedShape(const core::ModelSpec& spec, const core::CellEdit& e, const core::Dimensions& d) {
    const long long hk = static_cast<long long>(d.heads) * d.dK, hv = static_cast<long long>(d.heads) * d.dV;
    switch (e.matrix) {
        case TensorId::X: case TensorId::XQuery: return inputShape(spec, e, d.dModel);
        case TensorId::WQ: case TensorId::WK: return Shape{d.dModel, hk};
        case TensorId::WV: return Shape{d.dModel, hv};
        case TensorId::WO: return Shape{hv, d.dModel};
        default: return std::nullopt;
    }
}

bool fits(const core::ModelSpec& spec, const core::CellEdit& e, const core::Dimensions& dims) {
    const std::optional<Shape> shape = editedShape(spec, e, dims);
    if (!shape) return false;
    if (shape->rows < 0) return true;
    return e.row >= 0 && e.col >= 0 && e.row < shape->rows && e.col < shape->cols && (isInputTensor(e.matrix) || e.batch == 0);
}

}  // namespace

const core::CellEdit* findEdit(const core::ModelSpec& spec, const core::CellEdit& cell) {
    const std::vector<core::CellEdit>& edits = core::seededChoices(spec).cellEdits;
    const auto found = std::find_if(edits.rbegin(), edits.rend(), [&](const core::CellEdit& e) { return sameCell(e, cell); });
    return found == edits.rend() ? nullptr : &*found;
}

void setCellEdit(core::ModelSpec& spec, const core::CellEdit& edit) {
    core::SeededLayer* seeded = spec.seeded();
    if (!seeded) return;
    resetCellEdit(spec, edit);
    seeded->cellEdits.push_back(edit);
}

bool resetCellEdit(core::ModelSpec& spec, const core::CellEdit& cell) {
    core::SeededLayer* seeded = spec.seeded();
    if (!seeded) return false;
    return std::erase_if(seeded->cellEdits, [&](const core::CellEdit& e) { return sameCell(e, cell); }) > 0;
}

int dropUnfitEdits(core::ModelSpec& spec) {
    core::SeededLayer* seeded = spec.seeded();
    if (!seeded || seeded->cellEdits.empty()) return 0;
    core::Dimensions dims;
    try {
        dims = core::resolveDimensions(spec.attention);
    } catch (const core::InputError&) {
        return 0;
    }
    return static_cast<int>(std::erase_if(seeded->cellEdits, [&](const core::CellEdit& e) { return !fits(spec, e, dims); }));
}

}  // namespace attnviz::ui
