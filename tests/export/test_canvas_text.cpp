// test_canvas_text.cpp — the raster (fills, clipping, blending, hatching, opacity) and the text renderer
// (measuring, drawing, rotation, truncation, missing glyphs, formula markup, missing fonts).
#include "core/unicode.h"
#include "export/canvas.h"
#include "export/text.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

using namespace attnviz::exporting;

namespace {

constexpr Rgba8 kWhite{255, 255, 255, 255};
constexpr Rgba8 kRed{220, 20, 20, 255};

// The smallest rectangle holding every pixel that differs from `background`; empty when there is none.
PixelRect inkBox(const Canvas& canvas, Rgba8 background) {
    int left = canvas.width(), top = canvas.height(), right = -1, bottom = -1;
    for (int y = 0; y < canvas.height(); ++y) {
        for (int x = 0; x < canvas.width(); ++x) {
            if (canvas.pixel(x, y) == background) continue;
            left = std::min(left, x);
            right = std::max(right, x);
            top = std::min(top, y);
            bottom = std::max(bottom, y);
        }
    }
    if (right < 0) return {};
    return {left, top, right - left + 1, bottom - top + 1};
}

int countDifferent(const Canvas& canvas, Rgba8 background) {
    int count = 0;
    for (int y = 0; y < canvas.height(); ++y) {
        for (int x = 0; x < canvas.width(); ++x) count += canvas.pixel(x, y) == background ? 0 : 1;
    }
    return count;
}

}  // namespace

TEST_CASE("canvas: fillRect replaces pixels and clips to the image") {
    Canvas canvas(4, 3, kWhite);
    canvas.fillRect({-2, -1, 4, 3}, kRed);  // covers x 0–1, y 0–1 after clipping
    CHECK(canvas.pixel(0, 0) == kRed);
    CHECK(canvas.pixel(1, 1) == kRed);
    CHECK(canvas.pixel(2, 0) == kWhite);
    CHECK(canvas.pixel(0, 2) == kWhite);
    canvas.fillRect({10, 10, 5, 5}, kRed);  // entirely outside: nothing happens
    CHECK(countDifferent(canvas, kWhite) == 4);
}

TEST_CASE("canvas: source-over blending on opaque and on transparent pixels") {
    Canvas opaqueCanvas(1, 1, kWhite);
    opaqueCanvas.blendPixel(0, 0, {0, 0, 0, 255}, 128);  // half coverage of black over white
    CHECK(opaqueCanvas.pixel(0, 0).r == 127);
    CHECK(opaqueCanvas.pixel(0, 0).a == 255);
    CHECK(opaqueCanvas.isOpaque());

    Canvas clear(1, 1, {255, 255, 255, 0});
    CHECK_FALSE(clear.isOpaque());
    clear.blendPixel(0, 0, kRed, 128);  // over nothing, the color stays the source's, only alpha is partial
    CHECK(clear.pixel(0, 0) == Rgba8{kRed.r, kRed.g, kRed.b, 128});
}

TEST_CASE("canvas: a see-through fill makes the canvas non-opaque") {
    Canvas canvas(2, 2, kWhite);
    canvas.blendPixel(1, 1, {0, 0, 0, 100}, 255);
    canvas.hatchRect({0, 0, 2, 2}, {0, 0, 0, 100}, 2, 1);
    CHECK(canvas.isOpaque());
    canvas.fillRect({0, 0, 1, 1}, {0, 0, 0, 0});
    CHECK_FALSE(canvas.isOpaque());
}

TEST_CASE("canvas: hatching draws diagonal lines, phased on canvas coordinates") {
    Canvas canvas(10, 10, kWhite);
    canvas.hatchRect({0, 0, 10, 10}, {0, 0, 0, 255}, 5, 1);
    CHECK(countDifferent(canvas, kWhite) == 20);  // (x + y) % 5 == 0: two pixels in each of ten rows
    CHECK(canvas.pixel(0, 0) != kWhite);
    CHECK(canvas.pixel(4, 1) != kWhite);  // same diagonal x + y = 5
    CHECK(canvas.pixel(1, 0) == kWhite);
}

TEST_CASE("canvas: strokeRect draws inside the rectangle only") {
    Canvas canvas(6, 6, kWhite);
    canvas.strokeRect({1, 1, 4, 4}, kRed, 1);
    CHECK(countDifferent(canvas, kWhite) == 12);
    CHECK(canvas.pixel(2, 2) == kWhite);
    CHECK(canvas.pixel(0, 0) == kWhite);
}

TEST_CASE("text: widths are proportional to the size") {
    const float small = textWidth("attention weights", 12.0f, FontFace::Regular);
    const float big = textWidth("attention weights", 24.0f, FontFace::Regular);
    CHECK(small > 50.0f);
    CHECK(big == doctest::Approx(2.0f * small).epsilon(1e-4));
    CHECK(textWidth("W", 12.0f, FontFace::Bold) > textWidth("W", 12.0f, FontFace::Regular) - 0.01f);
}

