// text.h — UTF-8 text on a Canvas with stb_truetype and the DejaVu Sans fonts (fonts-dejavu-core).
//
// Sizes are em sizes in pixels (CSS font-size): a 12 px font has a 12 px em square. Measured widths are floats
// and exactly proportional to the size, so a layout measured at scale 1 holds at scale 2 with every number
// doubled. Tokens are drawn as they are (never parsed); formulas written in the ASCII notation of stages.h
// ("A_2 = softmax(Q_2 K_2^T / sqrt(d_k))") are typeset with real subscripts and superscripts by drawFormula.
// Code identifiers in the same text stay as typed: an "_" with two or more letters or digits on both sides
// ("rope_theta", "rotate_half", "num_key_value_heads") joins words, it does not lower one. Math symbols have a
// one-letter base (d_k, d_model, q_m, θ_j, W_i); a symbol with a longer base writes its subscript in braces
// ("max_{j}"), which always lowers.
// Text goes through core::displayText first (right-to-left runs in visual order, "[U+1F600]" for characters
// beyond U+FFFF, as on screen); a character DejaVu lacks is drawn from a fallback font (io/fallback_fonts.h),
// and one no font has shows as a hollow box of the same advance, never as nothing and never a crash.
//
// What this file deliberately does not do: hyphenation (wrapText breaks at spaces only), shaping (ligatures,
// Arabic joining forms; combining marks stay separate glyphs), rotation other than a quarter turn, or any
// layout beyond one line.
#pragma once

#include "export/canvas.h"
#include "scene/axis_labels.h"

#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::exporting {

// The font files could not be found or read; the message names the file, the folders searched, and the
// Debian package that provides them.
class FontError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};


// The folders searched for DejaVu fonts, in order (Debian's first).
std::span<const std::filesystem::path> fontSearchFolders();
// The first `fileName` found in `folders`; throws FontError naming every folder searched.
std::filesystem::path findFontFile(std::string_view fileName, std::span<const std::filesystem::path> folders);

struct TextStyle {
    float size = 12.0f;  // em size in pixels
    FontFace face = FontFace::Regular;
    Rgba8 color{0, 0, 0, 255};
};

// Vertical metrics of a font at a size, in pixels, both positive: a line spans ascent above the baseline and
// descent below it.
struct LineMetrics {
    float ascent = 0.0f;
    float descent = 0.0f;
    float height() const { return ascent + descent; }
};

LineMetrics lineMetrics(float size, FontFace face);
float textWidth(std::string_view utf8, float size, FontFace face);
// `utf8` itself when it fits in maxWidth, else its longest prefix (whole code points) followed by "…".
std::string truncateToWidth(std::string_view utf8, float maxWidth, float size, FontFace face);
// Greedy word wrap at spaces; a word longer than maxWidth gets a line of its own.
std::vector<std::string> wrapText(std::string_view utf8, float maxWidth, float size, FontFace face);

// Draws left to right with the pen starting at (x, baseline).
void drawText(Canvas& canvas, float x, float baseline, std::string_view utf8, const TextStyle& style);
// Draws bottom to top (rotated a quarter turn counter-clockwise), the pen starting at (baselineX, y): the
// glyphs' tops face left, as the column labels of a heatmap read.
void drawTextUpwards(Canvas& canvas, float baselineX, float y, std::string_view utf8, const TextStyle& style);
// Labels a scene laid out (scene/axis_labels.h), at `scale` times their positions and sizes.
void drawLabels(Canvas& canvas, const std::vector<scene::AxisLabel>& labels, int scale = 1);
// How this file measures type, for the scene's layouts of text (scene::TypeMeasure).
scene::TypeMeasure paperType();

// [SECTION] Formulas: "_" and "^" take a {group} or a run of letters and digits as sub/superscript, except an
// "_" between two words of two or more letters or digits (an identifier: literal);
// "sqrt" becomes √, "*" becomes ·, "->" becomes →, "..." becomes ….
enum class Script { Normal, Subscript, Superscript };
struct FormulaRun {
    std::string text;
    Script script = Script::Normal;
    friend bool operator==(const FormulaRun&, const FormulaRun&) = default;
};
std::vector<FormulaRun> parseFormula(std::string_view ascii);
// Like lineMetrics, with room below for subscripts.
LineMetrics formulaLineMetrics(float size, FontFace face);
float formulaWidth(std::string_view ascii, float size, FontFace face);
void drawFormula(Canvas& canvas, float x, float baseline, std::string_view ascii, const TextStyle& style);

}  // namespace attnviz::exporting
