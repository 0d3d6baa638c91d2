// test_dump.cpp — io::writeDump: every expected file with the Trace's numbers, a manifest that parses and
// describes them, refusal of non-empty and non-directory targets and of folders holding the run's inputs, --force
// semantics (a failed forced dump leaves the old one as it was; the next one sweeps what killed ones left), and Debian's NumPy
// loading a real dump (tests/reference/check_dump.py, run with /usr/bin/python3).
// Not tested here: whether the numbers are right (tests/core/test_reference.cpp checks the forward pass).
#include "core/derived_maps.h"
#include "io/dump.h"

#include "io/atomic_file.h"
#include "io/npy.h"
#include "io/scratch_dir.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/wait.h>

namespace {

namespace fs = std::filesystem;
using attnviz::core::ModelRun;
using attnviz::core::ModelSpec;
using attnviz::core::TensorId;
using nlohmann::json;

// Two sentences of different lengths with a padding mask and biases: every optional file except the cross ones.
ModelSpec paddedBatchSpec() {
    ModelSpec spec;
    spec.sentences = {"The cat sat on the mat.", "Dogs bark"};
    spec.attention.dModel = 16;
    spec.attention.heads = 4;
    spec.attention.mask = attnviz::core::MaskKind::Padding;
    spec.seeded()->biases = true;
    return spec;
}

ModelSpec crossSpec() {
    ModelSpec spec;
    spec.sentences = {"Le chat dort"};
    spec.seeded()->decoderSentences = {"The cat is sleeping"};
    spec.attention.dModel = 12;
    spec.attention.heads = 3;
    return spec;
}

json readJson(const fs::path& path) {
    std::ifstream in(path);
    REQUIRE_MESSAGE(in.good(), "cannot open ", path.string());
    return json::parse(in);
}

std::set<std::string> fileNamesIn(const fs::path& dir) {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename().string());
    return names;
}

std::string fileErrorOf(const std::function<void()>& write) {
    try {
        write();
    } catch (const attnviz::io::FileError& error) {
        return error.what();
    }
    FAIL("expected a FileError, got none");
    return {};
}