TEST_CASE("text: ink lands where the text was measured") {
    Canvas canvas(200, 40, kWhite);
    drawText(canvas, 10.0f, 30.0f, "Hello", {20.0f, FontFace::Regular, {0, 0, 0, 255}});
    const PixelRect ink = inkBox(canvas, kWhite);
    const float width = textWidth("Hello", 20.0f, FontFace::Regular);
    CHECK(ink.x >= 10);
    CHECK(ink.x <= 13);
    CHECK(ink.right() <= 10 + static_cast<int>(width) + 1);
    CHECK(ink.right() >= 10 + static_cast<int>(width) - 4);
    CHECK(ink.bottom() <= 31);  // "Hello" has no descender
    CHECK(ink.y >= 30 - 20);
}

TEST_CASE("text: upward text is a quarter turn: tall, not wide") {
    Canvas canvas(40, 120, kWhite);
    drawTextUpwards(canvas, 25.0f, 110.0f, "because", {14.0f, FontFace::Regular, {0, 0, 0, 255}});
    const PixelRect ink = inkBox(canvas, kWhite);
    CHECK(ink.height > 2 * ink.width);
    CHECK(ink.bottom() <= 111);
    CHECK(ink.right() <= 25 + 5);  // only descenders reach right of the baseline
}

TEST_CASE("text: truncation keeps whole UTF-8 code points and ends with an ellipsis") {
    const std::string longToken = "\u00DCberm\u00E4\u00DFigkeitsgrenze";
    const std::string cut = truncateToWidth(longToken, 40.0f, 12.0f, FontFace::Regular);
    CHECK(cut.size() < longToken.size());
    CHECK(cut.ends_with("\u2026"));
    CHECK(attnviz::core::findInvalidUtf8(cut) == std::string::npos);
    CHECK(textWidth(cut, 12.0f, FontFace::Regular) <= 40.0f);
    CHECK(truncateToWidth("cat", 40.0f, 12.0f, FontFace::Regular) == "cat");
}

TEST_CASE("text: a character no font has is a visible box of fixed advance") {
    const std::string privateUse = "\uE000";  // no installed font draws private-use characters
    CHECK(textWidth(privateUse, 20.0f, FontFace::Regular) == doctest::Approx(12.0f));
    Canvas canvas(40, 40, kWhite);
    drawText(canvas, 5.0f, 30.0f, privateUse, {20.0f, FontFace::Regular, {0, 0, 0, 255}});
    const PixelRect ink = inkBox(canvas, kWhite);
    CHECK(ink.width >= 6);
    CHECK(ink.height >= 12);
}

TEST_CASE("text: Greek and Cyrillic come from the font, not the fallback box") {
    CHECK(textWidth("\u03B1\u03B2\u03B3", 20.0f, FontFace::Regular) != doctest::Approx(3 * 12.0f));
    CHECK(textWidth("\u0434\u043E\u043C", 20.0f, FontFace::Regular) != doctest::Approx(3 * 12.0f));
}

TEST_CASE("text: CJK, Hangul, Arabic, Hebrew, Devanagari and Thai are real glyphs, not the missing box") {
    const TextStyle style{24.0f, FontFace::Regular, {0, 0, 0, 255}};
    Canvas box(60, 40, kWhite);
    drawText(box, 5.0f, 30.0f, "\uE000", style);
    // 漢 (Han), 한 (Hangul), ق (Arabic), ש (Hebrew), क (Devanagari), ก (Thai)
    for (const char* letter : {"\u6F22", "\uD55C", "\u0642", "\u05E9", "\u0915", "\u0E01"}) {
        Canvas canvas(60, 40, kWhite);
        drawText(canvas, 5.0f, 30.0f, letter, style);
        const int ink = countDifferent(canvas, kWhite);
        CHECK_MESSAGE(ink > 20, letter);
        CHECK_MESSAGE(ink != countDifferent(box, kWhite), letter);
        for (const FontFace face : {FontFace::Bold, FontFace::Mono}) CHECK(textWidth(letter, 24.0f, face) > 0.0f);
    }
}

TEST_CASE("text: a character beyond U+FFFF is drawn as its code point in brackets, as on screen") {
    const TextStyle style{20.0f, FontFace::Regular, {0, 0, 0, 255}};
    CHECK(textWidth("\U0001F600", 20.0f, FontFace::Regular) == doctest::Approx(textWidth("[U+1F600]", 20.0f, FontFace::Regular)));
    Canvas emoji(160, 40, kWhite), spelled(160, 40, kWhite);
    drawText(emoji, 5.0f, 30.0f, "\U0001F600", style);
    drawText(spelled, 5.0f, 30.0f, "[U+1F600]", style);
    CHECK(countDifferent(emoji, kWhite) == countDifferent(spelled, kWhite));
    CHECK(inkBox(emoji, kWhite).width == inkBox(spelled, kWhite).width);
}

