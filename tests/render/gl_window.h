// gl_window.h — for GL tests: a 3.3 core context in a GLFW window with Dear ImGui and its OpenGL3 backend, one
// frame at a time, read back as RGBA. Needs a display (ctest label `gui`; scripts/test runs them under xvfb-run).
#pragma once

#define GLFW_INCLUDE_NONE
#include "render/framebuffer.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <functional>
#include <stdexcept>
#include <string>

namespace attnviz::test {

class GlWindow {
public:
    GlWindow(int width, int height) : width_(width), height_(height) {
        static std::string glfwError;
        glfwSetErrorCallback([](int, const char* description) { glfwError = description; });
        if (!glfwInit()) throw std::runtime_error("GL tests need a display: run them under xvfb-run (ctest -L gui): " + glfwError);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
        window_ = glfwCreateWindow(width, height, "attnviz GL test", nullptr, nullptr);
        if (window_ == nullptr) throw std::runtime_error("cannot create an OpenGL 3.3 window");
        glfwMakeContextCurrent(window_);
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = nullptr;
        ImGui_ImplGlfw_InitForOpenGL(window_, false);
        ImGui_ImplOpenGL3_Init("#version 330 core");
    }
    GlWindow(const GlWindow&) = delete;
    GlWindow& operator=(const GlWindow&) = delete;
    ~GlWindow() {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
        glfwDestroyWindow(window_);
        glfwTerminate();
    }

    // Runs one ImGui frame in which `draw` adds to the foreground draw list, renders it, reads it back.
    render::RgbaImage frame(const std::function<void(ImDrawList&)>& draw) {
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        draw(*ImGui::GetForegroundDrawList());
        ImGui::Render();
        int w = 0, h = 0;
        glfwGetFramebufferSize(window_, &w, &h);
        render::clearFramebuffer(w, h, 0.0f, 0.0f, 0.0f);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        render::RgbaImage image = render::readFramebuffer(w, h);
        glfwSwapBuffers(window_);
        return image;
    }
    int width() const { return width_; }
    int height() const { return height_; }

private:
    GLFWwindow* window_ = nullptr;
    int width_, height_;
};

}  // namespace attnviz::test
