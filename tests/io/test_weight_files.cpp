// test_weight_files.cpp — trained weights, embedding tables and vocabularies: the fixture that
// tests/reference/make_weight_fixture.py exported with docs/loading-weights.md's snippet reproduces NumPy's
// every matrix through io::openSession and core::runModel; values land where NumPy put them (no transposition);
// every bad file is refused with a FileError naming it and the problem. Not tested here: session JSON
// (test_session.cpp) and the core's lookup and edit hooks (tests/core/test_model_hooks.cpp).
#include "core/derived_maps.h"
#include "io/weight_files.h"

#include "io/npy.h"
#include "io/scratch_dir.h"
#include "io/session.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using attnviz::core::Tensor;
using attnviz::core::TensorId;
using attnviz::io::FileError;
using attnviz::io::WeightFiles;
using attnviz::test::ScratchDir;

const fs::path kFixture = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/fixtures_weights";
const fs::path kNpySamples = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/io/data";
constexpr double kRelativeTolerance = 1e-5;
constexpr double kAbsoluteTolerance = 1e-6;

std::string refusal(const std::function<void()>& action) {
    try {
        action();
    } catch (const FileError& error) {
        return error.what();
    }
    return "no error";
}

// 'path' as messages quote it. Built by appending: GCC 12 warns falsely (-Wrestrict, bug 105329) on "'" + string.
std::string quoted(const fs::path& path) {
    std::string text(1, '\'');
    text.append(path.string());
    text.push_back('\'');
    return text;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

void writeText(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// rows × cols with distinct values (r·100 + c + offset): a transposed or shifted read finds other numbers.
Tensor distinctTensor(std::vector<int> shape, float offset) {
    Tensor tensor(std::move(shape));
    const int cols = tensor.cols();
    for (std::size_t i = 0; i < tensor.size(); ++i) {
        tensor.data[i] = static_cast<float>(i / static_cast<std::size_t>(cols)) * 100.0f + static_cast<float>(i % static_cast<std::size_t>(cols)) + offset;
    }
    return tensor;
}

// d_model 4, h 2, d_k 3, d_v 1: every weight has a different shape, so a swapped file is refused.
attnviz::core::Dimensions oddDimensions() {
    attnviz::core::AttentionConfig config;
    config.dModel = 4;
    config.heads = 2;
    config.dK = 3;
    config.dV = 1;
    return attnviz::core::resolveDimensions(config);
}

// The four weights (and biases when asked) of oddDimensions(), written into `dir`.
WeightFiles writeOddWeights(const ScratchDir& dir, bool withBiases) {
    WeightFiles files{dir / "w_q.npy", dir / "w_k.npy", dir / "w_v.npy", dir / "w_o.npy", {}, {}, {}, {}, {}, {}};
    attnviz::io::writeNpy(files.wq, distinctTensor({4, 6}, 0.25f));
    attnviz::io::writeNpy(files.wk, distinctTensor({4, 6}, 0.5f));
    attnviz::io::writeNpy(files.wv, distinctTensor({4, 2}, 0.75f));
    attnviz::io::writeNpy(files.wo, distinctTensor({2, 4}, 0.125f));
    if (withBiases) {
        files.bq = dir / "b_q.npy";
        files.bk = dir / "b_k.npy";
        files.bv = dir / "b_v.npy";
        files.bo = dir / "b_o.npy";
        attnviz::io::writeNpy(files.bq, distinctTensor({6}, 1.0f));
        attnviz::io::writeNpy(files.bk, distinctTensor({6}, 2.0f));
        attnviz::io::writeNpy(files.bv, distinctTensor({2}, 3.0f));
        attnviz::io::writeNpy(files.bo, distinctTensor({4}, 4.0f));
    }
    return files;
}

std::string vocabularyRefusal(const std::string& text) {
    return refusal([&] { attnviz::io::parseVocabulary(text, "vocab.txt"); });
}

// [SECTION] comparing with the fixture (as tests/core/test_reference.cpp does)

bool agrees(float got, float expected) {
    if (got == expected) return true;
    if (!std::isfinite(got) || !std::isfinite(expected)) return false;
    return std::abs(static_cast<double>(got) - expected) <= kAbsoluteTolerance + kRelativeTolerance * std::abs(static_cast<double>(expected));
}

void compareTensor(const std::string& key, const Tensor& got, const Tensor& expected) {
    REQUIRE_MESSAGE(got.shape == expected.shape, key, ": shape ", got.shapeString(), ", reference ", expected.shapeString());
    std::size_t mismatches = 0, firstBad = 0;
    double largest = 0.0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        if (!agrees(got.data[i], expected.data[i]) && mismatches++ == 0) firstBad = i;
        largest = std::max(largest, std::abs(static_cast<double>(got.data[i]) - expected.data[i]));
    }
    CHECK_MESSAGE(mismatches == 0, key, ": ", mismatches, " of ", expected.size(), " values differ; first at flat index ", firstBad,
                  ": got ", got.data[firstBad], ", reference ", expected.data[firstBad], "; largest difference ", largest);
}

Tensor vectorTensor(const attnviz::core::RowVector& row) {
    Tensor tensor({static_cast<int>(row.size())});
    std::copy(row.data(), row.data() + row.size(), tensor.data.begin());
    return tensor;
}

}  // namespace

