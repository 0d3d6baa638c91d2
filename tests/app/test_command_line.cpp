// test_command_line.cpp — argv → command and options, and every bad argument answered with an exit code and a
// message (never an exception escaping, never a crash).
#include "app/command_line.h"
#include "core/transformer/transformer.h"
#include "io/checkpoint.h"
#include "io/model_library.h"
#include "io/npy.h"
#include "io/atomic_file.h"
#include "io/safetensors.h"
#include "io/scratch_dir.h"
#include "io/session.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <sys/stat.h>
#include <sys/wait.h>

using namespace attnviz::app;

namespace {

struct Parsed {
    CommandLine line;
    std::string out, err;
};

Parsed parse(std::vector<std::string> args) {
    args.insert(args.begin(), "attnviz");
    std::ostringstream out, err;
    Parsed p{parseCommandLine(args, out, err), {}, {}};
    p.out = out.str();
    p.err = err.str();
    return p;
}

}  // namespace

TEST_CASE("no arguments: the GUI on the default sentence") {
    const Parsed p = parse({});
    CHECK(p.line.command == Command::Gui);
    CHECK(p.line.inputs.sentence == std::string(attnviz::core::kDefaultSentence));
    CHECK(toModelSpec(p.line.inputs).sentences.size() == 1);
}

TEST_CASE("GUI presets and screenshot options") {
    const Parsed p = parse({"--sentence", "a b c", "--heads", "4", "--d-model", "16", "--screenshot", "s.png", "--stage", "7", "--size", "800x600"});
    CHECK(p.line.command == Command::Gui);
    CHECK(p.line.gui.screenshot == std::filesystem::path("s.png"));
    CHECK(p.line.gui.stage == "7");
    const attnviz::core::ModelSpec spec = toModelSpec(p.line.inputs);
    CHECK(spec.attention.heads == 4);
    CHECK(spec.sentences == std::vector<std::string>{"a b c"});
}

TEST_CASE("--quit-after-frames takes a positive frame count") {
    CHECK_FALSE(parse({}).line.gui.quitAfterFrames);
    const Parsed p = parse({"--quit-after-frames", "30", "--size", "1280x800"});
    REQUIRE(p.line.command == Command::Gui);
    CHECK(p.line.gui.quitAfterFrames == 30);
    for (const char* bad : {"0", "-1", "many"}) {
        const Parsed refused = parse({"--quit-after-frames", bad});
        CHECK(refused.line.command == Command::Exit);
        CHECK(refused.line.exitCode != 0);
        CHECK(!refused.err.empty());
    }
}

TEST_CASE("dump and export subcommands with their options") {
    const Parsed dump = parse({"dump", "--out", "run", "--mask", "causal", "--fill", "-inf", "--force"});
    CHECK(dump.line.command == Command::Dump);
    CHECK(dump.line.dump.force);
    CHECK(toModelSpec(dump.line.inputs).attention.fill == attnviz::core::MaskFill::MinusInfinity);
    const Parsed ex = parse({"export", "--out", "slides", "--stage", "softmax", "--scale", "3", "--score-scale", "0.5",
                             "--batch", "one two", "three", "--mask", "padding"});
    CHECK(ex.line.command == Command::Export);
    CHECK(ex.line.exportOptions.scale == 3);
    const attnviz::core::ModelSpec spec = toModelSpec(ex.line.inputs);
    CHECK(spec.attention.scale == 0.5f);
    CHECK(spec.sentences.size() == 2);
}

TEST_CASE("--help and --version exit 0 with text") {
    const Parsed help = parse({"--help"});
    CHECK(help.line.command == Command::Exit);
    CHECK(help.line.exitCode == 0);
    CHECK(help.out.find("dump") != std::string::npos);
    const Parsed version = parse({"--version"});
    CHECK(version.line.exitCode == 0);
    CHECK(version.out.find("attnviz 0.") != std::string::npos);
}

TEST_CASE("bad arguments exit non-zero with a message") {
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"--bogus"}, {"--heads", "many"}, {"dump"}, {"export", "--out"}, {"--d-model", "1e99"}}) {
        const Parsed p = parse(args);
        CHECK(p.line.command == Command::Exit);
        CHECK(p.line.exitCode != 0);
        CHECK(!p.err.empty());
    }
}

