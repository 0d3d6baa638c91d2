// test_trained_model.cpp — the pieces of core/transformer/trained_model.h that need no checkpoint: the model
// view's special tokens and renormalisation, the untrained copy (its distribution, determinism, what it keeps),
// the stage words for trained models and the featured head. The stepped layer of a real pass is checked against
// PyTorch in test_transformer_reference.cpp.
#include "core/transformer/trained_model.h"

#include <doctest/doctest.h>

#include <cmath>

namespace {

using namespace attnviz::core;

// A 2-layer model of d_model 4 with every weight 0.5 (the copy must redraw them all).
TrainedModel smallModel(ModelFamily family) {
    TrainedModel model;
    model.name = "small";
    model.transformer.config = {family, 2, 4, 2, 8, 16, 10, family == ModelFamily::Bert ? 2 : 0, 1e-5f};
    TransformerWeights& w = model.transformer.weights;
    w.tokenEmbeddings = Matrix::Constant(10, 4, 0.5f);
    w.positionEmbeddings = Matrix::Constant(16, 4, 0.5f);
    const LayerNormWeights norm{RowVector::Constant(4, 0.5f), RowVector::Constant(4, 0.5f)};
    if (family == ModelFamily::Bert) {
        w.tokenTypeEmbeddings = Matrix::Constant(2, 4, 0.5f);
        w.embeddingLayerNorm = norm;
    } else {
        w.finalLayerNorm = norm;
    }
    for (int layer = 0; layer < 2; ++layer) {
        BlockWeights block;
        for (Matrix* m : {&block.attention.wq, &block.attention.wk, &block.attention.wv, &block.attention.wo}) *m = Matrix::Constant(4, 4, 0.5f);
        for (RowVector* b : {&block.attention.bq, &block.attention.bk, &block.attention.bv, &block.attention.bo}) *b = RowVector::Constant(4, 0.5f);
        block.ln1 = block.ln2 = norm;
        block.mlpIn = Matrix::Constant(4, 8, 0.5f);
        block.mlpInBias = RowVector::Constant(8, 0.5f);
        block.mlpOut = Matrix::Constant(8, 4, 0.5f);
        block.mlpOutBias = RowVector::Constant(4, 0.5f);
        w.blocks.push_back(block);
    }
    model.namedHeads = {{"previous token", 0, 1, "looks one back"}, {"coreference (it → noun)", 1, 0, "finds it"}};
    return model;
}

}  // namespace

TEST_CASE("special tokens: BERT's [CLS] and [SEP], GPT-2's first token") {
    const std::vector<std::string> bert{"[CLS]", "the", "cat", "[SEP]"};
    CHECK(visibleTokens(smallModel(ModelFamily::Bert), bert) == std::vector<int>{1, 2});
    const std::vector<std::string> gpt2{"The", "␣cat", "␣sat"};
    CHECK(visibleTokens(smallModel(ModelFamily::Gpt2), gpt2) == std::vector<int>{1, 2});
}

TEST_CASE("hiding tokens keeps their rows and columns out and renormalises each row") {
    Matrix a(3, 3);
    a << 0.5f, 0.25f, 0.25f,  //
        0.6f, 0.3f, 0.1f,     //
        0.2f, 0.0f, 0.8f;
    const Matrix kept = renormalisedAttention(a, {1, 2});
    REQUIRE(kept.rows() == 2);
    REQUIRE(kept.cols() == 2);
    CHECK(kept(0, 0) == doctest::Approx(0.75));  // 0.3 / 0.4
    CHECK(kept(0, 1) == doctest::Approx(0.25));
    CHECK(kept(1, 0) == doctest::Approx(0.0));
    CHECK(kept(1, 1) == doctest::Approx(1.0));
    Matrix zeros = Matrix::Zero(2, 2);
    zeros(0, 0) = 1.0f;
    CHECK(renormalisedAttention(zeros, {1}).sum() == 0.0f);  // nothing left to renormalise: stays zero, no NaN
}

TEST_CASE("hiding the first token: rows sum to 1 again — a row that gave it everything is left empty and named") {
    Matrix a(4, 4);  // a decoder's causal map; row 2 gave all but float rounding to the first token
    a << 1.0f, 0.0f, 0.0f, 0.0f,            //
        0.7f, 0.3f, 0.0f, 0.0f,              //
        1.0f - 6e-8f, 3e-8f, 3e-8f, 0.0f,    //
        0.4f, 0.2f, 0.1f, 0.3f;
    const std::vector<int> keep{1, 2, 3};
    const Matrix kept = renormalisedAttention(a, keep);
    CHECK(kept.row(0).sum() == doctest::Approx(1.0));
    CHECK(kept.row(2).sum() == doctest::Approx(1.0));
    CHECK(kept(2, 2) == doctest::Approx(0.5));  // 0.3 / 0.6
    CHECK(kept.row(1).isZero());                // not 0.5, 0.5 blown up from 3e-8 each
    CHECK(kept.allFinite());
    CHECK(rowsWithNothingLeft(a, keep) == std::vector<int>{1});
    Matrix exact = Matrix::Zero(2, 2);
    exact(0, 0) = exact(1, 0) = 1.0f;  // softmax rounded to exactly one-hot on the first token
    CHECK(renormalisedAttention(exact, {1}).isZero());
    CHECK(rowsWithNothingLeft(exact, {1}) == std::vector<int>{0});
}

