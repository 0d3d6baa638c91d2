// display_text.h — a token or sentence as attnviz draws it, the same on screen and in exported PNGs.
//
// Two things neither renderer (Dear ImGui, the PNG exporter's stb_truetype) does by itself:
//   * Characters beyond U+FFFF (most emoji, rare CJK ideographs): Debian's Dear ImGui stores characters in 16
//     bits and cannot draw them, so both show the code point as a readable placeholder, "[U+1F600]".
//   * Right-to-left words (Hebrew, Arabic, Syriac, Thaana, N'Ko): each run of right-to-left letters — with
//     the spaces, marks and punctuation between them — is reversed into the order the eye reads, keeping
//     every combining mark after its base letter. This is the part of the Unicode bidirectional algorithm a
//     label needs; digits inside a right-to-left run are not re-reversed, and Arabic letters are not shaped
//     (each shows its isolated form).
// Tokenizers and the forward pass never see this text: it is only for drawing.
//
// echoed() is for messages that quote a file's content (a tensor name, a vocabulary line, a config value): a file
// from the internet must not write escape sequences to the terminal or fill the screen.
#pragma once

#include "core/limits.h"

#include <string>
#include <string_view>

namespace attnviz::core {

// The placeholder drawn for a code point beyond U+FFFF: "[U+1F600]".
std::string codePointPlaceholder(char32_t codePoint);

// "1 head", "4 heads": a count with its noun in the number English wants (every "N things" on screen and in figures).
std::string counted(long long count, std::string_view one, std::string_view many);

// `utf8` in the order and with the characters both renderers draw (see above). Invalid UTF-8 bytes become U+FFFD.
std::string displayText(std::string_view utf8);

// The first `maxCharacters` characters of `utf8` (code points; an invalid byte counts as one): never half a character.
std::string_view firstCharacters(std::string_view utf8, std::size_t maxCharacters);

// `utf8` cut to at most `maxCharacters` characters (code points; an invalid byte counts as one), "…" in place of the
// rest; line breaks kept. What every text from a user, a file or a model goes through before Dear ImGui draws it.
std::string clipped(std::string_view utf8, std::size_t maxCharacters = limits::kMaxShownCharacters);

// A token's label as drawn: displayText, at most limits::kMaxLabelCharacters characters (a placeholder counts as its
// characters).
std::string labelText(std::string_view token);

// `text` safe to quote in a message, on the terminal or on screen: at most `maxCharacters` characters, then "…";
// control characters (C0, DEL, C1) and the invisible reorderers (bidi overrides and isolates, line and paragraph
// separators) escaped as "\x1b" / "\u202e"; invalid UTF-8 bytes as "\xff". Each escape counts as one character.
std::string echoed(std::string_view text, std::size_t maxCharacters = limits::kMaxEchoedCharacters);

}  // namespace attnviz::core
