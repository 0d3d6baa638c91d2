// test_model_runner.cpp — ModelRunner's threads: only the newest request's result is handed out, an inline result
// newer than the worker's wins, and runs no longer shown are freed on a background thread at low priority; without
// threads (the web page's build) a big run is computed on the caller's thread one poll after it was asked for.
#include "io/model_folder.h"
#include "io/model_library.h"
#include "core/transformer/logit_lens.h"
#include "ui/model_runner.h"

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <thread>

#include <sys/resource.h>
#include <unistd.h>

using namespace attnviz;

namespace {

// GPT-2 small sizes: too big to compute inline (computesInstantly is false).
core::ModelSpec bigSpec(const std::string& sentence) {
    core::ModelSpec spec;
    spec.sentences = {sentence};
    spec.attention.dModel = 768;
    spec.attention.heads = 12;
    return spec;
}

}  // namespace

TEST_CASE("a trained model's sentence is measured in its own tokens, not the word splitter's") {
    core::ModelSpec spec;
    spec.model = core::TrainedLayer{io::loadBundledModel()};
    REQUIRE(spec.trainedModel());
    std::string words;
    for (int i = 0; i < 127; ++i) words += "the ";
    spec.sentences = {words};
    CHECK(core::tokenizerOf(spec)->encode(words).ids.size() == 129);  // [CLS], 127 words, [SEP]
    CHECK_FALSE(ui::computesInstantly(spec));  // over 128 tokens: the worker computes it
    spec.sentences = {"the cat"};
    CHECK(ui::computesInstantly(spec));
}

TEST_CASE("a request made while the worker is busy replaces the queued one, and only the newest result comes out") {
    ui::ModelRunner runner;
    REQUIRE_FALSE(ui::computesInstantly(bigSpec("a b c")));
    core::ModelSpec slow = bigSpec("");  // 600 tokens at GPT-2's width: the worker is still on it below
    slow.tokenLimit = 2048;
    for (int i = 0; i < 600; ++i) slow.sentences[0] += "word ";
    runner.request(slow);
    runner.request(bigSpec("queued and replaced"));
    runner.request(bigSpec("the newest"));
    runner.wait();
    CHECK_FALSE(runner.busy());
    // The newest, and the slow one if the worker had taken it before it was replaced; never all three: the request
    // replaced while queued was never computed.
    CHECK(runner.workerJobs() >= 1);
    CHECK(runner.workerJobs() <= 2);
    const std::optional<ui::RunResult> result = runner.poll();
    REQUIRE(result);
    REQUIRE(result->run);
    CHECK(result->run->spec.sentences.at(0) == "the newest");
    CHECK_FALSE(runner.poll());  // taken once
}

TEST_CASE("an inline result newer than the worker's untaken one is the one handed out") {
    ui::ModelRunner runner;
    runner.request(bigSpec("from the worker"));
    runner.wait();
    core::ModelSpec small;
    small.sentences = {"typed afterwards"};
    runner.request(small);  // the worker is idle: computed inline
    const std::optional<ui::RunResult> result = runner.poll();
    REQUIRE(result);
    CHECK(result->run->spec.sentences.at(0) == "typed afterwards");
    CHECK_FALSE(runner.poll());
}

TEST_CASE("an analysis is computed on the worker, and one finished for a run no longer on screen is dropped, not shown") {
    ui::ModelRunner runner;
    ui::AnalysisDesk desk(runner);
    core::ModelSpec spec;
    spec.model = core::TrainedLayer{io::loadBundledModel()};
    spec.sentences = {"the cat sat on the mat"};
    const auto first = std::make_shared<const core::ModelRun>(core::runModel(spec));
    spec.sentences = {"a dog ran in the park and the dog sat"};
    const auto second = std::make_shared<const core::ModelRun>(core::runModel(spec));
    desk.showRun(first, 1);
    CHECK(desk.get(0, ui::AnalysisKind::Layers) == nullptr);  // asked for, never computed in the caller
    CHECK(runner.analysing());
    runner.wait();
    CHECK(runner.analysesComputed() == 1);
    desk.showRun(second, 2);  // the sentence changed before the first's analysis was taken
    desk.takeFinished();
    CHECK(desk.dropped() == 1);
    CHECK(desk.get(0, ui::AnalysisKind::Layers) == nullptr);  // the first's is not the second's: asked again
    runner.wait();
    desk.takeFinished();
    const std::shared_ptr<const ui::LayerAnalysis> analysis = desk.get(0, ui::AnalysisKind::Layers);
    REQUIRE(analysis != nullptr);
    CHECK(runner.analysesComputed() == 2);
    // Independently: the second sentence's pass and lens, computed here.
    const core::TransformerModel& model = spec.trainedModel()->transformer;
    const std::vector<int>& ids = second->tokenIds[0];
    const core::TransformerPass pass = core::runTransformer(model, {ids}, 0, core::modelAttention(model));
    const core::LensAgreement lens = core::logitLensAgreement(model, pass, 0, static_cast<int>(ids.size()));
    CHECK(analysis->lens.topIds == lens.topIds);
    CHECK(analysis->lens.finalLogProbs.isApprox(lens.finalLogProbs, 1e-6f));
    CHECK(analysis->rollout.dim(1) == static_cast<int>(ids.size()));
    CHECK_FALSE(analysis->roles.has_value());  // the roles view's work is asked for separately
}

