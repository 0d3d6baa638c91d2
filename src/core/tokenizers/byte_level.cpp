// byte_level.cpp — GPT-2's byte alphabet and the labels of its pieces. See byte_level.h.
#include "core/tokenizers/byte_level.h"

#include "core/unicode.h"

#include <unordered_map>
#include <utility>

namespace attnviz::core {
namespace {

// The byte each stand-in character stands for (the inverse of byteToUnicode).
const std::unordered_map<std::string, unsigned char>& unicodeToByte() {
    static const std::unordered_map<std::string, unsigned char> inverse = [] {
        std::unordered_map<std::string, unsigned char> map;
        for (int b = 0; b < 256; ++b) map.emplace(byteToUnicode()[static_cast<std::size_t>(b)], static_cast<unsigned char>(b));
        return map;
    }();
    return inverse;
}

std::string hexBytes(const std::string& bytes) {
    static const char* digits = "0123456789ABCDEF";
    std::string out = "<";
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const auto b = static_cast<unsigned char>(bytes[i]);
        if (i > 0) out += ' ';
        out += digits[b >> 4];
        out += digits[b & 15];
    }
    return out + ">";
}

}  // namespace

const std::vector<std::string>& byteToUnicode() {
    static const std::vector<std::string> map = [] {
        std::vector<std::string> table(256);
        const auto printable = [](int b) { return (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255); };
        char32_t next = 256;
        for (int b = 0; b < 256; ++b) table[static_cast<std::size_t>(b)] = utf8Of(printable(b) ? static_cast<char32_t>(b) : next++);
        return table;
    }();
    return map;
}

std::string byteLevelLabel(const std::string& piece) {
    std::string bytes;
    for (const std::string& character : utf8Characters(piece)) {
        const auto found = unicodeToByte().find(character);
        if (found == unicodeToByte().end()) return piece;  // not in the byte alphabet: a special token
        bytes += static_cast<char>(found->second);
    }
    std::string label, partial;
    for (std::size_t i = 0; i < bytes.size();) {
        const auto lead = static_cast<unsigned char>(bytes[i]);
        const std::size_t length = utf8Length(lead);
        const std::string character = bytes.substr(i, length);
        if (lead >= 0x80 && (character.size() < length || findInvalidUtf8(character) != std::string::npos)) {
            partial += bytes[i++];
            continue;
        }
        if (!partial.empty()) label += hexBytes(std::exchange(partial, {}));
        label += character == " " ? "␣" : character == "\n" ? "↵" : character == "\t" ? "⇥" : character;
        i += length;
    }
    if (!partial.empty()) label += hexBytes(partial);
    return label;
}

}  // namespace attnviz::core
