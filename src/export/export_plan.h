// export_plan.h — which files an export request writes, with predictable, sortable names (.png, or .svg / .pdf
// with --format).
//
//   --kind matrix  (default) one file per matrix:  02-project-w_q.png, 07-softmax-attention_weights-head0.png
//                  --stage all: every matrix once, under the stage that computes it; --stage S: every matrix
//                  S shows; --matrix M: only M. The tokens stage (no matrix) gives 00-tokens.png.
//   --kind stage   one file per stage:              07-softmax-head2.png, 02-project.png
//   --kind heads   all heads of a per-head matrix:  07-softmax-heads.png (stages split … concat only)
//   --kind poster  the whole forward pass:           poster-head0.png
//   --kind lines   token → token lines of one head:  07-softmax-lines-head0.png
//   --kind next    what the trained model predicts:  next.png (a 16:9 slide; no --stage, --matrix or --head;
//                  --temperature is this kind's only)
//   --kind compare two sentences and A − B:          compare-head0.png (a 16:9 slide; needs --compare-with; no --stage
//                  or --matrix)
//   --kind quiz    ask mode's questions as slides:  quiz-01-attended-question.png, quiz-01-attended-answer.png, one
//                  pair per question the run offers (--stage S: those about S; 16:9; no --matrix)
// --stage rope is stage 3's RoPE step (a model with rotary positions): 03-rope-head0.png with --kind matrix or
// stage, slide-03-rope-head0.png with --kind slide.
// Per-head figures carry -headI (head 0 unless --head); with more than one sentence every name gets -sB
// (sentence B, 0-based) and every sentence gets its figures.
//
// The parse* functions turn the CLI's words into a request and throw ExportError with one sentence naming the
// bad value and what is allowed; planExport throws ExportError for combinations that make no figure (a matrix
// the stage does not show, a head that does not exist). Nothing is drawn or written here.
#pragma once

#include "core/model.h"
#include "core/questions.h"
#include "core/stages.h"
#include "export/figure.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::exporting {

enum class FigureKind { Matrix, Stage, Heads, Poster, Slide, Lines, Next, Compare, Quiz };  // Slide: a stage as a 16:9 slide; Next: the prediction;
                                                                              // Compare: two sentences side by side (compare_figure.h);
                                                                              // Quiz: a question slide and an answer slide per question (quiz_figure.h)
// The file a figure is written as: the same picture as a raster (PNG) or with text as text (SVG, PDF).
enum class FigureFormat { Png, Svg, Pdf };

struct ExportRequest {
    std::optional<core::StageId> stage;    // nullopt: every stage
    std::optional<core::TensorId> matrix;  // nullopt: the stage's matrices
    std::optional<int> head;               // nullopt: head 0 (heads figures draw every head)
    bool ropeStep = false;                 // stage 3's RoPE step (--stage rope; stage is then SplitHeads)
    std::optional<float> temperature;      // --kind next's softmax temperature; nullopt: 1
    FigureKind kind = FigureKind::Matrix;
    FigureFormat format = FigureFormat::Png;
    FigureStyle style;
};

std::optional<core::StageId> parseStage(std::string_view text);         // "all" → nullopt; "rope" → SplitHeads
bool namesRopeStep(std::string_view stageText);                         // "rope": stage 3's RoPE step
std::optional<core::TensorId> parseMatrix(std::string_view text);       // "" → nullopt
FigureKind parseKind(std::string_view text);
std::string kindName(FigureKind kind);  // the --kind word: "matrix", …, "next"
FigureFormat parseFormat(std::string_view text);  // png | svg | pdf
Background parseBackground(std::string_view text);
std::optional<colormap::Colormap> parseColormap(std::string_view text);  // "" → nullopt (each matrix's own)
colormap::ProbabilityScale parseProbabilityScale(std::string_view text);  // map | row | fixed
int checkScale(int scale);

struct PlannedFigure {
    std::string fileName;
    FigureKind kind = FigureKind::Matrix;
    core::StageId stage = core::StageId::Tokens;
    std::optional<core::TensorId> matrix;  // Matrix and Heads kinds
    int head = 0;
    int batch = 0;
    FigureFormat format = FigureFormat::Png;
    bool ropeStep = false;  // Stage and Slide kinds: stage 3's RoPE step instead of the split
    float temperature = 1.0f;  // Next: softmax(logits / temperature)
    core::QuestionKind question = core::QuestionKind::MostAttended;  // Quiz: what it asks,
    int questionNumber = 0;                                          // its number in the quiz (0-based: its seed),
    bool revealed = false;                                           // and whether this is the answer slide
};

std::vector<PlannedFigure> planExport(const core::ModelRun& run, const ExportRequest& request);

}  // namespace attnviz::exporting
