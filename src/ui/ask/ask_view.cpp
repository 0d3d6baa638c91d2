// ask_view.cpp — the open question on screen (see ask_view.h): drawn from the run when its key changes, laid out
// by scene/question_drawing.h at the type the room allows (presenting larger, never under the lecture's 14 px floor)
// and played into the window's draw list.
#include "ui/ask/ask_view.h"

#include "colormap/colormap.h"
#include "core/display_text.h"
#include "core/input_error.h"
#include "core/typed_prediction.h"
#include "ui/views/drawing_player.h"
#include "ui/widgets/wide_characters.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace attnviz::ui {
namespace {

// The lecture's label floor (test_lecture_look.cpp): no question text under it.
constexpr float kTypeFloor = 14.0f;

// The kind asked, or when the run does not offer it the next one in the table that it does (none: nullopt).
std::optional<core::Question> firstOffered(const core::ModelRun& run, const core::QuestionSetting& setting, core::QuestionKind wanted) {
    const auto& kinds = core::kQuestionKinds;
    const std::size_t count = std::size(kinds);
    const std::size_t start = static_cast<std::size_t>(std::find(std::begin(kinds), std::end(kinds), wanted) - std::begin(kinds));
    for (std::size_t i = 0; i < count; ++i) {
        if (std::optional<core::Question> q = core::askQuestion(kinds[(start + i) % count], run, setting)) return q;
    }
    return std::nullopt;
}

}  // namespace

void AskView::ask(ViewContext& ctx, const Key& key) {
    const bool runChanged = key_ && (key_->generation != key.generation || key_->batch != key.batch || key_->head != key.head);
    key_ = key;
    question_ = firstOffered(ctx.run, {key.batch, key.head, std::nullopt, key.seed}, key.kind);
    scene::QuestionPicks& picks = ctx.state.ask.picks;
    if (runChanged || !question_) {  // a question of another run: its picks and reveal were about other numbers
        picks = {};
        ctx.state.ask.revealed = false;
    }
    if (!question_) return;
    const int choices = static_cast<int>(question_->choices.size());
    if (picks.picked && *picks.picked >= choices) picks.picked.reset();
    if (!picks.counts.empty()) picks.counts.resize(static_cast<std::size_t>(choices), 0);
    ctx.state.ask.kind = question_->kind;
    key_->kind = question_->kind;  // asked again next frame under the kind it fell back to: no redraw
    ctx.state.ask.choiceCount = static_cast<int>(question_->choices.size());
    ctx.state.ask.stage = question_->stage;
    ctx.state.ask.head = question_->head;
    ctx.state.ask.truth = question_->truth;
    ctx.state.ask.truthCells = question_->choices.at(static_cast<std::size_t>(question_->truth)).picture;
    if (!picks.typed.empty() && !picks.typedRank) typeWord(ctx, picks.typed);  // asked again of a new run: ranked again
}

void AskView::sizeClickedCells(ViewContext& ctx) {
    std::optional<core::CellPicture>& cells = ctx.state.ask.picks.cells;
    const std::optional<core::CellPicture>& truth = ctx.state.ask.truthCells;
    if (cells && truth && (cells->rows != truth->rows || cells->cols != truth->cols)) {  // G pressed: a grid of the run's size, nothing marked
        cells = core::CellPicture{truth->rows, truth->cols, std::vector<std::uint8_t>(truth->removed.size(), 0)};
    }
}

void AskView::typeWord(ViewContext& ctx, std::string word) {
    scene::QuestionPicks& picks = ctx.state.ask.picks;
    typedError_.clear();
    picks.typedRank.reset();
    picks.typed = std::move(word);
    if (picks.typed.empty()) return;
    picks.picked.reset();
    picks.cells.reset();
    try {
        picks.typedRank = core::rankTypedWord(ctx.run, ctx.state.batch, picks.typed);
    } catch (const core::InputError& e) {
        typedError_ = e.what();
    }
}

void AskView::typedWordField(ViewContext& ctx, const scene::QuestionLayout& layout, ImVec2 origin) {
    AskState& ask = ctx.state.ask;
    const scene::PixelRect& field = layout.typedField;
    ImFont* typeface = font(ctx.fonts.regular);
    const float pixelHeight = layout.typedType * kLineHeightPerEm;
    ImGui::PushFont(typeface);
    ImGui::SetWindowFontScale(pixelHeight / typeface->FontSize);
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, {pixelHeight * 0.3f, (static_cast<float>(field.height) - pixelHeight) / 2.0f});
    ImGui::SetCursorScreenPos({origin.x + static_cast<float>(field.x), origin.y + static_cast<float>(field.y)});
    ImGui::SetNextItemWidth(static_cast<float>(field.width));
    if (ask.focusTyped) ImGui::SetKeyboardFocusHere();
    ask.focusTyped = false;
    if (!ImGui::GetIO().WantTextInput) typing_ = ask.picks.typed;  // not being typed in: what a digit or a new run left
    const bool entered = inputTextKeepingWideCharacters("##typed word", typing_, ImGuiInputTextFlags_EnterReturnsTrue);
    typing_ = core::firstCharacters(typing_, static_cast<std::size_t>(core::kMaxTypedWord));  // characters, not bytes
    if (typing_ != ask.picks.typed) typeWord(ctx, typing_);
    ImGui::PopStyleVar();
    ImGui::SetWindowFontScale(1.0f);
    ImGui::PopFont();
    if (!typedError_.empty()) {
        ImGui::SetCursorScreenPos({origin.x + static_cast<float>(field.x), origin.y + static_cast<float>(field.bottom()) + 2.0f});
        ImGui::TextColored({0.75f, 0.2f, 0.15f, 1.0f}, "%s", typedError_.c_str());
    }
    if (entered && ask.picks.typedRank) revealAsk(ctx.state);
}

