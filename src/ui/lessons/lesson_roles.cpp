// lesson_roles.cpp — "What does each head do?": every layer × head of the open model scored for five roles as
// TransformerLens's head_detector scores them (core/head_measures.h: the share Σ(A ⊙ P) / ΣA of a head's attention
// on the role's 0/1 pattern P): previous-token, first-token (the attention sink) and self on the sentence on screen;
// duplicate-token and induction on random tokens repeated twice, where only copying predicts the second half.
// A layers × heads grid prints each head's strongest role and is coloured by its score; a line per role names its
// best heads (by their heads.json name where the model card names them); the best induction head's map on the
// repeated tokens shows its stripe one after each earlier copy.
//
// What it deliberately does not do: score anything itself (core does, on the model worker: layer_analysis.h) or follow
// switched-off heads.
#include "core/head_measures.h"
#include "core/transformer/prediction_words.h"
#include "ui/lessons/lesson_catalog.h"
#include "ui/lessons/lesson_views.h"
#include "ui/views/role_label.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace attnviz::ui {
namespace {

enum Matrix { kGrid, kInductionMap };
constexpr int kBestShown = 3;  // heads named per role

// The line naming a role: what its pattern is.
const char* roleLine(core::HeadRole role) {
    switch (role) {
        case core::HeadRole::PreviousToken: return "previous-token (prev: each token on the one before it)";
        case core::HeadRole::DuplicateToken: return "duplicate-token (dup: on earlier copies of the same token)";
        case core::HeadRole::Induction: return "induction (induct: on the token after an earlier copy)";
        case core::HeadRole::FirstToken: return "first-token (sink: on the first token)";
        case core::HeadRole::Self: return "self (on itself)";
    }
    return "";
}

std::string twoDigits(double value) {
    char text[16];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

// "1.3" or, for a head the model card names, "1.3 previous-token".
std::string headName(const core::TrainedModel& model, int layer, int head) {
    std::string name = std::to_string(layer) + "." + std::to_string(head);
    if (const core::NamedHead* named = model.namedHead(layer, head)) name += " " + named->name;
    return name;
}

// "induction: 1.2 0.93, 0.3 0.41, 1.0 0.20": the role's best heads, strongest first.
std::string bestHeads(const core::TrainedModel& model, const core::HeadRoles& roles, core::HeadRole role) {
    const core::Matrix& scores = roles.scores[static_cast<std::size_t>(role)];  // n_layers × h
    std::vector<int> order(static_cast<std::size_t>(scores.size()));
    std::iota(order.begin(), order.end(), 0);
    const int shown = std::min(kBestShown, static_cast<int>(order.size()));
    const auto scoreOf = [&](int i) { return scores(i / scores.cols(), i % scores.cols()); };
    std::partial_sort(order.begin(), order.begin() + shown, order.end(), [&](int a, int b) { return scoreOf(a) > scoreOf(b); });
    std::string line = roleLine(role);
    line += ":";
    for (int i = 0; i < shown; ++i) {
        const int at = order[static_cast<std::size_t>(i)];
        line += (i == 0 ? " " : ", ") + headName(model, at / static_cast<int>(scores.cols()), at % static_cast<int>(scores.cols())) + " " + twoDigits(scoreOf(at));
    }
    return line;
}

// The grid: n_layers × h scores of each head's strongest role, the role's short name in every cell.
MatrixRef gridRef(LessonFrame& frame, const core::HeadRoles& roles) {
    const int layers = static_cast<int>(roles.scores.front().rows()), heads = static_cast<int>(roles.scores.front().cols());
    core::Matrix strongest(layers, heads);
    ComputedSpec spec{"strongest role (rows: layers, columns: heads)", "layers \u00d7 h", core::Axis::Features, core::Axis::Features,
                      true, "", std::to_string(layers) + " × " + std::to_string(heads)};
    for (int layer = 0; layer < layers; ++layer) {
        for (int head = 0; head < heads; ++head) {
            const core::HeadRole role = core::strongestRole(roles, layer, head);
            strongest(layer, head) = roles.scores[static_cast<std::size_t>(role)](layer, head);
            spec.cellTexts.emplace_back(roleShortName(role));
        }
    }
    return computedRef(computedMatrix(frame, kGrid, 0, 0, spec, [&] { return strongest; }));
}

// The best induction head's map on the repeated tokens, labelled with their pieces: l × l.
scene::Map inductionMap(LessonFrame& frame, const core::TrainedModel& model, const core::HeadRoles& roles) {
    const core::Matrix& scores = roles.scores[static_cast<std::size_t>(core::HeadRole::Induction)];
    Eigen::Index layer = 0, head = 0;
    scores.maxCoeff(&layer, &head);
    const core::Tensor& a = roles.repeatedAttention;  // n_layers × 1 × h × l × l
    const core::Matrix map = a.slice(static_cast<int>(layer) * a.dim(2) + static_cast<int>(head));
    const std::string size = std::to_string(map.rows()) + " × " + std::to_string(map.cols());
    ComputedSpec spec{"best induction head " + std::to_string(layer) + "." + std::to_string(head) + " on the repeated tokens",
                      "l × l", core::Axis::QueryTokens, core::Axis::KeyTokens, true, "", size};
    for (int id : roles.repeated) spec.tokenLabels.push_back(core::choiceLabel(*model.tokenizer, id));
    return computedMap(computedMatrix(frame, kInductionMap, static_cast<int>(layer * 1000 + head), 0, spec, [&] { return map; }));
}

}  // namespace

void drawRolesLesson(LessonFrame& frame) {
    ViewContext& ctx = frame.ctx;
    const std::shared_ptr<const LayerAnalysis> analysis = trainedModelAnalysis(frame, AnalysisKind::Roles, "scores a trained model's heads");
    if (analysis == nullptr) return;
    const core::TrainedModel* model = ctx.run.spec.trainedModel();  // the model of the run on screen
    const std::optional<core::HeadRoles>& roles = analysis->roles;
    say(frame, "Every head scored as TransformerLens's head_detector scores it: the share of its attention that falls on a role's "
               "pattern (\u03a3 A\u2299P / \u03a3 A, 0 to 1). Previous-token, first-token and self are measured on this sentence; "
               "duplicate-token and induction on " + std::to_string(roles->repeated.size()) + " tokens: random ones, then the same "
               "again (right), where only copying can predict the second half. A score says where a head looks, not whether the "
               "model needs it: switch a head off (right-click it in a stage) to see that.");
    for (core::HeadRole role : core::kHeadRoles) say(frame, bestHeads(*model, *roles, role), Tone::Point);
    ImGui::Spacing();
    Box box = remainingBox(frame);
    box.min.y = showWordMap(frame, gridRef(frame, *roles), box).y + ImGui::GetStyle().ItemSpacing.y;  // the grid is a few rows: the map under it, the whole width
    const scene::Figure figure{scene::Line{{inductionMap(frame, *model, *roles)}}, "", "", {}};
    showScene(frame, {core::StageId::Softmax, {figure}, std::nullopt}, box);
}

}  // namespace attnviz::ui
