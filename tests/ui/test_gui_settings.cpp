// test_gui_settings.cpp — the session file in $XDG_STATE_HOME/attnviz: a round trip keeps view and inputs,
// a damaged or foreign file falls back to defaults field by field, and saved sizes that do not fit are
// ignored rather than starting the app with an error; the marker of a start that died before drawing its inputs.
#include "app/gui_settings.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace attnviz::test {
namespace {

std::filesystem::path scratch(const std::string& name) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("attnviz-settings-test-" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace

TEST_CASE("a saved session loads back: window, view and inputs") {
    const std::filesystem::path file = scratch("roundtrip") / "settings.json";
    app::SavedSession saved;
    saved.window = {1234, 777};
    saved.state.stage = core::StageId::Softmax;
    saved.state.head = 5;
    saved.state.diverging = colormap::Colormap::RdBu;
    saved.state.projection = ui::Projection::Value;
    saved.state.secondsPerStage = 7.0f;
    saved.state.spec.sentences = {"Жёлтый αβγ cat"};
    saved.state.spec.attention.dModel = 96;
    saved.state.spec.attention.heads = 12;
    saved.state.spec.attention.mask = core::MaskKind::Causal;
    saved.state.spec.attention.fill = core::MaskFill::MinusInfinity;
    REQUIRE(app::saveSession(file, saved));
    CHECK_FALSE(std::filesystem::exists(file.string() + ".tmp"));

    const app::SavedSession loaded = app::loadSession(file, {});
    CHECK(loaded.window.width == 1234);
    CHECK(loaded.window.height == 777);
    ui::AppState state;
    app::restoreView(loaded, state);
    app::restoreInputs(loaded, state);
    CHECK(state.stage == core::StageId::Softmax);
    CHECK(state.head == 5);
    CHECK(state.diverging == colormap::Colormap::RdBu);
    CHECK(state.projection == ui::Projection::Value);
    CHECK(state.secondsPerStage == 7.0f);
    CHECK(state.spec.sentences == std::vector<std::string>{"Жёлтый αβγ cat"});
    CHECK(state.spec.attention.dModel == 96);
    CHECK(state.spec.attention.heads == 12);
    CHECK(state.spec.attention.mask == core::MaskKind::Causal);
    CHECK(state.spec.attention.fill == core::MaskFill::MinusInfinity);
}

TEST_CASE("damaged files and wrong types fall back to the defaults") {
    const std::filesystem::path dir = scratch("damaged");
    std::ofstream(dir / "garbage.json") << "{ not json";
    app::SavedSession defaults;
    defaults.window = {800, 600};
    CHECK(app::loadSession(dir / "garbage.json", defaults).window.width == 800);
    CHECK(app::loadSession(dir / "missing.json", defaults).window.height == 600);

    std::ofstream(dir / "types.json") << R"({"window": {"width": "wide"}, "view": {"stage": "nonsense", "head": 3, "sequential": "jet"},
                                            "inputs": {"dModel": 64, "heads": 7, "mask": 2}})";
    const app::SavedSession loaded = app::loadSession(dir / "types.json", defaults);
    CHECK(loaded.window.width == 800);
    ui::AppState state;
    app::restoreView(loaded, state);
    app::restoreInputs(loaded, state);
    CHECK(state.stage == core::StageId::Tokens);
    CHECK(state.head == 3);
    CHECK(state.sequential == colormap::Colormap::Viridis);
    CHECK(state.spec.attention.heads == 8);  // 7 does not divide 64: the pair is not restored
    CHECK(state.spec.attention.mask == core::MaskKind::None);
}

TEST_CASE("the state folder follows XDG_STATE_HOME, else ~/.local/state") {
    const std::filesystem::path dir = scratch("xdg");
    ::setenv("XDG_STATE_HOME", dir.c_str(), 1);
    CHECK(app::stateDirectory() == dir / "attnviz");
    CHECK(std::filesystem::is_directory(dir / "attnviz"));
    ::unsetenv("XDG_STATE_HOME");
    const char* realHome = std::getenv("HOME");
    const std::string savedHome = realHome != nullptr ? realHome : "";
    ::setenv("HOME", (dir / "home").c_str(), 1);  // not the tester's real home
    CHECK(app::stateDirectory() == dir / "home" / ".local" / "state" / "attnviz");
    ::setenv("HOME", savedHome.c_str(), 1);
}

}  // namespace attnviz::test

namespace attnviz::test {

TEST_CASE("hidden side panels are not restored: the next start shows them") {
    app::SavedSession saved;
    saved.state.showControls = false;
    saved.state.showSidePanel = false;
    saved.state.showValues = false;
    ui::AppState state;
    app::restoreView(saved, state);
    CHECK(state.showControls);
    CHECK(state.showSidePanel);
    CHECK_FALSE(state.showValues);  // other view choices are restored
}

}  // namespace attnviz::test

namespace attnviz::test {

TEST_CASE("a start that died before drawing its inputs: the next start restores nothing by itself, and this cannot loop") {
    const std::filesystem::path marker = scratch("drawing") / app::kDrawingMarkerName;
    ui::AppState settled;
    {
        const app::DrawingMarker first(marker);  // a clean start, then it dies at its first frame
        CHECK_FALSE(first.lastStartDied());
    }
    for (int start = 0; start < 3; ++start) {  // each start that dies again before drawing: never a restore
        const app::DrawingMarker again(marker);
        CHECK(again.lastStartDied());
    }
    {
        app::DrawingMarker drawn(marker);
        CHECK(drawn.lastStartDied());
        drawn.afterFrame(settled, true);  // still computing: not drawn yet
        drawn.afterFrame(settled, false);
        drawn.afterFrame(settled, false);
        CHECK(std::filesystem::exists(marker));
        drawn.afterFrame(settled, false);  // three settled frames: the inputs are on screen
        CHECK_FALSE(std::filesystem::exists(marker));
    }
    {
        app::DrawingMarker opening(marker);  // a remembered model still opening keeps the marker
        CHECK_FALSE(opening.lastStartDied());
        ui::AppState state;
        state.session.openingModel = "/models/gpt2";
        for (int frame = 0; frame < 5; ++frame) opening.afterFrame(state, false);
        CHECK(std::filesystem::exists(marker));
        opening.remove();  // a normal exit
    }
    CHECK_FALSE(app::DrawingMarker(marker).lastStartDied());
}

}  // namespace attnviz::test
