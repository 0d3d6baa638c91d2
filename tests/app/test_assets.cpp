// test_assets.cpp — the asset lookup rule (io/assets.h) as a user meets it: the real attnviz binary, copied into a
// moved tree (assets beside it) and into an install prefix (<prefix>/bin, <prefix>/share/attnviz), finds the
// bundled model there, and from the build tree finds the source tree's; $ATTNVIZ_ASSETS wins over all. Each run is
// `attnviz dump` with no model option, whose manifest names the model folder it opened.
#include "io/assets.h"
#include "io/scratch_dir.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>

namespace {

namespace fs = std::filesystem;

const fs::path kModel = fs::path("models") / "attnviz-mini-bert";
const fs::path kSourceAssets = fs::path(ATTNVIZ_SOURCE_DIR) / "assets";

// The model folder `binary dump` opened (manifest.json's model.path), or "" when it failed or used none.
std::string openedModel(const fs::path& binary, const fs::path& out, const std::string& environment = "") {
    const std::string command = environment + " '" + binary.string() + "' dump --sentence 'it was tired' --out '" + out.string() + "' > /dev/null 2>&1";
    if (std::system(command.c_str()) != 0) return "";
    std::ifstream manifest(out / "manifest.json");
    const nlohmann::json json = nlohmann::json::parse(manifest, nullptr, false);
    return json.contains("model") ? json["model"]["path"].get<std::string>() : "";
}

void copyModel(const fs::path& assets) {
    fs::create_directories(assets / kModel);
    fs::copy(kSourceAssets / kModel, assets / kModel, fs::copy_options::recursive);
}

}  // namespace

TEST_CASE("assets: a moved tree, an install prefix, the build tree, and $ATTNVIZ_ASSETS each find the bundled model") {
    const attnviz::test::ScratchDir dir("assets");
    fs::create_directories(dir / "moved");
    fs::copy_file(ATTNVIZ_BINARY, dir / "moved" / "attnviz");
    copyModel(dir / "moved" / "assets");
    CHECK(openedModel(dir / "moved" / "attnviz", dir / "out-moved") == (dir / "moved" / "assets" / kModel).string());

    fs::create_directories(dir / "prefix" / "bin");
    fs::copy_file(ATTNVIZ_BINARY, dir / "prefix" / "bin" / "attnviz");
    copyModel(dir / "prefix" / "share" / "attnviz");
    CHECK(openedModel(dir / "prefix" / "bin" / "attnviz", dir / "out-prefix") == (dir / "prefix" / "share" / "attnviz" / kModel).string());

    CHECK(openedModel(ATTNVIZ_BINARY, dir / "out-build") == (kSourceAssets / kModel).string());

    copyModel(dir / "custom");
    CHECK(openedModel(dir / "prefix" / "bin" / "attnviz", dir / "out-custom", "ATTNVIZ_ASSETS='" + (dir / "custom").string() + "'") ==
          (dir / "custom" / kModel).string());
}

TEST_CASE("assets: the search path is $ATTNVIZ_ASSETS, beside the binary, the prefix's share/attnviz, then the source tree") {
    setenv("ATTNVIZ_ASSETS", "/somewhere", 1);
    const std::vector<fs::path> path = attnviz::io::assetSearchPath();
    unsetenv("ATTNVIZ_ASSETS");
    REQUIRE(path.size() == 4);
    CHECK(path[0] == "/somewhere");
    CHECK(path[1].filename() == "assets");
    CHECK(path[2].filename() == "attnviz");
    CHECK(path[2].parent_path().filename() == "share");
    CHECK(path[3] == kSourceAssets);
    CHECK(attnviz::io::findAsset(kModel) == kSourceAssets / kModel);  // from the test binary: the source tree's
    CHECK_FALSE(attnviz::io::findAsset("models/no-such-model").has_value());
}
