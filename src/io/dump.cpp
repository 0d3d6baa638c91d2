// dump.cpp — writes a ModelRun as .npy files + manifest.json. See dump.h for the folder's contents.
//
// [SECTION] the list of files (what each one is, in words and symbols)
// [SECTION] the folder (refuse, write beside, swap in)
// [SECTION] manifest.json (and the predictions in it)
#include "io/dump.h"

#include "core/derived_maps.h"
#include "core/names.h"
#include "core/stages.h"
#include "core/head_measures.h"
#include "core/transformer/logit_lens.h"
#include "core/transformer/prediction.h"
#include "core/transformer/rollout.h"
#include "io/atomic_file.h"
#include "io/npy.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <string>
#include <system_error>

#include <cerrno>
#include <cstdio>    // renameat2, RENAME_EXCHANGE (glibc 2.28 and later)
#include <cstring>   // strerror
#include <fcntl.h>     // AT_FDCWD, open
#include <sys/file.h>  // flock
#include <unistd.h>    // getpid

namespace attnviz::io {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;  // keeps the manifest in the order written: program first, files last

constexpr std::string_view kProgramName = "attnviz";
constexpr std::string_view kManifestName = "manifest.json";
constexpr std::string_view kHeadRolesName = "head_roles.json";

// [SECTION] the list of files

struct DumpEntry {
    std::string key;      // file name without ".npy"
    std::string symbol;   // as in the paper: "A_i"
    std::string meaning;  // one plain sentence
    std::string dims;     // the shape in dimension names: "b × h × l × l"
    const core::Tensor* tensor;  // its shape, and its data unless derived
    const core::Trace* derivedIn = nullptr;  // a map the Trace derives on demand: made whole only while written
    core::TensorId id = core::TensorId::X;
};

// The biases as nn.Linear keeps them, 1-D: b_q (h·d_k), b_k (h·d_k), b_v (h·d_v), b_o (d_model).
using BiasTensors = std::array<core::Tensor, 4>;

core::Tensor toVector(const core::RowVector& row) {
    core::Tensor tensor({static_cast<int>(row.size())});
    std::copy(row.data(), row.data() + row.size(), tensor.data.begin());
    return tensor;
}

BiasTensors biasTensorsOf(const core::Weights& weights) {
    return {toVector(weights.bq), toVector(weights.bk), toVector(weights.bv), toVector(weights.bo)};
}

void addTraceEntries(const core::Trace& trace, std::vector<DumpEntry>& entries) {
    for (int index = 0; index < core::kTensorCount; ++index) {
        const auto id = static_cast<core::TensorId>(index);
        if (!trace.has(id)) continue;
        const core::TensorInfo& info = core::tensorInfo(id);
        entries.push_back({std::string(info.key), std::string(info.symbol), std::string(info.meaning),
                           core::symbolicShape(id, trace), &trace[id], trace.isDerived(id) ? &trace : nullptr, id});
    }
}

// The biases the layer has (Qwen2 has b^Q, b^K, b^V but no b^O).
void addBiasEntries(const BiasTensors& biases, const core::Trace& trace, std::vector<DumpEntry>& entries) {
    const std::string kv = trace.dims.kvHeads != trace.dims.heads ? "h_kv" : "h";
    const std::array<DumpEntry, 4> all{{{"b_q", "b^Q", "Query bias: added to every row of X W^Q.", "h·d_k", &biases[0]},
                                        {"b_k", "b^K", "Key bias: added to every row of X W^K.", kv + "·d_k", &biases[1]},
                                        {"b_v", "b^V", "Value bias: added to every row of X W^V.", kv + "·d_v", &biases[2]},
                                        {"b_o", "b^O", "Output bias: added to every row of Z W^O.", "d_model", &biases[3]}}};
    for (const DumpEntry& entry : all) {
        if (!entry.tensor->empty()) entries.push_back(entry);
    }
}

void addEmbeddingEntries(const core::ModelRun& run, std::vector<DumpEntry>& entries) {
    const bool cross = run.trace.cross;
    entries.push_back({"embeddings", "E[ids]",
                       std::string("Token embeddings before positions are added: one row per ") +
                           (cross ? "encoder " : "") + "token, zero rows for padding.",
                       cross ? "b × l_k × d_model" : "b × l × d_model", &run.embeddings});
    if (!run.queryEmbeddings.empty()) {
        entries.push_back({"query_embeddings", "E[ids_dec]",
                           "The decoder's token embeddings before positions are added, zero rows for padding.",
                           "b × l_q × d_model", &run.queryEmbeddings});
    }
    const core::TrainedModel* model = run.spec.trainedModel();
    const bool rotary = model && model->config().traits().positions == core::PositionKind::Rotary;
    const std::string positions = rotary ? "Zeros: a RoPE model adds no position rows; positions turn q and k inside attention instead."
                                  : model
                                      ? "The model's learned position embeddings, rows 0 … l − 1 (added to the token embeddings before block 0)."
                                      : "The sinusoidal positional encoding added to row p of every sentence (zeros when positions are off).";
    entries.push_back({"positions", "PE", positions, cross ? "max(l_q, l_k) × d_model" : "l × d_model", &run.positions});
}

// A trained model's whole pass, as HuggingFace's output_hidden_states and output_attentions give it.
void addModelPassEntries(const core::TransformerPass& pass, std::vector<DumpEntry>& entries) {
    entries.push_back({"hidden_states", "h",
                       "The residual stream entering each block (h_0 = the embeddings), and last the model's output "
                       "(after the final norm for decoders); zero rows for padding.",
                       "(n_layers + 1) × b × l × d_model", &pass.hiddenStates});
    entries.push_back({"all_attention_weights", "A",
                       "Every layer's attention weights, with the model's own heads (one map per query head).", "n_layers × b × h × l × l",
                       &pass.attentionWeights});
}

std::vector<DumpEntry> dumpEntries(const core::ModelRun& run, const BiasTensors& biases) {
    std::vector<DumpEntry> entries;
    addTraceEntries(run.trace, entries);
    addBiasEntries(biases, run.trace, entries);
    addEmbeddingEntries(run, entries);
    if (run.modelPass) addModelPassEntries(*run.modelPass, entries);
    return entries;
}

// Every file name any dump can contain, whatever its parameters.
std::set<std::string> possibleDumpFileNames() {
    std::set<std::string> names{std::string(kManifestName), std::string(kHeadRolesName)};
    for (int index = 0; index < core::kTensorCount; ++index) {
        names.insert(std::string(core::tensorInfo(static_cast<core::TensorId>(index)).key) + ".npy");
    }
    for (const char* key : {"b_q", "b_k", "b_v", "b_o", "embeddings", "query_embeddings", "positions", "hidden_states",
                            "all_attention_weights", "logits", "logit_lens_top_ids", "logit_lens_top_logprobs", "logit_lens_logprobs", "rollout", "repeated_tokens_attention"}) {
        names.insert(std::string(key) + ".npy");
    }
    return names;
}

// [SECTION] the folder
//
// A dump is written into a new hidden sibling of `dir` and then put in place in one step: renamed to `dir` when
// there is none, else swapped with the old folder (renameat2 RENAME_EXCHANGE), whose files that are not dump files
// were first hard-linked into the new one (its folders are moved across after the swap). A failure or a kill
// before the swap leaves the old folder exactly as it was; after it, the new dump is complete.
// Both folders are flock()ed while the dump works on them, so the next dump of the same target can tell a sibling
// in use from one a killed dump left: those it sweeps (removeStaleSiblings), moving any folder the user kept in
// the old dump back beside the new one first.

// Whether `dir` exists, refusing what cannot hold a dump: a file, a non-empty folder unless forced, a folder holding
// one of the run's inputs (a forced dump would replace the weights it reads).
bool checkTarget(const fs::path& dir, bool force, const std::vector<fs::path>& inputs) {
    std::error_code error;
    const fs::file_status status = fs::status(dir, error);
    if (status.type() == fs::file_type::not_found) return false;
    if (error) throw FileError("Cannot dump into " + quoted(dir) + ": " + error.message() + ".");
    if (!fs::is_directory(status)) throw FileError("Cannot dump into " + quoted(dir) + ": it exists and is not a directory.");
    for (const fs::path& input : inputs) {
        if (input.empty()) continue;
        std::error_code ignored;
        for (fs::path folder = fs::absolute(input, ignored).lexically_normal(); !folder.empty(); folder = folder.parent_path()) {
            if (fs::equivalent(folder, dir, ignored)) {
                throw FileError("Cannot dump into " + quoted(dir) + ": it holds " + quoted(input) + ", which this run reads; choose another directory.");
            }
            if (folder == folder.root_path()) break;
        }
    }
    const bool empty = fs::is_empty(dir, error);
    if (error) throw FileError("Cannot dump into " + quoted(dir) + ": " + error.message() + ".");
    if (!empty && !force) {
        throw FileError("Cannot dump into " + quoted(dir) + ": it is not empty (choose a new or empty directory, or use --force to replace its dump files).");
    }
    return true;
}

// A folder held with flock(LOCK_EX) from construction to destruction; the lock follows the folder through
// renames. `held()` is false when the folder could not be opened or someone else holds it (`wait` false).
class FolderLock {
public:
    FolderLock(const fs::path& folder, bool wait) : fd_(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) {
        if (fd_ >= 0 && ::flock(fd_, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0) {
            ::close(fd_);
            fd_ = -1;
        }
    }
    ~FolderLock() {
        if (fd_ >= 0) ::close(fd_);
    }
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;
    bool held() const { return fd_ >= 0; }

private:
    int fd_;
};

// `dir` absolute, without a trailing separator: the name its siblings are made from.
fs::path targetOf(const fs::path& dir) {
    fs::path target = fs::absolute(dir).lexically_normal();
    return target.has_filename() ? target : target.parent_path();
}

// ".<name>.dump-": how every sibling of the target <name> begins; then "<pid>-<n>".
std::string siblingPrefix(const fs::path& target) { return std::string(".").append(target.filename().string()).append(".dump-"); }

bool isSiblingName(const std::string& name, const std::string& prefix) {
    if (!name.starts_with(prefix)) return false;
    const std::string rest = name.substr(prefix.size());
    const std::size_t dash = rest.find('-');
    const auto digits = [](std::string_view text) { return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }); };
    return dash != std::string::npos && digits(std::string_view(rest).substr(0, dash)) && digits(std::string_view(rest).substr(dash + 1));
}

