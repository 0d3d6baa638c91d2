// pipeline.cpp — PipelineTokenizer: added tokens, the steps in order, the post-processor and labels. See pipeline.h.
#include "core/tokenizers/pipeline.h"

#include "core/display_text.h"  // echoed
#include "core/tokenizer.h"  // InputError
#include "core/tokenizers/byte_level.h"
#include "core/tokenizers/pipeline_internal.h"
#include "core/unicode.h"

#include <algorithm>

namespace attnviz::core {
namespace {

using pipeline::Split;

// A stretch of text, or an added token found in it.
struct Segment {
    std::string_view text;
    std::size_t offset = 0;
    const AddedToken* token = nullptr;
};

// single_word: an added token counts only between characters that are not letters, digits or "_".
bool isWordCharacter(char32_t c) { return c == '_' || isAlphanumeric(c); }

char32_t characterBefore(std::string_view text, std::size_t at) {
    std::size_t start = at;
    while (start > 0 && (static_cast<unsigned char>(text[start - 1]) & 0xC0) == 0x80) --start;
    return start > 0 ? decodeUtf8(text.substr(start - 1, at - start + 1)).front() : U' ';
}

char32_t characterAt(std::string_view text, std::size_t at) {
    return at < text.size() ? decodeUtf8(text.substr(at, std::min(utf8Length(static_cast<unsigned char>(text[at])), text.size() - at))).front() : U' ';
}

std::string visibleWhitespace(const std::string& text) {
    std::string out;
    for (char c : text) out += c == ' ' ? "␣" : c == '\n' ? "↵" : c == '\t' ? "⇥" : std::string(1, c);
    return out;
}

// "▁the" → "␣the"; a byte-fallback piece "<0xE2>" → "<E2>".
std::string metaspaceLabel(const std::string& piece) {
    if (piece.size() == 6 && piece.compare(0, 3, "<0x") == 0 && piece.back() == '>') {
        std::string hex = piece.substr(2);  // "xE2>"
        hex.front() = '<';
        return hex;
    }
    std::string out;
    for (std::size_t at = 0; at < piece.size();) {
        if (piece.compare(at, 3, "\xE2\x96\x81") == 0) {
            out += "␣";
            at += 3;
        } else {
            out += piece[at++];
        }
    }
    return visibleWhitespace(out);
}

// Checks the template's names; returns the largest id the post-processor adds.
int checkPostProcessor(const PostProcessorStep& step) {
    int largest = std::max(step.cls.second, step.sep.second);
    for (const PostProcessorStep& inner : step.steps) largest = std::max(largest, checkPostProcessor(inner));
    for (const PostProcessorStep::Item& item : step.single) {
        if (item.special && !step.specialTokens.contains(item.name)) {
            throw InputError("The post-processor's template uses the special token \"" + echoed(item.name) + "\", which it does not define.");
        }
    }
    for (const auto& [name, tokens] : step.specialTokens) {
        for (const auto& [id, piece] : tokens) {
            if (id < 0) throw InputError("The post-processor gives \"" + echoed(piece) + "\" the negative id " + std::to_string(id) + ".");
            largest = std::max(largest, id);
        }
    }
    return largest;
}

void postProcess(const PostProcessorStep& step, Encoding& encoding) {
    using Kind = PostProcessorStep::Kind;
    const auto special = [](Encoding& out, const std::pair<std::string, int>& token) { appendToken(out, token.second, token.first, token.first, true); };
    const auto sequence = [&](Encoding& out) {
        for (std::size_t i = 0; i < encoding.ids.size(); ++i) {
            appendToken(out, encoding.ids[i], encoding.pieces[i], encoding.labels[i], encoding.special[i]);
        }
    };
    Encoding out;
    switch (step.kind) {
        case Kind::Sequence:
            for (const PostProcessorStep& inner : step.steps) postProcess(inner, encoding);
            return;
        case Kind::ByteLevel: return;  // it only trims offsets
        case Kind::Template:
            for (const PostProcessorStep::Item& item : step.single) {
                if (!item.special) {
                    sequence(out);
                    continue;
                }
                for (const auto& [id, piece] : step.specialTokens.at(item.name)) special(out, {piece, id});
            }
            break;
        case Kind::Bert:
        case Kind::Roberta:
            special(out, step.cls);
            sequence(out);
            special(out, step.sep);
            break;
    }
    encoding = std::move(out);
}

}  // namespace

struct PipelineTokenizer::Machinery {
    pipeline::Patterns patterns;
    std::unique_ptr<pipeline::VocabularyRunner> runner;
    std::vector<const AddedToken*> raw, normalized;  // added tokens matched before / after the normalizer

