// unicode.h — UTF-8 and the Unicode character classes every tokenizer asks about, in one place (utf8proc's tables).
//
// UTF-8: strict decoding (overlong forms, surrogates and values past U+10FFFF are invalid), encoding, and a
// string's characters one by one. Classes follow the definitions HuggingFace's tokenizers use, so that a
// tokenizer.json normalizer or pre-tokenizer here splits where HuggingFace's does:
//   isWhitespace    Unicode's White_Space property (Rust's char::is_whitespace): \t–\r, space, U+0085, NBSP, …
//   isOther         a C* category (control, format, unassigned, private use, surrogate): BERT's "control"
//   isPunctuation   BERT's punctuation: every ASCII symbol !–/ :–@ [–` {–~ and Unicode's P* categories
//   isCjkIdeograph  the CJK Unified Ideographs blocks BERT puts spaces around
//   isNonSpacingMark (Mn), isAlphanumeric (L*, N*), isLetter (L*)
// Text transforms (whole strings of valid UTF-8): NFC/NFD/NFKC/NFKD, and lower-casing per character with
// Unicode's full mapping (İ → i + U+0307, as Rust's char::to_lowercase).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace attnviz::core {

// The byte offset of the first invalid UTF-8 sequence, or npos when `text` is valid UTF-8.
std::size_t findInvalidUtf8(std::string_view text);

// Decodes UTF-8 into code points (invalid bytes become U+FFFD).
std::vector<char32_t> decodeUtf8(std::string_view text);

std::string utf8Of(char32_t codePoint);
std::string utf8Of(std::u32string_view codePoints);

// Bytes of the UTF-8 character a lead byte starts (1 for a continuation or invalid byte, so loops advance).
std::size_t utf8Length(unsigned char lead);

// Each character of valid UTF-8 as its own string: "né" → {"n", "é"}.
std::vector<std::string> utf8Characters(std::string_view text);

bool isWhitespace(char32_t c);
bool isOther(char32_t c);
bool isPunctuation(char32_t c);
bool isCjkIdeograph(char32_t c);
bool isNonSpacingMark(char32_t c);
bool isAlphanumeric(char32_t c);
bool isLetter(char32_t c);

enum class NormalForm { Nfc, Nfd, Nfkc, Nfkd };
std::string normalizeUnicode(std::string_view text, NormalForm form);
std::string lowercase(std::string_view text);

}  // namespace attnviz::core