// The old folder's own folders moved into `dir`; true when all of them moved (none is then left behind in it).
bool moveFoldersInto(const fs::path& oldDir, const fs::path& dir) {
    bool all = true;
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator(oldDir, error)) {
        if (!entry.is_directory() || entry.is_symlink()) continue;
        std::error_code moved;
        if (fs::exists(dir / entry.path().filename(), moved)) moved = std::make_error_code(std::errc::file_exists);
        else fs::rename(entry.path(), dir / entry.path().filename(), moved);
        all = all && !moved;
    }
    return all && !error;
}

// After the swap: the old folder's own folders moved into `dir`, then the old folder (its dump files and the
// second names of the linked files) removed. A folder that cannot be moved keeps the old folder where it is.
void retireOldFolder(const fs::path& oldDir, const fs::path& dir) {
    std::error_code error;
    if (moveFoldersInto(oldDir, dir)) fs::remove_all(oldDir, error);  // only the old dump is left in it: a failure here loses nothing
}

// Siblings of `target` a killed dump left (named as createSibling names them, real folders, no process holding
// their lock, unchanged for io::kStaleLeftoverAge): retired as after a swap. Before the swap a sibling holds only
// dump files and second names of the target's files, after it the old dump and perhaps the user's folders, which
// go back beside the new dump. Best effort: anything that cannot be checked stays.
void removeStaleSiblings(const fs::path& target) {
    const std::string prefix = siblingPrefix(target);
    std::error_code error;
    fs::directory_iterator entries(target.parent_path(), error);
    for (; !error && entries != fs::directory_iterator(); entries.increment(error)) {
        const fs::path& path = entries->path();
        std::error_code checked;
        if (!isSiblingName(path.filename().string(), prefix) || !fs::is_directory(fs::symlink_status(path, checked))) continue;
        const auto age = fs::file_time_type::clock::now() - fs::last_write_time(path, checked);
        if (checked || age < kStaleLeftoverAge) continue;
        const FolderLock lock(path, false);
        if (lock.held()) retireOldFolder(path, target);
    }
}

