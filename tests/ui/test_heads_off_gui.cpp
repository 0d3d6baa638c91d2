// test_heads_off_gui.cpp — switching heads off in the window (issue 35 item 1), on the bundled BERT: a right-click on a
// head's tile opens its menu and "Switch off (zero Z_i)" switches it off; the menu's choices as the action function
// applies them; the run on screen is the core's ablated run (the stepped layer's maps follow it); the [MASK] fill's
// before → after is what two whole runs give, and the bars are the ablated run's; undo and redo; "Switch all back
// on"; another model clears them; Save / the autosave and opening the file keep them.
#include "core/transformer/heads_off.h"
#include "core/transformer/prediction.h"
#include "core/transformer/prediction_words.h"
#include "imgui_harness.h"
#include "io/model_folder.h"
#include "io/model_library.h"
#include "io/session.h"
#include "ui/session/history.h"
#include "ui/session/session_actions.h"

#include <doctest/doctest.h>

#include <imgui_internal.h>

#include <cmath>
#include <filesystem>

namespace attnviz::test {
namespace {

using core::HeadAblation;
using core::HeadOffMode;

constexpr const char* kMaskedSentence = "The animal didn't cross the street because [MASK] was too tired.";

ui::AppState bundledOn(const std::string& sentence) {
    ui::AppState state;
    auto model = io::loadBundledModel();
    REQUIRE(model != nullptr);
    ui::useTrainedModel(std::move(model), state);
    state.spec.sentences = {sentence};
    state.stage = core::StageId::Softmax;
    return state;
}

// The heads grid's tile of `head` as drawn last frame: the last map of that head (the side panel draws after the stage).
const ui::DrawnHeatmap& headTile(const ui::App& app, int head) {
    const ui::DrawnHeatmap* tile = nullptr;
    for (const ui::DrawnHeatmap& map : app.drawnHeatmaps()) {
        if (map.matrix.source == ui::MatrixSource::Trace && map.matrix.tensor == core::TensorId::AttentionWeights && map.matrix.head == head) tile = &map;
    }
    REQUIRE(tile != nullptr);
    return *tile;
}

// The centre of the open popup's menu item `row` (0: the "layer L, head H" line, 1: "Switch off", 2: "Replace by its
// mean", 3: "Switch on"; every row one line of text with the item spacing).
ImVec2 menuRow(int row) {
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    REQUIRE(!g.OpenPopupStack.empty());
    const ImGuiWindow& popup = *g.OpenPopupStack.back().Window;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float line = ImGui::GetTextLineHeight() + style.ItemSpacing.y;
    return {popup.Pos.x + style.WindowPadding.x + 30.0f, popup.Pos.y + style.WindowPadding.y + line * static_cast<float>(row) + ImGui::GetTextLineHeight() * 0.5f};
}

// log softmax(logits)[id] in double.
double logProbability(const core::RowVector& logits, int id) {
    double top = logits.maxCoeff(), sum = 0.0;
    for (Eigen::Index i = 0; i < logits.size(); ++i) sum += std::exp(static_cast<double>(logits[i]) - top);
    return static_cast<double>(logits[id]) - top - std::log(sum);
}

}  // namespace

TEST_CASE("heads off: a right-click on a head's tile opens its menu, and 'Switch off (zero Z_i)' switches it off") {
    ImGuiHarness ui;
    ui::App app(bundledOn(kMaskedSentence));
    settle(ui, app);
    const int layer = app.run()->spec.trained()->layer, head = 1;
    const ui::DrawnHeatmap tile = headTile(app, head);
    ui.rightClick(app, {(tile.min.x + tile.max.x) * 0.5f, (tile.min.y + tile.max.y) * 0.5f});
    REQUIRE(app.headsOff().menuHead().has_value());
    CHECK(app.headsOff().menuHead()->layer == layer);
    CHECK(app.headsOff().menuHead()->head == head);
    ui.click(app, menuRow(1));
    CHECK(app.state().spec.headsOff == std::vector<HeadAblation>{{layer, head, HeadOffMode::Zero}});
    settle(ui, app);
    CHECK(app.run()->spec.headsOff == app.state().spec.headsOff);  // the run on screen is the ablated one
    REQUIRE(app.headsOff().intact() != nullptr);
    CHECK(app.headsOff().intact()->spec.headsOff.empty());
}

TEST_CASE("heads off: the menu's choices — off, mean, on, all back on — keep one sorted list compared with ==") {
    ui::AppState state = bundledOn(kMaskedSentence);
    CHECK(ui::chooseHeadOff(state, 2, 3, ui::HeadMenuChoice::Zero));
    CHECK(ui::chooseHeadOff(state, 0, 1, ui::HeadMenuChoice::Mean));
    CHECK(!ui::chooseHeadOff(state, 0, 1, ui::HeadMenuChoice::Mean));  // already so: no change, no undo step
    CHECK(state.spec.headsOff == std::vector<HeadAblation>{{0, 1, HeadOffMode::Mean}, {2, 3, HeadOffMode::Zero}});
    CHECK(ui::chooseHeadOff(state, 2, 3, ui::HeadMenuChoice::Mean));
    CHECK(core::headOffMode(state.spec.headsOff, 2, 3) == HeadOffMode::Mean);
    CHECK(ui::chooseHeadOff(state, 0, 1, ui::HeadMenuChoice::On));
    CHECK(state.spec.headsOff == std::vector<HeadAblation>{{2, 3, HeadOffMode::Mean}});
    CHECK(core::headsOffText(state.spec.headsOff) == "2.3 mean");
    CHECK(ui::chooseHeadOff(state, 0, 0, ui::HeadMenuChoice::AllOn));
    CHECK(state.spec.headsOff.empty());
    CHECK(!ui::chooseHeadOff(state, 0, 0, ui::HeadMenuChoice::AllOn));
}

TEST_CASE("heads off: the stage shows the ablated run, and the [MASK] fill's before → after is two whole runs' log-probabilities") {
    ImGuiHarness ui;
    ui::App app(bundledOn(kMaskedSentence));
    settle(ui, app);
    const core::ModelSpec intactSpec = app.run()->spec;
    const std::shared_ptr<const core::TrainedModel> model = intactSpec.trained()->model;
    // A head below the stepped layer changes the stepped layer's own attention; the coreference head itself.
    const int stepped = intactSpec.trained()->layer;
    REQUIRE(stepped > 0);
    ui::chooseHeadOff(app.state(), stepped - 1, 0, ui::HeadMenuChoice::Zero);
    ui::chooseHeadOff(app.state(), stepped, model->featuredHead()->head, ui::HeadMenuChoice::Mean);
    settle(ui, app);
    const core::ModelRun whole = core::runModel(app.state().spec);  // from scratch, every layer
    const core::Tensor& shown = app.run()->trace[core::TensorId::AttentionWeights];
    const core::Tensor& expected = whole.trace[core::TensorId::AttentionWeights];
    CHECK(shown.shape == expected.shape);
    CHECK(shown.data == expected.data);  // bit for bit
    const core::ModelRun intact = core::runModel(intactSpec);
    const core::Tensor& before = intact.trace[core::TensorId::AttentionWeights];
    CHECK(before.data != shown.data);  // the rows followed the heads off

    const int mask = core::firstMaskPosition(*model->tokenizer, whole.tokenIds[0]);
    REQUIRE(mask >= 0);
    const core::RowVector beforeLogits = core::predictionLogits(model->transformer, *intact.modelPass, 0, mask);
    const core::RowVector afterLogits = core::predictionLogits(model->transformer, *whole.modelPass, 0, mask);
    Eigen::Index beforeId = 0, afterId = 0;
    beforeLogits.maxCoeff(&beforeId);
    afterLogits.maxCoeff(&afterId);
    const std::optional<core::PredictionShift> s = app.headsOff().shownShift();
    REQUIRE(s.has_value());
    CHECK(s->beforeId == beforeId);
    CHECK(s->afterId == afterId);
    CHECK(s->beforeLogProb == doctest::Approx(logProbability(beforeLogits, static_cast<int>(beforeId))).epsilon(1e-9));
    CHECK(s->afterLogProb == doctest::Approx(logProbability(afterLogits, static_cast<int>(afterId))).epsilon(1e-9));
    CHECK(s->change() == doctest::Approx(logProbability(afterLogits, static_cast<int>(beforeId)) - logProbability(beforeLogits, static_cast<int>(beforeId))).epsilon(1e-9));
    CHECK(std::abs(s->change()) > 1e-3);  // switching these heads off moves the fill
    REQUIRE(!app.predictionPanel().shown().empty());
    CHECK(app.predictionPanel().shown().front().id == afterId);  // the bars are the ablated run's
    CHECK(app.predictionPanel().shown().front().probability == doctest::Approx(std::exp(s->afterLogProb)).epsilon(1e-5));
}

TEST_CASE("heads off: undo and redo take a head off and back like any input — 'Switch all back on' is one step") {
    ImGuiHarness ui;
    ui::App app(bundledOn(kMaskedSentence));
    settle(ui, app);
    ui::chooseHeadOff(app.state(), 1, 2, ui::HeadMenuChoice::Zero);
    ui.frames(app, 2);
    ui::chooseHeadOff(app.state(), 0, 3, ui::HeadMenuChoice::Mean);
    ui.frames(app, 2);
    ui::chooseHeadOff(app.state(), 0, 0, ui::HeadMenuChoice::AllOn);
    ui.frames(app, 2);
    CHECK(app.state().spec.headsOff.empty());
    ui.pressKey(app, 'Z', true);
    CHECK(app.state().spec.headsOff == std::vector<HeadAblation>{{0, 3, HeadOffMode::Mean}, {1, 2, HeadOffMode::Zero}});
    ui.pressKey(app, 'Z', true);
    CHECK(app.state().spec.headsOff == std::vector<HeadAblation>{{1, 2, HeadOffMode::Zero}});
    ui.pressKey(app, 'Z', true);
    CHECK(app.state().spec.headsOff.empty());
    ImGui::GetIO().KeyShift = true;
    ui.pressKey(app, 'Z', true);
    ImGui::GetIO().KeyShift = false;
    CHECK(app.state().spec.headsOff == std::vector<HeadAblation>{{1, 2, HeadOffMode::Zero}});
    settle(ui, app);
    CHECK(app.run()->spec.headsOff == app.state().spec.headsOff);
}

TEST_CASE("heads off: the undo step is named for the head — and another model starts with every head on") {
    ui::InputsSnapshot before{bundledOn(kMaskedSentence).spec, {}};
    ui::InputsSnapshot after = before;
    core::setHeadOff(after.spec.headsOff, 2, 0, HeadOffMode::Zero);
    CHECK(ui::describeChange(before, after) == "head 2.0 off");
    CHECK(ui::describeChange(after, before) == "every head on");
    ui::InputsSnapshot more = after;
    core::setHeadOff(more.spec.headsOff, 1, 1, HeadOffMode::Mean);
    CHECK(ui::describeChange(after, more) == "head 1.1 mean");
    CHECK(ui::describeChange(more, after) == "head 1.1 on");
    ui::AppState state = bundledOn(kMaskedSentence);
    state.spec.headsOff = more.spec.headsOff;
    ui::useTrainedModel(io::loadBundledModel(), state);
    CHECK(state.spec.headsOff.empty());
}

}  // namespace attnviz::test

