// png_decode.h — test-only PNG reader (libpng): pixels as RGBA8, text chunks and pHYs, to check what the
// exporter wrote without trusting its own code. Throws std::runtime_error for anything libpng rejects.
#pragma once

#include "export/canvas.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace attnviz::test {

struct DecodedPng {
    int width = 0, height = 0;
    bool hasAlpha = false;                      // RGBA on disk (else RGB, expanded here with alpha 255)
    std::vector<std::uint8_t> rgba;             // height rows of width · 4
    std::map<std::string, std::string> text;    // tEXt / iTXt keyword → value
    std::uint32_t pixelsPerMetreX = 0, pixelsPerMetreY = 0;

    exporting::Rgba8 pixel(int x, int y) const {
        const std::uint8_t* p = &rgba[(static_cast<std::size_t>(y) * width + x) * 4];
        return {p[0], p[1], p[2], p[3]};
    }
};

DecodedPng decodePngFile(const std::filesystem::path& path);
DecodedPng decodePngBytes(const std::string& bytes);

}  // namespace attnviz::test