// A new empty folder beside `target`, ".<name>.dump-<pid>-<n>", locked before anything is written into it.
fs::path createSibling(const fs::path& target, std::optional<FolderLock>& lock) {
    std::error_code error;
    fs::create_directories(target.parent_path(), error);
    if (error) throw FileError("Cannot create the directory " + quoted(target.parent_path()) + ": " + error.message() + ".");
    const std::string prefix = siblingPrefix(target) + std::to_string(::getpid()) + "-";
    for (int attempt = 0; attempt < 100; ++attempt) {
        const fs::path sibling = target.parent_path() / (prefix + std::to_string(attempt));
        if (fs::create_directory(sibling, error)) {
            lock.emplace(sibling, true);
            return sibling;
        }
        if (error) break;
    }
    throw FileError("Cannot create a folder beside " + quoted(target) + ": " + (error ? error.message() : "too many exist") + ".");
}

// The old folder's files that are not dump files, hard-linked into the new one (no bytes copied).
void linkOtherFiles(const fs::path& oldDir, const fs::path& newDir) {
    const std::set<std::string> dumpNames = possibleDumpFileNames();
    for (const fs::directory_entry& entry : fs::directory_iterator(oldDir)) {
        const std::string name = entry.path().filename().string();
        if (dumpNames.contains(name) || (entry.is_directory() && !entry.is_symlink())) continue;
        std::error_code error;
        fs::create_hard_link(entry.path(), newDir / name, error);
        if (error) throw FileError("Cannot keep " + quoted(entry.path()) + " in the new dump folder: " + error.message() + ".");
    }
}

