// test_reference.cpp — core::forward against fixtures an independent NumPy implementation wrote
// (tests/reference/make_fixtures.py → tests/reference/fixtures/<name>/), in the manner of llm.c's test_gpt2.c.
//
// For each fixture: build AttentionInput (x's rows unpadded by the lengths), Weights and AttentionConfig from
// its files and config.json, run core::forward, then require that the Trace has a tensor exactly where the
// fixture has a file, with the same shape, and that every value agrees within rtol 1e-5 / atol 1e-6 (NaN equals
// NaN, ±inf must match exactly). A failure names the tensor, the first bad index, both values, and the largest
// difference. What it does not test: tokenizing and embedding (fixture X is random), or weight init.
#include "core/attention.h"
#include "core/derived_maps.h"
#include "core/lessons.h"
#include "io/npy.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace attnviz::core;
using nlohmann::json;

const fs::path kFixtures = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/fixtures";
constexpr double kRelativeTolerance = 1e-5;
constexpr double kAbsoluteTolerance = 1e-6;

// Every fixture make_fixtures.py writes; a test below checks that this list and the folders agree.
const std::vector<std::string> kFixtureNames{"default", "l1", "odd", "padding", "causal", "both", "cross",
                                             "cross_padding", "free_dk_dv", "fill_inf", "custom_scale"};

// [SECTION] reading a fixture

json readConfig(const fs::path& dir) {
    std::ifstream in(dir / "config.json");
    REQUIRE_MESSAGE(in.good(), "cannot open ", (dir / "config.json").string());
    return json::parse(in);
}

Matrix toMatrix(const Tensor& t) {  // rows × cols, from a rank-2 tensor
    REQUIRE(t.rank() == 2);
    return MatrixView(t.data.data(), t.rows(), t.cols());
}

RowVector toRowVector(const Tensor& t) {  // 1 × n, from a rank-1 tensor (nn.Linear's bias shape)
    REQUIRE(t.rank() == 1);
    return Eigen::Map<const RowVector>(t.data.data(), t.cols());
}

// b × l × d_model with zero rows after each length → b unpadded (length_b × d_model) matrices.
std::vector<Matrix> unpad(const Tensor& padded, const std::vector<int>& lengths) {
    REQUIRE(padded.rank() == 3);
    REQUIRE(static_cast<int>(lengths.size()) == padded.dim(0));
    std::vector<Matrix> rows;
    for (int b = 0; b < padded.dim(0); ++b) rows.emplace_back(padded.slice(b).topRows(lengths[static_cast<std::size_t>(b)]));
    return rows;
}

MaskKind maskOf(const std::string& name) {
    if (name == "padding") return MaskKind::Padding;
    if (name == "causal") return MaskKind::Causal;
    if (name == "both") return MaskKind::Both;
    REQUIRE(name == "none");
    return MaskKind::None;
}

AttentionConfig configOf(const json& config) {
    AttentionConfig c;
    c.dModel = config.at("d_model");
    c.heads = config.at("heads");
    c.dK = config.at("d_k");
    c.dV = config.at("d_v");
    c.mask = maskOf(config.at("mask"));
    c.fill = config.at("fill") == "-inf" ? MaskFill::MinusInfinity : MaskFill::MinusBillion;
    c.softmax = config.at("softmax") == "pytorch" ? SoftmaxMode::PyTorch : SoftmaxMode::Safe;
    if (!config.at("scale").is_null()) c.scale = config.at("scale").get<float>();
    return c;
}

Weights weightsOf(const fs::path& dir, bool biases) {
    Weights w;
    w.wq = toMatrix(attnviz::io::readNpy(dir / "w_q.npy"));
    w.wk = toMatrix(attnviz::io::readNpy(dir / "w_k.npy"));
    w.wv = toMatrix(attnviz::io::readNpy(dir / "w_v.npy"));
    w.wo = toMatrix(attnviz::io::readNpy(dir / "w_o.npy"));
    if (biases) {
        w.bq = toRowVector(attnviz::io::readNpy(dir / "b_q.npy"));
        w.bk = toRowVector(attnviz::io::readNpy(dir / "b_k.npy"));
        w.bv = toRowVector(attnviz::io::readNpy(dir / "b_v.npy"));
        w.bo = toRowVector(attnviz::io::readNpy(dir / "b_o.npy"));
    }
    return w;
}

