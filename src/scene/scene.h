// scene.h — what one stage shows, as data: its maps (which tensor slice, its displayed shape, what its axes count,
// which decorations it wants), the operators between them and the formula above them, in one of three compositions:
// a line ("S_i ÷√d_k → S_i/√d_k", "Q → Q₀ Q₁ …"), lines stacked (Q, K and V split into heads) or a product in the
// textbook layout (left operand beside the result, right operand above it), with fallbacks the layout tries in
// order, and notes under the maps that are always drawn (which query heads share a K/V head). Built from the core's tensor table (core::TensorInfo),
// so the screen, the figures and the tests read one description. Stage 0 is not maps but the sentence's tokens:
// rows of token boxes (each its piece as a reader reads it, its id and its position). Knows nothing of pixels
// (layout.h does).
#pragma once

#include "core/attention.h"
#include "core/model.h"
#include "core/stages.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace attnviz::scene {

// Where a map's values come from: a Trace tensor, the embedding stage's two extras (l × d_model each), or a matrix a
// question view computed (Map::computed).
enum class Source { Trace, TokenEmbeddings, Positions, Computed };

// A matrix a question view computed, not one the Trace holds (the naive slicing's A₀, a pooled vector, an untrained
// layer's weights): its values for one sentence, what its axes count, its name and its colours. `identity` names it
// for the renderer's texture cache: a view gives one identity to one content for as long as the run stays.
// A computed matrix in words, as the question view states it and the map draws it.
struct ComputedDescription {
    std::string name;         // "A₀ naive"
    std::string paperShape;   // "l × l"
    core::Axis rowAxis = core::Axis::Features, colAxis = core::Axis::Features;
    bool probability = false; // weights in [0, 1] (sequential colours); else signed values on a symmetric range
    std::string tensorShape;  // the whole tensor as PyTorch holds it, "b × h × l × l" and "1 × 4 × 15 × 15"; empty:
    std::string numericShape; // the matrix alone (paperShape, rows × cols)
    std::vector<std::string> tokenLabels;  // its token axes' labels when not the run's (a compared sentence); empty: the run's
    std::vector<std::string> cellTexts;    // rows × cols, row-major: words printed in the cells instead of their numbers
                                           // (the logit lens's top token); empty: the numbers
    std::string maskedLegend = "masked (mask = 0)";  // what its hatched cells are, in the legend (scene/legend.h)
};
struct Computed : ComputedDescription {
    struct Identity {
        int owner = 0;    // the question view (ui's Lesson)
        int matrix = 0;   // which of its matrices
        int head = 0;
        int variant = 0;  // an option that changes the numbers (the pooling and number of classes)
        int batch = 0;    // the sentence
        friend bool operator==(const Identity&, const Identity&) = default;
    };
    Identity identity;
    core::Matrix values;      // rows × cols, as stored (a map may draw it transposed)
    core::Matrix mask;        // empty, or 1 = keep / 0 = masked, one row (broadcast down) or one per row: hatched cells
};
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
    std::string title;                      // instead of the tensor's name ("K₁" for a shared K/V head); empty: its own
    std::optional<int> frame;               // a head's tile: a frame in this head's colour, a one-line title
    int headsPerColour = 1;                 // head block i in the colour of i / headsPerColour: under grouped-query
                                            // attention each query head in the colour of the K/V head it shares
    std::optional<int> focusRow;            // a row outlined and its label bold: the query the lecture follows ("it")
    std::optional<std::pair<float, float>> range;  // lo, hi: a scale the view chose (two maps compared on one)
    std::shared_ptr<const Computed> computed;  // Source::Computed: the values, kept alive while the scene is drawn
    bool compactWeight = false;             // a weight beside its siblings (W^Q, W^K, W^V together): still square,
                                            // held to a smaller side than a weight alone (Rules::minCompactWeightSide)

    // Token × token (S_i, A_i, the mask): its cells stay square.
    bool tokenByToken() const { return core::isTokens(rowAxis) && core::isTokens(colAxis); }
    // A weight matrix (W^Q … W^O): square cells, so its shape reads true.
    bool isWeight() const;
};