// Puts the complete folder `written` in place of `dir` in one step (see the section's comment); throws only when
// nothing has moved. Afterwards `written` names the old folder, when there was one.
void putInPlace(const fs::path& written, const fs::path& dir, bool dirExists) {
    const int moved = dirExists ? ::renameat2(AT_FDCWD, written.c_str(), AT_FDCWD, dir.c_str(), RENAME_EXCHANGE) : ::rename(written.c_str(), dir.c_str());
    if (moved != 0) throw FileError("Cannot put the new dump in place of " + quoted(dir) + ": " + std::strerror(errno) + ".");
}

// [SECTION] manifest.json

json parametersJson(const core::ModelRun& run) {
    const core::ModelSpec& spec = run.spec;
    const core::SeededLayer& seeded = core::seededChoices(spec);  // a trained model's: the defaults
    return {
        {"d_model", run.dims.dModel},
        {"heads", run.dims.heads},
        {"d_k", run.dims.dK},
        {"d_v", run.dims.dV},
        {"scale", run.dims.scale},
        {"scale_is_default", !spec.attention.scale.has_value()},
        {"seed", seeded.seed},
        {"mask", core::nameOf(spec.attention.mask)},
        {"fill", core::nameOf(spec.attention.fill)},
        {"softmax", core::nameOf(spec.attention.softmax)},
        {"positional", seeded.positional},
        {"cls", seeded.prependCls},
        {"biases", run.weights.hasBiases()},
        {"cross", run.trace.cross},
        {"token_limit", spec.tokenLimit},
        {"custom_weights", seeded.customWeights != nullptr},
    };
}

// Which trained model, which of its layers the stepped files hold, and the config values that size it.
json modelJson(const core::TrainedModel& model, int layer) {
    const core::TransformerConfig& config = model.config();
    json sizes = {{"d_model", config.dModel}, {"heads", config.heads}, {"d_ff", config.dFf},
                  {"max_positions", config.maxPositions}, {"vocab_size", config.vocabSize},
                  {"type_vocab_size", config.typeVocabSize}, {"layer_norm_eps", config.layerNormEps}};
    if (config.traits().groupedQueryAttention) {
        sizes["kv_heads"] = config.keyValueHeads();
        sizes["head_dim"] = config.headWidth();
        sizes["rope_theta"] = config.ropeTheta;
        sizes["llama3_rope_scaling"] = config.ropeScaling.has_value();
        sizes["sliding_windows"] = config.slidingWindows;
        sizes["tie_word_embeddings"] = config.tiedEmbeddings;
    }
    return {
        {"type", config.traits().modelType},
        {"name", model.name},
        {"path", model.folder},
        {"layer", layer},
        {"n_layers", config.layers},
        {"config", std::move(sizes)},
    };
}

