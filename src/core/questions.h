// questions.h — the class predicts first (issue #36): questions drawn from the run on screen, each with three or
// four choices, the truth among them and the numbers it rests on, for ask mode to pose before it reveals. Built from
// the run's own tokens, heads, sizes and numbers, so a question stays true when the sentence, head count or model
// changes (ask it again of the new run).
//
// Every question is a row of kQuestionKinds, named by what it asks:
//   MostAttended      "Which word does “it” attend to most in head 2?"      the focused query's row of A_i
//   Shape             "What is the shape of Q₂ for this sentence?"          this run's l, d_k, d_model, h
//   NextToken         "What will the model predict after “…too tired”?"    a trained model's top-1 and three of 2–10
//   Scaling           "Dividing by √d_k makes row “it”'s weights …?"        entropy of softmax(S) vs of A (bits)
//   SharedKeyValues   "Which query heads share K/V head 0?"                  grouped-query models only
//   Mask              "Which cells does the causal mask remove?"            four small pictures: the run's mask and
//                                                                          plausible wrong ones (transposed, …)
//   WeightedSum       "Z₂ for “it” is closest to which word's V row?"       cosine of Z_i's row with each V_i row
// Choices are distinct as drawn text; the seed draws the distractors, and the truth's place comes from a shuffled bag
// of places per run of consecutive seeds (over a lecture every place holds the truth equally often). A question that does not apply to the run (GQA on BERT, a prediction from the seeded layer, a row
// whose largest weight does not stand out) is not offered.
//
// What this file does not do: draw (scene/question_drawing.h lays a question out), count a class's answers or
// remember picks (ui's ask state does).
#pragma once

#include "core/model.h"
#include "core/stages.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::core {

enum class QuestionKind { MostAttended, Shape, NextToken, Scaling, SharedKeyValues, Mask, WeightedSum };
inline constexpr QuestionKind kQuestionKinds[] = {QuestionKind::MostAttended, QuestionKind::Shape,           QuestionKind::NextToken,
                                                  QuestionKind::Scaling,      QuestionKind::SharedKeyValues, QuestionKind::Mask,
                                                  QuestionKind::WeightedSum};

// A query × key grid drawn small beside a choice (the mask question's pictures): which cells are removed.
struct CellPicture {
    int rows = 0, cols = 0;
    std::vector<std::uint8_t> removed;  // rows × cols, row-major: 1 = the cell is removed
    bool isRemoved(int row, int col) const { return removed[static_cast<std::size_t>(row) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(col)] != 0; }
    friend bool operator==(const CellPicture&, const CellPicture&) = default;
};

// The mask question's largest grid side (tokens): larger grids draw their cells under four pixels in a picture.
inline constexpr int kMaxPictureSide = 24;

struct QuestionChoice {
    std::string text;            // as drawn: "street", "11 × 16", "flatter (more even)", "above the diagonal"
    std::optional<float> value;  // what the model put on it (a weight, a probability, a cosine); none for shapes and heads
    std::optional<CellPicture> picture;  // drawn beside the text (the mask question); distinct among the choices
};

// The numbers the truth rests on, drawn at reveal: one row of probabilities over labelled keys or tokens (the query's
// row of A_i, the top ten next tokens, Z_i's row's cosine with each V_i row), and for Scaling the row before scaling too.
struct AnswerRow {
    std::string title;                 // "A₂, row “it”"
    std::vector<std::string> labels;   // one per value
    std::vector<float> values;         // in [0, 1]
    std::string beforeTitle;           // Scaling: "softmax(S₂) without ÷√d_k"
    std::vector<float> before;         // Scaling: the same row unscaled; else empty
};

struct Question {
    QuestionKind kind = QuestionKind::MostAttended;
    StageId stage = StageId::Softmax;     // the stage the question is about (reveal shows it)
    std::string prompt;                   // one sentence ending in "?"
    std::vector<QuestionChoice> choices;  // 3 or 4, distinct as drawn text
    int truth = 0;                        // index into choices
    std::string valueName;                // "weight", "probability"; empty when choices carry no value
    std::string why;                      // one sentence drawn at reveal: "Q₂ is l × d_k = 11 × 16: …"
    AnswerRow answer;                     // empty values: nothing to draw but the choices
    int head = 0;                         // the head it asks about (0 when it asks about none)
    std::vector<std::string> rowLabels, columnLabels;  // Mask: the grid's query and key words (one per row / column)
};

// Where the question points in the run: the sentence, the focused head, the query row the lecture follows (nullopt:
// core::followedQueryRow) and the seed that draws the distractors and the truth's place.
struct QuestionSetting {
    int batch = 0;
    int head = 0;
    std::optional<int> focusRow;
    std::uint64_t seed = 0;
};

// What the kind asks, as a menu or toolbar names it: "Which word does the query attend to most?".
std::string questionTitle(QuestionKind kind);
// The command line's word for a kind (--ask attended | shape | predict | scaling | shared-kv | mask | weighted-sum),
// and back.
std::string_view questionKey(QuestionKind kind);
std::optional<QuestionKind> findQuestionKind(std::string_view key);
// Every kind's word, for messages: "attended, shape, predict, scaling, shared-kv, mask or weighted-sum".
std::string questionKeys();
// The kinds this run can be asked (each of kQuestionKinds whose askQuestion gives a question), in table order.
std::vector<QuestionKind> offeredQuestions(const ModelRun& run, const QuestionSetting& setting);
// The question of `kind` about `run`, or nullopt when it does not apply (see the file's header).
std::optional<Question> askQuestion(QuestionKind kind, const ModelRun& run, const QuestionSetting& setting);
// Reveal's sentence about the gap between a pick and the truth: "You chose “street” (weight 0.12); the model put 0.61
// on “animal”." / "Right: “animal”, weight 0.61." / "The answer: “animal”, weight 0.61." when nothing was picked.
std::string gapSentence(const Question& question, std::optional<int> picked);
// The mask question answered by clicking cells instead of a picture: the cells marked removed against the truth's
// picture (the run's mask). missed: removed but not marked; extra: marked but kept. Pictures of other sizes: all wrong.
struct CellScore {
    int right = 0, total = 0, missed = 0, extra = 0;
    friend bool operator==(const CellScore&, const CellScore&) = default;
};
CellScore scoreCells(const CellPicture& truth, const CellPicture& marked);
// Reveal's sentence for clicked cells: "You marked 160 of 169 cells right: 5 removed cells not marked, 4 kept cells
// marked." / "Right: all 169 cells as the mask has them (78 removed)."
std::string cellsGapSentence(const Question& question, const CellPicture& marked);
// A value as the question prints it: 0.6134 → "0.61", 0.0031 → "0.0031", 9.9e-16 → "< 0.001".
std::string questionValueText(float value);
// The entropy of a probability row in bits (0 log 0 = 0).
double entropyBits(const std::vector<float>& probabilities);

}  // namespace attnviz::core
