// test_lessons.cpp — the question views (issue 5) driven without a window: each lesson is opened as its button
// in the Questions bar does (ui::openLesson), its control is changed as the control does (AppState), frames
// run, and the assertions look at AppState, at the run on screen and at what the lesson showed
// (App::lessonReport(): every sentence and every map or chart caption of the last frame).
#include "app/gui_export.h"
#include "app/gui_style.h"
#include "core/display_text.h"
#include "core/head_measures.h"
#include "core/transformer/logit_lens.h"
#include "core/transformer/prediction_words.h"
#include "imgui_harness.h"
#include "io/scratch_dir.h"
#include "io/model_folder.h"
#include "io/model_library.h"
#include "ui/lessons/lesson_catalog.h"
#include "ui/model_runner.h"
#include "ui/session/session_actions.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>
#include <filesystem>
#include <string>

namespace attnviz::test {
namespace {

using core::MaskFill;
using core::MaskKind;
using core::SoftmaxMode;
using core::StageId;
using core::TensorId;
using ui::Lesson;

// An app at the default sentence with `lesson` open, after the frames that compute what opening it changed.
struct LessonApp {
    ImGuiHarness ui;
    ui::App app{ui::AppState{}};

    explicit LessonApp(Lesson lesson) {
        ui.frame(app);
        ui::openLesson(app.state(), lesson);
        settle();
    }
    // Frames until the inputs' run is on screen and drawn.
    void settle() {
        ui.frames(app, 2);
        app.waitForRun();
        ui.frames(app, 2);
    }
    const ui::LessonReport& report() const { return app.lessonReport(); }
    const core::Trace& trace() const { return app.run()->trace; }
};

bool hasNan(const core::Tensor& t) {
    for (float v : t.data) {
        if (std::isnan(v)) return true;
    }
    return false;
}

// The number after `label` in the first reported sentence that has it ("mean entropy 1.83 nats" → 1.83).
double numberAfter(const ui::LessonReport& report, const std::string& label) {
    for (const std::string& text : report.texts) {
        const std::size_t at = text.find(label);
        if (at != std::string::npos) return std::stod(text.substr(at + label.size()));
    }
    FAIL("no sentence has “" << label << "”");
    return 0.0;
}

}  // namespace

TEST_CASE("every lesson opens from the Questions bar on the default sentence, marks its stage and explains itself") {
    for (const ui::LessonInfo& info : ui::lessons()) {
        CAPTURE(info.key);
        LessonApp t(info.id);
        CHECK(t.app.state().lesson.open == info.id);
        CHECK(t.app.state().stage == info.home);
        CHECK(t.report().lesson == info.id);
        CHECK(t.report().says(std::string(info.question)));
        CHECK(t.report().texts.size() >= 3);  // the question, where it belongs, and at least one plain sentence
        CHECK(t.app.error().empty());
        // The cost view is tables; the next-token view on the bundled BERT asks for a [MASK] before it has bars.
        if (info.id != Lesson::Cost && info.id != Lesson::NextToken) CHECK_FALSE(t.report().figures.empty());
        CHECK(ui::findLesson(info.key) == info.id);
    }
    CHECK_FALSE(ui::findLesson("nonsense"));
}

TEST_CASE("every lesson exports its stage as PNG with the lesson's inputs, through the GUI's export hook") {
    ScratchDir out("lessons-export");
    const ui::ExportHook exportPng = app::makeExportHook();
    for (const ui::LessonInfo& info : ui::lessons()) {
        CAPTURE(info.key);
        LessonApp t(info.id);
        const ui::AppState& state = t.app.state();
        const std::filesystem::path folder = out.path() / std::string(info.key);
        // What the lesson's "Export…" button asks for: this stage, the lesson's home.
        const ui::ExportRequest request{false, state.stage, state.head, state.batch, folder.string(), state.sequential, state.diverging};
        const std::string status = exportPng(*t.app.run(), request);
        CHECK_MESSAGE(status.rfind("Wrote", 0) == 0, status);
        int pngs = 0;
        for (const auto& entry : std::filesystem::directory_iterator(folder)) pngs += entry.path().extension() == ".png" ? 1 : 0;
        CHECK(pngs == t.trace().batch);  // one figure per sentence of the batch (the masks lesson has 3)
    }
}

TEST_CASE("a lesson closes from its button, from the timeline's keys, and returns to the stage view") {
    LessonApp t(Lesson::Scaling);
    ui::openLesson(t.app.state(), Lesson::Scaling);  // its button again
    t.ui.frame(t.app);
    CHECK(t.app.state().lesson.open == Lesson::None);
    CHECK(t.report().lesson == Lesson::None);
    CHECK(t.app.state().stage == ui::AppState{}.stage);  // the stage the user was on before opening it

    ui::openLesson(t.app.state(), Lesson::Masks);
    t.settle();
    t.ui.pressKey(t.app, kKeyRight);
    CHECK(t.app.state().lesson.open == Lesson::None);
    CHECK(t.app.state().stage == StageId::Softmax);
}

// What a lesson must give back on close: the inputs (model, sentences, sizes, masks) and the view.
void checkRestored(const ui::AppState& before, const ui::AppState& after) {
    CHECK(before.spec == after.spec);
    CHECK(after.spec.trainedModel() == before.spec.trainedModel());
    CHECK(after.stage == before.stage);
    CHECK(after.batch == before.batch);
    CHECK(after.head == before.head);
    CHECK(after.allHeads == before.allHeads);
    CHECK(after.projection == before.projection);
    CHECK(after.lesson.open == Lesson::None);
    CHECK_FALSE(after.lesson.returnTo.has_value());
}

TEST_CASE("every question view works on a copy: closing it returns the model, sentence, stage and view the user had") {
    for (const bool trained : {true, false}) {
        for (const ui::LessonInfo& info : ui::lessons()) {
            CAPTURE(info.key);
            CAPTURE(trained);
            ImGuiHarness harness;
            ui::App app{ui::AppState{}};
            ui::AppState& state = app.state();
            if (trained) ui::useTrainedModel(io::loadBundledModel(), state);
            state.spec.sentences = {"The street was wide"};
            state.stage = StageId::Mask;
            state.head = 1;
            state.projection = ui::Projection::Key;
            harness.frame(app);
            app.waitForRun();
            const ui::AppState before = state;

            ui::openLesson(state, info.id);  // opening may switch to random weights, pad the batch, add a decoder …
            harness.frames(app, 2);
            app.waitForRun();
            ui::closeLesson(state);
            checkRestored(before, state);
            harness.frames(app, 2);
            app.waitForRun();
            CHECK(app.error().empty());
            CHECK(app.run()->spec.trainedModel() == before.spec.trainedModel());  // what is drawn is the user's model again
        }
    }
}

TEST_CASE("the Questions bar is ordered by use: Lines and Next token first (at 1280 they hid under More)") {
    REQUIRE(ui::lessons().size() >= 2);
    CHECK(ui::lessons()[0].id == ui::Lesson::Lines);
    CHECK(ui::lessons()[1].id == ui::Lesson::NextToken);
}

TEST_CASE("a question view opened with --lesson closes onto the stage it belongs to, not the start's stage 0") {
    for (const ui::LessonInfo& info : ui::lessons()) {
        CAPTURE(info.key);
        ui::AppState state;
        ui::openLessonAtStart(state, info.id);
        ui::closeLesson(state);
        CHECK(state.stage == info.home);
        CHECK(state.lesson.open == ui::Lesson::None);
    }
}

TEST_CASE("switching between question views keeps the user's own state to return to") {
    ImGuiHarness harness;
    ui::App app{ui::AppState{}};
    ui::AppState& state = app.state();
    ui::useTrainedModel(io::loadBundledModel(), state);
    harness.frame(app);
    const ui::AppState before = state;
    ui::openLesson(state, Lesson::Masks);    // pads the batch on random weights
    harness.frames(app, 2);
    ui::openLesson(state, Lesson::Pooling);  // adds [CLS]; must not keep the masks view's batch
    CHECK(state.spec.sentences.size() == 1);
    harness.frames(app, 2);
    ui::closeLesson(state);
    checkRestored(before, state);
}

TEST_CASE("stepping to another stage leaves a question view with the user's inputs, on the stage stepped to") {
    ImGuiHarness harness;
    ui::App app{ui::AppState{}};
    ui::AppState& state = app.state();
    ui::useTrainedModel(io::loadBundledModel(), state);
    harness.frame(app);
    const auto model = state.spec.trainedModel();
    ui::openLesson(state, Lesson::Masks);
    harness.frames(app, 2);
    CHECK_FALSE(state.spec.trainedModel());  // the masks view teaches on the seeded layer
    harness.pressKey(app, kKeyRight);
    CHECK(state.lesson.open == Lesson::None);
    CHECK(state.stage == StageId::Softmax);
    CHECK(state.spec.trainedModel() == model);
    CHECK(state.spec.sentences.size() == 1);
}

TEST_CASE("masks: a padded batch, the stored mask and its broadcast, the fill, and the fully masked row's NaN explained") {
    LessonApp t(Lesson::Masks);
    ui::AppState& state = t.app.state();
    REQUIRE(state.spec.sentences.size() == 3);
    CHECK(state.spec.attention.mask == MaskKind::Padding);
    CHECK(state.batch == 1);  // a padded sentence is shown
    CHECK(t.trace()[TensorId::Mask].shape == std::vector<int>{3, 1, 1, 13});
    CHECK(t.report().says("b × 1 × 1 × l = 3 × 1 × 1 × 13"));
    CHECK(t.report().says("b × h × l × l = 3 × 8 × 13 × 13"));
    for (const char* figure : {"sentence 0", "sentence 2", "head 0", "head 2"}) CHECK(t.report().shows(figure));
    CHECK(drawnCount(t.app, traceRef(TensorId::MaskedScores, 0)) > 0);
    CHECK(drawnCount(t.app, traceRef(TensorId::AttentionWeights, 0)) > 0);
    CHECK(t.report().says("No row is fully masked"));

    SUBCASE("padded query rows, −∞ and PyTorch's softmax: NaN, with the PyTorch issues named") {
        state.spec.attention.maskPaddedQueries = true;
        state.spec.attention.fill = MaskFill::MinusInfinity;
        state.spec.attention.softmax = SoftmaxMode::PyTorch;
        t.settle();
        CHECK(t.trace()[TensorId::Mask].shape == std::vector<int>{3, 1, 13, 13});
        CHECK(hasNan(t.trace()[TensorId::AttentionWeights]));
        CHECK(t.report().says("NaN: 19 rows have every key masked"));
        for (const char* issue : {"#24816", "#41508", "#103749"}) CHECK(t.report().says(issue));

        state.spec.attention.softmax = SoftmaxMode::Safe;
        t.settle();
        CHECK_FALSE(hasNan(t.trace()[TensorId::AttentionWeights]));
        CHECK(t.report().says("Warning: 19 rows have every key masked"));
        CHECK_FALSE(t.report().says("#24816"));

        state.spec.attention.softmax = SoftmaxMode::PyTorch;
        state.spec.attention.fill = MaskFill::MinusBillion;
        t.settle();
        CHECK_FALSE(hasNan(t.trace()[TensorId::AttentionWeights]));
        CHECK(t.report().says("spreads the weight evenly"));
    }
    SUBCASE("a causal mask is b × 1 × l × l") {
        state.spec.attention.mask = MaskKind::Causal;
        t.settle();
        CHECK(t.report().says("Causal mask, b × 1 × l × l = 3 × 1 × 13 × 13"));
    }
    SUBCASE("the batch editor adds a fourth sentence and the mask follows") {
        state.spec.sentences.emplace_back("A short one");
        t.settle();
        CHECK(t.trace()[TensorId::Mask].shape == std::vector<int>{4, 1, 1, 13});
        CHECK(t.report().shows("sentence 3"));
    }
}

TEST_CASE("cross-attention: a decoder sentence, the encoder layer's output as K and V, l_dec × l_enc maps") {
    ui::AppState start;
    start.spec.attention.mask = MaskKind::Both;  // refused in cross-attention: opening the lesson makes it padding
    ImGuiHarness ui;
    ui::App app(start);
    ui.frame(app);
    ui::openLesson(app.state(), Lesson::Cross);
    ui.frames(app, 4);
    REQUIRE(app.run() != nullptr);
    CHECK(app.error().empty());
    CHECK(app.state().spec.attention.mask == MaskKind::Padding);
    CHECK(app.state().spec.seeded()->encoderSelfAttentionFirst);
    const core::Trace& trace = app.run()->trace;
    REQUIRE(trace.cross);
    CHECK(trace[TensorId::AttentionWeights].shape == std::vector<int>{1, 8, 12, 13});
    CHECK(app.lessonReport().says("l_dec × l_enc = 12 × 13"));
    CHECK(app.lessonReport().shows("A₀ encoder"));
    CHECK(app.lessonReport().shows("O_enc = X"));
    CHECK_FALSE(app.lessonReport().shows("A₀ decoder"));
    CHECK(drawnCount(app, traceRef(TensorId::AttentionWeights, 0)) >= 1);

    app.state().spec.seeded()->decoderCausalSelfAttentionFirst = true;
    ui.frames(app, 4);
    REQUIRE(app.run()->decoderTrace.has_value());
    CHECK(app.lessonReport().shows("A₀ decoder"));
    CHECK(app.lessonReport().says("causal mask"));

    app.state().spec.seeded()->decoderSentences.clear();  // "back to self-attention"
    ui.frames(app, 4);
    CHECK_FALSE(app.run()->trace.cross);
    CHECK(app.lessonReport().says("This run is self-attention"));
}

TEST_CASE("3 layers or 3·h: the fused W^Q and its head blocks, or h matrices — Q agrees both ways to ~1e-7") {
    LessonApp t(Lesson::FusedVsHeads);
    CHECK(t.report().shows("W^Q"));
    CHECK(t.report().shows("Q₇"));
    CHECK(t.trace().perHeadMaxDifference < 1e-5f);
    CHECK(t.report().says("Largest difference between the two Q_i: "));
    CHECK(t.report().says("W^Q = [W₀^Q | W₁^Q | … | W₇^Q]"));
    t.app.state().lesson.fusedView = ui::FusedView::PerHead;
    t.ui.frame(t.app);
    CHECK(t.report().shows("W₀^Q"));
    CHECK(t.report().shows("X W₇^Q"));
    CHECK_FALSE(t.report().shows("Q₇"));
}

TEST_CASE("3 layers or 3·h: fewer K/V heads, MHA → GQA → MQA, for the opened Llama and for the seeded layer") {
    ImGuiHarness ui;
    ui::AppState state;
    ui::useTrainedModel(io::loadModelFolder(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/decoders/llama-gqa-llama3"), state);
    state.spec.sentences = {"the cat sat"};  // the tiny model has 32 positions
    ui::App app(std::move(state));
    ui.frame(app);
    ui::openLesson(app.state(), Lesson::FusedVsHeads);
    app.state().lesson.fusedView = ui::FusedView::SharedKv;
    ui.frames(app, 2);
    app.waitForRun();
    ui.frames(app, 2);
    const ui::LessonReport& r = app.lessonReport();
    // llama-gqa-llama3: 2 layers, d_model 48, h 8, h_kv 2, d_k 6, F32. W^Q = 48·8·6, W^K = 48·2·6; a token's K and V
    // rows are 2·2·6 = 24 values: 96 B a layer in F32, 192 B for both layers, 96 B in F16.
    CHECK(r.says("h_kv = 2, d_k = 6, stored as F32"));
    CHECK(r.says("GQA h_kv = 2 (its own): W^Q 2,304, W^K 576, W^V 576, W^O 2,304; KV cache 96 B per token per layer, 192 B per token for 2 layers (F32), 96 B (F16)"));
    CHECK(r.says("MHA h_kv = 8: W^Q 2,304, W^K 2,304, W^V 2,304, W^O 2,304; KV cache 384 B per token per layer, 768 B per token for 2 layers (F32)"));
    CHECK(r.says("MQA h_kv = 1: W^Q 2,304, W^K 288"));
    CHECK(r.says("GQA with h_kv = 2 keeps 2/8 of MHA's cache: 192 B instead of 768 B per token"));
    // The seeded layer (64 wide, 8 heads of 8, float32) gets GQA with h/4 = 2 K/V heads: 2·2·8·4 = 128 B a token.
    CHECK(r.says("This seeded layer"));
    CHECK(r.says("GQA h_kv = 2: W^Q 4,096, W^K 1,024, W^V 1,024, W^O 4,096; KV cache 128 B per token per layer, 128 B per token for 1 layer (F32), 64 B (F16)"));
    CHECK(r.says("MHA h_kv = 8 (its own)"));
}

TEST_CASE("rotary positions: one q turning with its position, and a score that depends on the offset only") {
    LessonApp t(Lesson::Rope);
    CHECK(t.report().shows("placed at positions 0 … 7"));
    CHECK(t.report().shows("score q·k after RoPE against the offset m − n"));
    CHECK(t.report().says("The seeded layer has no rotary positions"));
    CHECK(t.report().says("4 pairs (x_j, x_{j+4})"));  // d_k = 8
    CHECK(numberAfter(t.report(), "places along: ") < 1e-9);
    t.app.state().lesson.ropeEachToken = true;
    t.ui.frame(t.app);
    CHECK(t.report().shows("each token's q (head 0) at its own position"));
}

TEST_CASE("rotary positions on a Llama model: the model stays, its own q and k before RoPE are turned") {
    ImGuiHarness ui;
    ui::AppState state;
    ui::useTrainedModel(io::loadModelFolder(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/decoders/llama-gqa-llama3"), state);
    state.spec.sentences = {"the cat sat"};
    ui::App app(std::move(state));
    ui.frame(app);
    ui::openLesson(app.state(), Lesson::Rope);
    app.state().head = 5;
    ui.frames(app, 2);
    app.waitForRun();
    ui.frames(app, 2);
    REQUIRE(app.run()->spec.trainedModel() != nullptr);  // not switched to the seeded layer
    const ui::LessonReport& r = app.lessonReport();
    CHECK_FALSE(r.says("The seeded layer has no rotary positions"));
    CHECK(r.says("3 pairs (x_j, x_{j+3})"));  // head_dim 6
    CHECK(r.shows("(head 5)"));
    CHECK(numberAfter(r, "places along: ") < 1e-9);
    CHECK(app.error().empty());
}

TEST_CASE("do heads split X: the whole X to every head beside the naive slice, whose output differs") {
    LessonApp t(Lesson::Slicing);
    CHECK(t.report().shows("X, all of it"));
    CHECK(t.report().shows("X[:, 0:8]"));
    CHECK(t.report().shows("A₀ naive"));
    CHECK(t.report().shows("O naive"));
    CHECK(numberAfter(t.report(), "largest |O_naive − O| = ") > 0.01);
    t.app.state().head = 3;
    t.ui.frame(t.app);
    CHECK(t.report().shows("X[:, 24:32]"));
    CHECK(t.report().shows("A₃ naive"));
    t.app.state().spec.attention.dK = 5;  // free d_k: the naive model does not exist
    t.app.state().spec.attention.dV = 8;
    t.settle();
    CHECK(t.report().says("Naive slicing needs d_k = d_v = d_model / h"));
}

TEST_CASE("per row: row t of X times W^Q is row t of Q — stepping and animating move t") {
    LessonApp t(Lesson::RowByRow);
    ui::LessonState& lesson = t.app.state().lesson;
    CHECK(lesson.row == 0);
    CHECK(t.report().shows("x_t: row 0 of X, “The”"));
    CHECK(numberAfter(t.report(), "largest |x_t W^Q − Q[t]| = ") < 1e-5);
    lesson.row = 5;
    t.ui.frame(t.app);
    CHECK(t.report().says("Row 5 computed alone"));
    CHECK(t.report().shows("q_t = x_t W^Q: row 5 of Q"));
    lesson.animateRows = true;
    lesson.secondsPerRow = 0.5f;
    t.ui.frames(t.app, 32);  // 0.53 s at 60 frames a second
    CHECK(lesson.row == 6);
    lesson.row = 12;
    t.ui.frames(t.app, 31);
    CHECK(lesson.row == 0);  // wraps after the last token
}

TEST_CASE("scaling: the slider changes the score scale — without ÷√d_k the rows are sharper") {
    LessonApp t(Lesson::Scaling);
    CHECK(t.report().says("scale = 0.3536 = 1/√8, the default"));
    const double defaultEntropy = numberAfter(t.report(), "mean entropy ");
    CHECK(defaultEntropy < std::log(13.0));
    CHECK(t.report().shows("entropy of each row of A₀"));
    CHECK(t.report().shows("largest weight of each row"));
    t.app.state().spec.attention.scale = 4.0f;
    t.settle();
    CHECK(t.trace().dims.scale == 4.0f);
    CHECK(t.report().says("scale = 4  (1/√d_k would be 0.3536)"));
    CHECK(numberAfter(t.report(), "mean entropy ") < defaultEntropy - 0.1);
    CHECK(numberAfter(t.report(), "mean largest weight ") > 0.2);
}

TEST_CASE("pooling: [CLS] row and mean of the real tokens, each through the classifier to logits") {
    LessonApp t(Lesson::Pooling);
    CHECK(t.app.state().spec.seeded()->prependCls);
    CHECK(t.app.run()->tokens[0][0] == "[CLS]");
    for (const char* figure : {"pooled = O[0]", "pooled = mean of O's rows", "logits", "row 0 of O mixes the tokens by row 0 of A₀:",
                               "each real token's row of O weighs 1/14:"}) {
        CHECK(t.report().shows(figure));
    }
    CHECK(t.report().says("class 2: "));
    CHECK_FALSE(t.report().says("class 3: "));
    t.app.state().lesson.classes = 5;
    t.ui.frame(t.app);
    CHECK(t.report().says("class 4: "));
    t.app.state().spec.seeded()->prependCls = false;
    t.settle();
    CHECK(t.report().says("No [CLS] token in this run"));
    CHECK(t.report().shows("each real token's row of O weighs 1/13:"));
}

TEST_CASE("cost: FLOPs and memory per stage — h heads of d_k cost one head of d_model — l² takes over") {
    LessonApp t(Lesson::Cost);
    CHECK(t.report().says("Scores: 21.63 kFLOP, 5.3 KiB"));
    CHECK(t.report().says("h = 8 heads of d_k = 8: 43.26 kFLOP"));
    CHECK(t.report().says("one head of width d_model = 64: 43.26 kFLOP"));
    CHECK(t.report().says("The same"));
    t.app.state().lesson.costLength = 2048;
    t.ui.frame(t.app);
    CHECK(t.report().says("Every stage at b = 1, l = 2048"));
    CHECK(t.report().says("Scores: 536.87 MFLOP, 128.0 MiB"));
    CHECK(t.report().says("l = 8192: linear 268.44 MFLOP, maps 19.33 GFLOP"));
}

TEST_CASE("free d_k and d_v: W^O becomes h·d_v × d_model and the other views follow") {
    LessonApp t(Lesson::FreeDims);
    CHECK(t.report().says("(= d_model / h)"));
    t.app.state().spec.attention.dK = 12;
    t.app.state().spec.attention.dV = 4;
    t.settle();
    CHECK(t.trace()[TensorId::WO].shape == std::vector<int>{32, 64});
    CHECK(t.trace()[TensorId::WQ].shape == std::vector<int>{64, 96});
    CHECK(t.report().says("W^O: h·d_v × d_model = 8·4 × 64 = 32 × 64"));
    CHECK(t.report().shows("W^O"));
    ui::closeLesson(t.app.state());
    t.app.state().stage = StageId::Output;  // the stage view at the new sizes
    t.ui.frame(t.app);
    const auto drawn = std::find_if(t.app.drawnHeatmaps().begin(), t.app.drawnHeatmaps().end(),
                                    [](const ui::DrawnHeatmap& d) { return d.matrix == traceRef(TensorId::WO); });
    REQUIRE(drawn != t.app.drawnHeatmaps().end());
    CHECK(drawn->rows == 32);
}

// The null renderer, reading every matrix it is handed (find() answers none, so every map is read every frame) and
// remembering each key's values for the generation: a key given two different matrices in one generation is a conflict.
class ContentCheckingRenderer final : public render::HeatmapRenderer {
public:
    explicit ContentCheckingRenderer(render::HeatmapRenderer& inner) : inner_(inner) {}
    void beginFrame(std::uint64_t generation) override {
        if (generation != generation_) {
            generation_ = generation;
            contents_.clear();
            sources_.clear();
        }
        inner_.beginFrame(generation);
    }
    render::HeatmapHandle heatmap(const render::TextureKey& key, const render::MatrixSlice& slice, bool transpose, render::Downsample how) override {
        std::vector<float> values(slice.values.begin(), slice.values.end());
        values.push_back(static_cast<float>(slice.rows));
        const auto [known, isNew] = contents_.emplace(key, values);
        if (!isNew && (known->second.size() != values.size() ||
                       std::memcmp(known->second.data(), values.data(), values.size() * sizeof(float)) != 0)) {
            ++conflicts;
        }
        sources_.insert(static_cast<int>(key.source));
        if (sources_.count(static_cast<int>(render::TextureKey::Source::ModelView)) > 0 &&
            sources_.count(static_cast<int>(render::TextureKey::Source::Question)) > 0) {
            modelViewBesideQuestion = true;
        }
        keys.push_back(key);
        return inner_.heatmap(key, slice, transpose, how);
    }
    render::HeatmapHandle find(const render::TextureKey& /*key*/) const override { return {}; }
    void draw(ImDrawList& list, render::HeatmapHandle handle, ImVec2 min, ImVec2 max, const render::HeatmapStyle& style) override {
        inner_.draw(list, handle, min, max, style);
    }
    render::RendererStats stats() const override { return inner_.stats(); }
    int conflicts = 0;
    bool modelViewBesideQuestion = false;  // one generation held both the model view's and a question view's textures
    std::vector<render::TextureKey> keys;

private:
    render::HeatmapRenderer& inner_;
    std::uint64_t generation_ = ~0ULL;
    std::unordered_map<render::TextureKey, std::vector<float>, render::TextureKeyHash> contents_;
    std::set<int> sources_;
};

TEST_CASE("texture keys: equal keys hold the same matrix, and the model view, a question view and a stage never share one") {
    LessonApp t(Lesson::Training);  // attnviz's own trained model, beside its untrained copy
    ContentCheckingRenderer checking(t.ui.renderer());
    const auto frames = [&] {
        for (int i = 0; i < 2; ++i) t.ui.frame(t.app, checking);
        t.app.waitForRun();
        for (int i = 0; i < 2; ++i) t.ui.frame(t.app, checking);
    };
    frames();
    ui::AppState& state = t.app.state();
    const ui::Lesson open = state.lesson.open;
    state.lesson.open = Lesson::None;  // the model view, every layer's A₀, in the stage view's place
    state.modelView = true;
    frames();
    state.modelView = false;
    state.lesson.open = open;  // the same run: the training view's untrained A₀ beside the model view's textures
    frames();
    CHECK(checking.modelViewBesideQuestion);
    for (const int head : {0, 1}) {  // the same head as the untrained map and as the model view's maps
        state.head = head;
        frames();
    }
    // Every question view with its options, head and sentence changes: none may give one key two contents.
    for (const ui::LessonInfo& info : ui::lessons()) {
        ui::openLesson(state, info.id);
        frames();
        state.head = 1;
        state.lesson.classes = 3;
        frames();
        state.lesson.classes = 2;
        state.lesson.fusedView = ui::FusedView::PerHead;
        if (state.batch + 1 < static_cast<int>(state.spec.sentences.size())) ++state.batch;
        frames();
        state.lesson.fusedView = ui::FusedView::Fused;
    }
    CHECK(checking.conflicts == 0);
    const auto has = [&](render::TextureKey::Source source) {
        return std::any_of(checking.keys.begin(), checking.keys.end(), [&](const render::TextureKey& k) { return k.source == source; });
    };
    CHECK(has(render::TextureKey::Source::ModelView));
    CHECK(has(render::TextureKey::Source::Question));
    CHECK(has(render::TextureKey::Source::Trace));
}

TEST_CASE("texture keys: the same head, layer and sentence under another source, owner or variant is another texture") {
    using Key = render::TextureKey;
    Key stage;  // the stage view's A₀
    stage.tensor = static_cast<int>(TensorId::AttentionWeights);
    Key modelView = stage;  // the model view's layer 0, head 0
    modelView.source = Key::Source::ModelView;
    Key question = stage;  // a question view's own A₀ (the untrained model's)
    question.source = Key::Source::Question;
    question.owner = static_cast<int>(Lesson::Training);
    Key otherVariant = question;
    otherVariant.variant = 1;
    Key otherOwner = question;
    otherOwner.owner = static_cast<int>(Lesson::Slicing);
    const std::vector<Key> keys{stage, modelView, question, otherVariant, otherOwner};
    for (std::size_t i = 0; i < keys.size(); ++i) {
        for (std::size_t j = 0; j < keys.size(); ++j) CHECK((keys[i] == keys[j]) == (i == j));
    }
    CHECK(render::TextureKeyHash{}(question) == render::TextureKeyHash{}(Key(question)));
}

// The computed matrices drawn this frame whose name is `name` (a question view's own, not the run's).
std::vector<std::shared_ptr<const scene::Computed>> computedDrawn(const ui::App& app, const std::string& name) {
    std::vector<std::shared_ptr<const scene::Computed>> found;
    for (const ui::DrawnHeatmap& d : app.drawnHeatmaps()) {
        if (d.matrix.source == ui::MatrixSource::Computed && d.matrix.computed->name == name) found.push_back(d.matrix.computed);
    }
    return found;
}

TEST_CASE("computed maps: the masks view's broadcast is the stored mask repeated down every query row") {
    LessonApp t(Lesson::Masks);
    const auto broadcast = computedDrawn(t.app, "mask");
    REQUIRE(broadcast.size() == 3);  // three heads' tiles, one matrix
    const core::Matrix& full = broadcast.front()->values;
    const core::MatrixView stored = t.trace()[TensorId::Mask].slice(t.app.state().batch, 0);  // 1 × l
    REQUIRE(full.rows() == t.trace().queryLength);
    for (Eigen::Index r = 0; r < full.rows(); ++r) CHECK(full.row(r) == stored.row(0));
    CHECK(broadcast.front()->mask == full);  // its zeros drawn hatched
    CHECK(computedDrawn(t.app, "sentence 2").size() == 1);
}

TEST_CASE("computed maps: the training view's untrained A is its own run's, every row a distribution, near uniform") {
    LessonApp t(Lesson::Training);
    const auto untrained = computedDrawn(t.app, "A₀ untrained");
    REQUIRE(untrained.size() == 1);
    const core::Matrix& a = untrained.front()->values;
    const core::Trace& trained = t.trace();
    REQUIRE(a.rows() == trained.queryLength);
    for (Eigen::Index r = 0; r < a.rows(); ++r) CHECK(a.row(r).sum() == doctest::Approx(1.0).epsilon(1e-5));
    CHECK(a.maxCoeff() < 0.2f);  // N(0, 0.02²) weights: scores near 0, weights near 1/l
    CHECK(trained[TensorId::AttentionWeights].slice(0, 0).maxCoeff() > 0.5f);
    CHECK(untrained.front()->numericShape == trained[TensorId::AttentionWeights].shapeString());
    CHECK(t.report().shows("trained · A₀"));
    CHECK(t.report().shows("untrained · A₀"));
}

}  // namespace attnviz::test

namespace attnviz::test {
namespace {

// The drawn map whose computed name contains `fragment`.
const ui::DrawnHeatmap* drawnComputed(const ui::App& app, std::string_view fragment) {
    for (const ui::DrawnHeatmap& d : app.drawnHeatmaps()) {
        if (d.matrix.computed && d.matrix.computed->name.find(fragment) != std::string::npos) return &d;
    }
    return nullptr;
}

}  // namespace

TEST_CASE("through the layers: the lens grid prints each layer's top word and colours the final prediction's probability") {
    LessonApp t(Lesson::Layers);  // from the seeded layer, the view opens attnviz's own decoder
    CHECK(t.app.state().lesson.setupNote.find("Opened attnviz's own decoder") != std::string::npos);
    REQUIRE(t.app.run()->spec.trainedModel() != nullptr);
    const core::TrainedModel& model = *t.app.run()->spec.trainedModel();
    const std::vector<int>& ids = t.app.run()->tokenIds[0];
    const int rows = model.config().layers + 1, length = static_cast<int>(ids.size());
    const ui::DrawnHeatmap* lens = drawnComputed(t.app, "logit lens (raw, no learned translator)");
    REQUIRE(lens != nullptr);
    CHECK(lens->rows == length);  // tokens down, layers across
    CHECK(lens->cols == rows);
    // Every log-probability of the lens (core's, checked against PyTorch in test_analyses), for an independent grid.
    const core::TransformerPass pass = core::runTransformer(model.transformer, {ids}, 0, core::modelAttention(model.transformer));
    const core::Tensor full = core::logitLensLogProbs(model.transformer, pass, 0, length);  // (n + 1) × l × vocab
    const core::Matrix last = full.slice(rows - 1);
    REQUIRE(lens->cellValues.size() == static_cast<std::size_t>(rows * length));  // a word in every cell at this size
    for (int p = 0; p < length; ++p) {
        Eigen::Index finalTop = 0;
        last.row(p).maxCoeff(&finalTop);
        for (int r = 0; r < rows; ++r) {
            const core::Matrix layer = full.slice(r);
            Eigen::Index top = 0;
            layer.row(p).maxCoeff(&top);
            CAPTURE(r);
            CAPTURE(p);
            CHECK(lens->matrix.computed->values(p, r) == doctest::Approx(std::exp(layer(p, finalTop))).epsilon(1e-4));
            CHECK(lens->cellValues[static_cast<std::size_t>(p * rows + r)] == core::clipped(core::choiceLabel(*model.tokenizer, static_cast<int>(top)), 9));
        }
    }
    CHECK(t.report().says("first comes to the top after layer"));
    // The rollout beside the stepped layer's head-averaged attention: both distributions over the keys, one scale.
    const ui::DrawnHeatmap* mean = drawnComputed(t.app, "mean of A over heads");
    const ui::DrawnHeatmap* rollout = drawnComputed(t.app, "rollout through layers 0");
    REQUIRE(mean != nullptr);
    REQUIRE(rollout != nullptr);
    for (const ui::DrawnHeatmap* map : {mean, rollout}) {
        const core::Matrix& values = map->matrix.computed->values;
        CHECK(values.rows() == length);
        for (int q = 0; q < length; ++q) CHECK(values.row(q).sum() == doctest::Approx(1.0).epsilon(1e-5));
    }
    CHECK(t.report().says("leaves out the MLPs"));
}

TEST_CASE("the layers, roles and copy views are computed on the model worker, never in a frame, and a new sentence's view never shows the old one's") {
    for (const auto& [lesson, figure] :
         {std::pair{Lesson::Layers, "logit lens"}, std::pair{Lesson::Roles, "strongest role"}, std::pair{Lesson::Copy, "induction"}}) {
        CAPTURE(figure);
        ImGuiHarness ui;
        ui::App app{ui::AppState{}};
        ui.frame(app);
        ui::openLesson(app.state(), lesson);  // attnviz's own decoder: its run is computed inline
        for (int i = 0; i < 5 && app.run()->spec.trainedModel() == nullptr; ++i) ui.frame(app);  // the frame that draws it
        REQUIRE(app.run()->spec.trainedModel() != nullptr);
        CHECK(app.lessonReport().says("Computing every layer"));  // asked the worker; nothing computed in the frame
        CHECK_FALSE(app.lessonReport().shows(figure));
        CHECK(app.computing());  // the window keeps drawing frames until it arrives
        app.waitForRun();
        ui.frame(app);
        CHECK(app.lessonReport().shows(figure));
        CHECK(app.analysesComputed() == 1);
        // Another sentence: its run is inline, its analysis is not; the old sentence's numbers are not shown as its.
        app.state().spec.sentences = {"a dog ran in the park and the dog sat down"};
        ui.frames(app, 2);  // the first asks for its run, the second draws it
        CHECK(app.run()->spec.sentences.at(0) == "a dog ran in the park and the dog sat down");
        CHECK(app.lessonReport().says("Computing every layer"));
        CHECK_FALSE(app.lessonReport().shows(figure));
        app.waitForRun();
        ui.frame(app);
        CHECK(app.lessonReport().shows(figure));
        CHECK(app.analysesComputed() == 2);
        ui.frames(app, 3);
        CHECK(app.analysesComputed() == 2);  // asked once per run
    }
}

TEST_CASE("head roles: each head's strongest head_detector role printed in its cell, coloured by its score, the best named per role") {
    LessonApp t(Lesson::Roles);  // attnviz's own decoder, opened for it
    const core::TrainedModel& model = *t.app.run()->spec.trainedModel();
    const std::vector<int>& ids = t.app.run()->tokenIds[0];
    const int layers = model.config().layers, heads = model.config().heads, length = static_cast<int>(ids.size());
    const ui::DrawnHeatmap* grid = drawnComputed(t.app, "strongest role (rows: layers");
    REQUIRE(grid != nullptr);
    CHECK(grid->rows == layers);
    CHECK(grid->cols == heads);
    REQUIRE(grid->cellValues.size() == static_cast<std::size_t>(layers * heads));
    const core::TransformerPass pass = core::runTransformer(model.transformer, {ids}, 0, core::modelAttention(model.transformer));
    const core::HeadRoles roles = core::headRolesOnRepeats(model.transformer, *model.tokenizer, pass.attentionWeights, 0, ids);
    const std::map<core::HeadRole, std::string> words{{core::HeadRole::PreviousToken, "prev"}, {core::HeadRole::DuplicateToken, "dup"},
                                                      {core::HeadRole::Induction, "induct"}, {core::HeadRole::FirstToken, "sink"},
                                                      {core::HeadRole::Self, "self"}};
    for (int layer = 0; layer < layers; ++layer) {
        for (int head = 0; head < heads; ++head) {
            CAPTURE(layer);
            CAPTURE(head);
            // The previous-token score by hand: the share of the map's weight on the token before each query.
            const core::Matrix a = pass.attentionWeights.slice(layer * heads + head);  // 1 sentence: l × l
            double onPrevious = 0.0;
            for (int q = 1; q < length; ++q) onPrevious += a(q, q - 1);
            CHECK(roles.scores[0](layer, head) == doctest::Approx(onPrevious / a.sum()).epsilon(1e-5));
            float best = -1.0f;
            std::string bestWord;
            for (const auto& [role, word] : words) {
                const float score = roles.scores[static_cast<std::size_t>(role)](layer, head);
                if (score > best) best = score, bestWord = word;
            }
            CHECK(grid->matrix.computed->values(layer, head) == doctest::Approx(best));
            CHECK(grid->cellValues[static_cast<std::size_t>(layer * heads + head)] == bestWord);
        }
    }
    CHECK(t.report().says("previous-token (prev"));
    CHECK(t.report().says("induction (induct"));
    const ui::DrawnHeatmap* induction = drawnComputed(t.app, "best induction head");
    REQUIRE(induction != nullptr);
    CHECK(induction->rows == static_cast<int>(roles.repeated.size()));
}

TEST_CASE("presenting at 1024x768 and 1280x800, the lens and roles grids print every word at full size and keep token labels at 14 px") {
    for (const ImVec2 size : {ImVec2{1024.0f, 768.0f}, ImVec2{1280.0f, 800.0f}}) {
        for (const auto& [lesson, grid] : {std::pair{Lesson::Layers, "logit lens"}, std::pair{Lesson::Roles, "strongest role"}}) {
            CAPTURE(size.x);
            CAPTURE(grid);
            ImGuiHarness ui(size);
            app::LookKeeper keeper(ImGui::GetStyle());
            ui::AppState start;
            start.presenting = true;
            start.spec.sentences = {"The animal didn't cross the street because it was too tired and the road was wide"};
            ui::App app(std::move(start));
            const auto settleLooking = [&] {  // the window's loop: the look follows presenting
                for (int i = 0; i < 3; ++i) {
                    if (keeper.follow(app::lookInputsOf(app.state(), size.y, 1.0f))) ui.setLook(keeper.look().scale, keeper.look().style);
                    ui.frames(app, 2);
                    app.waitForRun();
                }
            };
            settleLooking();
            ui::openLesson(app.state(), lesson);  // opens attnviz's own decoder: 18 tokens, 4 layers × 8 heads
            settleLooking();
            const ui::DrawnHeatmap* words = drawnComputed(app, grid);
            REQUIRE(words != nullptr);
            CHECK(words->cellValues.size() == static_cast<std::size_t>(words->rows * words->cols));
            // Every word at the lecture's 14 px, or at the body type the cells' words never exceed when that is smaller
            // (the harness's ImGui default font is 13 px): no cell is too narrow or short for its word at that size.
            CHECK(words->valuePx >= std::min(14.0f, ImGui::GetFontSize()));
            CHECK(app.lessonReport().maps.front().smallestTokenCell() >= 14.0f);  // token rows keep their labels
        }
    }
}

TEST_CASE("through the layers on the seeded layer: no layers to read, one click opens attnviz's own decoder") {
    LessonApp t(Lesson::Layers);
    ui::useRandomWeights(t.app.state());  // the view stays open on the model the user chose
    t.settle();
    CHECK(t.app.state().lesson.open == Lesson::Layers);
    CHECK(t.report().says("reads a trained model's layers"));  // and does not reopen the decoder the user just left
    REQUIRE_FALSE(t.report().buttons.empty());
    CHECK(t.report().buttons.front().label.find("decoder") != std::string::npos);
}

}  // namespace attnviz::test
