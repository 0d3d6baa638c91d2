// tokenizer_files.cpp — a model folder's tokenizer files into a Tokenizer. See tokenizer_files.h.
#include "io/tokenizer_files.h"

#include "core/tokenizer.h"  // InputError
#include "core/tokenizers/classic_vocabularies.h"
#include "core/tokenizers/pipeline.h"
#include "io/json_value_text.h"
#include "io/safe_read.h"
#include "io/tokenizer_json.h"

#include <nlohmann/json.hpp>

namespace attnviz::io {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

[[noreturn]] void fail(const fs::path& file, const std::string& problem) { throw FileError(file.string() + ": " + problem); }

// The file's lines without their "\n" / "\r\n"; a final newline does not start another line.
std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
        start = end + 1;
    }
    return lines;
}

std::unordered_map<std::string, int> readVocabularyJson(const fs::path& path) {
    const json vocabulary = json::parse(readJsonFile(path, kMaxVocabularyBytes), nullptr, false);
    if (vocabulary.is_discarded() || !vocabulary.is_object()) fail(path, "is not a JSON object of piece → id.");
    std::unordered_map<std::string, int> ids;
    for (const auto& [piece, id] : vocabulary.items()) {
        if (!id.is_number_integer() || id.get<long long>() < 0 || id.get<long long>() > (1 << 24)) {
            fail(path, "gives \"" + core::echoed(piece) + "\" the id " + quotedJsonValue(id) + "; ids are whole numbers from 0.");
        }
        ids.emplace(piece, id.get<int>());
    }
    return ids;
}

std::vector<std::pair<std::string, std::string>> readMerges(const fs::path& path) {
    std::vector<std::pair<std::string, std::string>> merges;
    const std::vector<std::string> lines = linesOf(readFileCapped(path, kMaxVocabularyBytes));
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        if (line.empty() || (i == 0 && line.rfind("#version", 0) == 0)) continue;
        const std::size_t space = line.find(' ');
        if (space == std::string::npos || space == 0 || space + 1 == line.size() || line.find(' ', space + 1) != std::string::npos) {
            fail(path, "line " + std::to_string(i + 1) + " is not two pieces separated by one space.");
        }
        merges.emplace_back(line.substr(0, space), line.substr(space + 1));
    }
    return merges;
}

core::WordPieceOptions readWordPieceOptions(const fs::path& folder) {
    core::WordPieceOptions options;
    const fs::path path = folder / "tokenizer_config.json";
    if (fileIsMissing(path)) return options;
    const json config = json::parse(readJsonFile(path, kMaxConfigBytes), nullptr, false);
    if (config.is_discarded() || !config.is_object()) fail(path, "is not a JSON object.");
    const auto flag = [&](const char* key, bool fallback) {
        if (!config.contains(key) || config[key].is_null()) return fallback;
        if (!config[key].is_boolean()) fail(path, std::string("\"") + key + "\" must be true or false.");
        return config[key].get<bool>();
    };
    options.lowercase = flag("do_lower_case", true);
    options.stripAccents = flag("strip_accents", options.lowercase);
    options.splitCjk = flag("tokenize_chinese_chars", true);
    return options;
}

}  // namespace

std::shared_ptr<const core::Tokenizer> loadTokenizerJson(const fs::path& path) {
    std::error_code error;
    if (fs::file_size(path, error) > kMaxTokenizerJsonBytes) fail(path, "is larger than any tokenizer.json (over 256 MB).");
    try {
        return std::make_shared<const core::PipelineTokenizer>(parseTokenizerJson(readWholeFile(path), path.string()));
    } catch (const core::InputError& problem) {
        fail(path, problem.what());
    }
}

std::shared_ptr<const core::Tokenizer> loadTokenizer(const fs::path& folder, core::ModelFamily family) {
    if (std::error_code error; fs::exists(folder / kTokenizerJson, error)) return loadTokenizerJson(folder / kTokenizerJson);
    const bool byteLevelBpe = core::familyTraits(family, {}).vocabulary == core::VocabularyFiles::ByteLevelBpe;
    try {
        return std::make_shared<const core::PipelineTokenizer>(
            byteLevelBpe ? core::byteLevelBpeDefinition(readVocabularyJson(folder / "vocab.json"), readMerges(folder / "merges.txt"))  // GPT-2, Llama
                         : core::wordPieceDefinition(linesOf(readFileCapped(folder / "vocab.txt", kMaxVocabularyBytes)), readWordPieceOptions(folder)));
    } catch (const core::InputError& error) {
        fail(folder / (byteLevelBpe ? "vocab.json" : "vocab.txt"), error.what());
    }
}

}  // namespace attnviz::io
