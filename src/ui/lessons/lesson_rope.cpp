// lesson_rope.cpp — "why do rotary positions give relative offsets?" RoPE splits a head's q (and k) into d_k/2 pairs
// (x_j, x_{j+d_k/2}) and turns pair j by the angle p·θ_j at position p. Shown: the first pairs of one q turning as it
// is placed at positions 0 … 7 (or each token's q at its own position, as the forward pass turned it), then the
// score of that q against one k for every offset m − n, with the same pair moved further along drawn over it: after
// the rotation the score depends on m − n only, because rot(q, m)·rot(k, n) = q·rot(k, n − m).
//
// On a Llama-family model the rows are the run's own (before RoPE, as stage 3 keeps them) with the model's θ_j; on
// the seeded layer, which has no rotary positions, its q and k are turned as a Llama layer with rope_theta 10000
// would turn them. What it deliberately does not do: rotate or score anything itself (core/decoder_lessons.h), or
// draw the arrows (views/rotary_view.h, which stage 3 can reuse).
#include "core/decoder_lessons.h"
#include "core/display_text.h"
#include "ui/lessons/lesson_views.h"
#include "ui/views/rotary_view.h"
#include "ui/widgets/widget_label.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnviz::ui {
namespace {

using core::TensorId;

constexpr int kPairsShown = 4;
constexpr int kPositionsShown = 8;
constexpr int kLargestOffset = 24;
constexpr int kShift = 100;  // the pair moved this many places along for the dots

std::string fixed(double value, int digits) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

std::string general(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}

// The rows RoPE turns and the frequencies it turns them with, for the run on screen.
struct RotarySource {
    core::Matrix queries;       // l × d_k: the head's q rows before RoPE
    core::Matrix keys;          // l × d_k: its K/V head's k rows before RoPE
    core::RowVector frequencies;
    bool modelsOwn = false;     // the run's own RoPE (a Llama-family model) rather than the seeded layer turned here
};

RotarySource sourceOf(const LessonFrame& frame) {
    const core::ModelRun& run = frame.ctx.run;
    const core::Trace& t = run.trace;
    const int batch = frame.ctx.state.batch, head = std::min(frame.ctx.state.head, t.dims.heads - 1);
    RotarySource s;
    s.frequencies = rotaryFrequenciesOf(run);
    s.modelsOwn = s.frequencies.size() > 0 && t.has(TensorId::QHeadsBeforeRope);
    if (!s.modelsOwn) s.frequencies = core::defaultRotaryFrequencies(t.dims.dK);
    const TensorId q = s.modelsOwn ? TensorId::QHeadsBeforeRope : TensorId::QHeads;
    const TensorId k = s.modelsOwn ? TensorId::KHeadsBeforeRope : TensorId::KHeads;
    s.queries = t[q].slice(batch, head).topRows(t.queryLengths[static_cast<std::size_t>(batch)]);
    s.keys = t[k].slice(batch, core::keyValueHead(t.dims, head)).topRows(t.keyLengths[static_cast<std::size_t>(batch)]);
    return s;
}

// "query  ◀ “it” (9) ▶": picks a token of the sentence on screen.
void tokenChoice(const char* label, int& index, const std::vector<std::string>& tokens) {
    const int count = static_cast<int>(tokens.size());
    const int shown = std::clamp(index < 0 ? count - 1 : index, 0, count - 1);
    ImGui::PushID(label);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::CalcTextSize("“wwwwwwwwww” (00)").x + ImGui::GetFrameHeight());
    const std::string current = "“" + core::labelText(tokens[static_cast<std::size_t>(shown)]) + "” (" + std::to_string(shown) + ")";
    if (ImGui::BeginCombo("##token", widgetLabel(current).c_str())) {
        for (int i = 0; i < count; ++i) {
            const std::string item = "“" + core::labelText(tokens[static_cast<std::size_t>(i)]) + "” (" + std::to_string(i) + ")";
            if (ImGui::Selectable(widgetLabel(item).c_str(), i == shown)) index = i;
        }
        ImGui::EndCombo();
    }
    ImGui::PopID();
}

