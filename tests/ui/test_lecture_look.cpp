// test_lecture_look.cpp — zoom and presenting are inputs of the look, not accumulated state (app/gui_style.h):
// every short sequence and many random longer ones of F5, Esc, Ctrl+=, Ctrl+−, Ctrl+0 and window resizes end in
// the style, scale and text size a fresh start in the same state has; and, with App drawn, the maps' area after
// toggles equals a fresh start's; zoomed in, the maps grow until they fill the stage's box, then each stays wholly
// inside it (a whole map always in view, none cut by the box's edge) or, from zoom +3 and at 1024 × 768, no taller
// than the stage (each map whole when scrolled to), and the timeline keeps its stage titles whole; presenting at
// 1080p, the attention weights of up to 16 tokens print at 18 px or more. Every stage drawn as a scene keeps
// its token labels at the floor, a grouped-query model's split and RoPE step included, and the bundled BERT's
// at 24 and 26 tokens presenting (beyond 24 at the tapered floor, which keeps the softmax stage's S and A side by
// side at 26 and 27 tokens at 1024 × 768); no stage draws past its panel's right edge at any zoom. Stage 0's token boxes grow to use the stage presenting, keep 62 tokens on
// screen and never shrink when the zoom goes up.
#include "app/gui_style.h"
#include "core/sentence_words.h"
#include "imgui_harness.h"
#include "io/model_folder.h"
#include "io/model_library.h"
#include "ui/panels/panels.h"
#include "scene/axis_labels.h"
#include "scene/layout.h"
#include "ui/session/session_actions.h"
#include "ui/views/matrix_info.h"

#include <doctest/doctest.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cstring>
#include <filesystem>
#include <optional>
#include <random>
#include <sstream>
#include <variant>
#include <vector>

namespace attnviz::test {
namespace {

struct Size {
    int width = 0, height = 0;
};
constexpr Size kSizes[] = {{1024, 768}, {1280, 800}, {1920, 1080}};
constexpr Size kStartSize{1280, 800};

// One input: a key of the look, or the window resized to one of kSizes.
using Step = std::variant<ui::ViewKey, Size>;

std::vector<Step> allSteps() {
    std::vector<Step> steps{ui::ViewKey::Present, ui::ViewKey::Leave, ui::ViewKey::ZoomIn, ui::ViewKey::ZoomOut, ui::ViewKey::ActualSize};
    for (Size size : kSizes) steps.emplace_back(size);
    return steps;
}

// The view's state and window after `sequence` from a fresh start at kStartSize, with the keeper following every
// step, as the window's loop follows every frame.
struct Reached {
    ui::AppState state;
    Size size = kStartSize;
};

Reached play(const std::vector<Step>& sequence, app::LookKeeper& keeper) {
    Reached reached;
    keeper.follow(app::lookInputsOf(reached.state, static_cast<float>(reached.size.height), 1.0f));
    for (const Step& step : sequence) {
        if (const auto* key = std::get_if<ui::ViewKey>(&step)) ui::applyViewKey(reached.state, *key);
        else reached.size = std::get<Size>(step);
        keeper.follow(app::lookInputsOf(reached.state, static_cast<float>(reached.size.height), 1.0f));
    }
    return reached;
}

// Every size of a style (colours are set, never scaled).
std::vector<float> sizesOf(const ImGuiStyle& s) {
    return {s.WindowPadding.x, s.WindowPadding.y, s.WindowRounding, s.WindowMinSize.x, s.WindowMinSize.y, s.ChildRounding,
            s.PopupRounding, s.FramePadding.x, s.FramePadding.y, s.FrameRounding, s.ItemSpacing.x, s.ItemSpacing.y,
            s.ItemInnerSpacing.x, s.ItemInnerSpacing.y, s.CellPadding.x, s.CellPadding.y, s.TouchExtraPadding.x,
            s.IndentSpacing, s.ColumnsMinSpacing, s.ScrollbarSize, s.ScrollbarRounding, s.GrabMinSize, s.GrabRounding,
            s.LogSliderDeadzone, s.TabRounding, s.TabMinWidthForCloseButton, s.DisplayWindowPadding.x,
            s.DisplaySafeAreaPadding.x, s.MouseCursorScale, s.FrameBorderSize};
}

// The sequence's end equals a fresh start in its state: scale, text size and every style size.
void checkEndsFresh(const std::vector<Step>& sequence) {
    ImGuiStyle played, fresh;
    app::LookKeeper playedKeeper(played), freshKeeper(fresh);
    const Reached reached = play(sequence, playedKeeper);
    freshKeeper.follow(app::lookInputsOf(reached.state, static_cast<float>(reached.size.height), 1.0f));
    CHECK(playedKeeper.look().scale == freshKeeper.look().scale);
    CHECK(playedKeeper.look().fontPixels == freshKeeper.look().fontPixels);
    CHECK(sizesOf(played) == sizesOf(fresh));
}

// How a stage's maps sit in the box the stage shows (its child window's clip rectangle) this frame.
struct StageFit {
    float area = 0.0f;   // the maps' cells, px²
    int whole = 0;       // maps wholly inside the box
    int cut = 0;         // maps partly inside it: cut by its edge, or scrolled partly off
    int unreachable = 0;  // maps no scrolling brings wholly into view: cut by its top, left or right edge, or taller than it
    bool fills = false;  // the maps reach 3/4 of the box's height or width: they fill it
    float mapsTop = 0.0f, middle = 0.0f;  // the highest map's cells' top; the box's middle height
};

// App in a headless ImGui context whose look follows the state as the window's loop makes it follow (gui_main).
class LectureHall {
public:
    explicit LectureHall(Size size, float zoom = 1.0f, bool presenting = false, core::StageId stage = core::StageId::Softmax,
                         std::string sentence = std::string(core::kDefaultSentence), bool sidePanel = true)
        : LectureHall(size, startState(zoom, presenting, stage, std::move(sentence), sidePanel)) {}
    LectureHall(Size size, ui::AppState state)
        : ui_({static_cast<float>(size.width), static_cast<float>(size.height)}), keeper_(ImGui::GetStyle()), app_(std::move(state)) {
        follow();
        ui_.frames(app_, 3);
        app_.waitForRun();
        ui_.frames(app_, 2);
    }
    void press(int key, bool ctrl = false) {
        ui_.pressKey(app_, key, ctrl);
        follow();
        ui_.frames(app_, 3);
    }
    // `key` held down for frames of these durations (see ImGuiHarness::holdKey).
    void hold(int key, bool ctrl, const std::vector<float>& frameSeconds) {
        ui_.holdKey(app_, key, ctrl, frameSeconds);
        follow();
        ui_.frames(app_, 2);
    }
    void click(ImVec2 at) {
        ui_.click(app_, at);
        ui_.frames(app_, 3);
    }
    void hover(ImVec2 at) { ui_.hover(app_, at); }
    void resize(Size size) {
        ImGui::GetIO().DisplaySize = {static_cast<float>(size.width), static_cast<float>(size.height)};
        follow();
        ui_.frames(app_, 3);
    }
    // The screen area drawn as heatmaps this frame, in pixels².
    float mapArea() const {
        float area = 0.0f;
        for (const ui::DrawnHeatmap& d : app_.drawnHeatmaps()) area += (d.max.x - d.min.x) * (d.max.y - d.min.y);
        return area;
    }
    ui::App& app() { return app_; }
    StageFit stageFit() const {
        StageFit fit;
        const int tokens = app_.run()->trace.keyLength;
        const float atZoomsFloor = scene::tokenLabelRoom(scene::labelSizes(ImGui::GetFontSize(), app_.state().presenting, tokens).floor);
        fit.area = mapArea();
        const std::optional<ImVec4> box = ImGuiHarness::shownArea("/stage_");
        if (!box) return fit;
        float right = box->x, bottom = box->y;
        fit.mapsTop = FLT_MAX;
        fit.middle = (box->y + box->w) / 2.0f;
        for (const ui::DrawnHeatmap& d : app_.drawnHeatmaps()) {
            const bool inside = d.min.x >= box->x - 0.5f && d.min.y >= box->y - 0.5f && d.max.x <= box->z + 0.5f && d.max.y <= box->w + 0.5f;
            const bool outside = d.max.y <= box->y || d.min.y >= box->w || d.max.x <= box->x || d.min.x >= box->z;
            fit.whole += inside ? 1 : 0;
            fit.cut += !inside && !outside ? 1 : 0;
            const bool belowOnly = d.min.x >= box->x - 0.5f && d.min.y >= box->y - 0.5f && d.max.x <= box->z + 0.5f;
            // Labels first: a map at the zoom's label floor taller than the stage goes past its bottom.
            const bool atFloor = (d.max.y - d.min.y) / static_cast<float>(d.rows) < 1.1f * atZoomsFloor;
            fit.unreachable += !inside && !(belowOnly && (d.max.y - d.min.y <= box->w - box->y + 0.5f || atFloor)) ? 1 : 0;
            fit.mapsTop = std::min(fit.mapsTop, d.min.y);
            right = std::max(right, d.max.x);
            bottom = std::max(bottom, d.max.y);
        }
        // Under the stage's header, which grows with the zoom.
        fit.fills = right - box->x >= 0.75f * (box->z - box->x) || bottom - box->y >= 0.75f * (box->w - box->y) ||
                    bottom - fit.mapsTop >= 0.75f * (box->w - fit.mapsTop);
        return fit;
    }
    static float drawnPastRightEdge() { return ImGuiHarness::drawnPastRightEdge("/stage_"); }
    static float stageScrollRoom() { return ImGuiHarness::scrollRoom("/stage_"); }
    // The smallest cell extent along a token axis of the maps drawn this frame (rows of token rows, columns of
    // token columns): the label floor's test, since a token label is drawn when its cell is ≥ 0.85 × its size.
    // The stage's own maps: a tensor drawn again is a side tile of every head, unlabelled.
    float smallestTokenCell() const {
        float smallest = 1e9f;
        std::vector<ui::MatrixRef> seen;
        for (const ui::DrawnHeatmap& d : app_.drawnHeatmaps()) {
            if (std::any_of(seen.begin(), seen.end(), [&](const ui::MatrixRef& m) { return m.tensor == d.matrix.tensor; })) continue;
            seen.push_back(d.matrix);
            const ui::MatrixInfo info = ui::matrixInfo(*app_.run(), d.matrix, 0);
            const core::Axis rows = d.transposed ? info.colAxis : info.rowAxis, cols = d.transposed ? info.rowAxis : info.colAxis;
            if (core::isTokens(rows)) smallest = std::min(smallest, (d.max.y - d.min.y) / static_cast<float>(d.rows));
            if (core::isTokens(cols)) smallest = std::min(smallest, (d.max.x - d.min.x) / static_cast<float>(d.cols));
        }
        return smallest;
    }

private:
    static ui::AppState startState(float zoom, bool presenting, core::StageId stage, std::string sentence, bool sidePanel) {
        ui::AppState state;
        state.zoom = zoom;
        state.presenting = presenting;
        state.spec = core::ModelSpec{};
        state.spec.sentences = {std::move(sentence)};
        state.stage = stage;
        state.showSidePanel = sidePanel;
        return state;
    }
    void follow() {
        if (keeper_.follow(app::lookInputsOf(app_.state(), ImGui::GetIO().DisplaySize.y, 1.0f))) ui_.setLook(keeper_.look().scale, keeper_.look().style);
    }

