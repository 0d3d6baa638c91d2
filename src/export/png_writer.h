// png_writer.h — a Canvas as PNG bytes (libpng), with text metadata and the DPI, and written atomically.
//
// Encoding is tuned for speed: zlib level 1 with the "up" row filter, which turns every pixel row that repeats
// the one above (inside a heatmap cell, in the margins) into zeros; measured on the stage figures, this is as
// fast as run-length coding or no filter and gives files half their size. An opaque image is written as RGB
// (a quarter fewer bytes to compress). Metadata values that are plain ASCII
// go in tEXt chunks, others (sentences, tokens) in uncompressed iTXt chunks, which carry UTF-8.
// Writing goes through io::writeFileAtomically: a temporary file beside the target, renamed when complete, so a
// full disk or a crash never leaves half a PNG.
//
// What this file deliberately does not do: draw, choose file names, decide what metadata a figure carries
// (exporter.cpp does), or read PNGs back (the tests do that with libpng directly).
#pragma once

#include "export/canvas.h"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnviz::exporting {

// libpng refused the image or the metadata (for example a keyword PNG does not allow).
class PngError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct PngTextEntry {
    std::string keyword;  // 1–79 printable Latin-1 characters, no leading/trailing space (the PNG rule)
    std::string value;    // UTF-8
};

struct PngMetadata {
    std::vector<PngTextEntry> text;
    int dotsPerInch = 96;  // stored as pixels per metre in pHYs
};

// The whole PNG file in memory (RGBA, 8 bits per channel, non-interlaced).
std::string encodePng(const Canvas& image, const PngMetadata& metadata);

// encodePng, then io::writeFileAtomically. Throws PngError or io::FileError (naming the path).
void writePng(const std::filesystem::path& path, const Canvas& image, const PngMetadata& metadata);

}  // namespace attnviz::exporting
