// panel_stage_text.cpp — under the matrices: the stage's formula, its PyTorch line (Annotated Transformer
// style) and its NumPy equivalent with this run's shapes substituted, each copyable, the plain explanation, and the teaching point this stage makes
// with this run's numbers (shapes, heads see all of X, cost per head, masks broadcast).
// The texts come from core::stages() (stage 3's RoPE step: core::ropeStep()); this file only adds the numbers.
#include "core/decoder_lessons.h"
#include "core/display_text.h"
#include "core/transformer/transformer.h"
#include "scene/scene.h"
#include "ui/panels/panels.h"
#include "ui/views/sentence_notes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace attnviz::ui {
namespace {

using core::StageId;

std::string maskNote(const core::ModelRun& run) {
    const core::Trace& t = run.trace;
    switch (t.mask) {
        case core::MaskKind::None:
            // A trained model's panel has no mask choice: its own architecture decides.
            if (run.spec.trainedModel()) return "No mask in this run: BERT reads both sides of every word, so one sentence needs none; a batch of sentences of different lengths gets a padding mask.";
            return "No mask in this run: try the causal or padding mask buttons above (or the mask choice under Inputs).";
        case core::MaskKind::Padding:
            return "Padding mask b × 1 × 1 × l = " + t[core::TensorId::Mask].shapeString() +
                   ": one row, broadcast to every head and every query (PyTorch broadcasting).";
        case core::MaskKind::Causal: case core::MaskKind::Both:
            return "Causal mask b × 1 × l × l = " + t[core::TensorId::Mask].shapeString() +
                   ": a row per query, broadcast to every head. " + std::to_string(t.fullyMaskedRowCount()) + " rows are fully masked.";
    }
    return {};
}

// Grouped-query attention (Llama-family models): what sharing K/V heads means, with this run's numbers; "" otherwise.
std::string sharedHeadsNote(const core::Dimensions& d) {
    if (d.kvHeads == 0 || d.kvHeads == d.heads) return {};
    const int group = d.heads / d.kvHeads;
    return " K/V have h_kv = " + std::to_string(d.kvHeads) + " heads shared by h/h_kv = " + std::to_string(group) +
           " query heads each (query head i reads K/V head i / " + std::to_string(group) + "): W^K and W^V are d_model × h_kv·d_k = " +
           std::to_string(d.dModel) + " × " + std::to_string(d.kvHeads * d.dK) + ".";
}

// One sentence with this run's numbers for the stage's teaching point.
std::string teachingNote(const core::ModelRun& run, StageId stage) {
    const core::Trace& t = run.trace;
    const core::Dimensions& d = t.dims;
    const long long l = t.queryLength;
    const bool cls = core::seededChoices(run.spec).prependCls;
    switch (stage) {
        case StageId::Tokens:
            if (t.cross) {
                return "b = " + std::to_string(t.batch) + " sentence pair(s): l_k = " + std::to_string(t.keyLength) + " encoder tokens, l_q = " +
                       std::to_string(l) + " decoder tokens" + (cls ? ", [CLS] first." : ".");
            }
            return "b = " + std::to_string(t.batch) + " sentence(s), l = " + std::to_string(l) + " tokens" + (cls ? ", [CLS] first." : ".");
        case StageId::Embed:
            return "X is l × d_model = " + std::to_string(l) + " × " + std::to_string(d.dModel) + ": one row of d_model numbers per token.";
        case StageId::Project:
            return "W^Q is d_model × h·d_k = " + std::to_string(d.dModel) + " × " + std::to_string(d.heads * d.dK) + ": h = " +
                   std::to_string(d.heads) + " blocks of d_k = " + std::to_string(d.dK) + " columns side by side, one per head (the question \"Why 3 linear layers for Q, K, V instead of 3·h?\" shows why)." +
                   sharedHeadsNote(d);
        case StageId::SplitHeads: {
            char diff[32];
            std::snprintf(diff, sizeof diff, "%.2g", static_cast<double>(t.perHeadMaxDifference));
            const std::string rope = t.has(core::TensorId::QHeadsBeforeRope)
                                         ? " Then RoPE turns each q and k row by its position (the heads before RoPE are kept too)."
                                         : "";
            return "Every head saw all of X: computing each Q_i with its own d_model × d_k = " + std::to_string(d.dModel) + " × " +
                   std::to_string(d.dK) + " matrix W_i^Q gives the same numbers (largest difference " + diff + ")." + sharedHeadsNote(d) + rope;
        }
        case StageId::Scores: {
            const long long lk = t.keyLength;
            const std::string lengths = t.cross ? "l_q · l_k" : "l²";
            const std::string numbers = t.cross ? std::to_string(l) + " · " + std::to_string(lk) : std::to_string(l) + "²";
            // A RoPE model's scores are of q and k turned by their positions (stage 3's R step), not of Q_i and K_i as projected.
            const std::string afterRope = t.has(core::TensorId::QHeadsBeforeRope)
                                              ? "Q_i and K_i here are after RoPE: each row turned by its position (stage 3, R), so a score "
                                                "depends on the two tokens' offset. "
                                              : "";
            return afterRope + "Cost: h · " + lengths + " · d_k = " + std::to_string(d.heads) + " · " + numbers + " · " + std::to_string(d.dK) + " = " +
                   core::groupedDigits(d.heads * l * lk * d.dK) + " multiply-adds, the same as one head of width d_model: " + lengths +
                   " · d_model = " + core::groupedDigits(l * lk * d.dModel) + ".";
        }
        case StageId::Scale: {
            char scale[32];
            std::snprintf(scale, sizeof scale, "%.4g", static_cast<double>(d.scale));
            return "Scale = 1/√d_k = 1/√" + std::to_string(d.dK) + " = " + scale + ". Both maps use the same colors per value, so the shrink shows.";
        }
        case StageId::Mask: return maskNote(run);
        case StageId::Softmax: return "Every row of A_i sums to 1 (the row Σ column); masked keys get weight 0.";
        case StageId::WeightedSum:
            return "Z_i is l × d_v = " + std::to_string(l) + " × " + std::to_string(d.dV) + " for each of the h = " + std::to_string(d.heads) + " heads.";
        case StageId::Concat:
            return "h · d_v = " + std::to_string(d.heads) + " · " + std::to_string(d.dV) + " = " + std::to_string(d.heads * d.dV) +
                   (d.heads * d.dV == d.dModel ? " columns: d_model again." : " columns (W^O maps them back to d_model = " + std::to_string(d.dModel) + ").") +
                   " Nothing is computed here, only moved.";
        case StageId::Output:
            return "O is l × d_model = " + std::to_string(l) + " × " + std::to_string(d.dModel) + ", the shape of X, so attention layers stack.";
        case StageId::Count: break;
    }
    return {};
}

// Llama 3's rope_scaling, when the model has it: the θ_j shown are not rope_theta^(−2j/d_k) alone. "" without it.
std::string ropeScalingNote(const core::TransformerConfig& config) {
    if (!config.ropeScaling) return {};
    const core::Llama3RopeScaling& s = *config.ropeScaling;
    char text[240];
    std::snprintf(text, sizeof text, " θ_j include llama3 rope_scaling: a pair turning slower than once per %.4g positions is divided by %.3g, "
                  "faster than once per %.4g kept, blended between.",
                  s.originalMaxPositions / s.lowFreqFactor, s.factor, s.originalMaxPositions / s.highFreqFactor);
    return text;
}

// The RoPE step's numbers: how many pairs turn, and how fast the fastest and the slowest (a full turn every 2π/θ_j
// tokens); "" when the run's frequencies are not known here.
std::string ropeNote(const core::ModelRun& run) {
    const core::TrainedLayer* trained = run.spec.trained();
    const core::RowVector theta = trained ? core::rotaryFrequencies(trained->model->config()) : run.spec.attention.rotaryFrequencies;
    if (theta.size() < 2) return {};
    const Eigen::Index last = theta.size() - 1;
    const auto pair = [&](Eigen::Index j) {
        char words[96];
        std::snprintf(words, sizeof words, "pair %d by θ_%d = %.3g rad per position (a full turn every %.3g tokens)", static_cast<int>(j),
                      static_cast<int>(j), static_cast<double>(theta(j)), 2.0 * std::numbers::pi / static_cast<double>(theta(j)));
        return std::string(words);
    };
    return "d_k = " + std::to_string(run.trace.dims.dK) + ": " + std::to_string(theta.size()) + " pairs. " + pair(0) + ", " + pair(last) +
           ": fast pairs tell near tokens apart, slow pairs far ones." + (trained ? ropeScalingNote(trained->model->config()) : std::string());
}

// Stage 3 shows its RoPE step (the R key) and this run's q and k were turned by position.
bool showsRopeStep(const ViewContext& ctx) {
    return ctx.state.stage == StageId::SplitHeads && ctx.state.ropeStep && scene::hasRopeStep(ctx.run.trace);
}

// The tokens stage: the words outside the vocabulary; the stages of one head's maps: what a named head does on this
// sentence.
std::string sentenceNote(const ViewContext& ctx) {
    if (ctx.state.stage == StageId::Tokens) return vocabularyNoticeOf(ctx.run, ctx.state.batch);
    if (ctx.state.stage >= StageId::Scores && ctx.state.stage <= StageId::WeightedSum) return namedHeadReading(ctx);
    return {};
}

// A code line's language column: "PyTorch" or "NumPy  ", one width for both.
std::string languageLabel(const char* language) {
    char label[16];
    std::snprintf(label, sizeof label, "%-7s", language);
    return label;
}

// The code panel: a "Copy" button, the language, and the line in the monospace font (issue 5, item 10).
void drawCodeLine(const char* language, const std::string& code, ViewContext& ctx) {
    ImGui::PushID(language);
    if (ImGui::SmallButton("Copy")) {
        ImGui::SetClipboardText(code.c_str());
        ctx.state.status = std::string(language) + " line copied to the clipboard.";
    }
    ImGui::PopID();
    ImGui::SameLine();
    ImGui::TextDisabled("%s", languageLabel(language).c_str());
    ImGui::SameLine();
    ImGui::PushFont(font(ctx.fonts.mono));
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.15f, 0.35f, 0.15f, 1.0f));
    ImGui::TextWrapped("%s", core::clipped(code).c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

}  // namespace

