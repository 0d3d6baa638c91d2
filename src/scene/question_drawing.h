// question_drawing.h — one question of ask mode (core/questions.h) as a picture: the prompt, the choices with the
// keys that pick them and the class's counts, and — only once revealed — the truth, the gap between the pick and the
// truth, the class's distribution beside the model's numbers, the sentence saying why, and the answer's row of
// colours (A_i's row, the ten most likely tokens). Before reveal the answer is not drawn at all: not blurred, not
// hidden under a cover, absent from the list. A question is one more scene: the screen plays this list
// (ui/views/drawing_player.h), a slide would paint the same list.
//
// Laid out top to bottom in a width × height canvas; the same rectangles before and after reveal (reveal adds what
// goes into them), so the answer's rectangle is known before it is filled. Type is `look.type` pixels and up; when
// the whole does not fit the height, it steps down to `look.minType`, no further.
//
// What this file deliberately does not do: choose the question, handle keys, or measure text itself (the player's
// measure is given, so the screen wraps with its fonts and paper with its own).
#pragma once

#include "core/questions.h"
#include "core/typed_prediction.h"
#include "scene/drawing.h"

#include <functional>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace attnviz::scene {

// What the class answered: the choice picked (digits 1–4) and each choice's count (+/−, typed by the lecturer); or,
// instead of a choice, a typed word (the prediction) or the cells clicked (the mask).
struct QuestionPicks {
    std::optional<int> picked;
    std::vector<int> counts;  // one per choice; empty: none typed
    std::string typed;                             // the word typed for the prediction (empty: none)
    std::optional<core::TypedWordRank> typedRank;  // where the model ranks it: drawn only once revealed
    std::optional<core::CellPicture> cells;        // the mask answered by clicking cells: the grid drawn instead of the choices
    friend bool operator==(const QuestionPicks&, const QuestionPicks&) = default;
};

struct QuestionLook {
    float type = 18.0f;     // the body's size in pixels (choices and prompt larger)
    float minType = 14.0f;  // the lecture's label floor: no text smaller
    std::function<Rgba8(float)> probabilityColour;  // a weight in [0, 1] → the sequential colormap's colour
    std::string keysHint = "1–4 choose · + / − count · → reveal · N another question · Esc close";  // empty: none
    std::string revealHint = "Think first, then press → (or PageDown) to reveal.";                  // under the choices
    std::string whyPrompt = "Why did the model do that? Say it in one sentence, then press → for the stage.";
    bool classCounts = true;  // the class's counts drawn (a slide has none)
    bool typedWord = false;   // the prediction's typed-word field under the choices (the screen: a field sits on it)
    std::string tally;  // the running score, right-aligned on the kicker's line: "your picks: 3 of 5 right"; empty: none
};

// How wide a run of text is drawn at `size` ems in `face`: the player's measure.
using TextWidth = std::function<float(std::string_view text, float size, FontFace face)>;

struct QuestionLayout {
    Drawing drawing;
    PixelRect tally;                   // the running score's text on the kicker's line (empty: none)
    PixelRect prompt;                  // the prompt's lines
    std::vector<PixelRect> choices;    // one per choice
    PixelRect distribution;            // the class's counts (and, revealed, the model's numbers) beside the choices
    PixelRect answer;                  // the answer's row of colours and its labels (empty when the question has none)
    PixelRect typedField;              // where the typed word's field goes (empty: none), its text typedType ems
    float typedType = 0.0f;
    PixelRect cellGrid;                // the clickable grid of cells (picks.cells; empty: none), cellSize pixels a cell
    int cellSize = 0;
    float smallestType = 0.0f;         // the smallest text drawn, in pixels
    int bottom = 0;                    // the lowest pixel anything is drawn at
};

// The cell of `layout`'s clickable grid under the drawing's pixel (x, y) as {row, column}, or nullopt outside it.
std::optional<std::pair<int, int>> cellAt(const QuestionLayout& layout, const core::CellPicture& grid, int x, int y);

QuestionLayout layoutQuestion(const core::Question& question, const QuestionPicks& picks, bool revealed, int width, int height,
                              const QuestionLook& look, const TextWidth& measure);

}  // namespace attnviz::scene
