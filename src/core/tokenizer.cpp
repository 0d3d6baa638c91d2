// tokenizer.cpp — UTF-8 decoding and word/punctuation splitting. See tokenizer.h for the rules.
#include "core/tokenizer.h"

#include <algorithm>
#include <array>
#include <unordered_map>
#include <utility>

namespace attnviz::core {
namespace {

constexpr std::size_t kNoError = std::string_view::npos;

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

bool isSpace(char32_t c) {
    return c == ' ' || (c >= '\t' && c <= '\r') || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
           c == 0x3000 || c == 0xFEFF;
}

bool isPunctuation(char32_t c) {
    if (c < 0x80) return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~');
    // General Punctuation block (dashes, quotes, ellipsis…), Latin-1 punctuation, CJK punctuation.
    return (c >= 0x2010 && c <= 0x2027) || (c >= 0x2030 && c <= 0x205E) || c == 0xA1 || c == 0xA7 ||
           c == 0xAB || c == 0xB6 || c == 0xB7 || c == 0xBB || c == 0xBF || (c >= 0x3001 && c <= 0x3003) ||
           (c >= 0x3008 && c <= 0x3011);
}

std::string tokenLimitMessage(std::size_t count, int limit) {
    return "The sentence has more than " + std::to_string(limit) + " tokens (" + std::to_string(count) +
           "+ so far); shorten it or raise the token limit (at most " + std::to_string(kMaxTokenLimit) + ").";
}

}  // namespace

std::size_t findInvalidUtf8(std::string_view text) {
    for (std::size_t at = 0; at < text.size();) {
        const Decoded d = decodeOne(text, at);
        if (d.bytes == 0) return at;
        at += static_cast<std::size_t>(d.bytes);
    }
    return kNoError;
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

bool isBlankSentence(std::string_view sentence) {
    if (findInvalidUtf8(sentence) != kNoError) return false;
    for (std::size_t at = 0; at < sentence.size();) {
        const Decoded d = decodeOne(sentence, at);
        if (!isSpace(d.codePoint) && d.codePoint >= 0x20 && d.codePoint != 0x7F) return false;
        at += static_cast<std::size_t>(d.bytes);
    }
    return true;
}

std::vector<std::string> tokenize(std::string_view sentence, const TokenizeOptions& options) {
    if (options.tokenLimit < 1 || options.tokenLimit > kMaxTokenLimit) {
        throw InputError("The token limit must be between 1 and " + std::to_string(kMaxTokenLimit) + " (got " +
                         std::to_string(options.tokenLimit) + ").");
    }
    if (const std::size_t bad = findInvalidUtf8(sentence); bad != kNoError) {
        throw InputError("The sentence is not valid UTF-8 (bad byte at offset " + std::to_string(bad) + ").");
    }
    std::vector<std::string> tokens;
    if (options.prependCls) tokens.emplace_back(kClsToken);
    const std::size_t limit = static_cast<std::size_t>(options.tokenLimit);

    std::string word;
    const auto push = [&](std::string token) {
        if (tokens.size() >= limit) throw InputError(tokenLimitMessage(tokens.size() + 1, options.tokenLimit));
        tokens.push_back(std::move(token));
    };
    const auto flushWord = [&] {
        if (!word.empty()) push(std::exchange(word, {}));
    };
    for (std::size_t at = 0; at < sentence.size();) {
        const Decoded d = decodeOne(sentence, at);
        const std::string_view bytes = sentence.substr(at, static_cast<std::size_t>(d.bytes));
        at += static_cast<std::size_t>(d.bytes);
        if (isSpace(d.codePoint) || d.codePoint < 0x20 || d.codePoint == 0x7F) {
            flushWord();  // control characters separate words like spaces; they never become tokens
        } else if (isPunctuation(d.codePoint)) {
            flushWord();
            push(std::string(bytes));
        } else {
            word += bytes;
        }
    }
    flushWord();
    const std::size_t contentTokens = tokens.size() - (options.prependCls ? 1 : 0);
    if (contentTokens == 0) throw InputError(kEmptySentenceMessage);
    return tokens;
}

std::vector<std::vector<int>> batchVocabularyIds(const std::vector<std::vector<std::string>>& tokens) {
    std::unordered_map<std::string, int> vocabulary;
    std::vector<std::vector<int>> ids;
    for (const std::vector<std::string>& sentence : tokens) {
        std::vector<int>& row = ids.emplace_back();
        for (const std::string& token : sentence) {
            row.push_back(vocabulary.emplace(token, static_cast<int>(vocabulary.size())).first->second);
        }
    }
    return ids;
}

}  // namespace attnviz::core
