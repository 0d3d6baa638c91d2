// fuzz_gui_text.cpp — libFuzzer entry point: any bytes (up to 1 MB: -max_len=1048576) as text the GUI draws, in
// headless Dear ImGui frames (a built font atlas, the null renderer, no window). The bytes are the sentence of the
// bundled trained model (its tokens' labels, the out-of-vocabulary notice naming its words, the quoted sentence, the
// sentence field, or the error when it does not fit), the status line, and a token label, a vertical label and a
// tooltip drawn through the app's own helpers. Issue 31: a long word aborted every frame ("Too many vertices in
// ImDrawList using 16-bit indices"); the windowless harness keeps that assertion for all of a window's vertices.
#include "../ui/imgui_harness.h"

#include "core/display_text.h"
#include "core/sentence_words.h"
#include "io/model_folder.h"
#include "ui/session/session_actions.h"
#include "ui/views/drawing.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace {

struct Gui {
    attnviz::test::ImGuiHarness harness;
    std::unique_ptr<attnviz::ui::App> app;

    Gui() {
        attnviz::ui::AppState state;
        attnviz::ui::useTrainedModel(attnviz::io::loadBundledModel(), state);
        app = std::make_unique<attnviz::ui::App>(std::move(state));
    }
};

// The out-of-vocabulary notice of a sentence whose every word is `text`, and the helpers' own text paths, in one
// window of their own.
void drawHelpers(const std::string& text) {
    using namespace attnviz;
    core::SentenceWord word{text, 1, 3, 2, false};
    const std::string notice = core::vocabularyNotice(core::vocabularyFit({word, word, word}));
    ImGui::NewFrame();
    ImGui::Begin("helpers");
    ImGui::TextWrapped("%s", core::clipped(notice).c_str());
    ImDrawList& list = *ImGui::GetWindowDrawList();
    ImFont* font = ImGui::GetFont();
    list.AddText(font, font->FontSize, {10, 10}, IM_COL32_WHITE, core::labelText(text).c_str());
    ui::addVerticalText(list, font, font->FontSize, {10, 400}, IM_COL32_WHITE, core::labelText(text));
    ImGui::TextUnformatted(ui::fitText(text, 200.0f, font, font->FontSize).c_str());
    ImGui::SetTooltip("%s", core::clipped(text).c_str());
    ImGui::End();
    ImGui::Render();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static Gui gui;
    const std::string text(reinterpret_cast<const char*>(data), size);
    drawHelpers(text);
    attnviz::ui::App& app = *gui.app;
    app.state().spec.sentences = {text};
    app.state().status = text;
    gui.harness.frame(app);  // the sentence as typed, its run started
    app.waitForRun();
    gui.harness.frames(app, 2);  // the run (or its error) on screen
    return 0;
}
