// lesson_masks.cpp — how a mask works on a batch. A batch editor (2–4 sentences of different
// lengths), the mask kind, the fill value (−1e9 / −∞), the softmax mode (safe / as PyTorch) and whether padded
// query rows are masked too; then the masked scores with the weights softmax makes of them (laid out as the softmax
// stage lays them out), the plain words, and the mask tensor as stored (b × 1 × 1 × l or b × 1 × l × l) beside the
// same mask broadcast to every head (b × h × l × l). A fully masked row is explained in one sentence: NaN with −∞
// as PyTorch, zeros and a warning in safe mode.
//
// What it deliberately does not do: build the mask or run softmax (the core's Trace has both); it only
// expands the stored mask to l × l to draw the broadcast.
#include "core/names.h"
#include "scene/scene.h"
#include "ui/lessons/lesson_views.h"
#include "ui/widgets/wide_characters.h"
#include "ui/widgets/widget_label.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {
namespace {

using core::MaskFill;
using core::MaskKind;
using core::SoftmaxMode;
using core::TensorId;

constexpr int kMaxSentences = 4;
constexpr int kMinSentences = 2;
constexpr int kBroadcastTiles = 3;  // heads drawn for "broadcast to every head"; the rest are the same

// [SECTION] Controls

void batchEditor(LessonFrame& frame) {
    AppState& state = frame.ctx.state;
    auto& sentences = state.spec.sentences;
    const auto& run = frame.ctx.run;
    heading(frame, "The batch: b = " + std::to_string(sentences.size()) + " sentences, padded to the longest (l = " +
                       std::to_string(run.trace.keyLength) + ")");
    int remove = -1;
    for (int i = 0; i < static_cast<int>(sentences.size()); ++i) {
        ImGui::PushID(i);
        ImGui::BeginDisabled(i >= run.trace.batch);  // not computed yet (or rejected): nothing to show
        if (ImGui::RadioButton("##shown", state.batch == i)) state.batch = i;
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show sentence %d below", i);
        ImGui::SameLine();
        // The sentence takes what its token count and button leave, so the row never passes the panel's edge.
        const float spacing = ImGui::GetStyle().ItemSpacing.x;
        const float after = ImGui::CalcTextSize("00 tokens + 00 <pad>").x + buttonWidth("remove") + 2.0f * spacing;
        ImGui::SetNextItemWidth(std::max(ImGui::GetContentRegionAvail().x - after, ImGui::GetFontSize() * 6.0f));
        inputTextKeepingWideCharacters("##sentence", sentences[static_cast<std::size_t>(i)]);
        ImGui::SameLine();
        if (i < run.trace.batch) {
            const int tokens = run.trace.keyLengths[static_cast<std::size_t>(i)];
            ImGui::Text("%d tokens + %d <pad>", tokens, run.trace.keyLength - tokens);
        }
        ImGui::SameLine();
        ImGui::BeginDisabled(static_cast<int>(sentences.size()) <= kMinSentences);
        if (ImGui::SmallButton("remove")) remove = i;
        ImGui::EndDisabled();
        ImGui::PopID();
    }
    if (remove >= 0) sentences.erase(sentences.begin() + remove);
    ImGui::BeginDisabled(static_cast<int>(sentences.size()) >= kMaxSentences);
    if (ImGui::Button("+ Add a sentence")) sentences.emplace_back("A short one");
    ImGui::EndDisabled();
}

void maskControls(AppState& state) {
    core::AttentionConfig& a = state.spec.attention;
    // core's names (core/names.h); they are string literals, so .data() is the C string ImGui takes.
    using core::nameOf;
    radioChoices("mask", a.mask, {{MaskKind::None, nameOf(MaskKind::None).data()}, {MaskKind::Padding, nameOf(MaskKind::Padding).data()},
                                  {MaskKind::Causal, nameOf(MaskKind::Causal).data()}, {MaskKind::Both, nameOf(MaskKind::Both).data()}});
    ImGui::SameLine(0.0f, 24.0f);
    radioChoices("fill", a.fill, {{MaskFill::MinusBillion, core::shownText(MaskFill::MinusBillion).data()}, {MaskFill::MinusInfinity, core::shownText(MaskFill::MinusInfinity).data()}});
    radioChoices("softmax", a.softmax, {{SoftmaxMode::Safe, "safe"}, {SoftmaxMode::PyTorch, "as PyTorch nn.MultiheadAttention"}});
    const char* paddedQueries = "mask padded query rows too";
    sameLineIfFits(checkboxWidth(paddedQueries), 24.0f);
    const bool padding = a.mask == MaskKind::Padding || a.mask == MaskKind::Both;
    ImGui::BeginDisabled(!padding);
    ImGui::Checkbox(widgetLabel(paddedQueries).c_str(), &a.maskPaddedQueries);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        ImGui::SetTooltip("With padding: also hide every key from the <pad> query rows (mask b × 1 × l × l).\n"
                          "Those rows then have no key left: the case softmax cannot normalise.");
    }
}