TEST_CASE("values that parse but do not fit are refused by toModelSpec, naming what is allowed") {
    CHECK_THROWS_WITH_AS(toModelSpec(parse({"--model", "random", "--heads", "5"}).line.inputs),
                         "5 heads do not divide d_model = 64; valid head counts are 1, 2, 4, 8, 16, 32, 64.",
                         attnviz::core::InputError);
    CHECK_THROWS_AS(toModelSpec(parse({"--mask", "diagonal"}).line.inputs), attnviz::core::InputError);
    CHECK_THROWS_AS(toModelSpec(parse({"--fill", "-1"}).line.inputs), attnviz::core::InputError);
    CHECK_THROWS_AS(toModelSpec(parse({"--softmax", "fast"}).line.inputs), attnviz::core::InputError);
    CHECK_THROWS_AS(toModelSpec(parse({"--score-scale", "inf"}).line.inputs), attnviz::core::InputError);
}

TEST_CASE("--session takes every input from a file and cannot be mixed with single input options") {
    const Parsed mixed = parse({"dump", "--session", "lesson.json", "--heads", "4", "--out", "d"});
    CHECK(mixed.line.command == Command::Exit);
    CHECK(mixed.err.find("excludes") != std::string::npos);

    const std::filesystem::path file = std::filesystem::temp_directory_path() / "attnviz-test-cli-session.json";
    attnviz::io::Session session;
    session.sentences = {"the cat sat"};
    session.heads = 4;
    session.dModel = 16;
    attnviz::io::saveSession(file, session);
    const Parsed p = parse({"export", "--session", file.string(), "--out", "slides"});
    REQUIRE(p.line.command == Command::Export);
    const attnviz::core::ModelSpec spec = toModelSpec(p.line.inputs);
    CHECK(spec.sentences == std::vector<std::string>{"the cat sat"});
    CHECK(spec.attention.heads == 4);
    std::filesystem::remove(file);
    CHECK_THROWS_AS(toModelSpec(p.line.inputs), attnviz::io::FileError);  // the file is gone: a clear error
}

TEST_CASE("the GUI gets --session's path as well, for the view, the title and Save") {
    const Parsed gui = parse({"--session", "lessons/masks.json", "--stage", "softmax"});
    REQUIRE(gui.line.command == Command::Gui);
    CHECK(gui.line.gui.session == std::filesystem::path("lessons/masks.json"));
    CHECK_FALSE(parse({"--heads", "4"}).line.gui.session);
}

TEST_CASE("export figure options: cell size and values in cells") {
    const Parsed p = parse({"export", "--out", "d", "--cell-size", "24", "--no-values"});
    CHECK(p.line.exportOptions.cellSize == 24);
    CHECK_FALSE(p.line.exportOptions.cellValues);
    CHECK(parse({"export", "--out", "d"}).line.exportOptions.cellValues);
}

TEST_CASE("--heads with the bundled model re-splits its trained heads, as the app's head count does, and says so") {
    const attnviz::core::ModelSpec resplit = toModelSpec(parse({"dump", "--heads", "8", "--out", "x"}).line.inputs);
    REQUIRE(resplit.trainedModel() != nullptr);  // not the seeded layer's random weights
    CHECK(resplit.attention.heads == 8);
    CHECK(resplit.attention.dModel == resplit.trainedModel()->config().dModel);
    REQUIRE(resplit.trainedModel()->config().heads != 8);
    CHECK(resplitNote(resplit).find("these 8 heads are a re-split of the trained W^Q") == 0);
    const attnviz::core::ModelSpec own = toModelSpec(parse({"dump", "--out", "x"}).line.inputs);
    CHECK(resplitNote(own).empty());
    // A count that does not divide the width is the same one sentence for the trained model and the seeded layer.
    const std::string width = std::to_string(resplit.trainedModel()->config().dModel);
    CHECK_THROWS_WITH_AS(toModelSpec(parse({"--heads", "5"}).line.inputs),
                         doctest::Contains(doctest::String(("5 heads do not divide d_model = " + width + "; valid head counts are 1, 2, 4,").c_str())), attnviz::core::InputError);
    CHECK_THROWS_WITH_AS(toModelSpec(parse({"--model", "random", "--heads", "5"}).line.inputs),
                         "5 heads do not divide d_model = 64; valid head counts are 1, 2, 4, 8, 16, 32, 64.", attnviz::core::InputError);
}

