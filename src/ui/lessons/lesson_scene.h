// lesson_scene.h — what every lesson view (lesson_*.cpp) draws with:
//   * LessonFrame: the main ViewContext plus the lesson's per-run cache and the report of what it showed;
//   * DerivedRun: matrices a lesson computed (naive slicing, the encoder layer, per-head W_i^Q …) put into the
//     Trace slots whose names and axes fit them, so the one heatmap widget draws them with token labels, with
//     value ranges and texture keys of their own;
//   * boxes, a row of maps on one cell size, a scene laid out by scene/layout.h, charts and text that are drawn
//     and also reported (LessonReport), so UI tests can assert on what a learner sees and measure where it went.
//
// What it deliberately does not do: draw a heatmap itself (heatmap_view.h does), compute attention, or decide
// what any lesson shows.
#pragma once

#include "scene/scene.h"
#include "ui/views/drawing.h"
#include "ui/views/heatmap_view.h"
#include "ui/lessons/lesson_state.h"
#include "ui/views/row_chart.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnviz::ui {

// [SECTION] Report

// Where a lesson drew one map, and what its token labels need.
struct ShownMap {
    std::string caption;
    ImVec2 min, max;           // the cell area in screen coordinates
    int rows = 0, cols = 0;    // as displayed
    bool tokenRowLabels = false;  // its rows are tokens and their labels are drawn
    bool tokenColLabels = false;
    bool thumbnail = false;    // drawn with the 9 px label floor even presenting (a tile among every head's)
    // The shortest labelled token row or narrowest labelled token column; infinity when it has none.
    float smallestTokenCell() const;
    float area() const { return (max.x - min.x) * (max.y - min.y); }
};

// How the line view drew its token rows.
struct ShownLines {
    int rows = 0;            // token rows on the longer side
    float rowHeight = 0.0f;
    float labelPx = 0.0f;    // 0: no labels
    std::optional<int> focus;  // the bold query row
};

// What the open lesson put on screen this frame (App::lessonReport()).
struct LessonReport {
    Lesson lesson = Lesson::None;
    std::vector<std::string> texts;    // every sentence drawn, in order
    std::vector<std::string> figures;  // the caption of every map and chart drawn, in order
    std::vector<ShownMap> maps;        // every map drawn, in order
    std::optional<ShownLines> lines;   // the line view's rows and labels, when it drew
    bool says(std::string_view fragment) const;   // some text contains `fragment`
    bool shows(std::string_view fragment) const;  // some figure caption contains `fragment`
};

// [SECTION] Derived runs

// Draws through the app's renderer with every texture key moved into a key space of its own, so a derived
// run's "A₂" never reuses the main run's texture. Frames are begun by the app, not here.
class KeySpaceRenderer final : public render::HeatmapRenderer {
public:
    explicit KeySpaceRenderer(std::uint64_t space) : space_(space) {}
    void bind(render::HeatmapRenderer& inner) { inner_ = &inner; }
    void beginFrame(std::uint64_t /*generation*/) override {}
    render::HeatmapHandle heatmap(std::uint64_t key, const render::MatrixSlice& slice, bool transpose, render::Downsample how) override;
    using render::HeatmapRenderer::heatmap;
    render::HeatmapHandle find(std::uint64_t key) const override;
    void draw(ImDrawList& list, render::HeatmapHandle handle, ImVec2 min, ImVec2 max, const render::HeatmapStyle& style) override;
    render::RendererStats stats() const override;

private:
    std::uint64_t space_;
    render::HeatmapRenderer* inner_ = nullptr;
};

struct DerivedRun {
    core::ModelRun run;  // the main run's tokens and sizes; only the Trace slots the lesson filled hold data
    SummaryCache summaries;
    KeySpaceRenderer renderer;
    DerivedRun(core::ModelRun r, std::uint64_t space) : run(std::move(r)), renderer(space) {}
};

// A Trace's sizes, lengths and mask flags without any tensor.
core::Trace emptyTraceLike(const core::Trace& trace);
// The main run's tokens and sizes with an empty Trace (emptyTraceLike): a lesson fills the slots it needs.
core::ModelRun emptyLike(const core::ModelRun& main);

