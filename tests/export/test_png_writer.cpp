// test_png_writer.cpp — PNG bytes decoded by libpng's reader: pixels, RGB vs RGBA, tEXt/iTXt, pHYs, refusals,
// and the atomic write (no temporary file left, a clear error for a missing directory).
#include "export/png_decode.h"
#include "export/png_writer.h"
#include "io/atomic_file.h"
#include "io/scratch_dir.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace attnviz::exporting;
using attnviz::test::decodePngBytes;
using attnviz::test::decodePngFile;

namespace {

// A 7 × 5 image where every pixel differs: a row-major mix-up or a dropped channel shows.
Canvas patterned(Rgba8 background) {
    Canvas canvas(7, 5, background);
    for (int y = 0; y < 5; ++y) {
        for (int x = 0; x < 7; ++x) {
            const auto v = static_cast<std::uint8_t>(x * 30 + y * 7);
            canvas.fillRect({x, y, 1, 1}, {v, static_cast<std::uint8_t>(255 - v), static_cast<std::uint8_t>(y * 50),
                                           background.a});
        }
    }
    return canvas;
}

bool samePixels(const Canvas& canvas, const attnviz::test::DecodedPng& png) {
    if (png.width != canvas.width() || png.height != canvas.height()) return false;
    for (int y = 0; y < canvas.height(); ++y) {
        for (int x = 0; x < canvas.width(); ++x) {
            if (!(png.pixel(x, y) == canvas.pixel(x, y))) return false;
        }
    }
    return true;
}

}  // namespace

TEST_CASE("png: an opaque image round-trips exactly and is stored as RGB") {
    const Canvas image = patterned({255, 255, 255, 255});
    const attnviz::test::DecodedPng png = decodePngBytes(encodePng(image, {}));
    CHECK_FALSE(png.hasAlpha);
    CHECK(samePixels(image, png));
}

TEST_CASE("png: a see-through image keeps its alpha channel") {
    Canvas image = patterned({255, 255, 255, 0});
    image.fillRect({0, 0, 1, 1}, {1, 2, 3, 0});
    const attnviz::test::DecodedPng png = decodePngBytes(encodePng(image, {}));
    CHECK(png.hasAlpha);
    CHECK(samePixels(image, png));
}

TEST_CASE("png: metadata in tEXt (ASCII) and iTXt (UTF-8), DPI in pHYs") {
    PngMetadata metadata;
    metadata.dotsPerInch = 192;
    metadata.text = {{"Title", "A_2 = softmax"}, {"attnviz.sentences", "[\"Der B\u00E4r schl\u00E4ft \u2014 \u043C\u0438\u0440\"]"}};
    const attnviz::test::DecodedPng png = decodePngBytes(encodePng(patterned({255, 255, 255, 255}), metadata));
    CHECK(png.text.at("Title") == "A_2 = softmax");
    CHECK(png.text.at("attnviz.sentences") == metadata.text[1].value);
    const auto expected = static_cast<std::uint32_t>(std::lround(192 / 0.0254));
    CHECK(png.pixelsPerMetreX == expected);
    CHECK(png.pixelsPerMetreY == expected);
}

TEST_CASE("png: keywords PNG does not allow and empty images are refused with PngError") {
    const Canvas image = patterned({255, 255, 255, 255});
    for (const std::string& keyword : {std::string(), std::string(80, 'k'), std::string(" lead"), std::string("a  b")}) {
        PngMetadata metadata;
        metadata.text = {{keyword, "value"}};
        CHECK_THROWS_AS(encodePng(image, metadata), PngError);
    }
    CHECK_THROWS_AS(encodePng(Canvas(0, 3, {0, 0, 0, 255}), {}), PngError);
}

TEST_CASE("png: writePng replaces the file atomically and leaves no temporary") {
    attnviz::test::ScratchDir dir("export-png");
    const Canvas image = patterned({255, 255, 255, 255});
    writePng(dir / "figure.png", image, {});
    writePng(dir / "figure.png", image, {});
    CHECK(dir.entries() == std::vector<std::string>{"figure.png"});
    CHECK(samePixels(image, decodePngFile(dir / "figure.png")));
}

TEST_CASE("png: a missing directory is a FileError naming the path, and nothing is written") {
    attnviz::test::ScratchDir dir("export-png");
    const std::filesystem::path path = dir / "missing" / "figure.png";
    try {
        writePng(path, patterned({255, 255, 255, 255}), {});
        FAIL("expected io::FileError");
    } catch (const attnviz::io::FileError& error) {
        CHECK(std::string(error.what()).find(path.string()) != std::string::npos);
    }
    CHECK(dir.entries().empty());
}
