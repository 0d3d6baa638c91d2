// checkpoint.cpp — config.json + model.safetensors (or its shards) → core::TransformerModel. See checkpoint.h.
//
// [SECTION] config.json
// [SECTION] the weight files (one, or shards named by model.safetensors.index.json)
// [SECTION] tensor names (prefixes, gamma/beta) and checked reads
// [SECTION] GPT-2, BERT and Llama-family layouts
// [SECTION] the folder
#include "io/checkpoint.h"

#include "core/limits.h"
#include "core/names.h"
#include "io/json_value_text.h"
#include "io/memory_budget.h"
#include "io/safe_read.h"
#include "io/safetensors.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <utility>

namespace attnviz::io {
namespace {

// "GPT-2 (model_type gpt2), BERT (bert), Llama (llama), …": every family of core::kModelFamilies, for the refusal of
// a folder holding another.
std::string openedFamilies() {
    std::string text;
    for (std::size_t i = 0; i < core::kModelFamilies.size(); ++i) {
        const core::FamilyTraits& family = core::kModelFamilies[i];
        text += (i == 0 ? "" : i + 1 == core::kModelFamilies.size() ? " and " : ", ") + std::string(family.name) + " (" +
                (i == 0 ? "model_type " : "") + std::string(family.modelType) + ")";
    }
    return text;
}

namespace fs = std::filesystem;
using json = nlohmann::json;

// [SECTION] config.json

[[noreturn]] void fail(const std::string& file, const std::string& problem) { throw FileError(file + ": " + problem); }

int readInt(const json& config, const char* key, const std::string& file, std::optional<int> fallback = std::nullopt) {
    if (!config.contains(key) || config[key].is_null()) {
        if (fallback) return *fallback;
        fail(file, std::string("has no \"") + key + "\".");
    }
    if (!config[key].is_number_integer() || config[key].get<long long>() < 1 || config[key].get<long long>() > (1 << 24)) {
        fail(file, std::string("\"") + key + "\" must be a whole number from 1 (got " + quotedJsonValue(config[key]) + ").");
    }
    return config[key].get<int>();
}

// The real number `object[key]`, checked to lie in [lowest, highest] (a finite double) before anyone converts it.
double readNumberIn(const json& object, const char* key, double lowest, double highest, const std::string& file) {
    const json& value = object[key];
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < lowest || value.get<double>() > highest) {
        std::ostringstream range;
        range << lowest << " to " << highest;
        fail(file, std::string("\"") + key + "\" must be a number from " + range.str() + " (got " + quotedJsonValue(value) + ").");
    }
    return value.get<double>();
}

// A norm's epsilon: within float's normal range (core/limits.h), so the conversion is exact enough and defined.
float readEpsilon(const json& config, const char* key, float fallback, const std::string& file) {
    if (!config.contains(key)) return fallback;
    return static_cast<float>(readNumberIn(config, key, core::limits::kMinNormEpsilon, core::limits::kMaxNormEpsilon, file));
}

void requireString(const json& config, const char* key, const char* wanted, const char* fallback, const std::string& file) {
    const std::string value = config.contains(key) && config[key].is_string() ? config[key].get<std::string>() : fallback;
    if (value != wanted) fail(file, std::string("\"") + key + "\" is \"" + core::echoed(value) + "\"; attnviz computes \"" + wanted + "\" only.");
}

core::TransformerConfig gpt2Config(const json& j, const core::FamilyTraits&, const std::string& file) {
    core::TransformerConfig c;
    c.layers = readInt(j, "n_layer", file);
    c.dModel = readInt(j, "n_embd", file);
    c.heads = readInt(j, "n_head", file);
    c.dFf = readInt(j, "n_inner", file, 4 * c.dModel);
    c.maxPositions = readInt(j, "n_positions", file, j.contains("n_ctx") ? std::optional<int>(readInt(j, "n_ctx", file)) : std::nullopt);
    c.vocabSize = readInt(j, "vocab_size", file);
    c.layerNormEps = readEpsilon(j, "layer_norm_epsilon", 1e-5f, file);
    requireString(j, "activation_function", "gelu_new", "gelu_new", file);
    // Variants of GPT-2's attention attnviz does not compute: refused by name rather than shown wrong.
    for (const auto& [key, standard] : {std::pair{"scale_attn_weights", true}, std::pair{"scale_attn_by_inverse_layer_idx", false},
                                        std::pair{"reorder_and_upcast_attn", false}}) {
        if (j.contains(key) && j[key].is_boolean() && j[key].get<bool>() != standard) {
            fail(file, std::string("has \"") + key + "\": " + (standard ? "false" : "true") + "; attnviz computes GPT-2's standard attention only.");
        }
    }
    return c;
}

core::TransformerConfig bertConfig(const json& j, const core::FamilyTraits&, const std::string& file) {
    core::TransformerConfig c;
    c.layers = readInt(j, "num_hidden_layers", file);
    c.dModel = readInt(j, "hidden_size", file);
    c.heads = readInt(j, "num_attention_heads", file);
    c.dFf = readInt(j, "intermediate_size", file);
    c.maxPositions = readInt(j, "max_position_embeddings", file);
    c.vocabSize = readInt(j, "vocab_size", file);
    c.typeVocabSize = readInt(j, "type_vocab_size", file, 2);
    c.layerNormEps = readEpsilon(j, "layer_norm_eps", 1e-12f, file);
    requireString(j, "hidden_act", "gelu", "gelu", file);
    requireString(j, "position_embedding_type", "absolute", "absolute", file);
    return c;
}

bool readBool(const json& config, const char* key, bool fallback, const std::string& file) {
    if (!config.contains(key) || config[key].is_null()) return fallback;
    if (!config[key].is_boolean()) fail(file, std::string("\"") + key + "\" must be true or false.");
    return config[key].get<bool>();
}

// A RoPE number (theta, a scaling factor, a context length): positive and at most core::limits::kMaxRopeNumber.
double readRopeNumber(const json& object, const char* key, const std::string& file) {
    if (!object.contains(key)) fail(file, std::string("needs \"") + key + "\" as a positive number.");
    const double value = readNumberIn(object, key, 0.0, core::limits::kMaxRopeNumber, file);
    if (value == 0.0) fail(file, std::string("\"") + key + "\" must be a positive number.");
    return value;
}

// rope_scaling (or, in newer files, rope_parameters): none, "default", or Llama 3's "llama3"; anything else refused.
std::optional<core::Llama3RopeScaling> ropeScalingOf(const json& j, int maxPositions, const std::string& file) {
    const char* key = j.contains("rope_scaling") && !j["rope_scaling"].is_null() ? "rope_scaling" : "rope_parameters";
    if (!j.contains(key) || j[key].is_null()) return std::nullopt;
    const json& scaling = j[key];
    if (!scaling.is_object()) fail(file, std::string("\"") + key + "\" must be an object or null.");
    const json type = scaling.contains("rope_type") ? scaling["rope_type"] : scaling.contains("type") ? scaling["type"] : json("default");
    if (type == "default") return std::nullopt;
    if (type != "llama3") fail(file, "uses RoPE scaling " + quotedJsonValue(type) + "; attnviz computes plain RoPE and Llama 3's \"llama3\" scaling only.");
    core::Llama3RopeScaling s;
    s.factor = readRopeNumber(scaling, "factor", file);
    s.lowFreqFactor = readRopeNumber(scaling, "low_freq_factor", file);
    s.highFreqFactor = readRopeNumber(scaling, "high_freq_factor", file);
    s.originalMaxPositions = scaling.contains("original_max_position_embeddings") ? readRopeNumber(scaling, "original_max_position_embeddings", file)
                                                                                  : static_cast<double>(maxPositions);
    if (!(s.highFreqFactor > s.lowFreqFactor)) fail(file, "has a llama3 RoPE scaling whose high_freq_factor is not above its low_freq_factor.");
    return s;
}

// Which layers slide a window (HF's layer_types): Mistral every layer when sliding_window is set; Qwen2/3 the layers
// from max_window_layers on when use_sliding_window is true, or as an explicit layer_types list says.
std::vector<int> slidingWindowsOf(const json& j, core::SlidingWindows rule, int layers, const std::string& file) {
    if (rule == core::SlidingWindows::None) return {};
    const bool mistral = rule == core::SlidingWindows::EveryLayer, qwen = rule == core::SlidingWindows::QwenLayerRule;
    if (qwen && !readBool(j, "use_sliding_window", false, file)) return {};
    if (!j.contains("sliding_window") || j["sliding_window"].is_null()) return {};
    const int window = readInt(j, "sliding_window", file);
    std::vector<int> windows(static_cast<std::size_t>(layers), mistral ? window : 0);
    if (mistral) return windows;
    if (j.contains("layer_types") && !j["layer_types"].is_null()) {
        const json& types = j["layer_types"];
        if (!types.is_array() || static_cast<int>(types.size()) != layers) fail(file, "\"layer_types\" must list one type per layer.");
        for (int i = 0; i < layers; ++i) {
            const json& t = types[static_cast<std::size_t>(i)];
            if (t == "sliding_attention") windows[static_cast<std::size_t>(i)] = window;
            else if (t != "full_attention") fail(file, "\"layer_types\" holds " + quotedJsonValue(t) + "; attnviz knows full_attention and sliding_attention.");
        }
        return windows;
    }
    const int first = readInt(j, "max_window_layers", file, 28);
    for (int i = first; i < layers; ++i) windows[static_cast<std::size_t>(i)] = window;
    return windows;
}

// Llama, Mistral, Qwen2, Qwen3 (modeling_llama.py and its siblings): the keys their config classes read.
core::TransformerConfig llamaConfig(const json& j, const core::FamilyTraits& family, const std::string& file) {
    core::TransformerConfig c;
    c.layers = readInt(j, "num_hidden_layers", file);
    c.dModel = readInt(j, "hidden_size", file);
    c.heads = readInt(j, "num_attention_heads", file);
    c.kvHeads = readInt(j, "num_key_value_heads", file, c.heads);
    c.headDim = readInt(j, "head_dim", file, c.dModel % c.heads == 0 ? std::optional<int>(c.dModel / c.heads) : std::nullopt);
    if (c.heads % c.kvHeads != 0) {
        fail(file, "says " + std::to_string(c.kvHeads) + " key/value heads, which do not divide the " + std::to_string(c.heads) + " attention heads.");
    }
    if (c.headDim % 2 != 0) fail(file, "has head_dim " + std::to_string(c.headDim) + "; RoPE needs an even head_dim.");
    c.dFf = readInt(j, "intermediate_size", file);
    c.maxPositions = readInt(j, "max_position_embeddings", file);
    c.vocabSize = readInt(j, "vocab_size", file);
    c.layerNormEps = readEpsilon(j, "rms_norm_eps", 1e-6f, file);
    // rope_theta at the top level, or inside rope_parameters (newer files); HF's default 10000.
    const bool nested = j.contains("rope_parameters") && j["rope_parameters"].is_object() && j["rope_parameters"].contains("rope_theta");
    c.ropeTheta = nested ? readRopeNumber(j["rope_parameters"], "rope_theta", file) : j.contains("rope_theta") ? readRopeNumber(j, "rope_theta", file) : 10000.0;
    c.ropeScaling = ropeScalingOf(j, c.maxPositions, file);
    c.slidingWindows = slidingWindowsOf(j, family.slidingWindows, c.layers, file);
    c.tiedEmbeddings = readBool(j, "tie_word_embeddings", false, file);
    c.attentionBias = family.attentionBiases == core::AttentionBiases::QkvOnly || readBool(j, "attention_bias", false, file);
    requireString(j, "hidden_act", "silu", "silu", file);
    if (readBool(j, "mlp_bias", false, file)) fail(file, "has \"mlp_bias\": true; attnviz computes the bias-free SwiGLU MLP only.");
    if (j.contains("partial_rotary_factor") && j["partial_rotary_factor"] != 1.0) {
        fail(file, "has \"partial_rotary_factor\" " + quotedJsonValue(j["partial_rotary_factor"]) + "; attnviz rotates whole heads only.");
    }
    return c;
}

json readConfigJson(const fs::path& path) {
    const json config = json::parse(readJsonFile(path, kMaxConfigBytes), nullptr, false);
    if (config.is_discarded() || !config.is_object()) fail(path.string(), "is not a JSON object.");
    return config;
}

std::string modelTypeOf(const json& config) { return config.contains("model_type") && config["model_type"].is_string() ? config["model_type"].get<std::string>() : ""; }

// [SECTION] the weight files

constexpr const char* kSingleFile = "model.safetensors";
constexpr const char* kShardIndex = "model.safetensors.index.json";

// A shard's name from the index: a plain file name in the model's folder, never a path elsewhere.
void checkShardName(const std::string& shard, const std::string& index) {
    if (shard.empty() || shard == "." || shard == ".." || shard.find_first_of("/\\") != std::string::npos || shard.find('\0') != std::string::npos) {
        fail(index, "names the shard \"" + core::echoed(shard) + "\"; a shard must be a file name in the model's folder, without a path.");
    }
}

// model.safetensors, or the shards model.safetensors.index.json's weight_map names: every tensor found by name.
class CheckpointFiles {
public:
    explicit CheckpointFiles(const fs::path& folder) {
        std::error_code error;
        if (fs::exists(folder / kSingleFile, error)) {
            files_.push_back(std::make_shared<const SafetensorsFile>(folder / kSingleFile));
            for (const auto& [name, entry] : files_.back()->entries()) where_[name] = 0;
            name_ = files_.back()->fileName();
            return;
        }
        const std::string index = (folder / kShardIndex).string();
        name_ = index;
        const json root = json::parse(readJsonFile(folder / kShardIndex, kMaxShardIndexBytes), nullptr, false);
        if (root.is_discarded() || !root.is_object() || !root.contains("weight_map") || !root["weight_map"].is_object()) {
            fail(index, "is not a shard index: it needs a \"weight_map\" object from tensor names to file names.");
        }
        std::map<std::string, std::size_t> opened;
        for (const auto& [tensor, shardJson] : root["weight_map"].items()) {
            if (!shardJson.is_string()) fail(index, "maps \"" + core::echoed(tensor) + "\" to " + quotedJsonValue(shardJson) + ", not a file name.");
            const std::string shard = shardJson.get<std::string>();
            checkShardName(shard, index);
            auto [slot, added] = opened.try_emplace(shard, files_.size());
            if (added) {
                if (!fs::is_regular_file(folder / shard, error)) fail(index, "names the shard \"" + core::echoed(shard) + "\", which is not in " + folder.string() + ".");
                files_.push_back(std::make_shared<const SafetensorsFile>(folder / shard));
            }
            if (!files_[slot->second]->has(tensor)) fail(index, "says \"" + core::echoed(tensor) + "\" is in " + core::echoed(shard) + ", which does not hold it.");
            where_[tensor] = slot->second;
        }
    }
    bool has(const std::string& tensor) const { return where_.count(tensor) > 0; }
    // The dtype holding most of the values (BF16 for a bfloat16 checkpoint with a few F32 buffers); nullopt when it is
    // none attnviz reads weights in.
    std::optional<core::Dtype> mainDtype() const {
        std::map<std::string, std::int64_t> values;
        for (const auto& [tensor, file] : where_) {
            const SafetensorsEntry& entry = files_[file]->entries().at(tensor);
            values[entry.dtype] += std::max<std::int64_t>(entry.elementCount(), 0);
        }
        const auto most = std::max_element(values.begin(), values.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
        return most == values.end() ? std::nullopt : core::valueNamed(most->first, core::kDtypeNames);
    }
    const SafetensorsFile& fileOf(const std::string& tensor) const { return *files_[where_.at(tensor)]; }
    // The file holding `tensor`, shared: a weight read in place from its mapping keeps it open.
    std::shared_ptr<const SafetensorsFile> sharedFileOf(const std::string& tensor) const { return files_[where_.at(tensor)]; }
    // The file named in errors about a missing tensor: the single file, or the index.
    const std::string& name() const { return name_; }

private:
    std::string name_;
    std::vector<std::shared_ptr<const SafetensorsFile>> files_;
    std::map<std::string, std::size_t> where_;  // tensor → index into files_
};

// [SECTION] tensor names and checked reads

// Whether every value is finite, in one vectorised pass over the contiguous data: x − x is 0 for a finite x and NaN
// for NaN or ±∞, and a NaN makes the sum NaN. (Eigen's allFinite walked a row-major matrix column by column.)
bool allFinite(const float* values, Eigen::Index count) {
    const Eigen::Map<const Eigen::ArrayXf> flat(values, count);
    return !std::isnan((flat - flat).sum());
}

enum class Orientation { AsStored, Transposed };

// Finds a tensor under the names checkpoints use: with or without the family's prefix, and a LayerNorm's
// weight/bias also as the original gamma/beta.
class TensorReader {
public:
    TensorReader(const CheckpointFiles& files, std::string prefix) : files_(files), prefix_(std::move(prefix)) {}

