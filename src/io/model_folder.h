// model_folder.h — "File ▸ Open model…" and `--model DIR`: a HuggingFace folder (or attnviz's bundled model) into
// a core::TrainedModel, all or nothing. Openers go through io/model_library.h, which calls this once per folder.
//
// Combines checkpoint.h (config.json + model.safetensors), tokenizer_files.h (the tokenizer's files) and, when the
// folder has one, heads.json: a list of {"name", "layer", "head", "what"} naming heads worth a look (0-indexed).
// Errors: one io::FileError; for a folder that is not a model, checkModelFolder's sentence (what was found, what is
// needed).
#pragma once

#include "core/transformer/trained_model.h"
#include "io/atomic_file.h"  // FileError

#include <filesystem>
#include <memory>
#include <string_view>
#include <vector>

namespace attnviz::io {

// The model's name is the folder's, or for a snapshot of the Hugging Face cache its repo id (io/hub_cache.h).
std::shared_ptr<const core::TrainedModel> loadModelFolder(const std::filesystem::path& folder);

// The folder name of attnviz's own small trained model under the assets' models/ directory.
inline constexpr std::string_view kBundledModelName = "attnviz-mini-bert";
// The folder name of attnviz's own small trained decoder (a Llama), beside it. It opens as any model folder does
// (saved and restored by its path); only the BERT is "the bundled model" of sessions and the first screen.
inline constexpr std::string_view kBundledDecoderName = "attnviz-mini-llama";

// heads.json's text → its heads, each checked against the model's layers and heads. `name` starts every error.
std::vector<core::NamedHead> parseNamedHeads(std::string_view json, const core::TransformerConfig& config, std::string_view name);

}  // namespace attnviz::io