TEST_CASE("--model: random is the seeded layer, a seeded option keeps today's meaning, a bad folder is one error") {
    const attnviz::core::ModelSpec random = toModelSpec(parse({"--model", "random"}).line.inputs);
    CHECK(random.trainedModel() == nullptr);
    CHECK(random.attention.dModel == 64);
    const Parsed seeded = parse({"dump", "--d-model", "16", "--heads", "4", "--out", "x"});
    CHECK(seeded.line.inputs.seededOptionsGiven);
    CHECK(seeded.line.inputs.anyGiven);
    CHECK(toModelSpec(seeded.line.inputs).trainedModel() == nullptr);
    CHECK(toModelSpec(seeded.line.inputs).attention.heads == 4);
    CHECK_FALSE(parse({"--sentence", "a b"}).line.inputs.seededOptionsGiven);
    CHECK(parse({"--sentence", "a b"}).line.gui.inputsGiven);
    CHECK_FALSE(parse({"--stage", "7"}).line.gui.inputsGiven);
    CHECK_THROWS_AS(toModelSpec(parse({"--model", "random", "--layer", "1"}).line.inputs), attnviz::core::InputError);
    CHECK_THROWS_AS(toModelSpec(parse({"--model", "/no/such/model"}).line.inputs), attnviz::io::FileError);
}

// [SECTION] the real binary: exit codes and messages for hostile model folders and empty input

