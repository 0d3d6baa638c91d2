// weight_files.cpp — .npy weights and embedding tables, and vocabulary files. See weight_files.h.
//
// [SECTION] messages
// [SECTION] weights
// [SECTION] vocabulary and embedding table
#include "io/weight_files.h"

#include "core/display_text.h"
#include "core/unicode.h"
#include "io/npy.h"
#include "io/safe_read.h"
#include "io/safe_read.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <system_error>
#include <vector>

namespace attnviz::io {
namespace {

namespace fs = std::filesystem;

// [SECTION] messages

// "'name' problem", the form readNpy's errors take. Built by appending (GCC 12's false -Wrestrict on "'" + s).
std::string aboutFile(std::string_view name, std::string_view problem) {
    std::string text(1, '\'');
    text.append(name).append("' ").append(problem);
    return text;
}

// Python's repr of a shape tuple, as NumPy prints `array.shape`: "(5,)", "(2, 3)".
std::string shapeLiteral(const std::vector<int>& shape) {
    std::string text = "(";
    for (std::size_t axis = 0; axis < shape.size(); ++axis) text += (axis > 0 ? ", " : "") + std::to_string(shape[axis]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

// The index tuple of flat element `flat` in a C-order array: "[3, 5]".
std::string indexLiteral(std::size_t flat, const std::vector<int>& shape) {
    std::vector<std::size_t> index(shape.size());
    for (std::size_t axis = shape.size(); axis-- > 0;) {
        const auto extent = static_cast<std::size_t>(shape[axis]);
        index[axis] = flat % extent;
        flat /= extent;
    }
    std::string text = "[";
    for (std::size_t axis = 0; axis < index.size(); ++axis) text += (axis > 0 ? ", " : "") + std::to_string(index[axis]);
    return text + "]";
}

// A token as a message quotes it: cut and escaped (core::echoed), so a fuzzed megabyte-long line or an escape
// sequence never reaches the message whole.
std::string shortQuote(std::string_view token) { return "\"" + core::echoed(token) + "\""; }

// [SECTION] weights

// A .npy that must have shape `expected` and hold finite values; `symbol` and `dimensionNames` ("W^Q",
// "d_model x h*d_k") say in messages what it is.
core::Tensor readChecked(const fs::path& path, const std::vector<int>& expected, std::string_view symbol,
                         std::string_view dimensionNames) {
    core::Tensor tensor = readNpy(path);
    if (tensor.shape != expected) {
        throw FileError(aboutFile(path.string(), "has shape " + shapeLiteral(tensor.shape) + " but " + std::string(symbol) +
                                                     " must be " + shapeLiteral(expected) + " (" + std::string(dimensionNames) + ")."));
    }
    for (std::size_t i = 0; i < tensor.size(); ++i) {
        if (!std::isfinite(tensor.data[i])) {
            const std::string value = std::isnan(tensor.data[i]) ? "NaN" : (tensor.data[i] > 0 ? "inf" : "-inf");
            throw FileError(aboutFile(path.string(), "holds " + value + " at index " + indexLiteral(i, tensor.shape) +
                                                         "; " + std::string(symbol) + " must hold finite numbers."));
        }
    }
    return tensor;
}

core::Matrix readMatrix(const fs::path& path, int rows, int cols, std::string_view symbol, std::string_view dimensionNames) {
    const core::Tensor tensor = readChecked(path, {rows, cols}, symbol, dimensionNames);
    return core::MatrixView(tensor.data.data(), rows, cols);
}

core::RowVector readBias(const fs::path& path, int width, std::string_view symbol, std::string_view dimensionNames) {
    const core::Tensor tensor = readChecked(path, {width}, symbol, dimensionNames);
    return Eigen::Map<const core::RowVector>(tensor.data.data(), width);
}

// [SECTION] vocabulary and embedding table

constexpr std::string_view kUtf8ByteOrderMark = "\xEF\xBB\xBF";
constexpr std::string_view kUnknownToken = "[UNK]";

bool isBlank(std::string_view line) { return line.find_first_not_of(" \t\v\f\r") == std::string_view::npos; }
bool holdsWhitespace(std::string_view line) { return line.find_first_of(" \t\v\f\r") != std::string_view::npos; }

// Line n of the vocabulary (1-based in messages) → its checked token.
std::string_view checkedToken(std::string_view line, std::size_t lineNumber, std::string_view name) {
    const std::string where = "line " + std::to_string(lineNumber);
    if (const std::size_t offset = core::findInvalidUtf8(line); offset != std::string_view::npos) {
        throw FileError(aboutFile(name, where + " is not valid UTF-8 (byte " + std::to_string(offset + 1) + " of the line)."));
    }
    if (isBlank(line)) throw FileError(aboutFile(name, where + " is blank; every line must hold one token."));
    if (holdsWhitespace(line)) {
        throw FileError(aboutFile(name, where + " (" + shortQuote(line) +
                                            ") holds whitespace, which no token can (sentences are split at whitespace)."));
    }
    return line;
}

}  // namespace

std::optional<std::string> incompleteWeightFiles(const WeightFiles& f) {
    const auto allOrNone = [](std::initializer_list<std::pair<std::string_view, const fs::path*>> group) -> std::optional<std::string> {
        const auto given = [](const auto& entry) { return !entry.second->empty(); };
        const auto first = std::find_if(group.begin(), group.end(), given);
        const auto missing = std::find_if_not(group.begin(), group.end(), given);
        if (first == group.end() || missing == group.end()) return std::nullopt;
        return std::string(first->first) + " is given but " + std::string(missing->first) + " is not: give all of " +
               std::string(group.begin()->first) + " ... " + std::string((group.end() - 1)->first) + " or none.";
    };
    if (auto problem = allOrNone({{"w_q", &f.wq}, {"w_k", &f.wk}, {"w_v", &f.wv}, {"w_o", &f.wo}})) return problem;
    if (auto problem = allOrNone({{"b_q", &f.bq}, {"b_k", &f.bk}, {"b_v", &f.bv}, {"b_o", &f.bo}})) return problem;
    if (auto problem = allOrNone({{"embeddings", &f.embeddings}, {"vocabulary", &f.vocabulary}})) return problem;
    if (f.hasBiases() && !f.hasWeights()) return "bias files are given without weight files (w_q ... w_o).";
    return std::nullopt;
}

core::Weights loadWeights(const WeightFiles& files, const core::Dimensions& dims) {
    const int hk = dims.heads * dims.dK, hv = dims.heads * dims.dV;
    core::Weights weights;
    weights.wq = readMatrix(files.wq, dims.dModel, hk, "W^Q", "d_model x h*d_k");
    weights.wk = readMatrix(files.wk, dims.dModel, hk, "W^K", "d_model x h*d_k");
    weights.wv = readMatrix(files.wv, dims.dModel, hv, "W^V", "d_model x h*d_v");
    weights.wo = readMatrix(files.wo, hv, dims.dModel, "W^O", "h*d_v x d_model");
    if (files.hasBiases()) {
        weights.bq = readBias(files.bq, hk, "b^Q", "h*d_k");
        weights.bk = readBias(files.bk, hk, "b^K", "h*d_k");
        weights.bv = readBias(files.bv, hv, "b^V", "h*d_v");
        weights.bo = readBias(files.bo, dims.dModel, "b^O", "d_model");
    }
    return weights;
}

VocabularyIndex parseVocabulary(std::string_view text, std::string_view name) {
    if (text.starts_with(kUtf8ByteOrderMark)) text.remove_prefix(kUtf8ByteOrderMark.size());
    if (text.ends_with('\n')) text.remove_suffix(1);  // the last line's newline, not a blank line after it
    if (text.empty()) throw FileError(aboutFile(name, "holds no tokens; give one token per line."));
    VocabularyIndex index;
    std::size_t lineNumber = 0;
    for (std::size_t start = 0; start <= text.size(); ++lineNumber) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string_view line = text.substr(start, end - start);
        if (line.ends_with('\r')) line.remove_suffix(1);
        start = end + 1;
        const auto [entry, added] = index.try_emplace(std::string(checkedToken(line, lineNumber + 1, name)), static_cast<int>(lineNumber));
        if (!added) {
            throw FileError(aboutFile(name, "line " + std::to_string(lineNumber + 1) + " repeats " + shortQuote(line) +
                                                " from line " + std::to_string(entry->second + 1) + "; every token must be unique."));
        }
    }
    return index;
}

std::shared_ptr<const core::EmbeddingTable> loadEmbeddingTable(const fs::path& embeddings, const fs::path& vocabulary, int dModel) {
    auto table = std::make_shared<core::EmbeddingTable>();
    table->index = parseVocabulary(readFileCapped(vocabulary, kMaxVocabularyBytes), vocabulary.string());
    const int vocabularySize = static_cast<int>(table->index.size());
    table->rows = readMatrix(embeddings, vocabularySize, dModel, "the embedding table",
                             "vocab_size x d_model, with vocab_size = the " + std::to_string(vocabularySize) + " tokens of '" +
                                 vocabulary.string() + "'");
    const auto unknown = table->index.find(std::string(kUnknownToken));
    table->unknownRow = unknown != table->index.end() ? unknown->second : -1;
    return table;
}

core::ModelSpec withWeightFiles(core::ModelSpec spec, const WeightFiles& files) {
    if (const auto problem = incompleteWeightFiles(files)) throw FileError("Weight files: " + *problem);
    if (!files.hasWeights() && !files.hasEmbeddings()) return spec;
    core::SeededLayer* seeded = spec.seeded();
    if (!seeded) throw FileError("Loaded .npy weights belong to the seeded model; " + spec.trainedModel()->name + " has its own weights.");
    const core::Dimensions dims = core::resolveDimensions(spec.attention);
    if (files.hasWeights()) {
        seeded->customWeights = std::make_shared<const core::Weights>(loadWeights(files, dims));
        seeded->biases = files.hasBiases();
    }
    if (files.hasEmbeddings()) seeded->embeddingTable = loadEmbeddingTable(files.embeddings, files.vocabulary, dims.dModel);
    return spec;
}

}  // namespace attnviz::io
