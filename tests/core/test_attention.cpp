// test_attention.cpp — the forward pass: a case checked by hand, invariants that hold for any input, and
// every bad input answered with an InputError. (Numbers against NumPy are in test_reference.cpp.)
#include "core/attention.h"
#include "core/attention_internal.h"
#include "core/derived_maps.h"
#include "core/embedding.h"
#include "core/model.h"
#include "core/portable.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

using namespace attnviz::core;

namespace {

Matrix rows(std::initializer_list<std::initializer_list<float>> values) {
    Matrix m(static_cast<Eigen::Index>(values.size()), static_cast<Eigen::Index>(values.begin()->size()));
    Eigen::Index r = 0;
    for (const auto& row : values) {
        Eigen::Index c = 0;
        for (float v : row) m(r, c++) = v;
        ++r;
    }
    return m;
}

// W^Q = W^K = W^V = W^O = I₄: every projection is the identity, so the tiny case can be worked on paper.
Weights identityWeights(int d) {
    Weights w;
    w.wq = w.wk = w.wv = w.wo = Matrix::Identity(d, d);
    return w;
}

ModelSpec smallSpec(int dModel, int heads) {
    ModelSpec spec;
    spec.attention.dModel = dModel;
    spec.attention.heads = heads;
    return spec;
}

}  // namespace

// Two tokens, d_model 4, two heads (d_k = 2), identity weights, X = [e0; e1]:
//   Q = K = V = X.  Head 0 takes columns 0–1: Q_0 = K_0 = V_0 = I₂, so S_0 = I₂ and the scaled scores are
//   diag(1/√2). softmax([1/√2, 0]) = [e^{1/√2}, 1] / (e^{1/√2} + 1) = [0.669761, 0.330239]; row 1 mirrored.
//   Z_0 = A_0 V_0 = A_0.  Head 1 takes columns 2–3, which are zero: S_1 = 0, A_1 = [½ ½; ½ ½], Z_1 = 0.
//   Concat = [A_0 | 0], and with W^O = I the output is the same.
TEST_CASE("tiny case worked by hand: 2 tokens, d_model 4, 2 heads") {
    AttentionInput input;
    input.keyValueSide = {rows({{1, 0, 0, 0}, {0, 1, 0, 0}})};
    AttentionConfig config;
    config.dModel = 4;
    config.heads = 2;
    const Trace t = forward(input, identityWeights(4), config);

    const float big = std::exp(1.0f / std::sqrt(2.0f)) / (std::exp(1.0f / std::sqrt(2.0f)) + 1.0f);
    CHECK(big == doctest::Approx(0.669761).epsilon(1e-6));
    const MatrixView a0 = t[TensorId::AttentionWeights].slice(0, 0);
    CHECK(a0(0, 0) == doctest::Approx(big));
    CHECK(a0(0, 1) == doctest::Approx(1 - big));
    CHECK(a0(1, 1) == doctest::Approx(big));
    const MatrixView a1 = t[TensorId::AttentionWeights].slice(0, 1);
    CHECK(a1(0, 0) == doctest::Approx(0.5));
    CHECK(a1(1, 1) == doctest::Approx(0.5));
    CHECK(mapSlice(t, TensorId::ScaledScores, 0, 0).view()(0, 0) == doctest::Approx(1.0 / std::sqrt(2.0)));
    const MatrixView out = t[TensorId::Output].slice(0);
    CHECK(out(0, 0) == doctest::Approx(big));
    CHECK(out(0, 1) == doctest::Approx(1 - big));
    CHECK(out(0, 2) == 0.0f);
    CHECK(out(1, 3) == 0.0f);
}

// The same with a causal mask: row 0 may only see key 0, so A_0 row 0 = [1, 0]; row 1 is unchanged.
TEST_CASE("tiny case with a causal mask") {
    AttentionInput input;
    input.keyValueSide = {rows({{1, 0, 0, 0}, {0, 1, 0, 0}})};
    AttentionConfig config{.dModel = 4, .heads = 2, .mask = MaskKind::Causal};
    const Trace t = forward(input, identityWeights(4), config);
    const MatrixView a0 = t[TensorId::AttentionWeights].slice(0, 0);
    CHECK(a0(0, 0) == 1.0f);
    CHECK(a0(0, 1) == 0.0f);
    CHECK(a0(1, 1) == doctest::Approx(0.669761).epsilon(1e-5));
    CHECK(mapSlice(t, TensorId::MaskedScores, 0, 0).view()(0, 1) == -1e9f);
    CHECK(t[TensorId::Mask].shape == std::vector<int>{1, 1, 2, 2});
}

