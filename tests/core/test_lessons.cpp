// test_lessons.cpp — the computations behind the learners' questions: naive slicing, row sharpness, pooling,
// cost, the encoder/decoder layers before cross-attention, and what decoders changed (K/V sharing, RoPE).
#include "core/lessons.h"
#include "core/decoder_lessons.h"
#include "core/model.h"
#include "io/model_folder.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

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
    identity.seeded()->customWeights = std::make_shared<const Weights>(w);
    const ModelRun exact = runModel(identity);
    CHECK(naiveSlicingAttention(exact.trace, exact.weights).largestOutputDifference < 1e-6f);
}

TEST_CASE("naive slicing refuses free d_k") {
    ModelSpec s = spec(12, 3);
    s.attention.dK = 5;
    const ModelRun run = runModel(s);
    CHECK_THROWS_AS(naiveSlicingAttention(run.trace, run.weights), InputError);
}

TEST_CASE("row sharpness: uniform rows have entropy ln(l), peaked rows less — bigger scale, sharper rows") {
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

TEST_CASE("mean pooling averages only the real tokens — [CLS] pooling takes row 0") {
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

TEST_CASE("cost: h heads of d_model/h cost one head of width d_model — scores cost 2·b·h·l²·d_k") {
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
    s.seeded()->decoderSentences = {"das Tier"};
    s.seeded()->encoderSelfAttentionFirst = true;
    s.seeded()->decoderCausalSelfAttentionFirst = true;
    const ModelRun run = runModel(s);
    REQUIRE(run.encoderTrace.has_value());
    REQUIRE(run.decoderTrace.has_value());
    CHECK(run.trace[TensorId::X].slice(0).isApprox((*run.encoderTrace)[TensorId::Output].slice(0), 0.0f));
    CHECK(run.trace[TensorId::XQuery].slice(0).isApprox((*run.decoderTrace)[TensorId::Output].slice(0), 0.0f));
    CHECK(run.decoderTrace->mask == MaskKind::Causal);
    CHECK(run.trace[TensorId::AttentionWeights].shape == std::vector<int>{1, 2, 2, 4});
}

// [SECTION] decoder_lessons.h: K/V sharing and RoPE

TEST_CASE("K/V sharing: Llama-3.2-1B's parameters and KV cache, derived by hand from its config.json") {
    // meta-llama/Llama-3.2-1B config.json: num_hidden_layers 16, hidden_size 2048, num_attention_heads 32,
    // num_key_value_heads 8, head_dim 64, torch_dtype bfloat16 (2 bytes a value).
    const AttentionShape shape{16, 2048, 32, 8, 64};
    const std::vector<KvSharing> variants = kvSharingVariants(shape);
    REQUIRE(variants.size() == 3);
    const KvSharing &mha = variants[0], &gqa = variants[1], &mqa = variants[2];
    CHECK(mha.name == "MHA");
    CHECK(gqa.name == "GQA");
    CHECK(mqa.name == "MQA");
    CHECK(mha.kvHeads == 32);
    CHECK(gqa.kvHeads == 8);
    CHECK(mqa.kvHeads == 1);
    CHECK(gqa.own);
    CHECK_FALSE(mha.own);
    // W^Q and W^O: 2048 · 32 · 64 = 4,194,304 each; W^K and W^V: 2048 · 8 · 64 = 1,048,576 each.
    CHECK(gqa.wq == 4194304);
    CHECK(gqa.wk == 1048576);
    CHECK(gqa.wv == 1048576);
    CHECK(gqa.wo == 4194304);
    CHECK(gqa.parametersPerLayer() == 10485760);
    CHECK(mha.parametersPerLayer() == 16777216);  // 4 · 4,194,304
    CHECK(mqa.parametersPerLayer() == 8650752);   // 2 · 4,194,304 + 2 · 2048 · 64
    // KV cache per token: K and V rows of 8 · 64 values, 2 bytes each: 2 · 8 · 64 · 2 = 2,048 B a layer, × 16 layers.
    const int bf16 = bytesPerValue(Dtype::BF16);
    CHECK(bf16 == 2);
    CHECK(kvCacheBytes(gqa, bf16) == 2048);
    CHECK(kvCacheBytes(gqa, shape, bf16) == 32768);
    CHECK(kvCacheBytes(mha, shape, bf16) == 131072);  // 2 · 32 · 64 · 2 · 16
    CHECK(kvCacheBytes(mqa, shape, bf16) == 4096);    // 2 · 1 · 64 · 2 · 16
    CHECK(kvCacheBytes(gqa, shape, bytesPerValue(Dtype::F32)) == 65536);
    CHECK(kvCacheBytes(gqa, shape, bf16, 131072) == 4294967296LL);  // its whole 131,072-token context: 4 GiB
    CHECK(groupedDigits(4294967296LL) == "4,294,967,296");
    CHECK(groupedDigits(512) == "512");
}

TEST_CASE("K/V sharing: the seeded layer and GPT-2 get GQA with h/4 K/V heads — small h gets none") {
    Dimensions seeded{64, 8, 8, 8, 8, 0.35f};
    const std::vector<KvSharing> variants = kvSharingVariants(attentionShape(seeded));
    REQUIRE(variants.size() == 3);
    CHECK(variants[0].own);
    CHECK(variants[1].kvHeads == 2);
    CHECK(variants[1].kvValuesPerTokenPerLayer == 2 * 2 * 8);
    CHECK(variants[2].kvHeads == 1);
    CHECK(quarterKvHeads(12) == 3);
    CHECK(quarterKvHeads(32) == 8);
    CHECK(quarterKvHeads(9) == 0);
    CHECK(quarterKvHeads(6) == 0);
    CHECK(quarterKvHeads(4) == 0);  // h/4 = 1 is MQA, not a group
    CHECK(kvSharingVariants({1, 16, 4, 4, 4}).size() == 2);  // MHA, MQA
    CHECK(kvSharingVariants({1, 16, 1, 1, 16}).size() == 1);
    seeded.dV = 4;
    CHECK_THROWS_AS(attentionShape(seeded), InputError);
}

TEST_CASE("RoPE: pair (x_j, x_{j+d/2}) turns by p·θ_j, checked by hand on d_k = 4") {
    // θ_j = 10000^(−2j/4): θ_0 = 1, θ_1 = 0.01.
    const RowVector theta = defaultRotaryFrequencies(4);
    REQUIRE(theta.size() == 2);
    CHECK(theta(0) == doctest::Approx(1.0));
    CHECK(theta(1) == doctest::Approx(0.01));
    // HF: x·cos + rotate_half(x)·sin with cos = cat(cos(pθ), cos(pθ)); rotate_half(1,0,0,0) = (0,0,1,0).
    RowVector q(4);
    q << 1, 0, 0, 0;
    const Eigen::RowVectorXd q1 = rotateAt(q, 1, theta);
    CHECK(q1(0) == doctest::Approx(std::cos(1.0)));
    CHECK(q1(1) == doctest::Approx(0.0));
    CHECK(q1(2) == doctest::Approx(std::sin(1.0)));
    CHECK(q1(3) == doctest::Approx(0.0));
    RowVector k(4);
    k << 0, 1, 0, 0;
    const Eigen::RowVectorXd k100 = rotateAt(k, 100, theta);  // pair 1 by 100 · 0.01 = 1 rad
    CHECK(k100(1) == doctest::Approx(std::cos(1.0)));
    CHECK(k100(3) == doctest::Approx(std::sin(1.0)));
    const RotaryPairs pairs = rotaryPairsOfOneRow(q, theta, 3, 8);
    REQUIRE(pairs.pairCount() == 2);  // at most d_k / 2
    REQUIRE(pairs.positionCount() == 3);
    CHECK(pairs.angle(2, 0) == doctest::Approx(2.0));
    CHECK(pairs.afterX(2, 0) == doctest::Approx(std::cos(2.0)));
    CHECK(pairs.afterY(2, 0) == doctest::Approx(std::sin(2.0)));
    CHECK(pairs.beforeX(2, 0) == 1.0);
    CHECK_THROWS_AS(rotateAt(RowVector::Ones(6), 1, theta), InputError);
}

TEST_CASE("RoPE: after the rotation a score depends on the offset m − n only, not on where the pair stands") {
    RowVector q(64), k(64);
    for (int i = 0; i < 64; ++i) {
        q(i) = std::sin(0.7f * static_cast<float>(i) + 0.3f);
        k(i) = std::cos(1.3f * static_cast<float>(i));
    }
    const RelativeScores r = relativeScores(q, k, defaultRotaryFrequencies(64), 12, 50);
    REQUIRE(r.offsets.size() == 13);
    CHECK(r.score[0] == doctest::Approx(r.unrotatedScore));  // offset 0: both turned by the same angles
    CHECK(r.largestShiftDifference < 1e-9);
    for (std::size_t o = 0; o < r.score.size(); ++o) CHECK(r.shiftedScore[o] == doctest::Approx(r.score[o]).epsilon(1e-9));
    const auto [lo, hi] = std::minmax_element(r.score.begin(), r.score.end());
    CHECK(*hi - *lo > 0.1);  // but it does change with the offset
}

TEST_CASE("RoPE: the lesson's rotation is the forward pass's, on a Llama 3 checkpoint with rope scaling") {
    ModelSpec s;
    s.model = TrainedLayer{attnviz::io::loadModelFolder(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/decoders/llama-gqa-llama3")};
    s.sentences = {"The cat sat on it"};  // one byte a token: within its 32 positions
    const ModelRun run = runModel(s);
    const RowVector theta = rotaryFrequencies(s.trainedModel()->config());
    for (int head : {0, 5}) {
        const Matrix before = run.trace[TensorId::QHeadsBeforeRope].slice(0, head);
        const MatrixView after = run.trace[TensorId::QHeads].slice(0, head);
        const RotaryPairs pairs = rotaryPairs(before, theta, 3);
        for (int p = 0; p < pairs.positionCount(); ++p) {
            for (int j = 0; j < pairs.pairCount(); ++j) {
                CHECK(pairs.afterX(p, j) == doctest::Approx(after(p, j)).epsilon(1e-5).scale(1.0));
                CHECK(pairs.afterY(p, j) == doctest::Approx(after(p, j + 3)).epsilon(1e-5).scale(1.0));
            }
        }
    }
    CHECK(s.trainedModel()->transformer.storedDtype == Dtype::F32);
    // Stage 1 says RMSNorm with this run's numbers: X's rows have root mean square 1 before γ.
    const StageWords embed = stageWords(run, StageId::Embed);
    CHECK(embed.formula.find("X = RMSNorm(h_0)") != std::string::npos);
    CHECK(embed.explanation.find("RMSNorm, not GPT-2's LayerNorm") != std::string::npos);
    CHECK(embed.explanation.find("the first token's row of h_0 has root mean square") != std::string::npos);
    CHECK(embed.explanation.find("LayerNorm (") == std::string::npos);
    const RowVector x = run.trace[TensorId::X].slice(0).row(0), gamma = s.trainedModel()->transformer.weights.blocks[0].ln1.gamma;
    CHECK(std::sqrt(x.cwiseQuotient(gamma).squaredNorm() / static_cast<float>(x.size())) == doctest::Approx(1.0).epsilon(1e-3));
}
