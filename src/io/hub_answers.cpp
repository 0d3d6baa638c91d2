// hub_answers.cpp — header lines, model info and shard index from a Hub server, checked. See hub_answers.h.
#include "io/hub_answers.h"

#include "core/display_text.h"
#include "core/limits.h"
#include "io/hub_cache.h"
#include "io/safe_read.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>

using json = nlohmann::json;

namespace attnviz::io {
namespace {

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    return text;
}

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// The status of "HTTP/1.1 200 OK": 100 to 599, else 0 (no answer the caller understands).
long statusOf(std::string_view line) {
    const std::size_t space = line.find(' ');
    if (space == std::string_view::npos || line.size() < space + 4) return 0;
    const std::string_view digits = line.substr(space + 1, 3);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return 0;
    const long status = std::strtol(std::string(digits).c_str(), nullptr, 10);
    return status >= 100 && status <= 599 ? status : 0;
}

// JSON text a server sent, parsed once its size and nesting passed the caps; FileError otherwise.
json parseCapped(std::string_view body, std::size_t maxBytes, const std::string& where) {
    if (body.size() > maxBytes) throw FileError(where + " is larger than " + byteCountText(maxBytes) + "; attnviz does not read it.");
    requireJsonDepth(body, where);
    json parsed = json::parse(body, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) throw FileError(where + " is not a JSON object.");
    return parsed;
}

std::optional<std::string> stringAt(const json& object, const char* key) {
    if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return std::nullopt;
    return object[key].get<std::string>();
}

}  // namespace

std::string ResponseHead::header(const std::string& name) const {
    const auto found = headers.find(name);
    return found == headers.end() ? "" : found->second;
}

bool addHeaderLine(ResponseHead& head, std::string_view line) {
    if (line.rfind("HTTP/", 0) == 0) {
        head = ResponseHead{statusOf(line), {}, line.size()};
        return line.size() <= core::limits::kHubMaxHeaderBytes;
    }
    head.bytes += line.size();
    if (head.bytes > core::limits::kHubMaxHeaderBytes) return false;
    const std::size_t colon = line.find(':');
    if (colon != std::string_view::npos) head.headers[lower(trimmed(line.substr(0, colon)))] = std::string(trimmed(line.substr(colon + 1)));
    return true;
}

RevisionListing parseRevisionListing(std::string_view body, const std::string& where) {
    const json info = parseCapped(body, core::limits::kHubMaxAnswerBytes, where);
    RevisionListing listing;
    const std::optional<std::string> commit = stringAt(info, "sha");
    if (!commit || !isCommitHash(*commit)) throw FileError(where + " names no commit.");
    listing.commit = *commit;
    if (!info.contains("siblings") || !info["siblings"].is_array()) return listing;
    for (const json& entry : info["siblings"]) {
        const std::optional<std::string> name = stringAt(entry, "rfilename");
        if (!name) continue;
        if (!isSafeRepoFileName(*name)) throw FileError(where + " lists a file name attnviz refuses: \"" + core::echoed(*name) + "\".");
        HubFile file{*name, std::nullopt, stringAt(entry, "blobId").value_or("")};
        if (entry.contains("lfs")) file.lfsSha256 = stringAt(entry["lfs"], "sha256");
        listing.files.push_back(std::move(file));
    }
    return listing;
}

std::set<std::string> shardsOfIndex(std::string_view body, const std::string& where) {
    const json index = parseCapped(body, kMaxShardIndexBytes, where);
    if (!index.contains("weight_map") || !index["weight_map"].is_object()) throw FileError(where + " has no \"weight_map\" object.");
    std::set<std::string> shards;
    for (const auto& [tensor, shard] : index["weight_map"].items()) {
        const std::string name = shard.is_string() ? shard.get<std::string>() : "";
        const bool plain = isSafeRepoFileName(name) && name.find('/') == std::string::npos && name.size() > 12 &&
                           name.compare(name.size() - 12, 12, ".safetensors") == 0;
        if (!plain) throw FileError(where + " maps \"" + core::echoed(tensor) + "\" to \"" + core::echoed(shard.is_string() ? name : shard.dump()) + "\", not a .safetensors file name.");
        shards.insert(name);
    }
    return shards;
}

}  // namespace attnviz::io
