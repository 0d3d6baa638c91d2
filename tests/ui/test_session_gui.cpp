// test_session_gui.cpp — sessions driven like a user would, without a window: File requests and Ctrl+S/O answered
// in the built-in path field, weights loaded from a folder, cells double-clicked and typed into, Ctrl+Z/Ctrl+Y,
// a damaged file opened, an autosave restored. Assertions look at AppState, the run on screen, the files written
// and what was drawn (the edit marks are found among the frame's vertices by their color).
#include "app/gui_autosave.h"
#include "imgui_harness.h"
#include "io/model_library.h"
#include "io/npy.h"
#include "io/scratch_dir.h"
#include "ui/widgets/cell_editor.h"
#include "ui/views/matrix_info.h"
#include "ui/model_runner.h"
#include "ui/session/session_actions.h"
#include "ui/session/session_service.h"

#include <doctest/doctest.h>
#include <imgui_internal.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <thread>

namespace attnviz::test {
namespace {

namespace fs = std::filesystem;
using core::StageId;
using core::TensorId;

ui::AppState tinyState() {
    ui::AppState state;
    state.spec.sentences = {"the cat sat"};
    state.spec.attention.dModel = 8;
    state.spec.attention.heads = 2;
    return state;
}

void writeMatrix(const fs::path& file, int rows, int cols, float offset) {
    core::Tensor t({rows, cols});
    for (std::size_t i = 0; i < t.data.size(); ++i) t.data[i] = std::sin(static_cast<float>(i) * 0.37f + offset) * 0.5f;
    io::writeNpy(file, t);
}

// w_q … w_o for d_model 8 (any head count dividing 8), embeddings and a vocabulary of the tiny sentence.
fs::path writeWeightsFolder(const fs::path& dir) {
    const fs::path folder = dir / "trained";
    fs::create_directories(folder);
    writeMatrix(folder / "w_q.npy", 8, 8, 0.1f);
    writeMatrix(folder / "w_k.npy", 8, 8, 0.2f);
    writeMatrix(folder / "w_v.npy", 8, 8, 0.3f);
    writeMatrix(folder / "w_o.npy", 8, 8, 0.4f);
    writeMatrix(folder / "embeddings.npy", 4, 8, 0.5f);
    std::ofstream(folder / "vocab.txt") << "[UNK]\nthe\ncat\nsat\n";
    return folder;
}

// Types a path into the path field that a request or key has just asked for, and presses Enter.
void answerPath(ImGuiHarness& ui, ui::App& app, const fs::path& path) {
    ui.frame(app);  // the field appears and takes the keyboard
    ui.typeText(app, path.string());
    ui.pressKey(app, kKeyEnter);
    ui.frames(app, 2);
}

void request(ImGuiHarness& ui, ui::App& app, ui::SessionAction what) {
    app.state().session.request = {what};
    ui.frame(app);
}

bool windowShown(const char* id) {
    const ImGuiWindow* window = ImGui::FindWindowByName(id);
    return window != nullptr && window->Active;
}

// Whether a (non-modal) popup such as the cell editor is on screen.
bool popupShown() {
    for (const ImGuiWindow* window : GImGui->Windows) {
        if (window->Active && std::strncmp(window->Name, "##Popup_", 8) == 0) return true;
    }
    return false;
}

// Whether the last frame drew a vertex in the edit-mark color within `margin` pixels of the cell's rectangle.
bool markedNear(const ui::App& app, const ui::MatrixRef& ref, int row, int col, float margin = 2.0f) {
    for (const ui::DrawnHeatmap& d : app.drawnHeatmaps()) {
        if (!(d.matrix == ref)) continue;
        const float cw = (d.max.x - d.min.x) / static_cast<float>(d.cols), ch = (d.max.y - d.min.y) / static_cast<float>(d.rows);
        const ImVec2 a{d.min.x + static_cast<float>(col) * cw - margin, d.min.y + static_cast<float>(row) * ch - margin};
        const ImVec2 b{a.x + cw + 2 * margin, a.y + ch + 2 * margin};
        const ImDrawData* data = ImGui::GetDrawData();
        for (int l = 0; l < data->CmdListsCount; ++l) {
            for (const ImDrawVert& v : data->CmdLists[l]->VtxBuffer) {
                if (v.col == ui::kEditMarkColor && v.pos.x >= a.x && v.pos.x <= b.x && v.pos.y >= a.y && v.pos.y <= b.y) return true;
            }
        }
    }
    return false;
}

template <typename EigenMatrix>
bool sameValues(const EigenMatrix& a, const EigenMatrix& b) { return a.rows() == b.rows() && a.cols() == b.cols() && a == b; }

bool sameWeights(const core::Weights& a, const core::Weights& b) {
    return sameValues(a.wq, b.wq) && sameValues(a.wk, b.wk) && sameValues(a.wv, b.wv) && sameValues(a.wo, b.wo) &&
           sameValues(a.bq, b.bq) && sameValues(a.bk, b.bk) && sameValues(a.bv, b.bv) && sameValues(a.bo, b.bo);
}

// ==, with the loaded weights and embedding table (read twice: other pointers) compared by their numbers.
bool sameApartFromLoads(core::ModelSpec a, core::ModelSpec b) {
    core::SeededLayer &x = *a.seeded(), &y = *b.seeded();
    if (!x.embeddingTable || !y.embeddingTable || !sameValues(x.embeddingTable->rows, y.embeddingTable->rows) ||
        x.embeddingTable->index != y.embeddingTable->index || !x.customWeights || !y.customWeights ||
        !sameWeights(*x.customWeights, *y.customWeights)) {
        return false;
    }
    x.embeddingTable = y.embeddingTable;
    x.customWeights = y.customWeights;
    return a == b;
}

float runValue(const ui::App& app, TensorId tensor, int row, int col) {
    return ui::valueAt(ui::matrixSlice(*app.run(), {ui::MatrixSource::Trace, tensor, 0}, 0), row, col);
}

bool sameTensor(const core::Tensor& a, const core::Tensor& b) {
    return a.shape == b.shape && std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(float)) == 0;
}

// What a failed operation must leave exactly as it was.
struct Observable {
    core::ModelSpec spec;
    io::Session session;
    fs::path file;
    io::Session saved;
    std::string status;
};
Observable observe(const ui::App& app) {
    const ui::AppState& s = app.state();
    return {s.spec, ui::sessionOf(s), s.session.file, s.session.saved, s.status};
}
void checkUnchanged(const Observable& before, const ui::App& app) {
    const Observable now = observe(app);
    CHECK(now.spec == before.spec);
    CHECK(now.session == before.session);
    CHECK(now.file == before.file);
    CHECK(now.saved == before.saved);
    CHECK(now.status == before.status);
}

}  // namespace