TEST_CASE("softmax rows sum to 1 and causal weights are 0 above the diagonal") {
    ModelSpec spec = smallSpec(32, 4);
    spec.attention.mask = MaskKind::Causal;
    const Trace t = runModel(spec).trace;
    const Tensor& a = t[TensorId::AttentionWeights];
    for (int s = 0; s < a.sliceCount(); ++s) {
        const MatrixView m = a.slice(s);
        for (Eigen::Index r = 0; r < m.rows(); ++r) {
            CHECK(m.row(r).sum() == doctest::Approx(1.0).epsilon(1e-5));
            for (Eigen::Index c = r + 1; c < m.cols(); ++c) CHECK(m(r, c) == 0.0f);
        }
    }
}

TEST_CASE("padding: padded keys get zero weight and the mask is b x 1 x 1 x l") {
    ModelSpec spec = smallSpec(16, 4);
    spec.sentences = {"one two three four five", "six seven", "eight"};
    spec.attention.mask = MaskKind::Padding;
    const Trace t = runModel(spec).trace;
    CHECK(t[TensorId::Mask].shape == std::vector<int>{3, 1, 1, 5});
    CHECK(t.keyLengths == std::vector<int>{5, 2, 1});
    const MatrixView a = t[TensorId::AttentionWeights].slice(1, 3);  // sentence 2, head 3
    for (Eigen::Index r = 0; r < a.rows(); ++r) {
        CHECK(a.row(r).sum() == doctest::Approx(1.0).epsilon(1e-5));
        for (Eigen::Index c = 2; c < a.cols(); ++c) CHECK(a(r, c) == 0.0f);
    }
    CHECK(t.fullyMaskedRowCount() == 0);
}

// Sentence 2 ("d") is padded to 3 rows; with padded queries masked, its rows 1 and 2 see no key at all.
TEST_CASE("a fully masked row: zeros and flagged in safe mode, as PyTorch computes it otherwise") {
    ModelSpec spec = smallSpec(8, 2);
    spec.sentences = {"a b c", "d"};
    spec.attention.mask = MaskKind::Padding;
    spec.attention.maskPaddedQueries = true;

    const Trace safe = runModel(spec).trace;
    CHECK(safe[TensorId::Mask].shape == std::vector<int>{2, 1, 3, 3});
    CHECK(safe.fullyMaskedRows == std::vector<std::uint8_t>{0, 0, 0, 0, 1, 1});
    CHECK(safe[TensorId::AttentionWeights].slice(1, 1).bottomRows(2).isZero(0.0f));
    CHECK(safe[TensorId::AttentionWeights].slice(1, 1)(0, 0) == 1.0f);

    spec.attention.softmax = SoftmaxMode::PyTorch;
    const Trace billion = runModel(spec).trace;  // every entry -1e9: the row is uniform, as the Annotated Transformer gives
    CHECK(billion[TensorId::AttentionWeights].slice(1, 0)(2, 1) == doctest::Approx(1.0 / 3));

    spec.attention.fill = MaskFill::MinusInfinity;
    const Trace nan = runModel(spec).trace;  // every entry -inf: NaN, as nn.MultiheadAttention gives
    CHECK(std::isnan(nan[TensorId::AttentionWeights].slice(1, 0)(2, 1)));
    CHECK(std::isfinite(nan[TensorId::AttentionWeights].slice(0, 0)(2, 1)));
    CHECK(nan.fullyMaskedRowCount() == 2);
}

TEST_CASE("the per-head path (h separate W_i^Q) equals the fused path") {
    for (int heads : {1, 2, 4, 8}) {
        const Trace t = runModel(smallSpec(64, heads)).trace;
        CHECK(t.perHeadMaxDifference < 1e-6f);
    }
}