json fileJson(const DumpEntry& entry) {
    return {
        {"file", entry.key + ".npy"},
        {"tensor", entry.key},
        {"symbol", entry.symbol},
        {"meaning", entry.meaning},
        {"shape", entry.tensor->shape},
        {"dims", entry.dims},
        {"dtype", "<f4"},
    };
}

// [b, row] for every query row whose keys are all masked (softmax cannot normalise it).
json fullyMaskedRowsJson(const core::Trace& trace) {
    json rows = json::array();
    for (std::size_t index = 0; index < trace.fullyMaskedRows.size(); ++index) {
        if (trace.fullyMaskedRows[index] == 0 || trace.queryLength == 0) continue;
        rows.push_back({index / static_cast<std::size_t>(trace.queryLength), index % static_cast<std::size_t>(trace.queryLength)});
    }
    return rows;
}

// [SECTION] predictions

std::string kindName(core::PredictionKind kind) {
    switch (kind) {
        case core::PredictionKind::NextToken: return "next_token";
        case core::PredictionKind::MaskedWord: return "masked_word";
        case core::PredictionKind::None: break;
    }
    return "none";
}

// The top k at every position of every sentence, with the tokenizer's pieces.
json predictionsJson(const core::ModelRun& run, const core::Tensor& logits, const PredictionOptions& options) {
    const core::TrainedModel& model = *run.spec.trainedModel();
    const core::PredictionKind kind = core::predictionKind(model.transformer);
    json predictions = {{"kind", kindName(kind)}};
    if (kind == core::PredictionKind::None) {
        predictions["why"] = core::whyNoPrediction(model.transformer);
        return predictions;
    }
    predictions["meaning"] = kind == core::PredictionKind::NextToken
                                 ? "The token after each position: softmax(logits / temperature) of the LM head on the last hidden state."
                                 : "The word at each position (a [MASK]'s fill): softmax(logits / temperature) of the masked-word head.";
    predictions["temperature"] = options.temperature;
    predictions["k"] = options.topK;
    json sentences = json::array();
    for (int b = 0; b < run.trace.batch; ++b) {
        json positions = json::array();
        const std::vector<int>& ids = run.tokenIds[static_cast<std::size_t>(b)];
        for (std::size_t p = 0; p < ids.size(); ++p) {
            const core::MatrixView rows(logits.data.data() + static_cast<std::size_t>(b) * logits.dim(1) * logits.dim(2), logits.dim(1), logits.dim(2));
            json top = json::array();
            for (const core::TokenChoice& choice : core::topTokens(rows.row(static_cast<Eigen::Index>(p)), options.topK, options.temperature)) {
                top.push_back({{"id", choice.id}, {"token", model.tokenizer->pieceOf(choice.id)}, {"probability", choice.probability}, {"logit", choice.logit}});
            }
            positions.push_back({{"position", p}, {"token", model.tokenizer->pieceOf(ids[p])}, {"top", std::move(top)}});
        }
        sentences.push_back(std::move(positions));
    }
    predictions["top"] = std::move(sentences);
    return predictions;
}