    ImGuiHarness ui_;
    app::LookKeeper keeper_;
    ui::App app_;
};

constexpr int kKeyEqual = 61, kKeyMinus = 45, kKeyZero = 48;

int keyOf(ui::ViewKey key) {
    switch (key) {
        case ui::ViewKey::Present: return kKeyF5;
        case ui::ViewKey::Leave: return kKeyEscape;
        case ui::ViewKey::ZoomIn: return kKeyEqual;
        case ui::ViewKey::ZoomOut: return kKeyMinus;
        case ui::ViewKey::ActualSize: break;
    }
    return kKeyZero;
}

bool ctrlFor(ui::ViewKey key) { return key != ui::ViewKey::Present && key != ui::ViewKey::Leave; }

}  // namespace

TEST_CASE("presenting: five F5 toggles leave the maps as they were, each Ctrl+= makes them larger, Ctrl+0 restores them") {
    for (Size size : {Size{1024, 768}, Size{1280, 800}}) {
        CAPTURE(size.width);
        LectureHall hall(size);
        hall.press(kKeyF5);
        const float presenting = hall.mapArea();
        REQUIRE(presenting > 0.0f);
        for (int i = 0; i < 5; ++i) {
            hall.press(kKeyEscape);
            hall.press(kKeyF5);
        }
        CHECK(hall.mapArea() == doctest::Approx(presenting));
        for (int i = 0; i < 2; ++i) {
            hall.press(kKeyEqual, true);
            CHECK(hall.stageFit().whole >= 1);
            // At 1024 × 768 the grown header leaves too little room: the maps grow past the box's bottom (the stage
            // scrolls) rather than shrink below four fifths of zoom 1's cells (test_gui_screenshots: two steps in
            // make the cells ≥ 1.25 × larger).
            if (size.width > 1024) CHECK(hall.stageFit().cut == 0);
        }
        hall.press(kKeyZero, true);
        CHECK(hall.mapArea() == doctest::Approx(presenting));
        hall.press(kKeyMinus, true);
        CHECK(hall.mapArea() <= presenting);
    }
}

TEST_CASE("random runs of F5, Ctrl+= and Ctrl+− held as people hold them, through slow frames: the zoom is the sum of its steps, clamped") {
    // A press is one step however long the key is held and however slow the frames it is held through (the frame
    // after F5 rebuilds the fonts): ImGui's key repeat counted a key held across a 0.4 s frame twice.
    std::mt19937 random(32);
    LectureHall hall(kStartSize);
    const int last = static_cast<int>(std::size(ui::kZoomSteps)) - 1;
    int step = 2;  // kZoomSteps[2] is 100 %
    for (int press = 0; press < 40; ++press) {
        const int which = std::uniform_int_distribution<int>(0, 2)(random);
        std::vector<float> frames(std::uniform_int_distribution<std::size_t>(1, 3)(random), 1.0f / 60.0f);
        for (float& seconds : frames) seconds = std::bernoulli_distribution(0.25)(random) ? 0.4f : seconds;
        if (which == 0) {
            hall.hold(kKeyF5, false, frames);
        } else {
            hall.hold(which == 1 ? kKeyEqual : kKeyMinus, true, frames);
            step = std::clamp(step + (which == 1 ? 1 : -1), 0, last);
        }
        CAPTURE(press);
        REQUIRE(hall.app().state().zoom == doctest::Approx(ui::kZoomSteps[step]));
    }
}

TEST_CASE("with App drawn, random key and resize sequences end in the maps a fresh start in their state draws") {
    const std::vector<Step> steps = allSteps();
    std::mt19937 random(2101);
    for (int i = 0; i < 12; ++i) {
        Size size = kStartSize;
        float zoom = 1.0f;
        bool presenting = false;
        std::vector<ui::DrawnHeatmap> a;
        {  // one ImGui context at a time
            LectureHall played(kStartSize);
            const int length = std::uniform_int_distribution<int>(1, 6)(random);
            for (int n = 0; n < length; ++n) {
                const Step& step = steps[std::uniform_int_distribution<std::size_t>(0, steps.size() - 1)(random)];
                if (const auto* resized = std::get_if<Size>(&step)) {
                    size = *resized;
                    played.resize(size);
                } else {
                    played.press(keyOf(std::get<ui::ViewKey>(step)), ctrlFor(std::get<ui::ViewKey>(step)));
                }
            }
            a = played.app().drawnHeatmaps();
            zoom = played.app().state().zoom;
            presenting = played.app().state().presenting;
        }
        LectureHall fresh(size, zoom, presenting);
        const std::vector<ui::DrawnHeatmap>& b = fresh.app().drawnHeatmaps();
        REQUIRE(a.size() == b.size());
        for (std::size_t m = 0; m < a.size(); ++m) {
            CHECK(a[m].min.x == doctest::Approx(b[m].min.x));
            CHECK(a[m].min.y == doctest::Approx(b[m].min.y));
            CHECK(a[m].max.x == doctest::Approx(b[m].max.x));
            CHECK(a[m].max.y == doctest::Approx(b[m].max.y));
        }
    }
}

TEST_CASE("every sequence of up to 4 look keys and resizes ends in the look of a fresh start in its state") {
    const std::vector<Step> steps = allSteps();
    std::vector<std::vector<Step>> sequences{{}};
    for (int length = 1; length <= 4; ++length) {
        std::vector<std::vector<Step>> longer;
        for (const auto& sequence : sequences) {
            if (static_cast<int>(sequence.size()) != length - 1) continue;
            for (const Step& step : steps) {
                longer.push_back(sequence);
                longer.back().push_back(step);
            }
        }
        sequences.insert(sequences.end(), longer.begin(), longer.end());
    }
    CHECK(sequences.size() == 1 + 8 + 64 + 512 + 4096);
    for (const auto& sequence : sequences) checkEndsFresh(sequence);
}

TEST_CASE("200 random sequences of up to 12 look keys and resizes end in the look of a fresh start in their state") {
    const std::vector<Step> steps = allSteps();
    std::mt19937 random(21);
    for (int i = 0; i < 200; ++i) {
        std::vector<Step> sequence(std::uniform_int_distribution<int>(1, 12)(random));
        for (Step& step : sequence) step = steps[std::uniform_int_distribution<std::size_t>(0, steps.size() - 1)(random)];
        checkEndsFresh(sequence);
    }
}

// The stages whose picture is a scene (scene/scene.h): one head's maps (the split and the concatenation: every
// head's tiles), laid out by scene/layout.h.
constexpr core::StageId kSceneStages[] = {core::StageId::Embed,   core::StageId::Project, core::StageId::SplitHeads, core::StageId::Scores,
                                          core::StageId::Scale,   core::StageId::Mask,    core::StageId::Softmax,    core::StageId::WeightedSum,
                                          core::StageId::Concat,  core::StageId::Output};

// 24 words: the longest sentence the lecture's label rule promises to keep whole.
constexpr const char* kTwentyFourTokens = "the animal did not cross the street because it was too tired and the street was too wide for it to cross at night";

TEST_CASE("presenting at 1024x768 and 1280x800, every stage keeps every token label at 14 px or more for up to 24 tokens") {
    for (Size size : {Size{1024, 768}, Size{1280, 800}}) {
        for (const char* sentence : {core::kDefaultSentence.data(), kTwentyFourTokens}) {
            for (core::StageId stage : kSceneStages) {
                CAPTURE(size.width);
                CAPTURE(static_cast<int>(stage));
                CAPTURE(sentence);
                LectureHall hall(size, 1.0f, true, stage, sentence, false);
                REQUIRE(hall.app().run()->trace.keyLength <= 24);
                REQUIRE(!hall.app().drawnHeatmaps().empty());
                CHECK(hall.smallestTokenCell() >= 0.85f * 14.0f - scene::kLabelSlack);
            }
        }
    }
}

// The bundled BERT adds [CLS] and [SEP]: 22 words are 24 tokens, kTwentyFourTokens' 24 words are 26.
constexpr const char* kTwentyTwoWords = "the animal did not cross the street because it was too tired and the street was too wide for it to cross";

// The child window whose name contains `name` ("…/stage_…").
const ImGuiWindow* childWindow(const char* name) {
    for (const ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
        if (window->Active && std::strstr(window->Name, name) != nullptr) return window;
    }
    return nullptr;
}
const ImGuiWindow* stageWindow() { return childWindow("/stage_"); }

ui::AppState bertPresenting(const char* sentence, core::StageId stage) {
    ui::AppState state;
    ui::useTrainedModel(io::loadBundledModel(), state);
    state.presenting = true;
    state.spec.sentences = {sentence};
    state.stage = stage;
    state.showSidePanel = false;
    return state;
}

TEST_CASE("presenting the bundled BERT at 1024x768 and 1280x800: every stage keeps 14 px token labels at 24 tokens, and at 26 none under the tapered floor") {
    for (Size size : {Size{1024, 768}, Size{1280, 800}}) {
        for (const auto& [sentence, tokens] : {std::pair{kTwentyTwoWords, 24}, std::pair{kTwentyFourTokens, 26}}) {
            for (core::StageId stage : kSceneStages) {
                CAPTURE(size.width);
                CAPTURE(tokens);
                CAPTURE(static_cast<int>(stage));
                LectureHall hall(size, bertPresenting(sentence, stage));
                REQUIRE(hall.app().run()->trace.keyLength == tokens);
                REQUIRE(!hall.app().drawnHeatmaps().empty());
                const float floor = tokens <= 24 ? 14.0f : scene::lectureLabelFloor(tokens);  // 26 tokens: 12.9 px
                CHECK(hall.smallestTokenCell() >= 0.85f * floor - scene::kLabelSlack);
                // Rows kept below the stage's bottom are reached by scrolling it.
                float lowest = 0.0f;
                for (const ui::DrawnHeatmap& d : hall.app().drawnHeatmaps()) lowest = std::max(lowest, d.max.y);
                const ImGuiWindow* panel = stageWindow();
                REQUIRE(panel != nullptr);
                const float hidden = lowest - (panel->Pos.y + panel->Size.y);
                if (hidden > 0.0f) {
                    CHECK((panel->Flags & ImGuiWindowFlags_NoScrollWithMouse) == 0);
                    CHECK(panel->ScrollMax.y >= hidden);
                }
            }
        }
    }
}

// 26 and 27 words: past the 24 tokens the lecture keeps at 14 px, where its label floor tapers (14 × 24 / tokens).
constexpr const char* kTwentySixWords = "the animal did not cross the street because it was too tired and the street was too wide for it to cross at night "
                                        "last year";
constexpr const char* kTwentySevenWords = "the animal did not cross the street because it was too tired and the street was too wide for it to cross at "
                                          "night last year again";

// The cell area of head 0's map of `tensor` drawn this frame, or nothing.
std::optional<ui::DrawnHeatmap> drawnMap(const ui::App& app, core::TensorId tensor) {
    for (const ui::DrawnHeatmap& d : app.drawnHeatmaps()) {
        if (d.matrix.source == ui::MatrixSource::Trace && d.matrix.tensor == tensor && d.matrix.head == 0) return d;
    }
    return std::nullopt;
}

// At 1024x768 presenting, the softmax stage: S₀ and A₀ side by side, unscrolled, every label at the tapered floor.
void checkSoftmaxSideBySide(LectureHall& hall, int tokens) {
    REQUIRE(hall.app().run()->trace.keyLength == tokens);
    const std::optional<ui::DrawnHeatmap> s = drawnMap(hall.app(), core::TensorId::MaskedScores);
    const std::optional<ui::DrawnHeatmap> a = drawnMap(hall.app(), core::TensorId::AttentionWeights);
    REQUIRE(s);
    REQUIRE(a);
    INFO("S0 x " << s->min.x << " - " << s->max.x << ", y " << s->min.y << " - " << s->max.y << "; A0 x " << a->min.x << " - " << a->max.x
                    << "; cell " << hall.smallestTokenCell() << " px, floor " << scene::lectureLabelFloor(tokens) << " px");
    CHECK(a->min.x > s->max.x);  // A₀ right of S₀, not under it
    CHECK(hall.smallestTokenCell() >= 0.85f * scene::lectureLabelFloor(tokens) - scene::kLabelSlack);
    const ImGuiWindow* panel = stageWindow();
    REQUIRE(panel != nullptr);
    CHECK(panel->ScrollMax.y <= 0.0f);  // the lecturer never scrolls to A₀
}

TEST_CASE("presenting at 1024x768, 26 and 27 tokens: the softmax stage keeps S and A side by side, unscrolled, every label at the tapered floor") {
    for (const auto& [sentence, tokens] : {std::pair{kTwentySixWords, 26}, std::pair{kTwentySevenWords, 27}}) {
        CAPTURE(tokens);
        LectureHall hall(Size{1024, 768}, 1.0f, true, core::StageId::Softmax, sentence, false);
        checkSoftmaxSideBySide(hall, tokens);
    }
    SUBCASE("the bundled BERT: [CLS], 25 words and [SEP]") {
        LectureHall hall(Size{1024, 768}, bertPresenting((std::string(kTwentyTwoWords) + " at night again").c_str(), core::StageId::Softmax));
        checkSoftmaxSideBySide(hall, 27);
    }
}

// Stage 0's token boxes as drawn: the lowest box's bottom and the smallest label.
struct TokenBoxes {
    std::size_t count = 0;
    float top = 1e9f, bottom = 0.0f, right = 0.0f, labelPx = 1e9f, textPx = 1e9f, boxHeight = 1e9f;
    std::vector<int> rows;  // boxes per row, top to bottom
};
TokenBoxes tokenBoxesOf(const ui::App& app) {
    TokenBoxes boxes;
    for (const ui::DrawnToken& t : app.drawnTokens()) {
        ++boxes.count;
        boxes.top = std::min(boxes.top, t.min.y);
        boxes.bottom = std::max(boxes.bottom, t.max.y);
        boxes.right = std::max(boxes.right, t.max.x);
        boxes.labelPx = std::min(boxes.labelPx, t.labelSize);
        boxes.textPx = std::min(boxes.textPx, t.textSize);
        boxes.boxHeight = std::min(boxes.boxHeight, t.max.y - t.min.y);
        if (boxes.rows.empty() || t.min.x <= app.drawnTokens()[boxes.count - 2].min.x) boxes.rows.push_back(0);
        ++boxes.rows.back();
    }
    return boxes;
}

TEST_CASE("presenting at 1024x768 and 1280x800, a short sentence's token boxes grow to use the stage: labels well above the floor, more than half its height or the cap") {
    for (Size size : {Size{1024, 768}, Size{1280, 800}}) {
        for (const char* sentence : {core::kDefaultSentence.data(), "the cat sat", kTwentyFourTokens}) {
            CAPTURE(size.width);
            CAPTURE(std::string(sentence));
            LectureHall hall(size, 1.0f, true, core::StageId::Tokens, sentence, false);
            const TokenBoxes boxes = tokenBoxesOf(hall.app());
            REQUIRE(boxes.count == hall.app().run()->tokens.at(0).size());
            const std::optional<ImVec4> stage = ImGuiHarness::shownArea("/stage_");
            REQUIRE(stage);
            const float filled = (boxes.bottom - stage->y) / (stage->w - stage->y);
            const bool atCap = boxes.textPx >= scene::kLectureTokenGrowth * ImGui::GetIO().Fonts->Fonts[0]->FontSize - 0.01f;  // the harness's one font
            MESSAGE(size.width << " '" << sentence << "': text " << boxes.textPx << " px, labels " << boxes.labelPx << " px, boxes to " << filled << " of the stage's height");
            CHECK(boxes.labelPx >= 1.3f * 14.0f);
            CHECK((filled > 0.5f || atCap));
            CHECK(2 * boxes.rows.back() >= boxes.rows.front());  // rows of even length: no last row of a token or two
            CHECK(boxes.bottom <= stage->w);
            CHECK(boxes.right <= stage->z);
        }
    }
}

TEST_CASE("presenting at 1024x768 and 1280x800, 62 tokens: every box inside the stage, labels at the floor or more") {
    std::string sentence;
    for (int i = 0; i < 62; ++i) sentence += std::string(i == 0 ? "" : " ") + (i % 3 == 0 ? "street" : i % 3 == 1 ? "the" : "because");
    for (Size size : {Size{1024, 768}, Size{1280, 800}}) {
        CAPTURE(size.width);
        LectureHall hall(size, 1.0f, true, core::StageId::Tokens, sentence, false);
        const TokenBoxes boxes = tokenBoxesOf(hall.app());
        REQUIRE(boxes.count == 62);
        const std::optional<ImVec4> stage = ImGuiHarness::shownArea("/stage_");
        REQUIRE(stage);
        CHECK(boxes.bottom <= stage->w);
        CHECK(boxes.right <= stage->z);
        CHECK(boxes.labelPx >= 14.0f);
    }
}

TEST_CASE("stage 0's token boxes never shrink when the zoom goes up, presenting or not, at 1024x768 and 1280x800") {
    for (Size size : {Size{1024, 768}, Size{1280, 800}}) {
        for (bool presenting : {false, true}) {
            for (const char* sentence : {core::kDefaultSentence.data(), "the cat sat", kTwentyFourTokens}) {
                CAPTURE(size.width);
                CAPTURE(presenting);
                CAPTURE(std::string(sentence));
                TokenBoxes previous{0, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, {}};
                for (std::size_t step = 0; step < 6; ++step) {  // kZoomSteps[2] is 1: steps -2 … +3
                    CAPTURE(ui::kZoomSteps[step]);
                    LectureHall hall(size, ui::kZoomSteps[step], presenting, core::StageId::Tokens, sentence, false);
                    const TokenBoxes boxes = tokenBoxesOf(hall.app());
                    CHECK(boxes.labelPx >= previous.labelPx - 0.01f);
                    CHECK(boxes.textPx >= previous.textPx - 0.01f);
                    CHECK(boxes.boxHeight >= previous.boxHeight - 0.01f);
                    previous = boxes;
                }
            }
        }
    }
}

// The zoom's promise (issue #32): the maps grow with the zoom until a stage's maps fill its box; from then on each
// map stays wholly inside the box the stage shows (cells as large as fit, never under the label floor), even when
// its cells stop growing or shrink a little as the labels grow. On main before it, Ctrl+= once or twice cut maps at
// the stage box's edge at every size (1280 × 800: 4 rows of S₀ in view) and left no whole map in view at 1920.
// Where the box cannot hold the maps side by side at the zoom's type, they stack, each no taller than the box
// (Promise::Scrolls): the first whole in view, the next ones whole when scrolled to.
enum class Promise { OneScreen, Scrolls };

// The state of a stage drawn alone, presenting or not, zoomed: the default model, or the bundled BERT (`bert`).
ui::AppState zoomedState(float zoom, bool presenting, core::StageId stage, bool bert) {
    ui::AppState state = bert ? bertPresenting(core::kDefaultSentence.data(), stage) : ui::AppState{};
    if (!bert) {
        state.spec = core::ModelSpec{};
        state.spec.sentences = {std::string(core::kDefaultSentence)};
    }
    state.zoom = zoom;
    state.presenting = presenting;
    state.stage = stage;
    state.showSidePanel = false;  // the stage's maps alone
    return state;
}

// The maps drawn and the stage's box, for a broken promise's message.
std::string mapsDrawn(const ui::App& app) {
    std::ostringstream out;
    if (const std::optional<ImVec4> box = ImGuiHarness::shownArea("/stage_")) out << "box " << box->x << "," << box->y << " - " << box->z << "," << box->w << ":";
    for (const ui::DrawnHeatmap& d : app.drawnHeatmaps()) {
        out << " " << core::tensorInfo(d.matrix.tensor).key << " " << d.min.x << "," << d.min.y << " - " << d.max.x << "," << d.max.y << " (" << d.rows << "x" << d.cols << ")";
    }
    return out.str();
}

// Returns the steps that broke the promise, each named in a message.
int zoomPromiseBroken(const std::vector<Size>& sizes, const std::vector<float>& zooms, Promise promise, const std::vector<core::StageId>& stages,
                      bool bert = false) {
    int broken = 0;
    for (Size size : sizes) {
        for (bool presenting : {false, true}) {
            for (core::StageId stage : stages) {
                CAPTURE(size.width);
                CAPTURE(presenting);
                CAPTURE(static_cast<int>(stage));
                StageFit previous;
                for (float zoom : zooms) {
                    CAPTURE(zoom);
                    LectureHall hall(size, zoomedState(zoom, presenting, stage, bert));
                    const float floor = presenting ? 14.0f : 9.0f;
                    const StageFit fit = hall.stageFit();
                    INFO(mapsDrawn(hall.app()));
                    CHECK(hall.smallestTokenCell() >= 0.85f * floor - scene::kLabelSlack);
                    const std::string where = std::to_string(size.width) + (presenting ? " presenting" : "") + " stage " +
                                              std::to_string(static_cast<int>(stage)) + " zoom " + std::to_string(zoom);
                    // One screen, the maps never shrink while they fit (scrolling, a step may stack them instead).
                    const bool shrank = promise == Promise::OneScreen && fit.area < previous.area * 0.999f && !previous.fills;
                    const int cut = promise == Promise::OneScreen ? fit.cut : fit.unreachable;
                    // Scrolling, a header taller than half the stage (a long caption at a large zoom) may push the
                    // first map partly below it: whole when scrolled to.
                    const bool noneWhole = fit.whole == 0 && !(promise == Promise::Scrolls && fit.mapsTop > fit.middle);
                    if (cut > 0 || noneWhole || shrank) {
                        ++broken;
                        MESSAGE(where << ": " << cut << " maps cut, " << fit.whole << " whole, " << fit.area << " px² after " << previous.area << "; "
                                      << mapsDrawn(hall.app()));
                    }
                    previous = fit;
                }
            }
        }
    }
    return broken;
}

const std::vector<core::StageId> kEveryScene(std::begin(kSceneStages), std::end(kSceneStages));
const std::vector<float> kEveryZoom(std::begin(ui::kZoomSteps), std::end(ui::kZoomSteps));

TEST_CASE("every stage at 1280x800 and 1920x1080, presenting or not, zoom -2 ... +2: labels kept, a whole map in view, none cut, maps never smaller while they fit") {
    CHECK(zoomPromiseBroken({{1280, 800}, {1920, 1080}}, {ui::kZoomSteps[0], ui::kZoomSteps[1], ui::kZoomSteps[2], ui::kZoomSteps[3], ui::kZoomSteps[4]},
                            Promise::OneScreen, kEveryScene) == 0);
}

// Before the maps were capped to the box's height (issue #32 item 3), a box too short for the magnified maps let
// them go past its bottom: 86 steps of 1024 x 768 and of zoom +3 ... +6 left a map that no scrolling showed whole.
TEST_CASE("every stage at 1024x768, 1280x800 and 1920x1080, presenting or not, zoom -2 ... +6: labels kept, a whole map in view, each map whole when scrolled to") {
    CHECK(zoomPromiseBroken(std::vector<Size>(std::begin(kSizes), std::end(kSizes)), kEveryZoom, Promise::Scrolls, kEveryScene) == 0);
}

// The first screen: the bundled BERT's softmax stage under its three-line caption. Two steps in at 1280 x 800, the
// magnified S₀ showed 4 of its 15 rows (the box's own layout would have drawn 10 px cells where zoom 1 drew 16).
TEST_CASE("the bundled BERT's first screen at 1024x768, 1280x800 and 1920x1080, zoom -2 ... +6: a whole map in view, each whole when scrolled to") {
    CHECK(zoomPromiseBroken(std::vector<Size>(std::begin(kSizes), std::end(kSizes)), kEveryZoom, Promise::Scrolls,
                            {core::StageId::Scores, core::StageId::Softmax, core::StageId::WeightedSum}, true) == 0);
}

// Numbers a back row reads (issue #32 item 3): presenting at 1080p, the attention weights of up to 16 tokens print
// at 18 px or more (the sizes themselves: test_cell_values).
TEST_CASE("presenting the bundled BERT at 1920x1080, 15 and 16 tokens: A prints its weights at 18 px or more") {
    for (const char* sentence : {core::kDefaultSentence.data(), "the animal did not cross the busy street because it was far too tired"}) {
        LectureHall hall({1920, 1080}, bertPresenting(sentence, core::StageId::Softmax));
        CAPTURE(hall.app().run()->trace.keyLength);
        REQUIRE(hall.app().run()->trace.keyLength <= 16);
        const std::optional<ui::DrawnHeatmap> a = drawnMap(hall.app(), core::TensorId::AttentionWeights);
        REQUIRE(a);
        const float cell = (a->max.y - a->min.y) / static_cast<float>(a->rows);
        MESSAGE(cell << " px cells, numbers " << a->valuePx << " px");
        CHECK(a->valuePx >= 18.0f);
    }
}

TEST_CASE("no stage ever needs a horizontal scrollbar: 864x720 to 1920x1080, presenting or not, zoom -2 ... +3") {
    int sideways = 0;
    for (Size size : {Size{864, 720}, Size{1024, 768}, Size{1280, 800}, Size{1920, 1080}}) {
        for (bool presenting : {false, true}) {
            for (int stage = 0; stage < core::kStageCount; ++stage) {
                for (std::size_t step = 0; step < 6; ++step) {  // kZoomSteps[2] is 1: steps -2 … +3
                    LectureHall hall(size, ui::kZoomSteps[step], presenting, static_cast<core::StageId>(stage));
                    const float past = hall.drawnPastRightEdge();
                    if (past > 1.5f) {
                        ++sideways;
                        MESSAGE("stage " << stage << " " << size.width << "x" << size.height << std::string(presenting ? " presenting" : "") << " zoom "
                                         << ui::kZoomSteps[step] << ": " << past << " px right of the panel; " << mapsDrawn(hall.app()));
                    }
                }
            }
        }
    }
    CHECK(sideways == 0);
}

TEST_CASE("presenting the default sentence at 1024x768 and 1280x800, no stage scrolls: its picture fits the panel") {
    int scrolling = 0;
    for (Size size : {Size{1024, 768}, Size{1280, 800}}) {
        for (int stage = 0; stage < core::kStageCount; ++stage) {
            LectureHall hall(size, 1.0f, true, static_cast<core::StageId>(stage));
            const float room = hall.stageScrollRoom();
            if (room > 0.5f) {  // a scrollbar a lecturer sees, and the width it takes from the maps
                ++scrolling;
                MESSAGE("stage " << stage << " " << size.width << "x" << size.height << ": scrolls " << room << " px");
            }
        }
    }
    CHECK(scrolling == 0);  // stages 3, 5 and 6 scrolled 5-6 px: a dummy an item spacing below their last item
}

// The decoder fixture with grouped-query attention (8 query heads sharing 2 K/V heads) and rotary positions.
ui::AppState groupedQueryState(core::StageId stage, bool ropeStep) {
    ui::AppState state;
    ui::useTrainedModel(io::loadModelFolder(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/decoders/llama-gqa-llama3"), state);
    state.spec.sentences = {"the cat sat on the mat"};  // the tiny model has 32 positions
    state.stage = stage;
    state.ropeStep = ropeStep;
    state.presenting = true;
    state.showSidePanel = false;
    state.head = 5;
    return state;
}

int drawnOf(const ui::App& app, core::TensorId tensor) {
    int count = 0;
    for (const ui::DrawnHeatmap& d : app.drawnHeatmaps()) count += d.matrix.tensor == tensor ? 1 : 0;
    return count;
}

TEST_CASE("a grouped-query model presenting: stage 2, the split and the RoPE step keep 14 px labels — K and V show their 2 heads") {
    for (Size size : {Size{1024, 768}, Size{1280, 800}}) {
        CAPTURE(size.width);
        {
            LectureHall split(size, groupedQueryState(core::StageId::SplitHeads, false));
            REQUIRE(split.app().run()->trace.dims.kvHeads == 2);
            CHECK(split.smallestTokenCell() >= 0.85f * 14.0f - scene::kLabelSlack);
            CHECK(drawnOf(split.app(), core::TensorId::QHeadsBeforeRope) == 8);  // the heads as cut, before RoPE
            const int keyTiles = drawnOf(split.app(), core::TensorId::KHeadsBeforeRope);
            CHECK((keyTiles == 0 || keyTiles == 2));  // K's line only when it keeps its labels, then with its 2 heads
        }
        {
            LectureHall project(size, groupedQueryState(core::StageId::Project, false));
            CHECK(project.smallestTokenCell() >= 0.85f * 14.0f - scene::kLabelSlack);
        }
        {
            LectureHall rope(size, groupedQueryState(core::StageId::SplitHeads, true));
            CHECK(rope.smallestTokenCell() >= 0.85f * 14.0f - scene::kLabelSlack);
            CHECK(drawnOf(rope.app(), core::TensorId::QHeadsBeforeRope) == 1);
            CHECK(drawnOf(rope.app(), core::TensorId::QHeads) == 1);
        }
    }
}

TEST_CASE("R toggles stage 3's RoPE step") {
    LectureHall hall(kStartSize, groupedQueryState(core::StageId::SplitHeads, false));
    hall.press('R');
    CHECK(hall.app().state().ropeStep);
    CHECK(drawnOf(hall.app(), core::TensorId::QHeads) == 1);
    hall.press('R');
    CHECK_FALSE(hall.app().state().ropeStep);
}

TEST_CASE("zooming in at 864x720 keeps S and A whole, each inside the stage box, and never scrolls sideways") {
    LectureHall hall({864, 720});
    hall.press(kKeyEqual, true);
    hall.press(kKeyEqual, true);
    REQUIRE(hall.app().state().zoom > 1.2f);
    REQUIRE(hall.app().drawnHeatmaps().size() >= 2);
    for (const ui::DrawnHeatmap& d : hall.app().drawnHeatmaps()) {
        CHECK(d.min.y >= 0.0f);
        CHECK(d.max.y - d.min.y <= 720.0f);
        CHECK(d.max.x <= 864.0f);
    }
    CHECK(hall.drawnPastRightEdge() <= 1.5f);
    CHECK(hall.stageFit().cut == 0);
    CHECK(hall.mapArea() > 0.0f);
}

TEST_CASE("zooming in makes the type larger and the style's sizes never smaller") {
    for (bool presenting : {false, true}) {
        for (Size size : kSizes) {
            app::Look previous = app::lookFor({ui::kZoomSteps[0], presenting, false, static_cast<float>(size.height), 1.0f});
            for (float zoom : ui::kZoomSteps) {
                const app::Look look = app::lookFor({zoom, presenting, false, static_cast<float>(size.height), 1.0f});
                CHECK(look.fontPixels >= previous.fontPixels);
                CHECK(look.style.ItemSpacing.x >= previous.style.ItemSpacing.x);
                previous = look;
            }
        }
    }
}

// Zoomed out, the stage's box takes the zoom's share of the panel (drawStageView) and the type shrinks with it:
// A₀'s side shrinks by about the zoom, never by more than zoom² (85 %: 137 px against zoom 1's 276, with the side
// panel kept).
TEST_CASE("zooming out at 1280x800 folds the side panels as zoom 1 does: the maps shrink by zoom squared at most") {
    const auto heightOfA = [](float zoom) {
        LectureHall hall(kStartSize, zoom);  // the side panels wanted, as on a fresh start
        const std::optional<ui::DrawnHeatmap> a = drawnMap(hall.app(), core::TensorId::AttentionWeights);
        REQUIRE(a);
        return a->max.y - a->min.y;
    };
    const float atOne = heightOfA(1.0f);
    for (float zoom : {ui::kZoomSteps[0], ui::kZoomSteps[1]}) {
        CAPTURE(zoom);
        CHECK(heightOfA(zoom) >= zoom * zoom * atOne);
    }
}

TEST_CASE("View > Reset to defaults: a borrowed machine's sentence, zoom and folded panels back to a fresh start's, the model kept") {
    ui::AppState borrowed;
    ui::useTrainedModel(io::loadBundledModel(), borrowed);
    const auto model = borrowed.spec.model;
    borrowed.spec.sentences = {"last week's example sentence"};
    borrowed.zoom = ui::kZoomSteps[1];
    borrowed.presenting = true;
    borrowed.showControls = false;
    borrowed.showSidePanel = false;
    borrowed.keepPanelsWhenNarrow = true;
    borrowed.allHeads = true;
    borrowed.showValues = false;
    ui::resetToDefaults(borrowed);
    const ui::AppState fresh;
    CHECK(borrowed.spec.sentences == fresh.spec.sentences);
    CHECK(borrowed.zoom == fresh.zoom);
    CHECK(borrowed.presenting == fresh.presenting);
    CHECK(borrowed.showControls == fresh.showControls);
    CHECK(borrowed.showSidePanel == fresh.showSidePanel);
    CHECK(borrowed.keepPanelsWhenNarrow == fresh.keepPanelsWhenNarrow);
    CHECK(borrowed.allHeads == fresh.allHeads);
    CHECK(borrowed.showValues == fresh.showValues);
    CHECK(borrowed.spec.model == model);
}

TEST_CASE("at 1280x800, panels kept with 'Show them' offer 'Fold them', which folds them again") {
    ui::AppState state;
    state.spec.sentences = {std::string(core::kDefaultSentence)};
    state.showSidePanel = true;
    state.keepPanelsWhenNarrow = true;
    LectureHall hall({1280, 800}, std::move(state));
    const std::optional<ImVec2> fold = drawnTextAt("Fold them");
    REQUIRE(fold.has_value());  // the panels were kept with no way back but the View menu
    hall.click(*fold);
    CHECK_FALSE(hall.app().state().keepPanelsWhenNarrow);
    CHECK(drawnTextAt("Show them").has_value());
    CHECK_FALSE(drawnTextAt("Fold them").has_value());
}

// Issue #32 item 11: "Show them" at 1280 stacked the maps and cut A_0 off at the stage's bottom.
TEST_CASE("at 1280x800 with the panels kept ('Show them'), stages 4, 7 and 8 of the first screen show every map whole, none cut") {
    for (core::StageId stage : {core::StageId::Scores, core::StageId::Softmax, core::StageId::WeightedSum}) {
        CAPTURE(static_cast<int>(stage));
        ui::AppState state = bertPresenting(core::kDefaultSentence.data(), stage);
        state.presenting = false;
        state.showSidePanel = true;
        state.keepPanelsWhenNarrow = true;
        LectureHall hall({1280, 800}, std::move(state));
        REQUIRE(drawnTextAt("Fold them").has_value());  // the panels are kept
        const StageFit fit = hall.stageFit();
        INFO(mapsDrawn(hall.app()));
        MESSAGE("stage ", static_cast<int>(stage), ": ", fit.whole, " maps whole, ", fit.cut, " cut; ", mapsDrawn(hall.app()));
        CHECK(fit.cut == 0);
        CHECK(fit.whole >= 2);
    }
}

TEST_CASE("a pinned cell's explanation fits the Inspector at 1280x800 and 1920x1080: no scrolling inside it") {
    for (Size size : {Size{1280, 800}, Size{1920, 1080}}) {
        for (core::StageId stage : {core::StageId::Scores, core::StageId::Softmax, core::StageId::WeightedSum}) {
            CAPTURE(size.width);
            CAPTURE(static_cast<int>(stage));
            ui::AppState state = bertPresenting(core::kDefaultSentence.data(), stage);
            state.presenting = false;
            state.showSidePanel = true;
            state.keepPanelsWhenNarrow = true;  // the side panel shown at 1280 too, as after "Show them"
            LectureHall hall(size, std::move(state));
            const std::vector<ui::DrawnHeatmap> maps = hall.app().drawnHeatmaps();
            REQUIRE(!maps.empty());
            const auto area = [](const ui::DrawnHeatmap& d) { return (d.max.x - d.min.x) * (d.max.y - d.min.y); };
            const ui::DrawnHeatmap map = *std::max_element(maps.begin(), maps.end(), [&](const auto& a, const auto& b) { return area(a) < area(b); });
            hall.click({(map.min.x + map.max.x) / 2.0f, (map.min.y + map.max.y) / 2.0f});
            REQUIRE(hall.app().state().pinned);
            const ImGuiWindow* inspector = childWindow("/inspector_");
            REQUIRE(inspector != nullptr);
            MESSAGE(size.width << " stage " << static_cast<int>(stage) << ": inspector " << inspector->Size.y << " px tall, scrolls " << inspector->ScrollMax.y << " px");
            CHECK(inspector->ScrollMax.y <= 0.5f);  // 1920: 75 px tall, scrolled 17 px (softmax) and 365 px (weighted sum)
        }
    }
}

}  // namespace attnviz::test

namespace attnviz::test {
namespace {

// A head's name in the pieces drawnTextCentres can match: its ASCII runs ("coreference (it ", " its noun)"), split
// where a character beyond ASCII ("→") stands.
std::vector<std::string> asciiPieces(const std::string& text) {
    std::vector<std::string> pieces(1);
    for (char c : text) {
        if (static_cast<unsigned char>(c) >= 128) {
            if (!pieces.back().empty()) pieces.emplace_back();
            continue;
        }
        pieces.back() += c;
    }
    if (pieces.back().empty()) pieces.pop_back();
    return pieces;
}

}  // namespace

// Issue #32 item 11: the model view's maps, bound by the layers' height, sat in the left half of the view ('head 3'
// at 53 % of the window's width at 1280x800, 50 % at 1920x1080; now 78 % and 80 %), cut the named heads' captions to their map's width ('corefer…',
// 'previo…', 'next to…') and named no token. The columns now spread over the width, each caption as wide as its
// column, and rows tall enough for 9 px type have their tokens left of each layer's first map.
TEST_CASE("the model view spreads its columns over the width, draws every named head's caption whole and, at 1920x1080, the tokens") {
    for (Size size : {Size{1280, 800}, Size{1920, 1080}}) {
        CAPTURE(size.width);
        ui::AppState state;
        ui::useTrainedModel(io::loadBundledModel(), state);
        state.modelView = true;
        state.showSidePanel = false;  // its Heads grid says 'head 3' too
        LectureHall hall(size, std::move(state));
        const core::TrainedModel& model = *hall.app().run()->spec.trainedModel();
        REQUIRE(!model.namedHeads.empty());
        // The grid: from its first row of maps to the window's bottom (the view has the centre to itself).
        const std::optional<ImVec2> firstMapRow = drawnTextAt("layer 0");
        REQUIRE(firstMapRow.has_value());
        const float gridBottom = static_cast<float>(size.height);
        for (const core::NamedHead& named : model.namedHeads) {  // also named in the line above the grid
            CAPTURE(named.name);
            for (const std::string& piece : asciiPieces(named.name)) {  // the caption's first and last words among them
                CAPTURE(piece);
                const std::vector<ImVec2> drawn = drawnTextCentres(piece);
                CHECK(std::count_if(drawn.begin(), drawn.end(), [&](ImVec2 at) { return at.y > firstMapRow->y && at.y < gridBottom; }) == 1);
            }
        }
        // At 1920 x 1080 the rows (10 px) hold the tokens: each layer's first map has them left of it.
        const std::vector<ImVec2> because = drawnTextCentres("because");
        const auto inGrid = std::count_if(because.begin(), because.end(), [&](ImVec2 at) { return at.y > firstMapRow->y - 100.0f && at.y < gridBottom; });
        if (size.width == 1920) CHECK(inGrid == model.config().layers);
        const std::optional<ImVec2> lastHead = drawnTextAt("head " + std::to_string(model.config().heads - 1));
        REQUIRE(lastHead.has_value());
        MESSAGE(size.width, ": the last column's label at ", lastHead->x / static_cast<float>(size.width), " of the width");
        CHECK(lastHead->x >= 0.55f * static_cast<float>(size.width));
    }
}

// Issue #32 item 11: the model view's maps had no token labels presenting (1920x1080: 116 px maps of 15 rows, under
// its paragraph and the softmax stage's text) and none at 1280x800, where nothing said which token a cell is. The view
// now has the centre to itself (the stage's text is about one head, not every one), presenting folds its paragraph
// under the mouse, and hovering a cell names its query and key.
ui::AppState modelViewState(bool presenting) {
    ui::AppState state;
    ui::useTrainedModel(io::loadBundledModel(), state);
    state.modelView = true;
    state.presenting = presenting;
    state.showSidePanel = false;
    return state;
}

TEST_CASE("presenting at 1920x1080, the model view labels every layer's rows with the sentence's tokens") {
    LectureHall hall({1920, 1080}, modelViewState(true));
    const int layers = hall.app().run()->spec.trainedModel()->config().layers;
    CHECK(drawnTextCentres("because").size() == static_cast<std::size_t>(layers));  // the row label, once per layer
    // The grid reaches the window's bottom: the last layer's captions (the coreference head's among them) sit in its
    // last 6 % (under the stage's text they ended 200 px above it).
    const std::vector<ImVec2> coreference = drawnTextCentres("coreference");
    REQUIRE(!coreference.empty());
    const float lowest = std::max_element(coreference.begin(), coreference.end(), [](ImVec2 a, ImVec2 b) { return a.y < b.y; })->y;
    MESSAGE("the last layer's captions at ", lowest / 1080.0f, " of the height");
    CHECK(lowest >= 0.94f * 1080.0f);
}

TEST_CASE("model view at 1280x800: hovering a cell names its query and key and gives its weight") {
    LectureHall hall({1280, 800}, modelViewState(false));
    const core::ModelRun& run = *hall.app().run();
    // The coreference head's map (layer 2, head 0) is the third row's first: its top-left corner is found from the
    // labels beside it ("layer 2" centred on the map's rows, "head 0" starting at its left edge).
    const std::optional<ImVec2> layerLabel = drawnTextAt("layer 2"), headLabel = drawnTextAt("head 0");
    REQUIRE(layerLabel.has_value());
    REQUIRE(headLabel.has_value());
    const ImVec2 firstColumn{headLabel->x, layerLabel->y};  // the centres of their first letters
    // The pointer is in the first column ([CLS]), on a middle row: the tooltip gives that row's weight on [CLS].
    const core::Tensor& weights = run.modelPass->attentionWeights;  // n_layers × b × h × l × l
    const core::MatrixView map = weights.slice((2 * weights.dim(1) + 0) * weights.dim(2) + 0);
    const auto cellLinesDrawn = [&] {
        int drawn = 0;
        for (int row = 0; row < map.rows(); ++row) drawn += drawnTextAt("[CLS]:" + core::twoDecimals(map(row, 0))).has_value() ? 1 : 0;
        return drawn;
    };
    CHECK(cellLinesDrawn() == 0);
    hall.hover(firstColumn);
    CHECK(cellLinesDrawn() >= 1);
    CHECK(drawnTextAt("layer 2, head 0").has_value());
}

}  // namespace attnviz::test
