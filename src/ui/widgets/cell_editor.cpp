// cell_editor.cpp — cell edits in the spec, the value field and cell menu, the edit marks. See cell_editor.h.
#include "ui/widgets/cell_editor.h"

#include "core/display_text.h"
#include "core/portable.h"
#include "ui/views/matrix_info.h"
#include "ui/widgets/widget_label.h"

#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>

namespace attnviz::ui {
namespace {

using core::TensorId;

std::string cellName(const core::CellEdit& e) {
    return std::string(core::tensorInfo(e.matrix).symbol) + "[" + std::to_string(e.row) + ", " + std::to_string(e.col) + "]";
}

// [SECTION] Marks

// A corner triangle with a white edge (it reads on dark and light cells alike) and, when the cell is big enough,
// an outline in the same color.
void markCell(ImDrawList& list, ImVec2 min, ImVec2 max, float scale) {
    const float side = std::clamp(std::min(max.x - min.x, max.y - min.y) * 0.5f, 6.0f * scale, 14.0f * scale);
    const ImVec2 a{max.x - side, min.y}, b{max.x, min.y}, c{max.x, min.y + side};
    if (max.x - min.x >= 8.0f && max.y - min.y >= 8.0f) list.AddRect(min, max, kEditMarkColor, 0.0f, 0, 2.0f);
    list.AddTriangleFilled(a, b, c, kEditMarkColor);
    list.AddLine(a, c, IM_COL32_WHITE, 1.5f);
}

// The edit target of a cell in the spec's terms (value 0), when its matrix is editable.
std::optional<core::CellEdit> targetOf(const AppState& state, const CellRef& cell) {
    const std::optional<TensorId> tensor = editableTensor(cell.matrix);
    if (!tensor) return std::nullopt;
    return core::CellEdit{*tensor, isInputTensor(*tensor) ? state.batch : 0, cell.row, cell.col, 0.0f};
}

}  // namespace

// [SECTION] Edits in the spec

std::optional<TensorId> editableTensor(const MatrixRef& ref) {
    if (ref.source != MatrixSource::Trace) return std::nullopt;
    switch (ref.tensor) {
        case TensorId::X: case TensorId::XQuery: case TensorId::WQ: case TensorId::WK: case TensorId::WV: case TensorId::WO:
            return ref.tensor;
        default: return std::nullopt;
    }
}

std::optional<core::CellEdit> cellEditFor(const core::ModelRun& run, const CellRef& cell, int batch, std::string& why) {
    if (run.spec.trained()) {
        why = "Cells of a trained model cannot be edited (every later layer would change too): switch to the untrained "
              "(random) weights to type values into cells.";
        return std::nullopt;
    }
    const std::optional<TensorId> tensor = editableTensor(cell.matrix);
    if (!tensor) {
        why = "Only cells of X, W^Q, W^K, W^V and W^O can be typed into; " + matrixInfo(run, cell.matrix, batch).name +
              " follows from them (edit those and watch it change).";
        return std::nullopt;
    }
    if (isInputTensor(*tensor)) {
        const std::vector<int>& lengths = *tensor == TensorId::XQuery ? run.trace.queryLengths : run.trace.keyLengths;
        if (cell.row >= lengths.at(static_cast<std::size_t>(batch))) {
            why = "Row " + std::to_string(cell.row) + " is padding, not a token of the sentence: it cannot be edited.";
            return std::nullopt;
        }
    }
    const float value = valueAt(matrixSlice(run, cell.matrix, batch), cell.row, cell.col);
    return core::CellEdit{*tensor, isInputTensor(*tensor) ? batch : 0, cell.row, cell.col, value};
}

std::optional<float> parseCellValue(std::string_view text, std::string& error) {
    std::string clean;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text.substr(i, 3) == "−") {  // U+2212, as the app prints negative numbers
            clean += '-';
            i += 2;
        } else if (text[i] != ' ' && !(text[i] == '+' && clean.empty())) {
            clean += text[i];
        }
    }
    float value = 0.0f;
    const std::errc code = core::parseFloat(clean, value);
    if (code == std::errc::result_out_of_range) {
        error = "Too large for a 32-bit float (at most about ±3.4e38).";
    } else if (code != std::errc()) {
        error = "Type a number, such as 0.5, -2 or 1e-3.";
    } else if (!std::isfinite(value)) {
        error = "Only finite numbers: NaN and ±∞ would spread through every matrix after this one.";
    } else {
        return value;
    }
    return std::nullopt;
}

// [SECTION] Drawing

void requestCellEdit(ViewContext& ctx, const CellRef& cell, ImVec2 at, bool menu) {
    std::string why;
    const std::optional<core::CellEdit> edit = cellEditFor(ctx.run, cell, ctx.state.batch, why);
    if (!edit) {
        ctx.state.status = why;
        return;
    }
    ctx.state.session.cellEdit = CellEditRequest{*edit, at.x, at.y, menu};
}

