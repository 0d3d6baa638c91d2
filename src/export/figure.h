// figure.h — the kinds of exported figure, drawn from a ModelRun on the CPU:
//
//   matrix  one labelled heatmap, e.g. A_2 = softmax(Q_2 K_2^T / sqrt(d_k))
//   stage   a stage's maps as its scene describes them (scene/scene.h), laid out by scene/layout.h with the stage's
//           title, explanation and PyTorch line (scene_figure.h paints them)
//   slide   the stage figure on a 16:9 canvas, twice as large
//   (stage and slide also draw stage 3's RoPE step of a model with rotary positions)
//   heads   one per-head matrix for every head, in a grid on one shared color scale
//   poster  every stage of the forward pass, top to bottom, on one image
//   lines   one head's attention as lines from query tokens to key tokens
//   next    what a trained model predicts next, as a 16:9 slide (prediction_figure.h)
//
// Layout is computed in base pixels and drawn at style.scale, so a figure at scale 2 is exactly twice the size
// of the same figure at scale 1. The matrix and heads figures choose cell sizes per figure so that every axis of
// the same kind (tokens; feature indices) has the same cell size; a stage's maps get theirs from the layout's
// rules (square token × token cells and weights, token rows tall enough for their labels).
//
// What this file deliberately does not do: write files, decide file names or which figures a request makes
// (export_plan.h), or touch GL.
#pragma once

#include "colormap/colormap.h"
#include "core/model.h"
#include "core/stages.h"
#include "export/canvas.h"
#include "export/matrix_panel.h"
#include "export/theme.h"

#include <optional>
#include <string>
#include <vector>

namespace attnviz::exporting {

inline constexpr int kMinScale = 1;
inline constexpr int kMaxScale = 4;
inline constexpr int kMinCellSize = 1;
inline constexpr int kMaxCellSize = 96;
inline constexpr int kMaxFigureSide = 16384;                 // pixels, either side
inline constexpr long long kMaxFigurePixels = 8192LL * 8192; // 256 MiB of RGBA

struct FigureStyle {
    int scale = 2;          // kMinScale … kMaxScale; 96 · scale DPI
    int cellSize = 0;       // kMinCellSize … kMaxCellSize base pixels per cell on every axis; 0: chosen per figure
    Background background = Background::Light;
    std::optional<colormap::Colormap> colormap;  // override for every heatmap (the mask keeps its own look)
    bool cellValues = true;                      // print values in cells big enough to hold them
    colormap::ProbabilityScale probabilityScale = colormap::ProbabilityScale::MapMax;  // attention weights' range, as on screen
};

// A heatmap in the finished image, for tests and for anyone who wants to point at a cell.
struct PlacedHeatmap {
    core::TensorId tensor = core::TensorId::X;
    int head = 0;
    bool transposed = false;
    HeatmapPlacement where;
};

struct Figure {
    Canvas image;
    std::string title;  // plain words for the PNG's Title: "Stage 7 · Softmax, head 2"
    std::vector<PlacedHeatmap> heatmaps;
    // > 0: the PDF page's width in points, the height in proportion (a slide: kSlidePagePoints, 13.33 × 7.5 in, as
    // presentation software makes them); 0: a canvas pixel is 0.75 pt (96 DPI), the PNG's size.
    double pdfPageWidth = 0.0;
};

// Every function throws ExportError when the figure would exceed kMaxFigureSide / kMaxFigurePixels or the
// matrix is empty in this run (the mask without a mask), and FontError when the fonts are missing.
// `batch` picks the sentence (0-based), `head` the head of per-head matrices.
Figure drawMatrixFigure(const core::ModelRun& run, core::StageId stage, core::TensorId id, int head, int batch,
                        const FigureStyle& style);
// `ropeStep`: stage 3's RoPE step (q and k of head `head` before and after the rotation, and the turning pairs);
// throws ExportError for a model without rotary positions.
Figure drawStageFigure(const core::ModelRun& run, core::StageId stage, int head, int batch, const FigureStyle& style,
                       bool ropeStep = false);

// A stage as a 16:9 slide: kSlideWidth × kSlideHeight pixels at scale 1 (1920 × 1080), twice that at scale 2. It is
// the stage figure drawn kSlideZoom times larger (so no text is under 24 px at 1080p), its maps laid out in the
// room the words leave, centred on the slide; X appears once (the scene's products show it once).
inline constexpr int kSlideWidth = 1920, kSlideHeight = 1080, kSlideZoom = 2;
// The room inside a slide's margins, in base pixels (the slide draws them kSlideZoom times larger).
inline constexpr int kSlideContentWidth = kSlideWidth / kSlideZoom - 2 * kFigureMargin;
inline constexpr int kSlideContentHeight = kSlideHeight / kSlideZoom - 2 * kFigureMargin;
// A 16:9 slide's PDF page width: 13.33 inches, whatever the export's scale (at scale 2 the page was 40 inches wide).
inline constexpr double kSlidePagePoints = 960.0;
Figure drawSlideFigure(const core::ModelRun& run, core::StageId stage, int head, int batch, const FigureStyle& style,
                       bool ropeStep = false);
Figure drawHeadsFigure(const core::ModelRun& run, core::StageId stage, core::TensorId id, int batch,
                       const FigureStyle& style);
Figure drawPosterFigure(const core::ModelRun& run, int head, int batch, const FigureStyle& style);
// The token → token lines of one head: query tokens left, keys right, line opacity = the attention weight, the
// query "it" (when the sentence has it) bold with its lines on top; labels kept up to 40 tokens (18 px rows).
Figure drawLinesFigure(const core::ModelRun& run, int head, int batch, const FigureStyle& style);

// Whether a stage figure shows one head's matrices (so its file name says which head).
bool stageShowsOneHead(core::StageId stage, const core::Trace& trace);

}  // namespace attnviz::exporting
