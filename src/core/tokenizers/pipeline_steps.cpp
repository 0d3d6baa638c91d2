// pipeline_steps.cpp — tokenizer.json's normalizers and pre-tokenizers, and the PCRE2 patterns they use. Each step
// does what HuggingFace's tokenizers (normalizers/*.rs, pre_tokenizers/*.rs) does to the text; offsets are not
// kept, since attnviz needs only the pieces. See pipeline.h.
#include "core/tokenizers/pipeline_internal.h"

#include "core/display_text.h"  // echoed
#include "core/limits.h"
#include "core/tokenizer.h"  // InputError
#include "core/tokenizers/byte_level.h"
#include "core/unicode.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <functional>

namespace attnviz::core::pipeline {
namespace {

constexpr std::string_view kByteLevelPattern = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
constexpr std::string_view kWhitespacePattern = R"(\w+|[^\w\s]+)";

// A piece of a split text: [begin, end) and whether the pattern matched it.
struct Piece {
    std::size_t begin = 0, end = 0;
    bool matched = false;
};

// Matches and the gaps between them, covering the whole text.
std::vector<Piece> piecesOf(const std::vector<std::pair<std::size_t, std::size_t>>& matches, std::size_t length) {
    std::vector<Piece> pieces;
    std::size_t previous = 0;
    for (const auto& [begin, end] : matches) {
        if (begin > previous) pieces.push_back({previous, begin, false});
        pieces.push_back({begin, end, true});
        previous = end;
    }
    if (previous < length) pieces.push_back({previous, length, false});
    return pieces;
}

// Each character for which `test` holds is a match of its own (HuggingFace's `impl Pattern for Fn(char) -> bool`).
std::vector<std::pair<std::size_t, std::size_t>> characterMatches(std::string_view text, const std::function<bool(char32_t)>& test) {
    std::vector<std::pair<std::size_t, std::size_t>> matches;
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t length = std::min(utf8Length(static_cast<unsigned char>(text[at])), text.size() - at);
        if (test(decodeUtf8(text.substr(at, length)).front())) matches.emplace_back(at, at + length);
        at += length;
    }
    return matches;
}

// HuggingFace's NormalizedString::split: the pieces kept and joined as `behavior` says.
std::vector<Piece> applyBehavior(std::vector<Piece> pieces, SplitBehavior behavior, bool invert) {
    if (invert) {
        for (Piece& piece : pieces) piece.matched = !piece.matched;
    }
    std::vector<Piece> out;
    bool previousMatched = false;
    switch (behavior) {
        case SplitBehavior::Removed:
            for (const Piece& piece : pieces) {
                if (!piece.matched) out.push_back(piece);
            }
            return out;
        case SplitBehavior::Isolated: return pieces;
        case SplitBehavior::MergedWithPrevious:
            for (const Piece& piece : pieces) {
                if (piece.matched && !previousMatched && !out.empty()) out.back().end = piece.end;
                else out.push_back(piece);
                previousMatched = piece.matched;
            }
            return out;
        case SplitBehavior::MergedWithNext:
            for (auto piece = pieces.rbegin(); piece != pieces.rend(); ++piece) {
                if (piece->matched && !previousMatched && !out.empty()) out.back().begin = piece->begin;
                else out.push_back(*piece);
                previousMatched = piece->matched;
            }
            return {out.rbegin(), out.rend()};
        case SplitBehavior::Contiguous:
            for (const Piece& piece : pieces) {
                if (piece.matched == previousMatched && !out.empty()) out.back().end = piece.end;
                else out.push_back(piece);
                previousMatched = piece.matched;
            }
            return out;
    }
    return out;
}

// Splits every split by `find`'s matches, as `behavior` says.
using Finder = std::function<std::vector<std::pair<std::size_t, std::size_t>>(std::string_view)>;
std::vector<Split> splitEach(const std::vector<Split>& splits, const Finder& find, SplitBehavior behavior, bool invert = false) {
    std::vector<Split> out;
    for (const Split& split : splits) {
        for (const Piece& piece : applyBehavior(piecesOf(find(split.text), split.text.size()), behavior, invert)) {
            if (piece.end > piece.begin) out.push_back({split.text.substr(piece.begin, piece.end - piece.begin), split.atStart && piece.begin == 0});
        }
    }
    return out;
}

// A normalizer's name in tokenizer.json, for refusals.
std::string_view nameOf(NormalizerStep::Kind kind) {
    using Kind = NormalizerStep::Kind;
    switch (kind) {
        case Kind::Sequence: return "Sequence";
        case Kind::Nfc: return "NFC";
        case Kind::Nfd: return "NFD";
        case Kind::Nfkc: return "NFKC";
        case Kind::Nfkd: return "NFKD";
        case Kind::Lowercase: return "Lowercase";
        case Kind::StripAccents: return "StripAccents";
        case Kind::Bert: return "BertNormalizer";
        case Kind::Prepend: return "Prepend";
        case Kind::Replace: return "Replace";
        case Kind::Strip: return "Strip";
    }
    return "?";
}

std::size_t bytesOf(const std::vector<Split>& splits) {
    std::size_t bytes = 0;
    for (const Split& split : splits) bytes += split.text.size();
    return bytes;
}

const Regex& byteLevelRegex() {
    static const Regex regex(TextPattern{std::string(kByteLevelPattern), true});
    return regex;
}

const Regex& whitespaceRegex() {
    static const Regex regex(TextPattern{std::string(kWhitespacePattern), true});
    return regex;
}

std::string replaceAll(std::string_view text, const Regex& regex, const std::string& content, WorkBudget& budget) {
    std::string out;
    std::size_t previous = 0;
    for (const auto& [begin, end] : regex.findAll(text, budget)) {
        out.append(text.substr(previous, begin - previous));
        out += content;
        budget.checkSize(out.size(), "normalizer Replace");
        previous = end;
    }
    out.append(text.substr(previous));
    return out;
}

// Metaspace's replacement of every space.
std::string replaceSpaces(std::string_view text, const std::string& to, std::size_t bytesBefore, const WorkBudget& budget) {
    std::string out;
    for (std::size_t at = 0; at < text.size();) {
        if (text[at] == ' ') {
            out += to;
            budget.checkSize(bytesBefore + out.size(), "pre-tokenizer Metaspace");
            ++at;
        } else {
            out += text[at++];
        }
    }
    return out;
}

// BertNormalizer: drop NUL, U+FFFD and controls, whitespace → " ", spaces around CJK ideographs, then NFD with the
// non-spacing marks dropped, then lower case.
std::string bertNormalize(const NormalizerStep& step, const std::string& text) {
    std::u32string cleaned;
    for (char32_t c : decodeUtf8(text)) {
        const bool control = c != '\t' && c != '\n' && c != '\r' && isOther(c);
        if (step.cleanText && (c == 0 || c == 0xFFFD || control)) continue;
        if (step.cleanText && isWhitespace(c)) c = U' ';
        if (step.handleChineseChars && isCjkIdeograph(c)) cleaned += {U' ', c, U' '};
        else cleaned += c;
    }
    std::string out = utf8Of(cleaned);
    if (step.stripAccents) {
        std::u32string kept;
        for (char32_t c : decodeUtf8(normalizeUnicode(out, NormalForm::Nfd))) {
            if (!isNonSpacingMark(c)) kept += c;
        }
        out = utf8Of(kept);
    }
    return step.lowercase ? lowercase(out) : out;
}

std::string strip(const std::string& text, bool left, bool right) {
    const std::vector<std::string> characters = utf8Characters(text);
    std::size_t first = 0, last = characters.size();
    while (left && first < last && isWhitespace(decodeUtf8(characters[first]).front())) ++first;
    while (right && last > first && isWhitespace(decodeUtf8(characters[last - 1]).front())) --last;
    std::string out;
    for (std::size_t i = first; i < last; ++i) out += characters[i];
    return out;
}

std::string byteLevelMapped(const std::string& text) {
    std::string out;
    for (unsigned char b : text) out += byteToUnicode()[b];
    return out;
}

void metaspace(const PreTokenizerStep& step, std::vector<Split>& splits, WorkBudget& budget) {
    std::size_t bytesBefore = 0;  // of the splits already replaced
    for (Split& split : splits) {
        split.text = replaceSpaces(split.text, step.replacement, bytesBefore, budget);
        bytesBefore += split.text.size() + step.replacement.size();
        const bool starts = split.text.compare(0, step.replacement.size(), step.replacement) == 0;
        const bool prepend = step.prependScheme == PrependScheme::Always || (step.prependScheme == PrependScheme::First && split.atStart);
        if (prepend && !starts) split.text = step.replacement + split.text;
    }
    if (step.split) {
        const Regex literal(TextPattern{step.replacement, false});
        splits = splitEach(splits, [&](std::string_view text) { return literal.findAll(text, budget); }, SplitBehavior::MergedWithNext);
    }
}

void collectPatterns(const NormalizerStep& step, Patterns& patterns) {
    if (step.kind == NormalizerStep::Kind::Replace) patterns.emplace(&step.pattern, std::make_unique<Regex>(step.pattern));
    for (const NormalizerStep& inner : step.steps) collectPatterns(inner, patterns);
}

void collectPatterns(const PreTokenizerStep& step, Patterns& patterns) {
    if (step.kind == PreTokenizerStep::Kind::Split) patterns.emplace(&step.pattern, std::make_unique<Regex>(step.pattern));
    for (const PreTokenizerStep& inner : step.steps) collectPatterns(inner, patterns);
}

}  // namespace