    // rows × cols (1 × n for a 1-D tensor), finite, or one FileError naming the tensor. Transposed: stored as
    // cols × rows (nn.Linear's out × in), read as rows × cols.
    core::Matrix read(const std::string& name, Eigen::Index rows, Eigen::Index cols, Orientation orientation = Orientation::AsStored) const {
        const std::string stored = find(name);
        const SafetensorsFile& file = files_.fileOf(stored);
        const bool transposed = orientation == Orientation::Transposed;
        core::Matrix m = transposed ? file.transposedMatrix(stored) : file.matrix(stored);
        if (m.rows() != rows || m.cols() != cols) {
            const Eigen::Index storedRows = transposed ? m.cols() : m.rows(), storedCols = transposed ? m.rows() : m.cols();
            fail(file.fileName(), "tensor \"" + core::echoed(stored) + "\" is " + std::to_string(storedRows) + " × " + std::to_string(storedCols) +
                                      " but config.json implies " + std::to_string(transposed ? cols : rows) + " × " +
                                      std::to_string(transposed ? rows : cols) + ".");
        }
        checkFinite(file, stored, m.data(), m.size());
        return m;
    }
    // nn.Linear's out × in weight as the core applies it, in × out: F32 read in place from the mapping (never
    // copied; the weight keeps the file mapped), other dtypes widened and transposed into the model.
    core::LinearWeight linear(const std::string& name, Eigen::Index in, Eigen::Index out) const {
        if (std::optional<core::WeightMatrix> stored = mapped(name, out, in)) return core::LinearWeight::mappedOutByIn(std::move(*stored));
        return read(name, in, out, Orientation::Transposed);
    }
    // rows × cols as stored (a token table, an LM head): F32 read in place from the mapping like linear(), other
    // dtypes widened into the model.
    core::WeightMatrix table(const std::string& name, Eigen::Index rows, Eigen::Index cols) const {
        if (std::optional<core::WeightMatrix> stored = mapped(name, rows, cols)) return std::move(*stored);
        return read(name, rows, cols);
    }
    core::RowVector vector(const std::string& name, Eigen::Index size) const { return read(name, 1, size); }
    bool has(const std::string& name) const {
        const std::vector<std::string> names = candidates(name);
        return std::any_of(names.begin(), names.end(), [&](const std::string& candidate) { return files_.has(candidate); });
    }
    core::LayerNormWeights norm(const std::string& name, Eigen::Index size) const {
        return {vector(name + ".weight", size), vector(name + ".bias", size)};
    }

private:
    static std::string shapeText(const std::vector<std::int64_t>& shape) {
        std::string text;
        for (std::int64_t size : shape) text += (text.empty() ? "" : " × ") + std::to_string(size);
        return text.empty() ? "a scalar" : text;
    }
    // The rows × cols F32 tensor in place in its file's mapping, shape and values checked; nullopt when it is stored
    // as another dtype (or the file cannot be guarded against being cut short), so the caller copies it instead.
    std::optional<core::WeightMatrix> mapped(const std::string& name, Eigen::Index rows, Eigen::Index cols) const {
        const std::string stored = find(name);
        const SafetensorsFile& file = files_.fileOf(stored);
        const float* values = file.mappedFloats(stored);
        if (values == nullptr) return std::nullopt;
        const std::vector<std::int64_t>& shape = file.entries().at(stored).shape;
        if (shape.size() != 2 || shape[0] != rows || shape[1] != cols) {
            fail(file.fileName(), "tensor \"" + core::echoed(stored) + "\" is " + shapeText(shape) + " but config.json implies " +
                                      std::to_string(rows) + " × " + std::to_string(cols) + ".");
        }
        checkFinite(file, stored, values, rows * cols);
        return core::WeightMatrix(values, rows, cols, files_.sharedFileOf(stored));
    }
    // FileError naming the first value that is not finite; the vectorised pass first, as most tensors are clean.
    static void checkFinite(const SafetensorsFile& file, const std::string& stored, const float* values, Eigen::Index count) {
        if (allFinite(values, count)) return;
        for (Eigen::Index i = 0; i < count; ++i) {
            if (!std::isfinite(values[i])) {
                fail(file.fileName(), "tensor \"" + core::echoed(stored) + "\" holds " + (std::isnan(values[i]) ? "NaN" : "an infinity") +
                                          " at index " + std::to_string(i) + ".");
            }
        }
    }
    std::string find(const std::string& name) const {
        for (const std::string& candidate : candidates(name)) {
            if (files_.has(candidate)) return candidate;
        }
        fail(files_.name(), "has no tensor \"" + prefix_ + name + "\" (nor \"" + name + "\"), which config.json needs.");
    }
    std::vector<std::string> candidates(const std::string& name) const {
        std::vector<std::string> names{prefix_ + name, name};
        const auto swap = [&](const std::string& from, const std::string& to) {
            if (name.size() > from.size() && name.compare(name.size() - from.size(), from.size(), from) == 0) {
                const std::string old = name.substr(0, name.size() - from.size()) + to;
                names.push_back(prefix_ + old);
                names.push_back(old);
            }
        };
        swap(".weight", ".gamma");
        swap(".bias", ".beta");
        return names;
    }

