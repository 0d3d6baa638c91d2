// lesson_scene.h — what every lesson view (lesson_*.cpp) draws with:
//   * LessonFrame: the main ViewContext plus the lesson's per-run cache and the report of what it showed;
//   * computed matrices: what a lesson computed (naive slicing, the encoder layer, per-head W_i^Q …) as
//     scene::Computed, which scenes and the heatmap widget draw with the run's token labels, with value ranges
//     and texture keys of their own (render::TextureKey::Source::Question), cached per run (ComputedCache);
//   * boxes, a row of maps on one cell size, a scene laid out by scene/layout.h, charts and text that are drawn
//     and also reported (LessonReport), so UI tests can assert on what a learner sees and measure where it went.
//
// What it deliberately does not do: draw a heatmap itself (heatmap_view.h does), compute attention, or decide
// what any lesson shows.
#pragma once

#include "scene/scene.h"
#include "ui/views/drawing.h"
#include "ui/views/heatmap_view.h"
#include "ui/layer_analysis.h"
#include "ui/lessons/lesson_state.h"
#include "ui/views/row_chart.h"
#include "ui/widgets/widget_label.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace attnviz::ui {

class PredictionPanel;
class AnalysisDesk;

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

// A button a lesson drew among its own content (not its header's), where it went.
struct ShownButton {
    std::string label;
    ImVec2 min, max;
};

// What the open lesson put on screen this frame (App::lessonReport()).
struct LessonReport {
    Lesson lesson = Lesson::None;
    std::vector<std::string> texts;    // every sentence drawn, in order
    std::vector<std::string> figures;  // the caption of every map and chart drawn, in order
    std::vector<ShownMap> maps;        // every map drawn, in order
    std::optional<ShownLines> lines;   // the line view's rows and labels, when it drew
    std::vector<ShownButton> buttons;  // the next-token view's words to mask
    ImVec2 exportButton;               // the centre of the header's Export… button (tests click it)
    bool says(std::string_view fragment) const;   // some text contains `fragment`
    bool shows(std::string_view fragment) const;  // some figure caption contains `fragment`
};

// [SECTION] Computed matrices

// What a lesson computed from the run on screen (the naive slicing's model, the encoder layer, a pooling's logits),
// built on first use and dropped when the run changes. A computed map's texture key is its scene::Computed identity,
// so what is cached under one key must not change while the run stays; keys name the lesson, what it computed,
// and the option (variant) and sentence it depends on.
class ComputedCache {
public:
    using Key = scene::Computed::Identity;
    // The value of `key`; `compute` runs only when it is not cached. Null when `compute` threw InputError (error()).
    template <typename T>
    std::shared_ptr<const T> get(const Key& key, const std::function<T()>& compute) {
        const auto k = tupleOf(key);
        if (const auto found = values_.find(k); found != values_.end()) return std::static_pointer_cast<const T>(found->second);
        if (errors_.count(k) > 0) return nullptr;
        try {
            auto value = std::make_shared<const T>(compute());
            values_.emplace(k, value);
            return value;
        } catch (const core::InputError& error) {
            errors_[k] = error.what();
            return nullptr;
        }
    }
    const std::string& error(const Key& key) const;
    void clear();

private:
    using Tuple = std::tuple<int, int, int, int, int>;
    static Tuple tupleOf(const Key& key) { return {key.owner, key.matrix, key.head, key.variant, key.batch}; }
    std::map<Tuple, std::shared_ptr<const void>> values_;
    std::map<Tuple, std::string> errors_;
};

// [SECTION] Frame

struct LessonFrame {
    ViewContext& ctx;        // the main run, the app's state (lesson controls edit ctx.state) and renderer
    ComputedCache& computed;
    LessonReport& report;
    float contentBottom = 0.0f;  // the lowest y the lesson's maps may use (remainingBox); the panel scrolls to it
    PredictionPanel* prediction = nullptr;  // the app's prediction and KV cache, which the next-token view draws large
    AnalysisDesk* analyses = nullptr;       // the layers and roles views' numbers, from the model worker
};

// What a lesson computed, as a matrix a map can show: `values` of the sentence on screen, named and with the axes
// given, cached under `matrix` (the lesson's own number for it), `head` and `variant` for this run.
using ComputedSpec = scene::ComputedDescription;
std::shared_ptr<const scene::Computed> computedMatrix(LessonFrame& frame, int matrix, int head, int variant, const ComputedSpec& spec,
                                                      const std::function<core::Matrix()>& values,
                                                      const std::function<core::Matrix()>& mask = {});
