// test_gl_heatmap.cpp — the GL renderer draws what the CPU sampler says (its textures are colored with
// render::colorRgba; the shader only reads them), special values and masks get their own colors, a single
// spike survives when a matrix has more cells than pixels or than the texture limit, and textures are uploaded
// once per run and colored once per colormap and range.
// Needs a display: ctest label `gui` (scripts/test runs it under xvfb-run).
#include "colormap/colormap.h"
#include "gl_window.h"
#include "render/gl_heatmap_renderer.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace attnviz::test {
namespace {

// A texture key told apart by one number (the renderer hashes every field; these tests need only distinct keys).
render::TextureKey keyNumber(int number) {
    render::TextureKey key;
    key.tensor = number;
    return key;
}


using colormap::Colormap;
using colormap::Rgb8;

Rgb8 pixel(const render::RgbaImage& image, int x, int y) {
    const std::size_t at = (static_cast<std::size_t>(y) * image.width + x) * 4;
    return {image.pixels[at], image.pixels[at + 1], image.pixels[at + 2]};
}

render::MatrixSlice row(const std::vector<float>& values) { return {values, 1, static_cast<int>(values.size())}; }

std::filesystem::path shaderDir() { return std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "shaders"; }

// Draws a 1 × n matrix over the full width of the top `height` rows, one frame, and reads the window back.
render::RgbaImage drawRow(GlWindow& window, render::HeatmapRenderer& r, const std::vector<float>& values,
                          const render::HeatmapStyle& style, float width, float height = 16.0f) {
    return window.frame([&](ImDrawList& list) {
        r.beginFrame(1);
        r.draw(list, r.heatmap(keyNumber(1), row(values)), {0.0f, 0.0f}, {width, height}, style);
    });
}

}  // namespace

TEST_CASE("every colormap bucket is drawn exactly as colormap::sample colors it") {
    GlWindow window(512, 32);
    for (const std::filesystem::path& dir : {shaderDir(), std::filesystem::path("/nonexistent")}) {  // files, then embedded
        auto renderer = render::createGlRenderer({dir});
        for (Colormap map : colormap::allColormaps()) {
            const float lo = -2.0f, hi = 3.0f;
            std::vector<float> centres;
            for (int i = 0; i < colormap::kTableSize; ++i) centres.push_back(lo + (static_cast<float>(i) + 0.5f) / 256.0f * (hi - lo));
            const render::RgbaImage image = drawRow(window, *renderer, centres, {map, lo, hi, {}}, 512.0f);
            int mismatches = 0;
            for (int i = 0; i < colormap::kTableSize; ++i) mismatches += pixel(image, 2 * i + 1, 8) == colormap::sample(map, centres[static_cast<std::size_t>(i)], lo, hi) ? 0 : 1;
            CHECK_MESSAGE(mismatches == 0, colormap::name(map), " from ", dir.string());
        }
    }
}

TEST_CASE("random values, clamped ends, NaN and infinities match the CPU sampler") {
    GlWindow window(500, 32);
    auto renderer = render::createGlRenderer({shaderDir()});
    std::mt19937 random(7);
    std::uniform_real_distribution<float> uniform(-1.3f, 1.3f);  // beyond ±1 on purpose: clamped
    std::vector<float> values(500);
    for (float& v : values) v = uniform(random);
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    values[10] = nan;
    values[11] = inf;
    values[12] = -inf;
    const render::RgbaImage image = drawRow(window, *renderer, values, {Colormap::Coolwarm, -1.0f, 1.0f, {}}, 500.0f);
    for (int i = 0; i < 500; ++i) {
        const float v = values[static_cast<std::size_t>(i)];
        const float t = (v + 1.0f) / 2.0f * 256.0f;
        const bool onBoundary = std::isfinite(t) && std::fabs(t - std::round(t)) < 1e-3f && t > 0.0f && t < 256.0f;
        if (!onBoundary) CHECK_MESSAGE(pixel(image, i, 8) == colormap::sample(Colormap::Coolwarm, v, -1.0f, 1.0f), "value ", v);
    }
    CHECK(pixel(image, 10, 8) == colormap::kNanColor);
    CHECK(pixel(image, 11, 8) == colormap::kPositiveInfColor);
    CHECK(pixel(image, 12, 8) == colormap::kNegativeInfColor);

    const render::RgbaImage flat = drawRow(window, *renderer, {0.0f, 5.0f}, {Colormap::Viridis, 1.0f, 1.0f, {}}, 100.0f);
    CHECK(pixel(flat, 10, 8) == colormap::table(Colormap::Viridis)[128]);  // degenerate range: the middle
}

