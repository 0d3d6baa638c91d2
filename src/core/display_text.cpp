// display_text.cpp — placeholders for characters beyond U+FFFF and visual order for right-to-left runs.
// See display_text.h.
#include "core/display_text.h"

#include "core/unicode.h"

#include <utf8proc.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace attnviz::core {
namespace {

enum class Direction { LeftToRight, RightToLeft, Neutral };

// Strong direction of a letter: right-to-left for the Hebrew, Arabic, Syriac, Thaana, N'Ko blocks and their
// presentation forms; left-to-right for other letters; neutral for spaces, digits, punctuation and marks.
Direction directionOf(char32_t c) {
    const bool rightToLeftBlock = (c >= 0x0590 && c <= 0x08FF) || (c >= 0xFB1D && c <= 0xFDFF) || (c >= 0xFE70 && c <= 0xFEFF);
    const auto category = utf8proc_category(static_cast<utf8proc_int32_t>(c));
    const bool letter = category >= UTF8PROC_CATEGORY_LU && category <= UTF8PROC_CATEGORY_LO;
    if (rightToLeftBlock && (letter || category == UTF8PROC_CATEGORY_PO)) return Direction::RightToLeft;
    return letter ? Direction::LeftToRight : Direction::Neutral;
}

bool isCombiningMark(char32_t c) {
    const auto category = utf8proc_category(static_cast<utf8proc_int32_t>(c));
    return category == UTF8PROC_CATEGORY_MN || category == UTF8PROC_CATEGORY_MC || category == UTF8PROC_CATEGORY_ME;
}

// Reverses [begin, end) by clusters: a base character with the combining marks after it moves as one.
void reverseClusters(std::vector<char32_t>& text, std::size_t begin, std::size_t end) {
    std::vector<std::vector<char32_t>> clusters;
    for (std::size_t i = begin; i < end; ++i) {
        if (clusters.empty() || !isCombiningMark(text[i])) clusters.emplace_back();
        clusters.back().push_back(text[i]);
    }
    std::size_t at = begin;
    for (auto cluster = clusters.rbegin(); cluster != clusters.rend(); ++cluster) {
        for (char32_t c : *cluster) text[at++] = c;
    }
}

// Reverses every maximal run that starts and ends with a right-to-left letter and holds no left-to-right one.
void toVisualOrder(std::vector<char32_t>& text) {
    std::size_t i = 0;
    while (i < text.size()) {
        if (directionOf(text[i]) != Direction::RightToLeft) {
            ++i;
            continue;
        }
        std::size_t runEnd = i + 1;  // one past the last right-to-left letter (or its marks) of the run
        for (std::size_t j = i + 1; j < text.size(); ++j) {
            const Direction direction = directionOf(text[j]);
            if (direction == Direction::LeftToRight) break;
            if (direction == Direction::RightToLeft || (isCombiningMark(text[j]) && j == runEnd)) runEnd = j + 1;
        }
        reverseClusters(text, i, runEnd);
        i = runEnd;
    }
}

void appendUtf8(std::string& out, char32_t c) {
    utf8proc_uint8_t buffer[4];
    const utf8proc_ssize_t length = utf8proc_encode_char(static_cast<utf8proc_int32_t>(c), buffer);
    out.append(reinterpret_cast<const char*>(buffer), static_cast<std::size_t>(std::max<utf8proc_ssize_t>(length, 0)));
}

}  // namespace

std::string codePointPlaceholder(char32_t codePoint) {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "[U+%04X]", static_cast<unsigned>(codePoint));
    return buffer;
}

std::string displayText(std::string_view utf8) {
    const bool plainAscii = std::all_of(utf8.begin(), utf8.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    if (plainAscii) return std::string(utf8);  // the common case, untouched and cheap
    std::vector<char32_t> text = decodeUtf8(utf8);
    toVisualOrder(text);
    std::string out;
    out.reserve(utf8.size());
    for (char32_t c : text) {
        if (c > 0xFFFF) out += codePointPlaceholder(c);
        else appendUtf8(out, c);
    }
    return out;
}

namespace {

// Code points a message must not pass through raw: they move the cursor, ring, recolour, or reorder what follows.
bool mustEscape(char32_t c) {
    return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x2028 || c == 0x2029 || (c >= 0x202A && c <= 0x202E) ||
           (c >= 0x2066 && c <= 0x2069) || c == 0x200E || c == 0x200F || c == 0x061C;
}

std::string escapeOf(char32_t c) {
    char text[16];
    if (c < 0x80) std::snprintf(text, sizeof text, "\\x%02x", static_cast<unsigned>(c));
    else std::snprintf(text, sizeof text, "\\u%04x", static_cast<unsigned>(c));
    return text;
}

}  // namespace

std::string_view firstCharacters(std::string_view utf8, std::size_t maxCharacters) {
    std::size_t at = 0;
    for (std::size_t characters = 0; at < utf8.size() && characters < maxCharacters; ++characters) {
        utf8proc_int32_t codePoint = 0;
        const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(utf8.data() + at);
        const utf8proc_ssize_t length = utf8proc_iterate(bytes, static_cast<utf8proc_ssize_t>(utf8.size() - at), &codePoint);
        at += length <= 0 ? 1 : static_cast<std::size_t>(length);
    }
    return utf8.substr(0, at);
}

std::string clipped(std::string_view utf8, std::size_t maxCharacters) {
    const std::string_view kept = firstCharacters(utf8, maxCharacters);
    return kept.size() == utf8.size() ? std::string(utf8) : std::string(kept) + "…";
}

std::string labelText(std::string_view token) {
    // Cut before and after: displayText's cost follows its input, and a placeholder is longer than its character.
    return clipped(displayText(clipped(token, limits::kMaxLabelCharacters)), limits::kMaxLabelCharacters);
}

std::string echoed(std::string_view text, std::size_t maxCharacters) {
    std::string out;
    std::size_t characters = 0;
    std::size_t at = 0;
    while (at < text.size()) {
        if (characters == maxCharacters) return out + "…";
        utf8proc_int32_t codePoint = 0;
        const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(text.data() + at);
        const utf8proc_ssize_t length = utf8proc_iterate(bytes, static_cast<utf8proc_ssize_t>(text.size() - at), &codePoint);
        if (length <= 0) {  // not UTF-8: the byte itself, escaped
            char escape[8];
            std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(text[at])));
            out += escape;
            at += 1;
        } else {
            const auto c = static_cast<char32_t>(codePoint);
            out += mustEscape(c) ? escapeOf(c) : std::string(text.substr(at, static_cast<std::size_t>(length)));
            at += static_cast<std::size_t>(length);
        }
        ++characters;
    }
    return out;
}

std::string counted(long long count, std::string_view one, std::string_view many) {
    return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

}  // namespace attnviz::core
