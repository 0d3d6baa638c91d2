// checkpoint.cpp — config.json + model.safetensors → core::TransformerModel. See checkpoint.h.
//
// [SECTION] config.json
// [SECTION] tensor names (prefixes, gamma/beta) and checked reads
// [SECTION] GPT-2 and BERT layouts
// [SECTION] the folder
#include "io/checkpoint.h"

#include "io/json_value_text.h"
#include "io/memory_budget.h"
#include "io/safe_read.h"
#include "io/safetensors.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>
#include <utility>

namespace attnviz::io {
namespace {

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

float readFloat(const json& config, const char* key, float fallback, const std::string& file) {
    if (!config.contains(key)) return fallback;
    if (!config[key].is_number() || !(config[key].get<double>() > 0.0)) fail(file, std::string("\"") + key + "\" must be a positive number.");
    return config[key].get<float>();
}

void requireString(const json& config, const char* key, const char* wanted, const char* fallback, const std::string& file) {
    const std::string value = config.contains(key) && config[key].is_string() ? config[key].get<std::string>() : fallback;
    if (value != wanted) fail(file, std::string("\"") + key + "\" is \"" + core::echoed(value) + "\"; attnviz computes \"" + wanted + "\" only.");
}

core::TransformerConfig gpt2Config(const json& j, const std::string& file) {
    core::TransformerConfig c;
    c.family = core::ModelFamily::Gpt2;
    c.layers = readInt(j, "n_layer", file);
    c.dModel = readInt(j, "n_embd", file);
    c.heads = readInt(j, "n_head", file);
    c.dFf = readInt(j, "n_inner", file, 4 * c.dModel);
    c.maxPositions = readInt(j, "n_positions", file, j.contains("n_ctx") ? std::optional<int>(readInt(j, "n_ctx", file)) : std::nullopt);
    c.vocabSize = readInt(j, "vocab_size", file);
    c.layerNormEps = readFloat(j, "layer_norm_epsilon", 1e-5f, file);
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

core::TransformerConfig bertConfig(const json& j, const std::string& file) {
    core::TransformerConfig c;
    c.family = core::ModelFamily::Bert;
    c.layers = readInt(j, "num_hidden_layers", file);
    c.dModel = readInt(j, "hidden_size", file);
    c.heads = readInt(j, "num_attention_heads", file);
    c.dFf = readInt(j, "intermediate_size", file);
    c.maxPositions = readInt(j, "max_position_embeddings", file);
    c.vocabSize = readInt(j, "vocab_size", file);
    c.typeVocabSize = readInt(j, "type_vocab_size", file, 2);
    c.layerNormEps = readFloat(j, "layer_norm_eps", 1e-12f, file);
    requireString(j, "hidden_act", "gelu", "gelu", file);
    requireString(j, "position_embedding_type", "absolute", "absolute", file);
    return c;
}

json readConfigJson(const fs::path& path) {
    const json config = json::parse(readJsonFile(path, kMaxConfigBytes), nullptr, false);
    if (config.is_discarded() || !config.is_object()) fail(path.string(), "is not a JSON object.");
    return config;
}

std::string modelTypeOf(const json& config) { return config.contains("model_type") && config["model_type"].is_string() ? config["model_type"].get<std::string>() : ""; }

// [SECTION] tensor names and checked reads

// Finds a tensor under the names checkpoints use: with or without the family's prefix, and a LayerNorm's
// weight/bias also as the original gamma/beta.
class TensorReader {
public:
    TensorReader(const SafetensorsFile& file, std::string prefix) : file_(file), prefix_(std::move(prefix)) {}

    // rows × cols (1 × n for a 1-D tensor), finite, or one FileError naming the tensor.
    core::Matrix read(const std::string& name, Eigen::Index rows, Eigen::Index cols) const {
        const std::string stored = find(name);
        core::Matrix m = file_.matrix(stored);
        if (m.rows() != rows || m.cols() != cols) {
            fail(file_.fileName(), "tensor \"" + core::echoed(stored) + "\" is " + std::to_string(m.rows()) + " × " + std::to_string(m.cols()) +
                                       " but config.json implies " + std::to_string(rows) + " × " + std::to_string(cols) + ".");
        }
        if (m.allFinite()) return m;  // vectorised; the loop below only finds the first bad index
        for (Eigen::Index i = 0; i < m.size(); ++i) {
            if (!std::isfinite(m.data()[i])) {
                fail(file_.fileName(), "tensor \"" + core::echoed(stored) + "\" holds " + (std::isnan(m.data()[i]) ? "NaN" : "an infinity") +
                                           " at index " + std::to_string(i) + ".");
            }
        }
        return m;
    }
    core::RowVector vector(const std::string& name, Eigen::Index size) const { return read(name, 1, size); }
    core::LayerNormWeights norm(const std::string& name, Eigen::Index size) const {
        return {vector(name + ".weight", size), vector(name + ".bias", size)};
    }

private:
    std::string find(const std::string& name) const {
        for (const std::string& candidate : candidates(name)) {
            if (file_.has(candidate)) return candidate;
        }
        fail(file_.fileName(), "has no tensor \"" + prefix_ + name + "\" (nor \"" + name + "\"), which config.json needs.");
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

    const SafetensorsFile& file_;
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
    return t.read(name, out, in).transpose();
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
    block.mlpIn = linearWeight(t, p + "intermediate.dense.weight", d, c.dFf);
    block.mlpInBias = t.vector(p + "intermediate.dense.bias", c.dFf);
    block.mlpOut = linearWeight(t, p + "output.dense.weight", c.dFf, d);
    block.mlpOutBias = t.vector(p + "output.dense.bias", d);
    block.ln2 = t.norm(p + "output.LayerNorm", d);
    return block;
}

core::TransformerWeights gpt2Weights(const SafetensorsFile& file, const core::TransformerConfig& c) {
    const TensorReader t(file, "transformer.");
    core::TransformerWeights w;
    w.tokenEmbeddings = t.read("wte.weight", c.vocabSize, c.dModel);
    w.positionEmbeddings = t.read("wpe.weight", c.maxPositions, c.dModel);
    for (int layer = 0; layer < c.layers; ++layer) w.blocks.push_back(gpt2Block(t, c, layer));
    w.finalLayerNorm = t.norm("ln_f", c.dModel);
    return w;
}

core::TransformerWeights bertWeights(const SafetensorsFile& file, const core::TransformerConfig& c) {
    const TensorReader t(file, "bert.");
    core::TransformerWeights w;
    w.tokenEmbeddings = t.read("embeddings.word_embeddings.weight", c.vocabSize, c.dModel);
    w.positionEmbeddings = t.read("embeddings.position_embeddings.weight", c.maxPositions, c.dModel);
    w.tokenTypeEmbeddings = t.read("embeddings.token_type_embeddings.weight", c.typeVocabSize, c.dModel);
    w.embeddingLayerNorm = t.norm("embeddings.LayerNorm", c.dModel);
    for (int layer = 0; layer < c.layers; ++layer) w.blocks.push_back(bertBlock(t, c, layer));
    return w;
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
    "t={k:v.float().contiguous().numpy() for k,v in torch.load('pytorch_model.bin',map_location='cpu').items() if v.is_floating_point()};"
    "e=it.accumulate(a.nbytes for a in t.values());"
    "h=json.dumps({k:{'dtype':'F32','shape':list(a.shape),'data_offsets':[n-a.nbytes,n]} for (k,a),n in zip(t.items(),e)}).encode();"
    "open('model.safetensors','wb').write(struct.pack('<Q',len(h))+h+b''.join(a.tobytes() for a in t.values()))\"";

}  // namespace

core::TransformerConfig readTransformerConfig(const fs::path& configJson) {
    const json config = readConfigJson(configJson);
    const std::string type = modelTypeOf(config);
    const std::string file = configJson.string();
    core::TransformerConfig c;
    if (type == "gpt2") c = gpt2Config(config, file);
    else if (type == "bert") c = bertConfig(config, file);
    else fail(file, "has model_type \"" + core::echoed(type) + "\"; attnviz opens \"gpt2\" and \"bert\" models.");
    if (c.dModel % c.heads != 0) fail(file, "says " + std::to_string(c.heads) + " heads, which do not divide the width " + std::to_string(c.dModel) + ".");
    return c;
}

std::uint64_t weightBytes(const core::TransformerConfig& c) {
    const long double d = c.dModel, ff = c.dFf;
    const long double embeddings = (static_cast<long double>(c.vocabSize) + c.maxPositions + c.typeVocabSize) * d;
    const long double block = 4 * d * d + 2 * d * ff + ff + 9 * d;  // W^Q,K,V,O; the MLP; biases and two LayerNorms
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
    const SafetensorsFile file(folder / "model.safetensors");
    model.weights = model.config.family == core::ModelFamily::Gpt2 ? gpt2Weights(file, model.config) : bertWeights(file, model.config);
    return model;
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
    if (type != "gpt2" && type != "bert") {
        return name + " holds a \"" + (type.empty() ? "(no model_type)" : core::echoed(type)) + "\" model; attnviz opens GPT-2 (model_type gpt2) and BERT (bert) models.";
    }
    if (fileIsMissing(folder / "model.safetensors")) {
        if (!fileIsMissing(folder / "pytorch_model.bin")) {
            return name + " has only pytorch_model.bin; attnviz reads model.safetensors (no pickle code runs). Convert it once in that folder with: " +
                   std::string(kConvertCommand);
        }
        return name + " has no model.safetensors (the weights).";
    }
    const std::vector<std::string> needed = type == "gpt2" ? std::vector<std::string>{"vocab.json", "merges.txt"} : std::vector<std::string>{"vocab.txt"};
    std::vector<std::string> missing;
    for (const std::string& file : needed) {
        if (fileIsMissing(folder / file)) missing.push_back(file);
    }
    if (!missing.empty()) {
        return name + " lacks the tokenizer's " + listed(missing) + " (a " + (type == "gpt2" ? "GPT-2" : "BERT") + " folder needs " + listed(needed) +
               "; they come with the model's download).";
    }
    return "";
}

}  // namespace attnviz::io
