// hub_fetch_web.cpp — fetching a Hub model in the web page: not yet (libcurl does it on the desktop; the browser's
// fetch will do it here, issue 38 item 3). io::fetchModel says so in one sentence, which File ▸ Get a model… and a
// model named by the page show; findOrFetchWithProgressLine (a progress line on stderr on the desktop) is the
// cached snapshot or that sentence. The rest of io/hub_fetch.h is io/hub_fetch_offline.cpp's, as on the desktop.
#include "app/cli_options.h"
#include "io/hub_fetch.h"

namespace attnviz::io {

std::filesystem::path fetchModel(const RepoReference& ref, const FetchOptions& /*options*/) {
    throw FileError("The web page cannot download " + ref.repoId + " yet; the desktop app (scripts/run) can.");
}

}  // namespace attnviz::io

namespace attnviz::app {

std::filesystem::path findOrFetchWithProgressLine(const io::RepoReference& ref) {
    return io::findOrFetchModel(ref, io::fetchOptionsFromEnvironment());
}

}  // namespace attnviz::app
