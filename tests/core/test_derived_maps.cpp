// test_derived_maps.cpp — a Trace derives S·scale and masked S from its stored S, and a large one S too (from Q_i
// and K_i, core/derived_maps.h): the same bits either way and as the definition gives them, no memory kept for
// them, their statistics known, and its slice cache stays within budget without invalidating slices still in use.
// (Against NumPy: test_reference.cpp runs both ways.)
#include "core/derived_maps.h"
#include "core/model.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace attnviz::core;

namespace {

constexpr std::array<TensorId, 3> kDerived{TensorId::Scores, TensorId::ScaledScores, TensorId::MaskedScores};

bool sameBits(const float* a, const float* b, std::size_t count) { return std::memcmp(a, b, count * sizeof(float)) == 0; }

// A padded batch of two sentences, 8 heads, long enough for several panels of query rows.
ModelSpec paddedSpec(MaskKind mask, MaskFill fill, SoftmaxMode softmax) {
    ModelSpec spec;
    std::string longer;
    for (int i = 0; i < 150; ++i) longer += "word" + std::to_string(i % 37) + " ";
    spec.sentences = {longer, "a short one"};
    spec.tokenLimit = 512;
    spec.attention.dModel = 64;
    spec.attention.heads = 8;
    spec.attention.mask = mask;
    spec.attention.fill = fill;
    spec.attention.softmax = softmax;
    spec.attention.maskPaddedQueries = true;
    return spec;
}

// S·scale and the masked scores from a stored S by their definition, one element at a time: S · scale, then the
// fill where the mask says 0.
Matrix stageMapFromScores(const Trace& t, TensorId id, int b, int h) {
    Matrix map = t[TensorId::Scores].slice(b, h) * t.dims.scale;
    if (id == TensorId::MaskedScores && !t[TensorId::Mask].empty()) {
        const MatrixView mask = t[TensorId::Mask].slice(b, h);
        const float fill = t.fill == MaskFill::MinusInfinity ? -std::numeric_limits<float>::infinity() : -1e9f;
        for (Eigen::Index r = 0; r < map.rows(); ++r) {
            for (Eigen::Index c = 0; c < map.cols(); ++c) {
                if (mask(mask.rows() == 1 ? 0 : r, c) == 0.0f) map(r, c) = fill;
            }
        }
    }
    return map;
}

ValueStats statsOf(const Tensor& tensor) {
    ValueStats stats;
    stats.addAll(tensor.data.data(), tensor.size());
    return stats;
}

// `stored`: the default Trace, which stores S and A and derives S·scale and masked S from S's rows. `derived`:
// storeMapsUpTo 0, which derives all three from Q_i and K_i (one GEMM per slice). Same bits everywhere.
void checkSameAsStored(ModelSpec spec) {
    const ModelRun stored = runModel(spec);
    spec.attention.storeMapsUpTo = 0;
    const ModelRun derived = runModel(spec);
    const Trace& s = stored.trace;
    const Trace& d = derived.trace;
    CHECK_FALSE(s.isDerived(TensorId::Scores));
    for (TensorId id : kDerived) {
        CAPTURE(tensorInfo(id).key);
        REQUIRE(d.isDerived(id));
        CHECK(s.isDerived(id) == (id != TensorId::Scores));
        CHECK(d[id].empty());           // no memory kept
        CHECK(s[id].empty() == s.isDerived(id));
        CHECK(d[id].shape == s[id].shape);
        CHECK(d.has(id));
        CHECK(s.has(id));
        for (int b = 0; b < d.batch; ++b) {
            for (int h = 0; h < d.dims.heads; ++h) {
                const MapSlice slice = mapSlice(d, id, b, h), expected = mapSlice(s, id, b, h);
                REQUIRE(slice.rows == expected.rows);
                REQUIRE(slice.cols == expected.cols);
                CHECK(sameBits(slice.data, expected.data, static_cast<std::size_t>(expected.rows) * expected.cols));
                if (id == TensorId::Scores) continue;
                const Matrix definition = stageMapFromScores(s, id, b, h);
                CHECK(sameBits(expected.data, definition.data(), static_cast<std::size_t>(definition.size())));
            }
        }
        const Tensor whole = materialize(d, id), wholeStored = materialize(s, id);
        CHECK(sameBits(whole.data.data(), wholeStored.data.data(), wholeStored.size()));
        // Statistics recorded by the pass (or read, for a stored S) equal those of the values.
        const ValueStats read = statsOf(wholeStored);
        for (const ValueStats& recorded : {valueStats(d, id), valueStats(s, id)}) {
            CHECK(recorded.lo == read.lo);
            CHECK(recorded.hi == read.hi);
            CHECK(recorded.maxAbs == read.maxAbs);
            CHECK(recorded.hasNan == read.hasNan);
            CHECK(recorded.hasInfinity == read.hasInfinity);
        }
    }
    // Everything else is stored either way, bit for bit the same.
    for (TensorId id : {TensorId::AttentionWeights, TensorId::ZHeads, TensorId::Concat, TensorId::Output}) {
        CAPTURE(tensorInfo(id).key);
        REQUIRE(d[id].size() == s[id].size());
        CHECK(sameBits(d[id].data.data(), s[id].data.data(), s[id].size()));
    }
}

}  // namespace