AttentionInput inputOf(const fs::path& dir, const json& config) {
    AttentionInput input;
    input.keyValueSide = unpad(attnviz::io::readNpy(dir / "x.npy"), config.at("lengths").get<std::vector<int>>());
    if (config.at("cross").get<bool>()) {
        input.querySide = unpad(attnviz::io::readNpy(dir / "x_query.npy"), config.at("query_lengths").get<std::vector<int>>());
    }
    return input;
}

// [SECTION] comparing

bool agrees(float got, float expected) {
    if (std::isnan(got) || std::isnan(expected)) return std::isnan(got) && std::isnan(expected);
    if (got == expected) return true;  // also ±inf against the same infinity
    if (std::isinf(got) || std::isinf(expected)) return false;
    return std::abs(static_cast<double>(got) - expected) <= kAbsoluteTolerance + kRelativeTolerance * std::abs(static_cast<double>(expected));
}

std::string indexString(std::size_t flat, const std::vector<int>& shape) {
    std::vector<std::size_t> index(shape.size());
    for (std::size_t axis = shape.size(); axis-- > 0;) {
        index[axis] = flat % static_cast<std::size_t>(shape[axis]);
        flat /= static_cast<std::size_t>(shape[axis]);
    }
    std::string text = "[";
    for (std::size_t axis = 0; axis < index.size(); ++axis) text += (axis ? ", " : "") + std::to_string(index[axis]);
    return text + "]";
}

std::string shapeText(const std::vector<int>& shape) {
    std::string text;
    for (int extent : shape) text += (text.empty() ? "" : " x ") + std::to_string(extent);
    return "(" + text + ")";
}

// One tensor: same shape, every value agrees; otherwise one failure line in test_gpt2.c's spirit.
void compareTensor(const std::string& key, const Tensor& got, const Tensor& expected) {
    REQUIRE_MESSAGE(got.shape == expected.shape, key, ": shape ", shapeText(got.shape), ", reference ", shapeText(expected.shape));
    std::size_t mismatches = 0, firstBad = 0, worst = 0;
    double largest = 0.0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const bool ok = agrees(got.data[i], expected.data[i]);
        if (!ok && mismatches++ == 0) firstBad = i;
        const double difference = std::abs(static_cast<double>(got.data[i]) - expected.data[i]);
        if (std::isfinite(difference) && difference > largest) {
            largest = difference;
            worst = i;
        }
    }
    if (mismatches == 0) return;
    std::ostringstream report;
    report.precision(9);
    report << key << ": " << mismatches << " of " << expected.size() << " values differ; first at " << indexString(firstBad, expected.shape)
           << ": got " << got.data[firstBad] << ", reference " << expected.data[firstBad] << "; largest difference " << largest << " at "
           << indexString(worst, expected.shape) << " (got " << got.data[worst] << ", reference " << expected.data[worst] << ")";
    FAIL_CHECK(report.str());
}

// Every tensor of the fixture, with the score maps stored and again derived on demand (derived_maps.h), as
// a Trace too large to keep them would give them.
void checkFixture(const std::string& name) {
    const fs::path dir = kFixtures / name;
    const json config = readConfig(dir);
    for (const bool derive : {false, true}) {
        CAPTURE(derive);
        AttentionConfig attention = configOf(config);
        if (derive) attention.storeMapsUpTo = 0;
        const Trace trace = forward(inputOf(dir, config), weightsOf(dir, config.at("biases")), attention);
        CHECK(trace.isDerived(TensorId::Scores) == derive);
        int compared = 0;
        for (int index = 0; index < kTensorCount; ++index) {
            const auto id = static_cast<TensorId>(index);
            const std::string key(tensorInfo(id).key);
            const fs::path file = dir / (key + ".npy");
            const bool inFixture = fs::exists(file);
            CHECK_MESSAGE(inFixture == trace.has(id), key, inFixture ? " is in the fixture but not in the Trace" : " is in the Trace but not in the fixture");
            if (!inFixture || !trace.has(id)) continue;
            compareTensor(key, materialize(trace, id), attnviz::io::readNpy(file));
            ++compared;
        }
        CHECK(compared >= 17);  // x, 4 weights, q k v, 3 head splits, 4 score maps, z_heads, concat, output
    }
}

