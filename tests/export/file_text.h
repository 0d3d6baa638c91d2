// file_text.h — a written file's bytes as a string, for the export tests that read back SVG, PDF text and PNGs.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace attnviz::test {

inline std::string fileText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace attnviz::test
