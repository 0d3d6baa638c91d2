// unicode.cpp — UTF-8 decoding and encoding, character classes and normal forms. See unicode.h.
#include "core/unicode.h"

#include <utf8proc.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <stdexcept>

namespace attnviz::core {
namespace {

// One decoded code point and how many bytes it took; bytes == 0 means invalid at this position.
struct Decoded {
    char32_t codePoint = 0;
    int bytes = 0;
};

Decoded decodeOne(std::string_view text, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(at);
    if (lead < 0x80) return {lead, 1};
    int length = 0;
    char32_t value = 0;
    char32_t minimum = 0;
    if ((lead & 0xE0) == 0xC0) { length = 2; value = lead & 0x1F; minimum = 0x80; }
    else if ((lead & 0xF0) == 0xE0) { length = 3; value = lead & 0x0F; minimum = 0x800; }
    else if ((lead & 0xF8) == 0xF0) { length = 4; value = lead & 0x07; minimum = 0x10000; }
    else return {};
    if (at + static_cast<std::size_t>(length) > text.size()) return {};
    for (int i = 1; i < length; ++i) {
        const unsigned char next = byte(at + static_cast<std::size_t>(i));
        if ((next & 0xC0) != 0x80) return {};
        value = (value << 6) | (next & 0x3F);
    }
    // Overlong forms, UTF-16 surrogates and values past U+10FFFF are not valid UTF-8.
    if (value < minimum || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return {};
    return {value, length};
}

utf8proc_category_t categoryOf(char32_t c) { return utf8proc_category(static_cast<utf8proc_int32_t>(c)); }

}  // namespace

std::size_t findInvalidUtf8(std::string_view text) {
    for (std::size_t at = 0; at < text.size();) {
        const Decoded d = decodeOne(text, at);
        if (d.bytes == 0) return at;
        at += static_cast<std::size_t>(d.bytes);
    }
    return std::string_view::npos;
}

std::vector<char32_t> decodeUtf8(std::string_view text) {
    std::vector<char32_t> codePoints;
    for (std::size_t at = 0; at < text.size();) {
        const Decoded d = decodeOne(text, at);
        codePoints.push_back(d.bytes == 0 ? U'\uFFFD' : d.codePoint);
        at += static_cast<std::size_t>(std::max(d.bytes, 1));
    }
    return codePoints;
}

std::string utf8Of(char32_t codePoint) {
    utf8proc_uint8_t buffer[4];
    const utf8proc_ssize_t length = utf8proc_encode_char(static_cast<utf8proc_int32_t>(codePoint), buffer);
    return std::string(reinterpret_cast<const char*>(buffer), static_cast<std::size_t>(length));
}

std::string utf8Of(std::u32string_view codePoints) {
    std::string out;
    for (char32_t c : codePoints) out += utf8Of(c);
    return out;
}

std::size_t utf8Length(unsigned char lead) { return lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1; }

std::vector<std::string> utf8Characters(std::string_view text) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t length = std::min(utf8Length(static_cast<unsigned char>(text[i])), text.size() - i);
        out.emplace_back(text.substr(i, length));
        i += length;
    }
    return out;
}

bool isWhitespace(char32_t c) {
    return c == ' ' || (c >= '\t' && c <= '\r') || c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
           c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

bool isOther(char32_t c) {
    switch (categoryOf(c)) {
        case UTF8PROC_CATEGORY_CC: case UTF8PROC_CATEGORY_CF: case UTF8PROC_CATEGORY_CN: case UTF8PROC_CATEGORY_CO:
        case UTF8PROC_CATEGORY_CS: return true;
        default: return false;
    }
}

bool isPunctuation(char32_t c) {
    if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)) return true;
    switch (categoryOf(c)) {
        case UTF8PROC_CATEGORY_PC: case UTF8PROC_CATEGORY_PD: case UTF8PROC_CATEGORY_PS: case UTF8PROC_CATEGORY_PE:
        case UTF8PROC_CATEGORY_PI: case UTF8PROC_CATEGORY_PF: case UTF8PROC_CATEGORY_PO: return true;
        default: return false;
    }
}

bool isCjkIdeograph(char32_t c) {
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
           (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

bool isNonSpacingMark(char32_t c) { return categoryOf(c) == UTF8PROC_CATEGORY_MN; }

bool isAlphanumeric(char32_t c) {
    const utf8proc_category_t category = categoryOf(c);
    return (category >= UTF8PROC_CATEGORY_LU && category <= UTF8PROC_CATEGORY_LO) ||
           (category >= UTF8PROC_CATEGORY_ND && category <= UTF8PROC_CATEGORY_NO);
}

bool isLetter(char32_t c) {
    const utf8proc_category_t category = categoryOf(c);
    return category >= UTF8PROC_CATEGORY_LU && category <= UTF8PROC_CATEGORY_LO;
}

std::string normalizeUnicode(std::string_view text, NormalForm form) {
    int options = UTF8PROC_STABLE;
    switch (form) {
        case NormalForm::Nfc: options |= UTF8PROC_COMPOSE; break;
        case NormalForm::Nfd: options |= UTF8PROC_DECOMPOSE; break;
        case NormalForm::Nfkc: options |= UTF8PROC_COMPOSE | UTF8PROC_COMPAT; break;
        case NormalForm::Nfkd: options |= UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT; break;
    }
    utf8proc_uint8_t* result = nullptr;
    const utf8proc_ssize_t length = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(text.data()), static_cast<utf8proc_ssize_t>(text.size()),
                                                 &result, static_cast<utf8proc_option_t>(options));
    if (length < 0) throw std::invalid_argument("normalizeUnicode needs valid UTF-8");
    const std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owned(result, &std::free);
    return std::string(reinterpret_cast<const char*>(result), static_cast<std::size_t>(length));
}

std::string lowercase(std::string_view text) {
    std::string out;
    for (char32_t c : decodeUtf8(text)) {
        if (c == 0x130) out += "i\xCC\x87";  // İ: the one character whose lower case is two (i + combining dot above)
        else out += utf8Of(static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c))));
    }
    return out;
}

}  // namespace attnviz::core