StageText stageText(const ViewContext& ctx) {
    if (showsRopeStep(ctx)) {
        const core::StageWords words = core::ropeStepWords(ctx.run);
        return {words.formula, {{"PyTorch", words.pytorch}, {"NumPy", core::codeLine(core::ropeStep(), ctx.run.trace, true)}},
                words.explanation, ropeNote(ctx.run), {}};
    }
    const core::StageWords words = core::stageWords(ctx.run, ctx.state.stage);
    const core::TrainedLayer* trained = ctx.run.spec.trained();
    const bool ownWords = trained && core::trainedStageWords(*trained->model, trained->layer, ctx.state.stage);
    StageText text{words.formula, {{"PyTorch", words.pytorch}}, words.explanation, teachingNote(ctx.run, ctx.state.stage), sentenceNote(ctx)};
    // A trained model's own embedding has no one-line NumPy equivalent.
    if (!ownWords) text.code.emplace_back("NumPy", core::codeLine(core::stage(ctx.state.stage), ctx.run.trace, true));
    return text;
}

float stageTextHeight(const StageText& lines, const ViewContext& ctx, float panelWidth) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float contentWidth = panelWidth - 2.0f * style.WindowPadding.x;
    const auto wrapped = [](ImFont* f, float width, const std::string& text) {
        return f->CalcTextSizeA(f->FontSize, FLT_MAX, std::max(1.0f, width), text.c_str()).y;
    };
    ImFont* regular = ImGui::GetFont();
    float height = 2.0f * style.WindowPadding.y + font(ctx.fonts.large)->FontSize;
    for (const auto& [language, code] : lines.code) {
        const float indent = ImGui::CalcTextSize("Copy").x + 2.0f * style.FramePadding.x + style.ItemSpacing.x +
                             ImGui::CalcTextSize(languageLabel(language).c_str()).x + style.ItemSpacing.x;
        height += style.ItemSpacing.y + std::max(ImGui::GetFontSize(), wrapped(font(ctx.fonts.mono), contentWidth - indent, code));
    }
    height += style.ItemSpacing.y + wrapped(regular, contentWidth, lines.explanation);
    height += style.ItemSpacing.y + wrapped(regular, contentWidth, lines.note);
    if (!lines.sentenceNote.empty()) height += style.ItemSpacing.y + wrapped(regular, contentWidth, lines.sentenceNote);
    return std::ceil(height);
}

void drawStageText(const StageText& lines, ViewContext& ctx) {
    ImGui::PushFont(font(ctx.fonts.large));
    ImGui::TextUnformatted(lines.formula.c_str());
    ImGui::PopFont();
    for (const auto& [language, code] : lines.code) drawCodeLine(language, code, ctx);
    ImGui::TextWrapped("%s", core::clipped(lines.explanation).c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.1f, 0.3f, 0.6f, 1.0f));
    ImGui::TextWrapped("%s", core::clipped(lines.note).c_str());
    ImGui::PopStyleColor();
    if (lines.sentenceNote.empty()) return;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.65f, 0.35f, 0.0f, 1.0f));
    ImGui::TextWrapped("%s", core::clipped(lines.sentenceNote).c_str());
    ImGui::PopStyleColor();
}

}  // namespace attnviz::ui