// [SECTION] Plain words

std::string shapeSentence(const core::Trace& t) {
    const std::string b = std::to_string(t.batch), h = std::to_string(t.dims.heads), l = std::to_string(t.queryLength);
    const std::string broadcast = "PyTorch broadcasting repeats it over the size-1 axes to b × h × l × l = " + b + " × " + h + " × " + l +
                                  " × " + l + ": the same for every head.";
    switch (t.mask) {
        case MaskKind::None: return "No mask: every query looks at every key, so the <pad> tokens of the shorter sentences take part like words.";
        case MaskKind::Padding:
            if (t[TensorId::Mask].dim(2) == 1) {
                return "Padding mask, b × 1 × 1 × l = " + t[TensorId::Mask].shapeString() +
                       ": one row per sentence, 1 for a real token and 0 for <pad>, the same for every query. " + broadcast;
            }
            return "Padding mask that also hides the <pad> query rows, b × 1 × l × l = " + t[TensorId::Mask].shapeString() +
                   ": one row per query, so it can blank a whole row. " + broadcast;
        case MaskKind::Causal:
            return "Causal mask, b × 1 × l × l = " + t[TensorId::Mask].shapeString() +
                   ": query t may look at keys 0 … t only (a triangle), a different row for every query. " + broadcast;
        case MaskKind::Both:
            return "Padding and causal together, b × 1 × l × l = " + t[TensorId::Mask].shapeString() +
                   ": the triangle, with each sentence's <pad> keys removed too. " + broadcast;
    }
    return {};
}

std::string fillSentence(const core::Trace& t) {
    const std::string fill = t.fill == MaskFill::MinusInfinity ? "−∞ (as nn.MultiheadAttention)" : "−1e9 (the Annotated Transformer's masked_fill)";
    return "Masked scores become " + fill + "; softmax turns e^(score − max) into exactly 0 for them, so a masked key gets weight 0.";
}

// Which rows of the shown sentence have no key left, as "“<pad>” (row 11), …".
std::string fullyMaskedRowsOf(const core::ModelRun& run, int batch) {
    const core::Trace& t = run.trace;
    std::string rows;
    int listed = 0;
    for (int r = 0; r < t.queryLength; ++r) {
        if (t.fullyMaskedRows[static_cast<std::size_t>(batch) * t.queryLength + r] == 0) continue;
        if (listed++ == 3) {
            rows += ", …";
            break;
        }
        rows += (rows.empty() ? "" : ", ") + std::string("row ") + std::to_string(r);
    }
    return rows;
}

// One sentence on the rows softmax cannot normalise, in the tone it deserves.
void fullyMaskedSentence(LessonFrame& frame) {
    const core::Trace& t = frame.ctx.run.trace;
    const int count = t.fullyMaskedRowCount();
    if (count == 0) {
        if (t.mask != MaskKind::None) {
            say(frame, "No row is fully masked: every query keeps at least one key. Tick “mask padded query rows too” to make rows with no key left.",
                Tone::Point);
        }
        return;
    }
    const std::string where = fullyMaskedRowsOf(frame.ctx.run, frame.ctx.state.batch);
    const std::string rows = std::to_string(count) + (count == 1 ? " row has" : " rows have") + " every key masked" +
                             (where.empty() ? " (in other sentences)" : " (this sentence: " + where + ")");
    if (t.softmax == SoftmaxMode::Safe) {
        say(frame, "Warning: " + rows + ". Safe softmax gives such a row zeros instead of dividing 0 by 0: it has nothing to average.",
            Tone::Warning);
    } else if (t.fill == MaskFill::MinusInfinity) {
        say(frame, "NaN: " + rows + "; with −∞ everywhere, softmax computes e^(−∞ − (−∞)) = e^NaN, so 0/0 = NaN fills the row and spreads "
                   "into Z and O — what PyTorch users hit in pytorch issues #24816, #41508 and #103749.",
            Tone::Warning);
    } else {
        say(frame, rows + ". With −1e9 every score of the row is equal, so PyTorch's softmax spreads the weight evenly (1/l each): no NaN, "
                   "but the padded query averages every token, padding included — harmless, and meaningless.",
            Tone::Point);
    }
}