void controls(LessonFrame& frame) {
    LessonState& lesson = frame.ctx.state.lesson;
    headPicker(frame);
    sameLineIfFits(ImGui::CalcTextSize("query “wwwwwwwwww” (00)    key “wwwwwwwwww” (00)").x + 4.0f * ImGui::GetFrameHeight());
    tokenChoice("query", lesson.ropeQuery, frame.ctx.run.queryTokens[static_cast<std::size_t>(frame.ctx.state.batch)]);
    ImGui::SameLine();
    tokenChoice("key", lesson.ropeKey, frame.ctx.run.tokens[static_cast<std::size_t>(frame.ctx.state.batch)]);
    radioChoices("turn", lesson.ropeEachToken,
                 {{false, "the query's q placed at positions 0 … 7"}, {true, "each token's q at its own position"}});
}

void explain(LessonFrame& frame, const RotarySource& s) {
    const int dK = static_cast<int>(s.frequencies.size()) * 2;
    const int half = static_cast<int>(s.frequencies.size());
    std::string thetas;
    for (int j = 0; j < std::min(3, half); ++j) thetas += (j > 0 ? ", " : "") + general(s.frequencies(j));
    if (half > 3) thetas += ", … , " + general(s.frequencies(half - 1));
    say(frame, "RoPE leaves X alone and turns q and k instead, after the split into heads. A head's d_k = " + std::to_string(dK) + " numbers form " +
                   std::to_string(dK / 2) + " pairs (x_j, x_{j+" + std::to_string(dK / 2) + "}) — the first half against the second, HF's "
                   "rotate_half — and at position p pair j turns by the angle p·θ_j, θ_j = " + thetas +
                   " rad per position: the first pairs turn fast, the last barely.");
    if (!s.modelsOwn) {
        say(frame, "The seeded layer has no rotary positions (it adds sinusoidal ones to X): its q and k are turned here as a Llama layer "
                   "with rope_theta 10000 would turn them. Open a Llama, Qwen or Mistral folder to see a model's own.", Tone::Dim);
        offerBundledDecoder(frame, "attnviz's own decoder turns its q and k this way, with its own rope_theta 10000:", true);
    }
}

float pairsView(LessonFrame& frame, const Box& box, const RotarySource& s, int query) {
    const core::ModelRun& run = frame.ctx.run;
    const std::vector<std::string>& tokens = run.queryTokens[static_cast<std::size_t>(frame.ctx.state.batch)];
    const std::string head = std::to_string(frame.ctx.state.head);
    RotaryPlotStyle style;
    std::string caption;
    core::RotaryPairs pairs;
    if (frame.ctx.state.lesson.ropeEachToken) {
        pairs = core::rotaryPairs(s.queries, s.frequencies, kPairsShown);
        style.positionLabels = tokens;
        style.highlight = query;
        caption = "each token's q (head " + head + ") at its own position: grey before RoPE, coloured after";
    } else {
        pairs = core::rotaryPairsOfOneRow(s.queries.row(query), s.frequencies, kPositionsShown, kPairsShown);
        style.showBefore = false;
        caption = "q of “" + tokens[static_cast<std::size_t>(query)] + "” (head " + head + ") placed at positions 0 … " +
                  std::to_string(kPositionsShown - 1) + ": pair j turns θ_j further each step";
    }
    frame.report.figures.push_back(caption);
    const float line = sayAt(frame, box.min, box.width(), caption, Tone::Plain);
    const Box plots{{box.min.x, box.min.y + line + 4.0f}, box.max};
    return drawRotaryPairs(*ImGui::GetWindowDrawList(), plots, pairs, style);
}