TEST_CASE("Load weights, edit a cell, Save As, then Open in a fresh app: everything as it was") {
    const ScratchDir dir("session-gui");
    const fs::path weights = writeWeightsFolder(dir.path());
    const fs::path file = dir.path() / "lesson.json";
    ImGuiHarness ui;
    ui::AppState state = tinyState();
    state.stage = StageId::Project;
    ui::App app(state);
    ui.frame(app);

    request(ui, app, ui::SessionAction::LoadWeights);
    answerPath(ui, app, weights);
    REQUIRE(app.state().spec.seeded()->customWeights);
    CHECK(app.state().session.weightFiles.wq == weights / "w_q.npy");
    CHECK(app.state().status.find("Loaded W^Q, W^K, W^V, W^O and 4 embeddings from trained/.") == 0);
    CHECK(runValue(app, TensorId::WQ, 0, 0) == doctest::Approx(std::sin(0.1f) * 0.5f));
    CHECK(app.state().session.modified);

    app.state().spec.seeded()->cellEdits.push_back({TensorId::WQ, 0, 1, 2, 0.75f});
    app.state().spec.attention.mask = core::MaskKind::Causal;
    app.state().head = 1;
    app.state().diverging = colormap::Colormap::RdBu;
    ui.frames(app, 2);

    ImGui::GetIO().KeyShift = true;
    ui.pressKey(app, 'S', true);  // Ctrl+Shift+S
    ImGui::GetIO().KeyShift = false;
    answerPath(ui, app, file);
    REQUIRE(fs::exists(file));
    CHECK(app.state().session.file == file);
    CHECK_FALSE(app.state().session.modified);
    CHECK(ui::windowTitle(app.state()) == "lesson.json — attnviz");
    CHECK(app.state().session.recent.front() == file);

    ui::App reopened(ui::AppState{});  // a fresh app (in the same ImGui context)
    ui.frame(reopened);
    ui.pressKey(reopened, 'O', true);
    answerPath(ui, reopened, file);
    reopened.waitForRun();
    ui.frame(reopened);
    const ui::AppState& s = reopened.state();
    CHECK(s.session.file == file);
    CHECK_FALSE(s.session.modified);
    CHECK(sameApartFromLoads(s.spec, app.state().spec));
    CHECK(s.spec.seeded()->cellEdits == app.state().spec.seeded()->cellEdits);
    CHECK(s.session.weightFiles == app.state().session.weightFiles);
    CHECK(s.stage == StageId::Project);
    CHECK(s.head == 1);
    CHECK(s.diverging == colormap::Colormap::RdBu);
    REQUIRE(reopened.run() != nullptr);
    for (TensorId t : {TensorId::X, TensorId::WQ, TensorId::Q, TensorId::AttentionWeights, TensorId::Output}) {
        CHECK_MESSAGE(sameTensor(reopened.run()->trace[t], app.run()->trace[t]), core::tensorInfo(t).key);
    }
    CHECK(markedNear(reopened, traceRef(TensorId::WQ), 1, 2));
    CHECK_FALSE(markedNear(reopened, traceRef(TensorId::WQ), 5, 5));
}

