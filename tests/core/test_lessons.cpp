// test_lessons.cpp — the computations behind the learners' questions: naive slicing, row sharpness, pooling,
// cost, and the encoder/decoder layers before cross-attention.
#include "core/lessons.h"
#include "core/model.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace attnviz::core;

namespace {

ModelSpec spec(int dModel, int heads) {
    ModelSpec s;
    s.attention.dModel = dModel;
    s.attention.heads = heads;
    return s;
}

}  // namespace

TEST_CASE("naive slicing differs from real attention unless W is block-diagonal") {
    const ModelRun run = runModel(spec(16, 4));
    const NaiveSlicing naive = naiveSlicingAttention(run.trace, run.weights);
    CHECK(naive.largestOutputDifference > 1e-3f);
    CHECK(naive.output.shape == run.trace[TensorId::Output].shape);
    for (int s = 0; s < naive.attentionWeights.sliceCount(); ++s) {
        for (Eigen::Index r = 0; r < naive.attentionWeights.rows(); ++r) {
            CHECK(naive.attentionWeights.slice(s).row(r).sum() == doctest::Approx(1.0).epsilon(1e-5));
        }
    }
    // With identity weights, head i's block of W only reads columns i·d_k… of X: slicing X changes nothing.
    ModelSpec identity = spec(16, 4);
    Weights w;
    w.wq = w.wk = w.wv = w.wo = Matrix::Identity(16, 16);
    identity.customWeights = w;
    const ModelRun exact = runModel(identity);
    CHECK(naiveSlicingAttention(exact.trace, exact.weights).largestOutputDifference < 1e-6f);
}

TEST_CASE("naive slicing refuses free d_k") {
    ModelSpec s = spec(12, 3);
    s.attention.dK = 5;
    const ModelRun run = runModel(s);
    CHECK_THROWS_AS(naiveSlicingAttention(run.trace, run.weights), InputError);
}

TEST_CASE("row sharpness: uniform rows have entropy ln(l), peaked rows less; bigger scale, sharper rows") {
    ModelSpec s = spec(16, 2);
    s.attention.scale = 0.0f;  // every score 0: uniform rows
    const RowSharpness flat = rowSharpness(runModel(s).trace);
    CHECK(flat.entropy.data[0] == doctest::Approx(std::log(13.0)).epsilon(1e-5));
    CHECK(flat.maxWeight.data[0] == doctest::Approx(1.0 / 13).epsilon(1e-5));
    s.attention.scale = 1.0f;
    const RowSharpness mild = rowSharpness(runModel(s).trace);
    s.attention.scale = 20.0f;
    const RowSharpness sharp = rowSharpness(runModel(s).trace);
    double mildMean = 0, sharpMean = 0;
    for (std::size_t i = 0; i < mild.entropy.size(); ++i) {
        mildMean += mild.entropy.data[i];
        sharpMean += sharp.entropy.data[i];
    }
    CHECK(sharpMean < mildMean);
    CHECK(mildMean / static_cast<double>(mild.entropy.size()) < std::log(13.0));
}

TEST_CASE("mean pooling averages only the real tokens; [CLS] pooling takes row 0") {
    ModelSpec s = spec(8, 2);
    s.sentences = {"a b c d", "e f"};
    s.attention.mask = MaskKind::Padding;
    const Trace t = runModel(s).trace;
    const PoolingResult mean = poolAndClassify(t, false, Pooling::Mean, 3, 1);
    const RowVector expected = t[TensorId::Output].slice(1).topRows(2).colwise().mean();
    CHECK(mean.pooled.row(1).isApprox(expected, 1e-6f));
    CHECK(mean.mix(1, 3) == 0.0f);
    CHECK(mean.logits.cols() == 3);
    CHECK(mean.logits.row(0).isApprox(mean.pooled.row(0) * mean.classifier, 1e-6f));
    const PoolingResult cls = poolAndClassify(t, true, Pooling::Cls, 2, 1);
    CHECK(cls.pooled.row(0).isApprox(t[TensorId::Output].slice(0).row(0), 0.0f));
    CHECK_THROWS_AS(poolAndClassify(t, true, Pooling::Cls, 1, 1), InputError);
}

TEST_CASE("cost: h heads of d_model/h cost one head of width d_model; scores cost 2·b·h·l²·d_k") {
    const Trace t = runModel(spec(512, 8)).trace;
    const HeadCost cost = headCost(t);
    CHECK(cost.allHeadsFlops == doctest::Approx(cost.oneWideHeadFlops));
    CHECK(cost.perHeadFlops == doctest::Approx(2.0 * 13 * 13 * 128));
    const std::vector<StageCost> stages = stageCosts(t);
    REQUIRE(stages.size() == static_cast<std::size_t>(kStageCount));
    CHECK(stages[static_cast<std::size_t>(StageId::Scores)].flops == doctest::Approx(2.0 * 8 * 13 * 13 * 64));
    CHECK(stages[static_cast<std::size_t>(StageId::Softmax)].bytes == doctest::Approx(8.0 * 13 * 13 * 4));
    CHECK(formatFlops(1.61e9) == "1.61 GFLOP");
    CHECK(formatBytes(8.0 * 1024 * 1024) == "8.0 MiB");
}

TEST_CASE("cross-attention after an encoder layer: K and V come from the encoder's output") {
    ModelSpec s = spec(16, 2);
    s.sentences = {"the animal was tired"};
    s.decoderSentences = {"das Tier"};
    s.encoderSelfAttentionFirst = true;
    s.decoderCausalSelfAttentionFirst = true;
    const ModelRun run = runModel(s);
    REQUIRE(run.encoderTrace.has_value());
    REQUIRE(run.decoderTrace.has_value());
    CHECK(run.trace[TensorId::X].slice(0).isApprox((*run.encoderTrace)[TensorId::Output].slice(0), 0.0f));
    CHECK(run.trace[TensorId::XQuery].slice(0).isApprox((*run.decoderTrace)[TensorId::Output].slice(0), 0.0f));
    CHECK(run.decoderTrace->mask == MaskKind::Causal);
    CHECK(run.trace[TensorId::AttentionWeights].shape == std::vector<int>{1, 2, 2, 4});
}