TEST_CASE("a released run is freed on another thread, at a lower priority than the caller's") {
    ui::ModelRunner runner;
    std::promise<std::pair<std::thread::id, int>> freed;  // where, and at what nice value
    std::future<std::pair<std::thread::id, int>> where = freed.get_future();
    auto run = std::shared_ptr<const core::ModelRun>(new core::ModelRun, [&freed](const core::ModelRun* r) {
        freed.set_value({std::this_thread::get_id(), getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()))});
        delete r;
    });
    runner.release(std::move(run));
    REQUIRE(where.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
    const auto [thread, nice] = where.get();
    CHECK(thread != std::this_thread::get_id());
    CHECK(nice > getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())));
}

TEST_CASE("without threads (the web page) a big run waits one poll, so a frame says Computing, then the next poll computes it on the caller's thread") {
    ui::ModelRunner runner(false);
    runner.request(bigSpec("too big to compute inline"));
    CHECK(runner.busy());
    CHECK_FALSE(runner.poll());  // this frame draws "Computing the forward pass…"
    CHECK(runner.busy());
    CHECK(runner.workerJobs() == 0);
    const std::optional<ui::RunResult> result = runner.poll();  // the next frame: computed here
    REQUIRE(result);
    REQUIRE(result->run);
    CHECK(result->run->spec.sentences.at(0) == "too big to compute inline");
    CHECK_FALSE(runner.busy());
    CHECK(runner.workerJobs() == 1);

    runner.request(bigSpec("waited for"));  // wait() (tests, screenshots) computes at once
    runner.wait();
    const std::optional<ui::RunResult> waited = runner.poll();
    REQUIRE(waited);
    CHECK(waited->run->spec.sentences.at(0) == "waited for");

    bool freedHere = false;  // a released run is freed on the caller's thread, at once
    runner.release(std::shared_ptr<const core::ModelRun>(new core::ModelRun, [&freedHere](const core::ModelRun* r) {
        freedHere = true;
        delete r;
    }));
    CHECK(freedHere);
}

TEST_CASE("the KV cache follower: a shorter sentence drops rows, a sentence past the model's positions stops with why, another model starts over") {
    const std::shared_ptr<const core::TrainedModel> model =
        io::loadModelFolder(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/decoders/llama-gqa-llama3");
    const core::TransformerModel& transformer = model->transformer;
    REQUIRE(transformer.config.maxPositions == 32);
    ui::KvCacheFollower follower;
    const std::vector<int> ids{5, 9, 2, 7, 7, 1};
    follower.follow(model, ids);
    follower.wait();
    CHECK(follower.progress().caughtUp);
    CHECK(follower.cache().ids() == ids);
    const int steps = follower.steps();
    // Undo: the common prefix stays, one step drops the rest (nothing recomputed).
    follower.follow(model, {5, 9, 2});
    follower.wait();
    CHECK(follower.cache().ids() == std::vector<int>{5, 9, 2});
    CHECK(follower.steps() == steps + 1);
    CHECK(follower.progress().newRow == -1);
    // 40 tokens on a model with 32 positions: the cache stops at 32 and says why; it is not retried every frame.
    const std::vector<int> tooLong(40, 3);
    follower.follow(model, tooLong);
    follower.wait();
    const ui::KvCacheFollower::Progress full = follower.progress();
    CHECK_FALSE(full.caughtUp);
    CHECK(full.length == 32);
    CHECK(full.target == 40);
    CHECK(full.error.find("positions for 32") != std::string::npos);
    const int stepsWhenFull = follower.steps();
    follower.follow(model, tooLong);
    follower.wait();
    CHECK(follower.steps() == stepsWhenFull);
    CHECK_FALSE(follower.catchingUp());
    // Another model (loaded again: another pointer) starts an empty cache; no model lets it go.
    const std::shared_ptr<const core::TrainedModel> other =
        io::loadModelFolder(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/decoders/llama-gqa-llama3");
    follower.follow(other, {4});
    follower.wait();
    CHECK(follower.cache().ids() == std::vector<int>{4});
    CHECK(follower.progress().error.empty());
    follower.follow(nullptr, {});
    follower.wait();
    CHECK(follower.progress().layers == 0);
    CHECK(follower.progress().caughtUp);
}