TEST_CASE("a folder of weights: d_model follows W^Q's rows — missing or incomplete folders are named") {
    const ScratchDir dir("weights-folder");
    const fs::path folder = writeWeightsFolder(dir.path());
    core::ModelSpec wide;  // d_model 64, 8 heads: 8 divides 8, so the 8-wide layer fits after d_model follows
    const ui::LoadedWeights loaded = ui::loadWeightsFolder(wide, folder / "w_q.npy");  // a file names its folder
    CHECK(loaded.spec.attention.dModel == 8);
    CHECK(loaded.spec.attention.heads == 8);
    CHECK(loaded.summary.find("d_model 64 → 8 to fit them") != std::string::npos);
    CHECK(loaded.files.vocabulary == folder / "vocab.txt");
    REQUIRE(loaded.spec.seeded()->embeddingTable);
    CHECK(loaded.spec.seeded()->embeddingTable->unknownRow == 0);

    CHECK_THROWS_WITH_AS(ui::loadWeightsFolder(wide, dir.path()), doctest::Contains("holds none of w_q.npy"), io::FileError);
    fs::remove(folder / "w_o.npy");
    CHECK_THROWS_WITH_AS(ui::loadWeightsFolder(wide, folder), doctest::Contains("w_q is given but w_o is not"), io::FileError);
}

TEST_CASE("double-click a W^Q cell, type a value: Q follows at once, the cell is marked, Esc and bad values change nothing") {
    ImGuiHarness ui;
    ui::AppState state = tinyState();
    state.stage = StageId::Project;
    ui::App app(state);
    ui.frame(app);
    const core::Tensor qBefore = app.run()->trace[TensorId::Q];
    CHECK_FALSE(markedNear(app, traceRef(TensorId::WQ), 1, 2));

    const auto cell = cellCentre(app, traceRef(TensorId::WQ), 1, 2);
    REQUIRE(cell);
    ui.doubleClick(app, *cell);
    ui.typeText(app, "2.5");
    ui.pressKey(app, kKeyEnter);
    ui.frame(app);
    REQUIRE(app.state().spec.seeded()->cellEdits.size() == 1);
    CHECK(app.state().spec.seeded()->cellEdits[0] == core::CellEdit{TensorId::WQ, 0, 1, 2, 2.5f});
    CHECK(runValue(app, TensorId::WQ, 1, 2) == 2.5f);
    const core::Tensor& q = app.run()->trace[TensorId::Q];
    for (int row = 0; row < 3; ++row) {  // Q = X W^Q: column 2 changes in every row, the others do not
        CHECK(q.data[static_cast<std::size_t>(row * 8 + 2)] != qBefore.data[static_cast<std::size_t>(row * 8 + 2)]);
        CHECK(q.data[static_cast<std::size_t>(row * 8 + 3)] == qBefore.data[static_cast<std::size_t>(row * 8 + 3)]);
    }
    CHECK(markedNear(app, traceRef(TensorId::WQ), 1, 2));
    CHECK(app.state().session.undoLabel == "W^Q[1, 2] = 2.5");
    CHECK(app.state().pinned == ui::CellRef{traceRef(TensorId::WQ), 1, 2});  // the double-click kept the first click's pin

    const auto other = cellCentre(app, traceRef(TensorId::WQ), 0, 0);
    REQUIRE(other);
    ui.doubleClick(app, *other);
    CHECK(popupShown());
    ui.typeText(app, "9");
    ui.pressKey(app, kKeyEscape);
    ui.frame(app);
    CHECK(app.state().spec.seeded()->cellEdits.size() == 1);

    ui.doubleClick(app, *other);
    ui.typeText(app, "1e999");
    ui.pressKey(app, kKeyEnter);
    CHECK(app.state().spec.seeded()->cellEdits.size() == 1);  // too large for a float: refused, the field stays open
    CHECK(popupShown());
    ui.pressKey(app, kKeyEscape);

    const auto x = cellCentre(app, traceRef(TensorId::Q), 0, 0);  // a result: not editable, and says why
    REQUIRE(x);
    ui.doubleClick(app, *x);
    CHECK(app.state().status.find("Only cells of X, W^Q, W^K, W^V and W^O") == 0);
    CHECK_FALSE(popupShown());
}

