// gui_frame.cpp — the body of the window's frame. See gui_frame.h.
#define GLFW_INCLUDE_NONE
#include "app/gui_frame.h"

#include "render/framebuffer.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cfloat>
#include <chrono>
#include <thread>

namespace attnviz::app {
namespace {

// The backend made its font texture from the atlas's pixels (in its first NewFrame, or after coverTexts): the CPU
// copies (8-bit and RGBA, about 5 bytes per texel) are not needed any more until the atlas is rebuilt.
void freeAtlasPixels() {
    ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
    if (atlas.TexPixelsAlpha8 != nullptr || atlas.TexPixelsRGBA32 != nullptr) atlas.ClearTexData();
}

}  // namespace

void hintOpenGl33Core() {
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    // ImGui and the heatmaps draw in painter's order with the depth and stencil tests off: a window without those
    // buffers (GLFW asks for 24 + 8 bits by default), which a driver would otherwise allocate and carry for nothing.
    glfwWindowHint(GLFW_DEPTH_BITS, 0);
    glfwWindowHint(GLFW_STENCIL_BITS, 0);
}

void coverTexts(GuiFonts& fonts, const ui::AppState& state) {
    std::vector<std::string> texts = state.spec.sentences;
    const std::vector<std::string>& decoderSentences = core::seededChoices(state.spec).decoderSentences;
    texts.insert(texts.end(), decoderSentences.begin(), decoderSentences.end());
    if (!fonts.cover(texts)) return;
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
}

float followLook(LookKeeper& look, GuiFonts& fonts, float contentScale, const ui::AppState& state) {
    int width = 0, height = 0;
    glfwGetFramebufferSize(glfwGetCurrentContext(), &width, &height);
    if (look.follow(lookInputsOf(state, static_cast<float>(height), contentScale)) && fonts.resize(look.look().fontPixels)) {
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    return look.look().scale;
}

PixelSize renderFrame(GLFWwindow* window, bool hidePointer, const std::function<void()>& draw) {
    ImGui_ImplOpenGL3_NewFrame();
    freeAtlasPixels();
    ImGui_ImplGlfw_NewFrame();
    if (hidePointer) ImGui::GetIO().MousePos = {-FLT_MAX, -FLT_MAX};  // no hover effects from wherever the pointer is
    ImGui::NewFrame();
    draw();
    ImGui::Render();
    PixelSize size;
    glfwGetFramebufferSize(window, &size.width, &size.height);
    render::clearFramebuffer(size.width, size.height, 1.0f, 1.0f, 1.0f);  // the panels' white (gui_style.cpp)
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    return size;
}

void waitForFrameSlot(double frameStartSeconds) {
    const double left = 1.0 / kFramesPerSecond - (glfwGetTime() - frameStartSeconds);
    if (left > 0.0) std::this_thread::sleep_for(std::chrono::duration<double>(left));
}

}  // namespace attnviz::app
