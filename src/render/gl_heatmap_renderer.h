// gl_heatmap_renderer.h — the OpenGL 3.3 core HeatmapRenderer (library attnviz_render_gl, the only place
// in the program that calls GL besides the ImGui OpenGL3 backend). src/ui never includes this: it gets a
// HeatmapRenderer from src/app, or the null renderer in tests.
#pragma once

#include "render/heatmap_renderer.h"

#include <cstdint>
#include <filesystem>
#include <memory>

namespace attnviz::render {

struct GlRendererOptions {
    std::filesystem::path shaderDir;  // holds heatmap.vert and heatmap.frag; missing → the embedded copies
    int maxTextureSize = 0;           // 0 → GL_MAX_TEXTURE_SIZE; smaller values exercise the pooling path
};

// The OpenGL 3.3 core implementation. Needs a current context (after ImGui_ImplOpenGL3_Init). Throws
// std::runtime_error with the compiler's log when neither the shader files nor the embedded copies compile.
std::unique_ptr<HeatmapRenderer> createGlRenderer(const GlRendererOptions& options);

// How many textures a renderer from createGlRenderer has colored on the CPU so far: one per matrix, size, colormap
// and range drawn, none per frame. For tests and benchmarks; 0 for any other renderer.
std::uint64_t texturesColored(const HeatmapRenderer& renderer);

}  // namespace attnviz::render
