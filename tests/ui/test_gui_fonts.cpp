// test_gui_fonts.cpp — the font atlas grows with the text on screen: Latin, Greek and Cyrillic are there from
// the start, a new character rebuilds the atlas once (not every frame), and characters DejaVu lacks or that
// do not fit a 16-bit ImWchar draw the visible fallback "�" instead of failing.
#include "app/gui_fonts.h"

#include <doctest/doctest.h>
#include <imgui.h>

namespace attnviz::test {
namespace {

struct Context {
    Context() { ImGui::CreateContext(); }
    ~Context() { ImGui::DestroyContext(); }
};

}  // namespace

TEST_CASE("the base ranges cover Latin, Greek, Cyrillic and the UI's math signs") {
    const Context context;
    app::GuiFonts fonts(16.0f);
    REQUIRE(fonts.fonts().regular != nullptr);
    CHECK(fonts.fonts().small->FontSize < fonts.fonts().regular->FontSize);
    CHECK(fonts.fonts().large->FontSize > fonts.fonts().regular->FontSize);
    for (const ImWchar c : {ImWchar('A'), ImWchar(0xE9), ImWchar(0x3B1), ImWchar(0x416), ImWchar(0x221A), ImWchar(0x1D40), ImWchar(0x2082)}) {
        CHECK_MESSAGE(fonts.fonts().regular->FindGlyphNoFallback(c) != nullptr, "U+", std::hex, static_cast<int>(c));
    }
    CHECK_FALSE(fonts.cover({"Η γάτα · Кошка · naïve √d_k"}));
}

TEST_CASE("a new character rebuilds the atlas once; a missing glyph draws the fallback") {
    const Context context;
    app::GuiFonts fonts(16.0f);
    CHECK(fonts.cover({"ש"}));         // Hebrew: DejaVu has it, the base ranges do not
    CHECK(fonts.fonts().regular->FindGlyphNoFallback(0x5E9) != nullptr);
    CHECK_FALSE(fonts.cover({"ש"}));   // once only
    fonts.cover({"猫 🐱"});            // no CJK in DejaVu; the cat face is beyond 16-bit ImWchar
    CHECK_FALSE(fonts.cover({"猫 🐱"}));
    const ImFontGlyph* glyph = fonts.fonts().regular->FindGlyph(0x732B);
    REQUIRE(glyph != nullptr);
    CHECK(glyph->Codepoint == 0xFFFD);
}

}  // namespace attnviz::test
