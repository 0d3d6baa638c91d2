// gui_main.cpp — runGui(): the desktop app's main loop, in the order of Dear ImGui's
// example_glfw_opengl3/main.cpp: GLFW and GL 3.3 core hints, window, ImGui context, backends, fonts, loop
// (poll, fonts, new frame, App::frame, render, swap; the frame itself is gui_frame.h's), cleanup in reverse. With
// --screenshot it renders a few frames, writes the window as PNG and exits; with --quit-after-frames N it exits
// after N frames (startup and memory measurements, bench/bench_gui). Neither reads or writes saved settings.
//
// Between frames it keeps the window title (session name, "•" when unsaved) and the autosave (gui_autosave.h),
// and asks before a window with unsaved changes closes. Everything the user sees is App (src/ui); GL calls are
// in src/render. This file does not draw panels, compute forward passes or touch GL directly. Without a display
// it says what is missing and that the headless subcommands work, and returns 3.
#define GLFW_INCLUDE_NONE
#include "app/cli_options.h"
#include "app/gui_autosave.h"
#include "app/gui_export.h"
#include "app/gui_file_dialog.h"
#include "app/gui_fonts.h"
#include "app/gui_frame.h"
#include "app/gui_screenshot.h"
#include "app/gui_settings.h"
#include "app/gui_style.h"
#include "app/input_queue.h"
#include "core/limits.h"
#include "io/assets.h"
#include "render/framebuffer.h"
#include "render/gl_heatmap_renderer.h"
#include "ui/app.h"
#include "ui/session/session_actions.h"
#include "ui/lessons/lesson_catalog.h"
#include "ui/widgets/wide_characters.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <stb_image.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace attnviz::app {
namespace {

constexpr int kScreenshotFrames = 4;     // the first frames settle fonts and layout
constexpr PixelSize kDefaultSize{1600, 1000};
constexpr double kIdleWaitSeconds = 0.5;  // idle: wake twice a second (the text cursor blinks)
constexpr int kFramesAfterInput = 3;      // the inspector explains the cell hovered a frame earlier

std::string lastGlfwError;
volatile std::sig_atomic_t stopRequested = 0;  // Ctrl+C, SIGTERM, SIGHUP: leave the loop and save, as a closed window does

void recordGlfwError(int /*code*/, const char* description) { lastGlfwError = description; }
void requestStop(int /*signal*/) { stopRequested = 1; }

// The options that are not about the numbers, checked before any window opens.
struct GuiPlan {
    std::optional<core::StageId> stage;
    bool ropeStep = false;  // --stage rope: stage 3's RoPE step
    std::optional<PixelSize> size;
    int head = 0;
    std::optional<ui::Lesson> lesson;
    std::optional<core::QuestionKind> ask;
};

std::optional<GuiPlan> checkOptions(const core::ModelSpec& spec, const GuiOptions& options) {
    GuiPlan plan;
    if (!options.stage.empty()) {
        plan.ropeStep = options.stage == "rope";
        plan.stage = plan.ropeStep ? core::StageId::SplitHeads : core::findStage(options.stage);
        if (!plan.stage) {
            std::cerr << "attnviz: --stage " << options.stage << ": use a number 0-" << core::kStageCount - 1
                      << " or a stage name (tokens, embed, project, split, rope, scores, scale, mask, softmax, weighted_sum, concat, output).\n";
            return std::nullopt;
        }
    }
    if (!options.lesson.empty()) {
        plan.lesson = ui::findLesson(options.lesson);
        if (!plan.lesson) {
            std::cerr << "attnviz: --lesson " << options.lesson << ": use one of " << ui::lessonKeys() << ".\n";
            return std::nullopt;
        }
    }
    if (!options.ask.empty()) {
        plan.ask = core::findQuestionKind(options.ask);
        if (!plan.ask) {
            std::cerr << "attnviz: --ask " << options.ask << ": use " << core::questionKeys() << ".\n";
            return std::nullopt;
        }
    }
    const auto rowLength = [&](const std::string& row) { return row.size() != options.askCells.front().size(); };
    if (!options.askCells.empty() && std::any_of(options.askCells.begin(), options.askCells.end(), rowLength)) {
        std::cerr << "attnviz: --ask-cells: every row must have as many cells as the first (" << options.askCells.front().size() << ").\n";
        return std::nullopt;
    }
    if (!options.size.empty()) {
        plan.size = parseSize(options.size);
        if (!plan.size) {
            std::cerr << "attnviz: --size " << options.size << ": write WIDTHxHEIGHT, e.g. 1600x1000 (200-16384 each).\n";
            return std::nullopt;
        }
    }
    const int heads = core::resolveDimensions(spec.attention).heads;
    if (options.head < 0 || options.head >= heads) {
        std::cerr << "attnviz: --head " << options.head << ": this model has " << heads << " heads, numbered 0-" << heads - 1 << ".\n";
        return std::nullopt;
    }
    plan.head = options.head;
    // A trained model with a named head (the bundled model's coreference head) opens on it, at the softmax stage
    // where its weights show, unless the command line chose a stage or a head.
    const core::NamedHead* featured = featuredHeadOnScreen(spec);
    if (featured != nullptr && options.stage.empty() && options.head == 0) {
        plan.stage = core::StageId::Softmax;
        plan.head = featured->head;
    }
    return plan;
}

// --ask-cells' rows ("0111", one per query, of one length) as the mask question's clicked cells.
core::CellPicture clickedCells(const std::vector<std::string>& rows) {
    core::CellPicture cells{static_cast<int>(rows.size()), static_cast<int>(rows.front().size()), {}};
    for (const std::string& row : rows) {
        for (char c : row) cells.removed.push_back(c == '1' ? 1 : 0);
    }
    return cells;
}

// The folder of the shader files: beside the binary in the build tree, <prefix>/share/attnviz/shaders when
// installed. The renderer falls back to its embedded copies when neither is there.
std::filesystem::path shaderDirectory() {
    std::error_code error;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
    const std::filesystem::path besideBinary = (error ? std::filesystem::current_path() : exe.parent_path()) / "shaders";
    if (std::filesystem::exists(besideBinary, error)) return besideBinary;
    return io::findAsset("shaders").value_or(besideBinary);
}

// The window's icon (title bar, task switcher) from the installed or source tree's assets/icons; none when the
// files are missing. Desktop environments that read the .desktop entry use the hicolor icon instead.
void setWindowIcon(GLFWwindow* window) {
    std::vector<GLFWimage> images;
    std::vector<std::unique_ptr<unsigned char, void (*)(void*)>> pixels;
    for (int size : {32, 48, 128}) {
        const auto file = io::findAsset("icons/attnviz-" + std::to_string(size) + ".png");
        if (!file) continue;
        int width = 0, height = 0, channels = 0;
        unsigned char* rgba = stbi_load(file->c_str(), &width, &height, &channels, 4);
        if (rgba == nullptr) continue;
        pixels.emplace_back(rgba, stbi_image_free);
        images.push_back({width, height, rgba});
    }
    if (!images.empty()) glfwSetWindowIcon(window, static_cast<int>(images.size()), images.data());
}

// A window that fits the monitor's work area (at most the default size).
PixelSize fittingSize() {
    int x = 0, y = 0, width = kDefaultSize.width, height = kDefaultSize.height;
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) glfwGetMonitorWorkarea(monitor, &x, &y, &width, &height);
    return {std::min(kDefaultSize.width, width * 9 / 10), std::min(kDefaultSize.height, height * 9 / 10)};
}

