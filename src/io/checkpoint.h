// checkpoint.h — a HuggingFace GPT-2 or BERT folder into a core::TransformerModel (config.json +
// model.safetensors), checked before it is trusted.
//
// What a folder must hold: config.json with model_type "gpt2" or "bert", model.safetensors (F32, F16 or BF16;
// read through io/safetensors.h), and the tokenizer's files (tokenizer_files.h). Tensor names are accepted with
// or without the "transformer." / "bert." prefix, LayerNorm parameters as weight/bias or gamma/beta; extra
// tensors (lm_head, cls.*, pooler, GPT-2's attn.bias / attn.masked_bias buffers) are ignored.
//
// Orientation: the core applies every layer as X · W (in × out). GPT-2 stores its layers as Conv1D, already
// in × out; BERT's nn.Linear stores out × in, so its matrices are transposed here.
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

// The bytes the float32 weights of a model with this config take (what loadTransformer allocates; it refuses with
// io::OutOfMemory, "needs 6.1 GB; this machine has 3.2 GB free", before allocating when they exceed what is free).
std::uint64_t weightBytes(const core::TransformerConfig& config);

// One sentence saying why `folder` cannot be opened as a model (no config.json, only pytorch_model.bin, another
// model_type, a missing tokenizer file …), or "" when the files a model needs are all there. Reads only
// config.json's model_type; says nothing about the tensors.
std::string checkModelFolder(const std::filesystem::path& folder);

}  // namespace attnviz::io