// [SECTION] Maps

// What the masks view computes: each sentence's mask as stored, and the shown sentence's broadcast to l_q × l_k.
enum Matrix { kStoredMask, kBroadcastMask };

// Sentence `s`'s mask exactly as stored (1 × l_k for a padding mask, l_q × l_k otherwise): yellow 1, hatched 0.
std::shared_ptr<const scene::Computed> storedMaskOf(LessonFrame& frame, int s) {
    const core::Tensor& mask = frame.ctx.run.trace[TensorId::Mask];
    const bool strip = mask.dim(2) == 1;
    const ComputedSpec spec{"sentence " + std::to_string(s), strip ? "1 × l" : "l × l", strip ? core::Axis::Broadcast : core::Axis::QueryTokens,
                            core::Axis::KeyTokens, true};
    const auto stored = [&] { return core::Matrix(mask.slice(s, 0)); };
    return computedMatrix(frame, kStoredMask, 0, s, spec, stored, stored);
}

// The shown sentence's mask expanded to l_q × l_k: what one head sees after broadcasting.
std::shared_ptr<const scene::Computed> broadcastMaskOf(LessonFrame& frame) {
    const core::Trace& t = frame.ctx.run.trace;
    const ComputedSpec spec{"mask", "l × l", core::Axis::QueryTokens, core::Axis::KeyTokens, true};
    const auto full = [&] {
        const core::MatrixView m = t[TensorId::Mask].slice(frame.ctx.state.batch, 0);
        core::Matrix out(t.queryLength, t.keyLength);
        for (int r = 0; r < t.queryLength; ++r) out.row(r) = m.row(m.rows() == 1 ? 0 : r);
        return out;
    };
    return computedMatrix(frame, kBroadcastMask, 0, 0, spec, full, full);
}

HeatmapOptions compact(const std::string& caption) {
    HeatmapOptions o = compactMap(caption);
    o.pinOnClick = false;
    return o;
}

// One strip of a padding mask: its title line and a row of cells tall enough to read.
float stripHeight(const LessonFrame& frame) { return ImGui::GetFontSize() + std::round(26.0f * frame.ctx.scale); }

// The band for b padding strips under a two-line heading.
float stripsHeight(const LessonFrame& frame) {
    return 2.0f * ImGui::GetFontSize() + 8.0f + static_cast<float>(frame.ctx.run.trace.batch) * stripHeight(frame);
}

// The mask exactly as stored: one strip (or one l × l map) per sentence, the shown one framed.
void storedMask(LessonFrame& frame, const Box& box) {
    const core::Trace& t = frame.ctx.run.trace;
    const bool strips = t[TensorId::Mask].dim(2) == 1;
    const float lineHeight = ImGui::GetFontSize();
    const float titleHeight = sayAt(frame, box.min, box.width(), "As stored: " + core::symbolicShape(TensorId::Mask, t) + " = " +
                                                                      t[TensorId::Mask].shapeString() + "  (yellow 1 = keep, hatched 0 = masked)", Tone::Plain) + 4.0f;
    Box rest{{box.min.x, box.min.y + titleHeight}, box.max};
    const float slot = strips ? stripHeight(frame) : rest.width() / static_cast<float>(t.batch);
    for (int s = 0; s < t.batch; ++s) {
        HeatmapOptions o = compact("sentence " + std::to_string(s));
        o.rowLabels = o.colLabels = false;  // each sentence has its own tokens: the cells' 1/0 and hatching say enough
        if (s == frame.ctx.state.batch) o.frameHead = 0;
        const Box cell = strips ? Box{{rest.min.x, rest.min.y + slot * static_cast<float>(s)}, {rest.max.x, rest.min.y + slot * static_cast<float>(s + 1) - 4.0f}}
                                : Box{{rest.min.x + slot * static_cast<float>(s), rest.min.y}, {rest.min.x + slot * static_cast<float>(s + 1) - lineHeight * 0.5f, rest.max.y}};
        showMapInBox(frame, computedRef(storedMaskOf(frame, s)), cell, o);
    }
}