// "'path'", as FileError messages quote paths (appended: GCC 12's -Wrestrict misfires on "'" + s + "'").
std::string inQuotes(const fs::path& path) {
    std::string text(1, '\'');
    text.append(path.string());
    text.push_back('\'');
    return text;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("dump: writeDump writes every tensor, the biases, the embeddings and a manifest describing them") {
    attnviz::test::ScratchDir scratch("dump");
    const fs::path dir = scratch / "nested" / "run";  // missing parents are created
    const ModelRun run = attnviz::core::runModel(paddedBatchSpec());
    const std::vector<fs::path> written = attnviz::io::writeDump(run, dir, false);

    const std::set<std::string> expected{
        "x.npy", "w_q.npy", "w_k.npy", "w_v.npy", "w_o.npy", "q.npy", "k.npy", "v.npy", "q_heads.npy", "k_heads.npy",
        "v_heads.npy", "scores.npy", "scaled_scores.npy", "mask.npy", "masked_scores.npy", "attention_weights.npy",
        "z_heads.npy", "concat.npy", "output.npy", "b_q.npy", "b_k.npy", "b_v.npy", "b_o.npy", "embeddings.npy",
        "positions.npy", "manifest.json"};
    CHECK(fileNamesIn(dir) == expected);
    REQUIRE(written.size() == expected.size());
    CHECK(written.back() == dir / "manifest.json");

    // Each Trace tensor's file holds exactly the Trace's numbers with its shape.
    for (int index = 0; index < attnviz::core::kTensorCount; ++index) {
        const auto id = static_cast<TensorId>(index);
        if (!run.trace.has(id)) continue;
        const std::string key(attnviz::core::tensorInfo(id).key);
        CAPTURE(key);
        const attnviz::core::Tensor read = attnviz::io::readNpy(dir / (key + ".npy")), expected = attnviz::core::materialize(run.trace, id);
        CHECK(read.shape == expected.shape);
        CHECK(std::equal(read.data.begin(), read.data.end(), expected.data.begin(), expected.data.end()));
    }
    const attnviz::core::Tensor bq = attnviz::io::readNpy(dir / "b_q.npy");
    CHECK(bq.shape == std::vector<int>{16});
    CHECK(bq.data[3] == run.weights.bq(3));
    CHECK(attnviz::io::readNpy(dir / "embeddings.npy").shape == std::vector<int>{2, 7, 16});
    CHECK(attnviz::io::readNpy(dir / "mask.npy").shape == std::vector<int>{2, 1, 1, 7});

    const json manifest = readJson(dir / "manifest.json");
    CHECK(manifest["program"] == "attnviz");
    CHECK(manifest["version"] == ATTNVIZ_VERSION);
    const json& parameters = manifest["parameters"];
    CHECK(parameters["d_model"] == 16);
    CHECK(parameters["heads"] == 4);
    CHECK(parameters["d_k"] == 4);
    CHECK(parameters["d_v"] == 4);
    CHECK(parameters["scale"].get<double>() == doctest::Approx(0.5));
    CHECK(parameters["seed"] == 42);
    CHECK(parameters["mask"] == "padding");
    CHECK(parameters["fill"] == "-1e9");
    CHECK(parameters["softmax"] == "safe");
    CHECK(parameters["positional"] == true);
    CHECK(parameters["cls"] == false);
    CHECK(parameters["biases"] == true);
    CHECK(parameters["cross"] == false);
    CHECK(manifest["sentences"] == json(run.spec.sentences));
    CHECK(manifest["tokens"] == json(run.tokens));
    CHECK(manifest["lengths"] == json({7, 2}));
    CHECK_FALSE(manifest.contains("query_tokens"));

    std::set<std::string> listed;
    for (const json& file : manifest["files"]) {
        const std::string name = file["file"];
        CAPTURE(name);
        listed.insert(name);
        CHECK(file["tensor"].get<std::string>() + ".npy" == name);
        CHECK_FALSE(file["symbol"].get<std::string>().empty());
        CHECK_FALSE(file["meaning"].get<std::string>().empty());
        CHECK(file["shape"] == json(attnviz::io::readNpy(dir / name).shape));
    }
    listed.insert("manifest.json");
    CHECK(listed == expected);
}

TEST_CASE("dump: a cross-attention dump has the decoder's input, tokens and embeddings, and no mask file for mask none") {
    attnviz::test::ScratchDir scratch("dump");
    const ModelRun run = attnviz::core::runModel(crossSpec());
    attnviz::io::writeDump(run, scratch.path(), false);
    const std::set<std::string> names = fileNamesIn(scratch.path());
    CHECK(names.count("x_query.npy") == 1);
    CHECK(names.count("query_embeddings.npy") == 1);
    CHECK(names.count("mask.npy") == 0);
    CHECK(names.count("b_q.npy") == 0);
    CHECK(attnviz::io::readNpy(scratch / "scores.npy").shape == std::vector<int>{1, 3, 4, 3});  // b × h × l_q × l_k
    const json manifest = readJson(scratch / "manifest.json");
    CHECK(manifest["parameters"]["cross"] == true);
    CHECK(manifest["query_tokens"] == json(run.queryTokens));
    CHECK(manifest["query_lengths"] == json({4}));
    CHECK(manifest["lengths"] == json({3}));
}

TEST_CASE("dump: writeDump refuses a non-empty directory unless forced, and never touches files that are not its own") {
    attnviz::test::ScratchDir scratch("dump");
    attnviz::io::writeFileAtomically(scratch / "notes.txt", "mine");
    const ModelRun run = attnviz::core::runModel(paddedBatchSpec());
    const std::string message = fileErrorOf([&] { attnviz::io::writeDump(run, scratch.path(), false); });
    CHECK(contains(message, inQuotes(scratch.path())));
    CHECK(contains(message, "not empty"));
    CHECK(fileNamesIn(scratch.path()) == std::set<std::string>{"notes.txt"});

    attnviz::io::writeDump(run, scratch.path(), true);
    CHECK(fileNamesIn(scratch.path()).count("manifest.json") == 1);
    CHECK(fileNamesIn(scratch.path()).count("notes.txt") == 1);
}

TEST_CASE("dump: a forced dump removes dump files an earlier run left that this run does not write") {
    attnviz::test::ScratchDir scratch("dump");
    attnviz::io::writeDump(attnviz::core::runModel(crossSpec()), scratch.path(), false);
    REQUIRE(fileNamesIn(scratch.path()).count("x_query.npy") == 1);
    attnviz::io::writeDump(attnviz::core::runModel(paddedBatchSpec()), scratch.path(), true);
    const std::set<std::string> names = fileNamesIn(scratch.path());
    CHECK(names.count("x_query.npy") == 0);
    CHECK(names.count("query_embeddings.npy") == 0);
    CHECK(names.count("mask.npy") == 1);
}

// Every file under `dir` (not in subfolders), name → bytes.
std::map<std::string, std::string> contentsOf(const fs::path& dir) {
    std::map<std::string, std::string> files;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.is_regular_file()) files[entry.path().filename().string()] = attnviz::io::readWholeFile(entry.path());
    }
    return files;
}