// What a lesson derived from the run on screen, built on first use and dropped when the run changes (the
// textures go with the run's generation, so a derived run must never change while it is cached).
class DerivedRuns {
public:
    enum class Kind { BroadcastMask, Encoder, Decoder, PerHeadQuery, NaiveSlicing, Sharpness, Pooling, Untrained };
    static constexpr int kVariants = 32;  // variants per kind (0 … 31): each has a texture key space of its own
    using Builder = std::function<core::ModelRun(const core::ModelRun& main)>;
    // The derived run of `kind` (and `variant`, for a lesson option that changes the numbers, such as the
    // pooling); `build` runs only when it is not cached. Null when `build` threw InputError (see error()).
    DerivedRun* get(Kind kind, int variant, const core::ModelRun& main, const Builder& build);
    DerivedRun* get(Kind kind, const core::ModelRun& main, const Builder& build) { return get(kind, 0, main, build); }
    const std::string& error(Kind kind, int variant = 0) const;
    // A value (not a run) a lesson computed from the run on screen, cached the same way: row sharpness …
    template <typename T>
    const T& value(Kind kind, const core::ModelRun& main, const std::function<T(const core::ModelRun&)>& compute) {
        std::shared_ptr<const void>& slot = values_[keySpace(kind, 0)];
        if (!slot) slot = std::make_shared<const T>(compute(main));
        return *static_cast<const T*>(slot.get());
    }
    void clear();

private:
    static int keySpace(Kind kind, int variant);
    std::map<int, std::unique_ptr<DerivedRun>> runs_;  // by key space
    std::map<int, std::string> errors_;
    std::map<int, std::shared_ptr<const void>> values_;
};

// [SECTION] Frame

// View-only AppStates for maps that are not the main run's focused sentence: each view gets its own (so two
// sentences can be on screen together), hovering them changes nothing in the app. Reused frame after frame.
class ScratchStates {
public:
    // A state with `main`'s view choices (colormaps, numbers in cells, head) at batch element `batch`.
    AppState& next(const AppState& main, int batch);
    void reset() { used_ = 0; }

private:
    std::vector<std::unique_ptr<AppState>> pool_;
    std::size_t used_ = 0;
};

struct LessonFrame {
    ViewContext& ctx;        // the main run, the app's state (lesson controls edit ctx.state) and renderer
    DerivedRuns& derived;
    LessonReport& report;
    ScratchStates& scratch;
    std::vector<DrawnHeatmap>& scratchDrawn;  // what derived and other-sentence maps drew (not the app's list)
    const std::optional<Explanation>& noExplanation;
    float contentBottom = 0.0f;  // the lowest y the lesson's maps may use (remainingBox); the panel scrolls to it
};

// A context that draws `derived` (its own state, no hover explanation) with the main context's fonts and scale.
ViewContext derivedView(LessonFrame& frame, DerivedRun& derived);
// The main run at another batch element (the mask of sentence 2 while sentence 0 is on screen).
ViewContext sentenceView(LessonFrame& frame, int batch);

// [SECTION] Layout

// From the ImGui cursor to the bottom right of the current window's content region, but at least
// kMinMapsHeight tall: on a small window the lesson scrolls rather than squeezing its maps to nothing.
inline constexpr float kMinMapsHeight = 300.0f;  // pixels at UI scale 1: two rows of a 12-token map with labels
// Zoomed out, the maps' box narrows with the zoom, but not below this many pixels (not scaled: the label floor,
// 9 px, is not): two 15-token maps side by side keep their labels.
inline constexpr float kMinMapsWidth = 560.0f;
Box remainingBox(LessonFrame& frame);

// The lessons' small maps: a compact title with `caption`, no colorbar, no head bands; row and column labels
// as asked.
HeatmapOptions compactMap(const std::string& caption, bool rowLabels = true, bool colLabels = true);

