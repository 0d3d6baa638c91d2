// gui_screenshot.cpp — --size parsing and PNG writing for --screenshot. See gui_screenshot.h.
#include "app/gui_screenshot.h"

#include "core/limits.h"

#include <stb_image_write.h>

#include <charconv>
#include <system_error>
#include <vector>

namespace attnviz::app {
namespace {

std::optional<int> parseDimension(std::string_view text) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || !isWindowSide(value)) return std::nullopt;
    return value;
}

}  // namespace

bool isWindowSide(int pixels) { return pixels >= core::limits::kMinWindowSide && pixels <= core::limits::kMaxWindowSide; }

std::optional<PixelSize> parseSize(const std::string& text) {
    for (const std::string_view separator : {"x", "X", "×"}) {
        const std::size_t at = text.find(separator);
        if (at == std::string::npos) continue;
        const auto width = parseDimension(std::string_view(text).substr(0, at));
        const auto height = parseDimension(std::string_view(text).substr(at + separator.size()));
        if (width && height) return PixelSize{*width, *height};
    }
    return std::nullopt;
}

bool writePng(const std::filesystem::path& file, const render::RgbaImage& image) {
    std::vector<std::uint8_t> rgb(static_cast<std::size_t>(image.width) * image.height * 3);
    for (std::size_t i = 0, o = 0; i < image.pixels.size(); i += 4, o += 3) {
        rgb[o] = image.pixels[i];
        rgb[o + 1] = image.pixels[i + 1];
        rgb[o + 2] = image.pixels[i + 2];
    }
    if (stbi_write_png(file.string().c_str(), image.width, image.height, 3, rgb.data(), image.width * 3) != 0) return true;
    std::error_code ignored;
    std::filesystem::remove(file, ignored);
    return false;
}

}  // namespace attnviz::app