// "A₂ naive": a symbol, the head's subscript, a suffix (appended: GCC 12 warns falsely on "A" + std::string
// temporaries, -Wrestrict).
std::string withHead(const char* symbol, int head, const char* suffix = "");
// The map of a computed matrix (its axes, labels and colours), for a scene.
scene::Map computedMap(const std::shared_ptr<const scene::Computed>& computed);
// The scene map of a reference: a computed matrix's (computedMap) or the run's tensor (scene::traceMap).
scene::Map sceneMap(const LessonFrame& frame, const MatrixRef& ref);
// The heatmap widget's reference to it, for showMapRow.
MatrixRef computedRef(const std::shared_ptr<const scene::Computed>& computed);

// The token ids of the sentence on screen (AppState::batch of the run on screen).
const std::vector<int>& shownSentenceIds(const LessonFrame& frame);
// For a view that reads the open trained model's every layer: the worker's analysis `kind` of the sentence on screen
// (layer_analysis.h), or null after saying why there is none yet — the seeded layer ("This question `needs`: open …",
// with the button that opens attnviz's own decoder), the analysis's error, or "Computing …" while the worker has it.
std::shared_ptr<const LayerAnalysis> trainedModelAnalysis(LessonFrame& frame, AnalysisKind kind, const std::string& needs);

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

// One map of a row: the run's or a computed matrix (computedRef), and how it is drawn.
struct MapItem {
    MatrixRef ref;
    HeatmapOptions options;
    float widthShare = 0.0f;  // > 0: its cells take this share of the row's width (a wide d_model map squeezed)
};
// Maps side by side on one cell size (square cells when every map is square in tokens), top-aligned, with
// `between[i]` in large type between map i and i + 1; rows line up. Zoomed in, the maps are stacked instead, each
// across the width, so they grow with the zoom rather than narrowing as their labels grow; the box grows
// downwards (the page scrolls). Returns the y below the tallest (the last) map.
float showMapRow(LessonFrame& frame, const Box& box, const std::vector<MapItem>& maps, const std::vector<std::string>& between = {});
// One map fitted into a box (heatmap_view's drawHeatmapInBox), reported.
HeatmapResult showMapInBox(LessonFrame& frame, const MatrixRef& ref, const Box& box, const HeatmapOptions& options);
HeatmapResult showMap(LessonFrame& frame, const MatrixRef& ref, ImVec2 cellsMin, ImVec2 cellsMax, const HeatmapOptions& options);
// A computed map that prints words in its cells (scene::Computed::cellTexts: the logit lens, the head roles) at the top
// left of `box`, with a compact title and a colour bar: cells as wide as the widest word and as tall as a word needs at
// the cells' type (the small type; presenting, the lecture's label floor within scene::kLectureValueShare of a cell's
// height), narrowed to the box's width but never shortened: a map taller than the box makes the lesson scroll.
// Returns the bottom right corner of what it drew.
ImVec2 showWordMap(LessonFrame& frame, const MatrixRef& ref, const Box& box);
// A scene of the run's or computed maps (scene/scene.h) laid out by the stages' rules (scene/layout.h) from the top of
// `box`, painted and reported. When its token rows would be too short for their labels at the floor (14 px
// presenting), the box grows downwards until they are not (the lesson panel scrolls). Zoomed in, a line of maps
// is stacked, each map across the whole width, so the maps grow with the zoom instead of narrowing as the labels
// grow. Returns the layout.
scene::Layout showScene(LessonFrame& frame, const scene::Scene& scene, const Box& box);
void showChart(LessonFrame& frame, const Box& box, const RowChart& chart);
// The cells of the latest drawing of `ref` in `drawn` (ViewContext::drawn), to
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

// When the model on screen is not a decoder (BERT, the seeded layer; with `llamaOnly`, GPT-2 too: no RoPE, no
// grouped queries): a line saying `why` this view wants one and a button that opens attnviz's bundled decoder
// (attnviz-mini-llama), reported in LessonReport::buttons. Returns whether it drew (false when the model is what the
// view wants, or this install has no bundled decoder).
bool offerBundledDecoder(LessonFrame& frame, const std::string& why, bool llamaOnly = false);

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
        if (ImGui::RadioButton(widgetLabel(name).c_str(), value == choice) && value != choice) {
            value = choice;
            changed = true;
        }
    }
    ImGui::PopID();
    return changed;
}

}  // namespace attnviz::ui
