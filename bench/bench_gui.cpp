// bench_gui.cpp — issue 7's GUI figures, under a display (scripts/bench runs it in xvfb-run -a -s "-screen 0
// 1920x1200x24"). Every figure comes with a baseline measured in the same run:
//   emptyFrame                        an ImGui frame with nothing drawn: the baseline of every frame time
//   emptyWindowFrame                  one empty ImGui window filling the viewport: a second reference
//   appFrame/l:512/d:512/h:8/allHeads:1  the softmax stage with all 8 heads' 512² maps on screen (:0 the focused
//                                     head); l:2048/d:1024/h:16: all 16 heads of the largest size
//   appFrameWithoutMaps/…             the same frame with a renderer that draws nothing: what the heatmaps cost
//   editing/l:1024/d:768/h:12         the sentence changes every frame while the worker computes; longest ÷ median
//                                     frame, the frames on which a new result arrives included (target ≤ 2);
//                                     l:2048/d:1024/h:16: whether the GUI stays responsive at the largest size
//   openingModel                      File ▸ Open Recent Model of a GPT-2-small-shaped checkpoint (bench/torch_transformer.py
//                                     writes it, ≈ 500 MB) while the window draws, until its first run shows; longest ÷
//                                     median frame (target ≤ 3)
//   editToDisplay/l:128/d:512/h:8     whether the frame after a keystroke shows its result (target: every one)
//   startup                           spawn → exit of `attnviz --quit-after-frames 1` (target ≤ 0.5 s), and its ratio
//                                     to the same for an empty window (below); `attnviz --version` for scale
//   peakRss                           peak RSS of `attnviz --quit-after-frames 30` (target ≤ 150 MB), ÷ the empty
//                                     window's
//   peakRss/l:2048/d:1024/h:16        this program's App at that size, edited once: the GUI's two runs at once
//
// The frame benchmarks run ui::App with the GL heatmap renderer in one 1280×800 GLFW window (GL 3.3 core, swap
// interval 0, the app's style and fonts). A frame is gui_main's (gui_frame.h) plus glFinish, so the work of the
// GL driver (llvmpipe: CPU threads) counts: poll events, fonts, new frame, draw, render, clear + draw data,
// glFinish, swap; timed with a steady clock as manual time. Counters: median and longest frame, and the medians of
// its parts (cpu_ms: this thread up to the draw data handed to GL; finish_ms: llvmpipe rasterizing; swap_ms).
// The table at the end: every frame benchmark's median frame ÷ emptyFrame's median.
//
// Child processes run under GNU time (peak RSS; see runChild), with HOME and XDG_STATE_HOME in a temporary folder,
// so saved settings are neither read nor touched. `bench_gui --empty-window-child` is the startup and RSS baseline: this program opening the same window
// with the same fonts, drawing one empty frame and exiting. `bench_gui --rss-child L D H` is the large-size
// GUI process measured by peakRss/l:…
#define GLFW_INCLUDE_NONE
#include "ratio_reporter.h"

#include "app/gui_fonts.h"
#include "app/gui_frame.h"
#include "app/gui_style.h"
#include "render/framebuffer.h"
#include "render/gl_heatmap_renderer.h"
#include "ui/app.h"

#include <GLFW/glfw3.h>
#include <benchmark/benchmark.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace {

using namespace attnviz;
using Clock = std::chrono::steady_clock;

constexpr int kWidth = 1280, kHeight = 800;
constexpr int kWarmUpFrames = 5;  // textures uploaded, layout settled

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

// [SECTION] The window

// One GLFW window with ImGui, its GLFW and OpenGL 3 backends, the app's style and fonts: what gui_main sets up.
class Window {
public:
    Window() {
        if (!glfwInit()) throw std::runtime_error("bench_gui needs a display: run it under xvfb-run -a");
        app::hintOpenGl33Core();
        glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
        window_ = glfwCreateWindow(kWidth, kHeight, "attnviz bench_gui", nullptr, nullptr);
        if (window_ == nullptr) throw std::runtime_error("cannot create an OpenGL 3.3 window");
        glfwMakeContextCurrent(window_);
        glfwSwapInterval(0);
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = nullptr;
        app::styleForProjector(1.0f);
        ImGui_ImplGlfw_InitForOpenGL(window_, true);
        ImGui_ImplOpenGL3_Init("#version 330 core");
        fonts_.emplace(app::kBaseFontSize);
    }
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;
    ~Window() {
        fonts_.reset();
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
        glfwDestroyWindow(window_);
        glfwTerminate();
    }

