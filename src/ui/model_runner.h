// model_runner.h — computes ModelRuns, on the caller's thread when they are small and on a worker thread
// when they are not, so the UI never freezes: it keeps showing the previous run and says "computing…".
//
// Only the newest request matters: a request made while the worker is busy replaces any queued one and
// starts when the worker is done. The same worker computes the layers and roles views' analyses (layer_analysis.h),
// after any run asked for. Runs no longer shown are freed on a background thread too. KvCacheFollower keeps
// the prediction panel's KV cache following the sentence, on a thread of its own. Does not decide what to compute
// (App does) or touch ImGui.
//
// Without threads (the web page: core::kThreadsAvailable is false) a job too big to compute inline waits in the queue
// through one poll() and is computed by the next, on the caller's thread: the frame between draws "Computing the
// forward pass…", so a long pass shows its notice before the page stops for it instead of freezing silently. The KV
// cache steps once per follow() call.
#pragma once

#include "core/model.h"
#include "core/transformer/kv_cache.h"
#include "ui/layer_analysis.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

namespace attnviz::ui {

struct RunResult {
    std::shared_ptr<const core::ModelRun> run;  // null when the inputs were rejected
    std::string error;                          // one sentence a user can act on
    // When run->spec switches heads off: the same inputs with every head on (the prediction's "before"); else null.
    std::shared_ptr<const core::ModelRun> intact;
};

// Whether a spec is small enough to compute between two frames: up to l = 128 and d_model = 512.
bool computesInstantly(const core::ModelSpec& spec);
// Whether `next` can start from `base`'s projections (core::rerunAttention): self-attention where only the
// settings of stages [3–10] differ (mask, fill, softmax, scale, padded queries).
bool reusesProjections(const core::ModelSpec& base, const core::ModelSpec& next);
// Whether `next` differs from `base` only in the heads switched off (a trained model): core::rerunHeadsOff reruns
// from the first layer whose heads changed.
bool onlyHeadsOffDiffer(const core::ModelSpec& base, const core::ModelSpec& next);

class ModelRunner {
public:
    ModelRunner();  // with threads where the build has them (core::kThreadsAvailable)
    // `threads` false: no worker and no releaser thread, as in the web page (tests choose it on the desktop).
    explicit ModelRunner(bool threads) : threads_(threads) {}
    ModelRunner(const ModelRunner&) = delete;
    ModelRunner& operator=(const ModelRunner&) = delete;
    // Waits for the job in progress (a queued one is dropped) and for the runs being released.
    ~ModelRunner();

    // Computes `spec` now if computesInstantly(spec) and the worker is idle, else on the worker (queued behind
    // a running job). `base`, the run on screen, lends its projections when only the mask or the softmax
    // settings changed, or its layers before the first whose heads off changed; `baseIntact`: the run with every head
    // on that the caller has (base itself, or base's RunResult::intact), or null.
    // `options`: what the run keeps beyond the stepped layer (core::RunOptions).
    void request(const core::ModelSpec& spec, std::shared_ptr<const core::ModelRun> base = nullptr, const core::RunOptions& options = {},
                 std::shared_ptr<const core::ModelRun> baseIntact = nullptr);
    // The newest finished result not yet taken, if any.
    std::optional<RunResult> poll();
    bool busy() const;
    // How many jobs the worker has computed (a replaced queued request is never computed).
    int workerJobs() const;
    // Computes `request` on the worker, always (never in the caller's frame), after any run asked for; replaces an
    // analysis still queued, which is then never computed.
    void requestAnalysis(AnalysisRequest request);
    // The newest finished analysis not yet taken, if any.
    std::optional<AnalysisResult> pollAnalysis();
    // An analysis queued or being computed.
    bool analysing() const;
    // How many analyses the worker has computed.
    int analysesComputed() const;
    // Blocks until the worker and the queue (runs and analyses) are done (tests, shutdown).
    void wait();
    // Lets go of `run` (no longer on screen) on a background thread: freeing a big run's Trace (hundreds of MiB
    // at l = 1024) takes long enough to show as a stutter when the UI thread does it.
    void release(std::shared_ptr<const core::ModelRun> run);

private:
    struct Request {
        core::ModelSpec spec;
        std::shared_ptr<const core::ModelRun> base;
        core::RunOptions options;
        std::shared_ptr<const core::ModelRun> baseIntact;
    };
    using Job = std::variant<Request, AnalysisRequest>;
    void work();                         // the worker thread: computes queued_, then analysisQueued_, until stopping_
    // Without threads: the queued run (else the queued analysis), on the caller's thread; with `afterOnePoll`, only
    // once a poll has returned without it (a frame has said "Computing…").
    void computeQueuedHere(bool afterOnePoll);
    void runJob(Job job);                // computes `job` and publishes its result
    std::optional<Job> nextJob();        // waits for one, a run first; nullopt when stopping_
    void finish(RunResult result);       // publishes the worker's result
    void finish(AnalysisResult result);
    bool idle() const;                   // under the lock: nothing computing or queued
    void releaseAll();                   // the releaser thread: drops released_ runs until stopping_

