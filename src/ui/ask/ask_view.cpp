// ask_view.cpp — the open question on screen (see ask_view.h): drawn from the run when its key changes, laid out
// by scene/question_drawing.h at the type the room allows (presenting larger, never under the lecture's 14 px floor)
// and played into the window's draw list.
#include "ui/ask/ask_view.h"

#include "colormap/colormap.h"
#include "core/display_text.h"
#include "ui/views/drawing_player.h"

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
}

void AskView::draw(ViewContext& ctx, std::uint64_t generation) {
    AskState& state = ctx.state.ask;
    const Key key{generation, ctx.state.batch, ctx.state.head, state.kind, state.seed};
    if (!key_ || !(*key_ == key)) ask(ctx, key);
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
    // The content ends at the drawing's lowest pixel: no scrollbar while it fits the room, one when it cannot.
    ImGui::SetCursorScreenPos({origin.x, origin.y + static_cast<float>(layout.bottom)});
    ImGui::Dummy({0.0f, 0.0f});
    report_ = {true, state.revealed, origin, room, question_, std::move(layout)};
}

}  // namespace attnviz::ui
