// panel_compare.cpp — the compare toggle, the second sentence's field, the A / B / A − B view and its inspector
// lines. See panel_compare.h.
#include "ui/panels/panel_compare.h"

#include "core/compare.h"
#include "core/display_text.h"
#include "scene/legend.h"
#include "ui/lessons/lesson_catalog.h"
#include "ui/views/number_format.h"
#include "ui/widgets/wide_characters.h"
#include "ui/widgets/widget_label.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace attnviz::ui {
namespace {

using core::TensorId;

const ImVec4 kHint{0.35f, 0.35f, 0.35f, 1.0f};
constexpr ImU32 kHoverOutline = IM_COL32(255, 150, 0, 255);

// Which of the three maps a computed matrix is (its number in the computed cache).
enum ComparedMatrix { kMatrixA, kMatrixB, kDifference };

// l × l ones, with the rows and columns from `aligned` on zero: the positions the other sentence does not have, hatched.
core::Matrix beyondShared(int length, int aligned) {
    core::Matrix keep = core::Matrix::Ones(length, length);
    keep.bottomRows(length - aligned).setZero();
    keep.rightCols(length - aligned).setZero();
    return keep;
}

// One of the three maps of the comparison as a computed matrix with its own token labels.
std::shared_ptr<const scene::Computed> comparedMatrix(LessonFrame& frame, ComparedMatrix which, const core::SentenceComparison& c) {
    const int head = frame.ctx.state.head;
    ComputedSpec spec;
    spec.rowAxis = core::Axis::QueryTokens;
    spec.colAxis = core::Axis::KeyTokens;
    spec.paperShape = "l × l";
    spec.probability = which != kDifference;
    spec.maskedLegend = scene::kBeyondOtherSentence;
    // As PyTorch holds each sentence's weights: 1 × h × l × l (A − B: the aligned square).
    const auto shapes = [&](const core::Matrix& m) {
        spec.tensorShape = which == kDifference ? "l × l" : "1 × h × l × l";
        spec.numericShape = (which == kDifference ? "" : "1 × " + std::to_string(frame.ctx.run.trace.dims.heads) + " × ") +
                            std::to_string(m.rows()) + " × " + std::to_string(m.cols());
    };
    // The hatching of positions the other sentence does not have: none when both have every position.
    const auto beyond = [&](const core::Matrix& weights) -> std::function<core::Matrix()> {
        if (c.sameLength()) return {};
        return [&c, &weights] { return beyondShared(static_cast<int>(weights.rows()), c.aligned); };
    };
    switch (which) {
        case kMatrixA:
            spec.name = withHead("A", head, " of A");
            spec.tokenLabels = c.tokensA;
            shapes(c.a);
            return computedMatrix(frame, which, head, 0, spec, [&] { return c.a; }, beyond(c.a));
        case kMatrixB:
            spec.name = withHead("A", head, " of B");
            spec.tokenLabels = c.tokensB;
            shapes(c.b);
            return computedMatrix(frame, which, head, 0, spec, [&] { return c.b; }, beyond(c.b));
        case kDifference:
            spec.name = "A \u2212 B";
            for (int p = 0; p < c.aligned; ++p) spec.tokenLabels.push_back(core::alignedLabel(c, p));
            shapes(c.difference);
            return computedMatrix(frame, which, head, 0, spec, [&] { return c.difference; });
    }
    return nullptr;
}

// "layer 2, head 0 of attnviz-mini-bert" (the seeded layer: "head 0").
std::string whichHead(const core::ModelRun& run, int head) {
    const core::TrainedLayer* trained = run.spec.trained();
    const std::string name = "head " + std::to_string(head);
    return trained ? "layer " + std::to_string(trained->layer) + ", " + name + " of " + trained->model->name : name;
}

// The aligned cell under the mouse in any of the drawn maps, in the maps' own (row, column).
std::optional<std::pair<int, int>> hoveredCell(const std::vector<std::optional<DrawnHeatmap>>& maps, int aligned) {
    if (!ImGui::IsWindowHovered()) return std::nullopt;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    for (const std::optional<DrawnHeatmap>& d : maps) {
        if (!d || mouse.x < d->min.x || mouse.y < d->min.y || mouse.x >= d->max.x || mouse.y >= d->max.y) continue;
        const int row = static_cast<int>((mouse.y - d->min.y) / (d->max.y - d->min.y) * static_cast<float>(d->rows));
        const int col = static_cast<int>((mouse.x - d->min.x) / (d->max.x - d->min.x) * static_cast<float>(d->cols));
        if (row < aligned && col < aligned) return std::pair{row, col};
    }
    return std::nullopt;
}

// The same cell outlined in every map (synchronised hover).
void outlineCell(const std::vector<std::optional<DrawnHeatmap>>& maps, std::pair<int, int> cell) {
    for (const std::optional<DrawnHeatmap>& d : maps) {
        if (!d || cell.first >= d->rows || cell.second >= d->cols) continue;
        const float cw = (d->max.x - d->min.x) / static_cast<float>(d->cols), ch = (d->max.y - d->min.y) / static_cast<float>(d->rows);
        const ImVec2 a{d->min.x + cw * static_cast<float>(cell.second), d->min.y + ch * static_cast<float>(cell.first)};
        ImGui::GetWindowDrawList()->AddRect({a.x - 1.0f, a.y - 1.0f}, {a.x + cw + 1.0f, a.y + ch + 1.0f}, IM_COL32(0, 0, 0, 255), 0.0f, 0, 4.0f);
        ImGui::GetWindowDrawList()->AddRect({a.x - 1.0f, a.y - 1.0f}, {a.x + cw + 1.0f, a.y + ch + 1.0f}, kHoverOutline, 0.0f, 0, 2.0f);
    }
}

// The question in large type, and the way out.
void compareHeader(LessonFrame& frame) {
    const float closeWidth = ImGui::CalcTextSize("Close ✕").x + 2.0f * ImGui::GetStyle().FramePadding.x;
    const float right = ImGui::GetWindowContentRegionMax().x, top = ImGui::GetCursorPosY();
    ImGui::PushFont(font(frame.ctx.fonts.large));
    ImGui::PushTextWrapPos(right - closeWidth - ImGui::GetStyle().ItemSpacing.x);
    const std::string question = core::compareQuestion(frame.ctx.run.spec.compareKind);
    ImGui::TextWrapped("%s", question.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    frame.report.texts.push_back(question);
    const ImVec2 below = ImGui::GetCursorPos();
    ImGui::SetCursorPos({right - closeWidth, top});
    if (ImGui::Button("Close ✕")) toggleCompare(frame.ctx.state);
    ImGui::SetCursorPos(below);
}

// What B can be, as the Inputs' choice names it.
struct KindChoice {
    core::CompareKind kind;
    const char* label;
    const char* tooltip;
};
constexpr std::array<KindChoice, 3> kKindChoices{{
    {core::CompareKind::Sentence, "B: another sentence", "B is a second sentence, typed below, through the same model."},
    {core::CompareKind::HeadsOff, "B: every head on",
     "A is the run on screen, with the heads you switched off (right-click a head); B the same sentence with every head on: A \u2212 B is what switching them off changed."},
    {core::CompareKind::Untrained, "B: model untrained",
     "B is the same sentence through the same model before training: every weight redrawn at initialisation (seed 42)."},
}};

// The choice of B; heads off and untrained only for a trained model (the seeded layer is one random layer).
void compareKindChoice(AppState& state) {
    const bool trained = state.spec.trained() != nullptr;
    const auto current = std::find_if(kKindChoices.begin(), kKindChoices.end(), [&](const KindChoice& c) { return c.kind == state.spec.compareKind; });
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (!ImGui::BeginCombo("##compare against", widgetLabel(current->label).c_str())) return;
    for (const KindChoice& choice : kKindChoices) {
        const bool offered = trained || choice.kind == core::CompareKind::Sentence;
        if (ImGui::Selectable(widgetLabel(choice.label).c_str(), choice.kind == state.spec.compareKind, offered ? 0 : ImGuiSelectableFlags_Disabled)) state.spec.compareKind = choice.kind;
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
            ImGui::SetTooltip("%s", offered ? choice.tooltip : "Needs a trained model (Model \u25B8 open one): the seeded layer is already random and has no layers around it.");
        }
    }
    ImGui::EndCombo();
}

}  // namespace

