// test_gui_fonts.cpp — the font atlas grows with the text on screen: Latin, Greek and Cyrillic are there from
// the start, a new character rebuilds the atlas once (not every frame), characters DejaVu lacks come from the
// fallback fonts (CJK, Hangul, Devanagari, Thai) and only those in use, and a character no font has draws the
// visible fallback "�" instead of failing. The display font holds ASCII and ␣ only, large.
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

TEST_CASE("the display font for stage 0's grown words: the large face at kDisplayScale its size, ASCII and the space mark only") {
    const Context context;
    app::GuiFonts fonts(16.0f);
    const ImFont* display = fonts.fonts().display;
    REQUIRE(display != nullptr);
    CHECK(display->FontSize >= ui::kDisplayScale * fonts.fonts().large->FontSize - 1.0f);
    for (const ImWchar c : {ImWchar('A'), ImWchar('#'), ImWchar('~'), ImWchar(0x2423)}) {
        CHECK_MESSAGE(display->FindGlyphNoFallback(c) != nullptr, "U+", std::hex, static_cast<int>(c));
    }
    CHECK(display->FindGlyphNoFallback(0xE9) == nullptr);  // é: the word is drawn in the large font
}

TEST_CASE("a new character rebuilds the atlas once — a character no font has draws the fallback") {
    const Context context;
    app::GuiFonts fonts(16.0f);
    CHECK(fonts.cover({"ש"}));         // Hebrew: DejaVu has it, the base ranges do not
    CHECK(fonts.fonts().regular->FindGlyphNoFallback(0x5E9) != nullptr);
    CHECK_FALSE(fonts.cover({"ש"}));   // once only
    fonts.cover({"\uE000 🐱"});        // private use: no font has it; the cat face is beyond 16-bit ImWchar
    CHECK_FALSE(fonts.cover({"\uE000 🐱"}));
    const ImFontGlyph* glyph = fonts.fonts().regular->FindGlyph(0xE000);
    REQUIRE(glyph != nullptr);
    CHECK(glyph->Codepoint == 0xFFFD);
}

TEST_CASE("CJK, Hangul, Devanagari and Thai come from the fallback fonts, in every face, and only the characters in use") {
    const Context context;
    app::GuiFonts fonts(16.0f);
    const int glyphsBefore = fonts.fonts().regular->Glyphs.Size;
    CHECK(fonts.cover({"猫 고양이 बिल्ली แมว"}));
    // 猫 (Han), 고 (Hangul), ब (Devanagari), แ (Thai): each in the regular, bold and mono fonts.
    for (const ImWchar c : {ImWchar(0x732B), ImWchar(0xACE0), ImWchar(0x092C), ImWchar(0x0E41)}) {
        for (const ImFont* font : {fonts.fonts().regular, fonts.fonts().bold, fonts.fonts().mono}) {
            CHECK_MESSAGE(font->FindGlyphNoFallback(c) != nullptr, "U+", std::hex, static_cast<int>(c));
        }
    }
    CHECK(fonts.fonts().regular->FindGlyphNoFallback(0x4E2D) == nullptr);  // 中 was not asked for
    CHECK(fonts.fonts().regular->Glyphs.Size < glyphsBefore + 20);          // 12 new characters, not whole fonts
}

}  // namespace attnviz::test