TEST_CASE("derived maps: the same bits as stored ones, for every mask, fill and softmax") {
    checkSameAsStored(paddedSpec(MaskKind::None, MaskFill::MinusBillion, SoftmaxMode::Safe));
    checkSameAsStored(paddedSpec(MaskKind::Padding, MaskFill::MinusBillion, SoftmaxMode::Safe));
    checkSameAsStored(paddedSpec(MaskKind::Both, MaskFill::MinusInfinity, SoftmaxMode::PyTorch));
    checkSameAsStored(paddedSpec(MaskKind::Causal, MaskFill::MinusInfinity, SoftmaxMode::Safe));
}

TEST_CASE("derived maps: cross-attention (l_q ≠ l_k) and a custom scale") {
    ModelSpec spec;
    spec.sentences = {"the encoder side has quite a few more tokens than the other", "two words"};
    spec.seeded()->decoderSentences = {"three short words", "one"};
    spec.attention.dModel = 32;
    spec.attention.heads = 4;
    spec.attention.mask = MaskKind::Padding;
    spec.attention.scale = 0.3f;
    checkSameAsStored(spec);
}

TEST_CASE("derived maps: only above the size limit, and the statistics see -inf fills and NaN-free maps") {
    ModelSpec spec = paddedSpec(MaskKind::Padding, MaskFill::MinusInfinity, SoftmaxMode::Safe);
    const ModelRun small = runModel(spec);
    CHECK_FALSE(small.trace.isDerived(TensorId::Scores));  // default limit: 2 × 8 × 150² is far below it
    const std::int64_t elements = 2LL * 8 * small.trace.queryLength * small.trace.keyLength;
    spec.attention.storeMapsUpTo = elements;
    CHECK_FALSE(runModel(spec).trace.isDerived(TensorId::Scores));
    spec.attention.storeMapsUpTo = elements - 1;
    const ModelRun big = runModel(spec);
    CHECK(big.trace.isDerived(TensorId::MaskedScores));
    CHECK_FALSE(big.trace.isDerived(TensorId::AttentionWeights));
    CHECK(valueStats(big.trace, TensorId::MaskedScores).hasInfinity);  // the −∞ fill of padded keys
    CHECK_FALSE(valueStats(big.trace, TensorId::ScaledScores).hasInfinity);
    CHECK(valueStats(big.trace, TensorId::Scores).maxAbs > 0.0f);
}

TEST_CASE("derived maps: reading a derived tensor's data directly is refused, not garbage") {
    ModelSpec spec;
    spec.attention.storeMapsUpTo = 0;
    const ModelRun run = runModel(spec);
    CHECK_THROWS_AS((void)run.trace[TensorId::Scores].slice(0, 0), std::logic_error);
    CHECK_THROWS_AS((void)mapSlice(run.trace, TensorId::Scores, 0, run.trace.dims.heads), std::out_of_range);
    CHECK_THROWS_AS((void)mapSlice(run.trace, TensorId::Scores, 1, 0), std::out_of_range);
}

TEST_CASE("derived slice cache: least recently used out over budget — a slice in use stays valid") {
    const auto slice = [](float value) { return std::make_shared<const FloatBuffer>(256, value); };  // 1 KiB each
    DerivedSliceCache cache(3 * 1024);
    cache.insert(1, slice(1.0f));
    cache.insert(2, slice(2.0f));
    cache.insert(3, slice(3.0f));
    const std::shared_ptr<const FloatBuffer> held = cache.find(1);  // 1 is now the most recently used
    REQUIRE(held);
    cache.insert(4, slice(4.0f));  // over budget: 2 goes
    CHECK(cache.find(2) == nullptr);
    CHECK(cache.find(1) != nullptr);  // order now 1, 4, 3
    CHECK(cache.bytes() == 3 * 1024);
    for (std::uint64_t key : {5, 6, 7}) cache.insert(key, slice(static_cast<float>(key)));
    CHECK(cache.find(1) == nullptr);  // evicted…
    CHECK((*held)[255] == 1.0f);      // …but the holder's copy is intact
}