WorkBudget::WorkBudget(std::size_t textBytes)
    : textBytes_(textBytes),
      stepsLeft_(std::min(limits::kRegexStepsPerTextByte * textBytes + limits::kRegexMaxMatchLimit, limits::kRegexMaxStepsPerText)) {}

void WorkBudget::chargeSteps(std::uint64_t steps, std::string_view pattern) {
    if (steps > stepsLeft_) {
        throw InputError("The tokenizer's pattern \"" + echoed(pattern) + "\" needs more matching work than attnviz allows for a text of " +
                         std::to_string(textBytes_) + " bytes; shorten the text or use another tokenizer.");
    }
    stepsLeft_ -= steps;
}

void WorkBudget::checkSize(std::size_t bytes, std::string_view step) const {
    if (bytes > limits::kTextGrowth * textBytes_ + limits::kTextGrowthSlack) {
        throw InputError("The tokenizer's " + std::string(step) + " makes the text of " + std::to_string(textBytes_) + " bytes more than " +
                         std::to_string(limits::kTextGrowth) + " times longer; attnviz stops there.");
    }
}

struct Regex::Code {
    pcre2_code* code = nullptr;
    pcre2_match_context* context = nullptr;
    std::string text;  // the pattern, for refusals
    ~Code() {
        pcre2_match_context_free(context);
        pcre2_code_free(code);
    }
};

