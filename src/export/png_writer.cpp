// png_writer.cpp — libpng encoding into memory, then an atomic file write. See png_writer.h.
//
// libpng reports errors by longjmp. The one function that calls setjmp (encodeInto) creates no C++ object
// with a destructor, and everything it touches is built before it by its caller, so a longjmp never skips a
// destructor. Error messages travel back through the PngSink.
#include "export/png_writer.h"

#include "io/atomic_file.h"

#include <png.h>

#include <cmath>
#include <csetjmp>
#include <memory>

namespace attnviz::exporting {
namespace {

constexpr int kCompressionLevel = 1;  // speed first: see png_writer.h
constexpr double kMetresPerInch = 0.0254;

struct PngSink {
    std::string bytes;
    std::string error;
};

void onError(png_structp png, png_const_charp message) {
    auto* sink = static_cast<PngSink*>(png_get_error_ptr(png));
    sink->error = message;
    png_longjmp(png, 1);
}

void onWarning(png_structp, png_const_charp) {}  // warnings (e.g. a long text chunk) are not failures

void appendToSink(png_structp png, png_bytep data, png_size_t length) {
    auto* sink = static_cast<PngSink*>(png_get_io_ptr(png));
    bool appended = true;
    try {
        sink->bytes.append(reinterpret_cast<const char*>(data), length);
    } catch (const std::bad_alloc&) {
        appended = false;
    }
    if (!appended) png_error(png, "out of memory while encoding the PNG");
}

void flushNothing(png_structp) {}

bool isAscii(const std::string& text) {
    for (unsigned char c : text) {
        if (c >= 0x80) return false;
    }
    return true;
}

// The PNG rule for keywords (libpng would only warn and drop the chunk): 1–79 printable Latin-1 characters,
// no leading, trailing or doubled spaces.
void checkKeyword(const std::string& keyword) {
    bool valid = !keyword.empty() && keyword.size() <= 79 && keyword.front() != ' ' && keyword.back() != ' ' &&
                 keyword.find("  ") == std::string::npos;
    for (unsigned char c : keyword) valid = valid && ((c >= 32 && c <= 126) || c >= 161);
    if (!valid) {
        throw PngError("The PNG text keyword '" + keyword +
                       "' is not allowed: use 1-79 printable characters without leading, trailing or double spaces.");
    }
}

// png_text records pointing into `entries` (which must outlive them): tEXt for ASCII, iTXt for UTF-8.
std::vector<png_text> textRecords(const std::vector<PngTextEntry>& entries) {
    std::vector<png_text> records;
    for (const PngTextEntry& entry : entries) {
        checkKeyword(entry.keyword);
        png_text record{};
        record.key = const_cast<png_charp>(entry.keyword.c_str());
        record.text = const_cast<png_charp>(entry.value.c_str());
        if (isAscii(entry.value)) {
            record.compression = PNG_TEXT_COMPRESSION_NONE;
            record.text_length = entry.value.size();
        } else {
            record.compression = PNG_ITXT_COMPRESSION_NONE;
            record.itxt_length = entry.value.size();
            record.lang = const_cast<png_charp>("");
            record.lang_key = const_cast<png_charp>("");
        }
        records.push_back(record);
    }
    return records;
}

std::vector<png_bytep> rowPointers(const Canvas& image) {
    std::vector<png_bytep> rows(static_cast<std::size_t>(image.height()));
    const std::size_t stride = static_cast<std::size_t>(image.width()) * 4;
    auto* base = const_cast<png_bytep>(image.bytes().data());
    for (std::size_t y = 0; y < rows.size(); ++y) rows[y] = base + y * stride;
    return rows;
}

png_uint_32 pixelsPerMetre(int dotsPerInch) {
    return static_cast<png_uint_32>(std::lround(dotsPerInch / kMetresPerInch));
}

// The only function with setjmp: returns false when libpng failed (the message is in the sink).
bool encodeInto(png_structp png, png_infop info, const Canvas& image, std::vector<png_text>& text,
                std::vector<png_bytep>& rows, png_uint_32 density) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_write_fn(png, png_get_error_ptr(png), appendToSink, flushNothing);
    png_set_compression_level(png, kCompressionLevel);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
    const bool opaque = image.isOpaque();
    png_set_IHDR(png, info, static_cast<png_uint_32>(image.width()), static_cast<png_uint_32>(image.height()), 8,
                 opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE,
                 PNG_FILTER_TYPE_BASE);
    png_set_pHYs(png, info, density, density, PNG_RESOLUTION_METER);
    if (!text.empty()) png_set_text(png, info, text.data(), static_cast<int>(text.size()));
    png_write_info(png, info);
    if (opaque) png_set_filler(png, 0, PNG_FILLER_AFTER);  // the canvas's alpha byte is dropped
    png_write_image(png, rows.data());
    png_write_end(png, info);
    return true;
}

struct WriteStructDeleter {
    png_infop info = nullptr;
    void operator()(png_structp png) { png_destroy_write_struct(&png, info ? &info : nullptr); }
};

}  // namespace

std::string encodePng(const Canvas& image, const PngMetadata& metadata) {
    if (image.width() <= 0 || image.height() <= 0) throw PngError("Cannot encode an empty image as PNG.");
    PngSink sink;
    std::vector<png_text> text = textRecords(metadata.text);
    std::vector<png_bytep> rows = rowPointers(image);
    std::unique_ptr<png_struct, WriteStructDeleter> png(
        png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, onError, onWarning));
    if (!png) throw PngError("libpng could not start an encoder (out of memory?).");
    png_infop info = png_create_info_struct(png.get());
    if (!info) throw PngError("libpng could not start an encoder (out of memory?).");
    png.get_deleter().info = info;
    if (!encodeInto(png.get(), info, image, text, rows, pixelsPerMetre(metadata.dotsPerInch))) {
        throw PngError("PNG encoding failed: " + sink.error + ".");
    }
    return std::move(sink.bytes);
}

void writePng(const std::filesystem::path& path, const Canvas& image, const PngMetadata& metadata) {
    io::writeFileAtomically(path, encodePng(image, metadata));
}

}  // namespace attnviz::exporting
