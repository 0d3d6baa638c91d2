// web_main.cpp — attnviz as a web page: the desktop's App, panels, heatmap renderer, fonts, look and input queue in
// the browser's canvas, drawn by a frame function the browser calls (emscripten_set_main_loop) instead of
// gui_main.cpp's loop. Opens on the desktop's first screen: the bundled model, its coreference head at softmax.
//
// The canvas fills the browser window and follows its size and device pixel ratio (the page's "content scale",
// which Emscripten's GLFW does not report). The data file (src/app/web/CMakeLists.txt) holds assets/models at
// /assets/models and the DejaVu fonts at their Debian paths. Each frame the window title names the session; after
// the first frame the page writes "attnviz: first frame drawn" to the console, and each new status line as
// "attnviz status: …" (tests/web reads both).
//
// Files (browser_files.h): figures and saved sessions arrive as browser downloads, File ▸ Open… and Open model
// folder… ask the browser's choosers, files dropped on the page open. The state folder (settings, imgui.ini, the
// autosave) is in the browser's storage: the last visit's settings come back, its unsaved changes are offered back
// as after a desktop crash (a closed tab is one), and changes are copied to storage every few seconds and when the
// tab is hidden. What the page cannot do it says in one sentence: PDF (the export dialog), quitting (File ▸ Quit).
//
// Not yet (issue 38): F5 as the browser's full screen, models from the Hub, threads.
#define GLFW_INCLUDE_NONE
#include "app/cli_options.h"
#include "app/gui_autosave.h"
#include "app/gui_export.h"
#include "app/gui_fonts.h"
#include "app/gui_frame.h"
#include "app/gui_settings.h"
#include "app/gui_style.h"
#include "app/input_queue.h"
#include "app/web/browser_files.h"
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
#include <optional>
#include <random>
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

constexpr double kStorageInterval = 5.0;  // seconds between copies of the settings and autosave into browser storage
constexpr const char* kNoQuit = "A web page cannot close itself: close the browser tab (settings and unsaved changes stay in this browser).";

// What the page's export cannot do, said in the export dialog.
ui::ExportLimits pageExportLimits() {
    return {"The web page cannot write PDF (it has no Cairo): export PNG or SVG here, or PDF from the desktop app.",
            "The figures arrive as browser downloads."};
}

// The first screen: what the desktop opens on with no options, with the last visit's inputs and view (unless that
// visit died before drawing them) and its unsaved changes offered back.
ui::AppState firstState(const std::optional<SavedSession>& saved, std::optional<ui::RestoreOffer> autosaved, bool diedBeforeDrawing) {
    ui::AppState state;
    state.spec = toModelSpec(InputOptions{});
    if (saved && !diedBeforeDrawing) {
        restoreInputs(*saved, state);
        restoreView(*saved, state);
    }
    if (saved) {
        state.session.recent = saved->state.session.recent;
        state.session.recentModels = saved->state.session.recentModels;
    }
    if (diedBeforeDrawing) state.status = kDiedBeforeDrawingNote;
    if (const core::NamedHead* featured = featuredHeadOnScreen(state.spec)) {
        state.stage = core::StageId::Softmax;
        if (!saved) state.head = featured->head;
    }
    state.session.restoreOffer = offerAtStart(std::move(autosaved), diedBeforeDrawing);
    state.exportPng = makeExportHook(web::kDownloadsFolder);
    state.exportLimits = pageExportLimits();
    if (const std::string problem = web::storageProblem(); !problem.empty()) state.status = problem;
    return state;
}

// A name for this visit's autosave files: every visit has the same process id.
std::string visitName() { return "visit-" + std::to_string(std::random_device{}()); }