TEST_CASE("derived maps: a Trace reused by forwardInto forgets the previous run's derived slices") {
    ModelSpec spec;
    spec.attention.storeMapsUpTo = 0;
    ModelRun run = runModel(spec);
    const MapSlice before = mapSlice(run.trace, TensorId::Scores, 0, 0);
    const float first = before.data[0];
    AttentionInput input;
    input.keyValueSide = {Matrix::Constant(run.trace.keyLength, run.dims.dModel, 0.5f)};
    forwardInto(input, run.weights, spec.attention, run.trace);
    const MapSlice after = mapSlice(run.trace, TensorId::Scores, 0, 0);
    const Matrix expected = run.trace[TensorId::QHeads].slice(0, 0) * run.trace[TensorId::KHeads].slice(0, 0).transpose();
    CHECK(after.data[0] == doctest::Approx(expected(0, 0)));
    CHECK(after.data[0] != first);
}

TEST_CASE("rerunAttention: a new mask, fill, softmax or scale gives runModel's bits without redoing the projections") {
    ModelSpec before = paddedSpec(MaskKind::None, MaskFill::MinusBillion, SoftmaxMode::Safe);
    before.seeded()->biases = true;
    const ModelRun previous = runModel(before);
    const auto variant = [&](auto change) {
        ModelSpec spec = before;
        change(spec.attention);
        return spec;
    };
    const std::vector<ModelSpec> changes{
        variant([](AttentionConfig& a) { a.mask = MaskKind::Both; }),
        variant([](AttentionConfig& a) { a.mask = MaskKind::Padding; a.fill = MaskFill::MinusInfinity; a.softmax = SoftmaxMode::PyTorch; }),
        variant([](AttentionConfig& a) { a.scale = 0.05f; a.mask = MaskKind::Causal; }),
        variant([](AttentionConfig& a) { a.mask = MaskKind::Padding; a.storeMapsUpTo = 0; }),
    };
    for (const ModelSpec& spec : changes) {
        const ModelRun expected = runModel(spec);
        const ModelRun rerun = rerunAttention(previous, spec);
        CHECK(rerun.dims.scale == expected.dims.scale);
        CHECK(rerun.trace.fullyMaskedRows == expected.trace.fullyMaskedRows);
        CHECK(rerun.trace.perHeadMaxDifference == expected.trace.perHeadMaxDifference);
        for (int index = 0; index < kTensorCount; ++index) {
            const auto id = static_cast<TensorId>(index);
            CAPTURE(tensorInfo(id).key);
            REQUIRE(rerun.trace.has(id) == expected.trace.has(id));
            REQUIRE(rerun.trace.isDerived(id) == expected.trace.isDerived(id));
            if (!expected.trace.has(id)) continue;
            const Tensor got = materialize(rerun.trace, id), want = materialize(expected.trace, id);
            REQUIRE(got.shape == want.shape);
            CHECK(sameBits(got.data.data(), want.data.data(), want.size()));
        }
    }
}

TEST_CASE("rerunAttention: refuses cross-attention, whose preceding layers depend on the mask") {
    ModelSpec spec;
    spec.sentences = {"le chat"};
    spec.seeded()->decoderSentences = {"the cat"};
    const ModelRun previous = runModel(spec);
    spec.attention.mask = MaskKind::Padding;
    CHECK_THROWS_AS((void)rerunAttention(previous, spec), std::logic_error);
}

TEST_CASE("ValueStats::addAll: the same as adding value by value, with NaN, ±inf and huge values in some chunks") {
    std::vector<float> values(20000);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = std::sin(static_cast<float>(i)) * static_cast<float>(i % 97);
    values[5000] = std::numeric_limits<float>::quiet_NaN();
    values[9001] = -std::numeric_limits<float>::infinity();
    values[13000] = 3e38f;  // finite, but its chunk's sum overflows
    values[13001] = 3e38f;
    values[19999] = -250.0f;  // the minimum, in the last (partial) chunk
    for (const std::size_t count : {values.size(), std::size_t{4096}, std::size_t{4097}, std::size_t{1}}) {
        CAPTURE(count);
        ValueStats fast, slow;
        fast.addAll(values.data(), count);
        for (std::size_t i = 0; i < count; ++i) slow.add(values[i]);
        CHECK(fast.lo == slow.lo);
        CHECK(fast.hi == slow.hi);
        CHECK(fast.maxAbs == slow.maxAbs);
        CHECK(fast.hasNan == slow.hasNan);
        CHECK(fast.hasInfinity == slow.hasInfinity);
    }
}
