// test_compare_gui.cpp — two sentences side by side in the window (issue 35 item 2), driven without a window on the
// bundled model: the C key turns compare on with the lesson's minimal pair and the centre shows A, B and A − B (the
// stage view's place); hovering a cell in any of the three names the same aligned cell (the maps outline it, the
// inspector explains it); C again turns it off and Ctrl+Z brings it back (compare is an undoable input); and presenting
// at 1024 × 768 and 1280 × 800 the three maps keep the lecture's 14 px label floor (LessonReport's rectangles, as the
// question views' test measures them).
#include "app/gui_export.h"
#include "app/gui_style.h"
#include "imgui_harness.h"
#include "io/model_library.h"
#include "io/scratch_dir.h"
#include "scene/layout.h"
#include "ui/session/session_actions.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <limits>

namespace attnviz::test {
namespace {

constexpr int kKeyC = 'C', kKeyZ = 'Z';
constexpr const char* kWide = "The animal didn't cross the street because it was too wide";

ui::AppState bundledState(float zoom = 1.0f, bool presenting = false) {
    ui::AppState state;
    auto model = io::loadBundledModel();
    REQUIRE(model != nullptr);
    ui::useTrainedModel(std::move(model), state);
    state.zoom = zoom;
    state.presenting = presenting;
    return state;
}

// App in a headless ImGui context at `size`, its look following the state as the window's loop makes it follow.
class CompareHall {
public:
    CompareHall(ImVec2 size, bool presenting) : ui_(size), keeper_(ImGui::GetStyle()), app_(bundledState(1.0f, presenting)) { settle(); }
    ui::App& app() { return app_; }
    ImGuiHarness& ui() { return ui_; }
    void settle() {
        follow();
        ui_.frames(app_, 2);
        app_.waitForRun();
        follow();
        ui_.frames(app_, 3);
    }
    void press(int key, bool ctrl = false) {
        ui_.pressKey(app_, key, ctrl);
        settle();
    }
    // The maps the compare view drew this frame, by caption.
    std::vector<ui::ShownMap> maps() const {
        std::vector<ui::ShownMap> shown;
        for (const ui::ShownMap& m : app_.lessonReport().maps) {
            if (m.caption == "A" || m.caption == "B" || m.caption == "A \u2212 B") shown.push_back(m);
        }
        return shown;
    }

private:
    void follow() {
        if (keeper_.follow(app::lookInputsOf(app_.state(), ImGui::GetIO().DisplaySize.y, 1.0f))) ui_.setLook(keeper_.look().scale, keeper_.look().style);
    }
    ImGuiHarness ui_;
    app::LookKeeper keeper_;
    ui::App app_;
};

// The centre of cell (row, col) of a drawn map.
ImVec2 cellCentre(const ui::ShownMap& m, int row, int col) {
    const float cw = (m.max.x - m.min.x) / static_cast<float>(m.cols), ch = (m.max.y - m.min.y) / static_cast<float>(m.rows);
    return {m.min.x + (static_cast<float>(col) + 0.5f) * cw, m.min.y + (static_cast<float>(row) + 0.5f) * ch};
}

}  // namespace

TEST_CASE("compare: C turns it on with the minimal pair, the centre shows A, B and A − B, C turns it off and Ctrl+Z brings it back") {
    CompareHall hall({1600.0f, 1000.0f}, false);
    CHECK(hall.maps().empty());
    hall.press(kKeyC);
    REQUIRE(hall.app().state().spec.compareWith == std::optional<std::string>(kWide));
    REQUIRE(hall.app().run()->compared != nullptr);
    const std::vector<ui::ShownMap> maps = hall.maps();
    REQUIRE(maps.size() == 3);
    CHECK(maps[0].rows == static_cast<int>(hall.app().run()->tokens[0].size()));
    CHECK(hall.app().lessonReport().says("Largest change: the row of"));

    hall.press(kKeyC);
    CHECK_FALSE(hall.app().state().spec.compareWith.has_value());
    CHECK(hall.maps().empty());
    hall.ui().frames(hall.app(), 90);  // past the history's typing pause
    hall.press(kKeyZ, true);
    CHECK(hall.app().state().spec.compareWith == std::optional<std::string>(kWide));
    CHECK(hall.maps().size() == 3);
}

TEST_CASE("compare: Export… writes the slide on screen, A, B and A − B of the head shown (a stage's figure would refuse B)") {
    CompareHall hall({1600.0f, 1000.0f}, false);
    hall.press(kKeyC);
    REQUIRE(hall.app().run()->compared != nullptr);
    ScratchDir out("compare-export");
    const ui::AppState& state = hall.app().state();
    const ui::ExportRequest request{false, state.stage, state.head, state.batch, out.path().string(), state.sequential, state.diverging};
    const std::string status = app::makeExportHook()(*hall.app().run(), request);
    CHECK_MESSAGE(status.rfind("Wrote", 0) == 0, status);
    CHECK(std::filesystem::exists(out.path() / ("compare-head" + std::to_string(state.head) + ".png")));
}

TEST_CASE("compare: hovering a cell in A, B or A − B names the same aligned cell, which the inspector explains") {
    CompareHall hall({1600.0f, 1000.0f}, false);
    hall.press(kKeyC);
    const std::vector<ui::ShownMap> maps = hall.maps();
    REQUIRE(maps.size() == 3);
    for (const ui::ShownMap& m : maps) {
        CAPTURE(m.caption);
        hall.ui().hover(hall.app(), cellCentre(m, 9, 2));
        REQUIRE(hall.app().state().compareHovered.has_value());
        CHECK(*hall.app().state().compareHovered == std::pair{9, 2});
    }
    hall.ui().hover(hall.app(), {2.0f, 2.0f});
    CHECK_FALSE(hall.app().state().compareHovered.has_value());
}

TEST_CASE("compare: presenting at 1024x768 and 1280x800, A, B and A − B keep the 14 px label floor") {
    for (const ImVec2 size : {ImVec2{1024.0f, 768.0f}, ImVec2{1280.0f, 800.0f}}) {
        CAPTURE(size.x);
        CompareHall hall(size, true);
        hall.press(kKeyC);
        const std::vector<ui::ShownMap> maps = hall.maps();
        REQUIRE(maps.size() == 3);
        for (const ui::ShownMap& m : maps) {
            CAPTURE(m.caption);
            CHECK(m.tokenRowLabels);
            CHECK(m.smallestTokenCell() >= 0.85f * 14.0f - scene::kLabelSlack);
            CHECK(m.max.x <= size.x);
        }
    }
}

}  // namespace attnviz::test