json manifestJson(const core::ModelRun& run, const std::vector<DumpEntry>& entries, const std::optional<json>& predictions) {
    json manifest = {
        {"program", kProgramName},
        {"version", ATTNVIZ_VERSION},
        {"parameters", parametersJson(run)},
        {"batch", run.trace.batch},
        {"sentences", run.spec.sentences},
        {"tokens", run.tokens},
        {"lengths", run.trace.keyLengths},
        {"padded_length", run.trace.keyLength},
    };
    if (const core::TrainedLayer* trained = run.spec.trained()) {
        manifest["token_ids"] = run.tokenIds;
        manifest["model"] = modelJson(*trained->model, trained->layer);
    }
    if (run.trace.cross) {
        manifest["decoder_sentences"] = run.spec.seeded()->decoderSentences;
        manifest["query_tokens"] = run.queryTokens;
        manifest["query_lengths"] = run.trace.queryLengths;
        manifest["padded_query_length"] = run.trace.queryLength;
    }
    if (!run.spec.headsOff.empty()) {
        json off = json::array();
        for (const core::HeadAblation& a : run.spec.headsOff) {
            off.push_back({{"layer", a.layer}, {"head", a.head}, {"mode", a.mode == core::HeadOffMode::Zero ? "zero" : "mean"}});
        }
        manifest["heads_off"] = std::move(off);  // every number of this dump is the ablated run's
    }
    manifest["fully_masked_rows"] = fullyMaskedRowsJson(run.trace);
    if (predictions) manifest["predictions"] = *predictions;
    json files = json::array();
    for (const DumpEntry& entry : entries) files.push_back(fileJson(entry));
    manifest["files"] = std::move(files);
    return manifest;
}

// The logits at every position (b × l × vocab), when the run is a trained model's that predicts; else empty.
core::Tensor logitsOf(const core::ModelRun& run) {
    const core::TrainedModel* model = run.spec.trainedModel();
    if (!model || !run.modelPass || core::predictionKind(model->transformer) == core::PredictionKind::None) return {};
    return core::allPredictionLogits(model->transformer, *run.modelPass, run.trace.keyLengths);
}

// [SECTION] issue 35's analyses

// What the analyses add: tensors for .npy entries and the head roles' JSON.
struct Analyses {
    core::Tensor lensIds, lensLogProbs, lensAll, rollout;  // (n + 1) × b × l × k (twice), (n + 1) × b × l × vocab, n × b × l × l
    std::optional<json> headRoles;
    core::Tensor repeatedAttention;  // n_layers × 1 × h × l_r × l_r: the head roles' repeated random tokens' pass
};

// Per-sentence tensors (each X × l_b × Y, with Y = l_b when `square`) stacked as X × b × l × Y (l: the padded
// length), padded cells `fill`.
core::Tensor stackSentences(const std::vector<core::Tensor>& sentences, int padded, bool square, float fill) {
    const int outer = sentences.front().dim(0), batch = static_cast<int>(sentences.size());
    const int width = square ? padded : sentences.front().dim(2);
    core::Tensor stacked({outer, batch, padded, width});
    std::fill(stacked.data.begin(), stacked.data.end(), fill);
    for (int b = 0; b < batch; ++b) {
        const core::Tensor& one = sentences[static_cast<std::size_t>(b)];
        for (int i = 0; i < outer; ++i) {
            Eigen::Map<core::Matrix>(stacked.sliceData(i * batch + b), padded, width).topLeftCorner(one.dim(1), one.dim(2)) = one.slice(i);
        }
    }
    return stacked;
}

json headRolesJson(const core::ModelRun& run, const core::TrainedModel& model, core::Tensor& repeatedAttention) {
    const core::TransformerConfig& c = model.config();
    core::HeadRoles roles = core::headRolesOnRepeats(model.transformer, *model.tokenizer, run.modelPass->attentionWeights, 0, run.tokenIds[0]);
    repeatedAttention = std::move(roles.repeatedAttention);
    json measuredOn = json::object();
    for (core::HeadRole role : core::kHeadRoles) {
        measuredOn[std::string(core::headRoleKey(role))] = core::measuredOnRepeatedTokens(role) ? "repeated_random_tokens" : "sentence";
    }
    json heads = json::array();
    for (int layer = 0; layer < c.layers; ++layer) {
        for (int head = 0; head < c.heads; ++head) {
            json scores = json::object();
            for (core::HeadRole role : core::kHeadRoles) scores[std::string(core::headRoleKey(role))] = roles.scores[static_cast<std::size_t>(role)](layer, head);
            const std::string strongest(core::headRoleKey(core::strongestRole(roles, layer, head)));
            heads.push_back({{"layer", layer}, {"head", head}, {"scores", std::move(scores)}, {"strongest", strongest}});
        }
    }
    return {{"definition", "TransformerLens head_detector's 'mul' score, sum(A * P) / sum(A), for a 0/1 detection pattern P "
                           "(transformer_lens/head_detector.py): previous_token P[q, q-1]; duplicate_token P[q, k] for earlier k "
                           "with the same token; induction the duplicate pattern shifted one key right; first_token P[q, 0]; self P[q, q]."},
            {"sentence", 0},
            {"sentence_token_ids", run.tokenIds[0]},
            {"repeated_random_tokens", roles.repeated},
            {"measured_on", std::move(measuredOn)},
            {"heads", std::move(heads)}};
}

