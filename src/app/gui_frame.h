// gui_frame.h — one frame of the window between polling events and swapping buffers: the font atlas grown for
// new characters, the ImGui frame around the caller's drawing, the clear and ImGui's draw data rendered.
// gui_main's loop and bench/bench_gui's timed frames both call it, so the benchmark times the app's own frame;
// both open their window with the same context hints.
//
// Does not poll events, swap buffers or decide what is drawn (the caller's `draw` does, e.g. ui::App::frame).
#pragma once

#include "app/gui_fonts.h"
#include "app/gui_style.h"
#include "app/gui_screenshot.h"
#include "ui/app_state.h"

#include <functional>

struct GLFWwindow;

namespace attnviz::app {

// Window hints for the context the app and its shaders need: OpenGL 3.3 core, forward-compatible. Call before
// glfwCreateWindow.
void hintOpenGl33Core();

// Makes the atlas cover every sentence of `state` (typed characters may be new), recreating the backend's font
// texture when it grew. Call before renderFrame.
void coverTexts(GuiFonts& fonts, const ui::AppState& state);

// The UI scale this frame: the look (gui_style.h) of the zoom, presenting, the framebuffer and the monitor's
// `contentScale`. A change rebuilds the style from its base and the fonts (and the backend's font texture) between
// two frames.
float followLook(LookKeeper& look, GuiFonts& fonts, float contentScale, const ui::AppState& state);

// NewFrame of both backends and ImGui, `draw`, Render, then clear the framebuffer and draw ImGui's draw data
// into it. With `hidePointer`, ImGui sees no mouse (reproducible screenshots). Returns the framebuffer size.
PixelSize renderFrame(GLFWwindow* window, bool hidePointer, const std::function<void()>& draw);

// While animating (computing, playing, after input), frames start at most kFramesPerSecond times a second: a
// display's vsync would pace them, Xvfb's does not. Sleeps what is left of the frame period since
// `frameStartSeconds` (glfwGetTime()). On 2 cores the unpaced loop took CPU from the worker thread: twice as many
// results reached the screen while editing at (1024, 768, 12) with the pace (bench_gui editing).
inline constexpr double kFramesPerSecond = 60.0;
void waitForFrameSlot(double frameStartSeconds);

}  // namespace attnviz::app
