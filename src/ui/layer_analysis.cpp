// layer_analysis.cpp — the layers, roles and copy views' numbers on the model worker, and the UI's desk for them. See
// layer_analysis.h.
#include "ui/layer_analysis.h"

#include "core/tokenizer.h"
#include "core/transformer/rollout.h"
#include "ui/model_runner.h"

#include <algorithm>
#include <new>

namespace attnviz::ui {
namespace {

// The most likely next token after every position of the pass's sentence 0 (l ids).
std::vector<int> predictedTokens(const core::TransformerModel& model, const core::TransformerPass& pass, int length) {
    std::vector<int> predicted;
    for (int position = 0; position < length; ++position) {
        Eigen::Index best = 0;
        core::nextTokenLogits(model, pass, 0, position).maxCoeff(&best);
        predicted.push_back(static_cast<int>(best));
    }
    return predicted;
}

}  // namespace

AnalysisResult computeAnalysis(const AnalysisRequest& request) {
    const core::ModelRun& run = *request.run;
    const int batch = std::clamp(request.batch, 0, static_cast<int>(run.tokenIds.size()) - 1);
    AnalysisResult result{request.runId, request.batch, request.kind, nullptr, {}};
    try {
        const core::TrainedModel* model = run.spec.trainedModel();
        if (model == nullptr) throw core::InputError("Only a trained model has layers to analyse.");
        const core::TransformerModel& transformer = model->transformer;
        const std::vector<int>& ids = run.tokenIds[static_cast<std::size_t>(batch)];
        const int length = static_cast<int>(ids.size());
        LayerAnalysis analysis;
        analysis.pass = core::runTransformer(transformer, {ids}, 0, core::modelAttention(transformer),
                                             {.allAttentionWeights = true, .steppedTrace = false});
        switch (request.kind) {
            case AnalysisKind::Layers:
                analysis.lens = core::logitLensAgreement(transformer, analysis.pass, 0, length);
                analysis.rollout = core::attentionRollout(analysis.pass.attentionWeights, 0, length);
                break;
            case AnalysisKind::Roles:
                analysis.roles = core::headRolesOnRepeats(transformer, *model->tokenizer, analysis.pass.attentionWeights, 0, ids);
                break;
            case AnalysisKind::Copy: analysis.predicted = predictedTokens(transformer, analysis.pass, length); break;
        }
        result.analysis = std::make_shared<const LayerAnalysis>(std::move(analysis));
    } catch (const core::InputError& error) {
        result.error = error.what();
    } catch (const std::bad_alloc&) {
        result.error = "Not enough memory to analyse this sentence's layers; try a shorter sentence.";
    }
    return result;
}

void AnalysisDesk::showRun(const std::shared_ptr<const core::ModelRun>& run, std::uint64_t id) {
    run_ = run;
    runId_ = id;
    arrived_.clear();
    asked_.reset();
}

std::shared_ptr<const LayerAnalysis> AnalysisDesk::get(int batch, AnalysisKind kind) {
    const Key key{batch, kind};
    if (const auto found = arrived_.find(key); found != arrived_.end()) return found->second.analysis;
    if (asked_ != key) {
        if (std::shared_ptr<const core::ModelRun> run = run_.lock()) {
            runner_.requestAnalysis({std::move(run), runId_, batch, kind});
            asked_ = key;
        }
    }
    return nullptr;
}

const std::string& AnalysisDesk::error(int batch, AnalysisKind kind) const {
    static const std::string none;
    const auto found = arrived_.find({batch, kind});
    return found != arrived_.end() ? found->second.error : none;
}

void AnalysisDesk::takeFinished() {
    std::optional<AnalysisResult> result = runner_.pollAnalysis();
    if (!result) return;
    if (result->runId != runId_) {  // asked for a run no longer on screen
        ++dropped_;
        return;
    }
    const Key key{result->batch, result->kind};
    if (asked_ == key) asked_.reset();
    arrived_[key] = std::move(*result);
}

}  // namespace attnviz::ui
