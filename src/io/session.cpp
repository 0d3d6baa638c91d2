// session.cpp — Session ⇄ JSON, its checks, and the translation to and from core::ModelSpec. See session.h.
//
// [SECTION] names: enums, editable matrices and weight files as the JSON spells them
// [SECTION] writing
// [SECTION] reading: JSON types into a Session (type errors)
// [SECTION] checking: what the values mean (range and consistency errors)
// [SECTION] files and paths
// [SECTION] ModelSpec translation
#include "io/session.h"

#include "colormap/colormap.h"
#include "core/names.h"
#include "core/questions.h"
#include "core/typed_prediction.h"
#include "core/stages.h"
#include "core/unicode.h"
#include "io/model_library.h"
#include "io/json_value_text.h"
#include "io/safe_read.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <functional>
#include <limits>
#include <set>

namespace attnviz::io {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;  // the file lists members in the order session.h documents

[[noreturn]] void fail(std::string_view file, const std::string& problem) {
    std::string text(1, '\'');
    text.append(file).append("': ").append(problem);
    throw FileError(text);
}

// [SECTION] names

// The attention settings' names are core's (core/names.h); the session's own enums are named here the same way.
template <typename Enum>
using Named = core::EnumName<Enum>;
using core::nameOf;
constexpr const auto& kMaskNames = core::kMaskKindNames;
constexpr const auto& kFillNames = core::kMaskFillNames;
constexpr const auto& kSoftmaxNames = core::kSoftmaxModeNames;

// The cells a user may type into, keyed as the core's TensorInfo names them.
constexpr std::array<core::TensorId, 6> kEditableMatrices{core::TensorId::X,  core::TensorId::XQuery, core::TensorId::WQ,
                                                          core::TensorId::WK, core::TensorId::WV,     core::TensorId::WO};

bool isEditable(core::TensorId id) {
    return std::find(kEditableMatrices.begin(), kEditableMatrices.end(), id) != kEditableMatrices.end();
}

struct WeightFileField {
    std::string_view key;
    fs::path WeightFiles::*member;
};
const std::array<WeightFileField, 10> kWeightFileFields{{{"w_q", &WeightFiles::wq},
                                                         {"w_k", &WeightFiles::wk},
                                                         {"w_v", &WeightFiles::wv},
                                                         {"w_o", &WeightFiles::wo},
                                                         {"b_q", &WeightFiles::bq},
                                                         {"b_k", &WeightFiles::bk},
                                                         {"b_v", &WeightFiles::bv},
                                                         {"b_o", &WeightFiles::bo},
                                                         {"embeddings", &WeightFiles::embeddings},
                                                         {"vocabulary", &WeightFiles::vocabulary}}};

// A head switched off: "zero" (Z_i zeroed) or "mean", as `dump --ablate` and its manifest spell them.
constexpr std::array<Named<core::HeadOffMode>, 2> kHeadOffModeNames{{{core::HeadOffMode::Zero, "zero"}, {core::HeadOffMode::Mean, "mean"}}};
constexpr std::array<Named<ModelChoice::Source>, 3> kModelSourceNames{{{ModelChoice::Source::Seeded, "seeded"},
                                                                       {ModelChoice::Source::Bundled, "bundled"},
                                                                       {ModelChoice::Source::Folder, "folder"}}};

// [SECTION] writing

ordered_json inputsJson(const Session& s) {
    ordered_json in;
    in["sentences"] = s.sentences;
    in["decoder_sentences"] = s.decoderSentences;
    in["d_model"] = s.dModel;
    in["heads"] = s.heads;
    in["d_k"] = s.dK;
    in["d_v"] = s.dV;
    in["seed"] = s.seed;
    in["mask"] = nameOf(s.mask, kMaskNames);
    in["fill"] = nameOf(s.fill, kFillNames);
    in["softmax"] = nameOf(s.softmax, kSoftmaxNames);
    in["mask_padded_queries"] = s.maskPaddedQueries;
    in["scale"] = s.scale ? ordered_json(*s.scale) : ordered_json(nullptr);
    in["positional"] = s.positional;
    in["cls"] = s.prependCls;
    in["biases"] = s.biases;
    in["token_limit"] = s.tokenLimit;
    in["encoder_self_attention_first"] = s.encoderSelfAttentionFirst;
    in["decoder_causal_self_attention_first"] = s.decoderCausalSelfAttentionFirst;
    if (s.compareWith) in["compare_with"] = *s.compareWith;  // left out when off: older attnvizes read the file
    if (s.compareKind != core::CompareKind::Sentence) in["compare"] = nameOf(s.compareKind, core::kCompareKindNames);  // likewise
    return in;
}

ordered_json viewJson(const ViewState& v) {
    return {{"stage", v.stage},
            {"batch", v.batch},
            {"head", v.head},
            {"sequential_colormap", v.sequentialColormap},
            {"diverging_colormap", v.divergingColormap}};
}

ordered_json weightsJson(const WeightFiles& files) {
    ordered_json weights = ordered_json::object();
    for (const auto& field : kWeightFileFields) {
        const fs::path& path = files.*field.member;
        if (!path.empty()) weights[std::string(field.key)] = path.string();
    }
    return weights;
}

ordered_json modelJson(const ModelChoice& model) {
    ordered_json json{{"source", nameOf(model.source, kModelSourceNames)}};
    if (model.source == ModelChoice::Source::Folder) json["path"] = model.folder.string();
    json["layer"] = model.layer;
    return json;
}

ordered_json headsOffJson(const std::vector<core::HeadAblation>& heads) {
    ordered_json list = ordered_json::array();
    for (const core::HeadAblation& a : heads) {
        list.push_back({{"layer", a.layer}, {"head", a.head}, {"mode", nameOf(a.mode, kHeadOffModeNames)}});
    }
    return list;
}

ordered_json questionsJson(const std::vector<AskedQuestion>& questions) {
    ordered_json list = ordered_json::array();
    for (const AskedQuestion& q : questions) {
        ordered_json item{{"kind", q.kind}, {"seed", q.seed}, {"batch", q.batch}, {"head", q.head}, {"choices", q.choices}, {"truth", q.truth},
                          {"picked", q.picked ? ordered_json(*q.picked) : ordered_json(nullptr)}, {"counts", q.counts}};
        if (!q.typed.empty()) item["typed"] = q.typed;
        if (!q.cells.empty()) item["cells"] = q.cells;
        if (!q.typed.empty() || !q.cells.empty()) item["right"] = q.answeredRight;
        list.push_back(std::move(item));
    }
    return list;
}

ordered_json editsJson(const std::vector<core::CellEdit>& edits) {
    ordered_json list = ordered_json::array();
    for (const core::CellEdit& edit : edits) {
        list.push_back({{"matrix", core::tensorInfo(edit.matrix).key},
                        {"batch", edit.batch},
                        {"row", edit.row},
                        {"col", edit.col},
                        {"value", edit.value}});
    }
    return list;
}

// [SECTION] reading

// Deeper than any session (4 levels): refused before nlohmann builds (and recursively destroys) a deep value.
constexpr int kMaxJsonDepth = 8;

json parseJson(std::string_view text, std::string_view file) {
    const json::parser_callback_t limitDepth = [file](int depth, json::parse_event_t, json&) {
        if (depth > kMaxJsonDepth) fail(file, "is not a session: its JSON nests deeper than " + std::to_string(kMaxJsonDepth) + " levels.");
        return true;
    };
    try {
        return json::parse(text, limitDepth);
    } catch (const json::exception& error) {
        // "[json.exception.parse_error.101] parse error at line 3, column 5: …; last read: '…'": keep the middle.
        std::string detail = error.what();
        detail.erase(0, detail.find(']') + 2);
        detail = detail.substr(0, detail.find("; last read:"));  // the raw bytes read, possibly not UTF-8
        detail.resize(std::min(detail.size(), core::findInvalidUtf8(detail)));  // and in case other messages quote any
        fail(file, "is not valid JSON (" + detail + ").");
    }
}

// A JSON value as an error message shows it: "the string \"8\"", "1e+20", "an array".
std::string describe(const json& value) {
    if (value.is_string() || value.is_number()) return (value.is_string() ? "the string " : "") + quotedJsonValue(value);
    return std::string(value.is_null() ? "null" : value.is_boolean() ? "a boolean" : value.is_array() ? "an array" : "an object");
}

// Reads the members of one JSON object into typed targets, naming each "section.member" in errors, and refuses
// the members nobody asked for. A member that is absent leaves its target at the default.
class ObjectReader {
public:
    ObjectReader(const json& object, std::string section, std::string_view file)
        : object_(object), section_(std::move(section)), file_(file) {
        if (!object.is_object()) fail(file_, section_ + " must be a JSON object (got " + describe(object) + ").");
    }

