// test_app.cpp — the app driven like a user would, without a window: keys step through the stages, heads are
// focused by number and by clicking a thumbnail, the sentence is typed into, cells are hovered, and the
// assertions look at AppState, at the run on screen and at what the inspector reports.
#include "core/derived_maps.h"
#include "imgui_harness.h"
#include "io/model_folder.h"
#include "io/model_library.h"
#include "ui/lessons/lesson_catalog.h"
#include "ui/session/session_actions.h"
#include "ui/views/matrix_info.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

namespace attnviz::test {
namespace {

using core::StageId;
using core::TensorId;

ui::AppState defaultState() {
    ui::AppState state;
    state.spec = core::ModelSpec{};  // the default sentence, d_model 64, 8 heads
    return state;
}

bool contains(const std::vector<std::string>& notes, const std::string& text) {
    return std::any_of(notes.begin(), notes.end(), [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("the arrow, Home and End keys step through every stage, and each stage draws its matrices") {
    ImGuiHarness ui;
    ui::App app(defaultState());
    ui.frame(app);
    REQUIRE(app.run() != nullptr);
    CHECK(app.state().stage == StageId::Tokens);
    for (int expected = 1; expected < core::kStageCount; ++expected) {
        ui.pressKey(app, kKeyRight);
        REQUIRE(static_cast<int>(app.state().stage) == expected);
        for (TensorId shown : core::stage(app.state().stage).shows) {
            if (shown == TensorId::Mask) continue;  // no mask in the default run: the stage offers one instead
            if (shown == TensorId::WK || shown == TensorId::K || shown == TensorId::WV || shown == TensorId::V) continue;  // below
            if (expected == core::kStageCount - 1 && shown == TensorId::X) continue;  // O beside X: tall windows only, below
            const bool perHead = ui::isPerHead(shown);
            CHECK_MESSAGE(drawnCount(app, traceRef(shown, perHead ? app.state().head : 0)) > 0,
                          "stage ", expected, " does not draw ", core::tensorInfo(shown).key);
        }
    }
    ui.pressKey(app, kKeyRight);
    CHECK(app.state().stage == StageId::Output);  // stays on the last stage
    app.state().stage = StageId::Project;
    for (const auto& [projection, weights, result] : {std::tuple{ui::Projection::Key, TensorId::WK, TensorId::K},
                                                      std::tuple{ui::Projection::Value, TensorId::WV, TensorId::V}}) {
        app.state().projection = projection;
        ui.frame(app);
        CHECK(drawnCount(app, traceRef(weights)) == 1);
        CHECK(drawnCount(app, traceRef(result)) == 1);
        CHECK(drawnCount(app, traceRef(TensorId::X)) == 1);
    }
    ui.pressKey(app, kKeyHome);
    CHECK(app.state().stage == StageId::Tokens);
    ui.pressKey(app, kKeyLeft);
    CHECK(app.state().stage == StageId::Tokens);
    ui.pressKey(app, kKeyEnd);
    CHECK(app.state().stage == StageId::Output);
    ui.pressKey(app, kKeyLeft);
    CHECK(app.state().stage == StageId::Concat);
}

TEST_CASE("number keys and thumbnails focus a head — A shows all heads") {
    ImGuiHarness ui;
    ui::AppState state = defaultState();
    state.stage = StageId::Softmax;
    ui::App app(state);
    ui.frame(app);
    ui.pressKey(app, '3');
    CHECK(app.state().head == 2);
    CHECK(drawnCount(app, traceRef(TensorId::AttentionWeights, 2)) == 2);  // the centre and its thumbnail

    ui.pressKey(app, 'A');
    CHECK(app.state().allHeads);
    for (int head = 0; head < 8; ++head) CHECK(drawnCount(app, traceRef(TensorId::AttentionWeights, head)) == 2);

    // Clicking head 5's thumbnail (drawn after the centre) focuses it and leaves all-heads mode, pinning nothing.
    const auto thumbnail = cellCentre(app, traceRef(TensorId::AttentionWeights, 5), 0, 0, 1);
    REQUIRE(thumbnail);
    ui.click(app, *thumbnail);
    CHECK(app.state().head == 5);
    CHECK_FALSE(app.state().allHeads);
    CHECK_FALSE(app.state().pinned);
}

TEST_CASE("changing the head count recomputes once and keeps the focused head valid") {
    ImGuiHarness ui;
    ui::AppState state = defaultState();
    state.stage = StageId::Scores;
    state.head = 7;
    ui::App app(state);
    ui.frame(app);
    const std::uint64_t before = app.generation();
    app.state().spec.attention.heads = 4;  // what the heads combo does
    ui.frames(app, 3);
    REQUIRE(app.run() != nullptr);
    CHECK(app.run()->trace.dims.heads == 4);
    CHECK(app.run()->trace.dims.dK == 16);
    CHECK(app.generation() == before + 1);
    CHECK(app.state().head == 3);
    CHECK(drawnCount(app, traceRef(TensorId::Scores, 3)) > 0);
}

TEST_CASE("a head the run on screen does not have yet is drawn as its last head, and comes back with the run that has it") {
    // Closing a question view restores the user's head (7 of 8) while the question's 2-head run is still on screen.
    ImGuiHarness ui;
    ui::AppState state = defaultState();
    state.stage = StageId::Softmax;  // the right panel's token lines draw the focused head's weights
    state.spec.attention.heads = 2;
    ui::App app(state);
    ui.frame(app);
    app.waitForRun();
    REQUIRE(app.run()->trace.dims.heads == 2);
    app.state().head = 7;
    CHECK_NOTHROW(ui.frame(app));  // threw "Tensor::slice: index out of range"
    CHECK(app.state().head == 1);
    app.state().spec.attention.heads = 8;
    ui.frame(app);
    app.waitForRun();
    ui.frame(app);
    REQUIRE(app.run()->trace.dims.heads == 8);
    CHECK(app.state().head == 7);
    // With the inputs' own run on screen, a head it lacks is not awaited: fewer heads, then more, keep the clamp.
    app.state().spec.attention.heads = 4;
    ui.frame(app);
    app.waitForRun();
    CHECK(app.state().head == 3);
    app.state().spec.attention.heads = 8;
    ui.frame(app);
    app.waitForRun();
    CHECK(app.state().head == 3);
}

TEST_CASE("an invalid head count keeps the previous run and says why") {
    ImGuiHarness ui;
    ui::App app(defaultState());
    ui.frame(app);
    app.state().spec.attention.heads = 7;  // does not divide 64
    ui.frames(app, 2);
    REQUIRE(app.run() != nullptr);
    CHECK(app.run()->trace.dims.heads == 8);
    CHECK_FALSE(app.error().empty());
}

TEST_CASE("typing into the sentence recomputes on every keystroke") {
    ImGuiHarness ui;
    ui::AppState state = defaultState();
    state.spec.sentences = {"the cat"};
    ui::App app(state);
    ui.frame(app);
    ui.pressKey(app, 'L', true);  // Ctrl+L: keyboard to the sentence field
    ui.frame(app);
    ui.pressKey(app, kKeyEnd);    // cursor to the end (and not the last stage: the field has the keyboard)
    CHECK(app.state().stage == StageId::Tokens);
    std::uint64_t generation = app.generation();
    for (const char c : std::string(" sat")) {
        ui.type(app, static_cast<unsigned char>(c));
        ui.frame(app);
        CHECK(app.generation() == generation + 1);
        generation = app.generation();
    }
    CHECK(app.state().spec.sentences.front() == "the cat sat");
    REQUIRE(app.run() != nullptr);
    CHECK(app.run()->tokens.front() == std::vector<std::string>{"the", "cat", "sat"});

    ui.pressKey(app, kKeyBackspace);
    CHECK(app.state().spec.sentences.front() == "the cat sa");
    CHECK(app.run()->tokens.front().back() == "sa");
}

TEST_CASE("Greek and Cyrillic typed into the sentence become tokens") {
    ImGuiHarness ui;
    ui::AppState state = defaultState();
    state.spec.sentences = {"x"};
    ui::App app(state);
    ui.frame(app);
    ui.pressKey(app, 'L', true);
    ui.frame(app);
    ui.pressKey(app, kKeyEnd);
    for (const unsigned int c : {0x20u, 0x3B1u, 0x3B2u, 0x20u, 0x43Fu}) ui.type(app, c);  // " αβ п"
    ui.frame(app);
    REQUIRE(app.run() != nullptr);
    CHECK(app.run()->tokens.front() == std::vector<std::string>{"x", "αβ", "п"});
}

TEST_CASE("hovering a score cell outlines its query row and key row and lists the dot product") {
    ImGuiHarness ui;
    ui::AppState state = defaultState();
    state.stage = StageId::Scores;
    ui::App app(state);
    ui.frame(app);
    const auto at = cellCentre(app, traceRef(TensorId::Scores, 0), 1, 2);
    REQUIRE(at);
    ui.hover(app, *at);
    REQUIRE(app.explanation());
    const ui::Explanation& e = *app.explanation();
    CHECK(e.cell == ui::CellRef{traceRef(TensorId::Scores, 0), 1, 2});
    CHECK(e.termCount == 8);
    CHECK(e.terms.size() == static_cast<std::size_t>(ui::kListedTerms));
    CHECK(std::fabs(e.terms[0].product) >= std::fabs(e.terms[1].product));
    CHECK(e.termSum == doctest::Approx(e.value).epsilon(1e-4));
    CHECK(e.where.find("animal") != std::string::npos);  // row 1 of the default sentence
    const auto outlines = [&](TensorId t, ui::Highlight::Kind kind, int index) {
        return std::any_of(e.highlights.begin(), e.highlights.end(), [&](const ui::Highlight& h) {
            return h.matrix == traceRef(t, 0) && h.kind == kind && (kind == ui::Highlight::Kind::Row ? h.row : h.col) == index;
        });
    };
    CHECK(outlines(TensorId::QHeads, ui::Highlight::Kind::Row, 1));
    CHECK(outlines(TensorId::KHeads, ui::Highlight::Kind::Row, 2));
}

TEST_CASE("K is drawn transposed on the scores stage, and hovering reports K's own cell") {
    ImGuiHarness ui;
    ui::AppState state = defaultState();
    state.stage = StageId::Scores;
    ui::App app(state);
    ui.frame(app);
    const auto drawn = std::find_if(app.drawnHeatmaps().begin(), app.drawnHeatmaps().end(),
                                    [](const ui::DrawnHeatmap& d) { return d.matrix == traceRef(TensorId::KHeads, 0); });
    REQUIRE(drawn != app.drawnHeatmaps().end());
    CHECK(drawn->transposed);
    CHECK(drawn->rows == 8);   // d_k
    CHECK(drawn->cols == 13);  // l
    const auto at = cellCentre(app, traceRef(TensorId::KHeads, 0), 3, 5);  // display row 3 (dim), column 5 (token)
    REQUIRE(at);
    ui.hover(app, *at);
    REQUIRE(app.explanation());
    CHECK(app.explanation()->cell == ui::CellRef{traceRef(TensorId::KHeads, 0), 5, 3});
}

TEST_CASE("a softmax cell shows its row of scores, their max and sum, and the row sums to 1") {
    ImGuiHarness ui;
    ui::AppState state = defaultState();
    state.stage = StageId::Softmax;
    ui::App app(state);
    ui.frame(app);
    const auto at = cellCentre(app, traceRef(TensorId::AttentionWeights, 0), 9, 1);  // "it" → "animal"
    REQUIRE(at);
    ui.hover(app, *at);
    REQUIRE(app.explanation());
    REQUIRE(app.explanation()->softmax);
    const ui::SoftmaxDetail& s = *app.explanation()->softmax;
    CHECK(s.scores.size() == 13);
    CHECK(s.column == 1);
    CHECK(s.max == *std::max_element(s.scores.begin(), s.scores.end()));
    CHECK(s.rowSum == doctest::Approx(1.0));
    CHECK(app.explanation()->value == doctest::Approx(std::exp(s.scores[1] - s.max) / s.sumExp).epsilon(1e-4));
}

TEST_CASE("a masked cell says which mask removed it and why") {
    ImGuiHarness ui;
    ui::AppState state = defaultState();
    state.spec.attention.mask = core::MaskKind::Causal;
    state.stage = StageId::Mask;
    ui::App app(state);
    ui.frame(app);
    const auto at = cellCentre(app, traceRef(TensorId::MaskedScores, 0), 0, 5);  // query 0 may not see key 5
    REQUIRE(at);
    ui.hover(app, *at);
    REQUIRE(app.explanation());
    CHECK(app.explanation()->masked);
    CHECK(app.explanation()->value == doctest::Approx(-1e9));
    CHECK(contains(app.explanation()->notes, "Causal mask"));

    const auto kept = cellCentre(app, traceRef(TensorId::MaskedScores, 0), 5, 0);
    REQUIRE(kept);
    ui.hover(app, *kept);
    REQUIRE(app.explanation());
    CHECK_FALSE(app.explanation()->masked);
}

TEST_CASE("a run too large to keep its score maps shows, colours and explains them all the same (derived on demand)") {
    ImGuiHarness ui;
    ui::AppState state = defaultState();
    state.spec.attention.mask = core::MaskKind::Causal;
    state.stage = StageId::Scale;
    const core::ModelRun stored = core::runModel(state.spec);
    state.spec.attention.storeMapsUpTo = 0;  // as at (2048, 1024, 16)
    ui::App app(state);
    ui.frame(app);
    REQUIRE(app.run()->trace.isDerived(TensorId::ScaledScores));
    CHECK(drawnCount(app, traceRef(TensorId::Scores, 0)) > 0);
    const auto scaled = cellCentre(app, traceRef(TensorId::ScaledScores, 0), 3, 1);
    REQUIRE(scaled);
    ui.hover(app, *scaled);
    REQUIRE(app.explanation());
    CHECK(app.explanation()->value == core::mapSlice(stored.trace, TensorId::ScaledScores, 0, 0).view()(3, 1));

    app.state().stage = StageId::Mask;
    app.state().allHeads = true;
    ui.frame(app);
    for (int head = 0; head < 8; ++head) CHECK(drawnCount(app, traceRef(TensorId::MaskedScores, head)) > 0);
    app.state().allHeads = false;
    ui.frame(app);
    const auto masked = cellCentre(app, traceRef(TensorId::MaskedScores, 0), 0, 5);
    REQUIRE(masked);
    ui.hover(app, *masked);
    REQUIRE(app.explanation());
    CHECK(app.explanation()->masked);
    CHECK(app.explanation()->value == -1e9f);
}

TEST_CASE("clicking a cell pins it in the inspector until Escape") {
    ImGuiHarness ui;
    ui::AppState state = defaultState();
    state.stage = StageId::Output;
    ui::App app(state);
    ui.frame(app);
    const auto at = cellCentre(app, traceRef(TensorId::Output), 2, 3);
    REQUIRE(at);
    ui.click(app, *at);
    const ui::CellRef expected{traceRef(TensorId::Output), 2, 3};
    CHECK(app.state().pinned == expected);
    ui.hover(app, {1.0f, 1.0f});  // the mouse leaves the matrices
    REQUIRE(app.explanation());
    CHECK(app.explanation()->cell == expected);
    CHECK(app.explanation()->termCount == 64);
    ui.pressKey(app, kKeyEscape);
    CHECK_FALSE(app.state().pinned);
    CHECK_FALSE(app.explanation());
}

TEST_CASE("textures are uploaded once per run, and again only after the run changes") {
    ImGuiHarness ui;
    ui::AppState state = defaultState();
    state.stage = StageId::Project;
    ui::App app(state);
    ui.frames(app, 2);
    const std::uint64_t uploads = ui.renderer().stats().uploads;
    CHECK(uploads > 0);
    ui.frames(app, 5);
    app.state().sequential = colormap::Colormap::Magma;  // colormap and range are draw-time only
    ui.frames(app, 2);
    CHECK(ui.renderer().stats().uploads == uploads);
    app.state().spec.seeded()->seed = 7;
    ui.frames(app, 2);
    CHECK(ui.renderer().stats().uploads == 2 * uploads);
}

TEST_CASE("big sizes compute in the background while the previous run stays on screen") {
    ImGuiHarness ui;
    ui::App app(defaultState());
    ui.frame(app);
    app.state().spec.attention.dModel = 768;  // the GPT-2 small preset
    app.state().spec.attention.heads = 12;
    ui.frame(app);
    REQUIRE(app.run() != nullptr);
    CHECK(app.run()->trace.dims.dModel == 64);  // not blocked: the old run is still drawn
    app.waitForRun();
    ui.frame(app);
    CHECK_FALSE(app.computing());
    CHECK(app.run()->trace.dims.dModel == 768);
    CHECK(app.run()->trace.dims.heads == 12);
}

TEST_CASE("autoplay moves to the next stage after its time and stops at the end") {
    ImGuiHarness ui;
    ui::AppState state = defaultState();
    state.stage = StageId::Concat;
    state.autoplay = true;
    state.secondsPerStage = 1.0f;
    ui::App app(state);
    ImGui::GetIO().DeltaTime = 0.6f;
    ui.frame(app);
    CHECK(app.state().stage == StageId::Concat);
    ui.frame(app);
    CHECK(app.state().stage == StageId::Output);
    ui.frames(app, 2);
    CHECK(app.state().stage == StageId::Output);
    CHECK_FALSE(app.state().autoplay);
}

TEST_CASE("every stage fits the window at the tiny and GPT-2 sizes, in a small window and on a HiDPI screen") {
    for (const auto& [dModel, heads, size, scale] : {std::tuple{8, 2, ImVec2(1600, 1000), 1.0f}, std::tuple{768, 12, ImVec2(1600, 1000), 1.0f},
                                                     std::tuple{64, 8, ImVec2(1024, 640), 1.0f}, std::tuple{64, 8, ImVec2(3200, 2000), 2.0f}}) {
        ImGuiHarness ui(size, scale);
        ui::AppState state = defaultState();
        state.spec.attention.dModel = dModel;
        state.spec.attention.heads = heads;
        state.spec.attention.mask = core::MaskKind::Causal;
        ui::App app(state);
        app.waitForRun();
        for (int stage = 0; stage < core::kStageCount; ++stage) {
            app.state().stage = static_cast<StageId>(stage);
            ui.frame(app);
            for (const ui::DrawnHeatmap& d : app.drawnHeatmaps()) {
                CHECK_MESSAGE(d.max.x <= size.x, "stage ", stage, " draws past the window's right edge");
                CHECK_MESSAGE(d.max.y <= size.y, "stage ", stage, " draws past the window's bottom at d_model ", dModel, ", ", size.x, " × ", size.y);
                CHECK(d.max.x >= d.min.x);
            }
        }
    }
}

}  // namespace attnviz::test

namespace attnviz::test {

TEST_CASE("a presenter's clicker: PageDown and PageUp step the stages like the arrow keys") {
    ImGuiHarness ui;
    ui::App app(defaultState());
    ui.frame(app);
    ui.pressKey(app, kKeyPageDown);
    ui.pressKey(app, kKeyPageDown);
    CHECK(app.state().stage == StageId::Project);
    ui.pressKey(app, kKeyPageUp);
    CHECK(app.state().stage == StageId::Embed);
}

}  // namespace attnviz::test

namespace attnviz::test {

TEST_CASE("output stage: W^O keeps square cells, and O is shown beside X once the window is tall enough") {
    for (const float height : {1000.0f, 1400.0f}) {
        ImGuiHarness ui({1600.0f, height});
        ui::AppState state = defaultState();
        state.stage = StageId::Output;
        ui::App app(state);
        ui.frames(app, 2);
        const auto& drawn = app.drawnHeatmaps();
        const auto wo = std::find_if(drawn.begin(), drawn.end(), [](const ui::DrawnHeatmap& d) { return d.matrix.tensor == TensorId::WO; });
        REQUIRE(wo != drawn.end());
        const float cellWidth = (wo->max.x - wo->min.x) / static_cast<float>(wo->cols);
        const float cellHeight = (wo->max.y - wo->min.y) / static_cast<float>(wo->rows);
        CHECK(cellWidth == doctest::Approx(cellHeight).epsilon(0.01));  // 64 × 64 drawn as a square, not a strip
        CHECK(drawnCount(app, traceRef(TensorId::X)) == (height >= 1400.0f ? 1 : 0));
    }
}

}  // namespace attnviz::test

namespace attnviz::test {

TEST_CASE("all heads: every head's map is drawn the same size") {
    ImGuiHarness ui;
    ui::AppState state = defaultState();
    state.stage = StageId::Softmax;
    state.allHeads = true;
    ui::App app(state);
    ui.frames(app, 2);
    std::vector<ImVec2> sizes;
    for (const ui::DrawnHeatmap& d : app.drawnHeatmaps()) {
        if (d.matrix.tensor == TensorId::AttentionWeights && d.max.x - d.min.x > 100.0f) sizes.push_back({d.max.x - d.min.x, d.max.y - d.min.y});
    }
    REQUIRE(sizes.size() == static_cast<std::size_t>(app.run()->trace.dims.heads));  // the thumbnails are smaller
    for (const ImVec2& size : sizes) {
        CHECK(size.x == doctest::Approx(sizes.front().x));
        CHECK(size.y == doctest::Approx(sizes.front().y));
    }
}

TEST_CASE("lecture hall keys: Ctrl+= and Ctrl+- step the zoom, Ctrl+0 resets it — F5 presents, B blanks, Esc leaves") {
    constexpr int kKeyEqual = 61, kKeyMinus = 45, kKeyZero = 48;
    ImGuiHarness ui;
    ui::App app(defaultState());
    ui.frame(app);
    ui.pressKey(app, kKeyEqual, true);
    CHECK(app.state().zoom == doctest::Approx(1.15f));
    ui.pressKey(app, kKeyEqual, true);
    CHECK(app.state().zoom == doctest::Approx(1.3f));
    ui.pressKey(app, kKeyMinus, true);
    CHECK(app.state().zoom == doctest::Approx(1.15f));
    ui.pressKey(app, kKeyZero, true);
    CHECK(app.state().zoom == 1.0f);
    for (int i = 0; i < 20; ++i) ui.pressKey(app, kKeyMinus, true);
    CHECK(app.state().zoom == doctest::Approx(0.75f));  // stops at the smallest step

    ui.pressKey(app, kKeyF5);
    CHECK(app.state().presenting);
    CHECK(ui::effectiveZoom(app.state(), 1080.0f) > ui::effectiveZoom(app.state(), 800.0f));  // larger type on larger screens
    CHECK(ui::effectiveZoom(app.state(), 800.0f) > app.state().zoom);
    CHECK(ui::effectiveZoom(app.state(), 768.0f) == app.state().zoom);
    ui::AppState lesson = app.state();
    lesson.lesson.open = ui::Lesson::Scaling;  // a question view's page is fuller: a smaller boost
    CHECK(ui::effectiveZoom(lesson, 800.0f) == lesson.zoom);
    CHECK(ui::effectiveZoom(lesson, 1080.0f) < ui::effectiveZoom(app.state(), 1080.0f));
    const StageId before = app.state().stage;
    ui.pressKey(app, kKeySpace);  // presenting: Space is "next", not autoplay
    CHECK(static_cast<int>(app.state().stage) == static_cast<int>(before) + 1);
    CHECK_FALSE(app.state().autoplay);
    ui.pressKey(app, 'B');
    CHECK(app.state().blanked);
    ui.pressKey(app, kKeyPageDown);  // any key brings the picture back, and only that
    CHECK_FALSE(app.state().blanked);
    CHECK(static_cast<int>(app.state().stage) == static_cast<int>(before) + 1);
    ui.pressKey(app, kKeyEscape);
    CHECK_FALSE(app.state().presenting);
}

TEST_CASE("Esc closes the question view first, and leaves presenting only when no view is open") {
    ImGuiHarness ui;
    ui::App app(defaultState());
    ui.frame(app);
    ui.pressKey(app, kKeyF5);
    ui::openLesson(app.state(), ui::Lesson::Scaling);
    ui.frame(app);
    ui.pressKey(app, kKeyEscape);
    CHECK(app.state().lesson.open == ui::Lesson::None);
    CHECK(app.state().presenting);
    ui.pressKey(app, kKeyEscape);
    CHECK_FALSE(app.state().presenting);
    ui::openLesson(app.state(), ui::Lesson::Lines);  // windowed too
    ui.frame(app);
    ui.pressKey(app, kKeyEscape);
    CHECK(app.state().lesson.open == ui::Lesson::None);
}

}  // namespace attnviz::test

namespace attnviz::test {

// At 1280 × 800, a 20-token sentence keeps every token label on every stage's maps: each token row (and token
// column) is at least as tall (wide) as the smallest labelled cell, 0.85 × the 9-pixel label floor. (At this
// width the side panels, with the heads' unlabelled thumbnails, are folded away.)
TEST_CASE("lecture hall: every token label of a 20-token sentence fits on every stage at 1280 x 800, weights stay square") {
    constexpr float kSmallestLabelledCell = 0.85f * 9.0f;
    for (const auto& [dModel, heads] : {std::pair{64, 8}, std::pair{768, 12}}) {  // the default and GPT-2's sizes
        CAPTURE(dModel);
        ImGuiHarness ui({1280.0f, 800.0f});
        ui::AppState state = defaultState();
        state.spec.sentences = {"the quick brown fox jumps over the lazy dog while the old cat sleeps in the warm sun all day"};
        state.spec.attention.dModel = dModel;
        state.spec.attention.heads = heads;
        ui::App app(state);
        app.waitForRun();
        REQUIRE(app.run()->trace.keyLength == 20);
        for (int stage = 0; stage < core::kStageCount; ++stage) {
            app.state().stage = static_cast<StageId>(stage);
            ui.frames(app, 2);
            for (const ui::DrawnHeatmap& d : app.drawnHeatmaps()) {
                const float width = d.max.x - d.min.x, height = d.max.y - d.min.y;
                const ui::MatrixInfo info = ui::matrixInfo(*app.run(), d.matrix, 0);
                const ui::Axis rows = d.transposed ? info.colAxis : info.rowAxis, cols = d.transposed ? info.rowAxis : info.colAxis;
                const auto tokens = [](ui::Axis axis) { return axis == ui::Axis::QueryTokens || axis == ui::Axis::KeyTokens; };
                const float cellWidth = width / static_cast<float>(d.cols), cellHeight = height / static_cast<float>(d.rows);
                if (tokens(rows)) CHECK_MESSAGE(cellHeight >= kSmallestLabelledCell, "stage ", stage, ": ", info.name, " rows are ", cellHeight, " px");
                if (tokens(cols)) CHECK_MESSAGE(cellWidth >= kSmallestLabelledCell, "stage ", stage, ": ", info.name, " columns are ", cellWidth, " px");
                if (rows == ui::Axis::Features && cols == ui::Axis::Features) {
                    CHECK_MESSAGE(cellWidth == doctest::Approx(cellHeight).epsilon(0.02), "stage ", stage, ": ", info.name, " is not square");
                }
            }
        }
    }
}

}  // namespace attnviz::test

namespace attnviz::test {

// The stage text's panel is sized before anything is drawn, from stageTextHeight(); were the estimate off, the
// panel would scroll (too small) or leave a gap (too large) on every stage it is off for.
TEST_CASE("the stage text panel is sized to its text on the first frame, for every stage, size and model") {
    for (const auto& [size, bundled] : {std::pair{ImVec2(1024, 768), false}, std::pair{ImVec2(1280, 800), true}, std::pair{ImVec2(1920, 1080), true}}) {
        CAPTURE(size.x);
        ImGuiHarness ui(size);
        ui::AppState state = defaultState();
        if (bundled) ui::useTrainedModel(io::loadBundledModel(), state);
        ui::App app(state);
        app.waitForRun();
        ui.frames(app, 2);
        for (int stage = 0; stage < core::kStageCount; ++stage) {
            app.state().stage = static_cast<StageId>(stage);
            ui.frame(app);
            CHECK_MESSAGE(app.stageTextFit().x == doctest::Approx(app.stageTextFit().y).epsilon(0.001), "stage ", stage);
        }
    }
}

}  // namespace attnviz::test