    // One frame around `draw`, in seconds; with `state`, the font atlas first covers its sentences (as the app's).
    double frame(const std::function<void()>& draw, const ui::AppState* state = nullptr) {
        const Clock::time_point start = Clock::now();
        glfwPollEvents();
        if (state != nullptr) app::coverTexts(*fonts_, *state);
        app::renderFrame(window_, true, draw);
        const Clock::time_point drawn = Clock::now();
        render::finishDrawing();
        const Clock::time_point finished = Clock::now();
        glfwSwapBuffers(window_);
        phases_ = {std::chrono::duration<double>(drawn - start).count(), std::chrono::duration<double>(finished - drawn).count(),
                   secondsSince(finished)};
        return secondsSince(start);
    }
    // The last frame's parts: up to the draw data handed to GL (CPU, this thread), glFinish (the driver's
    // rasterizer: llvmpipe's threads), the swap.
    struct Phases {
        double cpu = 0.0, finish = 0.0, swap = 0.0;
    };
    const Phases& phases() const { return phases_; }
    const ui::Fonts& fonts() const { return fonts_->fonts(); }

private:
    GLFWwindow* window_ = nullptr;
    std::optional<app::GuiFonts> fonts_;
    Phases phases_;
};

Window* window = nullptr;  // made in main, before any benchmark

// [SECTION] The app at a size

// `tokens` words, the last one chosen by `variant` (consecutive variants differ: one keystroke's worth of change).
std::string sentence(int tokens, int variant) {
    static constexpr std::array<const char*, 16> kWords{"the", "animal", "did", "not", "cross", "street", "because", "it",
                                                        "was", "too", "tired", "a", "cat", "sat", "on", "mat"};
    std::string text;
    for (int i = 0; i < tokens; ++i) {
        const std::size_t word = i + 1 == tokens ? static_cast<std::size_t>(variant) % kWords.size() : static_cast<std::size_t>(i) % kWords.size();
        if (i > 0) text += ' ';
        text += kWords[word];
    }
    return text;
}

struct Size {
    int tokens = 0;
    int dModel = 0;
    int heads = 0;
};

ui::AppState stateAt(const Size& size, bool allHeads) {
    ui::AppState state;
    state.spec.sentences = {sentence(size.tokens, 0)};
    state.spec.tokenLimit = std::max(core::kDefaultTokenLimit, size.tokens);
    state.spec.attention.dModel = size.dModel;
    state.spec.attention.heads = size.heads;
    state.stage = core::StageId::Softmax;
    state.allHeads = allHeads;
    return state;
}

// ui::App with its own GL renderer (a renderer caches textures by App::generation, which every App starts
// anew), computed and warmed up: the first result on screen, its textures uploaded.
class AppRig {
public:
    // drawMaps false: a renderer that draws nothing, so the frame is the app without its heatmaps.
    AppRig(const Size& size, bool allHeads, bool drawMaps = true)
        : renderer_(drawMaps ? render::createGlRenderer({ATTNVIZ_SHADER_DIR}) : render::createNullRenderer()), app_(stateAt(size, allHeads)) {
        app_.waitForRun();
        if (app_.run() == nullptr) throw std::runtime_error("the forward pass failed: " + app_.error());
        for (int i = 0; i < kWarmUpFrames; ++i) frame();
    }
    double frame() {
        return window->frame([this] { app_.frame(*renderer_, window->fonts(), 1.0f); }, &app_.state());
    }
    ui::App& app() { return app_; }
    std::uint64_t uploads() const { return renderer_->stats().uploads + renderer_->stats().pooledUploads; }
    // Whether the run on screen was computed from `text`.
    bool shows(const std::string& text) const { return app_.run() != nullptr && app_.run()->spec.sentences.at(0) == text; }

private:
    std::unique_ptr<render::HeatmapRenderer> renderer_;  // outlives app_'s last frame
    ui::App app_;
};

// [SECTION] Frame times

// ImGui's draw commands in the last frame: one GL draw call (or heatmap callback) each.
int drawCalls() {
    const ImDrawData& data = *ImGui::GetDrawData();
    int calls = 0;
    for (int i = 0; i < data.CmdListsCount; ++i) calls += data.CmdLists[i]->CmdBuffer.Size;
    return calls;
}