// [SECTION] the NumPy fixture

TEST_CASE("weights: the doc's PyTorch export, opened as a session, reproduces NumPy's every matrix") {
    const attnviz::io::OpenedSession opened = attnviz::io::openSession(kFixture / "session.json");
    REQUIRE(opened.spec.seeded()->customWeights != nullptr);
    REQUIRE(opened.spec.seeded()->embeddingTable != nullptr);
    const attnviz::core::ModelRun run = attnviz::core::runModel(opened.spec);

    std::ifstream configFile(kFixture / "config.json");
    const nlohmann::json config = nlohmann::json::parse(configFile);
    CHECK(run.tokens == config.at("tokens").get<std::vector<std::vector<std::string>>>());

    int compared = 0;
    for (int index = 0; index < attnviz::core::kTensorCount; ++index) {
        const auto id = static_cast<TensorId>(index);
        const std::string key(attnviz::core::tensorInfo(id).key);
        const fs::path file = kFixture / (key + ".npy");
        CHECK_MESSAGE(fs::exists(file) == run.trace.has(id), key, ": in the fixture and in the trace must agree");
        if (!fs::exists(file) || !run.trace.has(id)) continue;
        compareTensor(key, attnviz::core::materialize(run.trace, id), attnviz::io::readNpy(file));
        ++compared;
    }
    CHECK(compared == 19);  // x, 4 weights, q k v, 3 head splits, scores ×2, mask, masked, weights, z_heads, concat, output
    compareTensor("b_q", vectorTensor(run.weights.bq), attnviz::io::readNpy(kFixture / "b_q.npy"));
    compareTensor("b_o", vectorTensor(run.weights.bo), attnviz::io::readNpy(kFixture / "b_o.npy"));
}

TEST_CASE("weights: the fixture's unknown word takes the [UNK] row") {
    const attnviz::io::OpenedSession opened = attnviz::io::openSession(kFixture / "session.json");
    const attnviz::core::EmbeddingTable& table = *opened.spec.seeded()->embeddingTable;
    CHECK(table.unknownRow == 1);
    const attnviz::core::ModelRun run = attnviz::core::runModel(opened.spec);
    CHECK(run.tokens[1][1] == "zebra");
    CHECK(run.embeddings.slice(1).row(1).isApprox(table.rows.row(1)));
}

// [SECTION] weights

TEST_CASE("weights: loadWeights keeps row-major order and every bias") {
    const ScratchDir dir("weights");
    const attnviz::core::Weights w = attnviz::io::loadWeights(writeOddWeights(dir, true), oddDimensions());
    CHECK(w.wq(1, 4) == 104.25f);  // row 1, column 4: a column-major read would find another value
    CHECK(w.wv(3, 1) == 301.75f);
    CHECK(w.wo(1, 3) == 103.125f);
    REQUIRE(w.hasBiases());
    CHECK(w.bk(5) == 7.0f);
    CHECK(w.bo.size() == 4);
}

TEST_CASE("weights: a wrong shape names the file, the expected and the found shape") {
    const ScratchDir dir("weights-shape");
    WeightFiles files = writeOddWeights(dir, true);
    std::swap(files.wq, files.wv);
    CHECK(refusal([&] { attnviz::io::loadWeights(files, oddDimensions()); }) ==
          quoted(files.wq) + " has shape (4, 2) but W^Q must be (4, 6) (d_model x h*d_k).");
    files = writeOddWeights(dir, true);
    attnviz::io::writeNpy(files.bo, distinctTensor({1, 4}, 0.0f));  // 2-D where nn.Linear keeps a 1-D bias
    CHECK(refusal([&] { attnviz::io::loadWeights(files, oddDimensions()); }) ==
          quoted(files.bo) + " has shape (1, 4) but b^O must be (4,) (d_model).");
}