    // The member's value, or nullptr when absent; marks it as known.
    const json* member(std::string_view key) {
        known_.insert(std::string(key));
        const auto found = object_.find(key);
        return found == object_.end() ? nullptr : &*found;
    }

    void read(std::string_view key, bool& target) {
        if (const json* v = member(key)) target = expect(key, *v, v->is_boolean(), "true or false").get<bool>();
    }
    void read(std::string_view key, int& target) {
        const json* v = member(key);
        if (v == nullptr) return;
        expect(key, *v, v->is_number_integer(), "a whole number");
        const bool fits = v->is_number_unsigned() ? v->get<std::uint64_t>() <= std::numeric_limits<int>::max()
                                                  : v->get<std::int64_t>() >= std::numeric_limits<int>::min() &&
                                                        v->get<std::int64_t>() <= std::numeric_limits<int>::max();
        if (!fits) problem(key, "= " + quotedJsonValue(*v) + " is far outside any allowed value.");
        target = v->get<int>();
    }
    void read(std::string_view key, std::vector<int>& target) {
        const json* v = member(key);
        if (v == nullptr) return;
        const auto isInt = [](const json& item) { return item.is_number_integer() && item.get<std::int64_t>() >= 0 && item.get<std::int64_t>() <= 1000000; };
        expect(key, *v, v->is_array() && std::all_of(v->begin(), v->end(), isInt), "an array of whole numbers from 0 to 1000000");
        target = v->get<std::vector<int>>();
    }
    void read(std::string_view key, std::uint64_t& target) {
        if (const json* v = member(key)) target = expect(key, *v, v->is_number_unsigned(), "a whole number from 0 to 2^64 - 1").get<std::uint64_t>();
    }
    void read(std::string_view key, float& target) {
        const json* v = member(key);
        if (v == nullptr) return;
        expect(key, *v, v->is_number(), "a number");
        const double value = v->get<double>();
        if (!(std::fabs(value) <= FLT_MAX)) problem(key, "= " + quotedJsonValue(*v) + " does not fit a 32-bit float.");
        target = static_cast<float>(value);
    }
    template <typename T>
    void read(std::string_view key, std::optional<T>& target) {  // null: nullopt
        const json* v = member(key);
        if (v == nullptr) return;
        if (v->is_null()) {
            target.reset();
            return;
        }
        T value{};
        read(key, value);
        target = std::move(value);
    }
    void read(std::string_view key, std::string& target) {
        if (const json* v = member(key)) target = expect(key, *v, v->is_string(), "a string").get<std::string>();
    }
    void read(std::string_view key, std::vector<std::string>& target) {
        const json* v = member(key);
        if (v == nullptr) return;
        const auto isString = [](const json& item) { return item.is_string(); };
        expect(key, *v, v->is_array() && std::all_of(v->begin(), v->end(), isString), "an array of strings");
        target = v->get<std::vector<std::string>>();
    }
    template <typename Enum, std::size_t N>
    void read(std::string_view key, Enum& target, const std::array<Named<Enum>, N>& names) {
        std::string text(nameOf(target, names));
        read(key, text);
        const auto found = std::find_if(names.begin(), names.end(), [&](const auto& entry) { return entry.name == text; });
        if (found != names.end()) {
            target = found->value;
            return;
        }
        std::string allowed;
        for (const auto& entry : names) allowed += (allowed.empty() ? "\"" : ", \"") + std::string(entry.name) + "\"";
        problem(key, "must be one of " + allowed + " (got " + describe(text) + ").");
    }