    // Both threads live as long as the runner (started on first use), so taking a result never waits for a
    // thread to exit, and both run at a lower priority than the UI thread (model_runner.cpp).
    bool threads_;
    std::thread worker_, releaser_;
    mutable std::mutex mutex_;            // guards everything below
    std::condition_variable wake_;        // a job, a run to release, or stopping_
    std::condition_variable idle_;        // the worker finished a job and none is queued
    std::optional<Request> queued_;       // the next job (only the newest request matters)
    std::optional<AnalysisRequest> analysisQueued_;  // the next analysis (only the newest matters)
    bool queuedPolled_ = false;           // without threads: a poll has returned since the queued job was queued
    bool working_ = false;                // the worker is computing a run
    bool analysingNow_ = false;           // the worker is computing an analysis
    int workerJobs_ = 0;                  // runs the worker finished
    int analysesComputed_ = 0;
    std::optional<AnalysisResult> analysisFinished_;  // the newest finished analysis, not yet taken
    std::optional<RunResult> finished_;   // the worker's newest result, not yet taken
    std::optional<RunResult> ready_;      // an inline result, not yet taken
    std::vector<std::shared_ptr<const core::ModelRun>> released_;
    bool stopping_ = false;
};

// A decoder's KV cache following the sentence on screen, on a worker thread of its own at the model worker's low
// priority: rows past the common prefix go, then the missing tokens are appended one step at a time (a token of a
// Qwen2.5-0.5B-shaped model takes 0.1–0.4 s on one busy core: far too long for a frame). The UI thread only sets the
// target and reads the progress; it never runs a step itself.
class KvCacheFollower {
public:
    struct Progress {
        int layers = 0;        // the cache's layers (0 before the first decoder)
        int length = 0;        // tokens cached so far
        int target = 0;        // tokens of the sentence followed
        int newRow = -1;       // the row the last step computed; −1 after a truncation
        std::string error;     // why the cache stopped short of the sentence (its positions ran out), else empty
        bool caughtUp = true;  // the cache holds exactly the sentence followed
    };

    KvCacheFollower() = default;
    KvCacheFollower(const KvCacheFollower&) = delete;
    KvCacheFollower& operator=(const KvCacheFollower&) = delete;
    // Waits for the step in progress.
    ~KvCacheFollower();

    // The sentence the cache should hold: `ids` of `model` (a decoder; null lets the cache and the model go).
    // Returns at once; cheap when nothing changed.
    void follow(const std::shared_ptr<const core::TrainedModel>& model, const std::vector<int>& ids);
    Progress progress() const;
    // Whether the worker has steps left (false once caught up or stopped short).
    bool catchingUp() const;
    // The cache as the worker's last step left it (a copy).
    core::KvCache cache() const;
    // Blocks until the cache holds the sentence followed, or stopped short of it (tests, screenshots); returns at
    // once while held.
    void wait();
    // Keeps the worker from starting another step until released (tests: frames alone must not grow the cache).
    void hold(bool held);
    // Steps the worker has run.
    int steps() const;

private:
    void work();  // the worker thread: steps towards the target until stopping_
    void stepHere();  // without threads: one step on the caller's thread, when one is needed
    void step(std::unique_lock<std::mutex>& lock);  // one step towards the target, the lock released meanwhile
    bool needsStep() const;  // under the lock

    std::thread worker_;  // started by the first follow()
    // Touched by the worker alone, outside the lock:
    std::shared_ptr<const core::TrainedModel> workingModel_;
    core::KvCache working_;
    mutable std::mutex mutex_;      // guards everything below
    std::condition_variable wake_;  // a new target, a release, or stopping_
    std::condition_variable idle_;  // a step finished with nothing left to do
    std::shared_ptr<const core::TrainedModel> model_;  // the target: the model and its ids
    std::vector<int> target_;
    std::shared_ptr<const core::TrainedModel> publishedModel_;  // what the last step left: its model and a copy
    core::KvCache published_;
    int newRow_ = -1;
    std::string error_;  // the last step's failure, for failedModel_ and failedTarget_
    std::shared_ptr<const core::TrainedModel> failedModel_;
    std::vector<int> failedTarget_;
    int steps_ = 0;
    bool held_ = false;
    bool stepping_ = false;
    bool stopping_ = false;
};

// runModel (or rerunAttention from `base` when reusesProjections, rerunHeadsOff when onlyHeadsOffDiffer) with
// InputError and allocation failures turned into RunResult::error. With heads off, RunResult::intact is `baseIntact`
// when it is the run with every head on, else that run computed from the result (rerunHeadsOff).
RunResult computeRun(const core::ModelSpec& spec, const core::ModelRun* base = nullptr, const core::RunOptions& options = {},
                     const std::shared_ptr<const core::ModelRun>& baseIntact = nullptr);

}  // namespace attnviz::ui
