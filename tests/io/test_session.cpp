// test_session.cpp — session files: save → load gives back exactly what was saved (every parameter, the view,
// weight paths, edited cells), each kind of bad file is refused with one FileError naming the file and the
// problem, a failed load or save changes nothing, and a session with loaded weights and an edited cell computes
// the same numbers after it is reopened. Not tested here: the contents of weight files (test_weight_files.cpp).
#include "core/derived_maps.h"
#include "io/model_library.h"
#include "io/session.h"

#include "io/npy.h"
#include "io/scratch_dir.h"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using attnviz::core::CellEdit;
using attnviz::core::TensorId;
using attnviz::io::FileError;
using attnviz::io::Session;
using attnviz::test::ScratchDir;

// A session in which every member differs from its default, so a member the round trip drops is noticed.
Session everythingChanged(const fs::path& weightDirectory) {
    Session s;
    s.sentences = {"The cat sat.", "Un chat ½ — “quoted”"};
    s.decoderSentences = {"le chat", "die Katze"};
    s.dModel = 12;
    s.heads = 3;
    s.dK = 5;
    s.dV = 2;
    s.seed = (std::uint64_t{1} << 63) + 5;  // above int64's range: stored as an unsigned JSON number
    s.mask = attnviz::core::MaskKind::Padding;
    s.fill = attnviz::core::MaskFill::MinusInfinity;
    s.softmax = attnviz::core::SoftmaxMode::PyTorch;
    s.maskPaddedQueries = true;
    s.scale = 0.3f;
    s.positional = false;
    s.prependCls = true;
    s.biases = true;
    s.tokenLimit = 100;
    s.encoderSelfAttentionFirst = true;
    s.decoderCausalSelfAttentionFirst = true;
    s.view = {7, 1, 2, "magma", "rdbu"};
    auto& w = s.weightFiles;
    for (auto [path, name] : {std::pair{&w.wq, "w_q"}, {&w.wk, "w_k"}, {&w.wv, "w_v"}, {&w.wo, "w_o"}, {&w.bq, "b_q"},
                              {&w.bk, "b_k"}, {&w.bv, "b_v"}, {&w.bo, "b_o"}, {&w.embeddings, "emb"}}) {
        *path = weightDirectory / (std::string(name) + ".npy");
    }
    w.vocabulary = weightDirectory / "vocab.txt";
    s.edits = {{TensorId::X, 1, 99, 11, 0.1f},
               {TensorId::XQuery, 0, 0, 0, -std::numeric_limits<float>::max()},
               {TensorId::WQ, 0, 11, 14, std::numeric_limits<float>::denorm_min()},
               {TensorId::WO, 0, 5, 11, -0.0f},
               {TensorId::WV, 0, 0, 5, 1e-30f}};
    return s;
}

