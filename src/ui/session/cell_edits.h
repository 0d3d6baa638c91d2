// cell_edits.h — the typed-in cell values of a session as core::CellEdits in the spec's seeded layer, without a
// window: find, set, reset, and drop the edits whose cell no longer exists (a trained model has none: setting
// one changes nothing). The session service drops unfit edits once a frame;
// the cell editor (ui/widgets/cell_editor.h) sets and resets them.
#pragma once

#include "core/model.h"

namespace attnviz::ui {

// X and X_dec: a cell edit of these names its sentence (batch); the weights' edits are batch 0.
bool isInputTensor(core::TensorId tensor);
// The edit of the same cell as `cell` (value ignored), if any.
const core::CellEdit* findEdit(const core::ModelSpec& spec, const core::CellEdit& cell);
// Replaces any edit of the same cell, then appends.
void setCellEdit(core::ModelSpec& spec, const core::CellEdit& edit);
// Removes the edit of that cell; false when it had none.
bool resetCellEdit(core::ModelSpec& spec, const core::CellEdit& cell);
// Removes edits whose cell no longer exists (sizes or sentences changed); returns how many. Sizes the core
// rejects keep every edit: the run fails with the size error, and the edits come back when it is fixed.
int dropUnfitEdits(core::ModelSpec& spec);

}  // namespace attnviz::ui
