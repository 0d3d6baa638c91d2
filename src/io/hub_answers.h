// hub_answers.h — what a Hugging Face Hub server sends, read into checked values: a response's header lines, the
// model-info answer (the commit and the files), model.safetensors.index.json's shard names.
//
// Every byte here was chosen by the server, so each function returns checked values or throws FileError with one
// sentence quoting at most core::echoed's 80 characters of it; sizes and JSON nesting are capped before any
// parsing (core/limits.h). No network here: hub_fetch.cpp speaks HTTP, the fuzz targets call these directly.
#pragma once

#include "io/atomic_file.h"  // FileError

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::io {

// The status and headers of the last response of a request (after redirects), names lower-case.
struct ResponseHead {
    long status = 0;
    std::map<std::string, std::string> headers;
    std::size_t bytes = 0;  // header bytes of this response so far
    std::string header(const std::string& name) const;
};

// Adds one header line as libcurl hands it over: "HTTP/1.1 200 OK\r\n" starts a new response (after a redirect or
// 100 Continue; its status is 100 to 599, else 0), "Name: value\r\n" adds a header. False when the response's
// headers pass kHubMaxHeaderBytes: the caller aborts the transfer.
bool addHeaderLine(ResponseHead& head, std::string_view line);

// A file of a revision as the API lists it.
struct HubFile {
    std::string name;                     // a safe relative path (isSafeRepoFileName)
    std::optional<std::string> lfsSha256;
    std::string blobId;                   // the git object id, or ""
};

struct RevisionListing {
    std::string commit;                   // 40 hex digits
    std::vector<HubFile> files;
};

// GET /api/models/{repo}/revision/{rev}?blobs=true's body. `where`: "<endpoint>'s answer for <repo>", to start
// each error sentence.
RevisionListing parseRevisionListing(std::string_view body, const std::string& where);

// The shard files model.safetensors.index.json's weight_map names, each a plain *.safetensors file name. `where`
// names the index in errors.
std::set<std::string> shardsOfIndex(std::string_view body, const std::string& where);

}  // namespace attnviz::io
