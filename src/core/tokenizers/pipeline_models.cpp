// pipeline_models.cpp — tokenizer.json's models: BPE, WordPiece and WordLevel, each turning one pre-token into ids
// as HuggingFace's tokenizers (models/bpe/model.rs, models/wordpiece, models/wordlevel) does. See pipeline.h.
#include "core/tokenizers/pipeline_internal.h"

#include "core/display_text.h"  // echoed
#include "core/tokenizer.h"  // InputError
#include "core/unicode.h"

#include <algorithm>
#include <cstdio>
#include <queue>

namespace attnviz::core::pipeline {
namespace {

constexpr std::size_t kCacheLimit = 100000;  // words remembered (cleared when full)
// The longest word remembered, in bytes: the cache is for words that repeat; a pasted blob that is one word (to
// Llama-2, a whole paste) would hold a megabyte in it at every edit.
constexpr std::size_t kLongestCachedWord = 256;

unsigned long long pairKey(int left, int right) {
    return (static_cast<unsigned long long>(static_cast<unsigned>(left)) << 32) | static_cast<unsigned>(right);
}

// One symbol of a word being merged: its id and its neighbours (−1 at the ends); merged-away symbols are dead.
struct Symbol {
    int id = 0;
    int previous = -1, next = -1;
    bool alive = true;
};

// A candidate merge: lowest rank first, then leftmost.
struct Candidate {
    int rank = 0, position = 0, left = 0, right = 0;
    bool operator>(const Candidate& other) const { return rank != other.rank ? rank > other.rank : position > other.position; }
};

std::string quoted(const std::string& text) { return "\"" + echoed(text) + "\""; }

std::size_t characterCount(const std::string& text) {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace

VocabularyRunner::VocabularyRunner(const VocabularyModel& model) : model_(model) {
    if (model.unknownToken) {
        unknown_ = idOf(*model.unknownToken);
        if (unknown_ < 0) throw InputError("The unknown token " + quoted(*model.unknownToken) + " is not in the vocabulary.");
    } else if (model.kind != VocabularyModel::Kind::Bpe) {
        throw InputError("The model needs an unknown token (unk_token) for pieces outside its vocabulary.");
    }
    for (const auto& [piece, id] : model.vocabulary) longestPiece_ = std::max(longestPiece_, characterCount(piece));
    merges_.reserve(model.merges.size());
    std::string joined;
    for (std::size_t rank = 0; rank < model.merges.size(); ++rank) {
        const auto& [left, right] = model.merges[rank];
        joined.assign(left).append(right);
        const int leftId = idOf(left), rightId = idOf(right), merged = idOf(joined);
        if (leftId < 0 || rightId < 0 || merged < 0) {
            throw InputError("Merge " + std::to_string(rank) + " (" + quoted(left) + " + " + quoted(right) + ") uses a piece that is not in the vocabulary.");
        }
        merges_.try_emplace(pairKey(leftId, rightId), static_cast<int>(rank), merged);
    }
    if (model.byteFallback) {
        for (int b = 0; b < 256; ++b) {
            char name[8];
            std::snprintf(name, sizeof name, "<0x%02X>", b);
            byteIds_.push_back(idOf(name));
        }
    }
}

int VocabularyRunner::idOf(const std::string& piece) const {
    const auto found = model_.vocabulary.find(piece);
    return found != model_.vocabulary.end() ? found->second : -1;
}

// The word's characters as vocabulary ids (prefix on every character but the first, suffix on the last); a
// character outside the vocabulary becomes its bytes' "<0xXX>" pieces (byte_fallback), else the unknown token
// (consecutive unknowns fused into one with fuse_unk), else nothing — as HuggingFace's BPE::merge_word. Stops once
// it has `enough` symbols.
void VocabularyRunner::bpeSymbols(const std::string& word, std::vector<int>& symbols, std::size_t enough) const {
    bool pendingUnknown = false;
    for (std::size_t at = 0; at < word.size() && symbols.size() < enough;) {
        const std::size_t length = std::min(utf8Length(static_cast<unsigned char>(word[at])), word.size() - at);
        std::string piece = (at > 0 ? model_.continuingSubwordPrefix : "") + word.substr(at, length);
        at += length;
        if (at == word.size()) piece += model_.endOfWordSuffix;
        if (const int id = idOf(piece); id >= 0) {
            if (std::exchange(pendingUnknown, false)) symbols.push_back(unknown_);
            symbols.push_back(id);
            continue;
        }
        if (model_.byteFallback) {
            std::vector<int> bytes;
            for (unsigned char b : piece) bytes.push_back(byteIds_[b]);
            if (std::find(bytes.begin(), bytes.end(), -1) == bytes.end()) {
                symbols.insert(symbols.end(), bytes.begin(), bytes.end());
                continue;
            }
        }
        if (unknown_ < 0) continue;
        if (pendingUnknown && !model_.fuseUnknown) symbols.push_back(unknown_);
        pendingUnknown = true;
    }
    if (pendingUnknown) symbols.push_back(unknown_);
}

std::vector<int> VocabularyRunner::bpe(const std::string& word, std::size_t maxPieces) const {
    if (model_.ignoreMerges) {
        if (const int id = idOf(word); id >= 0) return {id};
    }
    // A merge joins two pieces into the vocabulary piece that spells both, so a piece spans at most longestPiece_
    // symbols (each symbol's piece has a character at least): (maxPieces + 1) times that many symbols make more
    // than maxPieces pieces whatever merges. A longer word is refused: only that many of its symbols are merged.
    const std::size_t enough = maxPieces < kEveryToken / longestPiece_ - 1 ? (maxPieces + 1) * longestPiece_ : kEveryToken;
    std::vector<int> ids;
    bpeSymbols(word, ids, enough);
    std::vector<Symbol> symbols(ids.size());
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue;
    const auto consider = [&](int position) {
        const int next = symbols[static_cast<std::size_t>(position)].next;
        if (next < 0) return;
        const int left = symbols[static_cast<std::size_t>(position)].id, right = symbols[static_cast<std::size_t>(next)].id;
        if (const auto merge = merges_.find(pairKey(left, right)); merge != merges_.end()) queue.push({merge->second.first, position, left, right});
    };
    for (std::size_t i = 0; i < ids.size(); ++i) {
        symbols[i] = {ids[i], static_cast<int>(i) - 1, i + 1 < ids.size() ? static_cast<int>(i) + 1 : -1, true};
    }
    for (std::size_t i = 0; i + 1 < ids.size(); ++i) consider(static_cast<int>(i));
    while (!queue.empty()) {
        const Candidate top = queue.top();
        queue.pop();
        Symbol& left = symbols[static_cast<std::size_t>(top.position)];
        if (!left.alive || left.id != top.left || left.next < 0 || symbols[static_cast<std::size_t>(left.next)].id != top.right) continue;
        Symbol& right = symbols[static_cast<std::size_t>(left.next)];
        left.id = merges_.at(pairKey(top.left, top.right)).second;
        right.alive = false;
        left.next = right.next;
        if (right.next >= 0) symbols[static_cast<std::size_t>(right.next)].previous = top.position;
        if (left.previous >= 0) consider(left.previous);
        consider(top.position);
    }
    std::vector<int> out;
    for (const Symbol& symbol : symbols) {
        if (symbol.alive) out.push_back(symbol.id);
    }
    return out;
}

// Longest vocabulary piece from the start, then the longest prefixed piece from where it ended; the whole word is
// the unknown token when some part matches nothing or it has more than max_input_chars_per_word characters.
void VocabularyRunner::wordPiece(const std::string& word, std::vector<int>& ids) const {
    const std::vector<std::string> characters = utf8Characters(word);
    if (static_cast<long long>(characters.size()) > model_.maxInputCharsPerWord) {
        ids.push_back(unknown_);
        return;
    }
    std::vector<int> found;
    for (std::size_t start = 0; start < characters.size();) {
        int id = -1;
        std::size_t end = std::min(characters.size(), start + longestPiece_);  // no piece is longer
        for (; end > start; --end) {
            std::string piece = start > 0 ? model_.continuingSubwordPrefix : "";
            for (std::size_t i = start; i < end; ++i) piece += characters[i];
            if ((id = idOf(piece)) >= 0) break;
        }
        if (id < 0) {
            ids.push_back(unknown_);
            return;
        }
        found.push_back(id);
        start = end;
    }
    ids.insert(ids.end(), found.begin(), found.end());
}

void VocabularyRunner::encode(const std::string& word, std::vector<int>& ids, std::size_t maxPieces) const {
    switch (model_.kind) {
        case VocabularyModel::Kind::WordLevel: {
            const int id = idOf(word);
            ids.push_back(id >= 0 ? id : unknown_);
            return;
        }
        case VocabularyModel::Kind::WordPiece: wordPiece(word, ids); return;
        case VocabularyModel::Kind::Bpe: break;
    }
    {
        const std::lock_guard lock(cacheMutex_);
        if (const auto found = cache_.find(word); found != cache_.end()) {
            ids.insert(ids.end(), found->second.begin(), found->second.end());
            return;
        }
    }
    const std::vector<int> pieces = bpe(word, maxPieces);
    ids.insert(ids.end(), pieces.begin(), pieces.end());
    if (pieces.size() > maxPieces || word.size() > kLongestCachedWord) return;  // perhaps only its first pieces
    const std::lock_guard lock(cacheMutex_);
    if (cache_.size() >= kCacheLimit) cache_.clear();
    cache_.emplace(word, pieces);
}

}  // namespace attnviz::core::pipeline