TEST_CASE("masked cells are hatched in the masked color, with a mask broadcast down the rows") {
    GlWindow window(200, 100);
    auto renderer = render::createGlRenderer({shaderDir()});
    const std::vector<float> values{0.2f, 0.9f, 0.4f, 0.6f};  // 2 × 2
    const std::vector<float> mask{1.0f, 0.0f};                 // 1 × 2: column 1 masked in every row
    const render::RgbaImage image = window.frame([&](ImDrawList& list) {
        renderer->beginFrame(1);
        const render::HeatmapHandle m = renderer->heatmap(keyNumber(2), {mask, 1, 2});
        renderer->draw(list, renderer->heatmap(keyNumber(1), {values, 2, 2}), {0, 0}, {200, 100}, {Colormap::Viridis, 0.0f, 1.0f, m});
    });
    const Rgb8 grey = colormap::kMaskedColor;
    const Rgb8 dark{static_cast<std::uint8_t>(grey.r * 0.7f), static_cast<std::uint8_t>(grey.g * 0.7f), static_cast<std::uint8_t>(grey.b * 0.7f)};
    int masked = 0, total = 0;
    for (int y = 0; y < 100; ++y) {
        for (int x = 110; x < 200; ++x, ++total) {
            const Rgb8 p = pixel(image, x, y);
            const bool hatch = std::abs(p.r - dark.r) <= 1 && std::abs(p.g - dark.g) <= 1 && std::abs(p.b - dark.b) <= 1;
            masked += p == grey || hatch ? 1 : 0;
        }
    }
    CHECK(masked == total);
    CHECK(pixel(image, 50, 25) == colormap::sample(Colormap::Viridis, 0.2f, 0.0f, 1.0f));
    CHECK(pixel(image, 50, 75) == colormap::sample(Colormap::Viridis, 0.4f, 0.0f, 1.0f));
}

TEST_CASE("a single spike stays visible when 4096 cells share 256 pixels") {
    GlWindow window(256, 32);
    auto renderer = render::createGlRenderer({shaderDir()});
    std::vector<float> values(4096, 0.0f);
    values[3001] = -5.0f;
    const render::RgbaImage image = drawRow(window, *renderer, values, {Colormap::Coolwarm, -5.0f, 5.0f, {}}, 256.0f);
    const Rgb8 spike = colormap::sample(Colormap::Coolwarm, -5.0f, -5.0f, 5.0f);
    int found = 0;
    for (int x = 0; x < 256; ++x) found += pixel(image, x, 8) == spike ? 1 : 0;
    CHECK(found == 1);
    CHECK(pixel(image, 3001 / 16, 8) == spike);  // where it belongs
    CHECK(renderer->stats().pooledUploads == 1);
}

TEST_CASE("a matrix larger than the texture limit is pooled on upload and still draws") {
    GlWindow window(300, 200);
    auto renderer = render::createGlRenderer({shaderDir(), 64});
    CHECK(renderer->stats().maxTextureSize == 64);
    std::vector<float> values(200 * 300, 0.0f);
    values[150 * 300 + 250] = 1.0f;  // row 150, column 250
    const render::RgbaImage image = window.frame([&](ImDrawList& list) {
        renderer->beginFrame(1);
        renderer->draw(list, renderer->heatmap(keyNumber(1), {values, 200, 300}), {0, 0}, {300, 200}, {Colormap::Viridis, 0.0f, 1.0f, {}});
    });
    // 200 × 300 under a 64 limit: shrunk to 64 × 64 texels. The spike's texel is block (48, 53): source rows
    // [⌊48·200/64⌋, ⌊49·200/64⌋) = [150, 153) and columns [⌊53·300/64⌋, ⌊54·300/64⌋) = [248, 253). Drawn at
    // 300 × 200, the pixels whose centres fall in that texel are rows 150-152 and columns 248-252: 15 pixels,
    // all inside the block.
    const Rgb8 top = colormap::table(Colormap::Viridis)[255];
    int found = 0, inBlock = 0;
    for (int y = 0; y < 200; ++y) {
        for (int x = 0; x < 300; ++x) {
            if (pixel(image, x, y) != top) continue;
            ++found;
            inBlock += x >= 248 && x < 253 && y >= 150 && y < 153 ? 1 : 0;
        }
    }
    CHECK(found == 15);
    CHECK(inBlock == found);
}

