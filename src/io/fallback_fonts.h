// fallback_fonts.h — the Debian font files that draw what DejaVu Sans lacks, shared by the window (merged
// into Dear ImGui's atlas) and the PNG exporter (stb_truetype), so both pick the same glyph for a character.
//
// Tried in order after DejaVu (which has Latin, Greek, Cyrillic, Arabic and Hebrew):
//   FreeSans    (fonts-freefont-ttf)    Devanagari and other Indic scripts, Georgian, Armenian, Ethiopic, …
//   FreeSerif   (fonts-freefont-ttf)    Thai, Lao, and what FreeSans lacks
//   Droid Sans Fallback (fonts-droid-fallback)  Han ideographs, kana, CJK punctuation
//   NanumGothic (fonts-nanum)           Hangul — tried first for Hangul, so Korean never mixes two fonts
// A file that is missing is skipped (the character then shows as the renderer's missing-glyph box); files are
// read on first need, so a Latin-only session never reads them. Thread-safe: the exporter asks from workers.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>

namespace attnviz::io {

struct FallbackFont {
    std::string name;               // "FreeSans"
    std::filesystem::path path;     // where Debian installs it
    std::span<const unsigned char> bytes;  // the whole file; empty when it could not be read
};

// How many fallback fonts there are (including missing ones), and one of them, its file read on first call.
std::size_t fallbackFontCount();
const FallbackFont& fallbackFont(std::size_t index);

// The index of the fallback font that draws `codePoint`, or nullopt when none has it (or its file is missing).
// Callers ask only for characters their primary font lacks.
std::optional<std::size_t> fallbackFontFor(char32_t codePoint);

}  // namespace attnviz::io