Regex::Regex(const TextPattern& pattern) : code_(std::make_unique<Code>()) {
    int error = 0;
    PCRE2_SIZE offset = 0;
    const uint32_t options = PCRE2_UTF | (pattern.regex ? PCRE2_UCP : PCRE2_LITERAL);
    code_->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.text.data()), pattern.text.size(), options, &error, &offset, nullptr);
    if (code_->code == nullptr) {
        PCRE2_UCHAR message[256];
        pcre2_get_error_message(error, message, sizeof message);
        throw InputError("The pattern \"" + echoed(pattern.text) + "\" does not compile (" + reinterpret_cast<const char*>(message) + " at offset " +
                         std::to_string(offset) + ").");
    }
    pcre2_jit_compile(code_->code, PCRE2_JIT_COMPLETE);  // optional speed-up; matching works without it
    code_->context = pcre2_match_context_create(nullptr);
    pcre2_set_depth_limit(code_->context, limits::kRegexDepthLimit);
    pcre2_set_heap_limit(code_->context, limits::kRegexHeapLimitKibibytes);
    code_->text = pattern.text;
}

Regex::~Regex() = default;

// One pcre2_match from `start`, under limits growing from kRegexFirstMatchLimit (core/limits.h), each attempt charged
// to the budget. Returns PCRE2's result: ≥ 0 for a match, PCRE2_ERROR_NOMATCH.
int Regex::matchOnce(std::string_view text, std::size_t start, pcre2_match_data* match, WorkBudget& budget) const {
    for (std::uint32_t limit = limits::kRegexFirstMatchLimit;; limit = std::min(limit * limits::kRegexLimitGrowth, limits::kRegexMaxMatchLimit)) {
        budget.chargeSteps(limit, code_->text);
        pcre2_set_match_limit(code_->context, limit);
        // The text is valid UTF-8 (checked once by encode); PCRE2 would check all of it again at every match.
        const int found = pcre2_match(code_->code, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), start, PCRE2_NO_UTF_CHECK, match, code_->context);
        if (found == PCRE2_ERROR_MATCHLIMIT && limit < limits::kRegexMaxMatchLimit) continue;
        if (found >= 0 || found == PCRE2_ERROR_NOMATCH) return found;
        PCRE2_UCHAR message[256];
        pcre2_get_error_message(found, message, sizeof message);
        throw InputError("The tokenizer's pattern \"" + echoed(code_->text) + "\" gives up on this text (" + reinterpret_cast<const char*>(message) +
                         "); shorten the text or use another tokenizer.");
    }
}

std::vector<std::pair<std::size_t, std::size_t>> Regex::findAll(std::string_view text, WorkBudget& budget) const {
    std::vector<std::pair<std::size_t, std::size_t>> matches;
    pcre2_match_data* match = pcre2_match_data_create_from_pattern(code_->code, nullptr);
    const std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> owned(match, &pcre2_match_data_free);
    for (PCRE2_SIZE start = 0; start <= text.size();) {
        const int found = matchOnce(text, start, match, budget);
        if (found == PCRE2_ERROR_NOMATCH) break;
        const PCRE2_SIZE* range = pcre2_get_ovector_pointer(match);
        if (range[1] > range[0] && range[0] >= start) {
            matches.emplace_back(range[0], range[1]);
            start = range[1];
        } else {  // an empty match: move on one character
            const PCRE2_SIZE at = std::max<PCRE2_SIZE>(range[0], start);
            if (at >= text.size()) break;
            start = at + utf8Length(static_cast<unsigned char>(text[at]));
        }
    }
    return matches;
}