// --screenshot and --quit-after-frames run unattended: no saved settings read or written, no idle waiting.
bool unattended(const GuiOptions& options) { return options.screenshot || options.quitAfterFrames; }

// Startup state: the command line's inputs, or the saved ones when it gave none; the saved view unless
// --session or --stage/--head say otherwise. Screenshots ignore saved settings, so they are reproducible. After a
// start that died before drawing (DrawingMarker), neither saved inputs nor the saved view: the status says why.
ui::AppState initialState(const core::ModelSpec& spec, const GuiOptions& options, const GuiPlan& plan,
                          const std::optional<SavedSession>& saved, const std::optional<io::Session>& session,
                          const std::optional<std::filesystem::path>& stateDir, bool diedBeforeDrawing) {
    ui::AppState state;
    state.spec = spec;
    if (saved) {
        const bool restore = !session && !options.inputsGiven && !diedBeforeDrawing;
        if (restore) restoreInputs(*saved, state);
        if (restore && stateDir) requestRememberedModel(*saved, *stateDir / kOpeningMarkerName, state);
        if (!diedBeforeDrawing) restoreView(*saved, state);
        if (diedBeforeDrawing) state.status = kDiedBeforeDrawingNote;
        state.session.recent = saved->state.session.recent;
        state.session.recentModels = saved->state.session.recentModels;
    }
    if (session) ui::applyOpenedSession({*session, spec}, std::filesystem::absolute(*options.session), state);
    if (!options.fetchRepo.empty()) {  // --model REPO_ID, not cached: File ▸ Get a model fetches it, then it opens
        state.session.request = {ui::SessionAction::GetModel, {}, options.fetchRepo, options.fetchLayer};
    }
    if (plan.stage) state.stage = *plan.stage;
    state.ropeStep = plan.ropeStep;
    state.modelView = options.modelView && spec.trainedModel() != nullptr;
    if (plan.lesson) ui::openLessonAtStart(state, *plan.lesson);
    if (plan.ask) {  // the question opens as Q opens it, then the command line's picks, counts and reveal
        ui::toggleAsk(state);
        state.ask.kind = *plan.ask;
        if (options.askPick) state.ask.picks.picked = *options.askPick - 1;
        state.ask.picks.counts = options.askCounts;
        state.ask.picks.typed = options.askWord;
        if (!options.askCells.empty()) state.ask.picks.cells = clickedCells(options.askCells);
        state.ask.revealed = options.reveal;
    }
    state.presenting = options.present;
    if (options.zoom) state.zoom = ui::kZoomSteps[*options.zoom + 2];  // kZoomSteps[2] is 100 %
    if (options.allHeads) state.allHeads = true;  // moves to the lesson's stage, may add sentences
    if ((saved == std::nullopt && !session) || options.head != 0) state.head = plan.head;
    if (state.exportDirectory.empty()) state.exportDirectory = defaultExportDirectory().string();
    state.exportPng = makeExportHook();
    return state;
}