TEST_CASE("weights: NaN and infinity are refused with the first bad index") {
    const ScratchDir dir("weights-nan");
    const WeightFiles files = writeOddWeights(dir, true);
    Tensor wk = distinctTensor({4, 6}, 0.0f);
    wk.data[2 * 6 + 5] = std::nanf("");
    wk.data[3 * 6 + 0] = std::numeric_limits<float>::infinity();
    attnviz::io::writeNpy(files.wk, wk);
    CHECK(refusal([&] { attnviz::io::loadWeights(files, oddDimensions()); }) ==
          quoted(files.wk) + " holds NaN at index [2, 5]; W^K must hold finite numbers.");
    Tensor bv = distinctTensor({2}, 0.0f);
    bv.data[1] = -std::numeric_limits<float>::infinity();
    attnviz::io::writeNpy(files.bv, bv);
    attnviz::io::writeNpy(files.wk, distinctTensor({4, 6}, 0.0f));
    CHECK(refusal([&] { attnviz::io::loadWeights(files, oddDimensions()); }) ==
          quoted(files.bv) + " holds -inf at index [1]; b^V must hold finite numbers.");
}

TEST_CASE("weights: wrong dtype, byte order, Fortran order and a truncated payload are refused naming the file") {
    const ScratchDir dir("weights-npy");
    WeightFiles files = writeOddWeights(dir, false);
    const std::vector<std::pair<std::string, std::string>> samples{{"i4_2x3.npy", "has dtype '<i4'"},
                                                                   {"f4_big_endian_2x3.npy", "holds big-endian data"},
                                                                   {"f4_fortran_2x3.npy", "Fortran (column-major) order"}};
    for (const auto& [sample, problem] : samples) {
        CAPTURE(sample);
        fs::copy_file(kNpySamples / sample, files.wv, fs::copy_options::overwrite_existing);
        const std::string message = refusal([&] { attnviz::io::loadWeights(files, oddDimensions()); });
        CHECK(message.starts_with(quoted(files.wv) + " "));
        CHECK(contains(message, problem));
    }
    const std::string whole = attnviz::io::encodeNpy(distinctTensor({4, 2}, 0.0f));
    writeText(files.wv, whole.substr(0, whole.size() - 3));
    CHECK(refusal([&] { attnviz::io::loadWeights(files, oddDimensions()); }).starts_with(quoted(files.wv) + " is truncated"));
    fs::remove(files.wv);
    CHECK(refusal([&] { attnviz::io::loadWeights(files, oddDimensions()); }) ==
          "Cannot read " + quoted(files.wv) + ": No such file or directory.");
}

TEST_CASE("weights: incomplete sets of files are named") {
    WeightFiles files;
    CHECK_FALSE(attnviz::io::incompleteWeightFiles(files).has_value());
    files.wk = "k.npy";
    CHECK(attnviz::io::incompleteWeightFiles(files) == "w_k is given but w_q is not: give all of w_q ... w_o or none.");
    files = {"q", "k", "v", "o", "bq", {}, {}, {}, {}, {}};
    CHECK(attnviz::io::incompleteWeightFiles(files) == "b_q is given but b_k is not: give all of b_q ... b_o or none.");
    files = {{}, {}, {}, {}, "1", "2", "3", "4", {}, {}};
    CHECK(attnviz::io::incompleteWeightFiles(files) == "bias files are given without weight files (w_q ... w_o).");
    CHECK_THROWS_WITH_AS(attnviz::io::withWeightFiles({}, files),
                         "Weight files: bias files are given without weight files (w_q ... w_o).", FileError);
}

TEST_CASE("weights: withWeightFiles returns a new spec and sets biases from the files") {
    const ScratchDir dir("weights-spec");
    attnviz::core::ModelSpec spec;
    spec.attention.dModel = 4;
    spec.attention.heads = 2;
    spec.attention.dK = 3;
    spec.attention.dV = 1;
    const attnviz::core::ModelSpec loaded = attnviz::io::withWeightFiles(spec, writeOddWeights(dir, true));
    CHECK(loaded.seeded()->biases);
    REQUIRE(loaded.seeded()->customWeights != nullptr);
    CHECK(loaded.seeded()->customWeights->wq(0, 0) == 0.25f);
    CHECK_FALSE(spec.seeded()->customWeights != nullptr);
    CHECK(attnviz::core::runModel(loaded).weights.bq(0) == 1.0f);
}

