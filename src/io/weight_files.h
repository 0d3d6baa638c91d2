// weight_files.h — trained numbers in: W^Q, W^K, W^V, W^O (+ biases) and an embedding table with its
// vocabulary, read from the files NumPy writes (docs/loading-weights.md extracts them from PyTorch).
//
// The layouts are the core's (it computes X·W, row-major), so a PyTorch Linear's weight arrives transposed:
//   w_q, w_k   d_model × h·d_k   (nn.MultiheadAttention: in_proj_weight[0:E].T, in_proj_weight[E:2E].T)
//   w_v        d_model × h·d_v   (in_proj_weight[2E:3E].T)
//   w_o        h·d_v × d_model   (out_proj.weight.T)
//   b_q, b_k   1-D h·d_k;  b_v 1-D h·d_v;  b_o 1-D d_model (in_proj_bias split in three; out_proj.bias)
//   embeddings vocab_size × d_model; vocabulary: UTF-8 text, one token per line, line n ↔ row n − 1.
// Token lookup is exact (case-sensitive, no normalisation: an uncased vocabulary wants lowercase sentences).
// UNKNOWN TOKENS take the row of "[UNK]" when the vocabulary has that token, else the seeded deterministic
// embedding the core gives every token when there is no table (core::tokenEmbedding), so a sentence never fails
// for a word the vocabulary lacks.
//
// Errors: one io::FileError whose message starts with the file's name and says what is wrong: a shape that does
// not fit the dimensions (the expected and the found shape), a NaN or ±inf (the first bad index), whatever
// readNpy refuses (dtype, byte order, Fortran order, truncation), a vocabulary line that is blank, repeated, holds
// whitespace or is not UTF-8 (with its line number). Nothing is half-loaded: every function returns a complete
// result or throws, and never changes its arguments.
// What this file deliberately does not do: read PyTorch checkpoints, safetensors or .npz, transpose or
// otherwise convert layouts (the exporting script's job), or lowercase and split tokens.
#pragma once

#include "core/model.h"
#include "io/atomic_file.h"  // FileError

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace attnviz::io {

// Which files hold the trained numbers; an empty path means "not given".
struct WeightFiles {
    std::filesystem::path wq, wk, wv, wo;          // all four, or none (the seeded weights)
    std::filesystem::path bq, bk, bv, bo;          // all four, or none (no biases); only together with wq … wo
    std::filesystem::path embeddings, vocabulary;  // both, or none (the seeded embeddings)

    bool hasWeights() const { return !wq.empty(); }
    bool hasBiases() const { return !bq.empty(); }
    bool hasEmbeddings() const { return !embeddings.empty(); }
    friend bool operator==(const WeightFiles&, const WeightFiles&) = default;
};

// What is wrong with which files are given (for example "W^Q is given but W^K is not"), or nothing when the
// set is complete. Says nothing about the files' contents.
std::optional<std::string> incompleteWeightFiles(const WeightFiles& files);

// W^Q, W^K, W^V, W^O and, when given, the four biases, checked against `dims`. Requires files.hasWeights().
core::Weights loadWeights(const WeightFiles& files, const core::Dimensions& dims);

// A vocabulary file's text → token → line index (0-based, = its embedding row). A leading UTF-8 byte order
// mark and each line's trailing '\r' are dropped; a final newline ends the last line and is not a blank line.
using VocabularyIndex = std::unordered_map<std::string, int>;
VocabularyIndex parseVocabulary(std::string_view text, std::string_view nameForErrors);

// The table (vocab_size × d_model, vocab_size = the vocabulary's token count) and its lookup.
std::shared_ptr<const core::EmbeddingTable> loadEmbeddingTable(const std::filesystem::path& embeddings,
                                                               const std::filesystem::path& vocabulary, int dModel);

// `spec` with the files' numbers in its seeded layer: customWeights (and biases set to whether bias files are given)
// when weights are named, embeddingTable when embeddings are named; members whose files are not named are kept.
// Shapes are checked against resolveDimensions(spec.attention) (its InputError propagates for bad sizes); files
// named for a trained model's spec are refused (FileError).
core::ModelSpec withWeightFiles(core::ModelSpec spec, const WeightFiles& files);

}  // namespace attnviz::io