namespace {

namespace fs = std::filesystem;

struct Finished {
    int exitCode = -1;
    std::string err;
};

// Runs the attnviz binary with `arguments` (shell words) under a 20 s timeout; `limits` is shell run first
// (e.g. "ulimit -v 2000000;").
Finished runAttnviz(const std::string& arguments, const std::string& limits = "") {
    const attnviz::test::ScratchDir dir("cli-run");
    const std::string command = limits + " timeout 20 " + std::string(ATTNVIZ_BINARY) + " " + arguments + " >/dev/null 2>" +
                                (dir / "err").string();
    const int status = std::system(("bash -c '" + command + "'").c_str());
    std::ifstream in(dir / "err");
    std::stringstream text;
    text << in.rdbuf();
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A small BERT with float32 weights (tests/reference/models: width 32, 4 heads of d_k 8, 64 pieces, 16 positions),
// copied so that a test can damage it.
fs::path smallBertCopy(const attnviz::test::ScratchDir& dir) {
    fs::copy(fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models/bert-original-names", dir / "model", fs::copy_options::recursive);
    return dir / "model";
}

}  // namespace

TEST_CASE("exit codes: 1 for bad input, files and runs, 2 for a bad command line, the same in dump and export") {
    const attnviz::test::ScratchDir dir("exit-codes");
    const std::string out = " --out " + (dir / "out").string() + " --force";
    for (const char* command : {"dump", "export"}) {
        CAPTURE(command);
        CHECK(runAttnviz(std::string(command) + " --no-such-option").exitCode == kExitUsage);
        CHECK(runAttnviz(std::string(command) + " --model /no/such/folder" + out).exitCode == kExitRunError);
        for (const char* model : {"", " --model random"}) {
            for (const char* blank : {"\"\"", "\"   \t \""}) {
                const Finished run = runAttnviz(std::string(command) + model + " --sentence " + blank + out);
                CHECK(run.exitCode == kExitRunError);
                CHECK(mentions(run.err, attnviz::core::kEmptySentenceMessage));
            }
        }
    }
    const Finished help = runAttnviz("dump --help");
    CHECK(help.exitCode == kExitOk);
}

namespace {

// A d × d float64 .npy (NumPy's default dtype, as a lesson's weights usually are): 0.5 on the diagonal.
void writeFloat64Npy(const fs::path& path, int d) {
    std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(d) + ", " + std::to_string(d) + "), }";
    header.append(64 - (10 + header.size() + 1) % 64, ' ').push_back('\n');
    std::ofstream out(path, std::ios::binary);
    out.write("\x93NUMPY\x01\x00", 8);
    const char length[2] = {static_cast<char>(header.size() & 0xff), static_cast<char>(header.size() >> 8)};
    out.write(length, 2);
    out << header;
    for (int i = 0; i < d * d; ++i) {
        const double value = i % (d + 1) == 0 ? 0.5 : 0.0;
        out.write(reinterpret_cast<const char*>(&value), sizeof value);
    }
}

}  // namespace

TEST_CASE("dump --force into the folder of the session's own weights is refused, and the weights stay as they were") {
    // Issue #31: the dump replaced the session's float64 w_q.npy … w_o.npy with its own float32 W^Q … W^O.
    const attnviz::test::ScratchDir dir("dump-inputs");
    const fs::path lesson = dir / "lesson";
    fs::create_directories(lesson);
    attnviz::io::Session session;
    session.dModel = 16;
    session.heads = 4;
    auto& files = session.weightFiles;
    for (auto [path, name] : {std::pair{&files.wq, "w_q"}, {&files.wk, "w_k"}, {&files.wv, "w_v"}, {&files.wo, "w_o"}}) {
        *path = lesson / (std::string(name) + ".npy");
        writeFloat64Npy(*path, 16);
    }
    attnviz::io::saveSession(lesson / "lesson.json", session);
    const std::string weights = attnviz::io::readWholeFile(lesson / "w_q.npy");
    const std::string sessionArguments = "dump --session " + (lesson / "lesson.json").string() + " --force --out ";

    Finished run = runAttnviz(sessionArguments + lesson.string());
    CHECK(run.exitCode == kExitRunError);
    CHECK(mentions(run.err, "which this run reads; choose another directory."));
    CHECK(attnviz::io::readWholeFile(lesson / "w_q.npy") == weights);
    run = runAttnviz(sessionArguments + (lesson / "dump").string());  // a folder of its own, even inside: fine
    CHECK(run.exitCode == kExitOk);
    CHECK(fs::exists(lesson / "dump" / "manifest.json"));
}

TEST_CASE("exit codes: a FIFO config.json, a model too large for memory and an overflowing weight end in one line, exit 1") {
    const attnviz::test::ScratchDir dir("hostile-cli");
    const fs::path model = smallBertCopy(dir);
    const std::string out = " --sentence \"the cat sat\" --out " + (dir / "out").string() + " --force";
    fs::rename(model / "config.json", dir / "config.json");
    REQUIRE(::mkfifo((model / "config.json").c_str(), 0644) == 0);
    Finished run = runAttnviz("dump --model " + model.string() + out);
    CHECK(run.exitCode == kExitRunError);
    CHECK(mentions(run.err, "is a FIFO (named pipe), not a file"));
    fs::remove(model / "config.json");
    fs::copy_file(dir / "config.json", model / "config.json");

#if !defined(ATTNVIZ_SANITIZED)  // AddressSanitizer's shadow memory cannot start under an address-space limit
    // 16,000,000 tokens × width 32: 2.0 GB of float32 weights, under a 1 GB address-space limit.
    std::string config = attnviz::io::readWholeFile(dir / "config.json");
    const std::string vocabulary = "\"vocab_size\": 64";
    std::ofstream(model / "config.json") << config.replace(config.find(vocabulary), vocabulary.size(), "\"vocab_size\": 16000000");
    run = runAttnviz("export --model " + model.string() + out, "ulimit -v 1000000;");
    CHECK(run.exitCode == kExitRunError);
    CHECK(mentions(run.err, "needs 2.0 GB; this machine has"));
    CHECK_FALSE(mentions(run.err, "unexpected error"));
    fs::copy_file(dir / "config.json", model / "config.json", fs::copy_options::overwrite_existing);
#endif

    // One finite weight row of 3e38: query feature 20 (head 2 of 4, d_k 8) of layer 0.
    const attnviz::io::SafetensorsFile weights(model / "model.safetensors");
    const std::uint64_t begin = weights.entries().at("bert.encoder.layer.0.attention.self.query.weight").begin;
    std::fstream file(model / "model.safetensors", std::ios::in | std::ios::out | std::ios::binary);
    char length[8];
    file.read(length, 8);
    std::uint64_t header = 0;
    for (int i = 7; i >= 0; --i) header = header << 8 | static_cast<unsigned char>(length[i]);
    file.seekp(static_cast<std::streamoff>(8 + header + begin + 20 * 32 * 4));
    const std::vector<float> huge(32, 3e38f);
    file.write(reinterpret_cast<const char*>(huge.data()), 32 * 4);
    file.close();
    for (const char* command : {"dump", "export"}) {
        run = runAttnviz(std::string(command) + " --model " + model.string() + out);
        CHECK(run.exitCode == kExitRunError);
        CHECK(mentions(run.err, "The model overflows: layer 0, head 2"));
    }
}

TEST_CASE("dump --model writes what the model predicts: the top k in the manifest, logits.npy with --logits") {
    const attnviz::test::ScratchDir dir("dump-predictions");
    const fs::path reference = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference";
    const std::string decoder = (reference / "decoders/llama-gqa-llama3").string();
    REQUIRE(runAttnviz("dump --model " + decoder + " --sentence \"the cat sat\" --logits --top-k 5 --temperature 0.7 --out " + (dir / "llama").string()).exitCode == kExitOk);
    const nlohmann::json manifest = nlohmann::json::parse(attnviz::io::readWholeFile(dir / "llama/manifest.json"));
    const nlohmann::json& predictions = manifest["predictions"];
    CHECK(predictions["kind"] == "next_token");
    CHECK(predictions["k"] == 5);
    const attnviz::core::Tensor logits = attnviz::io::readNpy(dir / "llama/logits.npy");
    const int length = static_cast<int>(manifest["token_ids"][0].size());
    REQUIRE(logits.shape == std::vector<int>{1, length, 262});
    REQUIRE(predictions["top"][0].size() == static_cast<std::size_t>(length));
    // The manifest's probabilities are softmax(logits.npy / 0.7) of its ids, best first.
    for (int p = 0; p < length; ++p) {
        const float* row = logits.data.data() + static_cast<std::size_t>(p) * 262;
        const float largest = *std::max_element(row, row + 262);
        double total = 0.0;
        for (int v = 0; v < 262; ++v) total += std::exp((row[v] - largest) / 0.7);
        const nlohmann::json& top = predictions["top"][0][static_cast<std::size_t>(p)]["top"];
        REQUIRE(top.size() == 5);
        CHECK(row[top[0]["id"].get<int>()] == largest);
        for (const nlohmann::json& choice : top) {
            CHECK(std::abs(choice["probability"].get<double>() - std::exp((row[choice["id"].get<int>()] - largest) / 0.7) / total) < 1e-6);
        }
    }
    bool listed = false;
    for (const nlohmann::json& file : manifest["files"]) listed = listed || file["file"] == "logits.npy";
    CHECK(listed);

    // BERT with a masked-word head: the fill at the [MASK]; without one, the manifest says why and --logits is refused.
    const std::string mlm = (reference / "predictions/bert-mlm").string();
    REQUIRE(runAttnviz("dump --model " + mlm + " --sentence \"the [MASK] sat\" --out " + (dir / "bert").string()).exitCode == kExitOk);
    const nlohmann::json bert = nlohmann::json::parse(attnviz::io::readWholeFile(dir / "bert/manifest.json"));
    CHECK(bert["predictions"]["kind"] == "masked_word");
    CHECK(bert["predictions"]["top"][0][2]["token"] == "[MASK]");
    CHECK(bert["predictions"]["top"][0][2]["top"].size() == 10);
    CHECK_FALSE(fs::exists(dir / "bert/logits.npy"));
    const std::string bare = (reference / "models/bert-original-names").string();
    REQUIRE(runAttnviz("dump --model " + bare + " --sentence \"the cat\" --out " + (dir / "bare").string()).exitCode == kExitOk);
    CHECK(mentions(attnviz::io::readWholeFile(dir / "bare/manifest.json"), "no masked-word head"));
    const Finished refused = runAttnviz("dump --model " + bare + " --sentence \"the cat\" --logits --out " + (dir / "refused").string());
    CHECK(refused.exitCode == kExitRunError);
    CHECK(mentions(refused.err, "no masked-word head"));
    CHECK_FALSE(fs::exists(dir / "refused"));
    CHECK(runAttnviz("dump --model random --logits --out " + (dir / "seeded").string()).exitCode == kExitRunError);
    CHECK(runAttnviz("dump --model " + decoder + " --temperature 0 --out " + (dir / "cold").string()).exitCode == kExitUsage);
}

TEST_CASE("export --kind next: the prediction slide from the command line — what predicts nothing and a bad temperature are refused") {
    const attnviz::test::ScratchDir dir("export-next");
    const fs::path reference = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference";
    const std::string decoder = " --model " + (reference / "decoders/llama-gqa-llama3").string() + " --sentence \"the cat sat on the mat\"";
    REQUIRE(runAttnviz("export --kind next --format svg --temperature 0.7" + decoder + " --out " + (dir / "llama").string()).exitCode == kExitOk);
    CHECK(mentions(attnviz::io::readWholeFile(dir / "llama/next.svg"), "temperature T = 0.7"));
    const std::string mlm = " --model " + (reference / "predictions/bert-mlm").string();
    REQUIRE(runAttnviz("export --kind next" + mlm + " --sentence \"the [MASK] sat\" --out " + (dir / "bert").string()).exitCode == kExitOk);
    CHECK(fs::exists(dir / "bert/next.png"));

    struct Refused {
        std::string arguments, says;
        int exitCode = kExitRunError;
    };
    const Refused refused[] = {
        {" --model random", "The seeded layer is one attention layer with random weights and no vocabulary to score"},
        {mlm + " --sentence \"the cat sat\"", "type [MASK] into --sentence"},
        {" --model " + (reference / "models/bert-original-names").string() + " --sentence \"the [MASK] sat\"", "no masked-word head"},
        {decoder + " --stage softmax", "leave out --stage"},
        {decoder + " --temperature 0", "--temperature", kExitUsage},
        {decoder + " --temperature 9", "--temperature", kExitUsage},
    };
    for (const Refused& r : refused) {
        CAPTURE(r.arguments);
        const Finished run = runAttnviz("export --kind next" + r.arguments + " --out " + (dir / "refused").string());
        CHECK(run.exitCode == r.exitCode);
        CHECK_MESSAGE(mentions(run.err, r.says), run.err);
        CHECK_FALSE(fs::exists(dir / "refused"));
    }
    const Finished misplaced = runAttnviz("export --kind stage --temperature 0.5" + decoder + " --out " + (dir / "refused").string());
    CHECK(misplaced.exitCode == kExitRunError);
    CHECK(mentions(misplaced.err, "--temperature is for --kind next"));
}

TEST_CASE("every numeric option with a fixed range refuses values outside it, NaN and wrapping signs: exit 2, one line naming the range") {
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"--layer", "-1"}, {"--token-limit", "2049"}, {"--token-limit", "0"}, {"--seed", "-1"}, {"--head", "-3"},
             {"--zoom", "7"}, {"--quit-after-frames", "0"}, {"dump", "--out", "d", "--temperature", "nan"},
             {"dump", "--out", "d", "--temperature", "inf"}, {"dump", "--out", "d", "--top-k", "0"},
             {"export", "--out", "d", "--kind", "next", "--temperature", "nan"}, {"export", "--out", "d", "--head", "-1"},
             {"dump", "--out", "d", "--layer", "-2"}, {"export", "--out", "d", "--token-limit", "5000"}}) {
        CAPTURE(args.front());
        CAPTURE(args.back());
        const Parsed p = parse(args);
        CHECK(p.line.command == Command::Exit);
        CHECK(p.line.exitCode == kExitUsage);
        CHECK(p.err.find(" must be ") != std::string::npos);
    }
    // The ends of each range are accepted.
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"--token-limit", "2048"}, {"--token-limit", "1"}, {"--seed", "18446744073709551615"}, {"--seed", "0"}, {"--layer", "0"},
             {"--zoom", "-2"}, {"dump", "--out", "d", "--temperature", "0.05"}, {"dump", "--out", "d", "--top-k", "1000"}}) {
        CAPTURE(args.back());
        const Parsed p = parse(args);
        CHECK(p.line.command != Command::Exit);
    }
    CHECK(parse({"--seed", "18446744073709551615"}).line.inputs.seed == 18446744073709551615ull);
}

