// tokenizer_json.h — a HuggingFace tokenizer.json (the tokenizers library's one-file format) into the plain data
// core::PipelineTokenizer runs: added tokens, normalizer, pre-tokenizer, model, post-processor, and from the decoder
// only how pieces are labelled.
//
// What is read, and what each step does, is listed in core/tokenizers/pipeline.h; truncation and padding are
// ignored. A step attnviz does not run (the Unigram model, the Precompiled normalizer, …) is refused with one
// sentence naming it. Limits against absurd files: at most kMaxTokenizerJsonBytes, JSON nested at most 64 deep,
// ids below 2^24.
// Errors: io::FileError, "<name>: <what is wrong>".
#pragma once

#include "core/tokenizers/pipeline.h"
#include "io/atomic_file.h"  // FileError

#include <cstddef>
#include <string>
#include <string_view>

namespace attnviz::io {

inline constexpr std::size_t kMaxTokenizerJsonBytes = std::size_t{256} << 20;  // Llama-3's is 9 MB, Qwen's 11 MB

core::TokenizerDefinition parseTokenizerJson(std::string_view json, const std::string& name);

}  // namespace attnviz::io
