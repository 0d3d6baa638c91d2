// framebuffer.h — the two whole-window GL operations the app's main loop needs, kept here so that no GL
// header or call appears outside src/render: clearing the window before ImGui draws, reading it back for
// `--screenshot`, and waiting for the GPU (bench/bench_gui times a frame up to the last pixel drawn).
//
// Does not create windows or contexts (GLFW in src/app does) and does not encode images (the caller writes
// the PNG).
#pragma once

#include <cstdint>
#include <vector>

namespace attnviz::render {

// glViewport(0, 0, width, height) and a clear to the given color (0–1 per channel).
void clearFramebuffer(int width, int height, float red, float green, float blue);

// An 8-bit RGBA image, top row first (GL reads bottom row first; this flips it).
struct RgbaImage {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> pixels;  // width · height · 4
};

// Reads the back buffer of the current context after ImGui has rendered into it, before the swap.
RgbaImage readFramebuffer(int width, int height);

// glFinish: returns when every command sent to the current context has been executed.
void finishDrawing();

}  // namespace attnviz::render