    const CheckpointFiles& files_;
    std::string prefix_;
};

// [SECTION] GPT-2 and BERT layouts

core::BlockWeights gpt2Block(const TensorReader& t, const core::TransformerConfig& c, int layer) {
    const std::string p = "h." + std::to_string(layer) + ".";
    const Eigen::Index d = c.dModel;
    core::BlockWeights block;
    block.ln1 = t.norm(p + "ln_1", d);
    block.ln2 = t.norm(p + "ln_2", d);
    // GPT-2's Conv1D stores its weight in × out (d_model × 3·d_model), unlike nn.Linear: X · c_attn = [Q | K | V],
    // so W^Q, W^K and W^V are its first, second and third block of d_model COLUMNS (and the bias likewise).
    const core::Matrix attn = t.read(p + "attn.c_attn.weight", d, 3 * d);
    const core::RowVector attnBias = t.vector(p + "attn.c_attn.bias", 3 * d);
    core::Weights& a = block.attention;
    a.wq = attn.middleCols(0, d);
    a.wk = attn.middleCols(d, d);
    a.wv = attn.middleCols(2 * d, d);
    a.bq = attnBias.segment(0, d);
    a.bk = attnBias.segment(d, d);
    a.bv = attnBias.segment(2 * d, d);
    a.wo = t.read(p + "attn.c_proj.weight", d, d);  // Conv1D: in × out already
    a.bo = t.vector(p + "attn.c_proj.bias", d);
    block.mlpIn = t.read(p + "mlp.c_fc.weight", d, c.dFf);
    block.mlpInBias = t.vector(p + "mlp.c_fc.bias", c.dFf);
    block.mlpOut = t.read(p + "mlp.c_proj.weight", c.dFf, d);
    block.mlpOutBias = t.vector(p + "mlp.c_proj.bias", d);
    return block;
}

// nn.Linear keeps its weight out × in; the core applies X · W (in × out): read it transposed.
core::Matrix linearWeight(const TensorReader& t, const std::string& name, Eigen::Index in, Eigen::Index out) {
    return t.read(name, in, out, Orientation::Transposed);
}

core::BlockWeights bertBlock(const TensorReader& t, const core::TransformerConfig& c, int layer) {
    const std::string p = "encoder.layer." + std::to_string(layer) + ".";
    const Eigen::Index d = c.dModel;
    core::BlockWeights block;
    core::Weights& a = block.attention;
    a.wq = linearWeight(t, p + "attention.self.query.weight", d, d);
    a.wk = linearWeight(t, p + "attention.self.key.weight", d, d);
    a.wv = linearWeight(t, p + "attention.self.value.weight", d, d);
    a.bq = t.vector(p + "attention.self.query.bias", d);
    a.bk = t.vector(p + "attention.self.key.bias", d);
    a.bv = t.vector(p + "attention.self.value.bias", d);
    a.wo = linearWeight(t, p + "attention.output.dense.weight", d, d);
    a.bo = t.vector(p + "attention.output.dense.bias", d);
    block.ln1 = t.norm(p + "attention.output.LayerNorm", d);
    block.mlpIn = t.linear(p + "intermediate.dense.weight", d, c.dFf);
    block.mlpInBias = t.vector(p + "intermediate.dense.bias", c.dFf);
    block.mlpOut = t.linear(p + "output.dense.weight", c.dFf, d);
    block.mlpOutBias = t.vector(p + "output.dense.bias", d);
    block.ln2 = t.norm(p + "output.LayerNorm", d);
    return block;
}

core::TransformerWeights gpt2Weights(const CheckpointFiles& file, const core::TransformerConfig& c) {
    const TensorReader t(file, "transformer.");
    core::TransformerWeights w;
    w.tokenEmbeddings = t.table("wte.weight", c.vocabSize, c.dModel);
    w.positionEmbeddings = t.read("wpe.weight", c.maxPositions, c.dModel);
    for (int layer = 0; layer < c.layers; ++layer) w.blocks.push_back(gpt2Block(t, c, layer));
    w.finalLayerNorm = t.norm("ln_f", c.dModel);
    return w;
}

// BertForMaskedLM's cls.predictions.* (the decoder is tied to the token table), when the folder has its transform;
// then every part must be there.
std::optional<core::MaskedLmHead> maskedLmHead(const TensorReader& t, const core::TransformerConfig& c) {
    if (!t.has("cls.predictions.transform.dense.weight")) return std::nullopt;  // bare cls.predictions.bias: no head
    core::MaskedLmHead head;
    head.transform = linearWeight(t, "cls.predictions.transform.dense.weight", c.dModel, c.dModel);
    head.transformBias = t.vector("cls.predictions.transform.dense.bias", c.dModel);
    head.norm = t.norm("cls.predictions.transform.LayerNorm", c.dModel);
    head.bias = t.vector("cls.predictions.bias", c.vocabSize);
    return head;
}

core::TransformerWeights bertWeights(const CheckpointFiles& file, const core::TransformerConfig& c) {
    const TensorReader t(file, "bert.");
    core::TransformerWeights w;
    w.tokenEmbeddings = t.table("embeddings.word_embeddings.weight", c.vocabSize, c.dModel);
    w.positionEmbeddings = t.read("embeddings.position_embeddings.weight", c.maxPositions, c.dModel);
    w.tokenTypeEmbeddings = t.read("embeddings.token_type_embeddings.weight", c.typeVocabSize, c.dModel);
    w.embeddingLayerNorm = t.norm("embeddings.LayerNorm", c.dModel);
    for (int layer = 0; layer < c.layers; ++layer) w.blocks.push_back(bertBlock(t, c, layer));
    w.maskedLm = maskedLmHead(t, c);
    return w;
}

// HF names (modeling_llama.py LlamaDecoderLayer): model.layers.N.self_attn.{q,k,v,o}_proj, q_norm / k_norm (Qwen3),
// mlp.{gate,up,down}_proj, input_layernorm, post_attention_layernorm; every Linear stored out × in.
core::BlockWeights llamaBlock(const TensorReader& t, const core::TransformerConfig& c, int layer) {
    const std::string p = "layers." + std::to_string(layer) + ".";
    const Eigen::Index d = c.dModel, q = static_cast<Eigen::Index>(c.heads) * c.headWidth(), kv = static_cast<Eigen::Index>(c.keyValueHeads()) * c.headWidth();
    core::BlockWeights block;
    core::Weights& a = block.attention;
    a.wq = linearWeight(t, p + "self_attn.q_proj.weight", d, q);
    a.wk = linearWeight(t, p + "self_attn.k_proj.weight", d, kv);
    a.wv = linearWeight(t, p + "self_attn.v_proj.weight", d, kv);
    a.wo = linearWeight(t, p + "self_attn.o_proj.weight", q, d);
    if (c.attentionBias) {
        a.bq = t.vector(p + "self_attn.q_proj.bias", q);
        a.bk = t.vector(p + "self_attn.k_proj.bias", kv);
        a.bv = t.vector(p + "self_attn.v_proj.bias", kv);
        if (c.traits().attentionBiases != core::AttentionBiases::QkvOnly) a.bo = t.vector(p + "self_attn.o_proj.bias", d);
    }
    if (c.traits().qkNorm) {
        a.qNorm = t.vector(p + "self_attn.q_norm.weight", c.headWidth());
        a.kNorm = t.vector(p + "self_attn.k_norm.weight", c.headWidth());
        a.qkNormEps = c.layerNormEps;
    }
    block.ln1.gamma = t.vector(p + "input_layernorm.weight", d);
    block.ln2.gamma = t.vector(p + "post_attention_layernorm.weight", d);
    block.mlpGate = t.linear(p + "mlp.gate_proj.weight", d, c.dFf);
    block.mlpIn = t.linear(p + "mlp.up_proj.weight", d, c.dFf);
    block.mlpOut = t.linear(p + "mlp.down_proj.weight", c.dFf, d);
    return block;
}

core::TransformerWeights llamaWeights(const CheckpointFiles& files, const core::TransformerConfig& c) {
    const TensorReader t(files, "model.");
    core::TransformerWeights w;
    w.tokenEmbeddings = t.table("embed_tokens.weight", c.vocabSize, c.dModel);
    for (int layer = 0; layer < c.layers; ++layer) w.blocks.push_back(llamaBlock(t, c, layer));
    w.finalLayerNorm.gamma = t.vector("norm.weight", c.dModel);
    if (!c.tiedEmbeddings) w.lmHead = TensorReader(files, "").table("lm_head.weight", c.vocabSize, c.dModel);
    return w;
}

// [SECTION] one reader per tensor layout

struct LayoutReader {
    core::ModelFamily layout;
    core::TransformerConfig (*config)(const json& config, const core::FamilyTraits& family, const std::string& file);
    core::TransformerWeights (*weights)(const CheckpointFiles& files, const core::TransformerConfig& config);
};

constexpr std::array<LayoutReader, 3> kLayoutReaders{{
    {core::ModelFamily::Gpt2, gpt2Config, gpt2Weights},
    {core::ModelFamily::Bert, bertConfig, bertWeights},
    {core::ModelFamily::Llama, llamaConfig, llamaWeights},
}};

const LayoutReader& readerOf(core::ModelFamily layout) {
    return *std::find_if(kLayoutReaders.begin(), kLayoutReaders.end(), [&](const LayoutReader& reader) { return reader.layout == layout; });
}

// [SECTION] the folder

std::string listed(const std::vector<std::string>& names) {
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return text;
}

// Needs only PyTorch (no safetensors package): every floating tensor as F32 (tied weights written twice, integer and
// bool buffers left out), in the layout safetensors.h reads.
constexpr const char* kConvertCommand =
    "python3 -c \"import torch,json,struct,itertools as it;"
    "t={k:v.float().contiguous().numpy() for k,v in torch.load('pytorch_model.bin',map_location='cpu',weights_only=True).items() if v.is_floating_point()};"
    "e=it.accumulate(a.nbytes for a in t.values());"
    "h=json.dumps({k:{'dtype':'F32','shape':list(a.shape),'data_offsets':[n-a.nbytes,n]} for (k,a),n in zip(t.items(),e)}).encode();"
    "open('model.safetensors','wb').write(struct.pack('<Q',len(h))+h+b''.join(a.tobytes() for a in t.values()))\"";

}  // namespace

core::TransformerConfig readTransformerConfig(const fs::path& configJson) {
    const json config = readConfigJson(configJson);
    const std::string type = modelTypeOf(config);
    const std::string file = configJson.string();
    const core::FamilyTraits* family = core::findModelFamily(type);
    if (!family) fail(file, "has model_type \"" + core::echoed(type) + "\"; attnviz opens " + core::openedModelTypes() + " models.");
    core::TransformerConfig c = readerOf(family->layout).config(config, *family, file);
    c.family = family->layout;
    c.modelType = type;
    if (!family->groupedQueryAttention && c.dModel % c.heads != 0) fail(file, "says " + std::to_string(c.heads) + " heads, which do not divide the width " + std::to_string(c.dModel) + ".");
    return c;
}

std::uint64_t weightBytes(const core::TransformerConfig& c) {
    const long double d = c.dModel, ff = c.dFf, vocabulary = c.vocabSize;
    long double embeddings = 0, block = 0;
    if (c.traits().groupedQueryAttention) {
        // W^Q, W^O: d × h·d_k; W^K, W^V: d × h_kv·d_k (grouped); SwiGLU's three d × ff; biases and norms; an LM head
        // of its own unless it is the embedding table.
        const long double query = static_cast<long double>(c.heads) * c.headWidth(), keyValue = static_cast<long double>(c.keyValueHeads()) * c.headWidth();
        embeddings = vocabulary * d * (c.tiedEmbeddings ? 1 : 2);
        block = 2 * d * query + 2 * d * keyValue + 3 * d * ff + 2 * (query + keyValue) + 3 * d + 2 * c.headWidth();
    } else {
        embeddings = (vocabulary + c.maxPositions + c.typeVocabSize) * d;
        block = 4 * d * d + 2 * d * ff + ff + 9 * d;  // W^Q,K,V,O; the MLP; biases and two LayerNorms
    }
    const long double values = embeddings + c.layers * block + 4 * d;
    const long double bytes = values * sizeof(float);
    return bytes >= static_cast<long double>(UINT64_MAX) ? UINT64_MAX : static_cast<std::uint64_t>(bytes);
}

core::TransformerModel loadTransformer(const fs::path& folder) {
    core::TransformerModel model;
    model.config = readTransformerConfig(folder / "config.json");
    requireMemory(weightBytes(model.config), "This model (" + std::to_string(model.config.layers) + " layers, width " +
                                                 std::to_string(model.config.dModel) + ", " + std::to_string(model.config.vocabSize) +
                                                 " tokens)");
    const CheckpointFiles files(folder);
    model.weights = readerOf(model.config.family).weights(files, model.config);
    model.storedDtype = files.mainDtype();
    return model;
}

bool weightsCutShort(const core::TransformerModel& model) {
    const auto cut = [](const auto& weight) { return weight.isMapped() && mappedValuesCutShort(weight.data()); };
    const core::TransformerWeights& w = model.weights;
    return cut(w.tokenEmbeddings) || cut(w.lmHead) ||
           std::any_of(w.blocks.begin(), w.blocks.end(), [&](const core::BlockWeights& b) { return cut(b.mlpIn) || cut(b.mlpGate) || cut(b.mlpOut); });
}

std::string checkModelFolder(const fs::path& folder) {
    std::error_code error;
    const std::string name = folder.string();
    if (!fs::is_directory(folder, error)) return name + " is not a folder: a model is a folder holding config.json, model.safetensors and its tokenizer's files.";
    if (fileIsMissing(folder / "config.json")) {
        return name + " has no config.json, so it is not a HuggingFace model folder (it needs config.json, model.safetensors and the tokenizer's files).";
    }
    std::string type;
    try {
        type = modelTypeOf(readConfigJson(folder / "config.json"));
    } catch (const FileError& e) {
        return e.what();
    }
    const core::FamilyTraits* family = core::findModelFamily(type);
    if (!family) {
        return name + " holds a \"" + (type.empty() ? "(no model_type)" : core::echoed(type)) +
               "\" model; attnviz opens " + openedFamilies() + ".";
    }
    if (fileIsMissing(folder / kSingleFile) && fileIsMissing(folder / kShardIndex)) {
        if (!fileIsMissing(folder / "pytorch_model.bin")) {
            return name + " has only pytorch_model.bin; attnviz reads model.safetensors (no pickle code runs). Convert it once in that folder with: " +
                   std::string(kConvertCommand);
        }
        return name + " has no model.safetensors (the weights), nor model.safetensors.index.json naming its shards.";
    }
    if (fs::exists(folder / "tokenizer.json", error)) return "";
    const std::vector<std::string> needed = family->vocabulary == core::VocabularyFiles::ByteLevelBpe ? std::vector<std::string>{"vocab.json", "merges.txt"}
                                                                                                    : std::vector<std::string>{"vocab.txt"};
    std::vector<std::string> missing;
    for (const std::string& file : needed) {
        if (fileIsMissing(folder / file)) missing.push_back(file);
    }
    if (!missing.empty()) {
        return name + " lacks the tokenizer's " + listed(missing) + " (a " + std::string(family->name) + " folder needs tokenizer.json or " + listed(needed) +
               "; they come with the model's download).";
    }
    return "";
}

}  // namespace attnviz::io
