// model_family.h — every model family attnviz opens, as one table: what differs between GPT-2, BERT, Llama,
// Mistral, Qwen2 and Qwen3, one row per config.json model_type (llama.cpp's model-architecture table is the pattern).
//
// The loader (io/checkpoint), the forward pass (transformer.cpp, kv_cache.cpp), the memory estimate and the views
// read a family's traits from here instead of asking which family a model is. Adding a family is one row below
// (plus, for a new tensor layout, its reader in io/checkpoint.cpp) and its fixtures.
// What this file does not do: read files, or know the weights' values.
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace attnviz::core {

// The tensor layout a checkpoint stores (which names io reads, which weights a block has); several model_types
// share one (Mistral, Qwen2 and Qwen3 are Llama-layout decoders).
enum class ModelFamily {
    Gpt2,  // transformer.h.N.{attn.c_attn, attn.c_proj, ln_1, ln_2, mlp.c_fc, mlp.c_proj}, wte, wpe, ln_f
    Bert,  // bert.encoder.layer.N.{attention.self.query …, intermediate.dense, output.dense}, embeddings.*, cls.*
    Llama, // model.layers.N.{self_attn.{q,k,v,o}_proj, mlp.{gate,up,down}_proj, input/post_attention_layernorm}
};

enum class NormKind {
    LayerNorm,  // (x − mean) / √(var + ε) · γ + β
    RmsNorm,    // x / √(mean(x²) + ε) · γ, no β
};

enum class NormPlacement {
    PreNorm,   // h += sublayer(norm(h)); a final norm after the last block (GPT-2's ln_f, Llama's model.norm)
    PostNorm,  // h = norm(h + sublayer(h)) (BERT)
};

enum class PositionKind {
    LearnedTable,           // h_0 = E[ids] + P (GPT-2's wpe)
    LearnedTableWithTypes,  // h_0 = LayerNorm(E[ids] + P + T_0) (BERT's position and token type tables)
    Rotary,                 // no table: q and k are rotated (RoPE), h_0 = E[ids]
};

enum class MlpKind {
    GeluTanh,  // c_proj(gelu_new(c_fc(x))) (GPT-2)
    GeluErf,   // output(gelu(intermediate(x))) (BERT)
    SwiGlu,    // down(silu(gate(x)) ⊙ up(x)), no biases (the Llama layout)
};

enum class AttentionBiases {
    All,             // b^Q, b^K, b^V, b^O always (GPT-2, BERT)
    QkvOnly,         // b^Q, b^K, b^V always, no b^O (Qwen2)
    WhenConfigSays,  // b^Q, b^K, b^V, b^O when config.json's attention_bias is true
};

enum class SlidingWindows {
    None,
    EveryLayer,     // sliding_window set: every layer slides it (Mistral)
    QwenLayerRule,  // use_sliding_window: layer_types, or the layers from max_window_layers on (Qwen2, Qwen3)
};

enum class VocabularyFiles {
    ByteLevelBpe,  // vocab.json + merges.txt
    WordPiece,     // vocab.txt
};

struct FamilyTraits {
    std::string_view modelType;  // config.json's model_type
    std::string_view name;       // as shown: "GPT-2", "Qwen3"
    ModelFamily layout;
    bool decoder;                // causal mask, next-token prediction, a KV cache; false: an encoder (BERT)
    NormKind norm;
    NormPlacement normPlacement;
    PositionKind positions;
    MlpKind mlp;
    AttentionBiases attentionBiases;
    bool qkNorm;                 // per-head RMSNorm of q and k before RoPE (Qwen3's q_norm, k_norm)
    bool groupedQueryAttention;  // num_key_value_heads and head_dim read (h_kv may be < h, h·d_k may be ≠ d_model)
    bool lmHeadIsTokenTable;     // always tied (GPT-2); otherwise tie_word_embeddings says
    SlidingWindows slidingWindows;
    VocabularyFiles vocabulary;  // the classic files, read when the folder has no tokenizer.json
    std::string_view tokenizerClass;  // HF's class, as the tokens stage's PyTorch line names it
    std::string_view inputNorm;       // what X = f(h_N) applies before attention: "ln_1", "RMSNorm"; "" (post-norm)
};

// clang-format off
inline constexpr std::array<FamilyTraits, 6> kModelFamilies{{
//   model_type  name       layout               decoder norm                 placement                     positions                            mlp               attention biases                   qk norm GQA    tied   sliding windows                   vocabulary files               tokenizer class       input norm
    {"gpt2",    "GPT-2",   ModelFamily::Gpt2,  true,  NormKind::LayerNorm, NormPlacement::PreNorm,  PositionKind::LearnedTable,          MlpKind::GeluTanh, AttentionBiases::All,            false, false, true,  SlidingWindows::None,          VocabularyFiles::ByteLevelBpe, "GPT2TokenizerFast", "ln_1"},
    {"bert",    "BERT",    ModelFamily::Bert,  false, NormKind::LayerNorm, NormPlacement::PostNorm, PositionKind::LearnedTableWithTypes, MlpKind::GeluErf,  AttentionBiases::All,            false, false, false, SlidingWindows::None,          VocabularyFiles::WordPiece,    "BertTokenizerFast", ""},
    {"llama",   "Llama",   ModelFamily::Llama, true,  NormKind::RmsNorm,   NormPlacement::PreNorm,  PositionKind::Rotary,                MlpKind::SwiGlu,   AttentionBiases::WhenConfigSays, false, true,  false, SlidingWindows::None,          VocabularyFiles::ByteLevelBpe, "AutoTokenizer",     "RMSNorm"},
    {"mistral", "Mistral", ModelFamily::Llama, true,  NormKind::RmsNorm,   NormPlacement::PreNorm,  PositionKind::Rotary,                MlpKind::SwiGlu,   AttentionBiases::WhenConfigSays, false, true,  false, SlidingWindows::EveryLayer,    VocabularyFiles::ByteLevelBpe, "AutoTokenizer",     "RMSNorm"},
    {"qwen2",   "Qwen2",   ModelFamily::Llama, true,  NormKind::RmsNorm,   NormPlacement::PreNorm,  PositionKind::Rotary,                MlpKind::SwiGlu,   AttentionBiases::QkvOnly,        false, true,  false, SlidingWindows::QwenLayerRule, VocabularyFiles::ByteLevelBpe, "AutoTokenizer",     "RMSNorm"},
    {"qwen3",   "Qwen3",   ModelFamily::Llama, true,  NormKind::RmsNorm,   NormPlacement::PreNorm,  PositionKind::Rotary,                MlpKind::SwiGlu,   AttentionBiases::WhenConfigSays, true,  true,  false, SlidingWindows::QwenLayerRule, VocabularyFiles::ByteLevelBpe, "AutoTokenizer",     "RMSNorm"},
}};
// clang-format on

// The row of a config.json model_type, or nullptr when attnviz does not open it.
constexpr const FamilyTraits* findModelFamily(std::string_view modelType) {
    for (const FamilyTraits& family : kModelFamilies) {
        if (family.modelType == modelType) return &family;
    }
    return nullptr;
}

// The row of `modelType`, or, without one (a model built in code), the first row of that layout.
const FamilyTraits& familyTraits(ModelFamily layout, std::string_view modelType);

// "gpt2, bert, llama, mistral, qwen2 and qwen3": every model_type attnviz opens, for error messages.
std::string openedModelTypes();

}  // namespace attnviz::core