void AskView::interact(ViewContext& ctx, const scene::QuestionLayout& layout, ImVec2 origin) {
    AskState& ask = ctx.state.ask;
    if (layout.tally.width > 0) {  // beside the score: clearing it (Delete too; Undo brings it back)
        const float width = ImGui::CalcTextSize("Clear score").x + 2.0f * ImGui::GetStyle().FramePadding.x;
        ImGui::SetCursorScreenPos({origin.x + static_cast<float>(layout.tally.x) - width - ImGui::GetFontSize(), origin.y + static_cast<float>(layout.tally.y)});
        if (ImGui::SmallButton("Clear score")) clearScore(ctx.state);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Starts the score again (Delete); Ctrl+Z brings it back");
    }
    if (ask.revealed) return;
    const auto at = [&](const scene::PixelRect& r) { ImGui::SetCursorScreenPos({origin.x + static_cast<float>(r.x), origin.y + static_cast<float>(r.y)}); };
    for (std::size_t i = 0; i < layout.choices.size(); ++i) {
        at(layout.choices[i]);
        ImGui::PushID(static_cast<int>(i));
        if (ImGui::InvisibleButton("choice", {static_cast<float>(layout.choices[i].width), static_cast<float>(layout.choices[i].height)})) pickChoice(ask, static_cast<int>(i));
        ImGui::PopID();
    }
    if (ask.picks.cells && layout.cellSize > 0) {
        at(layout.cellGrid);
        if (ImGui::InvisibleButton("cells", {static_cast<float>(layout.cellGrid.width), static_cast<float>(layout.cellGrid.height)})) {
            const ImVec2 mouse = ImGui::GetIO().MousePos;
            core::CellPicture& cells = *ask.picks.cells;
            if (const auto cell = scene::cellAt(layout, cells, static_cast<int>(std::floor(mouse.x - origin.x)), static_cast<int>(std::floor(mouse.y - origin.y)))) {
                std::uint8_t& removed = cells.removed[static_cast<std::size_t>(cell->first) * static_cast<std::size_t>(cells.cols) + static_cast<std::size_t>(cell->second)];
                removed = removed != 0 ? 0 : 1;
            }
        }
    }
    if (layout.typedField.width > 0) typedWordField(ctx, layout, origin);
}

void AskView::draw(ViewContext& ctx, std::uint64_t generation) {
    AskState& state = ctx.state.ask;
    const Key key{generation, ctx.state.batch, ctx.state.head, state.kind, state.seed};
    if (!key_ || !(*key_ == key)) ask(ctx, key);
    sizeClickedCells(ctx);
    report_ = {};
    if (!question_) {
        ImGui::TextWrapped("No question applies to this run: a longer sentence gives the questions words to ask about. Esc or Q closes.");
        return;
    }
    const ImVec2 origin = ImGui::GetCursorScreenPos(), room = ImGui::GetContentRegionAvail();
    scene::QuestionLook look;
    look.type = std::max(kTypeFloor, std::round((ctx.state.presenting ? 21.0f : 16.0f) * ctx.scale));
    look.minType = kTypeFloor;
    look.tally = scoreText(state.asked);
    look.typedWord = true;
    look.keysHint = question_->kind == core::QuestionKind::Mask ? "1–4 or click choose · G cells instead · + / − count · → reveal · N another · Esc close"
                                                                : "1–4 or click choose · + / − count · → reveal · N another question · Esc close";
    float top = 0.0f;
    for (float v : question_->answer.values) top = std::max(top, v);
    for (float v : question_->answer.before) top = std::max(top, v);
    const colormap::Colormap map = ctx.state.sequential;
    look.probabilityColour = [map, top](float v) {
        const colormap::Rgb8 c = colormap::sample(map, v, 0.0f, top > 0.0f ? top : 1.0f);
        return scene::Rgba8{c.r, c.g, c.b, 255};
    };
    const Fonts& fonts = ctx.fonts;
    const scene::TextWidth measure = [&fonts](std::string_view text, float size, scene::FontFace face) { return playedTextWidth(fonts, text, size, face); };
    scene::QuestionLayout layout = scene::layoutQuestion(*question_, state.picks, state.revealed, static_cast<int>(room.x), static_cast<int>(room.y), look, measure);
    playDrawing(layout.drawing, *ImGui::GetWindowDrawList(), origin, fonts);
    interact(ctx, layout, origin);
    // The content ends at the drawing's lowest pixel: no scrollbar while it fits the room, one when it cannot.
    ImGui::SetCursorScreenPos({origin.x, origin.y + static_cast<float>(layout.bottom)});
    ImGui::Dummy({0.0f, 0.0f});
    report_ = {true, state.revealed, origin, room, question_, std::move(layout)};
}

}  // namespace attnviz::ui