// [SECTION] Lecture hall: zoom and presentation mode

// Presentation mode fills the monitor the window is on; leaving it puts the window back where it was.
class FullScreen {
public:
    void follow(GLFWwindow* window, bool wanted) {
        if (wanted == on_) return;
        on_ = wanted;
        if (wanted) {
            glfwGetWindowPos(window, &x_, &y_);
            glfwGetWindowSize(window, &width_, &height_);
            GLFWmonitor* monitor = monitorOf(window);
            const GLFWvidmode* mode = glfwGetVideoMode(monitor);
            if (mode != nullptr) glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
        } else {
            glfwSetWindowMonitor(window, nullptr, x_, y_, width_, height_, GLFW_DONT_CARE);
        }
    }

private:
    // The monitor holding the window's centre (the primary one when none does).
    static GLFWmonitor* monitorOf(GLFWwindow* window) {
        int x = 0, y = 0, width = 0, height = 0, count = 0;
        glfwGetWindowPos(window, &x, &y);
        glfwGetWindowSize(window, &width, &height);
        GLFWmonitor** monitors = glfwGetMonitors(&count);
        for (int i = 0; i < count; ++i) {
            int mx = 0, my = 0;
            glfwGetMonitorPos(monitors[i], &mx, &my);
            const GLFWvidmode* mode = glfwGetVideoMode(monitors[i]);
            const int cx = x + width / 2, cy = y + height / 2;
            if (mode != nullptr && cx >= mx && cx < mx + mode->width && cy >= my && cy < my + mode->height) return monitors[i];
        }
        return glfwGetPrimaryMonitor();
    }

    bool on_ = false;
    int x_ = 0, y_ = 0, width_ = 0, height_ = 0;
};

// Whether this frame saw the user do anything (so a few more frames follow before idling).
bool hadInput(const ImGuiIO& io) {
    if (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f || io.MouseWheel != 0.0f || io.InputQueueCharacters.Size > 0) return true;
    for (bool down : io.MouseDown) {
        if (down) return true;
    }
    for (bool down : io.KeysDown) {
        if (down) return true;
    }
    return false;
}

