// model_runner.cpp — inline or worker-thread forward passes, and the KV cache follower's thread. See model_runner.h.
#include "ui/model_runner.h"

#include "core/derived_maps.h"
#include "core/portable.h"
#include "core/tokenizer.h"

#include <algorithm>
#include <new>
#include <utility>

#include <sys/resource.h>
#include <unistd.h>

namespace attnviz::ui {

namespace {

constexpr int kWorkerNice = 19;

// The calling thread, and the threads it starts from now on (Linux: they inherit it), yield the cores to the UI
// thread and the GL driver's threads. On 2 cores, at equal priority, frames took up to 2–3× longer while a big run
// computed (bench_gui editing: median 30 ms at nice 0, 22 ms at nice 10, 17 ms at 19). The UI mostly waits for
// vsync, so the worker still gets most of the CPU; a lowest-but-not-idle priority is never starved outright.
void lowerThisThreadsPriority() { setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kWorkerNice); }

// One step of `cache` (of `cacheModel`) towards `target` of `model`: another model starts an empty cache, rows past
// the common prefix go, or else the next token is appended (`newRow` set to its row). InputError → `error`.
void stepTowards(const std::shared_ptr<const core::TrainedModel>& model, const std::vector<int>& target,
                 std::shared_ptr<const core::TrainedModel>& cacheModel, core::KvCache& cache, int& newRow, std::string& error) {
    try {
        if (cacheModel != model) {
            cache = model ? core::KvCache(model->transformer) : core::KvCache();
            cacheModel = model;
            newRow = -1;
            return;
        }
        const std::vector<int>& ids = cache.ids();
        const auto common = static_cast<int>(std::mismatch(ids.begin(), ids.end(), target.begin(), target.end()).first - ids.begin());
        if (common < cache.length()) {
            cache.truncate(common);
            newRow = -1;
        } else if (cache.length() < static_cast<int>(target.size())) {
            cache.append(model->transformer, target[static_cast<std::size_t>(cache.length())]);
            newRow = cache.length() - 1;
        }
    } catch (const core::InputError& failure) {
        error = failure.what();
    }
}

// A sentence of more bytes goes to the worker without being tokenized here: counting its tokens on the UI thread
// cost as much as the run's own tokenizing (WordPiece looks up every piece of up to 100 characters: a pasted 1 MB
// base64 blob took 5 s at -O3, the window frozen at every keystroke; the gui_text fuzz target's replay, issue 31).
// 128 tokens of 32 bytes; a shorter sentence is tokenized here in well under a millisecond.
constexpr std::size_t kInstantSentenceBytes = 4096;
// A sentence of more tokens goes to the worker too (its tokenizer stops counting there).
constexpr std::size_t kInstantTokens = 128;

}  // namespace

bool computesInstantly(const core::ModelSpec& spec) {
    // A trained model runs every layer: only a small one (the bundled model) is quick enough between two frames.
    if (const core::TrainedModel* model = spec.trainedModel()) {
        const core::TransformerConfig& config = model->config();
        if (static_cast<long long>(config.layers) * config.dModel > 8 * 256) return false;
    }
    if (spec.attention.dModel > 512) return false;
    const std::shared_ptr<const core::Tokenizer> tokenizer = core::tokenizerOf(spec);
    for (const std::string& sentence : spec.sentences) {
        if (sentence.size() > kInstantSentenceBytes) return false;
        try {
            if (tokenizer->encode(sentence, kInstantTokens).ids.size() > kInstantTokens) return false;
        } catch (const core::InputError&) {
            // runModel reports it; it costs nothing to find out inline.
        }
    }
    return true;
}

bool reusesProjections(const core::ModelSpec& base, const core::ModelSpec& next) {
    const core::SeededLayer *baseLayer = base.seeded(), *nextLayer = next.seeded();
    if (!baseLayer || !nextLayer) return false;  // a trained model's mask and scale are its own
    if (!baseLayer->decoderSentences.empty() || !nextLayer->decoderSentences.empty()) return false;
    core::ModelSpec aligned = next;  // next with base's settings of stages [3–10]: must then equal base
    core::AttentionConfig& a = aligned.attention;
    const core::AttentionConfig& b = base.attention;
    a.mask = b.mask;
    a.fill = b.fill;
    a.softmax = b.softmax;
    a.scale = b.scale;
    a.maskPaddedQueries = b.maskPaddedQueries;
    return aligned == base;
}

