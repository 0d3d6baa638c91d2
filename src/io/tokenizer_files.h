// tokenizer_files.h — a HuggingFace folder's tokenizer files into a core::Tokenizer.
//
//   tokenizer.json, when the folder has one (io/tokenizer_json.h; any family), else the classic files:
//   GPT-2 and the Llama family: vocab.json (piece → id) + merges.txt (one merge a line, by rank; a "#version" first line skipped)
//   BERT:  vocab.txt (one piece a line, line n ↔ id n − 1) + tokenizer_config.json when present
//          (do_lower_case, strip_accents, tokenize_chinese_chars; uncased when absent unless the folder's
//          config says otherwise)
// Errors: io::FileError naming the file and line or key.
#pragma once

#include "core/transformer/transformer.h"  // ModelFamily
#include "core/tokenizers/tokenizer.h"
#include "io/atomic_file.h"  // FileError

#include <filesystem>
#include <memory>

namespace attnviz::io {

inline constexpr const char* kTokenizerJson = "tokenizer.json";

std::shared_ptr<const core::Tokenizer> loadTokenizer(const std::filesystem::path& folder, core::ModelFamily family);
// One tokenizer.json file (io::FileError naming it when it cannot be used).
std::shared_ptr<const core::Tokenizer> loadTokenizerJson(const std::filesystem::path& path);

}  // namespace attnviz::io