TEST_CASE("output has X's shape — changing h only re-splits Q, K, V") {
    const Trace four = runModel(smallSpec(32, 4)).trace;
    const Trace eight = runModel(smallSpec(32, 8)).trace;
    CHECK(four[TensorId::Output].shape == four[TensorId::X].shape);
    CHECK(four[TensorId::Q].data == eight[TensorId::Q].data);
    CHECK(four[TensorId::K].data == eight[TensorId::K].data);
    CHECK(four[TensorId::V].data == eight[TensorId::V].data);
    CHECK(four[TensorId::QHeads].shape == std::vector<int>{1, 4, 13, 8});
    CHECK(eight[TensorId::QHeads].shape == std::vector<int>{1, 8, 13, 4});
    // Head 1 of the 8-head split is columns 4–7 of Q: the second half of head 0 of the 4-head split.
    CHECK(eight[TensorId::QHeads].slice(0, 1).isApprox(four[TensorId::QHeads].slice(0, 0).rightCols(4), 0.0f));
    CHECK(four[TensorId::AttentionWeights].data != eight[TensorId::AttentionWeights].data);
}

TEST_CASE("same inputs give a byte-identical trace, even when threads split the work") {
    ModelSpec spec = smallSpec(256, 8);
    std::string sentence;
    for (int i = 0; i < 60; ++i) sentence += "word" + std::to_string(i % 7) + " ";
    spec.sentences = {sentence};
    const Trace a = runModel(spec).trace;
    const Trace b = runModel(spec).trace;
    for (int id = 0; id < kTensorCount; ++id) {
        const Tensor& x = a.tensors[static_cast<std::size_t>(id)];
        const Tensor& y = b.tensors[static_cast<std::size_t>(id)];
        INFO("tensor ", tensorInfo(static_cast<TensorId>(id)).key);
        REQUIRE(x.size() == y.size());
        if (x.empty()) continue;
        CHECK(std::memcmp(x.data.data(), y.data.data(), x.size() * sizeof(float)) == 0);
    }
}

TEST_CASE("the same word gets the same embedding row in any sentence and position") {
    const RowVector a = tokenEmbedding("street", 16, 7);
    CHECK(a.isApprox(tokenEmbedding("street", 16, 7), 0.0f));
    CHECK(!a.isApprox(tokenEmbedding("street", 16, 8)));
    ModelSpec spec = smallSpec(16, 2);
    spec.seeded()->positional = false;
    spec.sentences = {"the street the"};
    const Trace t = runModel(spec).trace;
    CHECK(t[TensorId::X].slice(0).row(0).isApprox(t[TensorId::X].slice(0).row(2), 0.0f));
}

TEST_CASE("positional encoding follows Vaswani et al. section 3.5") {
    const Matrix pe = positionalEncoding(50, 8);
    CHECK(pe(0, 0) == 0.0f);
    CHECK(pe(0, 1) == 1.0f);
    CHECK(pe(3, 2) == doctest::Approx(std::sin(3.0 / std::pow(10000.0, 2.0 / 8))));
    CHECK(pe(7, 5) == doctest::Approx(std::cos(7.0 / std::pow(10000.0, 4.0 / 8))));
}

TEST_CASE("Xavier-uniform weights stay inside their bound, and W_i^Q is column block i") {
    const Dimensions d = resolveDimensions({.dModel = 64, .heads = 4});
    const Weights w = initWeights(d, 3, true);
    const float bound = std::sqrt(6.0f / (64 + 64));
    CHECK(w.wq.cwiseAbs().maxCoeff() <= bound);
    CHECK(w.wq.cwiseAbs().maxCoeff() > 0.9f * bound);
    CHECK(headBlock(w.wq, 2, 16).isApprox(w.wq.middleCols(32, 16), 0.0f));
    CHECK(w.bo.size() == 64);
}

TEST_CASE("free d_k and d_v: W^O becomes h*d_v x d_model") {
    ModelSpec spec = smallSpec(12, 3);
    spec.attention.dK = 5;
    spec.attention.dV = 2;
    const ModelRun run = runModel(spec);
    CHECK(run.weights.wo.rows() == 6);
    CHECK(run.trace[TensorId::QHeads].shape == std::vector<int>{1, 3, 13, 5});
    CHECK(run.trace[TensorId::ZHeads].shape == std::vector<int>{1, 3, 13, 2});
    CHECK(run.trace[TensorId::Output].shape == std::vector<int>{1, 13, 12});
}

