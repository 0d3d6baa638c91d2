// test_stages.cpp — the stage list matches the table in docs/design.md, and shapes substitute into the PyTorch lines.
#include "core/derived_maps.h"
#include "core/model.h"
#include "core/stages.h"

#include <doctest/doctest.h>

#include <limits>

using namespace attnviz::core;

TEST_CASE("eleven stages in the order of docs/design.md, each with text and numbered by position") {
    REQUIRE(stages().size() == 11);
    const char* keys[] = {"tokens", "embed", "project", "split", "scores", "scale", "mask", "softmax", "weighted_sum", "concat", "output"};
    for (int i = 0; i < kStageCount; ++i) {
        const Stage& s = stages()[static_cast<std::size_t>(i)];
        CHECK(s.number() == i);
        CHECK(s.key == keys[i]);
        CHECK(!s.title.empty());
        CHECK(!s.formula.empty());
        CHECK(!s.pytorch.empty());
        CHECK(!s.numpy.empty());
        CHECK(!s.explanation.empty());
        CHECK((i == 0) == s.shows.empty());
    }
}

TEST_CASE("stage 3's RoPE step has its own words and keeps the split's number: stage numbers stay 0–10") {
    const Stage& rope = ropeStep();
    CHECK(rope.number() == 3);
    CHECK(rope.key == "rope");
    CHECK(rope.formula.find("R(θ, m)") != std::string_view::npos);
    CHECK(rope.formula.find("rope_theta^(−2j/d_k)") != std::string_view::npos);
    CHECK(rope.pytorch.find("q_embed = (q * cos) + (rotate_half(q) * sin)") != std::string_view::npos);
    CHECK(rope.explanation.find("m − n") != std::string_view::npos);
    CHECK(rope.formula != stage(StageId::SplitHeads).formula);
    CHECK(stages().size() == 11);
}

TEST_CASE("stages are found by number or name") {
    CHECK(findStage("7") == StageId::Softmax);
    CHECK(findStage("softmax") == StageId::Softmax);
    CHECK(findStage("0") == StageId::Tokens);
    CHECK_FALSE(findStage("11").has_value());
    CHECK_FALSE(findStage("-1").has_value());
    CHECK_FALSE(findStage("softmaxx").has_value());
    CHECK_FALSE(findStage("").has_value());
}

TEST_CASE("the PyTorch line gets this trace's sizes") {
    ModelSpec spec;
    spec.attention.dModel = 512;
    spec.attention.heads = 8;
    const Trace t = runModel(spec).trace;
    CHECK(substituteShapes(stage(StageId::SplitHeads).pytorch, t) ==
          "query = query.view(1, -1, 8, 64).transpose(1, 2)  # 1 x 8 x 13 x 64");
    CHECK(substituteShapes(stage(StageId::SplitHeads).numpy, t) ==
          "q = q.reshape(1, -1, 8, 64).transpose(0, 2, 1, 3)  # 1 x 8 x 13 x 64");
    CHECK(symbolicShape(TensorId::AttentionWeights, t) == "b × h × l × l");
    CHECK(t[TensorId::AttentionWeights].shapeString() == "1 × 8 × 13 × 13");
}

TEST_CASE("code lines: cross-attention's tokens, embedding and projection name the decoder and the encoder with their own lengths") {
    attnviz::core::ModelSpec spec;
    spec.sentences = {"the cat sat on the mat"};
    spec.seeded()->decoderSentences = {"le chat"};
    const attnviz::core::ModelRun cross = attnviz::core::runModel(spec);
    using attnviz::core::StageId;
    const std::string project = attnviz::core::codeLine(attnviz::core::stage(StageId::Project), cross.trace);
    CHECK(project.find("(x_dec, x_enc, x_enc)") != std::string::npos);
    CHECK(project.find("1 x 2 / 6 x 64") != std::string::npos);  // l_q = 2 decoder tokens, l_k = 6 encoder tokens
    CHECK(attnviz::core::codeLine(attnviz::core::stage(StageId::Tokens), cross.trace).find("1 x 2, 1 x 6") != std::string::npos);
    CHECK(attnviz::core::codeLine(attnviz::core::stage(StageId::Tokens), cross.trace, true).find("np.array(ids_dec)") != std::string::npos);

    spec.seeded()->decoderSentences.clear();
    const attnviz::core::ModelRun self = attnviz::core::runModel(spec);
    CHECK(attnviz::core::codeLine(attnviz::core::stage(StageId::Project), self.trace).find("(x, x, x)") != std::string::npos);
}

TEST_CASE("the mask stage's PyTorch and NumPy lines fill with the value this run filled masked scores with") {
    ModelSpec spec;
    spec.attention.mask = MaskKind::Causal;
    struct Case {
        MaskFill fill;
        const char* pytorch;
        const char* numpy;
        float value;
    };
    for (const Case& c : {Case{MaskFill::MinusBillion, "masked_fill(mask == 0, -1e9)", "np.where(mask == 0, -1e9, scores)", -1e9f},
                          Case{MaskFill::MinusInfinity, "masked_fill(mask == 0, float('-inf'))", "np.where(mask == 0, -np.inf, scores)",
                               -std::numeric_limits<float>::infinity()}}) {
        spec.attention.fill = c.fill;
        const Trace t = runModel(spec).trace;
        CAPTURE(c.pytorch);
        CHECK(codeLine(stage(StageId::Mask), t).find(c.pytorch) != std::string::npos);
        CHECK(codeLine(stage(StageId::Mask), t, true).find(c.numpy) != std::string::npos);
        CHECK(mapSlice(t, TensorId::MaskedScores, 0, 0).view()(0, 1) == c.value);  // the first query may not see the second key
    }
}