// Everything the frames share, alive for the page's lifetime (the browser keeps calling frame()).
struct Page {
    GLFWwindow* window = nullptr;
    InputQueue input;
    std::unique_ptr<GuiFonts> fonts;
    std::unique_ptr<render::HeatmapRenderer> renderer;
    std::unique_ptr<ui::App> app;
    std::unique_ptr<LookKeeper> look;
    std::optional<std::filesystem::path> stateDir;  // in browser storage
    std::optional<Autosaver> autosaver;
    std::optional<DrawingMarker> drawing;
    double lastStored = 0.0;
    std::string title;
    std::string status;  // the status line as last written to the console
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

Page* thePage = nullptr;  // for attnviz_page_hidden

// Copies the settings (and, through the autosaver, unsaved changes) into the state folder and the browser's storage.
void store(Page& page) {
    if (!page.stateDir) return;
    SavedSession session{{page.cssWidth, page.cssHeight}, page.app->state()};
    if (!saveSession(*page.stateDir / "settings.json", session)) page.app->state().status = "The page could not save its settings in the browser's storage.";
    if (ImGui::GetIO().WantSaveIniSettings) ImGui::SaveIniSettingsToDisk(ImGui::GetIO().IniFilename);
    web::syncStorage();
}

// What the desktop's loop does between frames that the page does too: files across the browser's edge, the
// autosave, the title, the drawing marker; and the page's own: storage every kStorageInterval, no quitting.
void keepSession(Page& page) {
    ui::AppState& state = page.app->state();
    web::exchangeFiles(state);
    if (page.autosaver) {
        if (std::string problem = page.autosaver->tick(state, glfwGetTime()); !problem.empty()) state.status = std::move(problem);
    }
    if (page.drawing) page.drawing->afterFrame(state, page.app->computing());
    if (state.quitRequested) {
        state.quitRequested = false;
        state.status = kNoQuit;
    }
    if (const std::string wanted = ui::windowTitle(state); wanted != page.title) {
        page.title = wanted;
        glfwSetWindowTitle(page.window, page.title.c_str());
    }
    if (state.status != page.status) {  // the console mirrors the status line (tests/web reads it)
        page.status = state.status;
        if (!page.status.empty()) std::cout << "attnviz status: " << page.status << std::endl;
    }
    if (glfwGetTime() - page.lastStored >= kStorageInterval) {
        page.lastStored = glfwGetTime();
        store(page);
    }
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
    keepSession(page);
    if (++page.frames == 1) std::cout << "attnviz: first frame drawn (" << pixels.width << "x" << pixels.height << ")" << std::endl;
}

// Opens the canvas's WebGL 2 context, ImGui and the App; the browser then calls frame() before each repaint.
int startPage() {
    setenv("ATTNVIZ_ASSETS", "/assets", 0);  // the data file's folder (io/assets.h)
    if (!glfwInit()) {
        std::cerr << "attnviz: the page cannot start GLFW.\n";
        return kExitNoDisplay;
    }
    setenv("XDG_STATE_HOME", web::kStorageFolder, 1);  // the state folder in browser storage (browser_files.js)
    auto* page = new Page;  // never freed: the page lives until the tab closes
    thePage = page;
    page->stateDir = stateDirectory();
    std::optional<SavedSession> saved;
    std::optional<ui::RestoreOffer> autosaved;
    if (page->stateDir) {
        if (std::filesystem::exists(*page->stateDir / "settings.json")) saved = loadSession(*page->stateDir / "settings.json", {});
        autosaved = findAutosave(*page->stateDir);
        page->autosaver.emplace(*page->stateDir, autosaved.has_value(), visitName());
        page->drawing.emplace(*page->stateDir / kDrawingMarkerName);
        web::syncStorage();  // the marker in storage before a restored sentence can take the page down
    }
    const bool diedBeforeDrawing = page->drawing && page->drawing->lastStartDied();
    page->app = std::make_unique<ui::App>(firstState(saved, std::move(autosaved), diedBeforeDrawing));
    page->app->setFilePicker(web::makeBrowserFilePicker());
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
    static std::string iniFile;  // ImGui keeps the pointer
    iniFile = page->stateDir ? (*page->stateDir / "imgui.ini").string() : "";
    ImGui::GetIO().IniFilename = page->stateDir ? iniFile.c_str() : nullptr;
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

// Called by browser_files.js when the tab is hidden (switched away from, closed, navigated away): store now.
// Unsaved changes are written now, as at a desktop exit (Autosaver::finish; the ticks go on if the tab comes back),
// not up to Autosaver::kInterval later.
extern "C" EMSCRIPTEN_KEEPALIVE void attnviz_page_hidden() {
    using attnviz::app::thePage;
    if (thePage == nullptr || !thePage->app) return;
    if (thePage->autosaver) thePage->autosaver->finish(thePage->app->state());
    attnviz::app::store(*thePage);
}

int main() {
    try {
        return attnviz::app::startPage();
    } catch (const std::exception& error) {
        std::cerr << "attnviz: " << error.what() << '\n';
        return attnviz::app::kExitRunError;
    }
}