// Every frame's time, reported to Google Benchmark as manual time; median and longest as counters (ms).
class FrameTimes {
public:
    void add(benchmark::State& state, double seconds) {
        state.SetIterationTime(seconds);
        push(seconds);
    }
    void push(double seconds) {
        times_.push_back(seconds);
        cpu_.push_back(window->phases().cpu);
        finish_.push_back(window->phases().finish);
        swap_.push_back(window->phases().swap);
    }
    double medianSeconds() const { return median(times_); }
    double longestSeconds() const { return times_.empty() ? 0.0 : *std::max_element(times_.begin(), times_.end()); }
    double totalSeconds() const {
        double total = 0.0;
        for (double t : times_) total += t;
        return total;
    }
    void report(benchmark::State& state) const {
        state.counters["median_ms"] = medianSeconds() * 1e3;
        state.counters["longest_ms"] = longestSeconds() * 1e3;
        state.counters["frames"] = static_cast<double>(times_.size());
        state.counters["vertices"] = ImGui::GetDrawData()->TotalVtxCount;  // of the last frame
        state.counters["draw_calls"] = drawCalls();
        state.counters["cpu_ms"] = median(cpu_) * 1e3;  // medians of the parts (Window::Phases)
        state.counters["finish_ms"] = median(finish_) * 1e3;
        state.counters["swap_ms"] = median(swap_) * 1e3;
    }

private:
    std::vector<double> times_, cpu_, finish_, swap_;
};

void emptyFrame(benchmark::State& state) {
    FrameTimes times;
    for (auto _ : state) times.add(state, window->frame([] {}));
    times.report(state);
}

// One ImGui window filling the viewport with nothing in it: the least a full-window ImGui app draws (its
// background is a 1280×800 quad for llvmpipe to fill; emptyFrame's glClear is a memset). A second reference.
void emptyWindowFrame(benchmark::State& state) {
    FrameTimes times;
    for (auto _ : state) {
        times.add(state, window->frame([] {
            const ImGuiViewport& viewport = *ImGui::GetMainViewport();
            ImGui::SetNextWindowPos(viewport.WorkPos);
            ImGui::SetNextWindowSize(viewport.WorkSize);
            ImGui::Begin("empty window", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings);
            ImGui::End();
        }));
    }
    times.report(state);
}

void appFrame(benchmark::State& state, bool drawMaps) {
    AppRig rig({static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), static_cast<int>(state.range(2))}, state.range(3) != 0, drawMaps);
    const std::uint64_t uploadsBefore = rig.uploads();
    FrameTimes times;
    for (auto _ : state) times.add(state, rig.frame());
    times.report(state);
    state.counters["uploads"] = static_cast<double>(rig.uploads() - uploadsBefore);  // 0: every texture cached (pooled too)
}
void appFrameWithMaps(benchmark::State& state) { appFrame(state, true); }
void appFrameWithoutMaps(benchmark::State& state) { appFrame(state, false); }

// [SECTION] Opening a model

constexpr double kOpeningMaxSeconds = 180.0;

// The GPT-2-small-shaped checkpoint bench/torch_transformer.py writes (about 500 MB), or $ATTNVIZ_BENCH_MODEL.
std::filesystem::path benchModelFolder() {
    if (const char* folder = std::getenv("ATTNVIZ_BENCH_MODEL")) return folder;
    const char* cache = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    const std::filesystem::path root = cache != nullptr ? std::filesystem::path(cache) : std::filesystem::path(home != nullptr ? home : ".") / ".cache";
    return root / "attnviz/bench/gpt2-small-shaped";
}