void drawEditMarks(const ViewContext& ctx, ImDrawList& list, const MatrixRef& ref, ImVec2 cellsMin, ImVec2 cellSize, bool transposed) {
    const std::optional<TensorId> tensor = editableTensor(ref);
    if (!tensor) return;
    for (const core::CellEdit& e : core::seededChoices(ctx.state.spec).cellEdits) {
        if (e.matrix != *tensor || (isInputTensor(e.matrix) && e.batch != ctx.state.batch)) continue;
        const int r = transposed ? e.col : e.row, c = transposed ? e.row : e.col;
        const ImVec2 min{cellsMin.x + static_cast<float>(c) * cellSize.x, cellsMin.y + static_cast<float>(r) * cellSize.y};
        markCell(list, min, {min.x + cellSize.x, min.y + cellSize.y}, ctx.scale);
    }
}

void drawEditNote(const AppState& state, const CellRef& cell) {
    const std::optional<core::CellEdit> target = targetOf(state, cell);
    if (!target || !state.spec.seeded()) return;
    const bool edited = findEdit(state.spec, *target) != nullptr;
    ImGui::PushStyleColor(ImGuiCol_Text, edited ? ImGui::ColorConvertU32ToFloat4(kEditMarkColor) : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", edited ? "Typed in: this value replaces the one computed below. Double-click to change it, right-click to reset it."
                                    : "Double-click to type another value.");
    ImGui::PopStyleColor();
}

// [SECTION] CellEditor

constexpr const char* kValuePopup = "edit cell";
constexpr const char* kMenuPopup = "cell menu";

void CellEditor::draw(AppState& state) {
    if (state.session.cellEdit) open(state);
    valuePopup(state);
    menuPopup(state);
}

void CellEditor::open(AppState& state) {
    const CellEditRequest request = *state.session.cellEdit;
    state.session.cellEdit.reset();
    cell_ = request.cell;
    at_ = {request.x, request.y};
    text_ = core::shortestText(request.cell.value);
    error_.clear();
    focus_ = true;
    ImGui::OpenPopup(request.menu ? kMenuPopup : kValuePopup);
}

void CellEditor::valuePopup(AppState& state) {
    ImGui::SetNextWindowPos(at_, ImGuiCond_Appearing);
    if (!ImGui::BeginPopup(kValuePopup)) return;
    const core::CellEdit* edited = findEdit(state.spec, cell_);
    ImGui::Text("%s%s", cellName(cell_).c_str(), edited ? "  (edited)" : "");
    if (focus_) ImGui::SetKeyboardFocusHere();
    focus_ = false;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
    const ImGuiInputTextFlags flags = ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll | ImGuiInputTextFlags_CharsScientific;
    if (ImGui::InputText("##value", &text_, flags)) {
        if (const std::optional<float> value = parseCellValue(text_, error_)) {
            setCellEdit(state.spec, {cell_.matrix, cell_.batch, cell_.row, cell_.col, *value});
            ImGui::CloseCurrentPopup();
        } else {
            focus_ = true;
        }
    }
    ImGui::TextDisabled("Enter applies · Esc cancels");
    if (!error_.empty()) ImGui::TextColored({0.75f, 0.1f, 0.1f, 1.0f}, "%s", core::clipped(error_).c_str());
    if (edited && ImGui::Button("Reset to the generated value")) {
        resetCellEdit(state.spec, cell_);
        ImGui::CloseCurrentPopup();
    }
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

void CellEditor::menuPopup(AppState& state) {
    ImGui::SetNextWindowPos(at_, ImGuiCond_Appearing);
    if (!ImGui::BeginPopup(kMenuPopup)) return;
    ImGui::TextDisabled("%s = %s", cellName(cell_).c_str(), core::shortestText(cell_.value).c_str());
    if (ImGui::MenuItem("Edit value…", "double-click")) {
        ImGui::CloseCurrentPopup();
        state.session.cellEdit = CellEditRequest{cell_, at_.x, at_.y, false};
    }
    if (ImGui::MenuItem("Reset this cell", nullptr, false, findEdit(state.spec, cell_) != nullptr)) resetCellEdit(state.spec, cell_);
    core::SeededLayer* seeded = state.spec.seeded();
    const std::size_t edits = seeded ? seeded->cellEdits.size() : 0;
    const std::string all = "Reset all edits (" + std::to_string(edits) + ")";
    if (ImGui::MenuItem(widgetLabel(all).c_str(), nullptr, false, edits > 0)) seeded->cellEdits.clear();
    ImGui::EndPopup();
}

}  // namespace attnviz::ui