    // Leftmost-longest matches of `tokens` in `text` (single_word, lstrip and rstrip as HuggingFace's
    // AddedVocabulary), with the text between them.
    std::vector<Segment> segments(std::string_view text, const std::vector<const AddedToken*>& tokens) const;
};

std::vector<Segment> PipelineTokenizer::Machinery::segments(std::string_view text, const std::vector<const AddedToken*>& tokens) const {
    std::vector<Segment> out;
    std::size_t textStart = 0;
    for (std::size_t at = 0; at < text.size() && !tokens.empty();) {
        const AddedToken* best = nullptr;
        for (const AddedToken* token : tokens) {
            if (token->content.empty() || text.compare(at, token->content.size(), token->content) != 0) continue;
            if (best != nullptr && best->content.size() >= token->content.size()) continue;
            const std::size_t end = at + token->content.size();
            if (token->singleWord && (isWordCharacter(characterBefore(text, at)) || isWordCharacter(characterAt(text, end)))) continue;
            best = token;
        }
        if (best == nullptr) {
            at += utf8Length(static_cast<unsigned char>(text[at]));
            continue;
        }
        std::size_t begin = at, end = at + best->content.size();
        while (best->leftStrip && begin > textStart && isWhitespace(characterBefore(text, begin))) {
            --begin;
            while (begin > textStart && (static_cast<unsigned char>(text[begin]) & 0xC0) == 0x80) --begin;
        }
        while (best->rightStrip && end < text.size() && isWhitespace(characterAt(text, end))) end += utf8Length(static_cast<unsigned char>(text[end]));
        if (begin > textStart) out.push_back({text.substr(textStart, begin - textStart), textStart, nullptr});
        out.push_back({text.substr(begin, end - begin), begin, best});
        textStart = at = end;
    }
    if (textStart < text.size()) out.push_back({text.substr(textStart), textStart, nullptr});
    return out;
}

PipelineTokenizer::PipelineTokenizer(TokenizerDefinition definition) : definition_(std::move(definition)), machinery_(std::make_unique<Machinery>()) {
    int largest = -1;
    for (const auto& [piece, id] : definition_.model.vocabulary) {
        if (id < 0) throw InputError("The vocabulary gives \"" + echoed(piece) + "\" the negative id " + std::to_string(id) + ".");
        largest = std::max(largest, id);
    }
    for (const AddedToken& token : definition_.addedTokens) {
        if (token.id < 0) throw InputError("The added token \"" + echoed(token.content) + "\" has the negative id " + std::to_string(token.id) + ".");
        largest = std::max(largest, token.id);
    }
    if (definition_.postProcessor) largest = std::max(largest, checkPostProcessor(*definition_.postProcessor));
    pieces_.resize(static_cast<std::size_t>(largest + 1));
    for (const auto& [piece, id] : definition_.model.vocabulary) pieces_[static_cast<std::size_t>(id)] = piece;
    for (const AddedToken& token : definition_.addedTokens) {
        pieces_[static_cast<std::size_t>(token.id)] = token.content;
        (token.normalized ? machinery_->normalized : machinery_->raw).push_back(&token);
    }
    pipeline::compilePatterns(definition_, machinery_->patterns);
    machinery_->runner = std::make_unique<pipeline::VocabularyRunner>(definition_.model);
    if (definition_.postProcessor) {
        Encoding specials;
        postProcess(*definition_.postProcessor, specials);
        specialsAdded_ = specials.ids.size();
    }
}

PipelineTokenizer::~PipelineTokenizer() = default;

std::string PipelineTokenizer::pieceOf(int id) const {
    return id >= 0 && id < static_cast<int>(pieces_.size()) ? pieces_[static_cast<std::size_t>(id)] : std::string();
}

std::string PipelineTokenizer::name() const {
    switch (definition_.model.kind) {
        case VocabularyModel::Kind::Bpe: return (definition_.labels == LabelStyle::ByteLevel ? "byte-level BPE (" : "BPE (") + definition_.source + ")";
        case VocabularyModel::Kind::WordPiece: return "WordPiece (" + definition_.source + ")";
        case VocabularyModel::Kind::WordLevel: return "WordLevel (" + definition_.source + ")";
    }
    return definition_.source;
}

void PipelineTokenizer::appendPiece(int id, Encoding& out) const {
    const std::string& piece = pieces_[static_cast<std::size_t>(id)];
    switch (definition_.labels) {
        case LabelStyle::ByteLevel: appendToken(out, id, piece, byteLevelLabel(piece)); return;
        case LabelStyle::Metaspace: appendToken(out, id, piece, metaspaceLabel(piece)); return;
        case LabelStyle::Plain: appendToken(out, id, piece, visibleWhitespace(piece)); return;
    }
}

std::vector<PipelineTokenizer::PreToken> PipelineTokenizer::preTokens(std::string_view text) const {
    if (const std::size_t bad = findInvalidUtf8(text); bad != std::string_view::npos) {
        throw InputError("The text is not valid UTF-8 (at byte " + std::to_string(bad) + ").");
    }
    std::vector<PreToken> out;
    pipeline::WorkBudget budget(text.size());
    const auto cut = [&](const Segment& segment, bool atStart) {
        std::vector<Split> splits{{std::string(segment.text), atStart}};
        if (definition_.preTokenizer) splits = pipeline::preTokenize(*definition_.preTokenizer, std::move(splits), machinery_->patterns, budget);
        for (Split& split : splits) out.push_back({nullptr, std::move(split.text)});
    };
    for (const Segment& raw : machinery_->segments(text, machinery_->raw)) {
        if (raw.token != nullptr) {
            out.push_back({raw.token, {}});
            continue;
        }
        std::string normalized(raw.text);
        if (definition_.normalizer) normalized = pipeline::normalize(*definition_.normalizer, std::move(normalized), machinery_->patterns, budget);
        for (const Segment& segment : machinery_->segments(normalized, machinery_->normalized)) {
            if (segment.token != nullptr) out.push_back({segment.token, {}});
            else cut(segment, raw.offset == 0 && segment.offset == 0);
        }
    }
    return out;
}

std::vector<std::string> PipelineTokenizer::typedWords(std::string_view text) const {
    if (definition_.model.kind == VocabularyModel::Kind::Bpe) return {};
    std::vector<std::string> words;
    for (PreToken& token : preTokens(text)) {
        if (token.added == nullptr) words.push_back(std::move(token.text));
        else if (!token.added->special) words.push_back(token.added->content);
    }
    return words;
}

Encoding PipelineTokenizer::encode(std::string_view text, std::size_t maxTokens) const {
    Encoding out;
    std::vector<int> ids;
    for (const PreToken& token : preTokens(text)) {
        if (out.ids.size() + specialsAdded_ > maxTokens) break;  // refused anyway: the rest is not looked up
        if (token.added != nullptr) {
            appendToken(out, token.added->id, token.added->content, token.added->content, token.added->special);
            continue;
        }
        ids.clear();
        machinery_->runner->encode(token.text, ids, maxTokens - (out.ids.size() + specialsAdded_));
        for (int id : ids) appendPiece(id, out);
    }
    if (definition_.postProcessor) postProcess(*definition_.postProcessor, out);
    return out;
}

}  // namespace attnviz::core