void compilePatterns(const TokenizerDefinition& definition, Patterns& patterns) {
    if (definition.normalizer) collectPatterns(*definition.normalizer, patterns);
    if (definition.preTokenizer) collectPatterns(*definition.preTokenizer, patterns);
}

namespace {

std::string normalizeOnce(const NormalizerStep& step, std::string text, const Patterns& patterns, WorkBudget& budget) {
    using Kind = NormalizerStep::Kind;
    switch (step.kind) {
        case Kind::Sequence:
            for (const NormalizerStep& inner : step.steps) text = normalize(inner, std::move(text), patterns, budget);
            return text;
        case Kind::Nfc: return normalizeUnicode(text, NormalForm::Nfc);
        case Kind::Nfd: return normalizeUnicode(text, NormalForm::Nfd);
        case Kind::Nfkc: return normalizeUnicode(text, NormalForm::Nfkc);
        case Kind::Nfkd: return normalizeUnicode(text, NormalForm::Nfkd);
        case Kind::Lowercase: return lowercase(text);
        case Kind::StripAccents: {
            std::u32string kept;
            for (char32_t c : decodeUtf8(text)) {
                if (!isNonSpacingMark(c)) kept += c;
            }
            return utf8Of(kept);
        }
        case Kind::Bert: return bertNormalize(step, text);
        case Kind::Prepend: return text.empty() ? text : step.content + text;
        case Kind::Replace: return replaceAll(text, *patterns.at(&step.pattern), step.content, budget);
        case Kind::Strip: return strip(text, step.stripLeft, step.stripRight);
    }
    return text;
}

std::vector<Split> preTokenizeOnce(const PreTokenizerStep& step, std::vector<Split> splits, const Patterns& patterns, WorkBudget& budget) {
    using Kind = PreTokenizerStep::Kind;
    switch (step.kind) {
        case Kind::Sequence:
            for (const PreTokenizerStep& inner : step.steps) splits = preTokenize(inner, std::move(splits), patterns, budget);
            return splits;
        case Kind::ByteLevel:
            if (step.addPrefixSpace) {
                for (Split& split : splits) {
                    if (split.text.empty() || split.text.front() != ' ') split.text.insert(0, 1, ' ');
                }
            }
            if (step.useRegex) splits = splitEach(splits, [&](std::string_view text) { return byteLevelRegex().findAll(text, budget); }, SplitBehavior::Isolated);
            for (Split& split : splits) split.text = byteLevelMapped(split.text);
            return splits;
        case Kind::Split: {
            const Regex& regex = *patterns.at(&step.pattern);
            return splitEach(splits, [&](std::string_view text) { return regex.findAll(text, budget); }, step.behavior, step.invert);
        }
        case Kind::Metaspace: metaspace(step, splits, budget); return splits;
        case Kind::Bert:
            splits = splitEach(splits, [](std::string_view text) { return characterMatches(text, isWhitespace); }, SplitBehavior::Removed);
            return splitEach(splits, [](std::string_view text) { return characterMatches(text, isPunctuation); }, SplitBehavior::Isolated);
        case Kind::Whitespace:
            return splitEach(splits, [&](std::string_view text) { return whitespaceRegex().findAll(text, budget); }, SplitBehavior::Removed, true);
        case Kind::WhitespaceSplit:
            return splitEach(splits, [](std::string_view text) { return characterMatches(text, isWhitespace); }, SplitBehavior::Removed);
        case Kind::Digits:
            return splitEach(splits, [](std::string_view text) { return characterMatches(text, [](char32_t c) { return c >= '0' && c <= '9'; }); },
                             step.individualDigits ? SplitBehavior::Isolated : SplitBehavior::Contiguous);
        case Kind::Punctuation:
            return splitEach(splits, [](std::string_view text) { return characterMatches(text, isPunctuation); }, step.behavior);
    }
    return splits;
}

}  // namespace

std::string normalize(const NormalizerStep& step, std::string text, const Patterns& patterns, WorkBudget& budget) {
    std::string out = normalizeOnce(step, std::move(text), patterns, budget);
    budget.checkSize(out.size(), "normalizer " + std::string(nameOf(step.kind)));
    return out;
}

std::vector<Split> preTokenize(const PreTokenizerStep& step, std::vector<Split> splits, const Patterns& patterns, WorkBudget& budget) {
    std::vector<Split> out = preTokenizeOnce(step, std::move(splits), patterns, budget);
    budget.checkSize(bytesOf(out), "pre-tokenizer");
    return out;
}

}  // namespace attnviz::core::pipeline