void toggleCompare(AppState& state) {
    core::ModelSpec& spec = state.spec;
    if (spec.compareWith) {
        state.compareDraft = *spec.compareWith;
        spec.compareWith.reset();
        return;
    }
    const std::size_t shown = static_cast<std::size_t>(std::clamp(state.batch, 0, static_cast<int>(spec.sentences.size()) - 1));
    spec.compareWith = state.compareDraft.empty() ? core::defaultComparedSentence(spec.sentences[shown]) : state.compareDraft;
    if (state.lesson.open != Lesson::None) closeLesson(state);  // the compare view takes the centre
}

void compareField(AppState& state, const RunStatus& status) {
    bool on = state.spec.compareWith.has_value();
    if (ImGui::Checkbox("compare (C)", &on)) toggleCompare(state);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("A second sentence beside this one: the centre shows A, B and A \u2212 B for the focused head.");
    if (!state.spec.compareWith) return;
    compareKindChoice(state);
    if (state.spec.compareKind != core::CompareKind::Sentence) return;
    ImGui::SetNextItemWidth(-FLT_MIN);
    inputTextKeepingWideCharacters("##compared sentence", *state.spec.compareWith);
    if (status.run && status.run->compared) ImGui::TextColored(kHint, "B: %zu tokens", status.run->compared->tokens.at(0).size());
}