TEST_CASE("Ctrl+Z and Ctrl+Y: change heads, edit a cell, undo twice, redo once") {
    ImGuiHarness ui;
    ui::AppState state = tinyState();
    state.stage = StageId::Project;
    ui::App app(state);
    ui.frame(app);
    app.state().spec.attention.heads = 4;  // what the heads combo does
    ui.frames(app, 2);
    const auto cell = cellCentre(app, traceRef(TensorId::X), 0, 3);
    REQUIRE(cell);
    ui.doubleClick(app, *cell);
    ui.typeText(app, "-1");
    ui.pressKey(app, kKeyEnter);
    ui.frame(app);
    REQUIRE(app.state().spec.seeded()->cellEdits.size() == 1);
    CHECK(markedNear(app, traceRef(TensorId::X), 0, 3));

    ui.pressKey(app, 'Z', true);
    CHECK(app.state().spec.seeded()->cellEdits.empty());
    CHECK(app.state().spec.attention.heads == 4);
    CHECK(app.state().status == "Undone: X[0, 3] = -1");
    ui.pressKey(app, 'Z', true);
    CHECK(app.state().spec.attention.heads == 2);
    CHECK(app.run()->trace.dims.heads == 2);
    ui.pressKey(app, 'Y', true);
    CHECK(app.state().spec.attention.heads == 4);
    CHECK(app.state().spec.seeded()->cellEdits.empty());
    CHECK(app.run()->trace.dims.heads == 4);
    CHECK(app.state().session.undoLabel == "heads 2 → 4");
    CHECK(app.state().session.redoLabel == "X[0, 3] = -1");
    ImGui::GetIO().KeyShift = true;
    ui.pressKey(app, 'Z', true);  // Ctrl+Shift+Z redoes too
    ImGui::GetIO().KeyShift = false;
    REQUIRE(app.state().spec.seeded()->cellEdits.size() == 1);
    CHECK(runValue(app, TensorId::X, 0, 3) == -1.0f);
}

TEST_CASE("typing a sentence is undone word by word, not key by key") {
    ImGuiHarness ui;
    ui::AppState state = tinyState();
    ui::App app(state);
    ui.frame(app);
    ui.pressKey(app, 'L', true);
    ui.frame(app);
    ui.pressKey(app, kKeyEnd);
    ui.typeText(app, " on it");
    ui.pressKey(app, 'Z', true);  // the field has the keyboard: its own undo, not the app's
    ui.pressKey(app, kKeyEnter);  // leaves the field
    ui.frame(app);
    const std::string typed = app.state().spec.sentences[0];
    CHECK(app.state().session.undoLabel == "sentence “" + typed + "”");
    int steps = 0;
    while (app.state().spec.sentences[0] != "the cat sat" && steps < 10) {
        ui.pressKey(app, 'Z', true);
        ++steps;
    }
    CHECK(steps <= 4);  // " ", "on ", "it" (or fewer): never one per key
    CHECK(app.state().spec.sentences[0] == "the cat sat");
}