// b × n rows of a Matrix as a b × n Tensor, for compareTensor.
Tensor asTensor(const Matrix& m) {
    Tensor t({static_cast<int>(m.rows()), static_cast<int>(m.cols())});
    std::copy(m.data(), m.data() + m.size(), t.data.begin());
    return t;
}

// The lessons' computations (core/lessons.h) on the fixture's Trace: naive slicing and both poolings.
void checkLessons(const std::string& name) {
    const fs::path dir = kFixtures / name;
    const json config = readConfig(dir);
    const Weights weights = weightsOf(dir, config.at("biases"));
    const Trace trace = forward(inputOf(dir, config), weights, configOf(config));
    const NaiveSlicing naive = naiveSlicingAttention(trace, weights);
    compareTensor("naive_attention_weights", naive.attentionWeights, attnviz::io::readNpy(dir / "naive_attention_weights.npy"));
    compareTensor("naive_output", naive.output, attnviz::io::readNpy(dir / "naive_output.npy"));
    CHECK(naive.largestOutputDifference > 1e-3f);  // the naive model really is another model
    for (const auto& [pooling, key] : {std::pair{Pooling::Mean, "pooled_mean"}, std::pair{Pooling::Cls, "pooled_cls"}}) {
        const PoolingResult result = poolAndClassify(trace, false, pooling, 3, 7);
        compareTensor(key, asTensor(result.pooled), attnviz::io::readNpy(dir / (std::string(key) + ".npy")));
        CHECK(result.logits.isApprox(result.pooled * result.classifier, 1e-5f));
    }
}

}  // namespace

TEST_CASE("reference: lessons on padding (naive slicing and pooling over a padded batch)") { checkLessons("padding"); }
TEST_CASE("reference: lessons on cross_padding (naive slicing with decoder queries, pooling)") { checkLessons("cross_padding"); }

TEST_CASE("reference: the fixture list matches tests/reference/fixtures") {
    std::set<std::string> folders;
    for (const auto& entry : fs::directory_iterator(kFixtures)) {
        if (entry.is_directory()) folders.insert(entry.path().filename().string());
    }
    CHECK(folders == std::set<std::string>(kFixtureNames.begin(), kFixtureNames.end()));
}

TEST_CASE("reference: default (l 11, d_model 64, 8 heads)") { checkFixture("default"); }
TEST_CASE("reference: l1 (one token)") { checkFixture("l1"); }
TEST_CASE("reference: odd (d_model 6, 3 heads)") { checkFixture("odd"); }
TEST_CASE("reference: padding (batch of lengths 5, 3, 7)") { checkFixture("padding"); }
TEST_CASE("reference: causal (l 6)") { checkFixture("causal"); }
TEST_CASE("reference: both (padding + causal, batch 2)") { checkFixture("both"); }
TEST_CASE("reference: cross (l_q 4, l_k 6)") { checkFixture("cross"); }
TEST_CASE("reference: cross_padding (batch 2, key padding)") { checkFixture("cross_padding"); }
TEST_CASE("reference: free_dk_dv (d_k 5, d_v 2, biases)") { checkFixture("free_dk_dv"); }
TEST_CASE("reference: fill_inf (-inf fill, PyTorch softmax)") { checkFixture("fill_inf"); }
TEST_CASE("reference: custom_scale (scale 0.3, causal, biases)") { checkFixture("custom_scale"); }