// The title names the session and shows "•" while it has unsaved changes; the autosave keeps those changes; the
// remembered model's marker goes once its open has finished.
void keepSession(GLFWwindow* window, ui::AppState& state, Autosaver* autosaver, std::string& title,
                 const std::optional<std::filesystem::path>& stateDir) {
    if (stateDir) followRememberedModel(*stateDir / kOpeningMarkerName, state);
    if (const std::string wanted = ui::windowTitle(state); wanted != title) {
        title = wanted;
        glfwSetWindowTitle(window, title.c_str());
    }
    if (autosaver == nullptr) return;
    if (std::string problem = autosaver->tick(state, glfwGetTime()); !problem.empty()) state.status = std::move(problem);
}

// Closing the window with unsaved changes asks first (the app's question answers Save / Close / Cancel).
void askBeforeClosing(GLFWwindow* window, ui::AppState& state) {
    if (!glfwWindowShouldClose(window) || ui::mayClose(state)) return;
    glfwSetWindowShouldClose(window, GLFW_FALSE);
    state.quitRequested = false;
    state.session.closeRequested = true;
}

// Renders until the window closes (or, for a screenshot, kScreenshotFrames frames and writes the PNG; or
// --quit-after-frames frames).
int mainLoop(GLFWwindow* window, ui::App& app, GuiFonts& fonts, render::HeatmapRenderer& renderer, float contentScale,
             const GuiOptions& options, Autosaver* autosaver, DrawingMarker* drawing, InputQueue& input,
             const std::optional<std::filesystem::path>& stateDir) {
    FullScreen fullScreen;
    LookKeeper look(ImGui::GetStyle());
    const std::optional<std::filesystem::path>& screenshot = options.screenshot;
    int busyFrames = kFramesAfterInput;
    std::string title;
    double frameStart = glfwGetTime();
    for (int frame = 1; !glfwWindowShouldClose(window) && stopRequested == 0; ++frame) {
        // Idle, wait for input (a laptop on a projector should not spin); animate while playing or computing, at
        // most kFramesPerSecond frames a second.
        if (unattended(options)) {
            glfwPollEvents();
        } else if (busyFrames > 0 || app.state().autoplay || app.computing() || !input.empty()) {
            waitForFrameSlot(frameStart);
            glfwPollEvents();
        } else {
            glfwWaitEventsTimeout(kIdleWaitSeconds);
        }
        frameStart = glfwGetTime();
        busyFrames = std::max(0, busyFrames - 1);
        feedQueuedInput(window, input);
        fullScreen.follow(window, app.state().presenting);
        const float scale = followLook(look, fonts, contentScale, app.state());
        coverTexts(fonts, app.state());
        const PixelSize pixels = renderFrame(window, screenshot.has_value(), [&] {
            if (hadInput(ImGui::GetIO())) busyFrames = kFramesAfterInput;
            app.frame(renderer, fonts.fonts(), scale);
            keepSession(window, app.state(), autosaver, title, stateDir);
        });
        if (screenshot && frame + 1 == kScreenshotFrames) app.waitForRun();  // the prediction panel's KV cache too
        if (screenshot && frame == kScreenshotFrames) {
            if (!writePng(*screenshot, render::readFramebuffer(pixels.width, pixels.height))) {
                std::cerr << "attnviz: cannot write " << screenshot->string() << ".\n";
                return 1;
            }
            std::cout << "attnviz: wrote " << screenshot->string() << " (" << pixels.width << "x" << pixels.height << ")\n";
            return 0;
        }
        glfwSwapBuffers(window);
        if (drawing != nullptr) drawing->afterFrame(app.state(), app.computing());
        if (options.quitAfterFrames && frame >= *options.quitAfterFrames) return 0;
        if (app.state().quitRequested) glfwSetWindowShouldClose(window, GLFW_TRUE);
        askBeforeClosing(window, app.state());
    }
    return 0;
}

void saveOnExit(GLFWwindow* window, const ui::App& app, const std::filesystem::path& directory) {
    SavedSession session{{}, app.state()};
    glfwGetWindowSize(window, &session.window.width, &session.window.height);
    if (!saveSession(directory / "settings.json", session)) {
        std::cerr << "attnviz: could not save settings in " << directory.string() << ".\n";
    }
}

}  // namespace

