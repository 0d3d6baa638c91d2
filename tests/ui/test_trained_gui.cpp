// test_trained_gui.cpp — the app on trained models, driven without a window: the bundled model opens on its
// coreference head, every stage draws, the layer control steps through layers, another head count re-splits, the
// model view draws every layer × head (with and without special tokens) and is the only view that has every layer's
// A computed, "What does training change?" shows the untrained twin, the inspector names token ids, and the model
// menu goes to random weights and back. Llama-family decoders (grouped-query K/V heads, RoPE, Qwen3's head_dim ≠
// d_model / h) open and draw every layer, head and stage.
// Honesty on screen: the words outside the vocabulary (tokens stage, status line), and a named head's
// caption with what it does on this sentence.
// The prediction panel: a decoder's next tokens, Append and its KV cache, undo; BERT's [MASK] fill; why not.
// A model whose mapped weights file is cut short on disk: the notice, and its Reopen button.
#include "app/gui_export.h"
#include "core/head_measures.h"
#include "app/gui_settings.h"
#include "imgui_harness.h"
#include "io/assets.h"
#include "io/memory_budget.h"
#include "io/model_folder.h"
#include "io/model_library.h"
#include "io/safetensors.h"
#include "io/scratch_dir.h"
#include "ui/lessons/lesson_catalog.h"
#include "ui/session/session_actions.h"
#include "ui/views/drawing.h"
#include "ui/views/inspector.h"
#include "ui/views/matrix_info.h"
#include "ui/panels/panels.h"
#include "ui/views/sentence_notes.h"

#include <doctest/doctest.h>

#include <imgui_internal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

#include <sys/stat.h>