bool onlyHeadsOffDiffer(const core::ModelSpec& base, const core::ModelSpec& next) {
    if (!base.trained() || base.headsOff == next.headsOff) return false;
    core::ModelSpec aligned = next;
    aligned.headsOff = base.headsOff;
    return aligned == base;
}

namespace {

// The run on screen, computed from `base` where it can be.
core::ModelRun runFrom(const core::ModelSpec& spec, const core::ModelRun* base, const core::RunOptions& options) {
    if (base && reusesProjections(base->spec, spec)) return core::rerunAttention(*base, spec);
    const bool keepsEnough = base && base->modelPass && (!options.everyLayerAttention || !base->modelPass->attentionWeights.empty());
    if (keepsEnough && onlyHeadsOffDiffer(base->spec, spec)) return core::rerunHeadsOff(*base, spec);
    return core::runModel(spec, options);
}

// RunResult::intact of `run`: `baseIntact` when it is the run with every head on, else rerun from `run`.
std::shared_ptr<const core::ModelRun> intactOf(const core::ModelRun& run, const std::shared_ptr<const core::ModelRun>& baseIntact) {
    if (run.spec.headsOff.empty()) return nullptr;
    core::ModelSpec intact = run.spec;
    intact.headsOff.clear();
    if (baseIntact && baseIntact->spec == intact) return baseIntact;
    if (run.spec.compareKind == core::CompareKind::HeadsOff && run.compared) return run.compared;  // compare computed it
    return std::make_shared<const core::ModelRun>(core::rerunHeadsOff(run, intact));
}

}  // namespace

RunResult computeRun(const core::ModelSpec& spec, const core::ModelRun* base, const core::RunOptions& options,
                     const std::shared_ptr<const core::ModelRun>& baseIntact) {
    try {
        core::ModelRun run = runFrom(spec, base, options);
        core::recordValueStats(run.trace);  // here, on the worker for big runs: the UI's colour scales need them
        std::shared_ptr<const core::ModelRun> intact = intactOf(run, baseIntact);
        return {std::make_shared<const core::ModelRun>(std::move(run)), {}, std::move(intact)};
    } catch (const core::InputError& error) {
        return {nullptr, error.what()};
    } catch (const std::bad_alloc&) {
        return {nullptr, "Not enough memory for these sizes; try a smaller d_model or a shorter sentence."};
    }
}

ModelRunner::ModelRunner() : ModelRunner(core::kThreadsAvailable) {}

ModelRunner::~ModelRunner() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
        queued_.reset();
        analysisQueued_.reset();
    }
    wake_.notify_all();
    if (worker_.joinable()) worker_.join();
    if (releaser_.joinable()) releaser_.join();
}

void ModelRunner::request(const core::ModelSpec& spec, std::shared_ptr<const core::ModelRun> base, const core::RunOptions& options,
                          std::shared_ptr<const core::ModelRun> baseIntact) {
    std::unique_lock lock(mutex_);
    if (!working_ && !queued_ && computesInstantly(spec)) {
        lock.unlock();
        RunResult result = computeRun(spec, base.get(), options, baseIntact);
        lock.lock();
        finished_.reset();  // older than this one
        ready_ = std::move(result);
        return;
    }
    std::optional<Request> replaced = std::exchange(queued_, Request{spec, std::move(base), options, std::move(baseIntact)});
    queuedPolled_ = false;
    if (threads_ && !worker_.joinable()) worker_ = std::thread(&ModelRunner::work, this);
    lock.unlock();
    wake_.notify_all();
}

void ModelRunner::work() {
    lowerThisThreadsPriority();
    while (std::optional<Job> job = nextJob()) runJob(std::move(*job));
}