// [SECTION] vocabularies

TEST_CASE("vocabulary: one token per line, line n is row n - 1 — BOM, CRLF and a final newline are fine") {
    const attnviz::io::VocabularyIndex index = attnviz::io::parseVocabulary("\xEF\xBB\xBF[UNK]\r\nthe\r\nchat\xC3\xA9\r\n", "v.txt");
    CHECK(index.size() == 3);
    CHECK(index.at("[UNK]") == 0);
    CHECK(index.at("the") == 1);
    CHECK(index.at("chat\xC3\xA9") == 2);
    CHECK(attnviz::io::parseVocabulary("only", "v.txt").at("only") == 0);
}

TEST_CASE("vocabulary: blank lines, duplicates, whitespace, bad UTF-8 and empty files are refused with the line") {
    CHECK(vocabularyRefusal("a\nb\n\nc\n") == "'vocab.txt' line 3 is blank; every line must hold one token.");
    CHECK(vocabularyRefusal("a\n \t\n") == "'vocab.txt' line 2 is blank; every line must hold one token.");
    CHECK(vocabularyRefusal("a\nb\n\n") == "'vocab.txt' line 3 is blank; every line must hold one token.");
    CHECK(vocabularyRefusal("the\ncat\nthe\n") == "'vocab.txt' line 3 repeats \"the\" from line 1; every token must be unique.");
    CHECK(vocabularyRefusal("a\nthe cat\n") ==
          "'vocab.txt' line 2 (\"the cat\") holds whitespace, which no token can (sentences are split at whitespace).");
    CHECK(vocabularyRefusal("a\nb\xff\n") == "'vocab.txt' line 2 is not valid UTF-8 (byte 2 of the line).");
    CHECK(vocabularyRefusal("") == "'vocab.txt' holds no tokens; give one token per line.");
    CHECK(vocabularyRefusal("\n") == "'vocab.txt' holds no tokens; give one token per line.");
    const std::string longToken(100, 'x');
    CHECK(vocabularyRefusal(longToken + "\n" + longToken) ==
          "'vocab.txt' line 2 repeats \"" + std::string(80, 'x') + "…\" from line 1; every token must be unique.");
}

TEST_CASE("embedding table: its rows must match the vocabulary and d_model — [UNK] is found") {
    const ScratchDir dir("embeddings");
    writeText(dir / "vocab.txt", "the\n[UNK]\ncat\n");
    attnviz::io::writeNpy(dir / "emb.npy", distinctTensor({3, 4}, 0.0f));
    const auto table = attnviz::io::loadEmbeddingTable(dir / "emb.npy", dir / "vocab.txt", 4);
    CHECK(table->unknownRow == 1);
    CHECK(table->rows(2, 3) == 203.0f);
    CHECK(table->index.at("cat") == 2);
    CHECK(refusal([&] { attnviz::io::loadEmbeddingTable(dir / "emb.npy", dir / "vocab.txt", 8); }) ==
          quoted((dir / "emb.npy")) + " has shape (3, 4) but the embedding table must be (3, 8) (vocab_size x d_model, with "
          "vocab_size = the 3 tokens of " + quoted((dir / "vocab.txt")) + ").");
    writeText(dir / "vocab.txt", "the\ncat\n");
    CHECK(refusal([&] { attnviz::io::loadEmbeddingTable(dir / "emb.npy", dir / "vocab.txt", 4); }) ==
          quoted((dir / "emb.npy")) + " has shape (3, 4) but the embedding table must be (2, 4) (vocab_size x d_model, with "
          "vocab_size = the 2 tokens of " + quoted((dir / "vocab.txt")) + ").");
}

TEST_CASE("vocabulary: fuzz: any bytes give an index or a FileError") {
    std::mt19937 random(20240611);
    const std::string alphabet = "ab \t\r\n\xEF\xBB\xBF\xC3\xA9\xff[UNK]";
    int accepted = 0;
    for (int round = 0; round < 5000; ++round) {
        std::string text(random() % 24, ' ');
        for (char& c : text) c = alphabet[random() % alphabet.size()];
        try {
            const attnviz::io::VocabularyIndex index = attnviz::io::parseVocabulary(text, "fuzz.txt");
            for (const auto& [token, row] : index) REQUIRE((row >= 0 && row < static_cast<int>(index.size())));
            ++accepted;
        } catch (const FileError&) {
        }
    }
    CHECK(accepted > 0);
}
