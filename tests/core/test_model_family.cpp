// test_model_family.cpp — the model-family table (core/transformer/model_family.h): one row per model_type, found by
// name, and a model built in code (no model_type) gets its layout's first row. What each row computes is checked by
// the reference passes (test_transformer_reference.cpp, tests/io/test_checkpoint.cpp) against PyTorch.
#include "core/transformer/model_family.h"
#include "core/transformer/transformer.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

using namespace attnviz::core;

TEST_CASE("model families: every model_type is one row, found by its name") {
    std::set<std::string_view> types;
    for (const FamilyTraits& family : kModelFamilies) {
        CHECK(types.insert(family.modelType).second);
        CHECK(findModelFamily(family.modelType) == &family);
    }
    CHECK(findModelFamily("gemma") == nullptr);
    CHECK(findModelFamily("") == nullptr);
    CHECK(openedModelTypes() == "gpt2, bert, llama, mistral, qwen2 and qwen3");
}

TEST_CASE("model families: a config's traits follow its model_type, or its layout without one") {
    TransformerConfig config;
    config.family = ModelFamily::Bert;
    CHECK(config.traits().modelType == "bert");
    CHECK_FALSE(config.traits().decoder);
    config.family = ModelFamily::Llama;
    CHECK(config.traits().modelType == "llama");
    config.modelType = "qwen2";
    CHECK(config.traits().attentionBiases == AttentionBiases::QkvOnly);
    CHECK(config.traits().slidingWindows == SlidingWindows::QwenLayerRule);
    config.modelType = "gpt2";  // a model_type of another layout: the layout wins
    CHECK(config.traits().layout == ModelFamily::Llama);
}
