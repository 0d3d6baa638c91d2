// test_wide_characters.cpp — characters beyond U+FFFF (emoji) survive the sentence field: kept while the field is
// edited, typed through the keyboard path the window uses (ui::typeCharacter), and pasted (the wrapped clipboard),
// as the command line keeps them. Debian's 16-bit ImGui turned each into U+FFFD before ui/widgets/wide_characters.
#include "imgui_harness.h"
#include "ui/widgets/wide_characters.h"

#include <doctest/doctest.h>

#include <string>

namespace attnviz::test {
namespace {

const std::string kGrinning = "\xF0\x9F\x98\x80";  // 😀 U+1F600
const std::string kSmiling = "\xF0\x9F\x99\x82";   // 🙂 U+1F642

const char* fakeClipboard(void*) { return "\xF0\x9F\x99\x82 ok"; }  // "🙂 ok"

// An app whose sentence field has the keyboard, the cursor at the end of `sentence`.
struct FieldApp {
    ImGuiHarness ui;
    ui::App app{ui::AppState{}};
    explicit FieldApp(const std::string& sentence) {
        app.state().spec.sentences = {sentence};
        app.state().focusSentence = true;
        ui.frames(app, 2);
        ui.pressKey(app, kKeyEnd);
    }
    const std::string& sentence() { return app.state().spec.sentences.front(); }
};

}  // namespace

TEST_CASE("wide characters: stand-ins within 16 bits, the same one each time, and back to the very characters") {
    const std::string text = "I \xE2\x9D\xA4 " + kGrinning + " and \xF0\x9D\x95\x8F, caf\xC3\xA9";  // ❤ (BMP), 😀, 𝕏
    const std::string field = ui::withStandIns(text);
    CHECK(field != text);
    for (std::size_t i = 0; i < field.size(); ++i) CHECK(static_cast<unsigned char>(field[i]) < 0xF0);  // no 4-byte UTF-8
    CHECK(ui::withStandIns(text) == field);
    CHECK(ui::withoutStandIns(field) == text);
    CHECK(ui::standInFor(U'é') == U'é');
    CHECK(ui::standInFor(0x1F600) <= 0xFFFF);
}

TEST_CASE("the sentence field keeps emoji while it is edited, typed and pasted, as the command line does") {
    FieldApp t("I love " + kGrinning);
    t.ui.typeText(t.app, " x");
    CHECK(t.sentence() == "I love " + kGrinning + " x");  // editing kept the emoji already there

    ui::typeCharacter(0x1F642);  // what GLFW's character callback reports for a typed 🙂
    t.ui.frame(t.app);
    CHECK(t.sentence() == "I love " + kGrinning + " x" + kSmiling);

    ImGuiIO& io = ImGui::GetIO();
    io.GetClipboardTextFn = fakeClipboard;
    io.KeyMap[ImGuiKey_V] = 'V';
    ui::keepWideCharactersOnClipboard();
    t.ui.pressKey(t.app, 'V', true);  // Ctrl+V
    CHECK(t.sentence() == "I love " + kGrinning + " x" + kSmiling + kSmiling + " ok");
    t.app.waitForRun();
    t.ui.frame(t.app);
    REQUIRE(t.app.run() != nullptr);
    CHECK(t.app.run()->spec.sentences.front() == t.sentence());  // the run tokenizes the real characters
}

}  // namespace attnviz::test