void ModelRunner::computeQueuedHere(bool afterOnePoll) {
    std::unique_lock lock(mutex_);
    if (!queued_ && !analysisQueued_) return;
    if (afterOnePoll && !queuedPolled_) {
        queuedPolled_ = true;
        return;
    }
    queuedPolled_ = false;
    Job job = queued_ ? Job{*std::exchange(queued_, std::nullopt)} : Job{*std::exchange(analysisQueued_, std::nullopt)};
    (std::holds_alternative<Request>(job) ? working_ : analysingNow_) = true;
    lock.unlock();
    runJob(std::move(job));
}

void ModelRunner::runJob(Job job) {
    if (const Request* run = std::get_if<Request>(&job)) {
        RunResult result = computeRun(run->spec, run->base.get(), run->options, run->baseIntact);
        job = {};  // may hold the last reference to a run: freed here, not under the lock
        finish(std::move(result));
    } else {
        AnalysisResult result = computeAnalysis(std::get<AnalysisRequest>(job));
        job = {};
        finish(std::move(result));
    }
}

std::optional<ModelRunner::Job> ModelRunner::nextJob() {
    std::unique_lock lock(mutex_);
    wake_.wait(lock, [this] { return stopping_ || queued_.has_value() || analysisQueued_.has_value(); });
    if (stopping_) return std::nullopt;
    if (queued_) {
        working_ = true;
        return Job{*std::exchange(queued_, std::nullopt)};
    }
    analysingNow_ = true;
    return Job{*std::exchange(analysisQueued_, std::nullopt)};
}

bool ModelRunner::idle() const { return !working_ && !queued_ && !analysingNow_ && !analysisQueued_; }

void ModelRunner::finish(RunResult result) {
    std::optional<RunResult> untaken;  // freed after the lock is released
    const std::lock_guard lock(mutex_);
    untaken = std::exchange(finished_, std::move(result));
    ready_.reset();  // an inline result is older than a job queued after it
    working_ = false;
    ++workerJobs_;
    if (idle()) idle_.notify_all();
}

void ModelRunner::finish(AnalysisResult result) {
    std::optional<AnalysisResult> untaken;  // freed after the lock is released
    const std::lock_guard lock(mutex_);
    untaken = std::exchange(analysisFinished_, std::move(result));
    analysingNow_ = false;
    ++analysesComputed_;
    if (idle()) idle_.notify_all();
}

void ModelRunner::requestAnalysis(AnalysisRequest request) {
    std::optional<AnalysisRequest> replaced;
    {
        const std::lock_guard lock(mutex_);
        replaced = std::exchange(analysisQueued_, std::move(request));
        if (!queued_) queuedPolled_ = false;
        if (threads_ && !worker_.joinable()) worker_ = std::thread(&ModelRunner::work, this);
    }
    wake_.notify_all();
    if (replaced) release(std::move(replaced->run));  // may be the last reference to a run no longer shown
}

std::optional<AnalysisResult> ModelRunner::pollAnalysis() {
    if (!threads_) computeQueuedHere(true);
    const std::lock_guard lock(mutex_);
    return std::exchange(analysisFinished_, std::nullopt);
}

bool ModelRunner::analysing() const {
    const std::lock_guard lock(mutex_);
    return analysingNow_ || analysisQueued_.has_value();
}

int ModelRunner::analysesComputed() const {
    const std::lock_guard lock(mutex_);
    return analysesComputed_;
}

int ModelRunner::workerJobs() const {
    const std::lock_guard lock(mutex_);
    return workerJobs_;
}

bool ModelRunner::busy() const {
    const std::lock_guard lock(mutex_);
    return working_ || queued_.has_value();
}

std::optional<RunResult> ModelRunner::poll() {
    if (!threads_) computeQueuedHere(true);
    const std::lock_guard lock(mutex_);
    std::optional<RunResult> result = ready_ ? std::exchange(ready_, std::nullopt) : std::exchange(finished_, std::nullopt);
    return result;
}

void ModelRunner::wait() {
    if (!threads_) {
        computeQueuedHere(false);  // the run, then the analysis queued behind it
        computeQueuedHere(false);
    }
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return idle(); });
}

void ModelRunner::release(std::shared_ptr<const core::ModelRun> run) {
    if (!run || !threads_) return;  // without threads, freed here
    {
        const std::lock_guard lock(mutex_);
        released_.push_back(std::move(run));
        if (!releaser_.joinable()) releaser_ = std::thread(&ModelRunner::releaseAll, this);
    }
    wake_.notify_all();
}

