// test_lesson_look.cpp — the question views at lecture sizes, without a window. Each view that shows one head's
// maps is opened as its button opens it, at 1024 × 768, 1280 × 800 and 1920 × 1080, presenting or not, zoom −2 …
// +3, with App drawn through the null renderer under the look the window gives that state (app/gui_style.h). The
// rectangles the lesson's painter got (LessonReport::maps) are measured: every labelled token row and column at
// least 0.85 × its label floor (a label is drawn from there; 14 px presenting, 9 px otherwise and for the tiles of
// every head), and the maps' area never smaller when the zoom goes up. No question view draws past its panel's right
// edge (864 × 720 too). Presenting, 24 and 26 tokens keep every label too (the page scrolls). The line view keeps its
// labels at 40 tokens.
#include "app/gui_style.h"
#include "imgui_harness.h"
#include "scene/layout.h"
#include "ui/lessons/lesson_catalog.h"
#include "ui/panels/panel_token_lines.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <string>

namespace attnviz::test {
namespace {

using ui::Lesson;

struct Size {
    int width = 0, height = 0;
};
constexpr Size kSizes[] = {{1024, 768}, {1280, 800}, {1920, 1080}};

// The question views that draw heatmaps with token labels: all but the cost table and the rotary positions (a
// table, arrows and charts), the line view (its own test below) and the trained comparison, which needs the
// bundled model (test_trained_gui.cpp).
constexpr Lesson kMapViews[] = {Lesson::Masks,   Lesson::Cross,   Lesson::FusedVsHeads, Lesson::Slicing,
                                Lesson::RowByRow, Lesson::Scaling, Lesson::Pooling,     Lesson::FreeDims};

// 24 words: the longest sentence the lecture's label rule promises to keep whole on one head's maps.
constexpr const char* kTwentyFourTokens = "the animal did not cross the street because it was too tired and the street was too wide for it to cross at night";

// App in a headless ImGui context at `size` with `lesson` open, its look following the state as the window's
// loop makes it follow (gui_main), after the frames that compute what opening the lesson changed.
class LessonHall {
public:
    LessonHall(Size size, Lesson lesson, float zoom, bool presenting, std::string sentence = std::string(core::kDefaultSentence))
        : ui_({static_cast<float>(size.width), static_cast<float>(size.height)}), keeper_(ImGui::GetStyle()), app_(startState(zoom, presenting, std::move(sentence))) {
        settle();
        ui::openLesson(app_.state(), lesson);
        settle();
    }
    const ui::LessonReport& report() const { return app_.lessonReport(); }
    const ui::App& app() const { return app_; }
    // The smallest labelled token cell of the maps drawn with the lecture's floor (or, with `thumbnails`, of the
    // tiles drawn with the 9 px floor).
    float smallestTokenCell(bool thumbnails) const {
        float smallest = std::numeric_limits<float>::infinity();
        for (const ui::ShownMap& m : report().maps) {
            if (m.thumbnail == thumbnails) smallest = std::min(smallest, m.smallestTokenCell());
        }
        return smallest;
    }
    float mapArea() const {
        float area = 0.0f;
        for (const ui::ShownMap& m : report().maps) area += m.area();
        return area;
    }

private:
    static ui::AppState startState(float zoom, bool presenting, std::string sentence) {
        ui::AppState state;
        state.zoom = zoom;
        state.presenting = presenting;
        state.spec.sentences = {std::move(sentence)};
        return state;
    }
    void settle() {
        follow();
        ui_.frames(app_, 2);
        app_.waitForRun();
        follow();
        ui_.frames(app_, 3);
    }
    void follow() {
        if (keeper_.follow(app::lookInputsOf(app_.state(), ImGui::GetIO().DisplaySize.y, 1.0f))) ui_.setLook(keeper_.look().scale, keeper_.look().style);
    }