void offsetView(LessonFrame& frame, Box box, const RotarySource& s, int query, int key) {
    const std::vector<std::string>& queryTokens = frame.ctx.run.queryTokens[static_cast<std::size_t>(frame.ctx.state.batch)];
    const std::vector<std::string>& keyTokens = frame.ctx.run.tokens[static_cast<std::size_t>(frame.ctx.state.batch)];
    const core::RelativeScores r = core::relativeScores(s.queries.row(query), s.keys.row(key), s.frequencies, kLargestOffset, kShift);
    const std::string pair = "q of “" + queryTokens[static_cast<std::size_t>(query)] + "”, k of “" + keyTokens[static_cast<std::size_t>(key)] + "”";
    const std::string caption = "score q·k after RoPE against the offset m − n (" + pair + "); dots: both " + std::to_string(kShift) + " places later";
    frame.report.figures.push_back(caption);
    box.min.y += sayAt(frame, box.min, box.width(), caption, Tone::Plain) + 4.0f;
    Box chart = takeLeft(box, box.width() * 0.55f);
    chart.max.y = std::min(chart.max.y, chart.min.y + std::max(chart.width() * 0.45f, 8.0f * ImGui::GetTextLineHeight()));
    drawOffsetScores(*ImGui::GetWindowDrawList(), chart, r);
    frame.contentBottom = std::max(frame.contentBottom, chart.max.y);
    // Beside the chart: the numbers, and what they show.
    box.min.x += ImGui::GetTextLineHeight();
    const int real = query - key;
    float y = box.min.y;
    const auto line = [&](const std::string& text, Tone tone) { y += sayAt(frame, {box.min.x, y}, box.width(), text, tone) + 4.0f; };
    for (int offset : {0, 1, 2, 8}) {
        line("m − n = " + std::to_string(offset) + ":  (" + std::to_string(offset) + ", 0) → " + fixed(r.score[static_cast<std::size_t>(offset)], 4) +
                 "   (" + std::to_string(offset + kShift) + ", " + std::to_string(kShift) + ") → " + fixed(r.shiftedScore[static_cast<std::size_t>(offset)], 4),
             Tone::Code);
    }
    line("Without RoPE q·k = " + fixed(r.unrotatedScore, 4) + " wherever the two stand (offset 0 gives it back: both turned alike).", Tone::Plain);
    line("Largest change when the pair moves 1 … " + std::to_string(kShift) + " places along: " + scientific(r.largestShiftDifference) +
             ", rounding. rot(q, m)·rot(k, n) = q·rot(k, n − m): each pair's angles subtract, so only m − n is left.",
         Tone::Point);
    if (real >= 0 && real <= kLargestOffset) {
        line("In this sentence q stands at m = " + std::to_string(query) + " and k at n = " + std::to_string(key) + ": offset " + std::to_string(real) +
                 ", score " + fixed(r.score[static_cast<std::size_t>(real)], 4) + ".",
             Tone::Plain);
    } else if (real < 0) {
        line("In this sentence the key stands after the query: a causal decoder masks it (m − n = " + std::to_string(real) + ").", Tone::Dim);
    }
    frame.contentBottom = std::max(frame.contentBottom, y);
}

}  // namespace

void drawRopeLesson(LessonFrame& frame) {
    controls(frame);
    const core::Trace& t = frame.ctx.run.trace;
    if (t.dims.dK % 2 != 0) {
        say(frame, "RoPE turns pairs of numbers: d_k = " + std::to_string(t.dims.dK) + " is odd. Choose an even d_k on the left.", Tone::Warning);
        return;
    }
    const RotarySource s = sourceOf(frame);
    const int query = std::clamp(frame.ctx.state.lesson.ropeQuery < 0 ? static_cast<int>(s.queries.rows()) - 1 : frame.ctx.state.lesson.ropeQuery, 0,
                                 static_cast<int>(s.queries.rows()) - 1);
    const int key = std::clamp(frame.ctx.state.lesson.ropeKey, 0, static_cast<int>(s.keys.rows()) - 1);
    explain(frame, s);
    ImGui::Spacing();
    Box box = remainingBox(frame);
    const float pairsHeight = std::max(box.height() * 0.5f, 7.0f * ImGui::GetTextLineHeight());
    const float below = pairsView(frame, takeTop(box, pairsHeight), s, query);
    box.min.y = below + ImGui::GetTextLineHeight() * 0.6f;
    offsetView(frame, box, s, query, key);
}

}  // namespace attnviz::ui
