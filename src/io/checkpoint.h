// checkpoint.h — a HuggingFace GPT-2, BERT or Llama-family folder into a core::TransformerModel (config.json +
// model.safetensors or its shards), checked before it is trusted.
//
// What a folder must hold: config.json with model_type "gpt2", "bert", "llama" (SmolLM too), "mistral", "qwen2" or
// "qwen3"; model.safetensors, or model.safetensors.index.json whose weight_map names shards in the same folder (plain
// file names, each present; F32, F16 or BF16, read through io/safetensors.h); and the tokenizer's files
// (tokenizer_files.h). Tensor names are accepted with or without the "transformer." / "bert." / "model." prefix,
// LayerNorm parameters as weight/bias or gamma/beta; BERT's masked-word head (cls.predictions.*) when present; other
// extra tensors (GPT-2/BERT heads, cls.seq_relationship, pooler, GPT-2's
// attn.bias buffers, rotary_emb.inv_freq) are ignored. Llama-family keys read: hidden_size, num_attention_heads,
// num_key_value_heads, head_dim, intermediate_size, num_hidden_layers, rms_norm_eps, rope_theta, rope_scaling
// (none, "default" or "llama3"; rope_parameters in newer files), max_position_embeddings, tie_word_embeddings
// (lm_head.weight read when false), attention_bias, sliding_window (mistral; qwen2/qwen3 with use_sliding_window,
// max_window_layers or layer_types), vocab_size, hidden_act (silu only). What is not computed (another RoPE scaling,
// partial rotary, MLP biases, another activation) is refused in one sentence.
//
// Orientation: the core applies every layer as X · W (in × out). GPT-2 stores its layers as Conv1D, already
// in × out; nn.Linear (BERT, the Llama family) stores out × in, so its matrices are transposed here, except the MLP's
// F32 weights: they stay in the memory-mapped file as stored (core::LinearWeight keeps the file open and multiplies
// by them transposed), so opening copies none of them; so does an F32 token table (core::WeightMatrix, vocab ×
// d_model as stored: rows read by token id, and the tied LM head's product reads it in place) and an untied LM head.
// BF16 and F16 weights are widened into the model.
//
// Errors: one io::FileError whose message names the file, the tensor and what is wrong (a missing tensor, a
// shape that does not follow from config.json, a NaN), or for a folder that cannot be opened as a model, what
// was found, what is needed and how to convert (for a folder with only pytorch_model.bin).
#pragma once

#include "core/transformer/transformer.h"
#include "io/atomic_file.h"  // FileError

#include <cstdint>
#include <filesystem>
#include <string>

namespace attnviz::io {

// config.json's values, after defaults (GPT-2's n_inner null → 4·n_embd).
core::TransformerConfig readTransformerConfig(const std::filesystem::path& configJson);

// config.json + model.safetensors of `folder`, every tensor the config needs present with its implied shape and
// finite. Throws FileError.
core::TransformerModel loadTransformer(const std::filesystem::path& folder);

// The bytes the float32 weights of a model with this config take (at most what loadTransformer allocates, less
// the F32 MLP weights and tables it leaves in the mapping; it refuses with
// io::OutOfMemory, "needs 6.1 GB; this machine has 3.2 GB free", before allocating when they exceed what is free).
std::uint64_t weightBytes(const core::TransformerConfig& config);

// Whether a weight `model` reads in place from a mapped file lost its values to that file being cut short on disk
// (they read as zeros now: io/safetensors.h): the model is no longer the one on disk, and must be read again.
bool weightsCutShort(const core::TransformerModel& model);

// One sentence saying why `folder` cannot be opened as a model (no config.json, only pytorch_model.bin, another
// model_type, a missing tokenizer file …), or "" when the files a model needs are all there. Reads only
// config.json's model_type; says nothing about the tensors.
std::string checkModelFolder(const std::filesystem::path& folder);

}  // namespace attnviz::io
