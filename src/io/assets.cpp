// assets.cpp — the asset lookup rule. See assets.h.
#include "io/assets.h"


#include <cstdlib>
#include <system_error>

namespace attnviz::io {
namespace {

namespace fs = std::filesystem;

std::optional<fs::path> binaryFolder() {
    std::error_code error;
    const fs::path exe = fs::read_symlink("/proc/self/exe", error);
    if (error) return std::nullopt;
    return exe.parent_path();
}

}  // namespace

std::vector<fs::path> assetSearchPath() {
    std::vector<fs::path> folders;
    if (const char* override = std::getenv("ATTNVIZ_ASSETS"); override != nullptr && *override != '\0') folders.emplace_back(override);
    if (const auto binary = binaryFolder()) {
        folders.push_back(*binary / "assets");
        folders.push_back((*binary / ".." / "share" / "attnviz").lexically_normal());
    }
    folders.emplace_back(ATTNVIZ_SOURCE_ASSETS);
    return folders;
}

std::optional<fs::path> findAsset(const fs::path& relative) {
    std::error_code error;
    for (const fs::path& folder : assetSearchPath()) {
        if (fs::exists(folder / relative, error)) return folder / relative;
    }
    return std::nullopt;
}

}  // namespace attnviz::io