namespace attnviz::test {
namespace {

using core::StageId;
using core::TensorId;

// The tiny Llama fixture with grouped-query attention (8 query heads on 2 K/V heads) and rotary positions.
ui::AppState llamaGqaState(std::vector<std::string> sentences) {
    ui::AppState state;
    ui::useTrainedModel(io::loadModelFolder(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/decoders/llama-gqa-llama3"), state);
    state.spec.sentences = std::move(sentences);
    return state;
}

// The null renderer, counting the matrices handed to it: each one is a copy its caller made (or it makes).
class CountingRenderer final : public render::HeatmapRenderer {
public:
    explicit CountingRenderer(render::HeatmapRenderer& inner) : inner_(inner) {}
    void beginFrame(std::uint64_t generation) override { inner_.beginFrame(generation); }
    render::HeatmapHandle heatmap(const render::TextureKey& key, const render::MatrixSlice& slice, bool transpose, render::Downsample how) override {
        ++handedOver;
        modelViewMaps += static_cast<int>(key.source == render::TextureKey::Source::ModelView);
        return inner_.heatmap(key, slice, transpose, how);
    }
    render::HeatmapHandle find(const render::TextureKey& key) const override { return inner_.find(key); }
    void draw(ImDrawList& list, render::HeatmapHandle handle, ImVec2 min, ImVec2 max, const render::HeatmapStyle& style) override {
        inner_.draw(list, handle, min, max, style);
    }
    render::RendererStats stats() const override { return inner_.stats(); }
    int handedOver = 0;
    int modelViewMaps = 0;

private:
    render::HeatmapRenderer& inner_;
};

}  // namespace

TEST_CASE("trained model: the model view reads and uploads each layer × head map once per run, not every frame") {
    ImGuiHarness ui;
    ui::App app(bundledState());
    settle(ui, app);
    app.state().modelView = true;
    CountingRenderer counting(ui.renderer());
    ui.frame(app, counting);
    const core::TransformerConfig& config = app.run()->spec.trainedModel()->config();
    const int maps = config.layers * config.heads;
    const int firstFrame = counting.handedOver;
    const std::uint64_t uploads = ui.renderer().stats().uploads;
    CHECK(firstFrame >= maps);
    for (int i = 0; i < 5; ++i) ui.frame(app, counting);
    CHECK(counting.handedOver == firstFrame);  // no map copied again
    CHECK(ui.renderer().stats().uploads == uploads);
    app.state().spec.sentences = {"The cat sat on the mat."};  // a new run: every map is read and uploaded again
    for (int i = 0; i < 3; ++i) ui.frame(app, counting);
    app.waitForRun();
    for (int i = 0; i < 3; ++i) ui.frame(app, counting);
    CHECK(counting.handedOver >= firstFrame + maps);
    CHECK(ui.renderer().stats().uploads >= uploads + static_cast<std::uint64_t>(maps));
    const int afterNewRun = counting.handedOver;
    for (int i = 0; i < 5; ++i) ui.frame(app, counting);
    CHECK(counting.handedOver == afterNewRun);
}

TEST_CASE("model view: under each head its heads.json name, else its strongest role and score as core scores them") {
    ImGuiHarness ui;
    ui::App app(bundledState());
    app.state().spec.sentences = {"the cat sat on the mat because the cat was tired"};
    app.state().modelView = true;
    settle(ui, app);
    settle(ui, app);  // the roles, asked for by the first frame that drew the run, arrived from the model worker
    const core::TrainedModel& model = *app.run()->spec.trainedModel();
    const int layers = model.config().layers, heads = model.config().heads;
    const std::vector<std::string>& captions = app.headCaptions();
    REQUIRE(captions.size() == static_cast<std::size_t>(layers * heads));
    // Independently: the sentence's pass, core's scores, and each head's best role picked and printed here.
    const std::vector<int>& ids = app.run()->tokenIds[0];
    const core::TransformerPass pass = core::runTransformer(model.transformer, {ids}, 0, core::modelAttention(model.transformer));
    const core::HeadRoles roles = core::headRolesOnRepeats(model.transformer, *model.tokenizer, pass.attentionWeights, 0, ids);
    const std::vector<std::pair<core::HeadRole, const char*>> words{{core::HeadRole::PreviousToken, "prev"}, {core::HeadRole::DuplicateToken, "dup"},
                                                                    {core::HeadRole::Induction, "induct"}, {core::HeadRole::FirstToken, "sink"},
                                                                    {core::HeadRole::Self, "self"}};
    int named = 0;
    for (int layer = 0; layer < layers; ++layer) {
        for (int head = 0; head < heads; ++head) {
            CAPTURE(layer);
            CAPTURE(head);
            const std::string& caption = captions[static_cast<std::size_t>(layer * heads + head)];
            if (const core::NamedHead* name = model.namedHead(layer, head)) {
                const std::string kept = caption.size() >= 3 && caption.ends_with("\u2026") ? caption.substr(0, caption.size() - 3) : caption;
                CHECK_FALSE(kept.empty());
                CHECK(name->name.starts_with(kept));  // its name, shortened with "…" to the map's width
                ++named;
                continue;
            }
            float best = -1.0f;
            std::string expected;
            for (const auto& [role, word] : words) {
                const float score = roles.scores[static_cast<std::size_t>(role)](layer, head);
                char text[32];
                std::snprintf(text, sizeof text, "%s %.2f", word, static_cast<double>(score));
                if (score > best) best = score, expected = text;
            }
            CHECK(caption == expected);
        }
    }
    CHECK(named >= 1);  // the bundled model's card names its coreference head
}

TEST_CASE("trained model: the bundled model opens on its coreference head, and every stage draws") {
    ImGuiHarness ui;
    ui::App app(bundledState());
    settle(ui, app);
    REQUIRE(app.run() != nullptr);
    REQUIRE(app.run()->spec.trainedModel()->featuredHead() != nullptr);
    CHECK(app.run()->spec.trained()->layer == app.run()->spec.trainedModel()->featuredHead()->layer);  // the coreference head's layer
    CHECK(app.state().head == app.run()->spec.trainedModel()->featuredHead()->head);
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

// The stage text App would draw for its run on screen.
ui::StageText stageTextOf(ImGuiHarness& ui, ui::App& app) {
    const std::optional<ui::Explanation> nothingHovered;
    ui::SummaryCache summaries;
    std::vector<ui::DrawnHeatmap> drawn;
    const ui::Fonts fonts;
    ImGui::NewFrame();  // text sizes need a frame
    const ui::ViewContext ctx{app.state(), *app.run(), ui.renderer(), fonts, nothingHovered, summaries, drawn};
    ui::StageText text = ui::stageText(ctx);
    ImGui::EndFrame();
    return text;
}

TEST_CASE("trained model: the tokens stage and the status line say which words fell outside the vocabulary") {
    ImGuiHarness ui;
    ui::AppState state = bundledState();
    state.spec.sentences = {"The zqxv sat on the mat \U0001F600"};
    ui::App app(std::move(state));
    settle(ui, app);
    REQUIRE(app.run() != nullptr);
    const std::string notice = ui::vocabularyNoticeOf(*app.run(), 0);
    CHECK(notice.find("1 of 7 words was cut into 4 pieces, 4 of them lone letters (zqxv)") != std::string::npos);
    CHECK(notice.find("1 word became [UNK] ([U+1F600])") != std::string::npos);  // named by its code point: ImGui cannot draw it
    app.state().stage = StageId::Tokens;
    CHECK(stageTextOf(ui, app).sentenceNote == notice);
    app.state().stage = StageId::Embed;
    CHECK(stageTextOf(ui, app).sentenceNote.empty());
    app.state().spec.sentences = {"The cat sat on the mat."};
    settle(ui, app);
    CHECK(ui::vocabularyNoticeOf(*app.run(), 0).empty());
}

TEST_CASE("a RoPE model: stage 4 says its Q_i and K_i are after RoPE — BERT's says nothing of RoPE") {
    ImGuiHarness ui;
    ui::App llama(llamaGqaState({"the cat sat"}));
    settle(ui, llama);
    llama.state().stage = StageId::Scores;
    CHECK(stageTextOf(ui, llama).note.find("after RoPE") != std::string::npos);
    ui::App bert(bundledState());
    settle(ui, bert);
    bert.state().stage = StageId::Scores;
    CHECK(stageTextOf(ui, bert).note.find("RoPE") == std::string::npos);
}

TEST_CASE("a model with llama3 rope_scaling: the RoPE step's numbers say the θ_j include it (they are not rope_theta^(-2j/d_k) alone)") {
    ImGuiHarness ui;
    ui::App llama(llamaGqaState({"the cat sat"}));
    settle(ui, llama);
    REQUIRE(llama.run()->spec.trainedModel()->config().ropeScaling);
    llama.state().stage = StageId::SplitHeads;
    llama.state().ropeStep = true;
    const std::string note = stageTextOf(ui, llama).note;
    CHECK_MESSAGE(note.find("llama3 rope_scaling") != std::string::npos, note);
    CHECK(note.find("divided by 8") != std::string::npos);
    const std::string formula = stageTextOf(ui, llama).formula;  // was rope_theta^(−2j/d_k) alone
    CHECK_MESSAGE(formula.find("rescaled by llama3 rope_scaling (factor 8)") != std::string::npos, formula);
}

TEST_CASE("trained model: the mask stage points to nothing the panel lacks (no mask choice under Inputs)") {
    ImGuiHarness ui;
    ui::App app(bundledState());
    settle(ui, app);
    app.state().stage = StageId::Mask;
    const std::string note = stageTextOf(ui, app).note;
    CHECK(note.find("under Inputs") == std::string::npos);
    CHECK(note.find("padding mask") != std::string::npos);  // what would give BERT a mask: a batch
}

TEST_CASE("trained model: a named head's caption comes with what it does on this sentence") {
    ImGuiHarness ui;
    ui::AppState state = bundledState();
    state.spec.sentences = {"The trophy would not fit in the suitcase because it was too big."};
    state.stage = StageId::Softmax;
    ui::App app(std::move(state));
    settle(ui, app);
    REQUIRE(app.run() != nullptr);
    const core::NamedHead& coref = *app.run()->spec.trainedModel()->featuredHead();
    REQUIRE(app.state().head == coref.head);
    const std::string note = stageTextOf(ui, app).sentenceNote;
    CHECK(note.find("On this sentence, head " + std::to_string(coref.head) + " (" + coref.name + "): it \u2192 ") == 0);
    // The two heaviest words of the "it" row, each the sum over its pieces, as the stepped layer's A has them.
    const auto& tokens = app.run()->tokens[0];
    const int it = static_cast<int>(std::find(tokens.begin(), tokens.end(), "it") - tokens.begin());
    const core::MatrixView a = app.run()->trace[TensorId::AttentionWeights].slice(0, coref.head);
    std::vector<std::pair<float, std::string>> weights;
    for (int key = 0; key < static_cast<int>(tokens.size()); ++key) weights.emplace_back(a(it, key), tokens[static_cast<std::size_t>(key)]);
    std::sort(weights.rbegin(), weights.rend());
    char expected[128];
    std::snprintf(expected, sizeof expected, "it \u2192 %s %.2f, %s %.2f: a close call", weights[0].second.c_str(), static_cast<double>(weights[0].first),
                  weights[1].second.c_str(), static_cast<double>(weights[1].first));
    CHECK_MESSAGE(note.find(expected) != std::string::npos, note);  // suitcase 0.60, trophy 0.40: within 0.2 (issue 32)
    // Another head (not named) says nothing; a re-split says nothing either (its heads are not the trained ones).
    app.state().head = (coref.head + 3) % app.run()->trace.dims.heads;
    if (app.run()->spec.trainedModel()->namedHead(coref.layer, app.state().head) == nullptr) CHECK(stageTextOf(ui, app).sentenceNote.empty());
    app.state().head = coref.head;
    app.state().spec.attention.heads = 2;
    settle(ui, app);
    CHECK(stageTextOf(ui, app).sentenceNote.empty());
}

TEST_CASE("trained model: the layer control recomputes that layer — another head count re-splits and says so") {
    ImGuiHarness ui;
    ui::App app(bundledState());
    settle(ui, app);
    app.state().spec.trained()->layer = 0;
    app.state().modelView = true;  // every layer's A is kept only for the model view
    settle(ui, app);
    CHECK(app.run()->spec.trained()->layer == 0);
    const core::Tensor& all = app.run()->modelPass->attentionWeights;
    REQUIRE(all.size() >= app.run()->trace[TensorId::AttentionWeights].size());
    const core::Tensor& stepped = app.run()->trace[TensorId::AttentionWeights];
    CHECK(std::equal(stepped.data.begin(), stepped.data.end(), all.data.begin()));  // layer 0 of the whole pass
    app.state().spec.attention.heads = 2;
    settle(ui, app);
    CHECK(app.run()->resplitHeads);
    CHECK(app.run()->trace.dims.dK == app.run()->spec.trainedModel()->config().dModel / 2);
}

namespace {

// `words` words of plain English (each one BERT token).
std::string longSentence(int words) {
    static const char* kWords[] = {"the", "cat", "sat", "on", "a", "mat", "and", "it", "was", "warm"};
    std::string text;
    for (int i = 0; i < words; ++i) text += std::string(i > 0 ? " " : "") + kWords[i % 10];
    return text;
}

}  // namespace

TEST_CASE("trained model: every layer's attention weights are computed only while the model view shows them") {
    ImGuiHarness ui;
    ui::App app(bundledState());
    settle(ui, app);
    REQUIRE(app.run()->modelPass != nullptr);
    CHECK(app.run()->modelPass->attentionWeights.empty());  // the stages draw the stepped layer's A, from its Trace
    CHECK_FALSE(app.run()->trace[TensorId::AttentionWeights].empty());
    const auto everyLayer = [&] { return core::runModel(app.run()->spec).modelPass->attentionWeights; };  // the reference

    SUBCASE("opening the view computes them, and its first frame draws every map (a small model computes inline)") {
        CountingRenderer counting(ui.renderer());
        app.state().modelView = true;
        ui.frame(app, counting);
        const core::TransformerConfig& config = app.run()->spec.trainedModel()->config();
        REQUIRE_FALSE(app.run()->modelPass->attentionWeights.empty());
        CHECK(app.run()->modelPass->attentionWeights.data == everyLayer().data);
        CHECK(counting.modelViewMaps >= config.layers * config.heads);
    }
    SUBCASE("closed, the next run leaves them out; reopened on a long sentence, no map is drawn until its weights arrive") {
        app.state().modelView = true;
        settle(ui, app);
        app.state().modelView = false;
        ui.frame(app);
        CHECK_FALSE(app.run()->modelPass->attentionWeights.empty());  // closing recomputes nothing
        app.state().spec.tokenLimit = 256;
        app.state().spec.sentences = {longSentence(200)};  // 202 tokens: computed on the worker
        settle(ui, app);
        REQUIRE(app.run()->tokens[0].size() == 202);
        CHECK(app.run()->modelPass->attentionWeights.empty());
        CountingRenderer counting(ui.renderer());
        app.state().modelView = true;
        ui.frame(app, counting);  // asks the worker for them
        if (app.run()->modelPass->attentionWeights.empty()) CHECK(counting.modelViewMaps == 0);  // nothing stale, nothing empty
        app.waitForRun();
        ui.frame(app, counting);
        REQUIRE_FALSE(app.run()->modelPass->attentionWeights.empty());
        CHECK(app.run()->modelPass->attentionWeights.dim(3) == 202);  // this sentence's
        CHECK(app.run()->modelPass->attentionWeights.data == everyLayer().data);
        const core::TransformerConfig& config = app.run()->spec.trainedModel()->config();
        CHECK(counting.modelViewMaps >= config.layers * config.heads);
    }
}

TEST_CASE("trained model: the model view draws every layer × head, with and without special tokens") {
    ImGuiHarness ui;
    ui::App app(bundledState());
    settle(ui, app);
    const auto uploadsBefore = ui.renderer().stats().uploads;
    app.state().modelView = true;
    ui.frame(app);
    const auto modelViewUploads = ui.renderer().stats().uploads - uploadsBefore;
    const core::TransformerConfig& config = app.run()->spec.trainedModel()->config();
    CHECK(modelViewUploads >= config.layers * config.heads);  // every layer × head
    app.state().hideSpecialTokens = true;
    ui.frame(app);
    CHECK(ui.renderer().stats().uploads - uploadsBefore >= 2 * config.layers * config.heads);  // the renormalised maps are new textures
    CHECK(app.error().empty());
}

TEST_CASE("trained model: 'What does training change?' opens the bundled model through the model library") {
    const std::shared_ptr<const core::TrainedModel> held = io::loadBundledModel();
    ui::AppState state;
    ui::openLesson(state, ui::Lesson::Training);
    CHECK(state.spec.trained()->model == held);  // the model already open, not a second copy read from disk
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

TEST_CASE("trained model: the line view shows the open model's head, the pronoun's row in bold") {
    ImGuiHarness ui;
    ui::App app(bundledState());
    settle(ui, app);
    const auto* model = app.state().spec.trainedModel();
    ui::openLesson(app.state(), ui::Lesson::Lines);
    settle(ui, app);
    CHECK(app.state().spec.trainedModel() == model);  // not switched to the seeded layer
    CHECK_FALSE(app.lessonReport().says("seeded single layer"));
    REQUIRE(app.lessonReport().lines.has_value());
    const auto& tokens = app.run()->queryTokens.front();
    const auto it = std::find(tokens.begin(), tokens.end(), "it");
    REQUIRE(it != tokens.end());
    CHECK(app.lessonReport().lines->focus == static_cast<int>(it - tokens.begin()));
    CHECK(app.lessonReport().lines->rows == static_cast<int>(tokens.size()));
}

TEST_CASE("trained model: the inspector names the token id — random weights and back") {
    ImGuiHarness ui;
    ui::App app(bundledState());
    settle(ui, app);
    const ui::CellRef cell{{ui::MatrixSource::TokenEmbeddings, TensorId::X, 0}, 2, 0};
    const std::optional<ui::Explanation> explained = ui::explainCell(*app.run(), cell, 0);
    REQUIRE(explained.has_value());
    CHECK(std::any_of(explained->notes.begin(), explained->notes.end(), [](const std::string& n) { return n.find("(id ") != std::string::npos; }));
    ui::useRandomWeights(app.state());
    settle(ui, app);
    CHECK(app.run()->spec.trainedModel() == nullptr);
    CHECK(app.run()->trace.dims.dModel == 64);
    ui::openLesson(app.state(), ui::Lesson::Training);  // needs a trained model: opens the bundled one
    settle(ui, app);
    REQUIRE(app.run()->spec.trainedModel() != nullptr);
    CHECK(app.run()->spec.trainedModel()->bundled);
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
            REQUIRE(app.run() != nullptr);
        CHECK(app.run()->trace.dims.kvHeads == 2);
        const int heads = app.run()->trace.dims.heads;
        for (int layer = 0; layer < 2; ++layer) {
            app.state().spec.trained()->layer = layer;
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

// [SECTION] the GUI always starts: a remembered hostile model folder, Open Recent Model, a start that died

namespace {

namespace fs = std::filesystem;

// The bundled model's folder copied with its config.json replaced by a FIFO: opening it the old way blocked forever.
fs::path fifoModel(const fs::path& under) {
    fs::copy(fs::path(ATTNVIZ_SOURCE_DIR) / "assets/models/attnviz-mini-bert", under / "fifo-model", fs::copy_options::recursive);
    fs::remove(under / "fifo-model" / "config.json");
    REQUIRE(::mkfifo((under / "fifo-model" / "config.json").c_str(), 0644) == 0);
    return under / "fifo-model";
}

// Frames until the background open is over (at most 10 s).
void untilOpened(ImGuiHarness& ui, ui::App& app) {
    for (int i = 0; i < 1000 && (app.state().session.request.action != ui::SessionAction::None || !app.state().session.openingModel.empty()); ++i) {
        ui.frame(app);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ui.frames(app, 2);
}

// The title of the modal on screen ("Could not open the model###session error"), or "".
std::string modalTitle() {
    ImGuiWindow* modal = ImGui::GetTopMostPopupModal();
    return modal != nullptr ? modal->Name : "";
}

}  // namespace

TEST_CASE("the GUI always starts: a remembered model folder holding a FIFO opens after the window, in the background, as a dialog") {
    const ScratchDir dir("remembered");
    app::SavedSession saved;
    saved.model = fifoModel(dir.path()).string();
    saved.state.spec.sentences = {"The cat sat."};
    const fs::path marker = dir / app::kOpeningMarkerName;
    ui::AppState state = bundledState();
    app::restoreInputs(saved, state);  // does not touch the folder: no hang before the window
    app::requestRememberedModel(saved, marker, state);
    CHECK(fs::exists(marker));
    ImGuiHarness ui;
    ui::App app(std::move(state));
    untilOpened(ui, app);
    app::followRememberedModel(marker, app.state());
    CHECK_FALSE(fs::exists(marker));  // the open finished: no crash to report at the next start
    CHECK(modalTitle().starts_with("Could not open the model"));
    REQUIRE(app.state().spec.trainedModel() != nullptr);
    CHECK(app.state().spec.trainedModel()->bundled);  // the model on screen stays
    app.waitForRun();
    ui.frames(app, 2);
    CHECK(app.run() != nullptr);
}

TEST_CASE("the GUI always starts: after a start that died while opening, the bundled model opens and the status says why") {
    const ScratchDir dir("died");
    app::SavedSession saved;
    saved.model = (dir / "some-model").string();
    const fs::path marker = dir / app::kOpeningMarkerName;
    std::ofstream(marker) << *saved.model;
    ui::AppState state = bundledState();
    app::requestRememberedModel(saved, marker, state);
    CHECK(state.session.request.action == ui::SessionAction::None);
    CHECK(state.status.find("ended while opening") != std::string::npos);
    CHECK_FALSE(fs::exists(marker));  // one fallback: the start after it tries the folder again
}

TEST_CASE("Open Recent Model: a FIFO, a device and a too-large model are dialogs, never an exit or a freeze") {
    const ScratchDir dir("recent");
    const fs::path fifo = fifoModel(dir.path());
    ImGuiHarness ui;
    ui::App app(bundledState());
    settle(ui, app);
    app.state().session.request = {ui::SessionAction::OpenRecentModel, fifo};
    untilOpened(ui, app);
    CHECK(modalTitle().starts_with("Could not open the model"));
    ui.pressKey(app, kKeyEscape);
    ui.frames(app, 2);
    fs::remove(fifo / "config.json");
    fs::copy_file(fs::path(ATTNVIZ_SOURCE_DIR) / "assets/models/attnviz-mini-bert/config.json", fifo / "config.json");
    io::setAvailableMemoryForTesting(1'000);
    app.state().session.request = {ui::SessionAction::OpenRecentModel, fifo};
    untilOpened(ui, app);
    io::setAvailableMemoryForTesting(std::nullopt);
    CHECK(modalTitle().starts_with("Could not open the model"));
    CHECK(app.state().spec.trainedModel()->bundled);
    ui.pressKey(app, kKeyEscape);
    ui.frames(app, 2);
    app.state().session.request = {ui::SessionAction::OpenRecentModel, fifo};  // the same folder, now fine: it opens
    untilOpened(ui, app);
    CHECK(modalTitle().empty());
    CHECK_FALSE(app.state().spec.trainedModel()->bundled);
    CHECK(app.state().session.recentModels.front() == fifo);
}

TEST_CASE("a model's weights file cut short on disk: the app says so (no SIGBUS), Reopen says why not while it is cut, and reads it again once whole") {
    const ScratchDir dir("cut-short-gui");
    const fs::path fixture = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/decoders/llama-gqa-llama3";  // F32, tied
    fs::copy(fixture, dir / "llama", fs::copy_options::recursive);
    const fs::path file = dir / "llama" / "model.safetensors";
    const char* notice = "The model's weights file changed on disk while it was open";
    ImGuiHarness ui;
    ui::App app(bundledState());
    settle(ui, app);
    const auto reopen = [&](const char* label) {
        const std::optional<ImVec2> button = drawnTextAt(label);
        REQUIRE(button.has_value());
        ui.click(app, *button);
        untilOpened(ui, app);
        app.waitForRun();
        ui.frames(app, 2);
    };
    app.state().session.request = {ui::SessionAction::OpenRecentModel, dir / "llama"};
    untilOpened(ui, app);
    REQUIRE(app.state().spec.trainedModel()->folder == (dir / "llama").string());
    const std::vector<std::string> sentences{"the cat sat on the mat"};
    app.state().spec.sentences = sentences;
    settle(ui, app);
    REQUIRE(app.run() != nullptr);
    REQUIRE(app.run()->spec.sentences == sentences);
    const core::Tensor embeddings = app.run()->embeddings;
    REQUIRE_FALSE(embeddings.data.empty());
    CHECK(std::any_of(embeddings.data.begin(), embeddings.data.end(), [](float x) { return x != 0.0f; }));
    CHECK_FALSE(drawnTextAt(notice));

    // Saved again in place, and caught half-way: the file now ends where the token table starts (the app reads its
    // rows by token id from the mapping), so the next run's first read of a row lands past the end.
    const io::SafetensorsFile stored(file);
    std::uint64_t bufferSize = 0;
    for (const auto& [name, entry] : stored.entries()) bufferSize = std::max(bufferSize, entry.end);
    fs::resize_file(file, fs::file_size(file) - bufferSize + stored.entries().at("model.embed_tokens.weight").begin);
    app.state().spec.sentences = {"the dog ran to the old mill"};
    settle(ui, app);
    REQUIRE(app.run() != nullptr);
    CHECK(app.run()->spec.sentences == app.state().spec.sentences);  // the run read the cut table and went on
    CHECK(std::all_of(app.run()->embeddings.data.begin(), app.run()->embeddings.data.end(), [](float x) { return x == 0.0f; }));
    CHECK(drawnTextAt(notice));

    reopen("Reopen the model");  // the folder is read again, not the held model shared: the cut file is refused
    CHECK(modalTitle().starts_with("Could not open the model"));
    ui.pressKey(app, kKeyEscape);
    ui.frames(app, 2);
    CHECK(drawnTextAt(notice));  // the model on screen is still the cut one

    fs::copy_file(fixture / "model.safetensors", dir / "llama" / "saved.safetensors");  // saved whole (by rename)
    fs::rename(dir / "llama" / "saved.safetensors", file);
    reopen("Reopen the model");
    CHECK(modalTitle().empty());
    CHECK_FALSE(drawnTextAt(notice));
    app.state().spec.sentences = sentences;
    settle(ui, app);
    REQUIRE(app.run() != nullptr);
    CHECK(app.run()->spec == app.state().spec);
    CHECK(app.run()->embeddings.data == embeddings.data);  // the model's numbers again
}

TEST_CASE("the model library: the same folder opened twice shares one model — cancel drops the result") {
    const fs::path folder = fs::path(ATTNVIZ_SOURCE_DIR) / "assets/models/attnviz-mini-bert";
    io::ModelLibrary library;
    const auto first = library.openNow(folder);
    CHECK(library.openNow(folder / "." ) == first);
    CHECK(io::ModelLibrary().openNow(folder) == first);  // one table of held models for the whole process
    CHECK(io::loadBundledModel() == io::loadBundledModel());
    CHECK(io::loadBundledModel()->bundled);
    CHECK_FALSE(first->bundled);
    library.open(folder);
    std::optional<io::ModelLibrary::Opened> opened;
    for (int i = 0; i < 500 && !opened; ++i) {
        opened = library.take();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    REQUIRE(opened.has_value());
    CHECK(opened->model == first);
    io::ModelLibrary slow([](const fs::path&) -> std::shared_ptr<const core::TrainedModel> {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        throw std::bad_alloc();
    });
    slow.open("/anywhere");
    CHECK(slow.opening() == fs::path("/anywhere"));
    slow.cancel();
    CHECK_FALSE(slow.opening());
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    CHECK_FALSE(slow.take());  // cancelled: dropped
    slow.open("/anywhere");
    opened.reset();
    for (int i = 0; i < 1000 && !opened; ++i) {  // up to 10 s: the loader takes 200 ms, more on a loaded machine
        opened = slow.take();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    REQUIRE(opened.has_value());
    CHECK(opened->error.find("ran out of memory") != std::string::npos);
    CHECK_THROWS_AS(slow.openNow("/anywhere"), io::FileError);
}


TEST_CASE("stage 3's RoPE step: the stage text shows RoPE's formula, code and numbers, not the split's") {
    ImGuiHarness ui;
    ui::AppState state = llamaGqaState({"the cat sat"});
    state.stage = StageId::SplitHeads;
    ui::App app(std::move(state));
    settle(ui, app);
    REQUIRE(app.run() != nullptr);
    const ui::StageText split = stageTextOf(ui, app);
    CHECK(split.formula == core::stage(StageId::SplitHeads).formula);
    app.state().ropeStep = true;
    ui.frame(app);
    const ui::StageText rope = stageTextOf(ui, app);
    CHECK(rope.formula.starts_with(core::ropeStep().formula));
    CHECK(rope.formula.ends_with("rescaled by llama3 rope_scaling (factor 8)"));  // the fixture's rope_scaling
    CHECK(rope.explanation == core::ropeStep().explanation);
    REQUIRE(rope.code.size() == 2);
    CHECK(rope.code[0].second.find("rotate_half(q)") != std::string::npos);
    CHECK(rope.code[0].second.find("1 x 8 x") != std::string::npos);  // b × h × l × d_k substituted: h = 8
    CHECK(rope.code[1].second.find("half = 6 // 2") != std::string::npos);  // d_k = 6
    CHECK(rope.note.find("d_k = 6: 3 pairs") != std::string::npos);
    CHECK(rope.note.find("θ_0 = 1 rad") != std::string::npos);  // rope_theta^0
    // Another stage keeps its own words while the RoPE step is chosen.
    app.state().stage = StageId::Scores;
    ui.frame(app);
    CHECK(stageTextOf(ui, app).formula == core::stage(StageId::Scores).formula);
}

// Whether the last frame drew a vertex in `colour` within 4 px around the cells of `drawn`: its frame.
bool framedIn(const ui::DrawnHeatmap& drawn, ImU32 colour) {
    const ImDrawData* data = ImGui::GetDrawData();
    for (int l = 0; l < data->CmdListsCount; ++l) {
        for (const ImDrawVert& v : data->CmdLists[l]->VtxBuffer) {
            const bool nearFrame = v.pos.x >= drawn.min.x - 4 && v.pos.x <= drawn.max.x + 4 && v.pos.y >= drawn.min.y - 4 && v.pos.y <= drawn.max.y + 4 &&
                                   (v.pos.x < drawn.min.x || v.pos.x > drawn.max.x || v.pos.y < drawn.min.y || v.pos.y > drawn.max.y);
            if (nearFrame && v.col == colour) return true;
        }
    }
    return false;
}

TEST_CASE("heads panel: under grouped-query attention a query head's thumbnail is framed in the colour of the K/V head it shares") {
    ImGuiHarness ui;
    ui::AppState state = llamaGqaState({"the cat sat"});
    state.stage = StageId::Softmax;
    state.head = 0;
    ui::App app(std::move(state));
    settle(ui, app);
    REQUIRE(app.run()->trace.dims.kvHeads == 2);  // 8 query heads, 4 to a K/V head
    const ui::DrawnHeatmap* thumbnail = nullptr;
    for (const ui::DrawnHeatmap& d : app.drawnHeatmaps()) {
        if (d.matrix == traceRef(TensorId::AttentionWeights, 5)) thumbnail = &d;
    }
    REQUIRE(thumbnail != nullptr);
    CHECK(framedIn(*thumbnail, ui::headColor(1)));  // head 5 reads K/V head 5 / 4 = 1
    CHECK_FALSE(framedIn(*thumbnail, ui::headColor(5)));
    const ui::DrawnHeatmap hovered = *thumbnail;
    ui.hover(app, {(hovered.min.x + hovered.max.x) / 2, (hovered.min.y + hovered.max.y) / 2});
    const ImGuiWindow* tooltip = ImGui::FindWindowByName("##Tooltip_00");
    CHECK((tooltip != nullptr && tooltip->Active));  // "head 5 shares K/V head 1 (with query heads 4–7)"
}

TEST_CASE("prediction panel: a decoder's ten next tokens, Append grows the sentence and its KV cache one token at a time, undo takes it back") {
    ImGuiHarness ui;
    ui::AppState state = llamaGqaState({"the cat"});
    ui::App app(std::move(state));
    settle(ui, app);
    REQUIRE(app.run() != nullptr);
    const ui::PredictionPanel& panel = app.predictionPanel();
    const int length = static_cast<int>(app.run()->tokenIds[0].size());
    ui.frames(app, 2);  // settle waited for the cache too: it follows the sentence on a worker
    REQUIRE(panel.shown().size() == 10);
    CHECK(panel.shownPosition() == length - 1);
    CHECK(panel.cache().ids() == app.run()->tokenIds[0]);
    // The bars are the model's own prediction after the last token: the top ten of its logits at T = 1.
    const auto expected = core::topTokens(core::predictionLogits(app.run()->spec.trainedModel()->transformer, *app.run()->modelPass, 0, length - 1), 10, 1.0f);
    CHECK(panel.shown().front().id == expected.front().id);
    for (int append = 1; append <= 3; ++append) {
        const std::string before = app.state().spec.sentences[0];
        const std::vector<int> ids = app.run()->tokenIds[0];
        REQUIRE(ui::appendToken(app.state(), *app.run(), panel.shown().front().id));
        CHECK(app.state().spec.sentences[0].size() > before.size());
        settle(ui, app);
        ui.frames(app, 2);
        CHECK(app.run()->tokenIds[0].size() >= ids.size() + 1);
        CHECK(panel.cache().ids() == app.run()->tokenIds[0]);  // grown, not rebuilt: the old rows are a prefix
        CHECK(std::equal(ids.begin(), ids.end(), panel.cache().ids().begin()));
    }
    // Cooler: the most likely token's probability grows.
    const float warm = panel.shown().front().probability;
    app.state().prediction.temperature = 0.3f;
    ui.frame(app);
    CHECK(panel.shown().front().probability > warm);
    // Undo (Ctrl+Z) takes the last Append back, and the cache drops its row.
    const std::size_t grown = panel.cache().ids().size();
    ui.pressKey(app, 'Z', true);
    settle(ui, app);
    ui.frames(app, 2);
    CHECK(panel.cache().ids().size() < grown);
    CHECK(panel.cache().ids() == app.run()->tokenIds[0]);
}

TEST_CASE("prediction panel: the KV cache catches up on a worker, never in a frame, and the panel shows how far it got") {
    ImGuiHarness ui;
    ui::AppState state = llamaGqaState({"the cat sat on the mat"});
    ui::App app(std::move(state));
    const ui::PredictionPanel& panel = app.predictionPanel();
    ui::KvCacheFollower& follower = panel.cacheFollower();
    follower.hold(true);  // the worker takes no step until released
    settle(ui, app);
    REQUIRE(app.run() != nullptr);
    const std::vector<int> ids = app.run()->tokenIds[0];
    REQUIRE(ids.size() >= 5);
    // The panel used to append one token a frame on the UI thread: these frames alone would have filled the cache.
    ui.frames(app, static_cast<int>(ids.size()) + 2);
    CHECK(follower.steps() == 0);
    CHECK(panel.cacheProgress().length == 0);
    CHECK(panel.cacheProgress().target == static_cast<int>(ids.size()));
    CHECK_FALSE(panel.cacheProgress().caughtUp);  // drawn as "catching up: 0 of n tokens"
    CHECK(app.computing());                        // the window keeps drawing frames meanwhile
    follower.hold(false);
    follower.wait();
    ui.frame(app);
    CHECK(panel.cacheProgress().caughtUp);
    CHECK(panel.cacheProgress().length == static_cast<int>(ids.size()));
    CHECK(panel.cacheProgress().newRow == static_cast<int>(ids.size()) - 1);
    CHECK(follower.steps() == static_cast<int>(ids.size()) + 1);  // the empty cache for the model, then a token a step
    CHECK_FALSE(app.computing());
    // The worker's rows are those of the sentence appended in one go, bit for bit.
    const core::TransformerModel& model = app.run()->spec.trainedModel()->transformer;
    const core::KvCache expected = core::prefilledCache(model, ids);
    const core::KvCache cache = panel.cache();
    REQUIRE(cache.layers() == expected.layers());
    for (int layer = 0; layer < cache.layers(); ++layer) {
        CHECK(core::Matrix(cache.keys(layer)) == core::Matrix(expected.keys(layer)));
        CHECK(core::Matrix(cache.values(layer)) == core::Matrix(expected.values(layer)));
    }
}

TEST_CASE("prediction panel: BERT fills a typed [MASK] — the seeded layer and a BERT folder without a head say why not") {
    ImGuiHarness ui;
    ui::AppState state;
    ui::useTrainedModel(io::loadModelFolder(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/predictions/bert-mlm"), state);
    state.spec.sentences = {"the [MASK] sat"};
    ui::App app(std::move(state));
    settle(ui, app);
    REQUIRE(app.run() != nullptr);
    CHECK(app.predictionPanel().shown().size() == 10);
    CHECK(app.predictionPanel().shownPosition() == 2);  // [CLS] t h [MASK]: the typed [MASK] is one token
    app.state().spec.sentences = {"the cat sat"};
    settle(ui, app);
    CHECK(app.predictionPanel().shown().empty());
    CHECK(app.predictionPanel().message().find("Type [MASK]") != std::string::npos);

    ui::AppState bare;
    ui::useTrainedModel(io::loadModelFolder(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models/bert-original-names"), bare);
    bare.spec.sentences = {"the cat"};  // 16 positions
    ui::App bareApp(std::move(bare));
    settle(ui, bareApp);
    CHECK(bareApp.predictionPanel().message().find("no masked-word head") != std::string::npos);

    ui::App seeded{ui::AppState{}};
    settle(ui, seeded);
    CHECK(seeded.predictionPanel().message().find("predicts no token") != std::string::npos);
}

TEST_CASE("the next-token view: presenting, P shows the ten next tokens in large type (the right panel is away) — P again closes it") {
    ImGuiHarness ui({1024.0f, 768.0f});
    ui::AppState state = llamaGqaState({"the cat sat"});
    state.presenting = true;
    ui::App app(std::move(state));
    settle(ui, app);
    REQUIRE(app.run() != nullptr);
    const ui::PredictionPanel& panel = app.predictionPanel();
    CHECK(panel.shown().empty());  // presenting folds the right panel: nothing predicted on screen
    ui.pressKey(app, 'P');
    settle(ui, app);
    ui.frames(app, 2);
    REQUIRE(app.state().lesson.open == ui::Lesson::NextToken);
    CHECK(app.state().presenting);
    CHECK(app.state().spec.trainedModel() != nullptr);  // the open model's prediction, not the seeded layer's
    const int length = static_cast<int>(app.run()->tokenIds[0].size());
    REQUIRE(panel.shown().size() == 10);
    CHECK(panel.shownPosition() == length - 1);
    const auto expected = core::topTokens(core::predictionLogits(app.run()->spec.trainedModel()->transformer, *app.run()->modelPass, 0, length - 1), 10, 1.0f);
    CHECK(panel.shown().front().id == expected.front().id);
    CHECK(panel.cache().ids() == app.run()->tokenIds[0]);  // the cache follows the view too
    CHECK(app.lessonReport().says("LM head"));
    // A bar a back row reads: taller than a line of the presenting body text (the right panel's bars are one line).
    CHECK(panel.shownBarHeight() >= 1.4f * ImGui::GetTextLineHeight());
    ui.pressKey(app, 'P');
    ui.frames(app, 2);
    CHECK(app.state().lesson.open == ui::Lesson::None);

    ui::App seeded{ui::AppState{}};
    settle(ui, seeded);
    ui::openLesson(seeded.state(), ui::Lesson::NextToken);
    settle(ui, seeded);
    CHECK(seeded.state().lesson.open == ui::Lesson::NextToken);
    CHECK(seeded.lessonReport().says("predicts no token"));
}

TEST_CASE("the next-token view on BERT offers attnviz's own decoder: one click asks for its folder") {
    ImGuiHarness ui({1280.0f, 800.0f});
    ui::App app(bundledState());
    settle(ui, app);
    ui::openLesson(app.state(), ui::Lesson::NextToken);
    settle(ui, app);
    const std::vector<ui::ShownButton>& buttons = app.lessonReport().buttons;
    const auto offer = std::find_if(buttons.begin(), buttons.end(), [](const ui::ShownButton& b) { return b.label.rfind("Open attnviz's own decoder", 0) == 0; });
    REQUIRE(offer != buttons.end());
    ui.click(app, {(offer->min.x + offer->max.x) / 2, (offer->min.y + offer->max.y) / 2});
    untilOpened(ui, app);
    REQUIRE(app.state().spec.trainedModel() != nullptr);
    CHECK(app.state().spec.trainedModel()->name == "attnviz-mini-llama");
}

TEST_CASE("the next-token view on BERT asks what word fits the blank, opens with the last content word masked, and a click hides another") {
    ImGuiHarness ui({1280.0f, 800.0f});
    ui::App app(bundledState());
    settle(ui, app);
    ui::openLesson(app.state(), ui::Lesson::NextToken);
    settle(ui, app);
    ui.frames(app, 2);
    CHECK(app.state().spec.sentences[0] == "The animal didn't cross the street because it was too [MASK]");  // "tired"
    CHECK(app.lessonReport().says("What word fits the blank?"));
    CHECK_FALSE(app.lessonReport().says("predict next"));
    REQUIRE(app.predictionPanel().shown().size() == 10);  // filled at once: the view is never empty
    const std::vector<ui::ShownButton>& words = app.lessonReport().buttons;
    const auto street = std::find_if(words.begin(), words.end(), [](const ui::ShownButton& b) { return b.label == "street"; });
    REQUIRE(street != words.end());
    ui.click(app, {(street->min.x + street->max.x) / 2, (street->min.y + street->max.y) / 2});
    CHECK(app.state().spec.sentences[0] == "The animal didn't cross the [MASK] because it was too tired");
    settle(ui, app);
    ui.frames(app, 2);
    REQUIRE(app.predictionPanel().shown().size() == 10);
    const std::vector<std::string>& tokens = app.run()->tokens[0];
    CHECK(tokens.at(static_cast<std::size_t>(app.predictionPanel().shownPosition())) == "[MASK]");
    // One click to a model that does predict the next word: attnviz's own decoder.
    const auto decoder = std::find_if(words.begin(), words.end(), [](const ui::ShownButton& b) { return b.label.starts_with("Open attnviz's own decoder"); });
    REQUIRE(decoder != words.end());
    ui.click(app, {(decoder->min.x + decoder->max.x) / 2, (decoder->min.y + decoder->max.y) / 2});
    untilOpened(ui, app);
    REQUIRE(app.state().spec.trainedModel() != nullptr);
    CHECK(app.state().spec.trainedModel()->config().traits().decoder);
}

TEST_CASE("the next-token view on BERT: closing it puts the hidden word back") {
    ImGuiHarness ui({1280.0f, 800.0f});
    ui::App app(bundledState());
    settle(ui, app);
    ui::openLesson(app.state(), ui::Lesson::NextToken);
    CHECK(app.state().lesson.setupNote == "\"tired\" is hidden behind [MASK]; click another word to hide it instead.");
    ui::closeLesson(app.state());
    CHECK(app.state().spec.sentences[0] == std::string(core::kDefaultSentence));
}

TEST_CASE("the next-token view's Export… exports the prediction slide (export --kind next) at the temperature on screen") {
    ImGuiHarness ui({1280.0f, 800.0f});
    const ScratchDir out("next-export");
    ui::AppState state = llamaGqaState({"the cat sat on the mat"});
    state.exportDirectory = out.path().string();
    state.exportPng = app::makeExportHook();  // without a hook the button is disabled
    ui::App app(std::move(state));
    settle(ui, app);
    ui::openLesson(app.state(), ui::Lesson::NextToken);
    settle(ui, app);
    REQUIRE(app.state().lesson.open == ui::Lesson::NextToken);
    app.state().prediction.temperature = 0.5f;
    REQUIRE(app.lessonReport().exportButton.x > 0.0f);
    ui.click(app, app.lessonReport().exportButton);
    ui.frames(app, 2);
    CHECK(app.state().exportPrediction);
    const ui::ExportRequest request = ui::exportRequestOf(app.state(), *app.run());
    CHECK(request.prediction);
    CHECK(request.temperature == 0.5f);
    const std::string status = app.state().exportPng(*app.run(), request);
    CHECK_MESSAGE(status == "Wrote " + (out.path() / "next.png").string(), status);
    // With the view closed the same choices export the stage again.
    ui::closeLesson(app.state());
    CHECK_FALSE(ui::exportRequestOf(app.state(), *app.run()).prediction);
}

}  // namespace attnviz::test