TEST_CASE("text: wrapText breaks at spaces within the width") {
    const std::string sentence = "Each row of scores becomes weights that are positive and sum to one";
    const std::vector<std::string> lines = wrapText(sentence, 150.0f, 12.0f, FontFace::Regular);
    REQUIRE(lines.size() >= 3);
    std::string rejoined;
    for (const std::string& line : lines) {
        CHECK(textWidth(line, 12.0f, FontFace::Regular) <= 150.0f);
        rejoined += (rejoined.empty() ? "" : " ") + line;
    }
    CHECK(rejoined == sentence);
}

TEST_CASE("formula: sub- and superscripts, groups and symbols") {
    using R = FormulaRun;
    const std::vector<FormulaRun> runs = parseFormula("A_2 = softmax(Q_2 K_2^T / sqrt(d_k))");
    const std::vector<FormulaRun> expected{
        R{"A", Script::Normal},      R{"2", Script::Subscript}, R{" = softmax(Q", Script::Normal},
        R{"2", Script::Subscript},   R{" K", Script::Normal},   R{"2", Script::Subscript},
        R{"T", Script::Superscript}, R{" / \u221A(d", Script::Normal}, R{"k", Script::Subscript},
        R{"))", Script::Normal}};
    CHECK(runs == expected);
    CHECK(parseFormula("Z_{h-1}") == std::vector<FormulaRun>{R{"Z", Script::Normal}, R{"h-1", Script::Subscript}});
    CHECK(parseFormula("i*d_k -> ...") ==
          std::vector<FormulaRun>{R{"i\u00B7d", Script::Normal}, R{"k", Script::Subscript}, R{" \u2192 \u2026", Script::Normal}});
    CHECK(parseFormula("a_ b") == std::vector<FormulaRun>{R{"a_ b", Script::Normal}});  // nothing to lower: literal
    CHECK(formulaWidth("x_i", 20.0f, FontFace::Regular) < textWidth("xi", 20.0f, FontFace::Regular));
}

TEST_CASE("formula: code identifiers stay literal, math symbols keep their subscripts") {
    using R = FormulaRun;
    CHECK(parseFormula("rope_theta") == std::vector<FormulaRun>{R{"rope_theta", Script::Normal}});
    // Parentheses after "_" are not a group: softmax_(x) keeps them.
    CHECK(parseFormula("f_(x)") == std::vector<FormulaRun>{R{"f_(x)", Script::Normal}});
    CHECK(parseFormula("HF's rotate_half pairs") == std::vector<FormulaRun>{R{"HF's rotate_half pairs", Script::Normal}});
    CHECK(parseFormula("num_key_value_heads = h_kv") ==
          std::vector<FormulaRun>{R{"num_key_value_heads = h", Script::Normal}, R{"kv", Script::Subscript}});
    // The RoPE step's formula: θ_j lowered, rope_theta as the config names it, the exponent raised whole.
    CHECK(parseFormula("\u03B8_j = rope_theta^(x/d_k)") ==
          std::vector<FormulaRun>{R{"\u03B8", Script::Normal}, R{"j", Script::Subscript}, R{" = rope_theta", Script::Normal},
                                  R{"x/d\u2096", Script::Superscript}});
    CHECK(parseFormula("d_model q_m W_i2 max_j") ==
          std::vector<FormulaRun>{R{"d", Script::Normal}, R{"model", Script::Subscript}, R{" q", Script::Normal}, R{"m", Script::Subscript},
                                  R{" W", Script::Normal}, R{"i2", Script::Subscript}, R{" max", Script::Normal}, R{"j", Script::Subscript}});
    CHECK(parseFormula("max_{ij}") == std::vector<FormulaRun>{R{"max", Script::Normal}, R{"ij", Script::Subscript}});  // braces lower
    CHECK(formulaWidth("rope_theta", 20.0f, FontFace::Regular) == textWidth("rope_theta", 20.0f, FontFace::Regular));
}

TEST_CASE("fonts: a missing font is a clear error naming the folders and the package") {
    const std::filesystem::path nowhere = "/nonexistent/attnviz-fonts";
    const std::vector<std::filesystem::path> folders{nowhere};
    try {
        findFontFile("DejaVuSans.ttf", folders);
        FAIL("expected FontError");
    } catch (const FontError& error) {
        const std::string message = error.what();
        CHECK(message.find("DejaVuSans.ttf") != std::string::npos);
        CHECK(message.find(nowhere.string()) != std::string::npos);
        CHECK(message.find("fonts-dejavu-core") != std::string::npos);
    }
    CHECK(findFontFile("DejaVuSans.ttf", fontSearchFolders()).filename() == "DejaVuSans.ttf");
}
