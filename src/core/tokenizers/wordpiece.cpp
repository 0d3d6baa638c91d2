// wordpiece.cpp — BERT's basic tokenizer and WordPiece. See wordpiece.h.
#include "core/tokenizers/wordpiece.h"

#include "core/display_text.h"  // echoed
#include "core/tokenizer.h"  // InputError
#include "core/unicode.h"

#include <utf8proc.h>

#include <algorithm>

namespace attnviz::core {
namespace {

// BERT's whitespace: Unicode's White_Space (" ", \t, \n, \r, Zs, and the line and paragraph separators Zl, Zp:
// BERT keeps those in the cleaned text, but its whitespace split splits at them).
// BERT's "control": every C* category except \t, \n and \r, which are whitespace.
bool isControl(char32_t cp) { return cp != '\t' && cp != '\n' && cp != '\r' && isOther(cp); }

// Steps 1 and 2: cleaned text with CJK ideographs spaced, as code points.
std::u32string cleaned(std::string_view text, bool splitCjk) {
    std::u32string out;
    for (char32_t cp : decodeUtf8(text)) {
        if (cp == 0 || cp == 0xFFFD || isControl(cp)) continue;
        if (isWhitespace(cp)) {
            out += U' ';
        } else if (splitCjk && isCjkIdeograph(cp)) {
            out += U' ';
            out += cp;
            out += U' ';
        } else {
            out += cp;
        }
    }
    return out;
}

// Step 3's normalisation of one word: lower-case, then NFD with the combining marks (Mn) dropped.
std::u32string normalised(const std::u32string& word, const WordPieceOptions& options) {
    std::u32string lowered;
    for (char32_t cp : word) lowered += options.lowercase ? static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(cp))) : cp;
    if (!options.stripAccents) return lowered;
    std::u32string stripped;
    for (char32_t cp : lowered) {
        utf8proc_int32_t parts[8];
        int last = 0;
        const utf8proc_ssize_t count = utf8proc_decompose_char(static_cast<utf8proc_int32_t>(cp), parts, 8, UTF8PROC_DECOMPOSE, &last);
        if (count < 0 || count > 8) {
            stripped += cp;
            continue;
        }
        for (utf8proc_ssize_t i = 0; i < count; ++i) {
            if (utf8proc_category(parts[i]) != UTF8PROC_CATEGORY_MN) stripped += static_cast<char32_t>(parts[i]);
        }
    }
    return stripped;
}

}  // namespace

WordPieceTokenizer::WordPieceTokenizer(std::vector<std::string> pieces, WordPieceOptions options)
    : pieces_(std::move(pieces)), options_(options) {
    for (std::size_t id = 0; id < pieces_.size(); ++id) {
        if (!ids_.emplace(pieces_[id], static_cast<int>(id)).second) {
            throw InputError("The vocabulary has \"" + echoed(pieces_[id]) + "\" twice (lines " + std::to_string(ids_[pieces_[id]] + 1) + " and " +
                             std::to_string(id + 1) + ").");
        }
    }
    for (const char* special : {"[UNK]", "[CLS]", "[SEP]"}) {
        if (!ids_.contains(special)) throw InputError(std::string("The vocabulary has no ") + special + ", which BERT needs.");
    }
    unknown_ = ids_.at("[UNK]");
    cls_ = ids_.at("[CLS]");
    sep_ = ids_.at("[SEP]");
}

std::string WordPieceTokenizer::pieceOf(int id) const {
    return id >= 0 && id < static_cast<int>(pieces_.size()) ? pieces_[static_cast<std::size_t>(id)] : std::string();
}

int WordPieceTokenizer::idOf(const std::string& piece) const {
    const auto found = ids_.find(piece);
    return found != ids_.end() ? found->second : -1;
}

std::vector<std::string> WordPieceTokenizer::basicTokens(std::string_view text) const {
    std::vector<std::string> tokens;
    std::u32string word;
    const auto flush = [&] {
        if (word.empty()) return;
        std::u32string current;
        for (char32_t cp : normalised(word, options_)) {  // step 4: punctuation splits the normalised word
            if (isPunctuation(cp)) {
                if (!current.empty()) tokens.push_back(utf8Of(current));
                tokens.push_back(utf8Of(cp));
                current.clear();
            } else {
                current += cp;
            }
        }
        if (!current.empty()) tokens.push_back(utf8Of(current));
        word.clear();
    };
    for (char32_t cp : cleaned(text, options_.splitCjk)) {
        if (cp == U' ') flush();
        else word += cp;
    }
    flush();
    return tokens;
}

void WordPieceTokenizer::add(int id, Encoding& out) const {
    const std::string& piece = pieces_[static_cast<std::size_t>(id)];
    appendToken(out, id, piece, piece, id == cls_ || id == sep_);
}

void WordPieceTokenizer::wordPieces(const std::string& word, Encoding& out) const {
    const std::u32string characters = [&] {
        std::u32string cps;
        for (char32_t cp : decodeUtf8(word)) cps += cp;
        return cps;
    }();
    if (static_cast<int>(characters.size()) > options_.maxWordCharacters) {
        add(unknown_, out);
        return;
    }
    std::vector<int> found;
    for (std::size_t start = 0; start < characters.size();) {
        int id = -1;
        std::size_t end = characters.size();
        for (; end > start; --end) {  // the longest piece first
            id = idOf((start > 0 ? "##" : "") + utf8Of(characters.substr(start, end - start)));
            if (id >= 0) break;
        }
        if (id < 0) {
            add(unknown_, out);  // some part matches no piece: the whole word is unknown
            return;
        }
        found.push_back(id);
        start = end;
    }
    for (int id : found) add(id, out);
}

Encoding WordPieceTokenizer::encode(std::string_view text) const {
    if (const std::size_t bad = findInvalidUtf8(text); bad != std::string_view::npos) {
        throw InputError("The text is not valid UTF-8 (at byte " + std::to_string(bad) + ").");
    }
    Encoding out;
    add(cls_, out);
    // A typed "[MASK]" stays one token (BertTokenizer never splits its special tokens): what a masked-word head fills.
    constexpr std::string_view kMask = "[MASK]";
    const int mask = idOf(std::string(kMask));
    for (std::size_t start = 0;;) {
        const std::size_t found = mask >= 0 ? text.find(kMask, start) : std::string_view::npos;
        for (const std::string& word : basicTokens(text.substr(start, found - start))) wordPieces(word, out);
        if (found == std::string_view::npos) break;
        add(mask, out);
        start = found + kMask.size();
    }
    add(sep_, out);
    return out;
}

PaddedBatch padBatch(const std::vector<Encoding>& sentences, int padId) {
    std::size_t length = 0;
    for (const Encoding& e : sentences) length = std::max(length, e.ids.size());
    PaddedBatch batch;
    for (const Encoding& e : sentences) {
        std::vector<int> ids = e.ids, mask(e.ids.size(), 1);
        ids.resize(length, padId);
        mask.resize(length, 0);
        batch.ids.push_back(std::move(ids));
        batch.attentionMask.push_back(std::move(mask));
    }
    return batch;
}

}  // namespace attnviz::core
