// tokenizer.cpp — word/punctuation splitting. See tokenizer.h for the rules.
#include "core/tokenizer.h"

#include "core/unicode.h"

#include <algorithm>
#include <array>
#include <unordered_map>
#include <utility>

namespace attnviz::core {
namespace {

// Unicode's whitespace and the byte-order mark (a zero-width no-break space pasted text often starts with).
bool isSpace(char32_t c) { return isWhitespace(c) || c == 0xFEFF; }

bool isTeachingPunctuation(char32_t c) {
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

bool isBlankSentence(std::string_view sentence) {
    if (findInvalidUtf8(sentence) != std::string_view::npos) return false;
    for (char32_t c : decodeUtf8(sentence)) {
        if (!isWhitespace(c) && c >= 0x20 && c != 0x7F) return false;
    }
    return true;
}

std::vector<std::string> tokenize(std::string_view sentence, const TokenizeOptions& options, std::size_t stopAfter) {
    if (options.tokenLimit < 1 || options.tokenLimit > kMaxTokenLimit) {
        throw InputError("The token limit must be between 1 and " + std::to_string(kMaxTokenLimit) + " (got " +
                         std::to_string(options.tokenLimit) + ").");
    }
    if (const std::size_t bad = findInvalidUtf8(sentence); bad != std::string_view::npos) {
        throw InputError("The sentence is not valid UTF-8 (bad byte at offset " + std::to_string(bad) + ").");
    }
    std::vector<std::string> tokens;
    if (options.prependCls) tokens.emplace_back(kClsToken);
    const std::size_t limit = static_cast<std::size_t>(options.tokenLimit);

    std::string word;
    const auto flushWord = [&] {
        if (!word.empty()) tokens.push_back(std::exchange(word, {}));
    };
    // One character at a time, stopping at the first token past the limit or past stopAfter (and past [CLS]): the
    // rest of a pasted megabyte is never read.
    const std::size_t stop = std::min(limit, std::max(stopAfter, tokens.size()));
    for (std::size_t at = 0; at < sentence.size() && tokens.size() <= stop;) {
        const std::string_view bytes = sentence.substr(at, utf8Length(static_cast<unsigned char>(sentence[at])));
        at += bytes.size();
        const char32_t codePoint = decodeUtf8(bytes).front();
        if (isSpace(codePoint) || codePoint < 0x20 || codePoint == 0x7F) {
            flushWord();  // control characters separate words like spaces; they never become tokens
        } else if (isTeachingPunctuation(codePoint)) {
            flushWord();
            tokens.emplace_back(bytes);
        } else {
            word += bytes;
        }
    }
    flushWord();
    if (tokens.size() > limit) throw InputError(tokenLimitMessage(limit + 1, options.tokenLimit));
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

Encoding WordTokenizer::encode(std::string_view text, std::size_t maxTokens) const {
    const std::vector<std::string> words = tokenize(text, options_, maxTokens);
    const std::vector<int> ids = batchVocabularyIds({words}).front();
    Encoding encoding;
    for (std::size_t i = 0; i < words.size(); ++i) {
        appendToken(encoding, ids[i], words[i], words[i], options_.prependCls && i == 0);
    }
    return encoding;
}

}  // namespace attnviz::core
