// bpe.cpp — GPT-2's byte-level BPE. See bpe.h.
#include "core/tokenizers/bpe.h"

#include "core/display_text.h"  // echoed
#include "core/tokenizer.h"  // InputError
#include "core/unicode.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <climits>
#include <utility>

namespace attnviz::core {
namespace {

constexpr std::string_view kEndOfText = "<|endoftext|>";
constexpr std::string_view kPattern = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
constexpr std::size_t kCacheLimit = 100000;  // chunks remembered (cleared when full)

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

struct Gpt2BpeTokenizer::Pattern {
    pcre2_code* code = nullptr;
    Pattern() {
        int error = 0;
        PCRE2_SIZE offset = 0;
        code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(kPattern.data()), kPattern.size(), PCRE2_UTF | PCRE2_UCP, &error, &offset, nullptr);
        if (code == nullptr) throw std::logic_error("GPT-2's pre-tokenization pattern does not compile");
        pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);  // optional speed-up; matching works without it
    }
    ~Pattern() { pcre2_code_free(code); }
    Pattern(const Pattern&) = delete;
    Pattern& operator=(const Pattern&) = delete;
};

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

Gpt2BpeTokenizer::Gpt2BpeTokenizer(std::unordered_map<std::string, int> vocabulary, const std::vector<std::pair<std::string, std::string>>& merges)
    : vocabulary_(std::move(vocabulary)), pattern_(std::make_unique<Pattern>()) {
    int largest = -1;
    for (const auto& [piece, id] : vocabulary_) {
        if (id < 0) throw InputError("The vocabulary gives \"" + echoed(piece) + "\" the negative id " + std::to_string(id) + ".");
        largest = std::max(largest, id);
    }
    pieces_.resize(static_cast<std::size_t>(largest + 1));
    for (const auto& [piece, id] : vocabulary_) pieces_[static_cast<std::size_t>(id)] = piece;
    for (const std::string& single : byteToUnicode()) {
        if (!vocabulary_.contains(single)) throw InputError("The vocabulary lacks the byte piece \"" + single + "\", which every GPT-2 vocabulary has.");
    }
    for (std::size_t rank = 0; rank < merges.size(); ++rank) {
        mergeRank_.emplace(merges[rank].first + " " + merges[rank].second, static_cast<int>(rank));
    }
}

Gpt2BpeTokenizer::~Gpt2BpeTokenizer() = default;

std::string Gpt2BpeTokenizer::pieceOf(int id) const {
    return id >= 0 && id < static_cast<int>(pieces_.size()) ? pieces_[static_cast<std::size_t>(id)] : std::string();
}

std::vector<std::string> Gpt2BpeTokenizer::bpe(const std::string& chunk) const {
    {
        const std::lock_guard lock(cacheMutex_);
        if (const auto found = cache_.find(chunk); found != cache_.end()) return found->second;
    }
    std::string mapped;
    for (unsigned char b : chunk) mapped += byteToUnicode()[b];
    std::vector<std::string> parts = utf8Characters(mapped);
    while (parts.size() > 1) {
        int best = INT_MAX;
        std::size_t at = 0;
        for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
            const auto rank = mergeRank_.find(parts[i] + " " + parts[i + 1]);
            if (rank != mergeRank_.end() && rank->second < best) {
                best = rank->second;
                at = i;
            }
        }
        if (best == INT_MAX) break;
        // Merge every occurrence of the best pair, left to right (as GPT-2's encoder does).
        const std::string left = parts[at], right = parts[at + 1];
        std::vector<std::string> merged;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            if (i + 1 < parts.size() && parts[i] == left && parts[i + 1] == right) {
                merged.push_back(left + right);
                ++i;
            } else {
                merged.push_back(parts[i]);
            }
        }
        parts = std::move(merged);
    }
    const std::lock_guard lock(cacheMutex_);
    if (cache_.size() >= kCacheLimit) cache_.clear();
    cache_.emplace(chunk, parts);
    return parts;
}

void Gpt2BpeTokenizer::encodeChunk(std::string_view text, Encoding& out) const {
    pcre2_match_data* match = pcre2_match_data_create_from_pattern(pattern_->code, nullptr);
    PCRE2_SIZE start = 0;
    while (start < text.size()) {
        // The text was checked as UTF-8 once (encode); PCRE2 would check the whole of it again at every match.
        const int found = pcre2_match(pattern_->code, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), start, PCRE2_NO_UTF_CHECK, match, nullptr);
        if (found < 0) break;  // the last alternatives match any character, so this happens only at the end
        const PCRE2_SIZE* range = pcre2_get_ovector_pointer(match);
        if (range[1] == range[0]) break;
        for (const std::string& piece : bpe(std::string(text.substr(range[0], range[1] - range[0])))) {
            // A merge result the vocabulary lacks (a damaged vocabulary) falls back to its single bytes, which
            // every vocabulary has (checked when constructed).
            const bool known = vocabulary_.contains(piece);
            for (const std::string& part : known ? std::vector<std::string>{piece} : utf8Characters(piece)) {
                appendToken(out, vocabulary_.at(part), part, labelOf(part));
            }
        }
        start = range[1];
    }
    pcre2_match_data_free(match);
}

Encoding Gpt2BpeTokenizer::encode(std::string_view text) const {
    if (const std::size_t bad = findInvalidUtf8(text); bad != std::string_view::npos) {
        throw InputError("The text is not valid UTF-8 (at byte " + std::to_string(bad) + ").");
    }
    Encoding out;
    const auto special = vocabulary_.find(std::string(kEndOfText));
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t next = special != vocabulary_.end() ? text.find(kEndOfText, start) : std::string_view::npos;
        encodeChunk(text.substr(start, next == std::string_view::npos ? std::string_view::npos : next - start), out);
        if (next == std::string_view::npos) break;
        appendToken(out, special->second, std::string(kEndOfText), std::string(kEndOfText), true);
        start = next + kEndOfText.size();
    }
    return out;
}

std::string Gpt2BpeTokenizer::labelOf(const std::string& piece) {
    std::string bytes;
    for (const std::string& character : utf8Characters(piece)) {
        const auto found = unicodeToByte().find(character);
        if (found == unicodeToByte().end()) return piece;  // not in the byte alphabet: a special token
        bytes += static_cast<char>(found->second);
    }
    // Whole characters as text (spaces, newlines and tabs made visible); bytes of a character split across pieces
    // (half an emoji) as hex: "␣<F0 9F 98>".
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