TEST_CASE("dump --ablate writes the run with those heads switched off — a bad spec is one line (exit 2), a missing head exit 1") {
    const attnviz::test::ScratchDir dir("dump-ablate");
    const std::string gpt2 = (fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models/gpt2-hf-names").string();
    const std::string common = "dump --model " + gpt2 + " --sentence \"the cat sat\" --out ";
    REQUIRE(runAttnviz(common + (dir / "intact").string()).exitCode == kExitOk);
    REQUIRE(runAttnviz(common + (dir / "off").string() + " --ablate 1.2,0.0:mean").exitCode == kExitOk);
    const nlohmann::json manifest = nlohmann::json::parse(attnviz::io::readWholeFile(dir / "off/manifest.json"));
    CHECK(manifest["heads_off"] == nlohmann::json::parse(R"([{"layer": 1, "head": 2, "mode": "zero"}, {"layer": 0, "head": 0, "mode": "mean"}])"));
    // The dumped hidden states are core's ablated pass of the same ids, and not the intact run's.
    const attnviz::core::TransformerModel model = attnviz::io::loadTransformer(gpt2);
    const attnviz::core::AttentionConfig config = attnviz::core::modelAttention(model);
    const std::vector<int> ids = manifest["token_ids"][0].get<std::vector<int>>();
    const attnviz::core::TransformerPass expected = attnviz::core::runTransformer(
        model, {ids}, 0, config, {}, {{1, 2, attnviz::core::HeadOffMode::Zero}, {0, 0, attnviz::core::HeadOffMode::Mean}});
    CHECK(attnviz::io::readNpy(dir / "off/hidden_states.npy").data == expected.hiddenStates.data);
    CHECK(attnviz::io::readNpy(dir / "intact/hidden_states.npy").data != expected.hiddenStates.data);

    for (const char* bad : {"1", "1.x", "1.2:half", "1.2,", "-1.0", "1.2.3"}) {
        CAPTURE(bad);
        const Finished refused = runAttnviz(common + (dir / "bad").string() + " --ablate=" + bad);
        CHECK(refused.exitCode == kExitUsage);
        CHECK(mentions(refused.err, "--ablate takes LAYER.HEAD[:mean] separated by commas"));
    }
    const Finished missing = runAttnviz(common + (dir / "missing").string() + " --ablate 3.0");
    CHECK(missing.exitCode == kExitRunError);
    CHECK(mentions(missing.err, "There is no head 3.0 to switch off: the model has layers 0 to 2 and heads 0 to 3."));
    CHECK_FALSE(fs::exists(dir / "missing"));
}

TEST_CASE("dump --logit-lens: each layer's top k and, with --logits, every log-probability — the last layer's lens is the prediction") {
    const attnviz::test::ScratchDir dir("dump-lens");
    const std::string llama = (fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/decoders/llama-gqa-llama3").string();
    REQUIRE(runAttnviz("dump --model " + llama + " --sentence \"the cat sat\" --logit-lens --logits --top-k 3 --out " + (dir / "lens").string()).exitCode == kExitOk);
    const nlohmann::json manifest = nlohmann::json::parse(attnviz::io::readWholeFile(dir / "lens/manifest.json"));
    const int length = static_cast<int>(manifest["token_ids"][0].size()), layers = 2, vocab = 262;
    const attnviz::core::Tensor ids = attnviz::io::readNpy(dir / "lens/logit_lens_top_ids.npy");
    const attnviz::core::Tensor top = attnviz::io::readNpy(dir / "lens/logit_lens_top_logprobs.npy");
    const attnviz::core::Tensor all = attnviz::io::readNpy(dir / "lens/logit_lens_logprobs.npy");
    const attnviz::core::Tensor logits = attnviz::io::readNpy(dir / "lens/logits.npy");
    REQUIRE(ids.shape == std::vector<int>{layers + 1, 1, length, 3});
    REQUIRE(top.shape == ids.shape);
    REQUIRE(all.shape == std::vector<int>{layers + 1, 1, length, vocab});
    for (int row = 0; row < (layers + 1) * length; ++row) {
        const float* every = all.data.data() + static_cast<std::size_t>(row) * vocab;
        CHECK(every[static_cast<int>(ids.data[static_cast<std::size_t>(row) * 3])] == *std::max_element(every, every + vocab));
        CHECK(top.data[static_cast<std::size_t>(row) * 3] == *std::max_element(every, every + vocab));
    }
    // The last lens row is log_softmax of the model's own prediction (the final norm applied once, not twice).
    for (int p = 0; p < length; ++p) {
        const float* row = logits.data.data() + static_cast<std::size_t>(p) * vocab;
        const float largest = *std::max_element(row, row + vocab);
        double total = 0.0;
        for (int v = 0; v < vocab; ++v) total += std::exp(static_cast<double>(row[v]) - largest);
        const float* lens = all.data.data() + (static_cast<std::size_t>(layers) * length + p) * vocab;
        for (int v = 0; v < vocab; ++v) CHECK(std::abs(lens[v] - (row[v] - largest - std::log(total))) < 1e-5);
    }
    const Finished seeded = runAttnviz("dump --model random --logit-lens --out " + (dir / "seeded").string());
    CHECK(seeded.exitCode == kExitRunError);
    CHECK(mentions(seeded.err, "the seeded layer has one"));
}

TEST_CASE("dump --rollout --head-roles: NumPy recomputes both from the dump's own attention within 1e-6 (tests/reference/check_analyses.py)") {
    const attnviz::test::ScratchDir dir("dump-roles");
    const std::string gpt2 = (fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models/gpt2-hf-names").string();
    REQUIRE(runAttnviz("dump --model " + gpt2 + " --batch \"cat sat cat\" \"a dog\" --rollout --head-roles --out " + (dir / "roles").string()).exitCode ==
            kExitOk);
    const nlohmann::json roles = nlohmann::json::parse(attnviz::io::readWholeFile(dir / "roles/head_roles.json"));
    CHECK(roles["heads"].size() == 3 * 4);
    const std::vector<int> repeated = roles["repeated_random_tokens"].get<std::vector<int>>();
    REQUIRE(repeated.size() % 2 == 0);
    CHECK(std::equal(repeated.begin(), repeated.begin() + static_cast<std::ptrdiff_t>(repeated.size() / 2), repeated.begin() + static_cast<std::ptrdiff_t>(repeated.size() / 2)));
    const std::string command = "/usr/bin/python3 '" + std::string(ATTNVIZ_SOURCE_DIR) + "/tests/reference/check_analyses.py' '" + (dir / "roles").string() + "'";
    const int status = std::system(command.c_str());
    REQUIRE(status != -1);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("ask answers on the command line, --ask-word and --ask-cells: a typed word and clicked cells for the question, rows of 0 and 1 of one length") {
    const Parsed p = parse({"--ask", "mask", "--ask-cells", "011,001,000", "--ask-word", "tired"});
    REQUIRE(p.line.command == Command::Gui);
    CHECK(p.line.gui.askCells == std::vector<std::string>{"011", "001", "000"});
    CHECK(p.line.gui.askWord == "tired");
    const Parsed refused = parse({"--ask", "mask", "--ask-cells", "01,2"});
    CHECK(refused.line.command == Command::Exit);
    CHECK(mentions(refused.err, "each row is 0s and 1s"));
    const Finished ragged = runAttnviz("--ask mask --ask-cells 011,01 --screenshot /dev/null");
    CHECK(ragged.exitCode == kExitUsage);
    CHECK(mentions(ragged.err, "--ask-cells: every row must have as many cells as the first (3)."));
}

TEST_CASE("--compare heads-off or untrained: compare on with that B, sentence needs --compare-with, a name not known or both at once refused") {
    using attnviz::core::CompareKind;
    const attnviz::core::ModelSpec off = toModelSpec(parse({"--compare", "heads-off", "--sentence", "it was too tired"}).line.inputs);
    CHECK(off.compareKind == CompareKind::HeadsOff);
    CHECK(off.compareWith == std::optional<std::string>("it was too wide"));  // the draft, should the window turn to two sentences
    CHECK(toModelSpec(parse({"--compare", "untrained"}).line.inputs).compareKind == CompareKind::Untrained);
    CHECK(toModelSpec(parse({"--compare-with", "b"}).line.inputs).compareKind == CompareKind::Sentence);
    CHECK_THROWS_WITH_AS(toModelSpec(parse({"--compare", "sentence"}).line.inputs), doctest::Contains("--compare sentence needs the second sentence"),
                         attnviz::core::InputError);
    CHECK_THROWS_WITH_AS(toModelSpec(parse({"--compare", "untrained", "--compare-with", "b"}).line.inputs),
                         doctest::Contains("leave one out"), attnviz::core::InputError);
    CHECK_THROWS_WITH_AS(toModelSpec(parse({"--compare", "random"}).line.inputs),
                         doctest::Contains("--compare must be sentence, heads-off or untrained"), attnviz::core::InputError);
}

TEST_CASE("dump --untrained writes the same model untrained (seed 42, as --compare untrained's B), and the seeded layer is refused in one sentence") {
    const attnviz::test::ScratchDir dir("dump-untrained");
    const std::string gpt2 = (fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/models/gpt2-hf-names").string();
    const std::string common = "dump --model " + gpt2 + " --sentence \"the cat sat\" --out ";
    REQUIRE(runAttnviz(common + (dir / "trained").string()).exitCode == kExitOk);
    REQUIRE(runAttnviz(common + (dir / "untrained").string() + " --untrained").exitCode == kExitOk);
    attnviz::io::ModelLibrary library;
    const attnviz::core::TrainedModel untrained = attnviz::core::untrainedCopy(*library.openNow(gpt2), attnviz::core::kUntrainedSeed);
    const nlohmann::json manifest = nlohmann::json::parse(attnviz::io::readWholeFile(dir / "untrained/manifest.json"));
    const std::vector<int> ids = manifest["token_ids"][0].get<std::vector<int>>();
    const attnviz::core::TransformerPass expected =
        attnviz::core::runTransformer(untrained.transformer, {ids}, 0, attnviz::core::modelAttention(untrained.transformer), {}, {});
    CHECK(attnviz::io::readNpy(dir / "untrained/hidden_states.npy").data == expected.hiddenStates.data);
    CHECK(attnviz::io::readNpy(dir / "trained/hidden_states.npy").data != expected.hiddenStates.data);

    const Finished seeded = runAttnviz("dump --model random --untrained --out " + (dir / "seeded").string());
    CHECK(seeded.exitCode == kExitRunError);
    CHECK(mentions(seeded.err, "--untrained needs a trained model (--model): the seeded layer's weights are already random."));
    const Finished compared = runAttnviz(common + (dir / "compared").string() + " --compare untrained");
    CHECK(compared.exitCode == kExitRunError);
    CHECK(mentions(compared.err, "a dump holds one run"));
}