    void refuseUnknownMembers() const {
        for (const auto& [key, value] : object_.items()) {
            if (!known_.contains(key)) fail(file_, section_ + " has an unknown member \"" + core::echoed(key) + "\".");
        }
    }

private:
    const json& expect(std::string_view key, const json& value, bool ok, std::string_view wanted) const {
        if (!ok) problem(key, "must be " + std::string(wanted) + " (got " + describe(value) + ").");
        return value;
    }
    [[noreturn]] void problem(std::string_view key, const std::string& what) const {
        fail(file_, section_ + "." + std::string(key) + " " + what);
    }

    const json& object_;
    std::string section_;
    std::string_view file_;
    std::set<std::string, std::less<>> known_;
};

void readSchemaVersion(const json& root, std::string_view file) {
    const auto version = root.find("schema_version");
    if (version == root.end()) fail(file, "has no schema_version, so it is not an attnviz session.");
    if (!version->is_number_integer() || version->get<std::int64_t>() != kSessionSchemaVersion) {
        fail(file, "has schema_version " + describe(*version) + "; this attnviz reads version " +
                       std::to_string(kSessionSchemaVersion) + " (a newer attnviz may have written it).");
    }
}

void readInputs(const json& object, Session& s, std::string_view file) {
    ObjectReader in(object, "inputs", file);
    in.read("sentences", s.sentences);
    in.read("decoder_sentences", s.decoderSentences);
    in.read("d_model", s.dModel);
    in.read("heads", s.heads);
    in.read("d_k", s.dK);
    in.read("d_v", s.dV);
    in.read("seed", s.seed);
    in.read("mask", s.mask, kMaskNames);
    in.read("fill", s.fill, kFillNames);
    in.read("softmax", s.softmax, kSoftmaxNames);
    in.read("mask_padded_queries", s.maskPaddedQueries);
    in.read("scale", s.scale);
    in.read("positional", s.positional);
    in.read("cls", s.prependCls);
    in.read("biases", s.biases);
    in.read("token_limit", s.tokenLimit);
    in.read("encoder_self_attention_first", s.encoderSelfAttentionFirst);
    in.read("decoder_causal_self_attention_first", s.decoderCausalSelfAttentionFirst);
    in.read("compare_with", s.compareWith);  // absent (sessions before issue 35): compare off
    in.read("compare", s.compareKind, core::kCompareKindNames);  // absent: another sentence (or compare off)
    in.refuseUnknownMembers();
}

void readView(const json& object, ViewState& v, std::string_view file) {
    ObjectReader view(object, "view", file);
    view.read("stage", v.stage);
    view.read("batch", v.batch);
    view.read("head", v.head);
    view.read("sequential_colormap", v.sequentialColormap);
    view.read("diverging_colormap", v.divergingColormap);
    view.refuseUnknownMembers();
}

void readWeightFiles(const json& object, WeightFiles& files, std::string_view file) {
    ObjectReader weights(object, "weights", file);
    for (const auto& field : kWeightFileFields) {
        std::string path;
        weights.read(field.key, path);
        files.*field.member = path;
    }
    weights.refuseUnknownMembers();
}

core::CellEdit readEdit(const json& object, std::size_t index, std::string_view file) {
    const std::string section = "edits[" + std::to_string(index) + "]";
    ObjectReader reader(object, section, file);
    if (reader.member("matrix") == nullptr) fail(file, section + " has no matrix.");
    std::string key;
    reader.read("matrix", key);
    const std::optional<core::TensorId> matrix = core::findTensor(key);
    if (!matrix || !isEditable(*matrix)) {
        fail(file, section + ".matrix must be one of \"x\", \"x_query\", \"w_q\", \"w_k\", \"w_v\", \"w_o\" (got " + describe(key) + ").");
    }
    core::CellEdit edit;
    edit.matrix = *matrix;
    reader.read("batch", edit.batch);
    reader.read("row", edit.row);
    reader.read("col", edit.col);
    reader.read("value", edit.value);
    for (std::string_view required : {"row", "col", "value"}) {
        if (reader.member(required) == nullptr) fail(file, section + " has no " + std::string(required) + ".");
    }
    reader.refuseUnknownMembers();
    return edit;
}

void readModel(const json& object, ModelChoice& model, std::string_view file) {
    ObjectReader reader(object, "model", file);
    reader.read("source", model.source, kModelSourceNames);
    std::string path;
    reader.read("path", path);
    model.folder = path;
    reader.read("layer", model.layer);
    reader.refuseUnknownMembers();
}

std::vector<core::HeadAblation> readHeadsOff(const json& list, std::string_view file) {
    if (!list.is_array()) fail(file, "heads_off must be a JSON array (got " + describe(list) + ").");
    std::vector<core::HeadAblation> heads;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string section = "heads_off[" + std::to_string(i) + "]";
        ObjectReader reader(list[i], section, file);
        for (std::string_view required : {"layer", "head"}) {
            if (reader.member(required) == nullptr) fail(file, section + " has no " + std::string(required) + ".");
        }
        core::HeadAblation head;
        reader.read("layer", head.layer);
        reader.read("head", head.head);
        reader.read("mode", head.mode, kHeadOffModeNames);
        reader.refuseUnknownMembers();
        heads.push_back(head);
    }
    return heads;
}