TEST_CASE("attention sinks: each layer × head's mean weight on the first token, over the rows that have a choice") {
    Tensor attention({2, 2, 1, 3, 3});  // n_layers × b × h × l × l
    const auto set = [&](int layer, int batch, std::initializer_list<float> values) {
        std::copy(values.begin(), values.end(), attention.data.begin() + static_cast<long>((layer * 2 + batch) * 9));
    };
    set(0, 0, {1, 0, 0, 0.9f, 0.1f, 0, 0.5f, 0.25f, 0.25f});
    set(1, 0, {1, 0, 0, 0.2f, 0.8f, 0, 0.1f, 0.1f, 0.8f});
    set(0, 1, {1, 0, 0, 0, 1, 0, 0, 0, 1});
    set(1, 1, {1, 0, 0, 1, 0, 0, 1, 0, 0});
    const Matrix causal = firstTokenShare(attention, 0, 3, true);
    REQUIRE(causal.rows() == 2);
    REQUIRE(causal.cols() == 1);
    CHECK(causal(0, 0) == doctest::Approx(0.7));   // (0.9 + 0.5) / 2: row 0 has no choice
    CHECK(causal(1, 0) == doctest::Approx(0.15));  // (0.2 + 0.1) / 2
    CHECK(firstTokenShare(attention, 0, 3, false)(0, 0) == doctest::Approx(0.8));  // (1 + 0.9 + 0.5) / 3
    const Matrix second = firstTokenShare(attention, 1, 3, true);
    CHECK(second(0, 0) == doctest::Approx(0.0));
    CHECK(second(1, 0) == doctest::Approx(1.0));
    CHECK(firstTokenShare(attention, 1, 2, true)(1, 0) == doctest::Approx(1.0));  // a shorter sentence: its rows only
    CHECK(std::isnan(firstTokenShare(attention, 0, 1, true)(0, 0)));
    CHECK(rowsWithNothingLeft(attention, 1, 3, {1, 2}) == 2);  // layer 1 of sentence 2: rows 1 and 2 all on token 0
    CHECK(rowsWithNothingLeft(attention, 0, 3, {1, 2}) == 0);
}

TEST_CASE("the untrained copy: N(0, 0.02²) weights, unit LayerNorms, zero biases, same config and heads") {
    const TrainedModel trained = smallModel(ModelFamily::Bert);
    const TrainedModel copy = untrainedCopy(trained, 42);
    CHECK(copy.name == "small (untrained)");
    CHECK(copy.config().layers == trained.config().layers);
    CHECK(copy.namedHeads.size() == 2);
    const BlockWeights& block = copy.transformer.weights.blocks[1];
    CHECK(block.ln1.gamma.isOnes());
    CHECK(block.ln2.beta.isZero());
    CHECK(block.attention.bq.isZero());
    CHECK(block.mlpOutBias.isZero());
    CHECK(copy.transformer.weights.embeddingLayerNorm.gamma.isOnes());
    // Every drawn value pooled: mean near 0 and standard deviation near 0.02 (10 + 16 + 2 rows of 4, and 2 blocks).
    std::vector<float> values;
    const auto add = [&](const Matrix& m) { values.insert(values.end(), m.data(), m.data() + m.size()); };
    add(copy.transformer.weights.tokenEmbeddings.view());
    add(copy.transformer.weights.positionEmbeddings);
    for (const BlockWeights& b : copy.transformer.weights.blocks) {
        for (const Matrix* m : {&b.attention.wq, &b.attention.wk, &b.attention.wv, &b.attention.wo}) add(*m);
        add(b.mlpIn.dense());
        add(b.mlpOut.dense());
    }
    double sum = 0.0, squares = 0.0;
    for (float v : values) {
        sum += v;
        squares += static_cast<double>(v) * v;
    }
    const double mean = sum / values.size(), std = std::sqrt(squares / values.size() - mean * mean);
    CHECK(std::abs(mean) < 0.004);
    CHECK(std == doctest::Approx(0.02).epsilon(0.15));
    CHECK(untrainedCopy(trained, 42).transformer.weights.blocks[1].attention.wq == block.attention.wq);
    CHECK(untrainedCopy(trained, 7).transformer.weights.blocks[1].attention.wq != block.attention.wq);
}

TEST_CASE("the featured head is the coreference one, else the first named, else none") {
    TrainedModel model = smallModel(ModelFamily::Bert);
    REQUIRE(model.featuredHead() != nullptr);
    CHECK(model.featuredHead()->layer == 1);
    CHECK(model.featuredLayer() == 1);
    model.namedHeads.pop_back();
    CHECK(model.featuredHead()->name == "previous token");
    model.namedHeads.clear();
    CHECK(model.featuredHead() == nullptr);
    CHECK(model.featuredLayer() == 0);
    CHECK(smallModel(ModelFamily::Bert).namedHead(0, 1)->what == "looks one back");
    CHECK(smallModel(ModelFamily::Bert).namedHead(0, 0) == nullptr);
}

TEST_CASE("stage words say where a trained layer's X comes from") {
    const TrainedModel gpt2 = smallModel(ModelFamily::Gpt2);
    const auto embed = trainedStageWords(gpt2, 1, StageId::Embed);
    REQUIRE(embed.has_value());
    CHECK(embed->formula.find("ln_1(h_1)") != std::string::npos);
    CHECK(embed->explanation.find("Block 0 adds") != std::string::npos);
    const auto first = trainedStageWords(smallModel(ModelFamily::Bert), 0, StageId::Embed);
    CHECK(first->formula.find("X = h_0") != std::string::npos);
    CHECK(first->explanation.find("No block comes before layer 0") != std::string::npos);
    CHECK(trainedStageWords(gpt2, 0, StageId::Tokens)->explanation.find("BPE") != std::string::npos);
    CHECK_FALSE(trainedStageWords(gpt2, 0, StageId::Softmax).has_value());
}