TEST_CASE("dump: a forced dump into a folder holding the run's inputs is refused, and the inputs stay as they were") {
    // Issue #31: `dump --force` into the folder of the session's own weights replaced w_q.npy (float64) with the
    // dump's W_q (float32). Here the input is the folder's w_q.npy, or the folder itself (a model folder).
    attnviz::test::ScratchDir scratch("dump");
    attnviz::io::writeFileAtomically(scratch / "w_q.npy", "the weights this run read");
    attnviz::io::writeFileAtomically(scratch / "notes.txt", "mine");
    const ModelRun run = attnviz::core::runModel(paddedBatchSpec());
    for (const fs::path& input : {scratch / "w_q.npy", scratch.path(), scratch / "." / "w_q.npy"}) {
        const std::string message = fileErrorOf([&] { attnviz::io::writeDump(run, scratch.path(), true, {}, {input}); });
        CHECK(contains(message, "which this run reads; choose another directory."));
    }
    CHECK(contentsOf(scratch.path()) == std::map<std::string, std::string>{{"notes.txt", "mine"}, {"w_q.npy", "the weights this run read"}});
    // Inputs elsewhere, or in a subfolder being dumped beside, are no reason to refuse.
    attnviz::io::writeDump(run, scratch / "out", false, {}, {scratch / "w_q.npy"});
    CHECK(fileNamesIn(scratch / "out").count("manifest.json") == 1);
}

TEST_CASE("dump: a forced dump that fails part-way leaves the old dump as it was, files and folders beside it kept") {
    // Issue #31: a failed `dump --force` left old and new .npy files mixed (and no manifest). The failure here: a
    // file-size limit (RLIMIT_FSIZE) that the dump's larger files cross, after its smaller ones were written.
    attnviz::test::ScratchDir scratch("dump");
    const fs::path dir = scratch / "dump";
    attnviz::io::writeDump(attnviz::core::runModel(crossSpec()), dir, false);
    attnviz::io::writeFileAtomically(dir / "notes.txt", "mine");
    fs::create_directories(dir / "plots");
    attnviz::io::writeFileAtomically(dir / "plots" / "a.txt", "a plot");
    const std::map<std::string, std::string> before = contentsOf(dir);
    ModelSpec bigger = paddedBatchSpec();
    bigger.attention.dModel = 64;
    const ModelRun run = attnviz::core::runModel(bigger);

    rlimit original{};
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &original) == 0);
    const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);  // a write past the limit fails with EFBIG instead
    rlimit limited = original;
    limited.rlim_cur = 3'000;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &limited) == 0);
    const std::string message = fileErrorOf([&] { attnviz::io::writeDump(run, dir, true); });
    ::setrlimit(RLIMIT_FSIZE, &original);
    std::signal(SIGXFSZ, previousHandler);
    CHECK(contentsOf(dir) == before);
    CHECK(attnviz::io::readWholeFile(dir / "plots" / "a.txt") == "a plot");
    CHECK(fileNamesIn(scratch.path()) == std::set<std::string>{"dump"});  // the half-written new folder is gone

    attnviz::io::writeDump(run, dir, true);  // without the limit: the new dump, with the other files kept
    const std::map<std::string, std::string> after = contentsOf(dir);
    CHECK(after.at("notes.txt") == "mine");
    CHECK(after.count("x_query.npy") == 0);
    CHECK(after.at("x.npy") != before.at("x.npy"));
    CHECK(attnviz::io::readWholeFile(dir / "plots" / "a.txt") == "a plot");
    CHECK(fileNamesIn(scratch.path()) == std::set<std::string>{"dump"});
}

