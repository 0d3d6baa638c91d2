// layer_analysis.h — what the "Through the layers", "Head roles" and "How does it copy?" views show of the sentence on
// screen, as the model worker (ModelRunner) computes it, off the UI thread: a pass of that sentence alone with every
// head on, then core's logit lens and attention rollout, core's head roles, or the next token predicted at every
// position. The lens alone puts every layer's residual stream
// through the prediction head, (n_layers + 1) × l × vocab × d_model multiply-adds: about a second for a
// GPT-2-small-shaped model at 64 tokens, which in a frame froze the window at every edit.
//
// AnalysisDesk is the UI's side: it asks the worker once for what a view needs, keeps what arrives for the run on
// screen, and drops what arrives for a run no longer shown, so a view never shows an old sentence's numbers as the
// new one's. What it deliberately does not do: compute anything itself, or draw.
#pragma once

#include "core/head_measures.h"
#include "core/model.h"
#include "core/transformer/logit_lens.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attnviz::ui {

class ModelRunner;

enum class AnalysisKind { Layers, Roles, Copy };

// One sentence of a trained model's run, analysed.
struct LayerAnalysis {
    core::TransformerPass pass;            // the sentence alone, every head on: hidden states, every layer's attention
    core::LensAgreement lens;              // Layers: (n_layers + 1) × l top ids and the final prediction's log-probs
    core::Tensor rollout;                  // Layers: n_layers × l × l, through layers 0 … i
    std::optional<core::HeadRoles> roles;  // Roles: every layer × head scored, and the repeated tokens' attention
    std::vector<int> predicted;            // Copy: l, the most likely next token after every position
};

// What a view asks the worker for: `kind` of sentence `batch` of `run`, which App names `runId` (App::generation()).
struct AnalysisRequest {
    std::shared_ptr<const core::ModelRun> run;  // a trained model's
    std::uint64_t runId = 0;
    int batch = 0;
    AnalysisKind kind = AnalysisKind::Layers;
};

struct AnalysisResult {
    std::uint64_t runId = 0;
    int batch = 0;
    AnalysisKind kind = AnalysisKind::Layers;
    std::shared_ptr<const LayerAnalysis> analysis;  // null when it failed
    std::string error;                              // one sentence a user can act on, else empty
};

// Computes `request` (on the worker: ModelRunner::requestAnalysis). InputError and allocation failures become
// AnalysisResult::error.
AnalysisResult computeAnalysis(const AnalysisRequest& request);

class AnalysisDesk {
public:
    explicit AnalysisDesk(ModelRunner& runner) : runner_(runner) {}
    // The run on screen changed (App, when it takes a run): what arrived for the old one goes. `id` names `run`.
    void showRun(const std::shared_ptr<const core::ModelRun>& run, std::uint64_t id);
    // `kind` of the run on screen's sentence `batch`, once the worker has delivered it; until then null, after asking
    // the worker for it (once per run, sentence and kind).
    std::shared_ptr<const LayerAnalysis> get(int batch, AnalysisKind kind);
    // Why the worker could not compute it, or empty (also while it is being computed).
    const std::string& error(int batch, AnalysisKind kind) const;
    // Takes the worker's finished analysis, if any (App, every frame); one for a run no longer on screen is dropped.
    void takeFinished();
    // How many finished analyses were dropped as another run's (tests).
    int dropped() const { return dropped_; }

private:
    using Key = std::pair<int, AnalysisKind>;  // batch, kind
    ModelRunner& runner_;
    std::weak_ptr<const core::ModelRun> run_;  // App owns the run; a request holds it while the worker needs it
    std::uint64_t runId_ = 0;
    std::map<Key, AnalysisResult> arrived_;    // for run_
    std::optional<Key> asked_;                 // the last asked for run_, not yet arrived
    int dropped_ = 0;
};

}  // namespace attnviz::ui
