// layout.h — where a scene's maps, operators and formula go in a box: scene + box + text metrics + rules →
// rectangles. The rules live here and nowhere else: one label floor, square cells for token × token maps and
// weight matrices, cells no more than 3:1 elsewhere (token rows may grow to their labels' height), products in
// the textbook layout (left operand beside the result, right operand above it) or, when that would cost the token
// labels, in one line "left × top = result", stacked lines sharing one feature cell width, lines wrapped onto
// more rows on a page narrower than the box (zoomed in), notes flowed under the maps, and side content (charts, tiles) given room only when the maps keep their labels at full size without it.
// No ImGui: the screen and the tests supply the metrics.
//
//        ┌ formula ┐   ┌ top ┐             line:   ┌ a ┐  op  ┌ b ┐  op  ┌ c ┐
//        └─────────┘   └─────┘                     └───┘      └───┘      └───┘
//        ┌ left ┐      ┌ result ┐
//        └──────┘      └────────┘
#pragma once

#include "scene/scene.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::scene {

struct Rect {
    float x0 = 0.0f, y0 = 0.0f, x1 = 0.0f, y1 = 0.0f;
    float width() const { return x1 - x0; }
    float height() const { return y1 - y0; }
};

// Room a map's decorations (title, labels, head bands, colorbar, row sums) take around its cells.
struct Insets {
    float left = 0.0f, top = 0.0f, right = 0.0f, bottom = 0.0f;
};

// Token: a token's own text in its box (stage 0); Label: the lines under it ("id 42", "pos 3"), drawn at
// Rules::labels.full like the maps' token labels.
enum class TextRole { Operator, Formula, Hint, Heading, Token, Label };

// What the layout asks of the painter's type: the screen answers with ImGui's fonts, tests with their own.
class Metrics {
public:
    virtual ~Metrics() = default;
    virtual Insets decorations(const Map& map) const = 0;
    virtual float textWidth(std::string_view text, TextRole role) const = 0;
    // The height of `text` wrapped to `wrapWidth`.
    virtual float textHeight(std::string_view text, TextRole role, float wrapWidth) const = 0;
};

// Token labels: drawn at `full` size when their cells allow, shrunk down to `floor` before any is skipped.
struct LabelSizes {
    float floor = 9.0f;
    float full = 13.0f;
};
// The lecture's floor for a sentence of `tokens` tokens (the longest token axis shown): 14 px, the size a back row
// reads on a projector, up to 24 tokens; beyond, 14 × 24 / tokens, so that a longer sentence's maps keep the room
// 24 tokens had and stay side by side; never under the screen's 9 px (from 38 tokens).
float lectureLabelFloor(int tokens);
// The one label floor, for labels whose small type is `smallPx`: 70 % of it, never under 9 px; presenting
// (`lecture`) never under lectureLabelFloor(tokens). `tokens`: the longest token axis of the maps labelled; 0 for
// labels that do not taper (stage 0's token boxes, the line view, a line wrapped onto more rows).
LabelSizes labelSizes(float smallPx, bool lecture, int tokens);

// A token label is drawn when its cell is at least 0.85 × its size, less this much (pixels): a row a rounding
// short of the floor keeps its label.
inline constexpr float kLabelSlack = 0.05f;

// Presenting, stage 0's token type may grow to 3 times its size (Rules::tokenGrowth): words a back row reads.
inline constexpr float kLectureTokenGrowth = 3.0f;

struct Rules {
    float scale = 1.0f;  // UI scale
    LabelSizes labels;
    float smallestCell = 0.0f;  // pixels; a figure with a cell smaller than this does not read (exports draw whole pixels: 1)
    float largestCell = 0.0f;  // pixels; 0: 46 × scale (exported figures set theirs: 40, or --cell-size in room enough)
    // > 0: the page is this wide, narrower than the box (zoomed in, the maps are sized for a magnified box but the
    // page is not): a line of terms wider than it wraps onto more rows, each operator with its right operand; a
    // product's pairs wrap into bands, or a product too wide in the textbook layout is drawn in one wrapped line;
    // text wraps to the page. The layout then grows downwards past the box (the page scrolls), never sideways.
    float pageWidth = 0.0f;
    // Stage 0's token boxes: their type grows up to this many times its size while the rows still fit the box (a
    // short sentence fills the room rather than a strip at its top).
    float tokenGrowth = 1.5f;
    // > 0: the floor of a map's token labels while its line is not wrapped, under labels.floor beyond 24 tokens
    // presenting (labelSizes for the maps' token count): such a line keeps side by side what 24 tokens had. A line
    // wrapped onto more rows (the page scrolls anyway) keeps labels.floor.
    float mapLabelFloor = 0.0f;
    float maxCell() const { return largestCell > 0.0f ? largestCell : 46.0f * scale; }  // bigger cells add nothing but emptiness
    float gap() const;                                      // between maps
    float labelFloor() const { return mapLabelFloor > 0.0f ? mapLabelFloor : labels.floor; }  // a map's token labels'
    float labelledCell() const;  // the smallest token cell whose label is drawn (scene::tokenLabelRoom)
    float comfortableRow() const { return labels.full + 5.0f; }  // a token row whose label is drawn at full size
    float minWeightSide() const { return 160.0f * scale; }  // a weight matrix smaller than this reads as a strip
    float minCompactWeightSide() const { return 56.0f * scale; }  // three weights side by side: their shapes still read
};

struct PlacedMap {
    Map map;
    Rect cells;  // the cell area; the decorations go around it (Metrics::decorations)
};
struct PlacedText {
    std::string text;
    TextRole role = TextRole::Hint;
    Rect box;                   // wrap to its width
    std::optional<int> swatch;  // a note's head colour, filling `swatchBox` left of the text
    Rect swatchBox;
};

// Stage 0's token box: its text (TextRole::Token) centred at the top, its lines (TextRole::Label) under it, each at
// a share of its role's type size (never under the label floor).
struct PlacedToken {
    Token token;
    std::vector<std::string> lines;  // "id 42", "pos 3"
    Rect box;
    float textScale = 1.0f, labelScale = 1.0f;  // of the roles' type sizes: grown to fill the box, shrunk when the rows would overflow it
};

struct Layout {
    std::vector<PlacedMap> maps;
    std::vector<PlacedToken> tokens;
    std::vector<PlacedText> texts;
    std::optional<Rect> side;  // the scene's side content, when it got room
    int figure = 0;            // which of the scene's figures
    bool oneLine = false;      // a product drawn as "left × top = result"
    Rect extent;               // everything placed, decorations included
};

Layout layoutScene(const Scene& scene, const Rect& box, const Metrics& metrics, const Rules& rules);
// layoutScene, except that when no layout of `box` keeps every token label (a token row under the label floor:
// the bundled BERT's 26 tokens presenting at 1280 × 800), the box grows downwards, or else a line its width binds
// is sized for a larger box and wraps at the page (as zoomed in), until one does: the page scrolls rather than a
// label is lost. The screen's stage and question views lay out with it.
Layout layoutSceneKeepingLabels(const Scene& scene, const Rect& box, const Metrics& metrics, const Rules& rules);

// The smallest extent of a token axis's cells (rows of token rows, columns of token columns) in the layout.
float smallestTokenCell(const Layout& layout);
// The sum of the maps' cell areas.
float mapArea(const Layout& layout);

}  // namespace attnviz::scene
