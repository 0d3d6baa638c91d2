// scene_figure.h — a stage's maps in an exported figure, as the scene describes them (scene/scene.h) and the
// layout places them (scene/layout.h): the screen's picture on a Canvas. The exporter's type answers the layout's
// metrics; each placed map is a MatrixPanel (cells, title, labels, head bands, colorbar, row sums) whose cells go
// where the layout put them; the operators and the hint are typeset where the layout put them.
//
// The layout works in base pixels (rules at scale 1). Cells are whole base pixels (a slide's: whole pixels of the
// slide, SceneBox::cellDivisions): each map's cell size is the layout's rounded down (maps that share a cell size in
// the layout still share it) and the map is centred in the room the layout gave it, so a figure at scale 2 is
// exactly twice the one at scale 1 (a slide: the same layout, its cells rounded to its own pixels).
//
// Stage 0's token boxes are painted the same way: each where the layout put it, in whole base pixels.
//
// What this file deliberately does not do: headings, the stage's words, or which stages a figure shows
// (figure.cpp).
#pragma once

#include "export/blocks.h"
#include "scene/layout.h"

#include <memory>
#include <optional>
#include <vector>

namespace attnviz::exporting {

// The scene an exported stage shows: head `head`, Q, K and V together, X named after the blocks before a trained
// model's layer (`blocksBeforeX`); the formula left to the figure's header (it writes the stage's own) and no side
// content (the charts and tiles are the screen's). Nullopt for the tokens stage.
std::optional<scene::Scene> exportedScene(const core::Trace& trace, core::StageId stage, int head,
                                          std::optional<int> blocksBeforeX = std::nullopt);

// The scene of sentence `batch` of a run: as above, stage 0's token boxes of that sentence, X named after the run's
// trained layer, and the query row the screen follows while nothing is hovered (core::followedQueryRow: "it" under a
// coreference head) outlined in S_i, A_i and the other query-row maps of stages 4–8, as on screen (figures have no
// hover). `ropeStep`: stage 3's RoPE step instead of the split (a model with rotary positions).
scene::Scene exportedScene(const core::ModelRun& run, core::StageId stage, int head, int batch, bool ropeStep = false);

// The tensors a scene's maps show, over every figure of the scene (E[ids] and PE are not Trace tensors: left out).
std::vector<MatrixRequest> sceneRequests(const scene::Scene& scene);

// The room a scene may fill and its largest cell, base pixels.
struct SceneBox {
    float width = 0.0f, height = 0.0f;
    int largestCell = 40;
    // Cells are whole 1/cellDivisions of a base pixel, the figure drawn at a multiple of it (a slide: its scale, so
    // cells are whole pixels of the slide), and no cell is smaller than smallestCell base pixels (a slide: half of
    // one, a pixel at 1080p, whatever its scale: the same figure of the scene at every scale). Stage 2's fused
    // projection X × [W^Q W^K W^V] = [Q K V] fits a slide so, as on screen.
    int cellDivisions = 1;
    float smallestCell = 1.0f;
    // A slide: each map's title and shape on one line, or colorbars under the maps, when that gives the cells more
    // room (the slide's height used).
    bool slide = false;
};
// `box` for automatic cells; with the --cell-size option (style.cellSize > 0) every cell is that size, in as much
// room as it needs.
SceneBox sceneBoxFor(SceneBox box, const FigureStyle& style);

// The scene laid out in `box` and measured, ready to stack. Throws ExportError when a map is empty in this run.
std::unique_ptr<Block> sceneBlock(const core::ModelRun& run, const scene::Scene& scene, int batch,
                                  const FigureStyle& style, SceneBox box);

}  // namespace attnviz::exporting