TEST_CASE("edits that no longer fit are dropped with a note, and come back with undo") {
    ImGuiHarness ui;
    ui::AppState state = tinyState();
    state.spec.seeded()->cellEdits = {{TensorId::X, 0, 2, 0, 1.0f}, {TensorId::WO, 0, 7, 7, 1.0f}};
    ui::App app(state);
    ui.frame(app);
    app.state().spec.sentences = {"the cat"};  // row 2 of X is gone
    ui.frames(app, 2);
    CHECK(app.state().spec.seeded()->cellEdits == std::vector<core::CellEdit>{{TensorId::WO, 0, 7, 7, 1.0f}});
    CHECK(app.state().status.find("Dropped 1 cell edit") == 0);
    CHECK(app.error().empty());
    app.state().spec.attention.dModel = 4;
    ui.frames(app, 2);
    CHECK(app.state().spec.seeded()->cellEdits.empty());
    ui.pressKey(app, 'Z', true);
    ui.pressKey(app, 'Z', true);
    CHECK(app.state().spec.seeded()->cellEdits.size() == 2);
}

TEST_CASE("a damaged session file or unfitting weights leave everything as it was and say why") {
    const ScratchDir dir("session-bad");
    const fs::path bad = dir.path() / "bad.json";
    std::ofstream(bad) << R"({"schema_version": 1, "inputs": {"heads": 1000000000)";
    ImGuiHarness ui;
    ui::AppState state = tinyState();
    state.spec.seeded()->cellEdits = {{TensorId::WK, 0, 0, 1, 3.0f}};
    state.stage = StageId::Softmax;
    ui::App app(state);  // its own baseline: nothing unsaved, so Open asks no question
    ui.frame(app);
    const Observable before = observe(app);

    ui.pressKey(app, 'O', true);
    answerPath(ui, app, bad);
    CHECK(windowShown("###session error"));
    checkUnchanged(before, app);
    ui.pressKey(app, kKeyEscape);
    CHECK_FALSE(windowShown("###session error"));

    const fs::path weights = writeWeightsFolder(dir.path());
    writeMatrix(weights / "w_k.npy", 8, 6, 0.0f);  // W^K must be 8 × 8
    request(ui, app, ui::SessionAction::LoadWeights);
    answerPath(ui, app, weights);
    CHECK(windowShown("###session error"));
    checkUnchanged(before, app);
    ui.pressKey(app, kKeyEscape);

    app.state().spec.seeded()->seed = 9;  // now there is something to lose: Open asks first, Esc keeps it
    ui.frames(app, 2);
    ui.pressKey(app, 'O', true);
    CHECK(windowShown("###unsaved changes"));
    ui.pressKey(app, kKeyEscape);
    ui.frame(app);
    CHECK_FALSE(windowShown("###unsaved changes"));
    CHECK_FALSE(windowShown("###session path"));
    CHECK(app.state().spec.seeded()->seed == 9);
}

TEST_CASE("an autosave left by a crash is offered, and Restore brings it back as unsaved changes") {
    const ScratchDir dir("session-restore");
    io::Session crashed = ui::sessionOf(tinyState());
    crashed.heads = 4;
    crashed.edits = {{TensorId::WV, 0, 2, 3, -0.5f}};
    io::saveSession(dir.path() / "autosave.json", crashed);
    ImGuiHarness ui;
    ui::AppState state = tinyState();
    state.session.restoreOffer = ui::RestoreOffer{dir.path() / "autosave.json", {}, "Tue 14:32"};
    ui::App app(state);
    ui.frame(app);
    CHECK(windowShown("###restore session"));
    ui.pressKey(app, kKeyEnter);  // Restore
    ui.frame(app);
    CHECK_FALSE(app.state().session.restoreOffer);
    CHECK(app.state().spec.attention.heads == 4);
    CHECK(app.state().spec.seeded()->cellEdits == crashed.edits);
    CHECK(app.state().session.modified);
    CHECK(ui::windowTitle(app.state()) == "untitled • — attnviz");
    CHECK(app.state().status == "Restored the unsaved session from Tue 14:32.");
}

TEST_CASE("an autosave left by a logout (a signal) is restored without asking, and the status line says so") {
    const ScratchDir dir("session-restore-signal");
    io::Session ended = ui::sessionOf(tinyState());
    ended.heads = 4;
    io::saveSession(dir.path() / "autosave.json", ended);
    ImGuiHarness ui;
    ui::AppState state = tinyState();
    state.session.restoreOffer = ui::RestoreOffer{dir.path() / "autosave.json", {}, "Tue 14:32", true};
    ui::App app(state);
    ui.frame(app);
    CHECK_FALSE(windowShown("###restore session"));
    ui.frame(app);
    CHECK_FALSE(windowShown("###restore session"));
    CHECK_FALSE(app.state().session.restoreOffer);
    CHECK(app.state().spec.attention.heads == 4);
    CHECK(app.state().session.modified);
    CHECK(app.state().status == "Restored the unsaved changes of Tue 14:32, when attnviz was closed by logout or shutdown.");
}