// The analyses `options` asks for, checked before anything is written.
Analyses analysesOf(const core::ModelRun& run, const AnalysisOptions& options, const PredictionOptions& predictions) {
    Analyses analyses;
    if (!options.logitLens && !options.rollout && !options.headRoles) return analyses;
    const core::TrainedModel* model = run.spec.trainedModel();
    if (!model || !run.modelPass) {
        throw core::InputError("--logit-lens, --rollout and --head-roles read a trained model's layers (--model); the seeded layer has one.");
    }
    const core::TransformerConfig& c = model->config();
    const std::vector<int>& lengths = run.trace.keyLengths;
    const int padded = run.trace.keyLength;
    if (options.logitLens) {
        const std::uint64_t bytes = static_cast<std::uint64_t>(c.layers + 1) * lengths.size() * padded * c.vocabSize * sizeof(float);
        if (predictions.logits && bytes > options.maxLensBytes) {
            throw core::InputError("Every logit-lens log-probability would take " + std::to_string(bytes) + " bytes (" + std::to_string(bytes >> 20) +
                                   " MiB), more than the " + std::to_string(options.maxLensBytes >> 20) + " MiB a dump writes: leave out --logits "
                                   "(the top k are still written) or use a shorter sentence.");
        }
        std::vector<core::Tensor> ids, logProbs, all;
        for (std::size_t b = 0; b < lengths.size(); ++b) {
            core::LensTop top = core::logitLensTop(model->transformer, *run.modelPass, static_cast<int>(b), lengths[b], predictions.topK);
            ids.push_back(std::move(top.ids));
            logProbs.push_back(std::move(top.logProbs));
            if (predictions.logits) all.push_back(core::logitLensLogProbs(model->transformer, *run.modelPass, static_cast<int>(b), lengths[b]));
        }
        analyses.lensIds = stackSentences(ids, padded, false, -1.0f);
        analyses.lensLogProbs = stackSentences(logProbs, padded, false, 0.0f);
        if (predictions.logits) analyses.lensAll = stackSentences(all, padded, false, 0.0f);
    }
    if (options.rollout) {
        std::vector<core::Tensor> rollouts;
        for (std::size_t b = 0; b < lengths.size(); ++b) rollouts.push_back(core::attentionRollout(run.modelPass->attentionWeights, static_cast<int>(b), lengths[b]));
        analyses.rollout = stackSentences(rollouts, padded, true, 0.0f);
    }
    if (options.headRoles) analyses.headRoles = headRolesJson(run, *model, analyses.repeatedAttention);
    return analyses;
}

void addAnalysisEntries(const Analyses& analyses, std::vector<DumpEntry>& entries) {
    if (!analyses.lensIds.empty()) {
        entries.push_back({"logit_lens_top_ids", "lens ids",
                           "The logit lens (raw, no learned translator): each layer's residual stream through the final norm and the "
                           "prediction head; the k most likely token ids at each position, most likely first (-1 for padding).",
                           "(n_layers + 1) × b × l × k", &analyses.lensIds});
        entries.push_back({"logit_lens_top_logprobs", "lens log p", "Their log-probabilities (0 for padding).", "(n_layers + 1) × b × l × k",
                           &analyses.lensLogProbs});
    }
    if (!analyses.lensAll.empty()) {
        entries.push_back({"logit_lens_logprobs", "lens log p", "Every token's log-probability under the logit lens (zero rows for padding).",
                           "(n_layers + 1) × b × l × vocab", &analyses.lensAll});
    }
    if (!analyses.rollout.empty()) {
        entries.push_back({"rollout", "R",
                           "Attention rollout (Abnar & Zuidema 2020) through layers 0 … i: R_i = Ã_i R_(i-1), Ã = ½ mean_h A + ½ I with "
                           "rows renormalised; attention only, the MLPs left out (zeros for padding).",
                           "n_layers × b × l × l", &analyses.rollout});
    }
    if (!analyses.repeatedAttention.empty()) {
        entries.push_back({"repeated_tokens_attention", "A",
                           "Every layer's attention on head_roles.json's repeated random tokens, where its duplicate-token and "
                           "induction scores are measured.",
                           "n_layers × 1 × h × l_r × l_r", &analyses.repeatedAttention});
    }
}

