// scene.h — what one stage shows, as data: its maps (which tensor slice, its displayed shape, what its axes count,
// which decorations it wants), the operators between them and the formula above them, in one of two compositions:
// a line ("S_i ÷√d_k → S_i/√d_k") or a product in the textbook layout (left operand beside the result, right
// operand above it), with fallbacks the layout tries in order. Built from the core's tensor table (core::TensorInfo),
// so the screen, the figures and the tests read one description. Knows nothing of pixels (layout.h does).
#pragma once

#include "core/attention.h"
#include "core/stages.h"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace attnviz::scene {

// Where a map's values come from: a Trace tensor, or the embedding stage's two extras (l × d_model each).
enum class Source { Trace, TokenEmbeddings, Positions };
enum class Colorbar { Right, Below, None };

// One heatmap term. rows × cols and the axes are as displayed (after transposition).
struct Map {
    Source source = Source::Trace;
    core::TensorId tensor = core::TensorId::X;
    int head = 0;
    bool transposed = false;
    int rows = 0, cols = 0;
    core::Axis rowAxis = core::Axis::Features, colAxis = core::Axis::Features;
    bool rowLabels = true, colLabels = true;
    Colorbar colorbar = Colorbar::Right;
    bool rowSums = false;                   // Σ of each row at the right (softmax rows sum to 1)
    std::optional<core::TensorId> rangeOf;  // coloured on this tensor's range (S and S/√d_k alike)

    // Token × token (S_i, A_i, the mask): its cells stay square.
    bool tokenByToken() const { return core::isTokens(rowAxis) && core::isTokens(colAxis); }
    // A weight matrix (W^Q … W^O): square cells, so its shape reads true.
    bool isWeight() const;
};

struct Operator {
    std::string glyph;  // "×", "=", "softmax →"
};
using Term = std::variant<Map, Operator>;

// Terms side by side, left to right, every map with its own title and labels.
struct Line {
    std::vector<Term> terms;
};

// result_j = left · top_j: left once at the left, each top above its result. A single product that cannot keep
// its token rows labelled this way is laid out as the line "left × top = result" instead.
struct Product {
    Map left;
    struct Pair {
        Map top, result;
    };
    std::vector<Pair> pairs;
};

// One way to draw the stage: its maps, and the formula and hint written above them.
struct Figure {
    std::variant<Line, Product> composition;
    std::string formula;  // "S₀ = Q₀ K₀ᵀ"
    std::string hint;     // one sentence under the formula, when there is room
};

// Room under the maps for what the painter adds (a row's bar charts, every head's tiles): given only when the
// maps keep their token labels at full size without it, so it gives way first when the type grows.
struct Side {
    float share = 0.36f;      // of the box's height
    float minHeight = 170.0f;  // pixels at UI scale 1 it needs to be worth drawing
    std::string heading;      // drawn above it, may be empty
};

struct Scene {
    core::StageId stage = core::StageId::Tokens;
    std::vector<Figure> figures;  // tried in order: the first whose maps keep their labels is laid out
    std::optional<Side> side;
};

// What the scene depends on besides the run: the focused head, the projection shown at stage 2 (nullopt: Q, K and
// V together) and, for a trained model's layer, how many blocks lie between E + P and X (nullopt: X is E + P).
struct SceneChoices {
    int head = 0;
    std::optional<core::TensorId> projection;
    std::optional<int> blocksBeforeX;
};

// A map of `tensor` as the trace holds it (head `head`, transposed or not), with the table's axes.
Map traceMap(const core::Trace& trace, core::TensorId tensor, int head = 0, bool transposed = false);
// The scene of one stage; nullopt for the stages whose picture is not maps (tokens, the head split, the concat).
std::optional<Scene> stageScene(core::StageId stage, const core::Trace& trace, const SceneChoices& choices);
// "₂" for head 2 (Unicode subscript digits).
std::string subscript(int number);

}  // namespace attnviz::scene
