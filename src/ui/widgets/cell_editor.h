// cell_editor.h — typing a value into a cell of X, X_dec, W^Q, W^K, W^V or W^O: the cell edits in
// AppState::spec (ui/session/cell_edits.h, applied by the core, so every downstream matrix follows), the inline value
// field and the cell's context menu, and the corner marks that show which cells hold a typed value.
//
// The heatmap widget reports double- and right-clicks here (requestCellEdit) and asks for the marks
// (drawEditMarks); SessionController draws the popups (CellEditor) once a frame.
// What it deliberately does not do: compute anything downstream (the core does, when App recomputes), keep
// undo steps (History notices the spec changed), or mark cells of matrices that are results, not inputs.
#pragma once

#include "ui/session/cell_edits.h"
#include "ui/views/view_context.h"

#include <imgui.h>

#include <optional>
#include <string>
#include <string_view>

namespace attnviz::ui {

// The corner mark of an edited cell: a color none of the colormaps or pointer outlines use.
inline constexpr ImU32 kEditMarkColor = IM_COL32(236, 0, 140, 255);

// The core tensor a cell edit of `ref` writes, when `ref` is an editable matrix.
std::optional<core::TensorId> editableTensor(const MatrixRef& ref);
// The edit target for a cell on screen, holding its current value; nullopt with `why` set when the cell
// cannot be edited (a trained model's, a result matrix, or a padding row of X).
std::optional<core::CellEdit> cellEditFor(const core::ModelRun& run, const CellRef& cell, int batch, std::string& why);

// A typed value: a finite float, or nullopt with `error` saying what is wrong.
std::optional<float> parseCellValue(std::string_view text, std::string& error);

// From the heatmap widget: a double-click (`menu` false) or right-click on a cell, anchored at `at`.
void requestCellEdit(ViewContext& ctx, const CellRef& cell, ImVec2 at, bool menu);
// Corner marks on the edited cells of `ref` drawn with cells from `cellsMin`, each `cellSize` big.
void drawEditMarks(const ViewContext& ctx, ImDrawList& list, const MatrixRef& ref, ImVec2 cellsMin, ImVec2 cellSize, bool transposed);
// The inspector's line about an editable cell: "typed in" (how to reset it) or how to type a value.
void drawEditNote(const AppState& state, const CellRef& cell);

// The value field and the cell menu, opened by AppState::session.cellEdit.
class CellEditor {
public:
    void draw(AppState& state);

private:
    void open(AppState& state);
    void valuePopup(AppState& state);
    void menuPopup(AppState& state);

    core::CellEdit cell_;
    std::string text_;
    std::string error_;
    ImVec2 at_;
    bool focus_ = false;
};

}  // namespace attnviz::ui
