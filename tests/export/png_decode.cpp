// png_decode.cpp — libpng's low-level reader with every format expanded to RGBA8. See png_decode.h.
// The one function with setjmp (readInto) creates no C++ object with a destructor after it.
#include "export/png_decode.h"

#include <png.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace attnviz::test {
namespace {

struct Source {
    const std::string* bytes;
    std::size_t offset = 0;
    std::string error;
};

void onError(png_structp png, png_const_charp message) {
    static_cast<Source*>(png_get_error_ptr(png))->error = message;
    png_longjmp(png, 1);
}
void onWarning(png_structp, png_const_charp) {}

void readFromSource(png_structp png, png_bytep out, png_size_t length) {
    auto* source = static_cast<Source*>(png_get_io_ptr(png));
    if (source->offset + length > source->bytes->size()) png_error(png, "unexpected end of file");
    std::memcpy(out, source->bytes->data() + source->offset, length);
    source->offset += length;
}

// Reads header and metadata into `image` and the pixels into `image.rgba` (sized by the caller's second call).
bool readInto(png_structp png, png_infop info, DecodedPng& image, std::vector<png_bytep>& rows, bool header) {
    if (setjmp(png_jmpbuf(png))) return false;
    if (header) {
        png_read_info(png, info);
        image.width = static_cast<int>(png_get_image_width(png, info));
        image.height = static_cast<int>(png_get_image_height(png, info));
        image.hasAlpha = (png_get_color_type(png, info) & PNG_COLOR_MASK_ALPHA) != 0;
        png_set_expand(png);
        png_set_strip_16(png);
        png_set_gray_to_rgb(png);
        if (!image.hasAlpha) png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
        png_read_update_info(png, info);
        return true;
    }
    png_read_image(png, rows.data());
    png_read_end(png, info);
    return true;
}

void collectMetadata(png_structp png, png_infop info, DecodedPng& image) {
    png_textp text = nullptr;
    const int count = png_get_text(png, info, &text, nullptr);
    for (int i = 0; i < count; ++i) {
        const std::size_t length = text[i].compression == PNG_ITXT_COMPRESSION_NONE ||
                                           text[i].compression == PNG_ITXT_COMPRESSION_zTXt
                                       ? text[i].itxt_length
                                       : text[i].text_length;
        image.text[text[i].key] = std::string(text[i].text, length);
    }
    png_uint_32 x = 0, y = 0;
    int unit = 0;
    if (png_get_pHYs(png, info, &x, &y, &unit) && unit == PNG_RESOLUTION_METER) {
        image.pixelsPerMetreX = x;
        image.pixelsPerMetreY = y;
    }
}

}  // namespace

DecodedPng decodePngBytes(const std::string& bytes) {
    if (bytes.size() < 8 || png_sig_cmp(reinterpret_cast<png_const_bytep>(bytes.data()), 0, 8) != 0) {
        throw std::runtime_error("not a PNG file");
    }
    Source source{&bytes, 0, {}};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &source, onError, onWarning);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (!png || !info) throw std::runtime_error("libpng could not start a decoder");
    png_set_read_fn(png, &source, readFromSource);
    DecodedPng image;
    std::vector<png_bytep> rows;
    bool ok = readInto(png, info, image, rows, true);
    if (ok) {
        image.rgba.resize(static_cast<std::size_t>(image.width) * image.height * 4);
        for (int y = 0; y < image.height; ++y) rows.push_back(&image.rgba[static_cast<std::size_t>(y) * image.width * 4]);
        ok = readInto(png, info, image, rows, false);
    }
    if (ok) collectMetadata(png, info, image);
    png_destroy_read_struct(&png, &info, nullptr);
    if (!ok) throw std::runtime_error("libpng: " + source.error);
    return image;
}

DecodedPng decodePngFile(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) throw std::runtime_error("cannot open " + path.string());
    const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    return decodePngBytes(bytes);
}

}  // namespace attnviz::test