std::vector<AskedQuestion> readQuestions(const json& list, std::string_view file) {
    if (!list.is_array()) fail(file, "questions must be a JSON array (got " + describe(list) + ").");
    std::vector<AskedQuestion> questions;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string section = "questions[" + std::to_string(i) + "]";
        ObjectReader reader(list[i], section, file);
        if (reader.member("kind") == nullptr) fail(file, section + " has no kind.");
        AskedQuestion q;
        reader.read("kind", q.kind);
        reader.read("seed", q.seed);
        reader.read("batch", q.batch);
        reader.read("head", q.head);
        reader.read("choices", q.choices);
        reader.read("truth", q.truth);
        reader.read("picked", q.picked);
        reader.read("counts", q.counts);
        reader.read("typed", q.typed);
        reader.read("cells", q.cells);
        reader.read("right", q.answeredRight);
        reader.refuseUnknownMembers();
        questions.push_back(std::move(q));
    }
    return questions;
}

std::vector<core::CellEdit> readEdits(const json& list, std::string_view file) {
    if (!list.is_array()) fail(file, "edits must be a JSON array (got " + describe(list) + ").");
    std::vector<core::CellEdit> edits;
    for (std::size_t i = 0; i < list.size(); ++i) edits.push_back(readEdit(list[i], i, file));
    return edits;
}

