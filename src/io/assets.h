// assets.h — where attnviz finds what it needs at run time besides its embedded shaders: the bundled model(s), the
// icon, the desktop entry (the repository's assets/ folder).
//
// One rule, tried in order, the first folder that holds the asked-for path wins:
//   1. $ATTNVIZ_ASSETS, when set (a packager's or a test's override);
//   2. <folder of the binary>/assets — a moved or unpacked tree that keeps assets beside the binary;
//   3. <folder of the binary>/../share/attnviz — an install prefix (cmake --install), wherever it was moved;
//   4. the source tree's assets/ this binary was built from — running from the build tree.
// What it deliberately does not do: read the assets (model_folder.h reads a model), or create anything.
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

namespace attnviz::io {

// The folders the rule tries, in order (those that do not exist included).
std::vector<std::filesystem::path> assetSearchPath();
// `relative` (e.g. "models/attnviz-mini-bert") under the first folder of assetSearchPath() that has it.
std::optional<std::filesystem::path> findAsset(const std::filesystem::path& relative);

}  // namespace attnviz::io