TEST_CASE("768 columns in 208 pixels get 208 texels: no column drawn twice as wide, no moiré") {
    // A ramp 0 … 767 averaged into 208 blocks of 3 or 4 columns, [⌊x·768/208⌋, ⌊(x+1)·768/208⌋): pixel x shows
    // block x's mean, every one of them. A power-of-two shrink (768 / 4 = 192 texels stretched over 208 pixels)
    // would draw 16 texels twice and put most pixels on a neighbour's block.
    GlWindow window(256, 32);
    auto renderer = render::createGlRenderer({shaderDir()});
    std::vector<float> ramp(768);
    for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<float>(i);
    const render::RgbaImage image = window.frame([&](ImDrawList& list) {
        renderer->beginFrame(1);
        renderer->draw(list, renderer->heatmap(keyNumber(1), row(ramp), false, render::Downsample::Mean), {0.0f, 0.0f}, {208.0f, 16.0f},
                       {Colormap::Viridis, 0.0f, 767.0f, {}});
    });
    int wrong = 0;
    for (int x = 0; x < 208; ++x) {
        const int start = x * 768 / 208, end = (x + 1) * 768 / 208;
        const float mean = static_cast<float>(start + end - 1) / 2.0f;
        wrong += pixel(image, x, 8) == colormap::sample(Colormap::Viridis, mean, 0.0f, 767.0f) ? 0 : 1;
    }
    CHECK(wrong == 0);
}

TEST_CASE("a window resize leaves one texture per size drawn, not one per size passed through") {
    GlWindow window(256, 32);
    auto renderer = render::createGlRenderer({shaderDir()});
    const std::vector<float> values(1000, 0.5f);
    for (int width = 100; width < 200; width += 10) {
        window.frame([&](ImDrawList& list) {
            renderer->beginFrame(1);
            renderer->draw(list, renderer->heatmap(keyNumber(1), row(values)), {0.0f, 0.0f}, {static_cast<float>(width), 16.0f}, {});
        });
    }
    CHECK(renderer->stats().pooledUploads == 10);
    CHECK(renderer->stats().liveTextures == 1);
}

TEST_CASE("textures upload once per generation and only when their values changed — colormap or range changes upload nothing") {
    GlWindow window(64, 64);
    auto renderer = render::createGlRenderer({shaderDir()});
    const std::vector<float> values{0.0f, 1.0f, 2.0f, 3.0f};
    for (int frame = 0; frame < 3; ++frame) {
        window.frame([&](ImDrawList& list) {
            renderer->beginFrame(5);
            renderer->draw(list, renderer->heatmap(keyNumber(9), {values, 2, 2}), {0, 0}, {64, 64}, {frame == 1 ? Colormap::Magma : Colormap::Viridis, 0.0f, 3.0f + static_cast<float>(frame), {}});
        });
    }
    CHECK(renderer->stats().uploads == 1);
    // A new generation with the same values keeps the texture; with other values it uploads them.
    window.frame([&](ImDrawList& list) {
        renderer->beginFrame(6);
        renderer->draw(list, renderer->heatmap(keyNumber(9), {values, 2, 2}), {0, 0}, {64, 64}, {});
    });
    CHECK(renderer->stats().uploads == 1);
    CHECK(renderer->stats().reusedTextures == 1);
    const std::vector<float> changed{0.0f, 1.0f, 2.0f, 3.5f};
    const render::RgbaImage image = window.frame([&](ImDrawList& list) {
        renderer->beginFrame(7);
        renderer->draw(list, renderer->heatmap(keyNumber(9), {changed, 2, 2}), {0, 0}, {64, 64}, {Colormap::Viridis, 0.0f, 3.5f, {}});
    });
    CHECK(renderer->stats().uploads == 2);
    CHECK(renderer->stats().reusedTextures == 1);
    CHECK(pixel(image, 48, 48) == colormap::sample(Colormap::Viridis, 3.5f, 0.0f, 3.5f));  // the new value, not the old
    window.frame([&](ImDrawList&) { renderer->beginFrame(7); });
    CHECK(renderer->stats().liveTextures == 1);
}