// One map of a row: which context draws it (main, derived, another sentence) and how.
struct MapItem {
    ViewContext* view;
    MatrixRef ref;
    HeatmapOptions options;
    float widthShare = 0.0f;  // > 0: its cells take this share of the row's width (a wide d_model map squeezed)
};
// Maps side by side on one cell size (square cells when every map is square in tokens), top-aligned, with
// `between[i]` in large type between map i and i + 1; rows line up. Zoomed in, with Zoomed::Stack, the maps are
// stacked instead, each across the width, so they grow with the zoom rather than narrowing as their labels grow;
// the box grows downwards (the page scrolls). KeepRow: a row whose place on the page is its meaning (the naive
// and correct columns side by side, a pooled vector's strip). Returns the y below the tallest (the last) map.
enum class Zoomed { Stack, KeepRow };
float showMapRow(LessonFrame& frame, const Box& box, const std::vector<MapItem>& maps, const std::vector<std::string>& between = {},
                 Zoomed zoomed = Zoomed::Stack);
// One map fitted into a box (heatmap_view's drawHeatmapInBox), reported.
HeatmapResult showMapInBox(LessonFrame& frame, ViewContext& view, const MatrixRef& ref, const Box& box, const HeatmapOptions& options);
HeatmapResult showMap(LessonFrame& frame, ViewContext& view, const MatrixRef& ref, ImVec2 cellsMin, ImVec2 cellsMax,
                      const HeatmapOptions& options);
// A scene of the main run's maps (scene/scene.h) laid out by the stages' rules (scene/layout.h) from the top of
// `box`, painted and reported. When its token rows would be too short for their labels at the floor (14 px
// presenting), the box grows downwards until they are not (the lesson panel scrolls). Zoomed in, a line of maps
// is stacked, each map across the whole width, so the maps grow with the zoom instead of narrowing as the labels
// grow. Returns the layout.
scene::Layout showScene(LessonFrame& frame, const scene::Scene& scene, const Box& box);
void showChart(LessonFrame& frame, const Box& box, const RowChart& chart);
// The cells of the latest drawing of `ref` in `drawn` (ViewContext::drawn or LessonFrame::scratchDrawn), to
// draw over them (a row being multiplied, the columns a naive head never sees).
std::optional<DrawnHeatmap> lastDrawn(const std::vector<DrawnHeatmap>& drawn, const MatrixRef& ref);
// A thick outline around one displayed row of a drawn map (nothing when it was not drawn).
void outlineRow(const std::optional<DrawnHeatmap>& drawn, int row, ImU32 color = IM_COL32(255, 150, 0, 255));

// [SECTION] Text

enum class Tone { Plain, Point, Warning, Code, Dim };
// Wrapped text at the ImGui cursor, reported.
void say(LessonFrame& frame, const std::string& text, Tone tone = Tone::Plain);
// Wrapped text at `at` within `width` (draw list, for text inside a layout); returns its height.
float sayAt(LessonFrame& frame, ImVec2 at, float width, const std::string& text, Tone tone = Tone::Plain);
// A bold heading at the ImGui cursor, reported.
void heading(LessonFrame& frame, const std::string& text);
// "1.2e-07" style, for differences near float32 rounding.
std::string scientific(double value);

// [SECTION] Controls

// SameLine when an item `width` pixels wide still fits on this line, else a new line (narrow windows).
void sameLineIfFits(float width, float spacing = -1.0f);
// The width of a checkbox or radio button labelled `label`, and of a button.
float checkboxWidth(const char* label);
float buttonWidth(const char* label);

// "◀ head 2 of 8 ▶" in the head's color: picks AppState::head (keys 1–9 and the heads grid do too).
void headPicker(LessonFrame& frame);

// "label:  (•) a  ( ) b  ( ) c" on one line; true when the choice changed.
template <typename Enum>
bool radioChoices(const char* label, Enum& value, std::initializer_list<std::pair<Enum, const char*>> choices) {
    ImGui::PushID(label);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    bool changed = false;
    for (const auto& [choice, name] : choices) {
        sameLineIfFits(checkboxWidth(name));  // a narrow window: the choices wrap, never past its edge
        if (ImGui::RadioButton(name, value == choice) && value != choice) {
            value = choice;
            changed = true;
        }
    }
    ImGui::PopID();
    return changed;
}

}  // namespace attnviz::ui