// Every file of the dump into the empty folder `dir`, manifest.json last; the paths written, in order.
std::vector<fs::path> writeDumpFiles(const core::ModelRun& run, const fs::path& dir, const PredictionOptions& options, const core::Tensor& logits,
                                     const std::optional<json>& predictions, const Analyses& analyses) {
    const BiasTensors biases = biasTensorsOf(run.weights);
    std::vector<DumpEntry> entries = dumpEntries(run, biases);
    if (options.logits) {
        entries.push_back({"logits", "logits",
                           "The prediction head's logits at every position (decoders: the next token; BERT: the word there), zero rows for padding.",
                           "b × l × vocab", &logits});
    }
    addAnalysisEntries(analyses, entries);
    std::vector<fs::path> written;
    for (const DumpEntry& entry : entries) {
        written.push_back(dir / (entry.key + ".npy"));
        if (entry.derivedIn != nullptr) {
            writeNpy(written.back(), core::materialize(*entry.derivedIn, entry.id));
        } else {
            writeNpy(written.back(), *entry.tensor);
        }
    }
    if (analyses.headRoles) {
        written.push_back(dir / kHeadRolesName);
        writeFileAtomically(written.back(), analyses.headRoles->dump(2) + "\n");
    }
    // Invalid UTF-8 cannot reach here (the tokenizer rejects it), but a replacement character beats a throw.
    const std::string manifest = manifestJson(run, entries, predictions).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    written.push_back(dir / kManifestName);
    writeFileAtomically(written.back(), manifest);
    return written;
}

}  // namespace

std::vector<fs::path> writeDump(const core::ModelRun& run, const fs::path& dir, bool force, const PredictionOptions& options,
                                const std::vector<fs::path>& inputs, const AnalysisOptions& analysisOptions) {
    const core::Tensor logits = logitsOf(run);
    if (options.logits && logits.empty()) {
        throw core::InputError(run.spec.trained() ? core::whyNoPrediction(run.spec.trainedModel()->transformer) + " (--logits)"
                                                : "--logits needs a trained model with an LM or masked-word head (--model); the seeded layer predicts no tokens.");
    }
    std::optional<json> predictions;
    if (run.spec.trained()) predictions = predictionsJson(run, logits, options);  // checks k and the temperature
    const Analyses analyses = analysesOf(run, analysisOptions, options);
    const bool dirExists = checkTarget(dir, force, inputs);
    const fs::path target = targetOf(dirExists ? fs::canonical(dir) : dir);  // a link to a folder: the folder is replaced
    std::optional<FolderLock> oldLock, newLock;
    if (dirExists) oldLock.emplace(target, true);  // after the swap it names the old folder, until that is retired
    removeStaleSiblings(target);
    const fs::path sibling = createSibling(target, newLock);
    std::vector<fs::path> written;
    try {
        written = writeDumpFiles(run, sibling, options, logits, predictions, analyses);
        if (dirExists) linkOtherFiles(target, sibling);
        putInPlace(sibling, target, dirExists);
    } catch (...) {
        std::error_code error;
        fs::remove_all(sibling, error);  // the new folder, never put in place
        throw;
    }
    if (dirExists) retireOldFolder(sibling, target);
    for (fs::path& path : written) path = dir / path.filename();
    return written;
}

}  // namespace attnviz::io