std::string fileText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeText(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// The FileError message `action` throws; "no error" when it throws nothing.
std::string refusal(const std::function<void()>& action) {
    try {
        action();
    } catch (const FileError& error) {
        return error.what();
    }
    return "no error";
}

std::string refusalOf(const std::string& json) {
    return refusal([&] { attnviz::io::sessionFromJson(json, "lesson.json"); });
}

// A minimal valid session with `inputs` (the members inside "inputs": {...}) and more top-level members.
std::string sessionWith(const std::string& inputs, const std::string& more = "") {
    return R"({"schema_version": 1, "inputs": {)" + inputs + "}" + (more.empty() ? "" : ", " + more) + "}";
}

// 'path' as messages quote it. Built by appending: GCC 12 warns falsely (-Wrestrict, bug 105329) on "'" + string.
std::string quoted(const fs::path& path) {
    std::string text(1, '\'');
    text.append(path.string());
    text.push_back('\'');
    return text;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

// [SECTION] round trips

TEST_CASE("session: JSON text round trip keeps every member, bit for bit") {
    const Session original = everythingChanged("/lessons/weights");
    const Session loaded = attnviz::io::sessionFromJson(attnviz::io::sessionToJson(original), "memory");
    CHECK(loaded == original);
    CHECK(std::signbit(loaded.edits[3].value));  // -0.0 stays negative zero
    CHECK(loaded.edits[2].value == std::numeric_limits<float>::denorm_min());
}

TEST_CASE("session: save → load through a file is identical — weight paths are stored relative when below the file") {
    const ScratchDir dir("session");
    const Session original = everythingChanged(dir.path() / "weights");
    attnviz::io::saveSession(dir / "lesson.json", original);
    CHECK(attnviz::io::loadSession(dir / "lesson.json") == original);
    const std::string text = fileText(dir / "lesson.json");
    CHECK(contains(text, R"("w_q": "weights/w_q.npy")"));
    CHECK_FALSE(contains(text, dir.path().string()));
    CHECK(dir.entries() == std::vector<std::string>{"lesson.json"});  // no temporary file left behind
}

TEST_CASE("session: a weight file outside the session's folder is stored with its absolute path") {
    const ScratchDir dir("session-abs");
    fs::create_directory(dir / "lesson");
    const Session original = everythingChanged(dir.path() / "shared");
    attnviz::io::saveSession(dir / "lesson" / "lesson.json", original);
    CHECK(contains(fileText(dir / "lesson" / "lesson.json"), (dir.path() / "shared" / "w_q.npy").string()));
    CHECK(attnviz::io::loadSession(dir / "lesson" / "lesson.json") == original);
}

TEST_CASE("session: a moved lesson folder still finds its weights") {
    const ScratchDir dir("session-move");
    fs::create_directory(dir / "before");
    attnviz::io::saveSession(dir / "before" / "lesson.json", everythingChanged(dir / "before"));
    fs::rename(dir / "before", dir / "after");
    CHECK(attnviz::io::loadSession(dir / "after" / "lesson.json").weightFiles.wq == dir / "after" / "w_q.npy");
}

TEST_CASE("session: a file with only schema_version gives the defaults — the defaults round-trip") {
    CHECK(attnviz::io::sessionFromJson(R"({"schema_version": 1})", "minimal.json") == Session{});
    CHECK(attnviz::io::sessionFromJson(attnviz::io::sessionToJson(Session{}), "defaults.json") == Session{});
}

TEST_CASE("session: toModelSpec and fromModelSpec translate every input, edits included") {
    Session s = everythingChanged("/w");
    s.view = {};
    s.weightFiles = {};
    const attnviz::core::ModelSpec spec = attnviz::io::toModelSpec(s);
    CHECK(spec.attention.dK == 5);
    CHECK(spec.attention.maskPaddedQueries);
    CHECK(spec.attention.scale == 0.3f);
    CHECK(spec.seeded()->cellEdits == s.edits);
    CHECK(attnviz::io::fromModelSpec(spec) == s);
}

// [SECTION] bad files: one FileError naming the file and the problem

TEST_CASE("session: invalid and truncated JSON are refused with the line and column") {
    const std::string valid = attnviz::io::sessionToJson(everythingChanged("/w"));
    const std::string truncated = refusalOf(valid.substr(0, valid.size() / 2));
    CHECK(truncated.starts_with("'lesson.json': is not valid JSON (parse error at line "));
    CHECK(contains(truncated, ", column "));
    CHECK(refusalOf("") == "'lesson.json': is not valid JSON (parse error at line 1, column 1: syntax error while parsing "
                           "value - unexpected end of input; expected '[', '{', or a literal).");
    CHECK(contains(refusalOf(R"({"schema_version": 1,})"), "at line 1, column 22"));
    CHECK(contains(refusalOf(sessionWith(R"("scale": NaN)")), "is not valid JSON"));  // JSON has no NaN
    CHECK(contains(refusalOf(sessionWith(R"("sentences": ["\xff"])")), "is not valid JSON"));
    CHECK(refusalOf("[1, 2]") == "'lesson.json': is not a session: it holds an array, not a JSON object.");
}

TEST_CASE("session: nesting deeper than any session is refused without recursing") {
    const std::string deep = R"({"schema_version": 1, "x": )" + std::string(100000, '[') + std::string(100000, ']') + "}";
    CHECK(refusalOf(deep) == "'lesson.json': is not a session: its JSON nests deeper than 8 levels.");
}

TEST_CASE("session: a missing, unknown or mistyped schema_version is refused") {
    CHECK(refusalOf("{}") == "'lesson.json': has no schema_version, so it is not an attnviz session.");
    CHECK(refusalOf(R"({"schema_version": 99})") ==
          "'lesson.json': has schema_version 99; this attnviz reads version 1 (a newer attnviz may have written it).");
    CHECK(contains(refusalOf(R"({"schema_version": "1"})"), "has schema_version the string \"1\""));
    CHECK(contains(refusalOf(R"({"schema_version": 1.0})"), "has schema_version 1.0"));
}

TEST_CASE("session: members of the wrong type are refused, naming the member and what was found") {
    CHECK(refusalOf(sessionWith(R"("heads": "8")")) == "'lesson.json': inputs.heads must be a whole number (got the string \"8\").");
    CHECK(refusalOf(sessionWith(R"("d_model": 64.5)")) == "'lesson.json': inputs.d_model must be a whole number (got 64.5).");
    CHECK(refusalOf(sessionWith(R"("positional": 1)")) == "'lesson.json': inputs.positional must be true or false (got 1).");
    CHECK(refusalOf(sessionWith(R"("sentences": "hi")")) ==
          "'lesson.json': inputs.sentences must be an array of strings (got the string \"hi\").");
    CHECK(refusalOf(sessionWith(R"("sentences": ["a", 2])")) ==
          "'lesson.json': inputs.sentences must be an array of strings (got an array).");
    CHECK(refusalOf(sessionWith(R"("seed": -1)")) == "'lesson.json': inputs.seed must be a whole number from 0 to 2^64 - 1 (got -1).");
    CHECK(refusalOf(sessionWith(R"("mask": "diagonal")")) ==
          "'lesson.json': inputs.mask must be one of \"none\", \"padding\", \"causal\", \"both\" (got the string \"diagonal\").");
    CHECK(refusalOf(sessionWith(R"("scale": "0.5")")) == "'lesson.json': inputs.scale must be a number (got the string \"0.5\").");
    CHECK(refusalOf(sessionWith("", R"("view": [])")) == "'lesson.json': view must be a JSON object (got an array).");
    CHECK(refusalOf(sessionWith("", R"("edits": {})")) == "'lesson.json': edits must be a JSON array (got an object).");
    CHECK(refusalOf(sessionWith("", R"("weights": {"w_q": 3})")) == "'lesson.json': weights.w_q must be a string (got 3).");
}

TEST_CASE("session: unknown members are refused, so a typo is not silently ignored") {
    CHECK(refusalOf(sessionWith(R"("head": 4)")) == "'lesson.json': inputs has an unknown member \"head\".");
    CHECK(refusalOf(sessionWith("", R"("colours": {})")) == "'lesson.json': the session has an unknown member \"colours\".");
}

TEST_CASE("session: absurd numbers are refused with the core's limits") {
    CHECK(refusalOf(sessionWith(R"("heads": 1000000000)")) ==
          "'lesson.json': The head count must be between 1 and 256 (got 1000000000).");
    CHECK(refusalOf(sessionWith(R"("d_model": -1)")) == "'lesson.json': d_model must be between 1 and 4096 (got -1).");
    CHECK(refusalOf(sessionWith(R"("heads": 10000000000000)")) ==
          "'lesson.json': inputs.heads = 10000000000000 is far outside any allowed value.");
    CHECK(refusalOf(sessionWith(R"("d_k": -9223372036854775808)")) ==
          "'lesson.json': inputs.d_k = -9223372036854775808 is far outside any allowed value.");
    CHECK(refusalOf(sessionWith(R"("heads": 5)")) ==
          "'lesson.json': 5 heads do not divide d_model = 64; valid head counts are 1, 2, 4, 8, 16, 32, 64.");
    CHECK(refusalOf(sessionWith(R"("scale": 1e300)")) == "'lesson.json': inputs.scale = 1e+300 does not fit a 32-bit float.");
    CHECK(refusalOf(sessionWith(R"("token_limit": 0)")) == "'lesson.json': inputs.token_limit must be from 1 to 2048 (got 0).");
    CHECK(refusalOf(sessionWith(R"("sentences": [])")) == "'lesson.json': inputs.sentences is empty; give at least one sentence.");
    CHECK(refusalOf(sessionWith(R"("sentences": ["a","a","a","a","a","a","a","a","a","a","a","a","a","a","a","a","a"])")) ==
          "'lesson.json': inputs.sentences holds 17 sentences; a batch holds at most 16.");
    CHECK(refusalOf(sessionWith(R"("sentences": ["a", "b"], "decoder_sentences": ["c"])")) ==
          "'lesson.json': inputs.decoder_sentences holds 1 sentences for 2 encoder sentences; give one each, or none.");
}

TEST_CASE("session: a view outside the model or an unknown colormap is refused") {
    CHECK(refusalOf(sessionWith("", R"("view": {"head": 8})")) == "'lesson.json': view.head is 8 but the heads are numbered 0 to 7.");
    CHECK(refusalOf(sessionWith("", R"("view": {"stage": 11})")) == "'lesson.json': view.stage is 11 but stages are numbered 0 to 10.");
    CHECK(refusalOf(sessionWith("", R"("view": {"batch": -1})")) ==
          "'lesson.json': view.batch is -1 but the batch's sentences are numbered 0 to 0.");
    CHECK(refusalOf(sessionWith("", R"("view": {"sequential_colormap": "jet"})")) ==
          "'lesson.json': view.sequential_colormap must be one of viridis, cividis, magma (got the string \"jet\").");
    CHECK(refusalOf(sessionWith("", R"("view": {"diverging_colormap": "viridis"})")) ==
          "'lesson.json': view.diverging_colormap must be one of coolwarm, rdbu (got the string \"viridis\").");
}

TEST_CASE("session: bad cell edits are refused: not finite, unknown matrix, outside the matrix") {
    const auto edit = [](const std::string& members) { return sessionWith("", R"("edits": [{"matrix": "w_q", "row": 0, "col": 0, "value": 1})"
                                                                           R"(, {)" + members + "}]"); };
    CHECK(refusalOf(edit(R"("matrix": "q", "row": 0, "col": 0, "value": 1)")) ==
          "'lesson.json': edits[1].matrix must be one of \"x\", \"x_query\", \"w_q\", \"w_k\", \"w_v\", \"w_o\" (got the string \"q\").");
    CHECK(contains(refusalOf(edit(R"("matrix": "x", "row": 0, "col": 0, "value": NaN)")), "is not valid JSON"));
    CHECK(contains(refusalOf(edit(R"("matrix": "x", "row": 0, "col": 0, "value": 1e999)")), "is not valid JSON (number overflow"));
    CHECK(refusalOf(edit(R"("matrix": "x", "row": 0, "col": 0, "value": 1e39)")) ==
          "'lesson.json': edits[1].value = 1e+39 does not fit a 32-bit float.");
    CHECK(refusalOf(edit(R"("matrix": "x", "row": 0, "col": 0, "value": null)")) ==
          "'lesson.json': edits[1].value must be a number (got null).");
    CHECK(refusalOf(edit(R"("matrix": "x", "row": 0, "col": 0)")) == "'lesson.json': edits[1] has no value.");
    CHECK(refusalOf(edit(R"("row": 0, "col": 0, "value": 1)")) == "'lesson.json': edits[1] has no matrix.");
    CHECK(refusalOf(edit(R"("matrix": "w_k", "row": 64, "col": 0, "value": 1)")) ==
          "'lesson.json': edits[1] addresses row 64, column 0 of w_k, which has 64 rows and 64 columns.");
    CHECK(refusalOf(edit(R"("matrix": "x", "row": 64, "col": 0, "value": 1)")) ==
          "'lesson.json': edits[1] addresses row 64, column 0 of x, which has 64 rows at most and 64 columns.");
    CHECK(refusalOf(edit(R"("matrix": "w_v", "batch": 1, "row": 0, "col": 0, "value": 1)")) ==
          "'lesson.json': edits[1].batch is 1 but weights take batch 0 (every sentence shares them).");
    CHECK(refusalOf(edit(R"("matrix": "x_query", "row": 0, "col": 0, "value": 1)")) ==
          "'lesson.json': edits[1] edits x_query, which only cross-attention (decoder sentences) has.");
    CHECK(refusalOf(edit(R"("matrix": "x", "row": 0, "col": 0, "value": 1, "colour": 2)")) ==
          "'lesson.json': edits[1] has an unknown member \"colour\".");
}

TEST_CASE("session: an incomplete set of weight files, or biases that disagree with them, is refused") {
    CHECK(refusalOf(sessionWith("", R"("weights": {"w_q": "a.npy"})")) ==
          "'lesson.json': weights: w_q is given but w_k is not: give all of w_q ... w_o or none.");
    CHECK(refusalOf(sessionWith("", R"("weights": {"vocabulary": "v.txt"})")) ==
          "'lesson.json': weights: vocabulary is given but embeddings is not: give all of embeddings ... vocabulary or none.");
    const std::string four = R"("w_q": "q", "w_k": "k", "w_v": "v", "w_o": "o")";
    CHECK(refusalOf(sessionWith(R"("biases": true)", R"("weights": {)" + four + "}")) ==
          "'lesson.json': inputs.biases is true but weights names no bias files (b_q ... b_o).");
    CHECK(refusalOf(sessionWith("", R"("weights": {)" + four + R"(, "b_q": "1", "b_k": "2", "b_v": "3", "b_o": "4"})")) ==
          "'lesson.json': weights names bias files but inputs.biases is false.");
}

TEST_CASE("session: an unreadable file is refused naming its path") {
    const ScratchDir dir("session-missing");
    CHECK(refusal([&] { attnviz::io::loadSession(dir / "nowhere.json"); }) ==
          "Cannot read " + quoted((dir / "nowhere.json")) + ": No such file or directory.");
}

// [SECTION] nothing changed by a failure

TEST_CASE("session: a failed load leaves the open session exactly as it was") {
    const ScratchDir dir("session-keep");
    attnviz::io::saveSession(dir / "good.json", everythingChanged(dir.path()));
    writeText(dir / "bad.json", sessionWith(R"("heads": 1000000000)"));
    Session open = attnviz::io::loadSession(dir / "good.json");
    const Session before = open;
    CHECK_THROWS_AS(open = attnviz::io::loadSession(dir / "bad.json"), FileError);
    CHECK(open == before);
}

TEST_CASE("session: saving a session loading would refuse fails and keeps the old file") {
    const ScratchDir dir("session-save");
    attnviz::io::saveSession(dir / "lesson.json", Session{});
    const std::string old = fileText(dir / "lesson.json");
    Session bad;
    bad.edits = {{TensorId::WQ, 0, 0, 0, std::nanf("")}};
    CHECK(refusal([&] { attnviz::io::saveSession(dir / "lesson.json", bad); }) ==
          "Not saved: " + quoted((dir / "lesson.json")) + ": edits[0].value must be a finite number.");
    bad.edits.clear();
    bad.sentences = {"bad \xff byte"};
    CHECK(contains(refusal([&] { attnviz::io::saveSession(dir / "lesson.json", bad); }), "inputs.sentences[0] is not valid UTF-8."));
    CHECK(fileText(dir / "lesson.json") == old);
    CHECK(dir.entries() == std::vector<std::string>{"lesson.json"});
}

TEST_CASE("session: a weight file that fails to load makes openSession throw, naming that file") {
    const ScratchDir dir("session-open");
    Session s;
    s.dModel = 4;
    s.heads = 2;
    s.weightFiles.wq = dir / "w_q.npy";
    s.weightFiles.wk = dir / "w_k.npy";
    s.weightFiles.wv = dir / "w_v.npy";
    s.weightFiles.wo = dir / "w_o.npy";
    for (const fs::path& path : {s.weightFiles.wq, s.weightFiles.wk, s.weightFiles.wv}) attnviz::io::writeNpy(path, attnviz::core::Tensor({4, 4}));
    attnviz::io::writeNpy(s.weightFiles.wo, attnviz::core::Tensor({4, 3}));
    attnviz::io::saveSession(dir / "lesson.json", s);
    CHECK(refusal([&] { attnviz::io::openSession(dir / "lesson.json"); }) ==
          quoted(s.weightFiles.wo) + " has shape (4, 3) but W^O must be (4, 4) (h*d_v x d_model).");
}

// [SECTION] the issue's "done when": loaded weights + an edited cell, saved, reopened, the same numbers

TEST_CASE("session: weights from files and an edited cell give the same trace after save and reopen") {
    const ScratchDir dir("session-reopen");
    Session s;
    s.sentences = {"the cat sat"};
    s.dModel = 4;
    s.heads = 2;
    attnviz::core::AttentionConfig sizes;
    sizes.dModel = 4;
    sizes.heads = 2;
    const attnviz::core::Weights seeded = attnviz::core::initWeights(attnviz::core::resolveDimensions(sizes), 9, false);
    const std::pair<const attnviz::core::Matrix*, const char*> files[] = {{&seeded.wq, "w_q.npy"}, {&seeded.wk, "w_k.npy"},
                                                                          {&seeded.wv, "w_v.npy"}, {&seeded.wo, "w_o.npy"}};
    for (const auto& [matrix, name] : files) {
        attnviz::core::Tensor tensor({4, 4});
        std::copy(matrix->data(), matrix->data() + 16, tensor.data.begin());
        attnviz::io::writeNpy(dir / name, tensor);
    }
    s.weightFiles.wq = dir / "w_q.npy";
    s.weightFiles.wk = dir / "w_k.npy";
    s.weightFiles.wv = dir / "w_v.npy";
    s.weightFiles.wo = dir / "w_o.npy";
    s.edits = {{TensorId::WK, 0, 2, 3, 4.5f}, {TensorId::X, 0, 1, 0, -2.0f}};
    s.view.stage = 7;

    attnviz::core::ModelSpec spec = attnviz::io::toModelSpec(s);
    spec.seeded()->customWeights = std::make_shared<const attnviz::core::Weights>(seeded);
    const attnviz::core::ModelRun before = attnviz::core::runModel(spec);
    attnviz::io::saveSession(dir / "lesson.json", s);

    const attnviz::io::OpenedSession opened = attnviz::io::openSession(dir / "lesson.json");
    CHECK(opened.session == s);
    REQUIRE(opened.spec.seeded()->customWeights != nullptr);
    const attnviz::core::ModelRun after = attnviz::core::runModel(opened.spec);
    CHECK(after.weights.wk(2, 3) == 4.5f);
    CHECK(after.trace[TensorId::X].slice(0)(1, 0) == -2.0f);
    for (int index = 0; index < attnviz::core::kTensorCount; ++index) {
        const auto id = static_cast<TensorId>(index);
        CAPTURE(attnviz::core::tensorInfo(id).key);
        CHECK(attnviz::core::materialize(after.trace, id).data == attnviz::core::materialize(before.trace, id).data);
    }
}

// [SECTION] fuzz: mutated sessions give a Session or a FileError, never anything else

TEST_CASE("session: fuzz: mutated files give a Session or a FileError") {
    const std::string valid = attnviz::io::sessionToJson(everythingChanged("/w"));
    std::mt19937 random(20240611);
    const std::string alphabet = "{}[]\",:0123456789-.eE truefalsn\\\xff";
    int accepted = 0;
    for (int round = 0; round < 3000; ++round) {
        std::string text = valid;
        const int mutations = 1 + static_cast<int>(random() % 4);
        for (int m = 0; m < mutations; ++m) {
            const std::size_t at = random() % text.size();
            switch (random() % 3) {
                case 0: text[at] = alphabet[random() % alphabet.size()]; break;
                case 1: text.erase(at, 1 + random() % 8); break;
                default: text.insert(at, 1, alphabet[random() % alphabet.size()]); break;
            }
        }
        try {
            const Session session = attnviz::io::sessionFromJson(text, "fuzz.json");
            attnviz::io::checkSession(session, "fuzz.json");  // what loads also saves
            ++accepted;
        } catch (const FileError&) {
        }
    }
    MESSAGE(accepted, " of 3000 mutated sessions were still valid");
    CHECK(accepted > 0);
}

// [SECTION] the model a lesson uses

namespace {

// A lesson on a trained model: no cell edits, decoder sentences or .npy weights (the seeded model's tools).
Session onModel(attnviz::io::ModelChoice model) {
    Session s;
    s.sentences = {"The cat sat."};
    s.dModel = 32;
    s.heads = 4;
    s.model = std::move(model);
    return s;
}

}  // namespace

TEST_CASE("session: the model choice round-trips, a folder stored relative to the session and found after a move") {
    using Source = attnviz::io::ModelChoice::Source;
    const ScratchDir dir("session-model");
    fs::create_directories(dir / "before" / "models" / "gpt2");
    const Session original = onModel({Source::Folder, dir / "before" / "models" / "gpt2", 3});
    attnviz::io::saveSession(dir / "before" / "lesson.json", original);
    CHECK(contains(fileText(dir / "before" / "lesson.json"), R"("path": "models/gpt2")"));
    CHECK(contains(fileText(dir / "before" / "lesson.json"), R"("source": "folder")"));
    fs::rename(dir / "before", dir / "after");
    const Session moved = attnviz::io::loadSession(dir / "after" / "lesson.json");
    CHECK(moved.model.folder == dir / "after" / "models" / "gpt2");
    CHECK(moved.model.layer == 3);
    const Session bundled = onModel({Source::Bundled, {}, 1});
    CHECK(attnviz::io::sessionFromJson(attnviz::io::sessionToJson(bundled), "b.json") == bundled);
}

TEST_CASE("session: a file without a model is the seeded model's, as every session before trained models") {
    CHECK(attnviz::io::sessionFromJson(R"({"schema_version": 1})", "old.json").model.source == attnviz::io::ModelChoice::Source::Seeded);
}

TEST_CASE("session: a bad model choice is refused, naming what is wrong") {
    CHECK(contains(refusalOf(R"({"schema_version": 1, "model": {"source": "gpt5"}})"), "model.source must be one of"));
    CHECK(contains(refusalOf(R"({"schema_version": 1, "model": {"source": "folder"}})"), "model.path must name a model folder"));
    CHECK(contains(refusalOf(R"({"schema_version": 1, "model": {"source": "bundled", "path": "x"}})"), "only for source \"folder\""));
    CHECK(contains(refusalOf(R"({"schema_version": 1, "model": {"source": "bundled", "layer": -1}})"), "model.layer must be 0 or more"));
    CHECK(contains(refusalOf(R"({"schema_version": 1, "model": {"source": "bundled", "heads": 2}})"), "unknown member"));
    CHECK(contains(refusalOf(R"({"schema_version": 1, "model": {"source": "bundled"},
                                 "edits": [{"matrix": "x", "row": 0, "col": 0, "value": 1}]})"),
                   "cells of a trained model cannot be edited"));
}

TEST_CASE("session: a model folder that cannot be opened makes openSession throw, naming the session and the folder") {
    const ScratchDir dir("session-missing-model");
    attnviz::io::saveSession(dir / "lesson.json", onModel({attnviz::io::ModelChoice::Source::Folder, dir / "no-such-model", 0}));
    const std::string message = refusal([&] { attnviz::io::openSession(dir / "lesson.json"); });
    CHECK(contains(message, "lesson.json"));
    CHECK(contains(message, "no-such-model"));
}

// [SECTION] heads switched off (issue 35)

TEST_CASE("session: heads switched off round-trip through the file and the spec — absent when every head is on") {
    using Source = attnviz::io::ModelChoice::Source;
    using attnviz::core::HeadOffMode;
    Session s = onModel({Source::Bundled, {}, 2});
    s.headsOff = {{0, 1, HeadOffMode::Mean}, {2, 0, HeadOffMode::Zero}};
    const std::string text = attnviz::io::sessionToJson(s);
    CHECK(contains(text, R"("heads_off": [)"));
    CHECK(contains(text, R"("mode": "mean")"));
    CHECK(attnviz::io::sessionFromJson(text, "off.json") == s);
    CHECK(attnviz::io::toModelSpec(s).headsOff == s.headsOff);
    CHECK(!contains(attnviz::io::sessionToJson(onModel({Source::Bundled, {}, 2})), "heads_off"));  // older versions still read it
    // A session written before heads could be switched off opens with every head on.
    CHECK(attnviz::io::sessionFromJson(R"({"schema_version": 1, "model": {"source": "bundled"}})", "old.json").headsOff.empty());
    const ScratchDir dir("session-heads-off");
    attnviz::io::saveSession(dir / "lesson.json", s);
    CHECK(attnviz::io::loadSession(dir / "lesson.json") == s);
}

TEST_CASE("session: bad heads off are refused — the seeded model, a negative or repeated head, an unknown mode") {
    CHECK(contains(refusalOf(R"({"schema_version": 1, "heads_off": [{"layer": 0, "head": 1}]})"), "needs a trained model"));
    const std::string bundled = R"({"schema_version": 1, "model": {"source": "bundled"}, "heads_off": )";
    CHECK(contains(refusalOf(bundled + R"([{"layer": -1, "head": 1}]})"), "a layer and a head of 0 or more"));
    CHECK(contains(refusalOf(bundled + R"([{"layer": 1, "head": 1}, {"layer": 1, "head": 1, "mode": "mean"}]})"), "head 1.1 twice"));
    CHECK(contains(refusalOf(bundled + R"([{"layer": 1, "head": 1, "mode": "half"}]})"), "must be one of \"zero\", \"mean\""));
    CHECK(contains(refusalOf(bundled + R"([{"head": 1}]})"), "heads_off[0] has no layer"));
    CHECK(contains(refusalOf(bundled + R"({"layer": 1}})"), "heads_off must be a JSON array"));
}

TEST_CASE("session: a head off that the session's model lacks is refused on opening, naming the model's layers and heads") {
    const std::shared_ptr<const attnviz::core::TrainedModel> model = attnviz::io::loadBundledModel();
    REQUIRE(model != nullptr);
    Session s = onModel({attnviz::io::ModelChoice::Source::Bundled, {}, 0});
    s.headsOff = {{model->config().layers, 0, attnviz::core::HeadOffMode::Zero}};
    const std::string message = refusal([&] { attnviz::io::openedSession(s, model, "lesson.json"); });
    CHECK(contains(message, "lesson.json"));
    CHECK(contains(message, "has layers 0 to " + std::to_string(model->config().layers - 1)));
    s.headsOff = {{0, model->config().heads - 1, attnviz::core::HeadOffMode::Mean}};
    CHECK(attnviz::io::openedSession(s, model, "lesson.json").spec.headsOff == s.headsOff);
}