TEST_CASE("inputs on the command line win over a logout's autosave, which waits in File ▸ Recover") {
    const ScratchDir dir("session-recover");
    io::Session ended = ui::sessionOf(tinyState());
    ended.heads = 4;
    io::saveSession(dir.path() / "autosave.json", ended);
    const ui::RestoreOffer found{dir.path() / "autosave.json", {}, "Tue 14:32", true};
    CHECK_FALSE(app::offerAtStart(found, false)->onlyOnRequest);  // no inputs typed: restored as before
    ImGuiHarness ui;
    ui::AppState state = tinyState();  // what `attnviz --sentence … --heads 2` asked for
    state.session.restoreOffer = app::offerAtStart(found, true);
    ui::App app(state);
    ui.frames(app, 3);
    CHECK_FALSE(windowShown("###restore session"));
    CHECK(app.state().spec.attention.heads == tinyState().spec.attention.heads);  // the command line's inputs
    REQUIRE(app.state().session.restoreOffer);  // still one menu item away

    app.state().session.request = {ui::SessionAction::Recover};  // File ▸ Recover unsaved changes of Tue 14:32
    ui.frame(app);
    CHECK_FALSE(app.state().session.restoreOffer);
    CHECK(app.state().spec.attention.heads == 4);
    CHECK(app.state().session.modified);
}

}  // namespace attnviz::test

namespace attnviz::test {

TEST_CASE("closing with unsaved changes asks: Cancel keeps the app open, Save saves and then closes") {
    const ScratchDir dir("session-close");
    const fs::path file = dir.path() / "lesson.json";
    ui::AppState state = tinyState();
    state.session.file = file;
    state.session.saved = ui::sessionOf(state);
    ImGuiHarness ui;
    ui::App app(state);
    ui.frame(app);
    CHECK(ui::mayClose(app.state()));
    app.state().spec.seeded()->seed = 5;
    ui.frames(app, 2);
    CHECK_FALSE(ui::mayClose(app.state()));

    app.state().session.closeRequested = true;  // what gui_main does when the window is closed now
    ui.frame(app);
    CHECK(windowShown("###close with changes"));
    ui.pressKey(app, kKeyEscape);  // Cancel
    CHECK_FALSE(windowShown("###close with changes"));
    CHECK_FALSE(app.state().quitRequested);
    CHECK_FALSE(fs::exists(file));

    app.state().session.closeRequested = true;
    ui.frame(app);
    ui.pressKey(app, kKeyEnter);  // Save
    ui.frames(app, 2);
    REQUIRE(fs::exists(file));
    CHECK(io::loadSession(file).seed == 5);
    CHECK(app.state().quitRequested);
    CHECK(ui::mayClose(app.state()));
}

}  // namespace attnviz::test