// File ▸ Open Recent Model of that checkpoint while the window draws (paced as gui_main paces its frames): every
// frame from the request until the model's first run is on screen. Target: longest ≤ 3 × median frame.
void openingModel(benchmark::State& state) {
    const std::filesystem::path folder = benchModelFolder();
    std::error_code error;
    if (!std::filesystem::exists(folder / "model.safetensors", error)) {
        state.SkipWithError(("no checkpoint in " + folder.string() + ": run bench/torch_transformer.py once, or set ATTNVIZ_BENCH_MODEL").c_str());
        return;
    }
    AppRig rig({16, 64, 8}, false);
    ui::App& app = rig.app();
    const auto opened = [&] { return app.run() != nullptr && app.run()->spec.trainedModel() != nullptr && !app.computing(); };
    FrameTimes times, arrivals, others;
    for (auto _ : state) {
        app.state().session.request = {ui::SessionAction::OpenRecentModel, folder};
        const Clock::time_point start = Clock::now();
        while (!opened() && secondsSince(start) < kOpeningMaxSeconds) {
            const core::TrainedModel* model = app.state().spec.trainedModel();
            const std::uint64_t generation = app.generation();
            const double frameStart = glfwGetTime();
            const double seconds = rig.frame();
            app::waitForFrameSlot(frameStart);
            times.push(seconds);
            const bool arrived = app.state().spec.trainedModel() != model || app.generation() != generation;
            (arrived ? arrivals : others).push(seconds);
        }
        state.SetIterationTime(secondsSince(start));
    }
    if (!opened()) state.SkipWithError(("not open after " + std::to_string(kOpeningMaxSeconds) + " s: " + app.error()).c_str());
    times.report(state);
    state.counters["longest_over_median"] = times.longestSeconds() / times.medianSeconds();
    state.counters["longest_arrival_ms"] = arrivals.longestSeconds() * 1e3;  // frames on which the model or its run came
    state.counters["longest_other_ms"] = others.longestSeconds() * 1e3;
}

// [SECTION] Editing

constexpr double kEditingMinSeconds = 10.0, kEditingMaxSeconds = 60.0;
constexpr int kEditingMinResults = 10;

// Types (one change per frame, frames paced as the app paces them: app::waitForFrameSlot) until ≥ 10 s and ≥ 10
// new results were displayed (at most 60 s). Frame times exclude the wait.
void editing(benchmark::State& state) {
    const Size size{static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), static_cast<int>(state.range(2))};
    AppRig rig(size, false);
    ui::App& app = rig.app();
    FrameTimes all, arrivals, others;
    for (auto _ : state) {
        const Clock::time_point start = Clock::now();
        int results = 0;
        for (int keystroke = 1; secondsSince(start) < kEditingMaxSeconds; ++keystroke) {
            if (secondsSince(start) >= kEditingMinSeconds && results >= kEditingMinResults) break;
            app.state().spec.sentences.at(0) = sentence(size.tokens, keystroke % 2);
            const std::uint64_t generation = app.generation();
            const double frameStart = glfwGetTime();
            const double seconds = rig.frame();
            app::waitForFrameSlot(frameStart);  // paced as gui_main paces its animating frames
            all.push(seconds);
            const bool arrived = app.generation() != generation;
            results += arrived ? 1 : 0;
            (arrived ? arrivals : others).push(seconds);
        }
        state.SetIterationTime(all.totalSeconds());
        state.counters["results"] = results;
    }
    all.report(state);
    state.counters["longest_over_median"] = all.longestSeconds() / all.medianSeconds();
    state.counters["longest_arrival_ms"] = arrivals.longestSeconds() * 1e3;  // frames on which a new result came
    state.counters["longest_other_ms"] = others.longestSeconds() * 1e3;
}

constexpr int kKeystrokes = 100;

// One keystroke per frame; after each frame, is the previous keystroke's result on screen (and this one's)?
void editToDisplay(benchmark::State& state) {
    const Size size{static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), static_cast<int>(state.range(2))};
    AppRig rig(size, false);
    FrameTimes times;
    int nextFrame = 0, sameFrame = 0;
    for (auto _ : state) {
        std::string previous;
        for (int keystroke = 1; keystroke <= kKeystrokes + 1; ++keystroke) {
            const std::string typed = sentence(size.tokens, keystroke);
            if (keystroke <= kKeystrokes) rig.app().state().spec.sentences.at(0) = typed;  // the last frame only looks
            times.push(rig.frame());
            if (!previous.empty()) nextFrame += rig.shows(previous) ? 1 : 0;
            sameFrame += keystroke <= kKeystrokes && rig.shows(typed) ? 1 : 0;
            previous = typed;
        }
        state.SetIterationTime(times.totalSeconds());
    }
    times.report(state);
    state.counters["shown_next_frame"] = static_cast<double>(nextFrame) / kKeystrokes;  // target 1
    state.counters["shown_same_frame"] = static_cast<double>(sameFrame) / kKeystrokes;
}

// [SECTION] Child processes: startup and peak RSS

std::filesystem::path isolatedHome;  // HOME and XDG_STATE_HOME of every child (made in main)

