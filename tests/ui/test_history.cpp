// test_history.cpp — the undo history as data: exact states after undo/redo sequences, step names, typing that
// coalesces per word and per pause, the step limit, and loaded weights that come back.
#include "ui/session/history.h"
#include "ui/model_runner.h"

#include <doctest/doctest.h>

#include <algorithm>

namespace attnviz::test {
namespace {

using core::TensorId;

ui::AppState tinyState() {
    ui::AppState state;
    state.spec.sentences = {"the cat"};
    state.spec.attention.dModel = 8;
    state.spec.attention.heads = 2;
    return state;
}

core::Weights seededWeights(std::uint64_t seed) {
    return core::initWeights(core::resolveDimensions(tinyState().spec.attention), seed, false);
}

}  // namespace

TEST_CASE("change heads, edit a cell, undo twice, redo once: each state exactly, each step named") {
    ui::AppState state = tinyState();
    const core::ModelSpec original = state.spec;
    ui::History history(state);
    CHECK_FALSE(history.canUndo());
    CHECK(history.undoLabel().empty());

    state.spec.attention.heads = 4;
    history.observe(state, 0.0);
    const core::ModelSpec fourHeads = state.spec;
    const core::CellEdit edit{TensorId::WQ, 0, 1, 2, 0.5f};
    state.spec.seeded()->cellEdits.push_back(edit);
    history.observe(state, 0.1);
    const core::ModelSpec edited = state.spec;
    CHECK(history.undoLabel() == "W^Q[1, 2] = 0.5");

    history.undo(state);
    CHECK(state.spec == fourHeads);
    CHECK(history.undoLabel() == "heads 2 → 4");
    CHECK(history.redoLabel() == "W^Q[1, 2] = 0.5");
    history.undo(state);
    CHECK(state.spec == original);
    CHECK_FALSE(history.canUndo());
    history.redo(state);
    CHECK(state.spec == fourHeads);
    CHECK(state.spec.seeded()->cellEdits.empty());
    history.observe(state, 0.2);  // the restored inputs are not a new step
    CHECK(history.redoLabel() == "W^Q[1, 2] = 0.5");
    history.redo(state);
    CHECK(state.spec == edited);

    // A change after an undo drops what could have been redone.
    history.undo(state);
    state.spec.seeded()->seed = 7;
    history.observe(state, 0.3);
    CHECK_FALSE(history.canRedo());
    CHECK(history.undoLabel() == "seed 42 → 7");
}

TEST_CASE("step names: sizes, options, cell resets and weights") {
    ui::InputsSnapshot before{tinyState().spec, {}};
    ui::InputsSnapshot after = before;
    after.spec.attention.dModel = 512;
    after.spec.attention.heads = 8;
    CHECK(ui::describeChange(before, after) == "d_model 8 → 512, heads 2 → 8");
    after.spec.attention.mask = core::MaskKind::Causal;
    CHECK(ui::describeChange(before, after) == "d_model 8 → 512, heads 2 → 8, …");

    after = before;
    after.spec.attention.mask = core::MaskKind::Causal;
    CHECK(ui::describeChange(before, after) == "mask none → causal");
    after = before;
    after.spec.sentences = {"a rather long sentence that goes on and on"};
    CHECK(ui::describeChange(before, after) == "sentence “a rather long sentence t…”");

    before.spec.seeded()->cellEdits = {{TensorId::X, 0, 0, 1, 2.0f}, {TensorId::WO, 0, 3, 3, -1.0f}};
    after = before;
    after.spec.seeded()->cellEdits.erase(after.spec.seeded()->cellEdits.begin());
    CHECK(ui::describeChange(before, after) == "reset X[0, 1]");
    after.spec.seeded()->cellEdits.clear();
    CHECK(ui::describeChange(before, after) == "reset edits");

    after = before;
    after.weightFiles.wq = "/lessons/bert/w_q.npy";
    after.spec.seeded()->customWeights = std::make_shared<const core::Weights>(seededWeights(1));
    CHECK(ui::describeChange(before, after) == "load weights from bert");
    CHECK(ui::describeChange(after, before) == "use seeded weights");
}

TEST_CASE("typing makes one step per word, and a pause ends a step") {
    ui::AppState state = tinyState();
    ui::History history(state);
    double t = 0.0;
    const auto typeText = [&](const std::string& text) {
        for (char c : text) {
            state.spec.sentences[0] += c;
            history.observe(state, t += 0.1);
        }
    };
    typeText(" sat");  // the space ends a word at once: "the cat " is a step, "sat" is pending
    CHECK(history.canUndo());
    CHECK(history.undoLabel() == "sentence “the cat sat”");
    typeText(" on");
    history.observe(state, t + ui::History::kTypingPause);  // the typist pauses: "on" becomes a step

    state.spec.seeded()->seed = 9;  // anything else is a step of its own
    history.observe(state, t + 2.0);

    const std::vector<std::string> expected{"the cat sat on", "the cat sat on", "the cat sat ", "the cat ", "the cat"};
    for (std::size_t i = 1; i < expected.size(); ++i) {
        history.undo(state);
        CHECK(state.spec.sentences[0] == expected[i]);
    }
    CHECK(state.spec.seeded()->seed == 42);
    CHECK_FALSE(history.canUndo());
}

TEST_CASE("typing a letter and deleting it again leaves no step") {
    ui::AppState state = tinyState();
    ui::History history(state);
    state.spec.sentences[0] += "s";
    history.observe(state, 0.1);
    state.spec.sentences[0].pop_back();
    history.observe(state, 0.2);
    history.observe(state, 5.0);
    CHECK_FALSE(history.canUndo());
}

TEST_CASE("200 steps are kept — older ones are dropped first") {
    ui::AppState state = tinyState();
    ui::History history(state);
    for (std::uint64_t seed = 1; seed <= 250; ++seed) {
        state.spec.seeded()->seed = seed;
        history.observe(state, static_cast<double>(seed));
    }
    int undone = 0;
    while (history.canUndo()) {
        history.undo(state);
        ++undone;
    }
    CHECK(undone == static_cast<int>(ui::History::kMaxSteps));
    CHECK(state.spec.seeded()->seed == 250 - ui::History::kMaxSteps);
}

TEST_CASE("loaded weights come back, the very ones, after 'use seeded weights' is undone") {
    ui::AppState state = tinyState();
    state.spec.seeded()->customWeights = std::make_shared<const core::Weights>(seededWeights(5));
    state.session.weightFiles.wq = "/lessons/w_q.npy";
    const std::shared_ptr<const core::Weights> loaded = state.spec.seeded()->customWeights;
    ui::History history(state);
    state.spec.seeded()->seed = 3;  // a step that keeps the weights
    history.observe(state, 0.1);
    state.spec.seeded()->customWeights.reset();
    state.session.weightFiles = {};
    history.observe(state, 0.2);
    CHECK(history.undoLabel() == "use seeded weights");

    history.undo(state);
    CHECK(state.spec.seeded()->customWeights == loaded);
    CHECK(state.session.weightFiles.wq == "/lessons/w_q.npy");

    // Other weights of the same shape are a change (a load is a new pointer, whatever its numbers).
    state.spec.seeded()->customWeights = std::make_shared<const core::Weights>(seededWeights(6));
    history.observe(state, 0.3);
    CHECK(history.canUndo());
    history.undo(state);
    CHECK(state.spec.seeded()->customWeights == loaded);
}

TEST_CASE("ModelSpec ==: custom weights by identity (a copy of the spec shares them, a new load does not), every other choice by value") {
    core::ModelSpec a = tinyState().spec;
    a.seeded()->customWeights = std::make_shared<const core::Weights>(seededWeights(1));
    core::ModelSpec b = a;
    CHECK(a == b);
    b.seeded()->customWeights = std::make_shared<const core::Weights>(seededWeights(1));
    CHECK(a != b);
    b = a;
    b.seeded()->cellEdits.push_back({TensorId::WV, 0, 0, 0, 1.0f});
    CHECK(a != b);
    b = a;
    b.attention.maskPaddedQueries = true;
    CHECK(a != b);
    b = a;
    b.attention.rotaryFrequencies = core::RowVector::Zero(2);
    CHECK(a != b);
    a.attention.rotaryFrequencies = core::RowVector::Zero(2);
    CHECK(a == b);
    b.attention.rotaryFrequencies(1) = 0.5f;
    CHECK(a != b);
}


TEST_CASE("reusesProjections: only a change of mask, fill, softmax, scale or padded queries keeps Q, K and V") {
    core::ModelSpec base;
    base.sentences = {"one sentence", "and a longer second one"};
    const auto changed = [&](auto change) {
        core::ModelSpec next = base;
        change(next);
        return next;
    };
    CHECK(ui::reusesProjections(base, changed([](core::ModelSpec& s) { s.attention.mask = core::MaskKind::Both; })));
    CHECK(ui::reusesProjections(base, changed([](core::ModelSpec& s) { s.attention.fill = core::MaskFill::MinusInfinity; })));
    CHECK(ui::reusesProjections(base, changed([](core::ModelSpec& s) { s.attention.softmax = core::SoftmaxMode::PyTorch; })));
    CHECK(ui::reusesProjections(base, changed([](core::ModelSpec& s) { s.attention.scale = 0.5f; })));
    CHECK(ui::reusesProjections(base, changed([](core::ModelSpec& s) { s.attention.maskPaddedQueries = true; })));
    CHECK_FALSE(ui::reusesProjections(base, changed([](core::ModelSpec& s) { s.sentences[1] = "changed"; })));
    CHECK_FALSE(ui::reusesProjections(base, changed([](core::ModelSpec& s) { s.attention.heads = 4; })));
    CHECK_FALSE(ui::reusesProjections(base, changed([](core::ModelSpec& s) { s.seeded()->seed = 7; })));
    CHECK_FALSE(ui::reusesProjections(base, changed([](core::ModelSpec& s) { s.seeded()->biases = true; })));
    CHECK_FALSE(ui::reusesProjections(base, changed([](core::ModelSpec& s) { s.seeded()->cellEdits.push_back({core::TensorId::X, 0, 0, 0, 2.0f}); })));
    CHECK_FALSE(ui::reusesProjections(base, changed([](core::ModelSpec& s) { s.seeded()->decoderSentences = {"a", "b"}; s.attention.mask = core::MaskKind::Padding; })));
}

TEST_CASE("computeRun from a base run after a mask change: the numbers of a fresh run") {
    core::ModelSpec base;
    const auto shown = ui::computeRun(base).run;
    REQUIRE(shown);
    core::ModelSpec next = base;
    next.attention.mask = core::MaskKind::Causal;
    const auto reused = ui::computeRun(next, shown.get()).run;
    const core::ModelRun fresh = core::runModel(next);
    REQUIRE(reused);
    CHECK(reused->trace.mask == core::MaskKind::Causal);
    const core::Tensor& a = reused->trace[core::TensorId::Output];
    CHECK(std::equal(a.data.begin(), a.data.end(), fresh.trace[core::TensorId::Output].data.begin()));
}

}  // namespace attnviz::test
