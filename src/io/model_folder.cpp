// model_folder.cpp — a model folder into a TrainedModel. See model_folder.h.
#include "io/model_folder.h"

#include "core/display_text.h"
#include "io/checkpoint.h"
#include "io/hub_cache.h"
#include "io/safe_read.h"
#include "io/tokenizer_files.h"

#include <nlohmann/json.hpp>

namespace attnviz::io {
namespace {

constexpr std::size_t kMaxHeadDescription = 600;  // characters of a head's "what" shown

std::string entryError(std::string_view name, std::size_t index, const std::string& problem) {
    return std::string(name) + ": entry " + std::to_string(index) + " " + problem;
}

std::string stringMember(const nlohmann::json& entry, const char* key, std::string_view name, std::size_t index) {
    if (!entry.contains(key) || !entry[key].is_string()) throw FileError(entryError(name, index, std::string("needs \"") + key + "\" as a string."));
    return entry[key].get<std::string>();
}

// A 0-based layer or head index below `count`.
int indexMember(const nlohmann::json& entry, const char* key, int count, std::string_view name, std::size_t index) {
    if (!entry.contains(key) || !entry[key].is_number_integer()) {
        throw FileError(entryError(name, index, std::string("needs \"") + key + "\" as a whole number."));
    }
    const long long number = entry[key].get<long long>();
    if (number < 0 || number >= count) {
        throw FileError(entryError(name, index, "names " + std::string(key) + " " + std::to_string(number) + ", but the model's are 0 to " +
                                                    std::to_string(count - 1) + "."));
    }
    return static_cast<int>(number);
}

}  // namespace

std::vector<core::NamedHead> parseNamedHeads(std::string_view json, const core::TransformerConfig& config, std::string_view name) {
    requireJsonDepth(json, name);
    const nlohmann::json root = nlohmann::json::parse(json, nullptr, false);
    if (root.is_discarded()) throw FileError(std::string(name) + ": not valid JSON.");
    if (!root.is_array()) throw FileError(std::string(name) + ": must be a list of {\"name\", \"layer\", \"head\", \"what\"}.");
    std::vector<core::NamedHead> heads;
    for (std::size_t i = 0; i < root.size(); ++i) {
        const nlohmann::json& entry = root[i];
        if (!entry.is_object()) throw FileError(std::string(name) + ": entry " + std::to_string(i) + " is not an object.");
        core::NamedHead head;
        head.name = core::echoed(stringMember(entry, "name", name, i));  // shown on screen: cut and escaped
        head.what = core::echoed(stringMember(entry, "what", name, i), kMaxHeadDescription);
        head.layer = indexMember(entry, "layer", config.layers, name, i);
        head.head = indexMember(entry, "head", config.heads, name, i);
        heads.push_back(std::move(head));
    }
    return heads;
}

std::shared_ptr<const core::TrainedModel> loadModelFolder(const std::filesystem::path& folder) {
    if (const std::string problem = checkModelFolder(folder); !problem.empty()) throw FileError(problem);
    auto model = std::make_shared<core::TrainedModel>();
    model->name = core::echoed(modelFolderTitle(folder));
    model->folder = folder.string();
    model->transformer = loadTransformer(folder);
    model->tokenizer = loadTokenizer(folder, model->transformer.config.family);
    const std::filesystem::path heads = folder / "heads.json";
    if (!fileIsMissing(heads)) {
        model->namedHeads = parseNamedHeads(readFileCapped(heads, kMaxConfigBytes), model->transformer.config, heads.string());
    }
    const std::filesystem::path card = folder / "README.md";
    if (!fileIsMissing(card)) {
        try {
            model->card = readFileCapped(card, kMaxReadmeBytes);
        } catch (const FileTooLarge&) {
            // A card over the cap is not shown; the model still opens.
        }
    }
    return model;
}

}  // namespace attnviz::io