void drawCompareView(LessonFrame& frame) {
    ViewContext& ctx = frame.ctx;
    AppState& state = ctx.state;
    compareHeader(frame);
    core::SentenceComparison c;
    try {
        c = core::compareSentences(ctx.run, state.batch, state.head);
    } catch (const core::InputError& error) {
        say(frame, error.what(), Tone::Warning);
        return;
    }
    headPicker(frame);
    const core::PairWords words = core::pairWords(ctx.run, state.batch);
    say(frame, words.a + ",  " + words.b + ": " + whichHead(ctx.run, state.head) + ", aligned by position.");
    if (const std::string warning = core::lengthWarning(c); !warning.empty()) say(frame, warning, Tone::Warning);
    if (const std::string why = core::whyNoDifference(ctx.run.spec); !why.empty()) say(frame, why, Tone::Warning);
    say(frame, core::largestChangeText(c), Tone::Point);
    say(frame, "A and B share one colour scale; A \u2212 B has its own, symmetric around 0: red where A attends more, blue where B does. "
               "Hover a cell: it is outlined in all three maps and the inspector gives both values.", Tone::Dim);
    ImGui::Spacing();

    const auto a = comparedMatrix(frame, kMatrixA, c), b = comparedMatrix(frame, kMatrixB, c), d = comparedMatrix(frame, kDifference, c);
    const MatrixRef refA = computedRef(a), refB = computedRef(b), refD = computedRef(d);
    const colormap::Range shared = sharedWeightsRange({{&ctx, refA}, {&ctx, refB}});
    const float largest = std::max(c.largestDifference(), 1e-6f);
    scene::Map mapA = computedMap(a), mapB = computedMap(b), mapD = computedMap(d);
    mapA.title = "A";
    mapB.title = "B";
    mapD.title = "A \u2212 B";
    mapA.colorbar = scene::Colorbar::None;
    mapA.range = mapB.range = std::pair{shared.lo, shared.hi};
    mapD.range = std::pair{-largest, largest};
    const int focus = core::followedQueryRow(ctx.run, state.batch, state.head);
    if (focus >= 0 && focus < c.aligned) mapA.focusRow = mapB.focusRow = mapD.focusRow = focus;
    const scene::Figure figure{scene::Line{{mapA, scene::Operator{"vs"}, mapB, scene::Operator{"\u2192"}, mapD}}, "", "", {}};
    showScene(frame, {core::StageId::Softmax, {figure}, std::nullopt}, remainingBox(frame));

    const std::vector<std::optional<DrawnHeatmap>> drawn{lastDrawn(ctx.drawn, refA), lastDrawn(ctx.drawn, refB), lastDrawn(ctx.drawn, refD)};
    state.compareHovered = hoveredCell(drawn, c.aligned);
    if (state.compareHovered) outlineCell(drawn, *state.compareHovered);
}

bool drawCompareInspector(const ViewContext& ctx) {
    if (!ctx.state.spec.compareWith || !ctx.run.compared || !ctx.state.compareHovered) return false;
    core::SentenceComparison c;
    try {
        c = core::compareSentences(ctx.run, ctx.state.batch, ctx.state.head);
    } catch (const core::InputError&) {
        return false;
    }
    const int row = ctx.state.compareHovered->first, col = ctx.state.compareHovered->second;  // named, not bound: clang 14 (the fuzz preset) cannot capture a structured binding
    if (row >= c.aligned || col >= c.aligned) return false;
    const auto cell = [&](const std::vector<std::string>& tokens) {
        return "[" + core::labelText(tokens[static_cast<std::size_t>(row)]) + ", " + core::labelText(tokens[static_cast<std::size_t>(col)]) + "]";
    };
    ImGui::TextWrapped("Head %d, query %d looking at key %d, in A and in B:", ctx.state.head, row, col);
    ImGui::TextWrapped("A%s = %s", cell(c.tokensA).c_str(), formatValue(c.a(row, col)).c_str());
    ImGui::TextWrapped("B%s = %s", cell(c.tokensB).c_str(), formatValue(c.b(row, col)).c_str());
    ImGui::PushFont(font(ctx.fonts.large));
    ImGui::TextUnformatted(("A \u2212 B = " + formatValue(c.difference(row, col))).c_str());
    ImGui::PopFont();
    ImGui::TextColored(kHint, "Each is softmax(q k\u1D40 / \u221Ad_k) of its own forward pass.");
    return true;
}

}  // namespace attnviz::ui
