// test_trained_gui.cpp — the app on trained models, driven without a window: the bundled model opens on its
// coreference head, every stage draws, the layer control steps through layers, another head count re-splits, the
// model view draws every layer × head (with and without special tokens), "What does training change?" shows the
// untrained twin, the inspector names token ids, and the model menu goes to random weights and back. Llama-family
// decoders (grouped-query K/V heads, RoPE, Qwen3's head_dim ≠ d_model / h) open and draw every layer, head and stage.
#include "imgui_harness.h"
#include "io/model_folder.h"
#include "ui/lessons/lesson_catalog.h"
#include "ui/session/session_actions.h"
#include "ui/views/inspector.h"
#include "ui/views/matrix_info.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace attnviz::test {
namespace {

using core::StageId;
using core::TensorId;

ui::AppState bundledState() {
    ui::AppState state;
    auto model = io::loadBundledModel();
    REQUIRE(model != nullptr);
    ui::useTrainedModel(std::move(model), state);
    return state;
}

void settle(ImGuiHarness& ui, ui::App& app) {
    ui.frames(app, 2);
    app.waitForRun();
    ui.frames(app, 2);
}

}  // namespace

TEST_CASE("trained model: the bundled model opens on its coreference head, and every stage draws") {
    ImGuiHarness ui;
    ui::App app(bundledState());
    settle(ui, app);
    REQUIRE(app.run() != nullptr);
    REQUIRE(app.run()->spec.trained->featuredHead() != nullptr);
    CHECK(app.run()->spec.layer == app.run()->spec.trained->featuredHead()->layer);  // the coreference head's layer
    CHECK(app.state().head == app.run()->spec.trained->featuredHead()->head);
    CHECK(app.run()->tokens[0].front() == "[CLS]");
    CHECK(app.error().empty());
    for (int stage = 0; stage < core::kStageCount; ++stage) {
        app.state().stage = static_cast<StageId>(stage);
        ui.frame(app);
        CHECK(app.error().empty());
    }
    app.state().stage = StageId::Softmax;
    ui.frame(app);
    CHECK(drawnCount(app, traceRef(TensorId::AttentionWeights, 0)) > 0);
}

TEST_CASE("trained model: the layer control recomputes that layer; another head count re-splits and says so") {
    ImGuiHarness ui;
    ui::App app(bundledState());
    settle(ui, app);
    app.state().spec.layer = 0;
    settle(ui, app);
    CHECK(app.run()->spec.layer == 0);
    const core::Tensor& all = app.run()->modelPass->attentionWeights;
    const core::Tensor& stepped = app.run()->trace[TensorId::AttentionWeights];
    CHECK(std::equal(stepped.data.begin(), stepped.data.end(), all.data.begin()));  // layer 0 of the whole pass
    app.state().spec.attention.heads = 2;
    settle(ui, app);
    CHECK(app.run()->resplitHeads);
    CHECK(app.run()->trace.dims.dK == app.run()->spec.trained->config().dModel / 2);
}

TEST_CASE("trained model: the model view draws every layer × head, with and without special tokens") {
    ImGuiHarness ui;
    ui::App app(bundledState());
    settle(ui, app);
    const auto uploadsBefore = ui.renderer().stats().uploads;
    app.state().modelView = true;
    ui.frame(app);
    const auto modelViewUploads = ui.renderer().stats().uploads - uploadsBefore;
    const core::TransformerConfig& config = app.run()->spec.trained->config();
    CHECK(modelViewUploads >= config.layers * config.heads);  // every layer × head
    app.state().hideSpecialTokens = true;
    ui.frame(app);
    CHECK(ui.renderer().stats().uploads - uploadsBefore >= 2 * config.layers * config.heads);  // the renormalised maps are new textures
    CHECK(app.error().empty());
}

TEST_CASE("trained model: 'What does training change?' shows the head trained and untrained") {
    ImGuiHarness ui;
    ui::App app(bundledState());
    settle(ui, app);
    ui::openLesson(app.state(), ui::Lesson::Training);
    settle(ui, app);
    CHECK(app.lessonReport().lesson == ui::Lesson::Training);
    CHECK(app.lessonReport().shows("untrained"));
    CHECK(app.lessonReport().shows("trained"));
    CHECK(app.lessonReport().says("Random weights spread each row almost evenly"));
}

TEST_CASE("trained model: the inspector names the token id; random weights and back") {
    ImGuiHarness ui;
    ui::App app(bundledState());
    settle(ui, app);
    const ui::CellRef cell{{ui::MatrixSource::TokenEmbeddings, TensorId::X, 0}, 2, 0};
    const std::optional<ui::Explanation> explained = ui::explainCell(*app.run(), cell, 0);
    REQUIRE(explained.has_value());
    CHECK(std::any_of(explained->notes.begin(), explained->notes.end(), [](const std::string& n) { return n.find("(id ") != std::string::npos; }));
    ui::useRandomWeights(app.state());
    settle(ui, app);
    CHECK(app.run()->spec.trained == nullptr);
    CHECK(app.run()->trace.dims.dModel == 64);
    ui::openLesson(app.state(), ui::Lesson::Training);  // needs a trained model: opens the bundled one
    settle(ui, app);
    REQUIRE(app.run()->spec.trained != nullptr);
    CHECK(app.run()->spec.trained->bundled);
}

TEST_CASE("trained model: Llama-family decoders open, and every layer, head and stage draws and explains its cells") {
    for (const std::string folder : {"llama-gqa-llama3", "qwen3-qknorm-headdim"}) {
        INFO(folder);
        ImGuiHarness ui;
        ui::AppState state;
        ui::useTrainedModel(io::loadModelFolder(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/decoders" / folder), state);
        state.spec.sentences = {"the cat sat", "at the"};  // the tiny models have positions for 32 byte-level pieces
        ui::App app(std::move(state));
        settle(ui, app);
        INFO(app.error());
        REQUIRE(app.run() != nullptr);
        CHECK(app.run()->trace.dims.kvHeads == 2);
        const int heads = app.run()->trace.dims.heads;
        for (int layer = 0; layer < 2; ++layer) {
            app.state().spec.layer = layer;
            settle(ui, app);
            for (int head : {0, heads - 1}) {
                app.state().head = head;
                for (int stage = 0; stage < core::kStageCount; ++stage) {
                    app.state().stage = static_cast<StageId>(stage);
                    ui.frame(app);
                    CHECK(app.error().empty());
                }
                // Every cell of the last query head's Q_i and K_i (a shared K/V head) explains itself.
                for (TensorId t : {TensorId::QHeads, TensorId::KHeads, TensorId::VHeads, TensorId::Scores}) {
                    const ui::CellRef cell{traceRef(t, head), 1, 1};
                    const std::optional<ui::Explanation> explained = ui::explainCell(*app.run(), cell, 0);
                    REQUIRE(explained.has_value());
                    CHECK(std::isfinite(explained->value));
                }
            }
        }
        app.state().modelView = true;
        ui.frame(app);
        CHECK(app.error().empty());
    }
}

}  // namespace attnviz::test