namespace attnviz::test {
namespace {

// Model folders open in the background (io::ModelLibrary): frames until the open is over (at most 10 s).
// The opening thread runs at the lowest priority: on a loaded machine a small folder can take seconds.
void untilModelOpened(ImGuiHarness& ui, ui::App& app) {
    for (int i = 0; i < 6000 && !app.state().session.openingModel.empty(); ++i) {
        ui.frame(app);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    REQUIRE_MESSAGE(app.state().session.openingModel.empty(), "the model folder did not open within a minute");
    ui.frames(app, 2);
}

}  // namespace

TEST_CASE("File ▸ Open model…'s path field judges a folder as a model folder, not as a folder of .npy weights") {
    const ScratchDir dir("session-model-check");
    const fs::path models = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models";
    for (const char* folder : {"gpt2-hf-names", "bert-original-names", "bert-plain-f16"}) {
        const ui::FolderCheck check = ui::checkModelFolder(models / folder);
        CAPTURE(folder);
        CHECK_FALSE(check.problem);
        CHECK(check.text.find("w_q.npy") == std::string::npos);
    }
    CHECK(ui::checkModelFolder(writeWeightsFolder(dir.path())).problem);  // .npy weights are not a model folder
    CHECK(ui::checkModelFolder(dir.path() / "nowhere").problem);
}

TEST_CASE("File ▸ Open model…: a typed folder opens the model, a bad one says why and keeps the open one — a session remembers it") {
    const ScratchDir dir("session-model");
    ImGuiHarness ui;
    ui::App app(tinyState());
    ui.frame(app);
    const fs::path models = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models";

    request(ui, app, ui::SessionAction::OpenModel);
    answerPath(ui, app, dir / "not-a-model");
    untilModelOpened(ui, app);
    CHECK(windowShown("###session error"));
    CHECK(app.state().spec.trainedModel() == nullptr);
    ui.pressKey(app, kKeyEscape);

    request(ui, app, ui::SessionAction::OpenModel);
    answerPath(ui, app, models / "gpt2-hf-names");
    untilModelOpened(ui, app);
    REQUIRE(app.state().spec.trainedModel() != nullptr);
    CHECK(app.state().spec.trainedModel()->name == "gpt2-hf-names");
    CHECK(app.state().session.recentModels.front() == models / "gpt2-hf-names");
    app.waitForRun();
    ui.frames(app, 2);
    REQUIRE(app.run() != nullptr);
    CHECK(app.run()->trace.mask == core::MaskKind::Causal);

    app.state().spec.trained()->layer = 2;
    ui.frames(app, 2);
    ui.pressKey(app, 'S', true);
    answerPath(ui, app, dir / "gpt2-lesson.json");
    const io::Session saved = io::loadSession(dir / "gpt2-lesson.json");
    CHECK(saved.model.source == io::ModelChoice::Source::Folder);
    CHECK(saved.model.folder == models / "gpt2-hf-names");
    CHECK(saved.model.layer == 2);

    request(ui, app, ui::SessionAction::UseRandomModel);
    CHECK(app.state().spec.trainedModel() == nullptr);
    CHECK(app.state().spec.attention.dModel == 64);

    // Opening the session opens its model through the model library: on the worker, and the very model still held.
    const std::shared_ptr<const core::TrainedModel> held = io::ModelLibrary().openNow(models / "gpt2-hf-names");
    app.state().session.saved = ui::sessionOf(app.state());  // nothing unsaved: no question first
    ui.frame(app);
    app.state().session.request = {ui::SessionAction::OpenRecent, dir / "gpt2-lesson.json"};
    ui.frame(app);
    CHECK(app.state().session.openingModel == models / "gpt2-hf-names");
    CHECK(app.state().spec.trainedModel() == nullptr);  // not yet: the session waits for its model
    untilModelOpened(ui, app);
    REQUIRE(app.state().spec.trained() != nullptr);
    CHECK(app.state().spec.trained()->model == held);
    CHECK(app.state().spec.trained()->layer == 2);
    CHECK(app.state().session.file == dir / "gpt2-lesson.json");
    CHECK_FALSE(app.state().session.modified);
}

}  // namespace attnviz::test

namespace attnviz::test {

TEST_CASE("the session service works without ImGui: Save, then Open of a session naming a model folder, which opens on the worker") {
    REQUIRE(ImGui::GetCurrentContext() == nullptr);
    const ScratchDir dir("session-service");
    const fs::path folder = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models/gpt2-hf-names";
    ui::AppState state;
    ui::useTrainedModel(io::ModelLibrary().openNow(folder), state);
    state.spec.sentences = {"the cat sat"};
    ui::SessionService service(state);
    state.session.request = {ui::SessionAction::Save};
    service.perform(state);
    REQUIRE(service.pathQuestion().has_value());  // untitled, no native chooser: the dialogs' path field asks
    service.answerPath(dir / "lesson.json", state);
    CHECK(state.session.file == dir / "lesson.json");
    CHECK_FALSE(service.problem().has_value());

    ui::AppState other;
    ui::SessionService opener(other);
    other.session.request = {ui::SessionAction::OpenRecent, dir / "lesson.json"};
    opener.perform(other);
    CHECK(opener.openingModel() == folder);
    for (int i = 0; i < 1000 && opener.openingModel(); ++i) {
        opener.receiveModel(other);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    opener.receiveModel(other);
    opener.endFrame(other, 0.0f);
    REQUIRE(other.spec.trainedModel() != nullptr);
    CHECK(other.spec.trainedModel() == state.spec.trainedModel());  // shared by the model library
    CHECK(other.spec.sentences == state.spec.sentences);
    CHECK(other.session.file == dir / "lesson.json");
    CHECK_FALSE(other.session.modified);
}

}  // namespace attnviz::test