struct Operator {
    std::string glyph;  // "×", "=", "softmax →"
};
using Term = std::variant<Map, Operator>;

// Terms side by side, left to right, every map with its own title and labels (maps without an operator between
// them, a head's tiles, stand a small gap apart).
struct Line {
    std::vector<Term> terms;
};

// Lines one above the other, each a share of the height, their feature columns one cell width: a line with fewer
// heads (K and V under grouped-query attention) is drawn shorter, not stretched.
struct Stack {
    std::vector<Line> lines;
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

// Stage 0's token boxes. One token: its piece as a reader reads it ("␣it": GPT-2's "Ġit" and SentencePiece's "▁it"
// begin with a space; "##ing" continues a word), the row of E it takes and its place in the sentence.
struct Token {
    enum class Kind { Piece, Special, Padding };  // special: [CLS], <|begin_of_text|>; padding: past the sentence's end
    std::string text;
    std::optional<int> id;  // none for padding
    int position = 0;
    Kind kind = Kind::Piece;
};
// One sentence's tokens (or one side of cross-attention), under a heading: the sentence in quotes, which side.
struct TokenRow {
    std::string heading;
    std::vector<Token> tokens;
};
// The sentences' tokens, each sentence's boxes wrapping onto as many rows as the width needs.
struct Tokens {
    std::vector<TokenRow> sentences;
};

// A line under the maps, always drawn: a legend entry (a swatch in a head's colour, then the words) or a caption.
struct Note {
    std::string text;
    std::optional<int> headColour;  // the swatch's head colour; none: words alone
};

// One way to draw the stage: its maps, and the formula and hint written above them.
struct Figure {
    std::variant<Line, Product, Stack, Tokens> composition;
    std::string formula;  // "S₀ = Q₀ K₀ᵀ"
    std::string hint;     // one sentence under the formula, when there is room
    std::vector<Note> notes;
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
// V together), for a trained model's layer how many blocks lie between E + P and X (nullopt: X is E + P), the
// query row the lecture follows (outlined in S_i, A_i and the other query-row maps of stages 4–8), at stage 3
// of a model with rotary positions whether the RoPE step is shown instead of the split, and at stage 0 which
// sentence's tokens (nullopt: every sentence's, as the screen shows them; a figure shows one).
struct SceneChoices {
    int head = 0;
    std::optional<core::TensorId> projection;
    std::optional<int> blocksBeforeX;
    std::optional<int> focusRow;
    bool ropeStep = false;
    std::optional<int> sentence;
};

// The most heads' tiles a line shows side by side; more would be slivers (a note says how many are left out).
inline constexpr int kMaxTiles = 16;

// A map of `tensor` as the trace holds it (head `head`, transposed or not), with the table's axes.
Map traceMap(const core::Trace& trace, core::TensorId tensor, int head = 0, bool transposed = false);
// The scene of one stage of `run`: the tokens' boxes at stage 0, maps at every other stage.
Scene stageScene(core::StageId stage, const core::ModelRun& run, const SceneChoices& choices);
// The same from the trace alone, which holds no tokens: nullopt for stage 0.
std::optional<Scene> stageScene(core::StageId stage, const core::Trace& trace, const SceneChoices& choices);
// Whether stage 3 of this run has a RoPE step: its q and k were turned by position (QHeadsBeforeRope kept).
bool hasRopeStep(const core::Trace& trace);
// The legend of grouped-query attention: "query heads 0–3 share K/V head 0", one note per K/V head in its colour;
// empty when every query head has its own K and V.
std::vector<Note> sharingNotes(const core::Dimensions& dims);
// "₂" for head 2 (Unicode subscript digits).
std::string subscript(int number);

}  // namespace attnviz::scene