struct ChildRun {
    double seconds = 0.0;    // spawn → exit, wall clock
    double peakMiB = 0.0;    // peak RSS, as GNU time reports it
    bool ok = false;         // exited with status 0
};

// The environment with HOME and XDG_STATE_HOME pointing into isolatedHome.
std::vector<std::string> childEnvironment() {
    std::vector<std::string> variables;
    for (char** v = environ; *v != nullptr; ++v) {
        const std::string variable = *v;
        if (variable.rfind("HOME=", 0) != 0 && variable.rfind("XDG_STATE_HOME=", 0) != 0) variables.push_back(variable);
    }
    variables.push_back("HOME=" + isolatedHome.string());
    variables.push_back("XDG_STATE_HOME=" + (isolatedHome / "state").string());
    return variables;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> result;
    for (std::string& s : strings) result.push_back(s.data());
    result.push_back(nullptr);
    return result;
}

// GNU time reports the peak RSS of a child it forks itself. wait4's own ru_maxrss would not do: posix_spawn's
// child shares this process's memory until exec, and Linux counts that memory's peak as the child's.
constexpr const char* kTime = "/usr/bin/time";

// Runs `args` (args[0] a path) under GNU time, with stdout to /dev/null, and waits for it.
ChildRun runChild(const std::vector<std::string>& command) {
    const std::filesystem::path report = isolatedHome / "time.txt";
    std::vector<std::string> args{kTime, "-f", "%M", "-o", report.string()};
    args.insert(args.end(), command.begin(), command.end());
    std::vector<std::string> environment = childEnvironment();
    std::vector<char*> argv = pointers(args), envp = pointers(environment);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    ChildRun run;
    const Clock::time_point start = Clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, kTime, &actions, nullptr, argv.data(), envp.data()) == 0) {
        int status = 0;
        waitpid(pid, &status, 0);
        run.seconds = secondsSince(start);
        run.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        double kib = 0.0;
        std::ifstream(report) >> kib;
        run.peakMiB = kib / 1024.0;
    }
    posix_spawn_file_actions_destroy(&actions);
    return run;
}

std::string selfPath() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

// Medians of `rounds` runs of each command, alternating, so a burst of load hits all of them alike.
std::vector<ChildRun> medianRuns(const std::vector<std::vector<std::string>>& commands, int rounds) {
    std::vector<std::vector<ChildRun>> runs(commands.size());
    for (int round = 0; round < rounds; ++round) {
        for (std::size_t c = 0; c < commands.size(); ++c) runs[c].push_back(runChild(commands[c]));
    }
    std::vector<ChildRun> medians;
    for (const std::vector<ChildRun>& r : runs) {
        std::vector<double> seconds, peaks;
        bool ok = true;
        for (const ChildRun& one : r) {
            seconds.push_back(one.seconds);
            peaks.push_back(one.peakMiB);
            ok = ok && one.ok;
        }
        medians.push_back({median(seconds), median(peaks), ok});
    }
    return medians;
}

constexpr int kStartupRounds = 5;

// False (and the benchmark skipped, saying why) without GNU time.
bool haveTime(benchmark::State& state) {
    if (access(kTime, X_OK) == 0) return true;
    state.SkipWithError("needs /usr/bin/time (sudo apt-get install time)");
    return false;
}

void startup(benchmark::State& state) {
    if (!haveTime(state)) return;
    for (auto _ : state) {
        const std::vector<ChildRun> runs = medianRuns({{selfPath(), "--empty-window-child"},
                                                       {ATTNVIZ_BINARY, "--version"},
                                                       {ATTNVIZ_BINARY, "--quit-after-frames", "1", "--size", "1280x800"}},
                                                      kStartupRounds);
        if (!runs[0].ok || !runs[1].ok || !runs[2].ok) state.SkipWithError("a child process failed");
        state.SetIterationTime(runs[2].seconds);
        state.counters["app_first_frame_s"] = runs[2].seconds;  // spawn → exit after its first frame
        state.counters["empty_window_s"] = runs[0].seconds;
        state.counters["version_s"] = runs[1].seconds;
        state.counters["app_over_empty_window"] = runs[2].seconds / runs[0].seconds;
    }
}

constexpr int kRssRounds = 3;