Session readSession(const json& root, std::string_view file) {
    if (!root.is_object()) fail(file, "is not a session: it holds " + describe(root) + ", not a JSON object.");
    readSchemaVersion(root, file);
    Session session;
    ObjectReader top(root, "the session", file);
    top.member("schema_version");  // read above; marked as known here
    if (const json* inputs = top.member("inputs")) readInputs(*inputs, session, file);
    if (const json* view = top.member("view")) readView(*view, session.view, file);
    if (const json* weights = top.member("weights")) readWeightFiles(*weights, session.weightFiles, file);
    if (const json* edits = top.member("edits")) session.edits = readEdits(*edits, file);
    if (const json* model = top.member("model")) readModel(*model, session.model, file);
    if (const json* heads = top.member("heads_off")) session.headsOff = readHeadsOff(*heads, file);
    if (const json* questions = top.member("questions")) session.questions = readQuestions(*questions, file);  // absent before issue 36
    top.refuseUnknownMembers();
    return session;
}

// [SECTION] checking

void checkText(const std::string& text, const std::string& what, std::string_view file) {
    if (core::findInvalidUtf8(text) != std::string::npos) fail(file, what + " is not valid UTF-8.");
}

void checkSentences(const Session& s, std::string_view file) {
    if (s.sentences.empty()) fail(file, "inputs.sentences is empty; give at least one sentence.");
    if (s.sentences.size() > static_cast<std::size_t>(core::kMaxBatch)) {
        fail(file, "inputs.sentences holds " + std::to_string(s.sentences.size()) + " sentences; a batch holds at most " +
                       std::to_string(core::kMaxBatch) + ".");
    }
    if (!s.decoderSentences.empty() && s.decoderSentences.size() != s.sentences.size()) {
        fail(file, "inputs.decoder_sentences holds " + std::to_string(s.decoderSentences.size()) + " sentences for " +
                       std::to_string(s.sentences.size()) + " encoder sentences; give one each, or none.");
    }
    for (std::size_t i = 0; i < s.sentences.size(); ++i) checkText(s.sentences[i], "inputs.sentences[" + std::to_string(i) + "]", file);
    for (std::size_t i = 0; i < s.decoderSentences.size(); ++i) {
        checkText(s.decoderSentences[i], "inputs.decoder_sentences[" + std::to_string(i) + "]", file);
    }
    if (s.compareWith) checkText(*s.compareWith, "inputs.compare_with", file);
    if (s.tokenLimit < 1 || s.tokenLimit > core::kMaxTokenLimit) {
        fail(file, "inputs.token_limit must be from 1 to " + std::to_string(core::kMaxTokenLimit) + " (got " +
                       std::to_string(s.tokenLimit) + ").");
    }
}

core::AttentionConfig attentionOf(const Session& s) {
    core::AttentionConfig attention;
    attention.dModel = s.dModel;
    attention.heads = s.heads;
    attention.dK = s.dK;
    attention.dV = s.dV;
    attention.mask = s.mask;
    attention.fill = s.fill;
    attention.softmax = s.softmax;
    attention.maskPaddedQueries = s.maskPaddedQueries;
    attention.scale = s.scale;
    return attention;
}

core::Dimensions checkDimensions(const Session& s, std::string_view file) {
    try {
        return core::resolveDimensions(attentionOf(s));
    } catch (const core::InputError& error) {
        fail(file, error.what());
    }
}

void checkColormap(const std::string& name, bool diverging, std::string_view member, std::string_view file) {
    const auto map = colormap::findColormap(name);
    if (map && colormap::isDiverging(*map) == diverging) return;
    std::string allowed;
    for (colormap::Colormap candidate : colormap::allColormaps()) {
        if (colormap::isDiverging(candidate) == diverging) allowed += (allowed.empty() ? "" : ", ") + std::string(colormap::name(candidate));
    }
    fail(file, "view." + std::string(member) + " must be one of " + allowed + " (got " + describe(name) + ").");
}

void checkView(const Session& s, const core::Dimensions& dims, std::string_view file) {
    const ViewState& v = s.view;
    const auto inRange = [&](int value, int count, std::string_view member, std::string_view what) {
        if (value < 0 || value >= count) {
            fail(file, "view." + std::string(member) + " is " + std::to_string(value) + " but " + std::string(what) + " " +
                           std::to_string(count - 1) + ".");
        }
    };
    inRange(v.stage, core::kStageCount, "stage", "stages are numbered 0 to");
    inRange(v.batch, static_cast<int>(s.sentences.size()), "batch", "the batch's sentences are numbered 0 to");
    inRange(v.head, dims.heads, "head", "the heads are numbered 0 to");
    checkColormap(v.sequentialColormap, false, "sequential_colormap", file);
    checkColormap(v.divergingColormap, true, "diverging_colormap", file);
}

