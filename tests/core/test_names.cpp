// test_names.cpp — core/names.h: every mask kind, fill and softmax mode has one name, the name reads back, and no
// other file of src/ spells a mask kind's name again.
#include "core/names.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

using namespace attnviz::core;

TEST_CASE("enum names: each value's name reads back to it, and the choices are listed as a sentence") {
    for (const auto& [value, name] : kMaskKindNames) CHECK(valueNamed(nameOf(value), kMaskKindNames) == value);
    for (const auto& [value, name] : kMaskFillNames) CHECK(valueNamed(nameOf(value), kMaskFillNames) == value);
    for (const auto& [value, name] : kSoftmaxModeNames) CHECK(valueNamed(nameOf(value), kSoftmaxModeNames) == value);
    CHECK(nameOf(MaskKind::Causal) == "causal");
    CHECK_FALSE(valueNamed("Causal", kMaskKindNames).has_value());
    CHECK(namesListed(kMaskKindNames) == "none, padding, causal or both");
    CHECK(namesListed(kMaskFillNames) == "-1e9 or -inf");
}

// Issue 33: each mask kind's name is written once; the GUI's combo box and the masks view list core's table. A scan of
// src/ for the distinctive names as string literals ("none" and "both" mean other things elsewhere).
TEST_CASE("enum names: \"padding\" and \"causal\" are spelled only in core/names.h") {
    namespace fs = std::filesystem;
    for (const std::string_view name : {"padding", "causal"}) {
        const std::string literal = "\"" + std::string(name) + "\"";
        std::vector<std::string> spelledIn;
        std::string listed;
        for (const auto& entry : fs::recursive_directory_iterator(fs::path(ATTNVIZ_SOURCE_DIR) / "src")) {
            if (!entry.is_regular_file()) continue;
            std::ifstream file(entry.path());
            const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
            if (text.find(literal) == std::string::npos) continue;
            spelledIn.push_back(fs::relative(entry.path(), ATTNVIZ_SOURCE_DIR).string());
            listed += " " + spelledIn.back();
        }
        CHECK_MESSAGE(spelledIn == std::vector<std::string>{"src/core/names.h"}, literal, " is spelled in:", listed);
    }
}