namespace attnviz::test {

TEST_CASE("heads off: Save and the autosave write them (sessionOf), and opening the file brings them back") {
    ui::AppState state = bundledOn(kMaskedSentence);
    ui::chooseHeadOff(state, 2, 0, ui::HeadMenuChoice::Zero);
    ui::chooseHeadOff(state, 0, 1, ui::HeadMenuChoice::Mean);
    const io::Session saved = ui::sessionOf(state);  // what File ▸ Save and the autosave write
    CHECK(saved.headsOff == state.spec.headsOff);
    const io::Session read = io::sessionFromJson(io::sessionToJson(saved), "lesson.json");
    ui::AppState reopened;
    ui::applyOpenedSession(io::openedSession(read, state.spec.trained()->model, "lesson.json"), "lesson.json", reopened);
    CHECK(reopened.spec.headsOff == state.spec.headsOff);
}

TEST_CASE("the KV cache strip says the truth about heads off: it runs every head, and layers up to the lowest head off keep their rows, later ones differ") {
    ImGuiHarness ui;
    ui::AppState state;
    ui::useTrainedModel(io::loadModelFolder(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/decoders/llama-gqa-llama3"), state);
    state.spec.sentences = {"the cat sat on the mat"};
    ui::App app(std::move(state));
    settle(ui, app);
    CHECK(app.predictionPanel().cacheHeadsOffNote().empty());  // every head on: nothing to say
    const core::ModelRun intact = core::runModel(app.run()->spec);
    app.state().spec.headsOff = {{0, 1, HeadOffMode::Zero}};
    settle(ui, app);
    REQUIRE(app.run()->spec.headsOff.size() == 1);
    const std::string& note = app.predictionPanel().cacheHeadsOffNote();
    CHECK(note.find("not in the cache") != std::string::npos);
    CHECK(note.find("the rows of layer 0 are the same with them off; those of layer 1 (grey) would differ") != std::string::npos);
    // What the note claims, from two whole runs: a layer's K and V are made from the residual stream entering it, and
    // that stream is the same with head 0.1 off up to layer 0 and differs entering layer 1.
    const core::Tensor& with = intact.modelPass->hiddenStates;       // (n + 1) × b × l × d_model
    const core::Tensor& without = app.run()->modelPass->hiddenStates;
    CHECK(with.slice(0).isApprox(without.slice(0), 0.0f));
    CHECK_FALSE(with.slice(1).isApprox(without.slice(1), 1e-4f));
    // In the last layer, the head off comes after every K and V: the note says no row changes.
    app.state().spec.headsOff = {{1, 0, HeadOffMode::Zero}};
    settle(ui, app);
    CHECK(app.predictionPanel().cacheHeadsOffNote().find("change none of its rows") != std::string::npos);
    app.state().spec.headsOff = {{1, 0, HeadOffMode::Mean}};
    settle(ui, app);
    CHECK(app.predictionPanel().cacheHeadsOffNote().find("cannot be cached") != std::string::npos);
}

}  // namespace attnviz::test