// The largest matrix a cell edit can address: exact for weights; for X, token_limit rows (the core checks
// the sentence's real length when it runs; token_limit counts [CLS]).
std::pair<int, int> editableShape(core::TensorId matrix, const Session& s, const core::Dimensions& dims) {
    const int hk = dims.heads * dims.dK, hv = dims.heads * dims.dV;
    switch (matrix) {
        case core::TensorId::WQ: case core::TensorId::WK: return {dims.dModel, hk};
        case core::TensorId::WV: return {dims.dModel, hv};
        case core::TensorId::WO: return {hv, dims.dModel};
        default: return {s.tokenLimit, dims.dModel};
    }
}

void checkEdit(const core::CellEdit& edit, std::size_t index, const Session& s, const core::Dimensions& dims, std::string_view file) {
    const std::string section = "edits[" + std::to_string(index) + "]";
    if (!isEditable(edit.matrix)) fail(file, section + " names a matrix that cannot be edited.");
    if (!std::isfinite(edit.value)) fail(file, section + ".value must be a finite number.");
    const bool isInput = edit.matrix == core::TensorId::X || edit.matrix == core::TensorId::XQuery;
    const int batches = isInput ? static_cast<int>(s.sentences.size()) : 1;
    if (edit.batch < 0 || edit.batch >= batches) {
        fail(file, section + ".batch is " + std::to_string(edit.batch) +
                       (isInput ? " but the batch's sentences are numbered 0 to " + std::to_string(batches - 1) + "."
                                : " but weights take batch 0 (every sentence shares them)."));
    }
    if (edit.matrix == core::TensorId::XQuery && s.decoderSentences.empty()) {
        fail(file, section + " edits x_query, which only cross-attention (decoder sentences) has.");
    }
    const auto [rows, cols] = editableShape(edit.matrix, s, dims);
    if (edit.row < 0 || edit.row >= rows || edit.col < 0 || edit.col >= cols) {
        fail(file, section + " addresses row " + std::to_string(edit.row) + ", column " + std::to_string(edit.col) + " of " +
                       std::string(core::tensorInfo(edit.matrix).key) + ", which has " + std::to_string(rows) +
                       (isInput ? " rows at most" : " rows") + " and " + std::to_string(cols) + " columns.");
    }
}

void checkWeightFiles(const Session& s, std::string_view file) {
    const WeightFiles& files = s.weightFiles;
    if (const auto problem = incompleteWeightFiles(files)) fail(file, "weights: " + *problem);
    if (files.hasWeights() && s.biases != files.hasBiases()) {
        fail(file, files.hasBiases() ? "weights names bias files but inputs.biases is false."
                                     : "inputs.biases is true but weights names no bias files (b_q ... b_o).");
    }
    for (const auto& field : kWeightFileFields) checkText((files.*field.member).string(), "weights." + std::string(field.key), file);
}

// Heads off need a trained model, each head once, at a layer and head ≥ 0 (the model's own bounds: openedSession).
void checkHeadsOff(const Session& s, std::string_view file) {
    if (s.headsOff.empty()) return;
    if (s.model.source == ModelChoice::Source::Seeded) fail(file, "switches heads off, which needs a trained model (\"model\").");
    for (std::size_t i = 0; i < s.headsOff.size(); ++i) {
        const core::HeadAblation& a = s.headsOff[i];
        if (a.layer < 0 || a.head < 0) fail(file, "heads_off[" + std::to_string(i) + "] must name a layer and a head of 0 or more.");
        for (std::size_t j = 0; j < i; ++j) {
            if (s.headsOff[j].layer == a.layer && s.headsOff[j].head == a.head) {
                fail(file, "heads_off names head " + std::to_string(a.layer) + "." + std::to_string(a.head) + " twice.");
            }
        }
    }
}

// The mask question's clicked cells: its largest grid.
constexpr std::size_t kMaxCells = static_cast<std::size_t>(core::kMaxPictureSide) * static_cast<std::size_t>(core::kMaxPictureSide);

// Each question: a kind attnviz asks, 3 or 4 choices, the truth, the pick and one count per choice among them, a
// sentence of the session's.
void checkQuestions(const Session& s, std::string_view file) {
    for (std::size_t i = 0; i < s.questions.size(); ++i) {
        const AskedQuestion& q = s.questions[i];
        const std::string section = "questions[" + std::to_string(i) + "]";
        if (!core::findQuestionKind(q.kind)) fail(file, section + ".kind must be one of " + core::questionKeys() + " (got " + describe(q.kind) + ").");
        if (q.choices < 3 || q.choices > 4) fail(file, section + ".choices must be 3 or 4 (got " + std::to_string(q.choices) + ").");
        const auto isChoice = [&](int index) { return index >= 0 && index < q.choices; };
        if (!isChoice(q.truth) || (q.picked && !isChoice(*q.picked))) fail(file, section + " must have its truth and pick among its " + std::to_string(q.choices) + " choices (0 …).");
        if (!q.counts.empty() && static_cast<int>(q.counts.size()) != q.choices) fail(file, section + ".counts must have one count per choice.");
        if (q.batch < 0 || q.batch >= static_cast<int>(s.sentences.size()) || q.head < 0) fail(file, section + " must ask about one of the session's sentences and a head of 0 or more.");
        if (q.typed.size() > 4 * static_cast<std::size_t>(core::kMaxTypedWord)) fail(file, section + ".typed must be one word (at most " + std::to_string(core::kMaxTypedWord) + " characters).");
        if (q.cells.size() > kMaxCells || q.cells.find_first_not_of("01") != std::string::npos) {
            fail(file, section + ".cells must be at most " + std::to_string(kMaxCells) + " characters, each 0 (kept) or 1 (removed).");
        }
    }
}