void ModelRunner::releaseAll() {
    lowerThisThreadsPriority();
    std::unique_lock lock(mutex_);
    while (true) {
        wake_.wait(lock, [this] { return stopping_ || !released_.empty(); });
        std::vector<std::shared_ptr<const core::ModelRun>> runs = std::move(released_);
        released_.clear();
        lock.unlock();
        runs.clear();  // the freeing, outside the lock
        lock.lock();
        if (stopping_ && released_.empty()) return;
    }
}

// [SECTION] the KV cache follower

KvCacheFollower::~KvCacheFollower() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (worker_.joinable()) worker_.join();
}

void KvCacheFollower::follow(const std::shared_ptr<const core::TrainedModel>& model, const std::vector<int>& ids) {
    if (!core::kThreadsAvailable) stepHere();  // towards the target of the call before: one step a frame
    {
        const std::lock_guard lock(mutex_);
        if (model == model_ && (!model || ids == target_)) return;
        if (model != model_) failedModel_.reset();  // lets a model that has gone be freed
        model_ = model;
        target_ = model ? ids : std::vector<int>{};
        if (core::kThreadsAvailable && !worker_.joinable()) worker_ = std::thread(&KvCacheFollower::work, this);
    }
    wake_.notify_all();
}

KvCacheFollower::Progress KvCacheFollower::progress() const {
    const std::lock_guard lock(mutex_);
    const bool failed = model_ && failedModel_ == model_ && failedTarget_ == target_;
    return {published_.layers(), published_.length(), static_cast<int>(target_.size()), newRow_, failed ? error_ : std::string(),
            publishedModel_ == model_ && published_.ids() == target_};
}

bool KvCacheFollower::catchingUp() const {
    const std::lock_guard lock(mutex_);
    return stepping_ || needsStep();
}

core::KvCache KvCacheFollower::cache() const {
    const std::lock_guard lock(mutex_);
    return published_;
}

void KvCacheFollower::wait() {
    std::unique_lock lock(mutex_);
    if (!core::kThreadsAvailable) {
        while (!held_ && needsStep()) step(lock);
        return;
    }
    idle_.wait(lock, [this] { return stopping_ || held_ || (!stepping_ && !needsStep()); });
}

void KvCacheFollower::hold(bool held) {
    {
        const std::lock_guard lock(mutex_);
        held_ = held;
    }
    wake_.notify_all();
}

int KvCacheFollower::steps() const {
    const std::lock_guard lock(mutex_);
    return steps_;
}

// The published cache is another model's (or a model's that has gone), or holds other ids than the target — unless
// a step already failed on this very target (checked first: a model whose cache cannot be made is not retried).
bool KvCacheFollower::needsStep() const {
    if (model_ && failedModel_ == model_ && failedTarget_ == target_) return false;
    if (publishedModel_ != model_) return true;
    return model_ && published_.ids() != target_;
}

void KvCacheFollower::work() {
    lowerThisThreadsPriority();
    std::unique_lock lock(mutex_);
    while (true) {
        wake_.wait(lock, [this] { return stopping_ || (!held_ && needsStep()); });
        if (stopping_) return;
        step(lock);
    }
}

void KvCacheFollower::stepHere() {
    std::unique_lock lock(mutex_);
    if (!held_ && needsStep()) step(lock);
}

void KvCacheFollower::step(std::unique_lock<std::mutex>& lock) {
    const std::shared_ptr<const core::TrainedModel> model = model_;
    const std::vector<int> target = target_;
    stepping_ = true;
    lock.unlock();
    int newRow = newRow_;  // only the stepping thread writes it
    std::string error;
    stepTowards(model, target, workingModel_, working_, newRow, error);
    core::KvCache copy = working_;  // published under the lock; the stepping thread keeps stepping on its own
    lock.lock();
    stepping_ = false;
    ++steps_;
    published_ = std::move(copy);
    publishedModel_ = workingModel_;
    newRow_ = newRow;
    if (!error.empty()) {
        error_ = std::move(error);
        failedModel_ = model;
        failedTarget_ = target;
    }
    if (!needsStep()) idle_.notify_all();
}

}  // namespace attnviz::ui