    ImGuiHarness ui_;
    app::LookKeeper keeper_;
    ui::App app_;
};

// 40 words: the longest sentence the line view promises to keep every label of.
constexpr const char* kFortyTokens = "the animal did not cross the street because it was too tired and the street was too wide for it to cross at night "
                                     "so it slept by the road until the morning came and then it walked home alone";

// A label is drawn when its cell is at least 0.85 × its size (scene/layout.h).
float labelledCell(float floor) { return 0.85f * floor - scene::kLabelSlack; }

}  // namespace

TEST_CASE("presenting at 1024x768 and 1280x800, the masks view keeps S and A square with 14 px labels for up to 24 tokens") {
    for (Size size : {Size{1024, 768}, Size{1280, 800}}) {
        for (const char* sentence : {core::kDefaultSentence.data(), kTwentyFourTokens}) {
            CAPTURE(size.width);
            CAPTURE(sentence);
            LessonHall hall(size, Lesson::Masks, 1.0f, true, sentence);
            REQUIRE(hall.app().run()->trace.keyLength <= 24);
            int tokenByToken = 0;
            for (const ui::ShownMap& m : hall.report().maps) {
                if (m.caption != "S₀ masked" && m.caption != "A₀") continue;
                ++tokenByToken;
                CHECK(m.smallestTokenCell() >= labelledCell(14.0f));
                CHECK((m.max.x - m.min.x) / static_cast<float>(m.cols) == doctest::Approx((m.max.y - m.min.y) / static_cast<float>(m.rows)));
            }
            CHECK(tokenByToken == 2);
        }
    }
}

// 26 words: two more than the lecture's label rule promises at 14 px; the labels never go under its floor, which
// tapers beyond 24 tokens (scene::lectureLabelFloor).
constexpr const char* kTwentySixTokens = "the animal did not cross the street because it was too tired and the street was too wide for it to cross at night "
                                         "last year";

TEST_CASE("presenting at 1024x768 and 1280x800, 24 and 26 tokens: every question view with maps keeps every token label at the (tapered) floor") {
    for (Size size : {Size{1024, 768}, Size{1280, 800}}) {
        for (const auto& [sentence, tokens] : {std::pair{kTwentyFourTokens, 24}, std::pair{kTwentySixTokens, 26}}) {
            for (Lesson lesson : kMapViews) {
                CAPTURE(std::string(ui::lessonInfo(lesson).key));
                CAPTURE(size.width);
                CAPTURE(tokens);
                LessonHall hall(size, lesson, 1.0f, true, sentence);
                REQUIRE(!hall.report().maps.empty());
                REQUIRE(hall.app().run()->trace.keyLength >= tokens);  // the pooling view adds a summary token
                const int shown = std::max(hall.app().run()->trace.queryLength, hall.app().run()->trace.keyLength);
                CHECK(hall.smallestTokenCell(false) >= labelledCell(shown <= 24 ? 14.0f : scene::lectureLabelFloor(shown)));
                CHECK(hall.smallestTokenCell(true) >= labelledCell(9.0f));
            }
        }
    }
}

TEST_CASE("every question view with maps, at 1024x768, 1280x800 and 1920x1080, presenting or not, zoom -2 ... +3: every token label kept") {
    for (Lesson lesson : kMapViews) {
        for (Size size : kSizes) {
            for (bool presenting : {false, true}) {
                for (std::size_t step = 0; step < 6; ++step) {  // kZoomSteps[2] is 1: steps −2 … +3
                    CAPTURE(std::string(ui::lessonInfo(lesson).key));
                    CAPTURE(size.width);
                    CAPTURE(presenting);
                    CAPTURE(ui::kZoomSteps[step]);
                    LessonHall hall(size, lesson, ui::kZoomSteps[step], presenting);
                    REQUIRE(!hall.report().maps.empty());
                    CHECK(hall.smallestTokenCell(false) >= labelledCell(presenting ? 14.0f : 9.0f));
                    CHECK(hall.smallestTokenCell(true) >= labelledCell(9.0f));
                }
            }
        }
    }
}

// Of the 288 zoom steps (8 views × 3 sizes × presenting or not × 6 steps), 56 shrank before zoomed-in views stacked
// their maps; the last 9 went when the slicing and pooling views stacked their columns, the side panels folded
// before the centre narrowed below its zoom-1 width and a figure without a formula or hint stopped reserving the
// space under them (the masks view's stacked S and A).
TEST_CASE("every question view with maps: the maps never shrink when the zoom goes up") {
    int shrinking = 0;
    for (Lesson lesson : kMapViews) {
        for (Size size : kSizes) {
            for (bool presenting : {false, true}) {
                float previous = 0.0f;
                for (std::size_t step = 0; step < 6; ++step) {
                    const float area = LessonHall(size, lesson, ui::kZoomSteps[step], presenting).mapArea();
                    if (area < previous * 0.999f) {
                        ++shrinking;
                        MESSAGE(ui::lessonInfo(lesson).key << " " << size.width << "x" << size.height << std::string(presenting ? " presenting" : "")
                                                           << " zoom " << ui::kZoomSteps[step] << ": " << area << " < " << previous << " px²");
                    }
                    previous = area;
                }
            }
        }
    }
    CHECK(shrinking == 0);
}

TEST_CASE("no question view ever needs a horizontal scrollbar: 864x720 to 1920x1080, presenting or not, zoom -2 ... +3") {
    int sideways = 0;
    for (const ui::LessonInfo& info : ui::lessons()) {
        const Lesson lesson = info.id;
        for (Size size : {Size{864, 720}, Size{1024, 768}, Size{1280, 800}, Size{1920, 1080}}) {
            for (bool presenting : {false, true}) {
                for (std::size_t step = 0; step < 6; ++step) {
                    LessonHall hall(size, lesson, ui::kZoomSteps[step], presenting);
                    const float past = ImGuiHarness::drawnPastRightEdge("/lesson_");
                    if (past <= 1.5f) continue;
                    ++sideways;
                    MESSAGE(ui::lessonInfo(lesson).key << " " << size.width << "x" << size.height << std::string(presenting ? " presenting" : "")
                                                       << " zoom " << ui::kZoomSteps[step] << ": " << past << " px right of the panel");
                }
            }
        }
    }
    CHECK(sideways == 0);
}

TEST_CASE("the line view presents: at 40 tokens every query and key label is kept at 14 px or more, 1024x768 and 1280x800") {
    for (Size size : {Size{1024, 768}, Size{1280, 800}}) {
        for (bool presenting : {true, false}) {
            CAPTURE(size.width);
            CAPTURE(presenting);
            LessonHall hall(size, Lesson::Lines, 1.0f, presenting, kFortyTokens);
            REQUIRE(hall.app().run()->trace.keyLength == 40);
            REQUIRE(hall.report().lines.has_value());
            const ui::ShownLines& lines = *hall.report().lines;
            CHECK(lines.rows == 40);
            CHECK(lines.labelPx >= (presenting ? 14.0f : 9.0f));
            CHECK(lines.rowHeight >= labelledCell(lines.labelPx));
            CHECK(lines.focus == 8);  // "it", bold
        }
    }
}

TEST_CASE("presenting, L opens the line view and L again closes it") {
    ImGuiHarness ui({1024.0f, 768.0f});
    ui::AppState start;
    start.presenting = true;
    ui::App app(start);
    ui.frame(app);
    app.waitForRun();
    ui.pressKey(app, 'L');
    ui.frames(app, 2);
    CHECK(app.state().lesson.open == Lesson::Lines);
    CHECK(app.lessonReport().lines.has_value());
    CHECK(app.state().presenting);
    ui.pressKey(app, 'L');
    ui.frames(app, 2);
    CHECK(app.state().lesson.open == Lesson::None);
}

TEST_CASE("the line view's geometry: labels shrink to the floor before any goes, and go below it") {
    const scene::LabelSizes sizes{14.0f, 20.0f};
    const ui::Box tall{{0.0f, 0.0f}, {1000.0f, 900.0f}};
    ui::TokenLinesGeometry g = ui::tokenLinesGeometry(tall, 40, 100.0f, 100.0f, sizes, 34.0f, 0.3f);
    CHECK(g.rowHeight == doctest::Approx(22.5f));
    CHECK(g.labelPx == doctest::Approx(20.0f));  // full size: rows taller than 0.85 × 20
    CHECK(g.queryRight < g.left);
    CHECK(g.right < g.keyLeft);
    CHECK(g.keyLeft + 100.0f <= tall.max.x);
    const ui::Box shorter{{0.0f, 0.0f}, {1000.0f, 500.0f}};
    g = ui::tokenLinesGeometry(shorter, 40, 100.0f, 100.0f, sizes, 34.0f, 0.3f);
    CHECK(g.labelPx == doctest::Approx(14.7f).epsilon(0.01));  // 12.5 px rows: between floor and full size
    const ui::Box tooShort{{0.0f, 0.0f}, {1000.0f, 400.0f}};
    CHECK(ui::tokenLinesGeometry(tooShort, 40, 100.0f, 100.0f, sizes, 34.0f, 0.3f).labelPx == 0.0f);  // 10 px rows < 0.85 × 14
    CHECK(ui::tokenLinesHeightFor(40, sizes) >= 40.0f * labelledCell(14.0f));
}

}  // namespace attnviz::test
