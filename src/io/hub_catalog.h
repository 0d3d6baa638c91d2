// hub_catalog.h — the short list of Hub models attnviz suggests (`attnviz fetch --list`, File ▸ Get a model…):
// one table of data, nothing fetched to build it. Sizes are the weights as the Hub lists them (model.safetensors,
// or its shards), rounded to three figures; licences as the model cards state them.
#pragma once

#include "core/transformer/model_family.h"

#include <array>
#include <cstdint>
#include <string_view>

namespace attnviz::io {

struct CatalogModel {
    std::string_view repoId;
    std::string_view family;     // config.json's model_type
    std::uint64_t bytes;         // the weights' size on the Hub, rounded
    std::string_view licence;
    bool gated;                  // the Hub asks the user to accept a licence first (HF_TOKEN needed)
    std::string_view showsWell;  // what it is good for in attnviz
};

inline constexpr std::array<CatalogModel, 7> kModelCatalog{{
    {"gpt2", "gpt2", 548'000'000, "MIT", false,
     "causal attention: the previous-token head 4.11 and induction heads 5.1, 5.5, 6.9"},
    {"distilgpt2", "gpt2", 353'000'000, "Apache-2.0", false,
     "GPT-2 in 6 layers: the same heads, sooner; half the download"},
    {"bert-base-uncased", "bert", 440'000'000, "Apache-2.0", false,
     "bidirectional attention, [CLS]/[SEP] sinks, Clark et al.'s syntactic heads (7.9, 7.10, 4.3)"},
    {"sentence-transformers/all-MiniLM-L6-v2", "bert", 90'900'000, "Apache-2.0", false,
     "a small BERT (6 layers, 12 heads of 32) tuned for sentence similarity: quick to get"},
    {"HuggingFaceTB/SmolLM2-135M", "llama", 269'000'000, "Apache-2.0", false,
     "a modern decoder: grouped-query attention (9 query heads over 3 key/value heads) and rotary positions"},
    {"Qwen/Qwen2.5-0.5B", "qwen2", 988'000'000, "Apache-2.0", false,
     "grouped-query attention with 14 query heads over 2 key/value heads, q/k/v biases"},
    {"meta-llama/Llama-3.2-1B", "llama", 2'470'000'000, "Llama 3.2 Community License", true,
     "a current Llama: 32 query heads over 8 key/value heads, Llama-3 rotary scaling (gated)"},
}};

// Does attnviz open models of this config.json model_type?
constexpr bool attnvizOpensFamily(std::string_view family) {
    return core::findModelFamily(family) != nullptr;
}

}  // namespace attnviz::io
