// web_main.cpp — attnviz as a web page: the desktop's App, panels, heatmap renderer, fonts, look and input queue in
// the browser's canvas, drawn by a frame function the browser calls (emscripten_set_main_loop) instead of
// gui_main.cpp's loop. Opens on the desktop's first screen: the bundled model, its coreference head at softmax.
//
// The canvas fills the browser window and follows its size and device pixel ratio (the page's "content scale",
// which Emscripten's GLFW does not report). The data file (src/app/web/CMakeLists.txt) holds assets/models at
// /assets/models and the DejaVu fonts at their Debian paths. Each frame the window title names the session; after
// the first frame the page writes "attnviz: first frame drawn" to the console (tests/web reads it).
//
// Not yet (issue 38): saved settings and autosave (browser storage), file pickers, figure export, F5 as the
// browser's full screen, models from the disk or the Hub, threads.
#define GLFW_INCLUDE_NONE
#include "app/cli_options.h"
#include "app/gui_fonts.h"
#include "app/gui_frame.h"
#include "app/gui_style.h"
#include "app/input_queue.h"
#include "app/web/page_numbers.h"
#include "render/gl_heatmap_renderer.h"
#include "ui/app.h"
#include "ui/session/session_actions.h"

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

namespace attnviz::app {
namespace {

constexpr const char* kCanvas = "#canvas";

// The browser window's size in CSS pixels.
EM_JS(int, browserWidth, (), { return window.innerWidth; });
EM_JS(int, browserHeight, (), { return window.innerHeight; });

// The page's content scale: the device pixel ratio (2 on a Retina screen, more when the browser zooms), as gui_main
// clamps the monitor's.
float contentScale() { return std::clamp(static_cast<float>(emscripten_get_device_pixel_ratio()), 1.0f, 4.0f); }

// The first screen: what the desktop opens on with no options and no saved settings.
ui::AppState firstState() {
    ui::AppState state;
    state.spec = toModelSpec(InputOptions{});
    if (const core::NamedHead* featured = featuredHeadOnScreen(state.spec)) {
        state.stage = core::StageId::Softmax;
        state.head = featured->head;
    }
    return state;
}

// Everything the frames share, alive for the page's lifetime (the browser keeps calling frame()).
struct Page {
    GLFWwindow* window = nullptr;
    InputQueue input;
    std::unique_ptr<GuiFonts> fonts;
    std::unique_ptr<render::HeatmapRenderer> renderer;
    std::unique_ptr<ui::App> app;
    std::unique_ptr<LookKeeper> look;
    std::string title;
    int frames = 0;
    int cssWidth = 0, cssHeight = 0;
    float scale = 1.0f;
};

// Keeps the canvas the size of the browser window: its pixels the window's CSS size × the device pixel ratio, shown
// at the CSS size, so text stays sharp on a high-DPI screen.
void followBrowserWindow(Page& page) {
    const int width = std::max(1, browserWidth()), height = std::max(1, browserHeight());
    const float scale = contentScale();
    if (width == page.cssWidth && height == page.cssHeight && scale == page.scale) return;
    page.cssWidth = width;
    page.cssHeight = height;
    page.scale = scale;
    glfwSetWindowSize(page.window, static_cast<int>(std::lround(width * scale)), static_cast<int>(std::lround(height * scale)));
    emscripten_set_element_css_size(kCanvas, width, height);
}

void frame(void* argument) {
    Page& page = *static_cast<Page*>(argument);
    followBrowserWindow(page);
    glfwPollEvents();
    feedQueuedInput(page.window, page.input);
    ui::App& app = *page.app;
    const float scale = followLook(*page.look, *page.fonts, page.scale, app.state());
    coverTexts(*page.fonts, app.state());
    const PixelSize pixels = renderFrame(page.window, false, [&] { app.frame(*page.renderer, page.fonts->fonts(), scale); });
    if (const std::string wanted = ui::windowTitle(app.state()); wanted != page.title) {
        page.title = wanted;
        glfwSetWindowTitle(page.window, page.title.c_str());
    }
    if (++page.frames == 1) std::cout << "attnviz: first frame drawn (" << pixels.width << "x" << pixels.height << ")" << std::endl;
}

// Opens the canvas's WebGL 2 context, ImGui and the App; the browser then calls frame() before each repaint.
int startPage() {
    setenv("ATTNVIZ_ASSETS", "/assets", 0);  // the data file's folder (io/assets.h)
    if (!glfwInit()) {
        std::cerr << "attnviz: the page cannot start GLFW.\n";
        return kExitNoDisplay;
    }
    auto* page = new Page;  // never freed: the page lives until the tab closes
    page->app = std::make_unique<ui::App>(firstState());
    exposeNumbers(*page->app);  // attnviz_page_numbers(): the tests read the page's numbers
    page->window = glfwCreateWindow(800, 600, "attnviz — multi-head attention, one matrix at a time", nullptr, nullptr);
    if (page->window == nullptr) {
        std::cerr << "attnviz: this browser gives the page no WebGL 2; try a current Firefox, Chrome or Safari.\n";
        return kExitNoDisplay;
    }
    glfwMakeContextCurrent(page->window);
    followBrowserWindow(*page);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // no saved layout yet (browser storage: issue 38 item 4)
    styleForProjector(page->scale);
    ImGui_ImplGlfw_InitForOpenGL(page->window, true);
    queueInput(page->window, page->input);
    ImGui_ImplOpenGL3_Init("#version 300 es");
    page->fonts = std::make_unique<GuiFonts>(std::round(kBaseFontSize * page->scale));
    page->renderer = render::createGlRenderer({});  // no shader folder in the page: the embedded copies
    page->look = std::make_unique<LookKeeper>(ImGui::GetStyle());
    emscripten_set_main_loop_arg(frame, page, 0, true);
    return 0;
}

}  // namespace
}  // namespace attnviz::app

int main() {
    try {
        return attnviz::app::startPage();
    } catch (const std::exception& error) {
        std::cerr << "attnviz: " << error.what() << '\n';
        return attnviz::app::kExitRunError;
    }
}