TEST_CASE("dump: the next dump of a target sweeps the hidden folders killed dumps left, never one in use, new, or not ours") {
    // Issue #31: a dump killed before its swap left ".<name>.dump-<pid>-<n>" beside the target, for good; one killed
    // after it left the old dump there, with the user's folders not yet moved back.
    attnviz::test::ScratchDir scratch("dump-leftovers");
    const fs::path dir = scratch / "dump";
    attnviz::io::writeDump(attnviz::core::runModel(crossSpec()), dir, false);
    const auto folder = [&](const std::string& name, const std::string& file) {
        fs::create_directories(scratch / name / fs::path(file).parent_path());
        attnviz::io::writeFileAtomically(scratch / name / file, "left");
        return scratch / name;
    };
    const fs::path halfWritten = folder(".dump.dump-4000000-0", "x.npy");  // killed before the swap
    const fs::path oldDump = folder(".dump.dump-4000001-3", "x.npy");      // killed after it
    folder(".dump.dump-4000001-3", "plots/a.txt");
    const fs::path inUse = folder(".dump.dump-4000002-0", "x.npy");
    folder(".dump.dump-4000003-0", "x.npy");  // changed just now: perhaps between its creation and its lock
    const fs::path notOurs = folder(".dump.dump-notes", "x.npy");
    const fs::path otherTarget = folder(".other.dump-1-0", "x.npy");
    for (const fs::path& path : {halfWritten, oldDump, inUse, notOurs, otherTarget}) {
        fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::minutes(1));
    }
    const int held = ::open(inUse.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    REQUIRE(::flock(held, LOCK_EX | LOCK_NB) == 0);  // as a running dump holds its folder

    attnviz::io::writeDump(attnviz::core::runModel(paddedBatchSpec()), dir, true);
    ::close(held);
    CHECK(fileNamesIn(scratch.path()) ==
          std::set<std::string>{"dump", ".dump.dump-4000002-0", ".dump.dump-4000003-0", ".dump.dump-notes", ".other.dump-1-0"});
    CHECK(attnviz::io::readWholeFile(dir / "plots" / "a.txt") == "left");  // the user's folder, back beside the dump
    CHECK(fs::exists(dir / "manifest.json"));
}

TEST_CASE("dump: a Trace that derives its score maps (too large to keep them) dumps the very same files") {
    attnviz::test::ScratchDir stored("dump"), derived("dump");
    ModelSpec spec = paddedBatchSpec();
    const ModelRun keeping = attnviz::core::runModel(spec);
    spec.attention.storeMapsUpTo = 0;
    const ModelRun deriving = attnviz::core::runModel(spec);
    REQUIRE(deriving.trace.isDerived(TensorId::MaskedScores));
    attnviz::io::writeDump(keeping, stored.path(), false);
    attnviz::io::writeDump(deriving, derived.path(), false);
    REQUIRE(fileNamesIn(stored.path()) == fileNamesIn(derived.path()));
    for (const std::string& name : fileNamesIn(stored.path())) {
        CAPTURE(name);
        CHECK(attnviz::io::readWholeFile(stored / name) == attnviz::io::readWholeFile(derived / name));
    }
}

TEST_CASE("dump: writeDump refuses a path that is a file") {
    attnviz::test::ScratchDir scratch("dump");
    attnviz::io::writeFileAtomically(scratch / "plain", "x");
    const std::string message = fileErrorOf([&] { attnviz::io::writeDump(attnviz::core::runModel(crossSpec()), scratch / "plain", true); });
    CHECK(contains(message, "not a directory"));
}

TEST_CASE("dump: numpy.load reads every file of a dump with the manifest's shapes (tests/reference/check_dump.py)") {
    attnviz::test::ScratchDir scratch("dump");
    ModelSpec causal = paddedBatchSpec();
    causal.attention.mask = attnviz::core::MaskKind::Both;
    causal.attention.fill = attnviz::core::MaskFill::MinusInfinity;
    attnviz::io::writeDump(attnviz::core::runModel(causal), scratch / "both", false);
    attnviz::io::writeDump(attnviz::core::runModel(crossSpec()), scratch / "cross", false);
    const std::string script = std::string(ATTNVIZ_SOURCE_DIR) + "/tests/reference/check_dump.py";
    const std::string command = "/usr/bin/python3 '" + script + "' '" + (scratch / "both").string() + "' '" +
                                (scratch / "cross").string() + "'";
    INFO("command: ", command);
    const int status = std::system(command.c_str());
    REQUIRE(status != -1);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}