int runGui(const core::ModelSpec& spec, const GuiOptions& options) {
    const std::optional<GuiPlan> plan = checkOptions(spec, options);
    if (!plan) return kExitUsage;
    const std::optional<io::Session> session = options.session ? std::optional(io::loadSession(*options.session)) : std::nullopt;
    glfwSetErrorCallback(recordGlfwError);
    std::signal(SIGINT, requestStop);
    std::signal(SIGTERM, requestStop);
    std::signal(SIGHUP, requestStop);  // the session's terminal or display went away
    if (!glfwInit()) {
        std::cerr << "attnviz: cannot open a window (" << (lastGlfwError.empty() ? "no display" : lastGlfwError)
                  << "). `attnviz export` and `attnviz dump` work without a display.\n";
        return kExitNoDisplay;
    }
    const bool screenshot = options.screenshot.has_value();
    const std::optional<std::filesystem::path> stateDir = unattended(options) ? std::nullopt : stateDirectory();
    const std::optional<SavedSession> saved = stateDir ? std::optional(loadSession(*stateDir / "settings.json", {})) : std::nullopt;
    const std::optional<ui::RestoreOffer> crashed = stateDir ? findAutosave(*stateDir) : std::nullopt;
    std::optional<Autosaver> autosaver;
    if (stateDir) autosaver.emplace(*stateDir, crashed.has_value());
    std::optional<DrawingMarker> drawing;
    if (stateDir) drawing.emplace(*stateDir / kDrawingMarkerName);
    const bool diedBeforeDrawing = drawing && drawing->lastStartDied();

    hintOpenGl33Core();
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    PixelSize size = plan->size.value_or(screenshot ? kDefaultSize : fittingSize());
    if (!plan->size && saved && isWindowSide(saved->window.width) && isWindowSide(saved->window.height)) size = {saved->window.width, saved->window.height};
    if (screenshot) glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_FALSE);  // exactly the pixels asked for
    GLFWwindow* window = glfwCreateWindow(size.width, size.height, "attnviz — multi-head attention, one matrix at a time", nullptr, nullptr);
    if (window == nullptr) {
        std::cerr << "attnviz: cannot create an OpenGL 3.3 window (" << lastGlfwError << ").\n";
        glfwTerminate();
        return kExitNoDisplay;
    }
    setWindowIcon(window);
    glfwMakeContextCurrent(window);
    glfwSwapInterval(screenshot ? 0 : 1);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    const std::string iniFile = stateDir ? (*stateDir / "imgui.ini").string() : "";
    ImGui::GetIO().IniFilename = stateDir ? iniFile.c_str() : nullptr;
    float scale = 1.0f, unusedY = 1.0f;
    glfwGetWindowContentScale(window, &scale, &unusedY);
    scale = std::clamp(scale, 1.0f, 4.0f);
    // No resizing past what the GL driver can allocate (Mesa segfaulted at 32,767 × 32,767): limits are in screen
    // coordinates, so divided by the content scale (a HiDPI screen has 2 pixels to a coordinate).
    const int largest = static_cast<int>(static_cast<float>(core::limits::kMaxWindowSide) / scale);
    glfwSetWindowSizeLimits(window, GLFW_DONT_CARE, GLFW_DONT_CARE, largest, largest);
    styleForProjector(scale);
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ui::keepWideCharactersOnClipboard();
    InputQueue input;
    queueInput(window, input);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    int status = 0;
    {
        GuiFonts fonts(std::round(kBaseFontSize * scale));
        const std::unique_ptr<render::HeatmapRenderer> renderer = render::createGlRenderer({shaderDirectory()});
        ui::App app(initialState(spec, options, *plan, saved, session, stateDir, diedBeforeDrawing));
        if (!unattended(options)) app.setFilePicker(makeFilePicker());
        app.state().session.restoreOffer = offerAtStart(crashed, options.inputsGiven || options.session.has_value() || diedBeforeDrawing);
        if (screenshot) app.waitForRun();
        status = mainLoop(window, app, fonts, *renderer, scale, options, autosaver ? &*autosaver : nullptr, drawing ? &*drawing : nullptr,
                          input, stateDir);
        if (stateDir) saveOnExit(window, app, *stateDir);
        if (drawing) drawing->remove();
        if (autosaver) autosaver->finish(app.state(), stopRequested != 0 ? Autosaver::Ending::Signal : Autosaver::Ending::Window);
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return status;
}

}  // namespace attnviz::app
