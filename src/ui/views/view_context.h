// view_context.h — what every panel gets for one frame: the state to read and change, the run to show, the
// renderer for textures, fonts, the explanation of the hovered cell, and per-run caches.
//
// Panels draw with it and return nothing but changes to AppState (and the DrawnHeatmap records, which tests
// and overlays read). It holds no GL and owns nothing: App builds one per frame.
#pragma once

#include "colormap/colormap.h"
#include "render/heatmap_renderer.h"
#include "scene/colorbar.h"
#include "scene/legend.h"
#include "ui/app_state.h"
#include "ui/views/inspector.h"

#include <imgui.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace attnviz::ui {

class HeadsOffView;  // ui/panels/heads_off_view.h
class AnalysisDesk;  // ui/layer_analysis.h

// The fonts the panels use; any may be null (tests use ImGui's default font), see font().
struct Fonts {
    ImFont* regular = nullptr;  // body text
    ImFont* small = nullptr;    // axis labels, cell values, colorbar ticks
    ImFont* bold = nullptr;     // matrix names, headings
    ImFont* large = nullptr;    // stage title and formula
    ImFont* mono = nullptr;     // PyTorch lines
    ImFont* display = nullptr;  // stage 0's grown token words: large's typeface at kDisplayScale its size, ASCII only
};
// The display font's size as a share of the large one's: stage 0's words grow up to 3 times (presenting), and a
// glyph drawn from an atlas baked at that size stays sharp where the large one's would blur.
inline constexpr float kDisplayScale = 2.5f;
inline ImFont* font(ImFont* wanted) { return wanted != nullptr ? wanted : ImGui::GetFont(); }

// A tensor's display range and whether it holds special values (for the legend).
struct ValueSummary {
    colormap::Range range;
    bool hasNan = false;
    bool hasInfinity = false;
    std::optional<std::string> narrow;  // a probability map's core::narrowRangeNote, shown under its colorbar
};

// Per-run summaries, computed on first use; App clears it when the run changes.
class SummaryCache {
public:
    const ValueSummary& get(const core::ModelRun& run, core::TensorId tensor);
    // E[ids] and P of every sentence on one symmetric range: a trained model's own colours for them (its X, the
    // residual stream blocks later, is far wider, and on X's range they would be one flat colour).
    colormap::Range embeddings(const core::ModelRun& run);
    // colormap::probabilityRange of one map of the run, remembered by where its stored values are (a derived
    // slice, which owns fresh storage, is scanned each time): the all-heads view asks for 16 maps of 2048² every
    // frame, and scanning them was half of such a frame (perf, bench_gui appFrame/l:2048/…/allHeads:1).
    colormap::Range probabilityRange(const render::MatrixSlice& slice, colormap::ProbabilityScale scale);
    // core::narrowRangeNote of one probability map of the run, remembered as probabilityRange is.
    const std::optional<std::string>& narrowRange(const render::MatrixSlice& slice);
    // The largest value of the map drawn under texture `key`, once the panel drawing it has read the map (the model
    // view colours each map to its own largest weight, and reads each map only when the run changes).
    std::optional<float> mapTop(const render::TextureKey& key) const;
    // What the legend of the run's map drawn under texture `key` says (scene/legend.h), made once per run by `make`.
    const scene::LegendFacts& legendFacts(const render::TextureKey& key, const std::function<scene::LegendFacts()>& make);
    void setMapTop(const render::TextureKey& key, float top) { mapTops_[key] = top; }
    // The widest of an axis's labels, by what they depend on (the axis, how many, the batch element, the type size):
    // every heatmap's insets measure them every frame, and at l = 1024 measuring 2 × 1024 labels per map was a fifth
    // of the UI thread's time while editing (perf, bench_gui editing/l:1024/…).
    using LabelsKey = std::tuple<int, int, int, float>;
    std::optional<float> widestLabel(const LabelsKey& key) const;
    void setWidestLabel(const LabelsKey& key, float width) { widestLabels_[key] = width; }
    void clear() {
        summaries_.clear();
        embeddings_.reset();
        largestWeights_.clear();
        narrowNotes_.clear();
        mapTops_.clear();
        legends_.clear();
        widestLabels_.clear();
    }

private:
    std::map<core::TensorId, ValueSummary> summaries_;
    std::optional<colormap::Range> embeddings_;
    std::map<std::pair<const float*, std::size_t>, colormap::Range> largestWeights_;  // MapMax ranges by values' span
    std::map<std::pair<const float*, std::size_t>, std::optional<std::string>> narrowNotes_;  // by values' span too
    std::optional<std::string> scratchNote_;  // narrowRange's answer for a derived slice
    std::unordered_map<render::TextureKey, float, render::TextureKeyHash> mapTops_;
    std::unordered_map<render::TextureKey, scene::LegendFacts, render::TextureKeyHash> legends_;
    std::map<LabelsKey, float> widestLabels_;
};

// A heatmap as drawn this frame: where its cells are and in which order (tests hover cells through it).
struct DrawnHeatmap {
    MatrixRef matrix;
    ImVec2 min, max;  // the cell area in screen coordinates
    int rows = 0;     // as displayed (after transposition)
    int cols = 0;
    bool transposed = false;
    std::string narrowNote;  // the narrow-range note under its colorbar (core::narrowRangeNote); empty: none
    float valuePx = 0.0f;    // the type size of the numbers in its cells; 0: none drawn
    std::optional<scene::ColorbarSpec> colorbar;  // its colour bar (scene/colorbar.h) as laid out on screen
    std::vector<std::string> colorbarLabels;  // the bar's labels as played, top to bottom (left to right below)
    std::vector<scene::LegendEntry> legend;   // the entries under (beside) the bar, in order
    std::vector<std::string> cellValues;      // the numbers printed in its cells, row by row (scene/cell_values.h)
};

// A token box as drawn this frame (stage 0): where, its text, and the type size of its id and position lines.
struct DrawnToken {
    ImVec2 min, max;
    std::string text;
    float labelSize = 0.0f;  // its id and position lines'
    float textSize = 0.0f;   // its text's
};

struct ViewContext {
    AppState& state;
    const core::ModelRun& run;
    render::HeatmapRenderer& renderer;
    const Fonts& fonts;
    const std::optional<Explanation>& explanation;  // of the cell hovered (or pinned) in the previous frame
    SummaryCache& summaries;
    std::vector<DrawnHeatmap>& drawn;
    float scale = 1.0f;      // UI scale: 1 at the base font size (HiDPI and font size changes multiply it)
    bool computing = false;  // newer inputs are being computed; `run` is the previous result
    std::vector<DrawnToken>* drawnTokens = nullptr;  // where stage 0's boxes are recorded (tests read them), or nowhere
    HeadsOffView* headsOff = nullptr;  // marks heads switched off and opens their menu (App's), or nowhere (question views)
    AnalysisDesk* analyses = nullptr;  // the run's head roles etc. from the model worker (App's): the model view's captions
    std::vector<std::string>* headCaptions = nullptr;  // the model view's caption under each head, layer by layer (tests)
};

}  // namespace attnviz::ui