// The shown sentence's mask as every head receives it after broadcasting.
void broadcastTiles(LessonFrame& frame, const Box& box) {
    const core::Trace& t = frame.ctx.run.trace;
    const MatrixRef full = computedRef(broadcastMaskOf(frame));
    const int tiles = std::min(kBroadcastTiles, t.dims.heads);
    const float titleHeight = sayAt(frame, box.min, box.width(), "Broadcast: every one of the h = " + std::to_string(t.dims.heads) +
                                                                      " heads gets the same l × l mask", Tone::Plain) + 4.0f;
    const Box rest{{box.min.x, box.min.y + titleHeight}, box.max};
    const float slot = rest.width() / static_cast<float>(tiles + (t.dims.heads > tiles ? 1 : 0));
    for (int i = 0; i < tiles; ++i) {
        HeatmapOptions o = compact("head " + std::to_string(i));
        o.rowLabels = o.colLabels = false;
        o.frameHead = i;
        showMapInBox(frame, full, {{rest.min.x + slot * static_cast<float>(i), rest.min.y},
                                                        {rest.min.x + slot * static_cast<float>(i + 1) - 10.0f, rest.max.y}}, o);
    }
    if (t.dims.heads > tiles) {
        sayAt(frame, {rest.min.x + slot * static_cast<float>(tiles), rest.min.y + rest.height() * 0.4f}, slot,
              "… " + std::to_string(t.dims.heads - tiles) + " more, all equal", Tone::Dim);
    }
}

// S_i masked → softmax → A_i as the softmax stage lays it out (scene/layout.h): each map with its own token
// labels, square cells, the weights' row sums; without the stage's charts, which the mask maps replace.
scene::Scene maskedScoresScene(const core::Trace& t, int head) {
    scene::SceneChoices choices;
    choices.head = head;
    std::optional<scene::Scene> softmax = scene::stageScene(core::StageId::Softmax, t, choices);
    softmax->side.reset();
    return *softmax;
}

// The mask as stored (left) and as every head receives it (right), side by side in `band`.
void maskBand(LessonFrame& frame, Box band) {
    const float gap = std::round(16.0f * frame.ctx.scale);
    storedMask(frame, takeLeft(band, band.width() * 0.45f));
    broadcastTiles(frame, {{band.min.x + gap, band.min.y}, band.max});
}

}  // namespace

void drawMasksLesson(LessonFrame& frame) {
    batchEditor(frame);
    maskControls(frame.ctx.state);
    ImGui::Spacing();
    const core::Trace& t = frame.ctx.run.trace;
    // What the mask does first, right under its controls (S and A at a size a back row reads, the page scrolling
    // rather than their labels shrinking below the floor); then the plain words; then the mask itself, as stored
    // and broadcast, which gives way (further down) when the window is small.
    const float gap = std::round(16.0f * frame.ctx.scale);
    const Box box = remainingBox(frame);
    const float below = showScene(frame, maskedScoresScene(t, frame.ctx.state.head), box).extent.y1 + gap;
    ImGui::SetCursorScreenPos({box.min.x, below});
    say(frame, shapeSentence(t));
    if (t.mask != MaskKind::None) say(frame, fillSentence(t));
    fullyMaskedSentence(frame);
    offerBundledDecoder(frame, "A decoder is trained behind the causal mask: in attnviz's own decoder every head's row stops at its own token.");
    if (t.mask == MaskKind::None) return;
    ImGui::Spacing();
    const ImVec2 top = ImGui::GetCursorScreenPos();
    const bool strips = t[TensorId::Mask].dim(2) == 1;
    const float bandHeight = strips ? stripsHeight(frame) : std::max(box.height() * 0.36f, std::round(220.0f * frame.ctx.scale));
    maskBand(frame, {top, {box.max.x, top.y + bandHeight}});
    frame.contentBottom = std::max(frame.contentBottom, top.y + bandHeight);
}

}  // namespace attnviz::ui
