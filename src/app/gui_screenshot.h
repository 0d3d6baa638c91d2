// gui_screenshot.h — `attnviz --screenshot FILE`: the parts that are not the main loop. Parsing --size,
// and writing the window's pixels as PNG (stb_image_write). Reading the pixels is render::readFramebuffer.
#pragma once

#include "render/framebuffer.h"

#include <filesystem>
#include <optional>
#include <string>

namespace attnviz::app {

struct PixelSize {
    int width = 0;
    int height = 0;
};

// True for a window side attnviz opens: core::limits::kMinWindowSide … core::limits::kMaxWindowSide pixels (core/limits.h says why).
bool isWindowSide(int pixels);

// "1600x1000" (or "1600×1000") → {1600, 1000}; nullopt for anything else or sizes outside 200–16384.
std::optional<PixelSize> parseSize(const std::string& text);

// Writes an RGBA image as PNG (alpha dropped); false with nothing left behind on failure.
bool writePng(const std::filesystem::path& file, const render::RgbaImage& image);

}  // namespace attnviz::app