TEST_CASE("cross-attention gives l_q x l_k maps and refuses a causal mask") {
    ModelSpec spec = smallSpec(16, 2);
    spec.sentences = {"the animal did not cross the street"};
    spec.seeded()->decoderSentences = {"l'animal n'a pas"};
    const ModelRun run = runModel(spec);
    CHECK(run.trace.cross);
    CHECK(run.trace[TensorId::AttentionWeights].shape == std::vector<int>{1, 2, 7, 7});
    spec.seeded()->decoderSentences = {"das Tier"};
    CHECK(runModel(spec).trace[TensorId::Scores].shape == std::vector<int>{1, 2, 2, 7});
    spec.attention.mask = MaskKind::Causal;
    CHECK_THROWS_AS(runModel(spec), InputError);
}

TEST_CASE("bad sizes and sentences are refused with a clear message, never a crash") {
    CHECK_THROWS_WITH_AS(resolveDimensions({.dModel = 64, .heads = 5}),
                         "5 heads do not divide d_model = 64; valid head counts are 1, 2, 4, 8, 16, 32, 64.", InputError);
    CHECK_THROWS_AS(resolveDimensions({.dModel = 6, .heads = 4, .dK = 2}), InputError);  // d_v = 6/4 is not whole
    CHECK(resolveDimensions({.dModel = 6, .heads = 4, .dK = 2, .dV = 3}).dV == 3);
    CHECK_THROWS_AS(resolveDimensions({.dModel = 64, .heads = 0}), InputError);
    CHECK_THROWS_AS(resolveDimensions({.dModel = 64, .heads = -2}), InputError);
    CHECK_THROWS_AS(resolveDimensions({.dModel = 0, .heads = 1}), InputError);
    CHECK_THROWS_AS(resolveDimensions({.dModel = -1, .heads = 1}), InputError);
    CHECK_THROWS_AS(resolveDimensions({.dModel = 1'000'000'000, .heads = 1}), InputError);
    CHECK_THROWS_AS(resolveDimensions({.dModel = 64, .heads = 1'000'000'000}), InputError);
    ModelSpec spec = smallSpec(16, 2);
    spec.sentences = {"   "};
    CHECK_THROWS_AS(runModel(spec), InputError);
    spec.sentences = {"fine", ""};
    CHECK_THROWS_WITH_AS(runModel(spec), "Sentence 2: The sentence is empty: type at least one word.", InputError);
    spec.sentences = {"bad \xFF byte"};
    CHECK_THROWS_AS(runModel(spec), InputError);
    spec.sentences = {};
    CHECK_THROWS_AS(runModel(spec), InputError);
}

TEST_CASE("weights of the wrong shape are refused, naming the matrix and both shapes") {
    ModelSpec spec = smallSpec(8, 2);
    Weights w = initWeights(resolveDimensions(spec.attention), 1, false);
    w.wk = Matrix::Zero(8, 6);
    spec.seeded()->customWeights = std::make_shared<const Weights>(w);
    CHECK_THROWS_WITH_AS(runModel(spec), "W^K should be 8 x 8 but is 8 x 6.", InputError);
}

namespace {

// Uniform values in (−bound, bound) from a fixed linear congruential sequence: the same on every platform.
Matrix patterned(Eigen::Index rowCount, Eigen::Index colCount, std::uint32_t seed, float bound) {
    Matrix m(rowCount, colCount);
    for (Eigen::Index i = 0; i < m.size(); ++i) {
        seed = seed * 1664525u + 1013904223u;
        m.data()[i] = bound * (static_cast<float>(seed >> 8) / 8388608.0f - 1.0f);
    }
    return m;
}

// Grouped-query attention with RoPE, a causal sliding-window mask and key padding, one query at a time in plain
// loops and double precision: A (h × l_b × l_b) and the output (l_b × d_model) of sentence x.
struct LoopResult {
    std::vector<double> weights;  // h · l · l, row-major
    std::vector<double> output;   // l · d_model
};

LoopResult plainLoops(const Matrix& x, const Weights& w, const AttentionConfig& c) {
    const int l = static_cast<int>(x.rows()), d = c.dModel, h = c.heads, hkv = c.kvHeads, dk = c.dK, half = dk / 2;
    const auto project = [&](const Matrix& weight, const RowVector& bias, int head, int t, int j) {
        double sum = bias.size() > 0 ? bias(head * dk + j) : 0.0;
        for (int m = 0; m < d; ++m) sum += static_cast<double>(x(t, m)) * weight(m, head * dk + j);
        return sum;
    };
    // RoPE's rotate-half on one projected row at position t.
    const auto rotated = [&](const Matrix& weight, const RowVector& bias, int head, int t) {
        std::vector<double> raw(static_cast<std::size_t>(dk)), out(static_cast<std::size_t>(dk));
        for (int j = 0; j < dk; ++j) raw[static_cast<std::size_t>(j)] = project(weight, bias, head, t, j);
        for (int j = 0; j < half; ++j) {
            const double angle = t * static_cast<double>(c.rotaryFrequencies(j)), cs = std::cos(angle), sn = std::sin(angle);
            out[static_cast<std::size_t>(j)] = raw[static_cast<std::size_t>(j)] * cs - raw[static_cast<std::size_t>(j + half)] * sn;
            out[static_cast<std::size_t>(j + half)] = raw[static_cast<std::size_t>(j + half)] * cs + raw[static_cast<std::size_t>(j)] * sn;
        }
        return out;
    };
    LoopResult result{std::vector<double>(static_cast<std::size_t>(h) * l * l), std::vector<double>(static_cast<std::size_t>(l) * d)};
    std::vector<double> concat(static_cast<std::size_t>(l) * h * dk, 0.0);
    for (int head = 0; head < h; ++head) {
        const int kv = head / (h / hkv);
        std::vector<std::vector<double>> keys, values;
        for (int t = 0; t < l; ++t) {
            keys.push_back(rotated(w.wk, w.bk, kv, t));
            std::vector<double> v(static_cast<std::size_t>(dk));
            for (int j = 0; j < dk; ++j) v[static_cast<std::size_t>(j)] = project(w.wv, w.bv, kv, t, j);
            values.push_back(v);
        }
        for (int q = 0; q < l; ++q) {
            const std::vector<double> query = rotated(w.wq, w.bq, head, q);
            std::vector<double> scores(static_cast<std::size_t>(l), -std::numeric_limits<double>::infinity());
            double largest = -std::numeric_limits<double>::infinity();
            for (int k = std::max(0, q - c.slidingWindow + 1); k <= q; ++k) {
                double s = 0.0;
                for (int j = 0; j < dk; ++j) s += query[static_cast<std::size_t>(j)] * keys[static_cast<std::size_t>(k)][static_cast<std::size_t>(j)];
                scores[static_cast<std::size_t>(k)] = s / std::sqrt(static_cast<double>(dk));
                largest = std::max(largest, scores[static_cast<std::size_t>(k)]);
            }
            double total = 0.0;
            for (double& s : scores) total += (s = std::exp(s - largest));
            for (int k = 0; k < l; ++k) {
                const double a = scores[static_cast<std::size_t>(k)] / total;
                result.weights[(static_cast<std::size_t>(head) * l + q) * l + k] = a;
                for (int j = 0; j < dk; ++j) concat[(static_cast<std::size_t>(q) * h + head) * dk + j] += a * values[static_cast<std::size_t>(k)][static_cast<std::size_t>(j)];
            }
        }
    }
    for (int t = 0; t < l; ++t) {
        for (int m = 0; m < d; ++m) {
            double sum = 0.0;
            for (int k = 0; k < h * dk; ++k) sum += concat[static_cast<std::size_t>(t) * h * dk + k] * w.wo(k, m);
            result.output[static_cast<std::size_t>(t) * d + m] = sum;
        }
    }
    return result;
}

// The l = 600 batch both streaming tests run: 600 and 580 tokens (ragged), 6 query heads sharing 2 K/V heads,
// RoPE, a window of 200 under the causal mask, with the plain loops' result for the shorter sentence.
struct LongBatch {
    AttentionConfig config;
    Weights w;
    std::vector<Matrix> sentences;
    LoopResult expected;
};

LongBatch longBatch() {
    LongBatch b;
    b.config.dModel = 48;
    b.config.heads = 6;
    b.config.kvHeads = 2;
    b.config.dK = b.config.dV = 8;
    b.config.mask = MaskKind::Both;
    b.config.slidingWindow = 200;
    b.config.comparePerHead = false;
    b.config.rotaryFrequencies = RowVector(4);
    for (int j = 0; j < 4; ++j) b.config.rotaryFrequencies(j) = static_cast<float>(std::pow(10000.0, -2.0 * j / 8));
    b.w.wq = patterned(48, 48, 1, 0.3f);
    b.w.wk = patterned(48, 16, 2, 0.3f);
    b.w.wv = patterned(48, 16, 3, 0.5f);
    b.w.wo = patterned(48, 48, 4, 0.2f);
    b.w.bq = patterned(1, 48, 5, 0.1f);
    b.w.bk = patterned(1, 16, 6, 0.1f);
    b.w.bv = patterned(1, 16, 7, 0.1f);
    b.sentences = {patterned(600, 48, 8, 1.0f), patterned(580, 48, 9, 1.0f)};
    b.expected = plainLoops(b.sentences[1], b.w, b.config);
    return b;
}

// Largest differences from the plain loops over the 580-token sentence: (attention weights, output).
template <typename WeightOf>
std::pair<double, double> longBatchErrors(const LoopResult& expected, const WeightOf& weightOf, const MatrixView& output) {
    constexpr int l = 580;
    double weightError = 0.0, outputError = 0.0;
    for (int head = 0; head < 6; ++head) {
        for (int q = 0; q < l; ++q) {
            for (int k = 0; k < l; ++k) {
                weightError = std::max(weightError, std::abs(weightOf(head, q, k) - expected.weights[(static_cast<std::size_t>(head) * l + q) * l + k]));
            }
        }
    }
    for (int q = 0; q < l; ++q) {
        for (int m = 0; m < 48; ++m) outputError = std::max(outputError, std::abs(output(q, m) - expected.output[static_cast<std::size_t>(q) * 48 + m]));
    }
    return {weightError, outputError};
}

}  // namespace

// The largest check before was l = 150; from l_q · l_k = 512² the fused pass streams its maps (attention.cpp), the
// path real models take. Here l = 600 and 580 in one ragged batch, 6 query heads sharing 2 K/V heads, RoPE, a
// window of 200 under the causal mask; A and the output against plain loops in double, stored and derived maps.
TEST_CASE("l = 600 through the streaming path: grouped-query attention with RoPE and a window equals plain loops") {
    LongBatch batch = longBatch();
    AttentionConfig& config = batch.config;
    const Weights& w = batch.w;
    const std::vector<Matrix>& sentences = batch.sentences;
    const LoopResult& expected = batch.expected;
    for (const std::int64_t storeUpTo : {std::int64_t{16} << 20, std::int64_t{1}}) {  // maps stored, then derived
        config.storeMapsUpTo = storeUpTo;
        const Trace t = forward(AttentionInput{sentences, {}}, w, config);
        REQUIRE(t[TensorId::KHeads].shape == std::vector<int>{2, 2, 600, 8});
        const auto [weightError, outputError] = longBatchErrors(
            expected, [&](int head, int q, int k) { return static_cast<double>(t[TensorId::AttentionWeights].slice(1, head)(q, k)); },
            t[TensorId::Output].slice(1));
        INFO("maps derived: ", t.isDerived(TensorId::Scores));
        CHECK(weightError < 1e-5);
        CHECK(outputError < 1e-4);
        CHECK(t.isDerived(TensorId::Scores) == (storeUpTo == 1));
        // Outside the window (query 500, key 250) the weight is exactly zero; the padded keys 580 … 599 too.
        CHECK(t[TensorId::AttentionWeights].slice(1, 5)(500, 250) == 0.0f);
        CHECK(t[TensorId::AttentionWeights].slice(1, 5)(579, 380) > 0.0f);
    }
}

// The two fast paths of issue 25 on the same batch: the lean pass (runTransformer's other layers: one [Q | K | V]
// buffer, only the visible key columns, A written straight to the caller's buffer) and a Trace that keeps no
// per-stage maps (keepStageMaps off), each against the plain loops, and the second bit for bit against the full Trace.
TEST_CASE("l = 600: the lean pass and a Trace without stage maps equal plain loops (GQA, RoPE, window, padding)") {
    LongBatch batch = longBatch();
    AttentionConfig& config = batch.config;
    const Weights& w = batch.w;
    const std::vector<Matrix>& sentences = batch.sentences;
    const LoopResult& expected = batch.expected;
    const auto errors = [&](const auto& weightOf, const MatrixView& output) { return longBatchErrors(expected, weightOf, output); };

    Tensor weights({2, 6, 600, 600});
    const LeanAttention lean = attendLean(AttentionInput{sentences, {}}, w, config, weights.data.data());
    const auto [leanWeightError, leanOutputError] = errors([&](int head, int q, int k) { return static_cast<double>(weights.slice(1, head)(q, k)); },
                                                           lean.output.slice(1));
    CHECK(leanWeightError < 1e-5);
    CHECK(leanOutputError < 1e-4);
    CHECK(std::count(lean.nonFiniteHeads.begin(), lean.nonFiniteHeads.end(), 1) == 0);
    CHECK(weights.slice(1, 5)(500, 250) == 0.0f);  // outside the window: skipped, and exactly 0
    CHECK(weights.slice(1, 5)(579, 590) == 0.0f);  // a padded key
    CHECK(weights.slice(1, 5)(579, 380) > 0.0f);

    const Trace full = forward(AttentionInput{sentences, {}}, w, config);
    config.keepStageMaps = false;
    const Trace bare = forward(AttentionInput{sentences, {}}, w, config);
    CHECK(bare.isDerived(TensorId::Scores));
    CHECK_FALSE(bare.stats[static_cast<std::size_t>(TensorId::MaskedScores)].has_value());
    const auto [bareWeightError, bareOutputError] = errors(
        [&](int head, int q, int k) { return static_cast<double>(bare[TensorId::AttentionWeights].slice(1, head)(q, k)); }, bare[TensorId::Output].slice(1));
    CHECK(bareWeightError < 1e-5);
    CHECK(bareOutputError < 1e-4);
    CHECK(bare[TensorId::AttentionWeights].data == full[TensorId::AttentionWeights].data);
    CHECK(bare[TensorId::Output].data == full[TensorId::Output].data);
    CHECK(materialize(bare, TensorId::MaskedScores).data == materialize(full, TensorId::MaskedScores).data);
    // Statistics nobody recorded are computed when asked, from the derived slices.
    const ValueStats asked = valueStats(bare, TensorId::Scores), stored = valueStats(full, TensorId::Scores);
    CHECK(asked.lo == stored.lo);
    CHECK(asked.hi == stored.hi);
}

TEST_CASE("the softmax's exp is Eigen's pexp bit for bit over every argument it keeps, and keeps NaN") {
    // Every 97th float of [ln(FLT_MIN), 0] (11.5 million of the 1.1 billion; all of them were compared once, equal).
    namespace simd = Eigen::internal;
    using Packet = simd::packet_traits<float>::type;
    constexpr int kLanes = static_cast<int>(sizeof(Packet) / sizeof(float));
    const std::uint32_t first = bitCast<std::uint32_t>(-0.0f), last = bitCast<std::uint32_t>(-87.33654f);
    alignas(64) std::array<float, kLanes> x{}, ours{}, eigens{};
    long long differing = 0;
    for (std::uint64_t bits = first; bits <= last; bits += 97ULL * kLanes) {
        for (int k = 0; k < kLanes; ++k) x[k] = bitCast<float>(static_cast<std::uint32_t>(std::min<std::uint64_t>(bits + 97ULL * k, last)));
        simd::pstore(ours.data(), attention_detail::expOfKeptArgument(simd::pload<Packet>(x.data())));
        simd::pstore(eigens.data(), simd::pexp(simd::pload<Packet>(x.data())));
        differing += std::memcmp(ours.data(), eigens.data(), sizeof ours) != 0;
    }
    CHECK(differing == 0);
    x.fill(std::numeric_limits<float>::quiet_NaN());
    simd::pstore(ours.data(), attention_detail::expOfKeptArgument(simd::pload<Packet>(x.data())));
    CHECK(std::isnan(ours[0]));
}
