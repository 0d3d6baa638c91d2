// model_runner.h — computes ModelRuns, on the caller's thread when they are small and on a worker thread
// when they are not, so the UI never freezes: it keeps showing the previous run and says "computing…".
//
// Only the newest request matters: a request made while the worker is busy replaces any queued one and
// starts when the worker is done. Runs no longer shown are freed on a background thread too. Does not decide
// what to compute (App does) or touch ImGui.
#pragma once

#include "core/model.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace attnviz::ui {

struct RunResult {
    std::shared_ptr<const core::ModelRun> run;  // null when the inputs were rejected
    std::string error;                          // one sentence a user can act on
};

// Whether a spec is small enough to compute between two frames: up to l = 128 and d_model = 512.
bool computesInstantly(const core::ModelSpec& spec);
// Whether `next` can start from `base`'s projections (core::rerunAttention): self-attention where only the
// settings of stages [3–10] differ (mask, fill, softmax, scale, padded queries).
bool reusesProjections(const core::ModelSpec& base, const core::ModelSpec& next);

class ModelRunner {
public:
    ModelRunner() = default;
    ModelRunner(const ModelRunner&) = delete;
    ModelRunner& operator=(const ModelRunner&) = delete;
    // Waits for the job in progress (a queued one is dropped) and for the runs being released.
    ~ModelRunner();

    // Computes `spec` now if computesInstantly(spec) and the worker is idle, else on the worker (queued behind
    // a running job). `base`, the run on screen, lends its projections when only the mask or the softmax
    // settings changed. `options`: what the run keeps beyond the stepped layer (core::RunOptions).
    void request(const core::ModelSpec& spec, std::shared_ptr<const core::ModelRun> base = nullptr, const core::RunOptions& options = {});
    // The newest finished result not yet taken, if any.
    std::optional<RunResult> poll();
    bool busy() const;
    // How many jobs the worker has computed (a replaced queued request is never computed).
    int workerJobs() const;
    // Blocks until the worker and the queue are done (tests, shutdown).
    void wait();
    // Lets go of `run` (no longer on screen) on a background thread: freeing a big run's Trace (hundreds of MiB
    // at l = 1024) takes long enough to show as a stutter when the UI thread does it.
    void release(std::shared_ptr<const core::ModelRun> run);

private:
    struct Request {
        core::ModelSpec spec;
        std::shared_ptr<const core::ModelRun> base;
        core::RunOptions options;
    };
    void work();                         // the worker thread: computes queued_ until stopping_
    std::optional<Request> nextJob();    // waits for one; nullopt when stopping_
    void finish(RunResult result);       // publishes the worker's result
    void releaseAll();                   // the releaser thread: drops released_ runs until stopping_

    // Both threads live as long as the runner (started on first use), so taking a result never waits for a
    // thread to exit, and both run at a lower priority than the UI thread (model_runner.cpp).
    std::thread worker_, releaser_;
    mutable std::mutex mutex_;            // guards everything below
    std::condition_variable wake_;        // a job, a run to release, or stopping_
    std::condition_variable idle_;        // the worker finished a job and none is queued
    std::optional<Request> queued_;       // the next job (only the newest request matters)
    bool working_ = false;                // the worker is computing a job
    int workerJobs_ = 0;                  // jobs the worker finished
    std::optional<RunResult> finished_;   // the worker's newest result, not yet taken
    std::optional<RunResult> ready_;      // an inline result, not yet taken
    std::vector<std::shared_ptr<const core::ModelRun>> released_;
    bool stopping_ = false;
};

// runModel (or rerunAttention from `base` when reusesProjections) with InputError and allocation failures
// turned into RunResult::error.
RunResult computeRun(const core::ModelSpec& spec, const core::ModelRun* base = nullptr, const core::RunOptions& options = {});

}  // namespace attnviz::ui
