// tokenizer_json.cpp — tokenizer.json → core::TokenizerDefinition. See tokenizer_json.h.
#include "io/tokenizer_json.h"

#include "io/json_value_text.h"  // quotedJsonValue, core::echoed

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attnviz::io {
namespace {

using json = nlohmann::json;
using core::NormalizerStep;
using core::PostProcessorStep;
using core::PreTokenizerStep;

constexpr int kMaxDepth = 64;
constexpr long long kMaxId = 1 << 24;
constexpr std::size_t kMaxParseErrorCharacters = 200;  // nlohmann's message quotes the bytes it last read

// model.vocab and model.merges, read straight into lists while parsing (a JSON tree of Qwen's 151,643 pieces and
// 151,387 merges takes longer to build than the rest of the file).
struct ModelLists {
    std::optional<std::vector<std::pair<std::string, int>>> vocabulary;
    std::optional<std::vector<std::pair<std::string, std::string>>> merges;
};

std::string idProblem(const std::string& piece, const std::string& value) {
    return "the id of \"" + core::echoed(piece) + "\" must be a whole number from 0 to " + std::to_string(kMaxId - 1) + " (it is " + value + ").";
}

// "left right" → its two pieces, or nullopt when it is not two pieces separated by one space.
std::optional<std::pair<std::string, std::string>> mergeOf(const std::string& line) {
    const std::size_t space = line.find(' ');
    if (space == std::string::npos || line.find(' ', space + 1) != std::string::npos) return std::nullopt;
    return std::pair(line.substr(0, space), line.substr(space + 1));
}

// Reads one tokenizer.json; every error names the file and the key.
class Reader {
public:
    explicit Reader(std::string name, ModelLists lists = {}) : name_(std::move(name)), lists_(std::move(lists)) {}

    [[noreturn]] void fail(const std::string& problem) const { throw FileError(name_ + ": " + problem); }

    const json& member(const json& object, const char* key, const std::string& where) const {
        if (!object.contains(key)) fail(where + " has no \"" + key + "\".");
        return object[key];
    }
    bool flag(const json& object, const char* key, bool fallback, const std::string& where) const {
        if (!object.contains(key) || object[key].is_null()) return fallback;
        if (!object[key].is_boolean()) fail(where + "'s \"" + key + "\" must be true or false.");
        return object[key].get<bool>();
    }
    std::string text(const json& object, const char* key, const std::string& where) const {
        const json& value = member(object, key, where);
        if (!value.is_string()) fail(where + "'s \"" + key + "\" must be a string.");
        return value.get<std::string>();
    }
    std::string optionalText(const json& object, const char* key, const std::string& where) const {
        return object.contains(key) && !object[key].is_null() ? text(object, key, where) : std::string();
    }
    int id(const json& value, const std::string& where) const {
        if (!value.is_number_integer() || value.get<long long>() < 0 || value.get<long long>() >= kMaxId) {
            fail(where + " must be a whole number from 0 to " + std::to_string(kMaxId - 1) + " (it is " + quotedJsonValue(value) + ").");
        }
        return value.get<int>();
    }
    const json& list(const json& object, const char* key, const std::string& where) const {
        const json& value = member(object, key, where);
        if (!value.is_array()) fail(where + "'s \"" + key + "\" must be a list.");
        return value;
    }
    std::string typeOf(const json& step, const std::string& where) const {
        if (!step.is_object()) fail(where + " must be an object.");
        return text(step, "type", where);
    }

    core::TextPattern pattern(const json& step, const std::string& where) const {
        const json& value = member(step, "pattern", where);
        if (value.is_object() && value.contains("String") && value["String"].is_string()) return {value["String"].get<std::string>(), false};
        if (value.is_object() && value.contains("Regex") && value["Regex"].is_string()) return {value["Regex"].get<std::string>(), true};
        fail(where + "'s \"pattern\" must be {\"String\": …} or {\"Regex\": …}.");
    }

    core::SplitBehavior behavior(const json& step, const std::string& where) const {
        const std::string value = step.contains("behavior") ? text(step, "behavior", where) : "Isolated";
        if (value == "Removed") return core::SplitBehavior::Removed;
        if (value == "Isolated") return core::SplitBehavior::Isolated;
        if (value == "MergedWithPrevious") return core::SplitBehavior::MergedWithPrevious;
        if (value == "MergedWithNext") return core::SplitBehavior::MergedWithNext;
        if (value == "Contiguous") return core::SplitBehavior::Contiguous;
        fail(where + "'s behavior \"" + core::echoed(value) + "\" is not one of Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous.");
    }

    NormalizerStep normalizer(const json& step, const std::string& where) const;
    PreTokenizerStep preTokenizer(const json& step, const std::string& where) const;
    core::VocabularyModel model(const json& model) const;
    PostProcessorStep postProcessor(const json& step, const std::string& where) const;
    core::LabelStyle labels(const json& decoder) const;
    std::vector<core::AddedToken> addedTokens(const json& root) const;

private:
    std::string name_;
    ModelLists lists_;
};

NormalizerStep Reader::normalizer(const json& step, const std::string& where) const {
    using Kind = NormalizerStep::Kind;
    const std::string type = typeOf(step, where);
    NormalizerStep out;
    if (type == "Sequence") {
        for (const json& inner : list(step, "normalizers", where)) out.steps.push_back(normalizer(inner, where));
    } else if (type == "NFC") out.kind = Kind::Nfc;
    else if (type == "NFD") out.kind = Kind::Nfd;
    else if (type == "NFKC") out.kind = Kind::Nfkc;
    else if (type == "NFKD") out.kind = Kind::Nfkd;
    else if (type == "Lowercase") out.kind = Kind::Lowercase;
    else if (type == "StripAccents") out.kind = Kind::StripAccents;
    else if (type == "BertNormalizer") {
        out.kind = Kind::Bert;
        out.cleanText = flag(step, "clean_text", true, where);
        out.handleChineseChars = flag(step, "handle_chinese_chars", true, where);
        out.lowercase = flag(step, "lowercase", true, where);
        out.stripAccents = flag(step, "strip_accents", out.lowercase, where);
    } else if (type == "Prepend") {
        out.kind = Kind::Prepend;
        out.content = text(step, "prepend", where);
    } else if (type == "Replace") {
        out.kind = Kind::Replace;
        out.pattern = pattern(step, where);
        out.content = text(step, "content", where);
    } else if (type == "Strip") {
        out.kind = Kind::Strip;
        out.stripLeft = flag(step, "strip_left", true, where);
        out.stripRight = flag(step, "strip_right", true, where);
    } else {
        fail("the normalizer \"" + core::echoed(type) + "\" is not supported (attnviz runs Sequence, NFC, NFD, NFKC, NFKD, Lowercase, StripAccents, "
             "BertNormalizer, Prepend, Replace and Strip).");
    }
    return out;
}

PreTokenizerStep Reader::preTokenizer(const json& step, const std::string& where) const {
    using Kind = PreTokenizerStep::Kind;
    const std::string type = typeOf(step, where);
    PreTokenizerStep out;
    if (type == "Sequence") {
        for (const json& inner : list(step, "pretokenizers", where)) out.steps.push_back(preTokenizer(inner, where));
    } else if (type == "ByteLevel") {
        out.kind = Kind::ByteLevel;
        out.addPrefixSpace = flag(step, "add_prefix_space", true, where);
        out.useRegex = flag(step, "use_regex", true, where);
    } else if (type == "Split") {
        out.kind = Kind::Split;
        out.pattern = pattern(step, where);
        out.behavior = behavior(step, where);
        out.invert = flag(step, "invert", false, where);
    } else if (type == "CharDelimiterSplit") {
        out.kind = Kind::Split;
        out.pattern = {text(step, "delimiter", where), false};
        out.behavior = core::SplitBehavior::Removed;
    } else if (type == "Metaspace") {
        out.kind = Kind::Metaspace;
        out.replacement = step.contains("replacement") ? text(step, "replacement", where) : out.replacement;
        const bool legacyPrefix = flag(step, "add_prefix_space", true, where);
        const std::string scheme = step.contains("prepend_scheme") ? text(step, "prepend_scheme", where) : legacyPrefix ? "always" : "never";
        if (scheme == "always") out.prependScheme = core::PrependScheme::Always;
        else if (scheme == "first") out.prependScheme = core::PrependScheme::First;
        else if (scheme == "never") out.prependScheme = core::PrependScheme::Never;
        else fail(where + "'s prepend_scheme \"" + core::echoed(scheme) + "\" is not always, first or never.");
        out.split = flag(step, "split", true, where);
    } else if (type == "BertPreTokenizer") out.kind = Kind::Bert;
    else if (type == "Whitespace") out.kind = Kind::Whitespace;
    else if (type == "WhitespaceSplit") out.kind = Kind::WhitespaceSplit;
    else if (type == "Digits") {
        out.kind = Kind::Digits;
        out.individualDigits = flag(step, "individual_digits", false, where);
    } else if (type == "Punctuation") {
        out.kind = Kind::Punctuation;
        out.behavior = behavior(step, where);
    } else {
        fail("the pre-tokenizer \"" + core::echoed(type) + "\" is not supported (attnviz runs Sequence, ByteLevel, Split, CharDelimiterSplit, Metaspace, "
             "BertPreTokenizer, Whitespace, WhitespaceSplit, Digits and Punctuation).");
    }
    return out;
}

core::VocabularyModel Reader::model(const json& model) const {
    using Kind = core::VocabularyModel::Kind;
    const std::string where = "the model";
    if (!model.is_object()) fail("\"model\" must be an object.");
    const std::string type = model.contains("type") ? text(model, "type", where)
                             : model.contains("merges")                   ? "BPE"
                             : model.contains("max_input_chars_per_word") ? "WordPiece"
                                                                          : "WordLevel";
    core::VocabularyModel out;
    if (type == "BPE") out.kind = Kind::Bpe;
    else if (type == "WordPiece") out.kind = Kind::WordPiece;
    else if (type == "WordLevel") out.kind = Kind::WordLevel;
    else fail("the model \"" + core::echoed(type) + "\" is not supported (attnviz runs BPE, WordPiece and WordLevel).");
    if (!lists_.vocabulary) fail("the model's \"vocab\" must be an object of piece → id.");
    out.vocabulary.reserve(lists_.vocabulary->size());
    for (auto& [piece, value] : *lists_.vocabulary) out.vocabulary.emplace(std::move(piece), value);
    if (model.contains("unk_token") && !model["unk_token"].is_null()) out.unknownToken = text(model, "unk_token", where);
    out.continuingSubwordPrefix = optionalText(model, "continuing_subword_prefix", where);
    if (out.kind == Kind::WordPiece && !model.contains("continuing_subword_prefix")) out.continuingSubwordPrefix = "##";
    if (out.kind == Kind::WordPiece && model.contains("max_input_chars_per_word")) {
        const json& limit = model["max_input_chars_per_word"];
        if (!limit.is_number_integer() || limit.get<long long>() < 1) fail("the model's \"max_input_chars_per_word\" must be a whole number from 1.");
        out.maxInputCharsPerWord = static_cast<int>(std::min<long long>(limit.get<long long>(), 1 << 20));
    }
    if (out.kind != Kind::Bpe) return out;
    if (model.contains("dropout") && model["dropout"].is_number() && model["dropout"].get<double>() > 0) {
        fail("BPE dropout (random merges) is not supported: attnviz shows one tokenization of a sentence.");
    }
    out.endOfWordSuffix = optionalText(model, "end_of_word_suffix", where);
    out.fuseUnknown = flag(model, "fuse_unk", false, where);
    out.byteFallback = flag(model, "byte_fallback", false, where);
    out.ignoreMerges = flag(model, "ignore_merges", false, where);
    if (!lists_.merges) fail("the model's \"merges\" must be a list.");
    out.merges = std::move(*lists_.merges);
    return out;
}

PostProcessorStep Reader::postProcessor(const json& step, const std::string& where) const {
    using Kind = PostProcessorStep::Kind;
    const std::string type = typeOf(step, where);
    PostProcessorStep out;
    const auto tokenPair = [&](const char* key) {
        const json& value = member(step, key, where);
        if (!value.is_array() || value.size() != 2 || !value[0].is_string()) fail(where + "'s \"" + key + "\" must be [token, id].");
        return std::pair<std::string, int>(value[0].get<std::string>(), id(value[1], where + "'s " + key + " id"));
    };
    if (type == "Sequence") {
        for (const json& inner : list(step, "processors", where)) out.steps.push_back(postProcessor(inner, where));
    } else if (type == "ByteLevel") out.kind = Kind::ByteLevel;
    else if (type == "BertProcessing" || type == "RobertaProcessing") {
        out.kind = type == "BertProcessing" ? Kind::Bert : Kind::Roberta;
        out.cls = tokenPair("cls");
        out.sep = tokenPair("sep");
    } else if (type == "TemplateProcessing") {
        out.kind = Kind::Template;
        for (const json& item : list(step, "single", where)) {
            if (item.is_object() && item.contains("SpecialToken") && item["SpecialToken"].is_object()) {
                out.single.push_back({true, text(item["SpecialToken"], "id", where + "'s template token")});
            } else if (item.is_object() && item.contains("Sequence")) {
                out.single.push_back({false, "A"});
            } else {
                fail(where + "'s template items must be {\"SpecialToken\": …} or {\"Sequence\": …}.");
            }
        }
        const json& specials = member(step, "special_tokens", where);
        if (!specials.is_object()) fail(where + "'s \"special_tokens\" must be an object.");
        for (const auto& [key, special] : specials.items()) {
            const std::string at = where + "'s special token \"" + core::echoed(key) + "\"";
            if (!special.is_object()) fail(at + " must be an object.");
            const json& ids = list(special, "ids", at);
            const json& tokens = list(special, "tokens", at);
            if (ids.size() != tokens.size()) fail(at + " has " + std::to_string(ids.size()) + " ids but " + std::to_string(tokens.size()) + " tokens.");
            auto& entry = out.specialTokens[key];
            for (std::size_t i = 0; i < ids.size(); ++i) {
                if (!tokens[i].is_string()) fail(at + "'s tokens must be strings.");
                entry.emplace_back(id(ids[i], at + "'s id"), tokens[i].get<std::string>());
            }
        }
    } else {
        fail("the post-processor \"" + core::echoed(type) + "\" is not supported (attnviz runs Sequence, TemplateProcessing, BertProcessing, "
             "RobertaProcessing and ByteLevel).");
    }
    return out;
}

// Only how pieces are labelled: the byte alphabet mapped back, "▁" shown as a space, or the pieces as they are.
core::LabelStyle Reader::labels(const json& decoder) const {
    if (!decoder.is_object() || !decoder.contains("type") || !decoder["type"].is_string()) return core::LabelStyle::Plain;
    const std::string type = decoder["type"].get<std::string>();
    if (type == "ByteLevel") return core::LabelStyle::ByteLevel;
    if (type == "Metaspace" || type == "Replace") return core::LabelStyle::Metaspace;
    if (type == "Sequence" && decoder.contains("decoders") && decoder["decoders"].is_array()) {
        core::LabelStyle style = core::LabelStyle::Plain;
        for (const json& inner : decoder["decoders"]) style = std::max(style, labels(inner));
        return style;
    }
    return core::LabelStyle::Plain;
}

std::vector<core::AddedToken> Reader::addedTokens(const json& root) const {
    std::vector<core::AddedToken> out;
    if (!root.contains("added_tokens") || root["added_tokens"].is_null()) return out;
    const json& tokens = list(root, "added_tokens", "the file");
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string where = "added token " + std::to_string(i);
        const json& token = tokens[i];
        if (!token.is_object()) fail(where + " must be an object.");
        core::AddedToken added;
        added.id = id(member(token, "id", where), where + "'s id");
        added.content = text(token, "content", where);
        added.special = flag(token, "special", false, where);
        added.singleWord = flag(token, "single_word", false, where);
        added.leftStrip = flag(token, "lstrip", false, where);
        added.rightStrip = flag(token, "rstrip", false, where);
        added.normalized = flag(token, "normalized", !added.special, where);
        out.push_back(std::move(added));
    }
    return out;
}

// nlohmann's SAX events into a JSON tree (as json::parse builds it), except model.vocab and model.merges, which go
// into ModelLists (their places in the tree stay empty). Stops at the first error or at nesting over kMaxDepth.
class TreeBuilder {
public:
    json root;
    ModelLists lists;
    std::string error;

    bool null() { return value(nullptr); }
    bool boolean(bool v) { return value(v); }
    bool number_integer(json::number_integer_t v) { return number(v, std::to_string(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return number(v < kMaxId ? static_cast<long long>(v) : -1, std::to_string(v)); }
    bool number_float(json::number_float_t v, const std::string& text) { return capture_ == Capture::None ? value(v) : number(-1, text); }
    bool binary(json::binary_t&) { return fail("holds binary data, which JSON text cannot."); }
    bool string(std::string& v);
    bool key(std::string& k);
    bool start_object(std::size_t);
    bool end_object() { return close(); }
    bool start_array(std::size_t);
    bool end_array();
    bool parse_error(std::size_t, const std::string&, const json::exception& problem) { return fail("is not valid JSON (" + core::echoed(problem.what(), kMaxParseErrorCharacters) + ")."); }

private:
    enum class Capture { None, Vocabulary, Merges };

    bool fail(std::string problem) {
        if (error.empty()) error = std::move(problem);
        return false;
    }
    bool number(long long v, const std::string& text);
    template <typename Value>
    bool value(Value&& v) {
        if (capture_ != Capture::None) return fail(capture_ == Capture::Vocabulary ? idProblem(piece_, "not a number") : mergeProblem());
        place(json(std::forward<Value>(v)));
        return true;
    }
    json* place(json v);
    bool open(json container);
    bool close() {
        if (capture_ != Capture::None) {
            capture_ = Capture::None;
            return true;
        }
        stack_.pop_back();
        keys_.pop_back();
        return true;
    }
    bool inModel() const { return stack_.size() == 2 && keys_[1] == "model"; }
    std::string mergeProblem() const {
        return "merge " + std::to_string(lists.merges->size()) + " must be \"left right\" or [\"left\", \"right\"].";
    }

    std::vector<json*> stack_;       // the open objects and arrays, root first
    std::vector<std::string> keys_;  // the key each of them sits under ("" in an array or at the root)
    std::string key_;                // the key of the next value in the innermost object
    Capture capture_ = Capture::None;
    std::string piece_;              // Vocabulary: the piece whose id comes next
    std::vector<std::string> pair_;  // Merges: the pieces of a ["left", "right"] being read
    bool inPair_ = false;
};

json* TreeBuilder::place(json v) {
    if (stack_.empty()) {
        root = std::move(v);
        return &root;
    }
    json& parent = *stack_.back();
    if (parent.is_array()) {
        parent.push_back(std::move(v));
        return &parent.back();
    }
    json& slot = parent[key_];
    slot = std::move(v);
    return &slot;
}

bool TreeBuilder::open(json container) {
    if (stack_.size() >= static_cast<std::size_t>(kMaxDepth)) return fail("nests JSON more than " + std::to_string(kMaxDepth) + " levels deep; no tokenizer.json does.");
    const std::string under = !stack_.empty() && stack_.back()->is_object() ? key_ : "";
    stack_.push_back(place(std::move(container)));
    keys_.push_back(under);
    return true;
}

bool TreeBuilder::number(long long v, const std::string& text) {
    if (capture_ == Capture::None) return text.front() == '-' ? value(static_cast<json::number_integer_t>(v)) : value(static_cast<json::number_unsigned_t>(std::stoull(text)));
    if (capture_ == Capture::Merges) return fail(mergeProblem());
    if (v < 0 || v >= kMaxId) return fail(idProblem(piece_, core::echoed(text)));  // a float's text may be long
    lists.vocabulary->emplace_back(piece_, static_cast<int>(v));
    return true;
}

bool TreeBuilder::string(std::string& v) {
    if (capture_ == Capture::None) return value(std::move(v));
    if (capture_ == Capture::Vocabulary) return fail(idProblem(piece_, "\"" + core::echoed(v) + "\""));
    if (inPair_) {
        pair_.push_back(std::move(v));
        return pair_.size() <= 2 || fail(mergeProblem());
    }
    const auto merge = mergeOf(v);
    if (!merge) return fail("merge " + std::to_string(lists.merges->size()) + " (\"" + core::echoed(v) + "\") is not two pieces separated by one space.");
    lists.merges->push_back(*merge);
    return true;
}

bool TreeBuilder::key(std::string& k) {
    if (capture_ == Capture::Vocabulary) piece_ = std::move(k);
    else key_ = std::move(k);
    return true;
}

bool TreeBuilder::start_object(std::size_t) {
    if (capture_ != Capture::None) return fail(capture_ == Capture::Vocabulary ? idProblem(piece_, "an object") : mergeProblem());
    if (inModel() && key_ == "vocab") {
        place(json::object());
        lists.vocabulary.emplace();
        capture_ = Capture::Vocabulary;
        return true;
    }
    return open(json::object());
}

bool TreeBuilder::start_array(std::size_t) {
    if (capture_ == Capture::Vocabulary) return fail(idProblem(piece_, "a list"));
    if (capture_ == Capture::Merges) {
        if (inPair_) return fail(mergeProblem());
        inPair_ = true;
        pair_.clear();
        return true;
    }
    if (inModel() && key_ == "merges") {
        place(json::array());
        lists.merges.emplace();
        capture_ = Capture::Merges;
        return true;
    }
    return open(json::array());
}

bool TreeBuilder::end_array() {
    if (capture_ == Capture::Merges && inPair_) {
        if (pair_.size() != 2) return fail(mergeProblem());
        lists.merges->emplace_back(std::move(pair_[0]), std::move(pair_[1]));
        inPair_ = false;
        return true;
    }
    return close();
}

}  // namespace

core::TokenizerDefinition parseTokenizerJson(std::string_view text, const std::string& name) {
    if (text.size() > kMaxTokenizerJsonBytes) Reader(name).fail("is larger than " + std::to_string(kMaxTokenizerJsonBytes >> 20) + " MB; no tokenizer.json is that large.");
    TreeBuilder builder;
    if (!json::sax_parse(text, &builder)) Reader(name).fail(builder.error.empty() ? "is not valid JSON." : builder.error);
    const json& root = builder.root;
    const Reader reader(name, std::move(builder.lists));
    if (!root.is_object()) reader.fail("must be a JSON object.");
    core::TokenizerDefinition definition;
    definition.addedTokens = reader.addedTokens(root);
    if (root.contains("normalizer") && !root["normalizer"].is_null()) definition.normalizer = reader.normalizer(root["normalizer"], "the normalizer");
    if (root.contains("pre_tokenizer") && !root["pre_tokenizer"].is_null()) {
        definition.preTokenizer = reader.preTokenizer(root["pre_tokenizer"], "the pre-tokenizer");
    }
    definition.model = reader.model(reader.member(root, "model", "the file"));
    if (root.contains("post_processor") && !root["post_processor"].is_null()) {
        definition.postProcessor = reader.postProcessor(root["post_processor"], "the post-processor");
    }
    definition.labels = root.contains("decoder") ? reader.labels(root["decoder"]) : core::LabelStyle::Plain;
    return definition;
}

}  // namespace attnviz::io
