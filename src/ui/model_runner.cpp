// model_runner.cpp — inline or worker-thread forward passes. See model_runner.h.
#include "ui/model_runner.h"

#include "core/derived_maps.h"
#include "core/tokenizer.h"

#include <chrono>
#include <cstring>
#include <new>

namespace attnviz::ui {

namespace {

template <typename EigenMatrix>
bool sameBytes(const EigenMatrix& a, const EigenMatrix& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           (a.size() == 0 || std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(float)) == 0);
}

}  // namespace

bool sameWeights(const core::Weights& a, const core::Weights& b) {
    return sameBytes(a.wq, b.wq) && sameBytes(a.wk, b.wk) && sameBytes(a.wv, b.wv) && sameBytes(a.wo, b.wo) &&
           sameBytes(a.bq, b.bq) && sameBytes(a.bk, b.bk) && sameBytes(a.bv, b.bv) && sameBytes(a.bo, b.bo);
}

bool sameInputs(const core::ModelSpec& a, const core::ModelSpec& b) {
    const bool weights = a.customWeights && b.customWeights ? sameWeights(*a.customWeights, *b.customWeights)
                                                            : a.customWeights.has_value() == b.customWeights.has_value();
    return weights && sameInputsApartFromWeights(a, b);
}

bool sameInputsApartFromWeights(const core::ModelSpec& a, const core::ModelSpec& b) {
    const core::AttentionConfig &x = a.attention, &y = b.attention;
    return a.sentences == b.sentences && a.decoderSentences == b.decoderSentences && a.seed == b.seed &&
           a.positional == b.positional && a.prependCls == b.prependCls && a.biases == b.biases && a.tokenLimit == b.tokenLimit &&
           a.embeddingTable == b.embeddingTable &&
           a.cellEdits == b.cellEdits && a.encoderSelfAttentionFirst == b.encoderSelfAttentionFirst &&
           a.decoderCausalSelfAttentionFirst == b.decoderCausalSelfAttentionFirst && x.dModel == y.dModel && x.heads == y.heads &&
           x.dK == y.dK && x.dV == y.dV && x.mask == y.mask && x.fill == y.fill && x.softmax == y.softmax && x.scale == y.scale &&
           x.comparePerHead == y.comparePerHead && x.maskPaddedQueries == y.maskPaddedQueries;
}

bool computesInstantly(const core::ModelSpec& spec) {
    if (spec.attention.dModel > 512) return false;
    const core::TokenizeOptions options{spec.prependCls, spec.tokenLimit};
    for (const std::string& sentence : spec.sentences) {
        try {
            if (core::tokenize(sentence, options).size() > 128) return false;
        } catch (const core::InputError&) {
            // runModel reports it; it costs nothing to find out inline.
        }
    }
    return true;
}

bool reusesProjections(const core::ModelSpec& base, const core::ModelSpec& next) {
    if (!base.decoderSentences.empty() || !next.decoderSentences.empty()) return false;
    core::ModelSpec aligned = next;  // next with base's settings of stages [3–10]: must then equal base
    core::AttentionConfig& a = aligned.attention;
    const core::AttentionConfig& b = base.attention;
    a.mask = b.mask;
    a.fill = b.fill;
    a.softmax = b.softmax;
    a.scale = b.scale;
    a.maskPaddedQueries = b.maskPaddedQueries;
    return sameInputs(aligned, base);
}

RunResult computeRun(const core::ModelSpec& spec, const core::ModelRun* base) {
    try {
        core::ModelRun run = base && reusesProjections(base->spec, spec) ? core::rerunAttention(*base, spec) : core::runModel(spec);
        core::recordValueStats(run.trace);  // here, on the worker for big runs: the UI's colour scales need them
        return {std::make_shared<const core::ModelRun>(std::move(run)), {}};
    } catch (const core::InputError& error) {
        return {nullptr, error.what()};
    } catch (const std::bad_alloc&) {
        return {nullptr, "Not enough memory for these sizes; try a smaller d_model or a shorter sentence."};
    }
}

ModelRunner::~ModelRunner() { wait(); }

void ModelRunner::request(const core::ModelSpec& spec, std::shared_ptr<const core::ModelRun> base) {
    if (busy()) {
        queued_ = Request{spec, std::move(base)};
        return;
    }
    if (computesInstantly(spec)) {
        ready_ = computeRun(spec, base.get());
        return;
    }
    startWorker({spec, std::move(base)});
}

void ModelRunner::startWorker(Request request) {
    worker_ = std::async(std::launch::async, [request = std::move(request)] { return computeRun(request.spec, request.base.get()); });
}

bool ModelRunner::busy() const {
    return worker_.valid() && worker_.wait_for(std::chrono::seconds(0)) != std::future_status::ready;
}

std::optional<RunResult> ModelRunner::poll() {
    if (worker_.valid() && !busy()) {
        ready_ = worker_.get();
        if (queued_) {
            Request next = std::move(*queued_);
            queued_.reset();
            request(next.spec, std::move(next.base));
        }
    }
    std::optional<RunResult> result = std::move(ready_);
    ready_.reset();
    return result;
}

void ModelRunner::wait() {
    while (worker_.valid()) {
        worker_.wait();
        std::optional<RunResult> result = poll();
        if (result) ready_ = std::move(result);
    }
}

}  // namespace attnviz::ui