// Cells are colored on the CPU when a texture is made: once per matrix, size, colormap and range, never per frame.
TEST_CASE("a texture is colored once per colormap and range: redrawing colors nothing, a new colormap colors the kept copy") {
    GlWindow window(64, 64);
    auto renderer = render::createGlRenderer({shaderDir()});
    const std::vector<float> values{0.0f, 1.0f, 2.0f, 3.0f};
    const auto drawWith = [&](const render::HeatmapStyle& style) {
        return window.frame([&](ImDrawList& list) {
            renderer->beginFrame(3);
            renderer->draw(list, renderer->heatmap(keyNumber(4), {values, 2, 2}), {0, 0}, {64, 64}, style);
        });
    };
    for (int frame = 0; frame < 3; ++frame) drawWith({Colormap::Viridis, 0.0f, 3.0f, {}});
    CHECK(render::texturesColored(*renderer) == 1);
    const render::RgbaImage magma = drawWith({Colormap::Magma, 0.0f, 3.0f, {}});
    CHECK(render::texturesColored(*renderer) == 2);
    CHECK(pixel(magma, 48, 16) == colormap::sample(Colormap::Magma, 1.0f, 0.0f, 3.0f));
    const render::RgbaImage wider = drawWith({Colormap::Magma, 0.0f, 6.0f, {}});
    CHECK(render::texturesColored(*renderer) == 3);
    CHECK(pixel(wider, 48, 48) == colormap::sample(Colormap::Magma, 3.0f, 0.0f, 6.0f));
    CHECK(renderer->stats().uploads == 1);       // the matrix itself was copied once
    CHECK(renderer->stats().liveTextures == 1);  // the variants not drawn this frame are gone
}

TEST_CASE("a transposed upload draws cols × rows") {
    GlWindow window(100, 150);
    auto renderer = render::createGlRenderer({shaderDir()});
    const std::vector<float> values{0.0f, 0.1f, 0.2f,
                                    0.6f, 0.7f, 0.8f};  // 2 × 3 → drawn 3 × 2
    const render::RgbaImage image = window.frame([&](ImDrawList& list) {
        renderer->beginFrame(1);
        renderer->draw(list, renderer->heatmap(keyNumber(1), {values, 2, 3}, true), {0, 0}, {100, 150}, {Colormap::Viridis, 0.0f, 1.0f, {}});
    });
    CHECK(pixel(image, 75, 25) == colormap::sample(Colormap::Viridis, 0.6f, 0.0f, 1.0f));   // display (0, 1) = source (1, 0)
    CHECK(pixel(image, 25, 125) == colormap::sample(Colormap::Viridis, 0.2f, 0.0f, 1.0f));  // display (2, 0) = source (0, 2)
}

TEST_CASE("a 2048-row matrix keeps a CPU copy pooled to 1024 rows, and draws the same at any size") {
    constexpr int kRows = 2048, kCols = 4;
    std::vector<float> values(static_cast<std::size_t>(kRows) * kCols, 0.0f);
    values[1537 * kCols + 2] = 1.0f;  // row 1537, column 2
    for (const int height : {1024, 256}) {
        CAPTURE(height);
        GlWindow window(64, height);
        auto renderer = render::createGlRenderer({shaderDir()});
        const render::RgbaImage image = window.frame([&](ImDrawList& list) {
            renderer->beginFrame(1);
            renderer->draw(list, renderer->heatmap(keyNumber(1), {values, kRows, kCols}), {0, 0}, {64, static_cast<float>(height)},
                           {Colormap::Viridis, 0.0f, 1.0f, {}});
        });
        CHECK(renderer->stats().keptValues == static_cast<std::size_t>(1024) * kCols);  // 4 MiB, not 8, for 2048²
        // The spike covers exactly its pooled block: rows 1536-1537 at 1024 px, 1536-1543 at 256 px.
        const Rgb8 top = colormap::table(Colormap::Viridis)[255];
        const int pixelsPerRowBlock = 1, firstRow = 1537 * height / kRows;
        int found = 0;
        for (int y = 0; y < height; ++y) found += pixel(image, 40, y) == top ? 1 : 0;
        CHECK(found == pixelsPerRowBlock);
        CHECK(pixel(image, 40, firstRow) == top);
        CHECK(pixel(image, 10, firstRow) != top);  // column 0 of the same rows is untouched
    }
}

}  // namespace attnviz::test
