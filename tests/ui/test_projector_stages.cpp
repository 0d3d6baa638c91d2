// test_projector_stages.cpp — the two stages a projector used to lose, drawn by App at 1024 × 768 and 1280 × 800,
// presenting or not: stage 0's token boxes (a scene now: every token's box inside the window, its id and position
// at the label floor or more, no two boxes overlapping, for 24 tokens) and stage 2's "Q, K, V together" (X, the
// three weights and Q, K and V all drawn, each once, token rows at the label floor: no fallback to Q alone) for the
// seeded layer on 24 tokens and the bundled BERT (d_model 128) on the default sentence.
#include "app/gui_export.h"
#include "app/gui_style.h"
#include "imgui_harness.h"
#include "io/model_folder.h"
#include "io/model_library.h"
#include "io/scratch_dir.h"
#include "scene/layout.h"
#include "ui/session/session_actions.h"
#include "ui/views/matrix_info.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

namespace attnviz::test {
namespace {

struct Size {
    int width = 0, height = 0;
};
constexpr Size kProjectorSizes[] = {{1024, 768}, {1280, 800}};
constexpr const char* kTwentyFourTokens = "the animal did not cross the street because it was too tired and the street was too wide for it to cross at night";

// App in a headless ImGui context, its look following the state as the window's loop makes it follow.
class Projector {
public:
    // `trained`: the bundled BERT (d_model 128) on the default sentence, else the seeded layer (d_model 64) on 24 tokens.
    Projector(Size size, bool presenting, core::StageId stage, bool trained = false)
        : ui_({static_cast<float>(size.width), static_cast<float>(size.height)}), keeper_(ImGui::GetStyle()),
          app_(startState(presenting, stage, trained)) {
        if (keeper_.follow(app::lookInputsOf(app_.state(), static_cast<float>(size.height), 1.0f))) ui_.setLook(keeper_.look().scale, keeper_.look().style);
        ui_.frames(app_, 3);
        app_.waitForRun();
        ui_.frames(app_, 2);
    }
    const ui::App& app() const { return app_; }

private:
    static ui::AppState startState(bool presenting, core::StageId stage, bool trained) {
        ui::AppState state;
        if (trained) ui::useTrainedModel(io::loadBundledModel(), state);
        state.presenting = presenting;
        if (!trained) state.spec = core::ModelSpec{};
        // The bundled BERT on the default sentence (15 tokens with [CLS] and [SEP]); the seeded layer on 24 tokens.
        state.spec.sentences = {trained ? std::string(core::kDefaultSentence) : std::string(kTwentyFourTokens)};
        state.stage = stage;
        state.showSidePanel = false;
        return state;
    }

    ImGuiHarness ui_;
    app::LookKeeper keeper_;
    ui::App app_;
};

float labelFloor(bool presenting) { return presenting ? 14.0f : 9.0f; }

bool overlap(const ui::DrawnToken& a, const ui::DrawnToken& b) {
    return a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y;
}

std::vector<ui::DrawnHeatmap> drawnOf(const ui::App& app, core::TensorId tensor) {
    std::vector<ui::DrawnHeatmap> found;
    for (const ui::DrawnHeatmap& d : app.drawnHeatmaps()) {
        if (d.matrix.tensor == tensor) found.push_back(d);
    }
    return found;
}

}  // namespace

TEST_CASE("stage 0 at 1024x768 and 1280x800, presenting or not, 24 tokens: every box inside the window, ids and positions at the label floor") {
    for (Size size : kProjectorSizes) {
        for (bool presenting : {false, true}) {
            CAPTURE(size.width);
            CAPTURE(presenting);
            const Projector hall(size, presenting, core::StageId::Tokens);
            const std::vector<std::string>& tokens = hall.app().run()->tokens.at(0);
            REQUIRE(tokens.size() == 24);
            const std::vector<ui::DrawnToken>& drawn = hall.app().drawnTokens();
            REQUIRE(drawn.size() == tokens.size());
            for (std::size_t i = 0; i < drawn.size(); ++i) {
                CAPTURE(i);
                const ui::DrawnToken& box = drawn[i];
                CHECK(box.text == tokens[i]);
                CHECK(box.labelSize >= labelFloor(presenting));
                CHECK(box.min.x >= 0.0f);
                CHECK(box.max.x <= static_cast<float>(size.width));
                CHECK(box.max.y <= static_cast<float>(size.height));
                CHECK(box.max.y - box.min.y >= 2.0f * box.labelSize);  // the id and position lines fit in it
                if (i > 0) CHECK_FALSE(overlap(drawn[i - 1], box));
            }
        }
    }
}

TEST_CASE("stage 2 \"Q, K, V together\" at 1024x768 and 1280x800, presenting or not: X, the three weights and Q, K, V, no fallback") {
    using core::TensorId;
    for (Size size : kProjectorSizes) {
        for (const auto& [presenting, trained] : {std::pair{false, false}, std::pair{true, false}, std::pair{false, true}, std::pair{true, true}}) {
            CAPTURE(size.width);
            CAPTURE(presenting);
            CAPTURE(trained);
            const Projector hall(size, presenting, core::StageId::Project, trained);
            for (TensorId tensor : {TensorId::X, TensorId::WQ, TensorId::WK, TensorId::WV, TensorId::Q, TensorId::K, TensorId::V}) {
                CAPTURE(core::tensorInfo(tensor).key);
                CHECK(drawnOf(hall.app(), tensor).size() == 1);
            }
            float smallestRow = 1e9f;
            for (TensorId tensor : {TensorId::X, TensorId::Q, TensorId::K, TensorId::V}) {
                for (const ui::DrawnHeatmap& d : drawnOf(hall.app(), tensor)) smallestRow = std::min(smallestRow, (d.max.y - d.min.y) / static_cast<float>(d.rows));
            }
            CHECK(smallestRow >= 0.85f * labelFloor(presenting) - scene::kLabelSlack);
            for (TensorId weight : {TensorId::WQ, TensorId::WK, TensorId::WV}) {
                for (const ui::DrawnHeatmap& d : drawnOf(hall.app(), weight)) {
                    const float cellW = (d.max.x - d.min.x) / static_cast<float>(d.cols), cellH = (d.max.y - d.min.y) / static_cast<float>(d.rows);
                    CHECK(std::abs(cellW - cellH) < 0.01f);  // square cells: the shape reads true
                    CHECK(d.max.y - d.min.y >= 48.0f);
                    CHECK(d.max.x <= static_cast<float>(size.width));
                }
            }
        }
    }
}

TEST_CASE("the export dialog on stage 3's RoPE step writes the RoPE figure, as export --stage rope does") {
    ScratchDir out("rope-dialog");
    core::ModelSpec spec;
    spec.model = core::TrainedLayer{io::loadModelFolder(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/decoders/llama-gqa-llama3")};
    spec.sentences = {"the cat sat on the mat"};
    const core::ModelRun run = core::runModel(spec);
    ui::ExportRequest request{false, core::StageId::SplitHeads, 5, 0, out.path().string()};
    request.ropeStep = true;
    const std::string status = app::makeExportHook()(run, request);
    CHECK_MESSAGE(status.rfind("Wrote", 0) == 0, status);
    CHECK(std::filesystem::exists(out.path() / "03-rope-head5.png"));
    request.ropeStep = false;  // the split itself
    app::makeExportHook()(run, request);
    CHECK(std::filesystem::exists(out.path() / "03-split.png"));  // every head's tiles: no head in the name
}

}  // namespace attnviz::test
