// test_display_text.cpp — text as both renderers draw it: placeholders for characters beyond U+FFFF, and
// right-to-left runs reversed into visual order with their combining marks kept after the base letter.
#include "core/display_text.h"

#include <doctest/doctest.h>

namespace attnviz::core {

TEST_CASE("display text: ASCII and left-to-right scripts are untouched") {
    CHECK(displayText("The cat sat.") == "The cat sat.");
    CHECK(displayText("Кошка γάτα 猫 고양이 แมว") == "Кошка γάτα 猫 고양이 แมว");
    CHECK(displayText("") == "");
}

TEST_CASE("display text: characters beyond U+FFFF become their code point in brackets") {
    CHECK(codePointPlaceholder(0x1F600) == "[U+1F600]");
    CHECK(codePointPlaceholder(0x20000) == "[U+20000]");
    CHECK(displayText("hi 😀!") == "hi [U+1F600]!");
    CHECK(displayText("𠀀") == "[U+20000]");         // a CJK Extension B ideograph
    CHECK(displayText("\uFFFD") == "\uFFFD");         // U+FFFF and below stay
}

TEST_CASE("display text: a right-to-left word is reversed, its marks stay after their letter") {
    // חתול (het, tav, vav, lamed) drawn left to right as lamed, vav, tav, het.
    CHECK(displayText("\u05D7\u05EA\u05D5\u05DC") == "\u05DC\u05D5\u05EA\u05D7");
    // Arabic قطة: qaf, tah, teh marbuta.
    CHECK(displayText("\u0642\u0637\u0629") == "\u0629\u0637\u0642");
    // Hebrew shin with a shin dot (U+05C1) and a qamats (U+05B8), then lamed: the marks travel with shin.
    CHECK(displayText("\u05E9\u05C1\u05B8\u05DC") == "\u05DC\u05E9\u05C1\u05B8");
}

TEST_CASE("display text: only the right-to-left run is reversed — surrounding Latin and trailing punctuation stay") {
    // "the word שלום." → the Hebrew run (shin lamed vav final-mem) reversed, the space before and the period after stay.
    CHECK(displayText("the word \u05E9\u05DC\u05D5\u05DD.") == "the word \u05DD\u05D5\u05DC\u05E9.");
    // Two Hebrew words form one run: the words swap places too, as a reader of right-to-left text expects.
    CHECK(displayText("\u05D0\u05D1 \u05D2\u05D3") == "\u05D3\u05D2 \u05D1\u05D0");
    // GPT-2's leading-space marker stays where it was, outside the run.
    CHECK(displayText("\u2423\u05D0\u05D1") == "\u2423\u05D1\u05D0");
}
TEST_CASE("echoed: a file's text quoted in a message is cut at 80 characters and its control characters escaped") {
    CHECK(echoed("wte.weight") == "wte.weight");
    CHECK(echoed("caf\xC3\xA9 猫") == "caf\xC3\xA9 猫");  // printable UTF-8 stays
    CHECK(echoed("\x1b]0;owned\x07") == "\\x1b]0;owned\\x07");
    CHECK(echoed("a\r\nb\x7f") == "a\\x0d\\x0ab\\x7f");
    CHECK(echoed("\xC2\x9B" "31m") == "\\u009b31m");           // C1 control sequence introducer
    CHECK(echoed("abc\xE2\x80\xAEtxt.exe") == "abc\\u202etxt.exe");  // right-to-left override
    CHECK(echoed("\xff\xfe") == "\\xff\\xfe");                  // not UTF-8
    const std::string megabyte(1'000'000, 'x');
    CHECK(echoed(megabyte) == std::string(80, 'x') + "…");
    CHECK(echoed(std::string(80, 'y')) == std::string(80, 'y'));  // exactly 80: not cut
    CHECK(echoed(std::string(100, '\x1b')).size() == 80 * 4 + std::string("…").size());
    CHECK(echoed(std::string(40, 'z') + "猫猫猫", 41) == std::string(40, 'z') + "猫…");  // cut between characters
}

}  // namespace attnviz::core