void peakRss(benchmark::State& state) {
    if (!haveTime(state)) return;
    for (auto _ : state) {
        const std::vector<ChildRun> runs = medianRuns(
            {{selfPath(), "--empty-window-child"}, {ATTNVIZ_BINARY, "--quit-after-frames", "30", "--size", "1280x800"}}, kRssRounds);
        if (!runs[0].ok || !runs[1].ok) state.SkipWithError("a child process failed");
        state.SetIterationTime(runs[1].seconds);
        state.counters["app_MiB"] = runs[1].peakMiB;
        state.counters["app_MB"] = runs[1].peakMiB * 1.048576;  // the target is 150 MB
        state.counters["empty_window_MiB"] = runs[0].peakMiB;
        state.counters["app_over_empty_window"] = runs[1].peakMiB / runs[0].peakMiB;
    }
}

void peakRssLarge(benchmark::State& state) {
    if (!haveTime(state)) return;
    for (auto _ : state) {
        const ChildRun run = runChild({selfPath(), "--rss-child", std::to_string(state.range(0)), std::to_string(state.range(1)),
                                       std::to_string(state.range(2))});
        if (!run.ok) state.SkipWithError("the child process failed");
        state.SetIterationTime(run.seconds);
        state.counters["app_MiB"] = run.peakMiB;
    }
}

// --empty-window-child: the baseline process (window, ImGui, fonts, one empty frame).
int emptyWindowChild() {
    Window child;
    child.frame([] {});
    return 0;
}

// --rss-child L D H: the app at that size, its first result on screen, then one edit until its result is on
// screen too (the GUI holds the run shown and the one being computed).
int rssChild(const Size& size) {
    Window child;
    window = &child;
    AppRig rig(size, false);
    rig.app().state().spec.sentences.at(0) = sentence(size.tokens, 1);
    const std::uint64_t generation = rig.app().generation();
    while (rig.app().generation() == generation) rig.frame();
    rig.frame();
    return 0;
}

void registerBenchmarks() {
    constexpr double kFrameSeconds = 3.0;
    benchmark::RegisterBenchmark("emptyFrame", emptyFrame)->MinTime(kFrameSeconds)->UseManualTime()->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("emptyWindowFrame", emptyWindowFrame)->MinTime(kFrameSeconds)->UseManualTime()->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("appFrameWithoutMaps", appFrameWithoutMaps)
        ->ArgNames({"l", "d", "h", "allHeads"})
        ->Args({512, 512, 8, 1})
        ->MinTime(kFrameSeconds)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("appFrame", appFrameWithMaps)
        ->ArgNames({"l", "d", "h", "allHeads"})
        ->Args({512, 512, 8, 1})
        ->Args({512, 512, 8, 0})
        ->Args({128, 512, 8, 0})
        ->Args({2048, 1024, 16, 1})
        ->MinTime(kFrameSeconds)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("editing", editing)->ArgNames({"l", "d", "h"})->Args({1024, 768, 12})->Args({2048, 1024, 16})->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("openingModel", openingModel)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("editToDisplay", editToDisplay)->ArgNames({"l", "d", "h"})->Args({128, 512, 8})->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("startup", startup)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("peakRss", peakRss)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("peakRss", peakRssLarge)->ArgNames({"l", "d", "h"})->Args({2048, 1024, 16})->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
}

void printLoad() {
    std::ifstream load("/proc/loadavg");
    std::string text;
    std::getline(load, text);
    std::printf("load average (1, 5, 15 min): %s\n", text.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    try {
        if (argc >= 2 && std::strcmp(argv[1], "--empty-window-child") == 0) return emptyWindowChild();
        if (argc >= 5 && std::strcmp(argv[1], "--rss-child") == 0) return rssChild({std::stoi(argv[2]), std::stoi(argv[3]), std::stoi(argv[4])});
        benchmark::Initialize(&argc, argv);
        char pattern[] = "/tmp/attnviz-bench-gui-XXXXXX";
        if (mkdtemp(pattern) == nullptr) throw std::runtime_error("cannot make a temporary folder");
        isolatedHome = pattern;
        printLoad();
        Window main;
        window = &main;
        registerBenchmarks();
        attnviz::bench::RatioReporter reporter("emptyFrame", {"median_ms", "median ms", 1.0, {"emptyWindowFrame", "appFrameWithoutMaps"}});
        benchmark::RunSpecifiedBenchmarks(&reporter);
        benchmark::Shutdown();
        std::filesystem::remove_all(isolatedHome);
        printLoad();
    } catch (const std::exception& error) {
        std::fprintf(stderr, "bench_gui: %s\n", error.what());
        return 1;
    }
}