void checkModel(const Session& s, std::string_view file) {
    const ModelChoice& model = s.model;
    if (model.source == ModelChoice::Source::Seeded) return;
    if (model.source == ModelChoice::Source::Folder && model.folder.empty()) fail(file, "model.path must name a model folder.");
    if (model.source != ModelChoice::Source::Folder && !model.folder.empty()) fail(file, "model.path is only for source \"folder\".");
    checkText(model.folder.string(), "model.path", file);
    if (model.layer < 0) fail(file, "model.layer must be 0 or more (got " + std::to_string(model.layer) + ").");
    if (!s.edits.empty()) fail(file, "has cell edits, but cells of a trained model cannot be edited.");
    if (!s.decoderSentences.empty()) fail(file, "has decoder sentences, but cross-attention is for the seeded model.");
    if (s.weightFiles.hasWeights() || s.weightFiles.hasEmbeddings()) fail(file, "names .npy weights, which belong to the seeded model.");
}

// [SECTION] files and paths

// `path` as the file stores it: relative to `directory` when it lies there or below, else absolute.
fs::path storedPath(const fs::path& path, const fs::path& directory) {
    const fs::path absolute = fs::absolute(path).lexically_normal();
    const fs::path relative = absolute.lexically_relative(directory);
    const bool below = !relative.empty() && *relative.begin() != "..";
    return below ? relative : absolute;
}

WeightFiles mapPaths(WeightFiles files, const std::function<fs::path(const fs::path&)>& change) {
    for (const auto& field : kWeightFileFields) {
        fs::path& path = files.*field.member;
        if (!path.empty()) path = change(path);
    }
    return files;
}

// The session file's directory, absolute; FileError when the working directory cannot be found (deleted).
fs::path directoryOf(const fs::path& file) {
    try {
        return fs::absolute(file).lexically_normal().parent_path();
    } catch (const fs::filesystem_error& error) {
        fail(file.string(), std::string("its directory cannot be found: ") + error.code().message() + ".");
    }
}

}  // namespace

