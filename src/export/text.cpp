// text.cpp — stb_truetype text rendering with a per-thread glyph cache, and formula typesetting. See text.h.
//
// libstb (Debian's libstb-dev) already contains the stb_truetype implementation, so this file only includes
// the header. Characters DejaVu lacks come from io/fallback_fonts.h's fonts (CJK, Hangul, Indic, Thai), the
// same the window merges into its atlas. Fonts are read once per process and are read-only afterwards; rasterized glyphs are cached per
// thread, so figures can be drawn on worker threads without locks.
#include "export/text.h"

#include "core/display_text.h"
#include "core/unicode.h"
#include "io/fallback_fonts.h"

#include <stb_truetype.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace attnviz::exporting {
namespace {

// [SECTION] Fonts

constexpr std::string_view kFontPackage = "fonts-dejavu-core";

struct LoadedFont {
    std::vector<unsigned char> bytes;  // the DejaVu faces' own copy; empty for fallback fonts, which io keeps
    const unsigned char* data = nullptr;  // what stbtt_fontinfo points into
    stbtt_fontinfo info{};
    float emScale = 0.0f;              // font units → pixels for a 1 px em
    LineMetrics unitMetrics;           // ascent and descent for a 1 px em
};

std::vector<unsigned char> readFontBytes(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (!file.good() && !file.eof()) throw FontError("Could not read the font file " + path.string() + ".");
    return bytes;
}

// Parses the font at `data` (`size` bytes, alive as long as `font`); false when it is not a TrueType/OpenType font.
bool initFont(LoadedFont& font, const unsigned char* data, std::size_t size) {
    font.data = data;
    const int offset = size == 0 ? -1 : stbtt_GetFontOffsetForIndex(data, 0);
    if (offset < 0 || !stbtt_InitFont(&font.info, data, offset)) return false;
    font.emScale = stbtt_ScaleForMappingEmToPixels(&font.info, 1.0f);
    int ascent = 0, descent = 0, lineGap = 0;
    stbtt_GetFontVMetrics(&font.info, &ascent, &descent, &lineGap);
    font.unitMetrics = {ascent * font.emScale, -descent * font.emScale};
    return true;
}

std::unique_ptr<LoadedFont> loadFont(std::string_view fileName) {
    const std::filesystem::path path = findFontFile(fileName, fontSearchFolders());
    auto font = std::make_unique<LoadedFont>();
    font->bytes = readFontBytes(path);
    if (!initFont(*font, font->bytes.data(), font->bytes.size())) {
        throw FontError("The font file " + path.string() + " is not a TrueType font; reinstall " +
                        std::string(kFontPackage) + ".");
    }
    return font;
}

const LoadedFont& loadedFont(FontFace face) {
    // Function-local statics: loaded on first use, thread-safe; a failed load throws and is retried next call.
    if (face == FontFace::Bold) {
        static const std::unique_ptr<LoadedFont> bold = loadFont("DejaVuSans-Bold.ttf");
        return *bold;
    }
    if (face == FontFace::Mono) {
        static const std::unique_ptr<LoadedFont> mono = loadFont("DejaVuSansMono.ttf");
        return *mono;
    }
    static const std::unique_ptr<LoadedFont> regular = loadFont("DejaVuSans.ttf");
    return *regular;
}

// Fonts are numbered for the glyph cache: the three DejaVu faces first, then io's fallback fonts.
constexpr int kFirstFallbackFont = 3;

// The fallback font `index` of io/fallback_fonts.h, parsed once; nullptr when its file is missing or broken.
const LoadedFont* loadedFallbackFont(std::size_t index) {
    struct Slot {
        std::once_flag parsed;
        std::unique_ptr<LoadedFont> font;
    };
    static const std::unique_ptr<Slot[]> slots(new Slot[io::fallbackFontCount()]);
    Slot& slot = slots[index];
    std::call_once(slot.parsed, [&slot, index] {
        const std::span<const unsigned char> bytes = io::fallbackFont(index).bytes;
        auto font = std::make_unique<LoadedFont>();
        if (initFont(*font, bytes.data(), bytes.size())) slot.font = std::move(font);
    });
    return slot.font.get();
}

const LoadedFont& fontById(int id) {
    if (id < kFirstFallbackFont) return loadedFont(static_cast<FontFace>(id));
    return *loadedFallbackFont(static_cast<std::size_t>(id - kFirstFallbackFont));
}

// [SECTION] Glyphs

constexpr int kMissingGlyph = 0;           // glyph index stb returns for a code point the font lacks
constexpr float kMissingAdvanceEm = 0.6f;  // the hollow box drawn instead

struct GlyphBitmap {
    int left = 0, top = 0;  // offset of the bitmap from the pen position on the baseline (top < 0: above)
    int width = 0, height = 0;
    std::vector<std::uint8_t> coverage;  // height rows of width, 0 … 255
};

GlyphBitmap missingGlyphBox(float size) {
    GlyphBitmap box;
    box.left = static_cast<int>(std::lround(0.08f * size));
    box.top = -static_cast<int>(std::lround(0.72f * size));
    box.width = std::max(3, static_cast<int>(std::lround((kMissingAdvanceEm - 0.16f) * size)));
    box.height = -box.top;
    box.coverage.assign(static_cast<std::size_t>(box.width) * box.height, 0);
    const int stroke = std::max(1, static_cast<int>(std::lround(size / 14.0f)));
    for (int y = 0; y < box.height; ++y) {
        for (int x = 0; x < box.width; ++x) {
            const bool edge = x < stroke || y < stroke || x >= box.width - stroke || y >= box.height - stroke;
            if (edge) box.coverage[static_cast<std::size_t>(y) * box.width + x] = 255;
        }
    }
    return box;
}

GlyphBitmap rasterizeGlyph(const LoadedFont& font, int glyph, float size) {
    if (glyph == kMissingGlyph) return missingGlyphBox(size);
    const float scale = font.emScale * size;
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    stbtt_GetGlyphBitmapBox(&font.info, glyph, scale, scale, &x0, &y0, &x1, &y1);
    GlyphBitmap bitmap{x0, y0, x1 - x0, y1 - y0, {}};
    if (bitmap.width <= 0 || bitmap.height <= 0) return {};
    bitmap.coverage.resize(static_cast<std::size_t>(bitmap.width) * bitmap.height);
    stbtt_MakeGlyphBitmap(&font.info, bitmap.coverage.data(), bitmap.width, bitmap.height, bitmap.width, scale,
                          scale, glyph);
    return bitmap;
}

const GlyphBitmap& cachedGlyph(int fontId, int glyph, float size) {
    thread_local std::unordered_map<std::uint64_t, GlyphBitmap> cache;
    const auto sizeKey = static_cast<std::uint64_t>(std::lround(size * 64.0f)) & 0xFFFFFFu;
    const std::uint64_t key = (static_cast<std::uint64_t>(fontId) << 48) |
                              (static_cast<std::uint64_t>(glyph & 0xFFFFFF) << 24) | sizeKey;
    auto found = cache.find(key);
    if (found == cache.end()) found = cache.emplace(key, rasterizeGlyph(fontById(fontId), glyph, size)).first;
    return found->second;
}

// [SECTION] Line layout: glyph indices and pen positions, in pixels, proportional to size.

struct PlacedGlyph {
    int font = 0;  // fontById's numbering
    int glyph = 0;
    float penX = 0.0f;
};

struct LaidOutLine {
    std::vector<PlacedGlyph> glyphs;
    float width = 0.0f;
};

// The font and glyph that draw `codePoint`: the face's own, else the first fallback font that has it, else the
// face's missing glyph (a hollow box).
std::pair<int, int> findGlyph(FontFace face, char32_t codePoint) {
    const int own = stbtt_FindGlyphIndex(&loadedFont(face).info, static_cast<int>(codePoint));
    if (own != kMissingGlyph) return {static_cast<int>(face), own};
    if (const std::optional<std::size_t> fallback = io::fallbackFontFor(codePoint)) {
        const int id = kFirstFallbackFont + static_cast<int>(*fallback);
        return {id, stbtt_FindGlyphIndex(&fontById(id).info, static_cast<int>(codePoint))};
    }
    return {static_cast<int>(face), kMissingGlyph};
}

// Lays out core::displayText(utf8) — right-to-left runs in visual order, placeholders beyond U+FFFF — exactly
// as the window draws the same text.
LaidOutLine layOutLine(std::string_view utf8, float size, FontFace face) {
    LaidOutLine line;
    int previousFont = -1, previousGlyph = kMissingGlyph;
    for (char32_t codePoint : core::decodeUtf8(core::displayText(utf8))) {
        const auto [fontId, glyph] = findGlyph(face, codePoint);
        const LoadedFont& font = fontById(fontId);
        const float scale = font.emScale * size;
        if (fontId == previousFont && previousGlyph != kMissingGlyph && glyph != kMissingGlyph) {
            line.width += stbtt_GetGlyphKernAdvance(&font.info, previousGlyph, glyph) * scale;
        }
        line.glyphs.push_back({fontId, glyph, line.width});
        if (glyph == kMissingGlyph) {
            line.width += kMissingAdvanceEm * size;
        } else {
            int advance = 0, leftBearing = 0;
            stbtt_GetGlyphHMetrics(&font.info, glyph, &advance, &leftBearing);
            line.width += advance * scale;
        }
        previousFont = fontId;
        previousGlyph = glyph;
    }
    return line;
}

// Calls plot(u, v, coverage) for every covered pixel of every glyph; (u, v) are pixel offsets along the text
// direction and downwards from the baseline, relative to the rounded pen start.
template <typename Plot>
void forEachCoveredPixel(std::string_view utf8, const TextStyle& style, Plot plot) {
    const LaidOutLine line = layOutLine(utf8, style.size, style.face);
    for (const PlacedGlyph& placed : line.glyphs) {
        const GlyphBitmap& bitmap = cachedGlyph(placed.font, placed.glyph, style.size);
        const int penX = static_cast<int>(std::lround(placed.penX));
        for (int row = 0; row < bitmap.height; ++row) {
            for (int column = 0; column < bitmap.width; ++column) {
                const std::uint8_t coverage = bitmap.coverage[static_cast<std::size_t>(row) * bitmap.width + column];
                if (coverage != 0) plot(penX + bitmap.left + column, bitmap.top + row, coverage);
            }
        }
    }
}

// [SECTION] Formula parsing

std::string substituteSymbols(std::string_view ascii) {
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kSymbols{{
        {"sqrt", "\u221A"}, {"->", "\u2192"}, {"...", "\u2026"}, {"*", "\u00B7"},
    }};
    std::string text;
    for (std::size_t at = 0; at < ascii.size();) {
        bool replaced = false;
        for (const auto& [from, to] : kSymbols) {
            if (ascii.substr(at, from.size()) == from) {
                text += to;
                at += from.size();
                replaced = true;
                break;
            }
        }
        if (!replaced) text += ascii[at++];
    }
    return text;
}

bool isAsciiAlnum(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// A superscript's own subscripts ("d_k" in "^(−2j/d_k)") as Unicode subscript letters: runs do not nest.
std::string lowerSubscriptsInside(const std::string& group) {
    static const std::pair<char, const char*> forms[] = {
        {'a', "\u2090"}, {'e', "\u2091"}, {'h', "\u2095"}, {'i', "\u1D62"}, {'j', "\u2C7C"}, {'k', "\u2096"}, {'l', "\u2097"},
        {'m', "\u2098"}, {'n', "\u2099"}, {'o', "\u2092"}, {'p', "\u209A"}, {'r', "\u1D63"}, {'s', "\u209B"}, {'t', "\u209C"},
        {'u', "\u1D64"}, {'v', "\u1D65"}, {'x', "\u2093"}, {'0', "\u2080"}, {'1', "\u2081"}, {'2', "\u2082"}, {'3', "\u2083"}};
    std::string out;
    for (std::size_t i = 0; i < group.size(); ++i) {
        const auto form = i + 1 < group.size() && group[i] == '_'
                              ? std::find_if(std::begin(forms), std::end(forms), [&](const auto& f) { return f.first == group[i + 1]; })
                              : std::end(forms);
        if (form != std::end(forms)) {
            out += form->second;
            ++i;
        } else {
            out += group[i];
        }
    }
    return out;
}

// The script argument starting at text[at]: a {group}, a parenthesised (group) after "^" (an exponent such as
// "^(−2j/d_k)", drawn without its parentheses), or a run of ASCII letters and digits. Returns the argument and the
// index just after it; an empty argument means the marker was a plain character.
std::pair<std::string, std::size_t> scriptArgument(const std::string& text, std::size_t at, char marker) {
    if (at < text.size() && text[at] == '{') {
        const std::size_t close = text.find('}', at);
        if (close != std::string::npos) return {text.substr(at + 1, close - at - 1), close + 1};
    }
    if (marker == '^' && at < text.size() && text[at] == '(') {
        const std::size_t close = text.find(')', at);
        if (close != std::string::npos) return {lowerSubscriptsInside(text.substr(at + 1, close - at - 1)), close + 1};
    }
    std::size_t end = at;
    while (end < text.size() && isAsciiAlnum(text[end])) ++end;
    return {text.substr(at, end - at), end};
}

// Whether the "_" at text[at] joins two words of a code identifier (rope_theta, num_key_value_heads) rather than
// lowering a subscript (d_k, d_model, q_m, W_i): two or more letters or digits on both sides.
bool isIdentifierJoint(const std::string& text, std::size_t at, const std::string& argument) {
    std::size_t before = 0;
    while (before < at && isAsciiAlnum(text[at - before - 1])) ++before;
    return before >= 2 && argument.size() >= 2;
}

void appendRun(std::vector<FormulaRun>& runs, std::string_view text, Script script) {
    if (text.empty()) return;
    if (!runs.empty() && runs.back().script == script) {
        runs.back().text += text;
    } else {
        runs.push_back({std::string(text), script});
    }
}

constexpr float kScriptSizeFactor = 0.7f;
constexpr float kSubscriptDropEm = 0.2f;
constexpr float kSuperscriptRiseEm = 0.4f;

float runSize(const FormulaRun& run, float size) { return run.script == Script::Normal ? size : size * kScriptSizeFactor; }

float runBaselineShift(const FormulaRun& run, float size) {
    if (run.script == Script::Subscript) return kSubscriptDropEm * size;
    if (run.script == Script::Superscript) return -kSuperscriptRiseEm * size;
    return 0.0f;
}

}  // namespace

// [SECTION] Public functions

std::span<const std::filesystem::path> fontSearchFolders() {
    static const std::vector<std::filesystem::path> folders{
        "/usr/share/fonts/truetype/dejavu",   // Debian, Ubuntu (fonts-dejavu-core)
        "/usr/share/fonts/dejavu-sans-fonts", // Fedora
        "/usr/share/fonts/TTF",               // Arch
        "/usr/share/fonts/dejavu",
        "/usr/local/share/fonts",
    };
    return folders;
}

std::filesystem::path findFontFile(std::string_view fileName, std::span<const std::filesystem::path> folders) {
    std::string searched;
    for (const std::filesystem::path& folder : folders) {
        const std::filesystem::path candidate = folder / fileName;
        std::error_code error;
        if (std::filesystem::is_regular_file(candidate, error)) return candidate;
        searched += (searched.empty() ? "" : ", ") + folder.string();
    }
    throw FontError("The font " + std::string(fileName) + " was not found (searched " + searched + "); install " +
                    std::string(kFontPackage) + " (scripts/setup does).");
}

LineMetrics lineMetrics(float size, FontFace face) {
    const LineMetrics unit = loadedFont(face).unitMetrics;
    return {unit.ascent * size, unit.descent * size};
}

float textWidth(std::string_view utf8, float size, FontFace face) { return layOutLine(utf8, size, face).width; }

std::string truncateToWidth(std::string_view utf8, float maxWidth, float size, FontFace face) {
    if (textWidth(utf8, size, face) <= maxWidth) return std::string(utf8);
    const std::string_view ellipsis = "\u2026";
    std::vector<std::size_t> codePointStarts;
    for (std::size_t i = 0; i < utf8.size(); ++i) {
        if ((static_cast<unsigned char>(utf8[i]) & 0xC0) != 0x80) codePointStarts.push_back(i);
    }
    // The longest prefix (whole code points) that fits with the ellipsis, by bisection: a width grows with its
    // prefix, and trying every prefix from the end cost minutes on a pasted 20,000-letter word (issue 31).
    const auto withEllipsis = [&](std::size_t prefixEnd) { return std::string(utf8.substr(0, prefixEnd)) + std::string(ellipsis); };
    std::size_t fits = 0, tooWide = codePointStarts.size();  // prefixes of [0, fits] code points fit; tooWide does not
    if (codePointStarts.empty() || textWidth(std::string(ellipsis), size, face) > maxWidth) return std::string(ellipsis);
    while (tooWide - fits > 1) {
        const std::size_t middle = (fits + tooWide) / 2;
        (textWidth(withEllipsis(codePointStarts[middle]), size, face) <= maxWidth ? fits : tooWide) = middle;
    }
    return withEllipsis(codePointStarts[fits]);
}

std::vector<std::string> wrapText(std::string_view utf8, float maxWidth, float size, FontFace face) {
    std::vector<std::string> lines;
    std::string line;
    std::size_t at = 0;
    while (at < utf8.size()) {
        const std::size_t space = utf8.find(' ', at);
        const std::string_view word = utf8.substr(at, space == std::string_view::npos ? std::string_view::npos : space - at);
        at = space == std::string_view::npos ? utf8.size() : space + 1;
        if (word.empty()) continue;
        std::string candidate = line.empty() ? std::string(word) : line + " " + std::string(word);
        if (!line.empty() && textWidth(candidate, size, face) > maxWidth) {
            lines.push_back(std::move(line));
            candidate = std::string(word);
        }
        line = std::move(candidate);
    }
    if (!line.empty()) lines.push_back(std::move(line));
    return lines;
}

void drawText(Canvas& canvas, float x, float baseline, std::string_view utf8, const TextStyle& style) {
    const int originX = static_cast<int>(std::lround(x));
    const int originY = static_cast<int>(std::lround(baseline));
    forEachCoveredPixel(utf8, style, [&](int along, int down, std::uint8_t coverage) {
        canvas.blendPixel(originX + along, originY + down, style.color, coverage);
    });
    canvas.recordText({originX, originY, core::displayText(utf8), style.size, style.face, style.color, false});
}

void drawTextUpwards(Canvas& canvas, float baselineX, float y, std::string_view utf8, const TextStyle& style) {
    const int originX = static_cast<int>(std::lround(baselineX));
    const int originY = static_cast<int>(std::lround(y));
    // A quarter turn counter-clockwise: along the text → up the canvas, down from the baseline → right.
    forEachCoveredPixel(utf8, style, [&](int along, int down, std::uint8_t coverage) {
        canvas.blendPixel(originX + down, originY - along - 1, style.color, coverage);
    });
    canvas.recordText({originX, originY, core::displayText(utf8), style.size, style.face, style.color, true});
}

std::vector<FormulaRun> parseFormula(std::string_view ascii) {
    const std::string text = substituteSymbols(ascii);
    std::vector<FormulaRun> runs;
    for (std::size_t at = 0; at < text.size();) {
        const char c = text[at];
        if (c == '_' || c == '^') {
            auto [argument, next] = scriptArgument(text, at + 1, c);
            const bool braced = at + 1 < text.size() && text[at + 1] == '{';
            if (c == '_' && !braced && isIdentifierJoint(text, at, argument)) argument.clear();  // rope_theta: literal
            if (!argument.empty()) {
                appendRun(runs, argument, c == '_' ? Script::Subscript : Script::Superscript);
                at = next;
                continue;
            }
        }
        appendRun(runs, std::string_view(&text[at], 1), Script::Normal);
        ++at;
    }
    return runs;
}

LineMetrics formulaLineMetrics(float size, FontFace face) {
    const LineMetrics plain = lineMetrics(size, face);
    const float subscriptBottom = kSubscriptDropEm * size + plain.descent * kScriptSizeFactor;
    return {plain.ascent, std::max(plain.descent, subscriptBottom)};
}

float formulaWidth(std::string_view ascii, float size, FontFace face) {
    float width = 0.0f;
    for (const FormulaRun& run : parseFormula(ascii)) width += textWidth(run.text, runSize(run, size), face);
    return width;
}

void drawFormula(Canvas& canvas, float x, float baseline, std::string_view ascii, const TextStyle& style) {
    float pen = x;
    for (const FormulaRun& run : parseFormula(ascii)) {
        TextStyle runStyle = style;
        runStyle.size = runSize(run, style.size);
        drawText(canvas, pen, baseline + runBaselineShift(run, style.size), run.text, runStyle);
        pen += textWidth(run.text, runStyle.size, style.face);
    }
}

void drawLabels(Canvas& canvas, const std::vector<scene::AxisLabel>& labels, int scale) {
    for (const scene::AxisLabel& label : labels) {
        const TextStyle style{label.size * scale, label.face, label.color};
        if (label.upwards) drawTextUpwards(canvas, label.x * scale, label.baseline * scale, label.text, style);
        else drawText(canvas, label.x * scale, label.baseline * scale, label.text, style);
    }
}

scene::TypeMeasure paperType() {
    const LineMetrics unit = lineMetrics(1.0f, FontFace::Regular);
    return {[](std::string_view text, float size, FontFace face) { return textWidth(text, size, face); }, unit.ascent, unit.descent};
}

}  // namespace attnviz::exporting
