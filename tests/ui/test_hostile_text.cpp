// test_hostile_text.cpp — text nobody would type, pasted anyway (issue 31): one word of 20,000 characters, 100,000
// emoji, 2,048 tokens of long words, a message of megabytes. Each must draw in the windowless harness — which allows
// 65,536 vertices a window (Debian's ImGui has 16-bit indices), a draw command with the real backend's vertex offsets
// — so no label, notice, tooltip or dialog hands Dear ImGui unbounded text. Each failed before (SIGABRT).
#include "imgui_harness.h"
#include "io/atomic_file.h"
#include "io/model_folder.h"
#include "ui/model_runner.h"
#include "ui/session/session_actions.h"
#include "ui/views/sentence_notes.h"

#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <string>

namespace attnviz::test {
namespace {

std::string repeated(const std::string& piece, int times) {
    std::string text;
    for (int i = 0; i < times; ++i) text += piece;
    return text;
}

// Every stage drawn, with the mouse over the middle of the window (its tooltips) and the status line.
void drawEveryStage(ImGuiHarness& ui, ui::App& app) {
    for (int stage = 0; stage < core::kStageCount; ++stage) {
        app.state().stage = static_cast<core::StageId>(stage);
        ui.hover(app, ImVec2(800, 500));
    }
}

}  // namespace

TEST_CASE("hostile text: a sentence holding one 20,000-character word draws every stage, seeded and trained") {
    const std::string word = repeated("ACGT", 5'000);
    SUBCASE("the seeded layer (the word is one token)") {
        ImGuiHarness ui;
        ui::AppState state;
        state.spec.sentences = {"The " + word + " sat."};
        ui::App app(std::move(state));
        settle(ui, app);
        REQUIRE(app.run() != nullptr);
        drawEveryStage(ui, app);
    }
    SUBCASE("the bundled model (the word is outside its vocabulary: the notice names it)") {
        ImGuiHarness ui;
        ui::AppState state = bundledState();
        state.spec.tokenLimit = 2048;
        state.spec.sentences = {"The " + word + " sat."};
        ui::App app(std::move(state));
        settle(ui, app);
        REQUIRE(app.run() != nullptr);
        const std::string notice = ui::vocabularyNoticeOf(*app.run(), 0);
        CHECK(notice.find("acgtacgt") != std::string::npos);  // as the uncased vocabulary spells it
        CHECK(notice.size() < 300);  // the word as echoed: 80 characters and "…"
        drawEveryStage(ui, app);
    }
}

namespace {

// The bundled model's tokenizer, counting how often the app asks it to encode.
class CountingTokenizer : public core::Tokenizer {
public:
    explicit CountingTokenizer(std::shared_ptr<const core::Tokenizer> inner) : inner_(std::move(inner)) {}
    using core::Tokenizer::encode;
    core::Encoding encode(std::string_view text, std::size_t maxTokens) const override {
        ++encodes;
        return inner_->encode(text, maxTokens);
    }
    int vocabularySize() const override { return inner_->vocabularySize(); }
    std::string pieceOf(int id) const override { return inner_->pieceOf(id); }
    std::string name() const override { return inner_->name(); }
    mutable std::atomic<int> encodes{0};

private:
    std::shared_ptr<const core::Tokenizer> inner_;
};

}  // namespace

TEST_CASE("hostile text: a pasted megabyte is tokenized once for the notes, not again at every frame") {
    // The gui_text fuzzer's finding (issue 31): a sentence of one 1 MB word (one [UNK] to BERT, so the run keeps it)
    // was tokenized again two or three times a frame for the out-of-vocabulary notice, 47-66 s a frame under ASan.
    auto model = std::make_shared<core::TrainedModel>(*io::loadBundledModel());
    auto counting = std::make_shared<CountingTokenizer>(model->tokenizer);
    model->tokenizer = counting;
    ImGuiHarness ui;
    ui::AppState state;
    ui::useTrainedModel(model, state);
    state.spec.sentences = {std::string(100'000, 'A')};
    state.stage = core::StageId::Tokens;  // the notice in the stage text and in the controls
    ui::App app(std::move(state));
    settle(ui, app);
    REQUIRE(app.run() != nullptr);
    REQUIRE(app.run()->spec.sentences.front().size() == 100'000);
    REQUIRE(ui::vocabularyNoticeOf(*app.run(), 0).find("Outside the vocabulary") != std::string::npos);
    const int before = counting->encodes;
    ui.frames(app, 10);
    CHECK(counting->encodes == before);  // before: 2 or more a frame
}

TEST_CASE("hostile text: a pasted megabyte is not tokenized on the UI thread to choose where it is computed") {
    // The gui_text replay of a 1 MB base64 blob (issue 31): computesInstantly tokenized every sentence on the UI
    // thread to count its tokens (5 s of WordPiece a keystroke at -O3), then the worker tokenized it again.
    auto model = std::make_shared<core::TrainedModel>(*io::loadBundledModel());
    auto counting = std::make_shared<CountingTokenizer>(model->tokenizer);
    model->tokenizer = counting;
    ui::AppState state;
    ui::useTrainedModel(model, state);
    state.spec.sentences = {std::string(100'000, 'A')};  // one [UNK]: few tokens, but only tokenizing says so
    CHECK_FALSE(ui::computesInstantly(state.spec));
    CHECK(counting->encodes == 0);  // before: 1, and computed inline
    state.spec.sentences = {"the cat sat on the mat"};
    CHECK(ui::computesInstantly(state.spec));
}

TEST_CASE("hostile text: 100,000 emoji in one word draw every stage") {
    ImGuiHarness ui;
    ui::AppState state;
    state.spec.sentences = {"a " + repeated("\U0001F600", 100'000) + " b"};
    ui::App app(std::move(state));
    settle(ui, app);
    drawEveryStage(ui, app);
}

TEST_CASE("hostile text: 2,048 tokens of 40-character words draw every stage (labels are cut, not the window)") {
    ImGuiHarness ui;
    // As the OpenGL 3 backend says on GL >= 3.2 (attnviz asks for 3.3): a window may pass 65,536 vertices in
    // several draw commands; one command, and so one text, may not.
    ImGui::GetIO().BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
    ui::AppState state;
    state.spec.tokenLimit = core::kMaxTokenLimit;
    std::string sentence;
    for (int i = 0; i < core::kMaxTokenLimit; ++i) sentence += repeated(std::string(1, static_cast<char>('a' + i % 26)), 40) + " ";
    state.spec.sentences = {sentence};
    ui::App app(std::move(state));
    settle(ui, app);
    REQUIRE(app.run() != nullptr);
    CHECK(app.run()->tokens.front().size() == static_cast<std::size_t>(core::kMaxTokenLimit));
    drawEveryStage(ui, app);
}

TEST_CASE("hostile text: a message of 4 MB is cut where it is made and where it is shown") {
    const std::string huge = "bad value " + repeated("x", 4'000'000);
    CHECK(std::string(io::FileError(huge).what()).size() < 3 * core::limits::kMaxShownCharacters);
    CHECK(std::string(core::InputError(huge).what()).size() < 3 * core::limits::kMaxShownCharacters);
    ImGuiHarness ui;
    ui::AppState state;
    state.status = huge;  // the status line (an export's answer, the remembered model's error)
    ui::App app(std::move(state));
    settle(ui, app);
    ImGui::GetIO().MousePos = ImVec2(10, 10);
    ui.frames(app, 3);
}

}  // namespace attnviz::test