std::string sessionToJson(const Session& session) {
    ordered_json root;
    root["schema_version"] = kSessionSchemaVersion;
    root["inputs"] = inputsJson(session);
    root["view"] = viewJson(session.view);
    root["weights"] = weightsJson(session.weightFiles);
    root["edits"] = editsJson(session.edits);
    root["model"] = modelJson(session.model);
    if (!session.headsOff.empty()) root["heads_off"] = headsOffJson(session.headsOff);
    if (!session.questions.empty()) root["questions"] = questionsJson(session.questions);
    return root.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

void checkSession(const Session& session, std::string_view name) {
    checkSentences(session, name);
    const core::Dimensions dims = checkDimensions(session, name);
    checkView(session, dims, name);
    for (std::size_t i = 0; i < session.edits.size(); ++i) checkEdit(session.edits[i], i, session, dims, name);
    checkWeightFiles(session, name);
    checkModel(session, name);
    checkHeadsOff(session, name);
    checkQuestions(session, name);
}

Session sessionFromJson(std::string_view text, std::string_view fileNameForErrors) {
    Session session = readSession(parseJson(text, fileNameForErrors), fileNameForErrors);
    checkSession(session, fileNameForErrors);
    return session;
}

void saveSession(const fs::path& path, const Session& session) {
    try {
        checkSession(session, path.string());
    } catch (const FileError& error) {
        throw FileError(std::string("Not saved: ") + error.what());
    }
    Session stored = session;
    const fs::path directory = directoryOf(path);
    stored.weightFiles = mapPaths(session.weightFiles, [&](const fs::path& p) { return storedPath(p, directory); });
    if (!session.model.folder.empty()) stored.model.folder = storedPath(session.model.folder, directory);
    writeFileAtomically(path, sessionToJson(stored));
}

Session loadSession(const fs::path& path) {
    Session session = sessionFromJson(readJsonFile(path, kMaxSessionBytes), path.string());
    const fs::path directory = directoryOf(path);
    session.weightFiles = mapPaths(session.weightFiles, [&](const fs::path& p) { return (directory / p).lexically_normal(); });
    if (!session.model.folder.empty()) session.model.folder = (directory / session.model.folder).lexically_normal();
    return session;
}

std::string unopenedModelProblem(const fs::path& session, std::string_view error) {
    return "'" + session.string() + "': names a model that cannot be opened: " + std::string(error);
}

std::shared_ptr<const core::TrainedModel> openSessionModel(const ModelChoice& choice, const fs::path& session) {
    std::shared_ptr<const core::TrainedModel> model;
    try {
        ModelLibrary library;
        if (choice.source == ModelChoice::Source::Folder) model = library.openNow(choice.folder);
        if (choice.source == ModelChoice::Source::Bundled) model = library.openBundledNow();
    } catch (const FileError& error) {
        throw FileError(unopenedModelProblem(session, error.what()));
    }
    if (choice.source == ModelChoice::Source::Bundled && !model) fail(session.string(), "uses attnviz's bundled model, which this installation lacks.");
    return model;
}

OpenedSession openedSession(Session session, std::shared_ptr<const core::TrainedModel> model, const fs::path& path) {
    if (model && session.model.layer >= model->config().layers) {
        fail(path.string(), "steps through layer " + std::to_string(session.model.layer) + ", but " + model->name + " has layers 0 to " +
                                std::to_string(model->config().layers - 1) + ".");
    }
    if (model) {
        const core::TransformerConfig& config = model->config();
        for (const core::HeadAblation& a : session.headsOff) {
            if (a.layer >= config.layers || a.head >= config.heads) {
                fail(path.string(), "switches head " + std::to_string(a.layer) + "." + std::to_string(a.head) + " off, but " + model->name +
                                        " has layers 0 to " + std::to_string(config.layers - 1) + " and heads 0 to " +
                                        std::to_string(config.heads - 1) + ".");
            }
        }
    }
    core::ModelSpec spec = withWeightFiles(toModelSpec(session), session.weightFiles);
    if (model) spec.model = core::TrainedLayer{std::move(model), session.model.layer};
    return {std::move(session), std::move(spec)};
}

OpenedSession openSession(const fs::path& path) {
    Session session = loadSession(path);
    std::shared_ptr<const core::TrainedModel> model = openSessionModel(session.model, path);
    return openedSession(std::move(session), std::move(model), path);
}

// [SECTION] ModelSpec translation

core::ModelSpec toModelSpec(const Session& s) {
    core::ModelSpec spec;
    spec.sentences = s.sentences;
    spec.attention = attentionOf(s);
    spec.tokenLimit = s.tokenLimit;
    spec.compareWith = s.compareWith;
    spec.compareKind = s.compareKind;
    core::SeededLayer& seeded = *spec.seeded();
    seeded.decoderSentences = s.decoderSentences;
    seeded.seed = s.seed;
    seeded.positional = s.positional;
    seeded.prependCls = s.prependCls;
    seeded.biases = s.biases;
    seeded.encoderSelfAttentionFirst = s.encoderSelfAttentionFirst;
    seeded.decoderCausalSelfAttentionFirst = s.decoderCausalSelfAttentionFirst;
    seeded.cellEdits = s.edits;
    spec.headsOff = s.headsOff;
    return spec;
}

Session fromModelSpec(const core::ModelSpec& spec) {
    Session s;
    s.sentences = spec.sentences;
    s.dModel = spec.attention.dModel;
    s.heads = spec.attention.heads;
    s.dK = spec.attention.dK;
    s.dV = spec.attention.dV;
    s.mask = spec.attention.mask;
    s.fill = spec.attention.fill;
    s.softmax = spec.attention.softmax;
    s.maskPaddedQueries = spec.attention.maskPaddedQueries;
    s.scale = spec.attention.scale;
    s.tokenLimit = spec.tokenLimit;
    s.compareWith = spec.compareWith;
    s.compareKind = spec.compareKind;
    if (const core::SeededLayer* seeded = spec.seeded()) {
        s.decoderSentences = seeded->decoderSentences;
        s.seed = seeded->seed;
        s.positional = seeded->positional;
        s.prependCls = seeded->prependCls;
        s.biases = seeded->biases;
        s.encoderSelfAttentionFirst = seeded->encoderSelfAttentionFirst;
        s.decoderCausalSelfAttentionFirst = seeded->decoderCausalSelfAttentionFirst;
        s.edits = seeded->cellEdits;
    }
    if (const core::TrainedLayer* trained = spec.trained()) {
        const core::TrainedModel& model = *trained->model;
        s.model.source = model.bundled ? ModelChoice::Source::Bundled : ModelChoice::Source::Folder;
        if (!model.bundled) s.model.folder = model.folder;
        s.model.layer = trained->layer;
        s.headsOff = spec.headsOff;
    }
    return s;
}

}  // namespace attnviz::io
