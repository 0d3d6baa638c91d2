// stages.h — the ordered stages of one forward pass (the table in docs/design.md), as data.
//
// Each stage says what it is called, its formula, the matching PyTorch line (Annotated Transformer style), a
// plain explanation, and which Trace tensors it shows. The UI's timeline, the export's file names and the
// CLI's --stage all come from this one list.
#pragma once

#include "core/attention.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::core {

struct ModelRun;

enum class StageId : int {
    Tokens, Embed, Project, SplitHeads, Scores, Scale, Mask, Softmax, WeightedSum, Concat, Output, Count
};
inline constexpr int kStageCount = static_cast<int>(StageId::Count);

struct Stage {
    StageId id;
    std::string_view key;          // "softmax": file names and --stage NAME
    std::string_view title;        // "Softmax"
    std::string_view formula;      // "A_i = softmax(S_i / sqrt(d_k))"
    std::string_view pytorch;      // with {b} {h} {l} {l_q} {l_k} {d_model} {d_k} {d_v} placeholders for shapes
    std::string_view numpy;        // the same step in plain NumPy, with the same placeholders
    std::string_view explanation;  // one or two plain sentences: what this step does and why
    std::vector<TensorId> shows;   // the Trace tensors this stage draws, in order (empty for Tokens)
    int number() const { return static_cast<int>(id); }
};

const std::vector<Stage>& stages();
const Stage& stage(StageId id);
// Stage 3's RoPE step (a model with rotary positions; the R key on screen): its words in the same form. Its id and
// number are the split's, so stage numbers stay 0–10; its key "rope" is the screenshot's --stage rope.
const Stage& ropeStep();
// Accepts a number ("7") or a key ("softmax"); nullopt when neither matches.
std::optional<StageId> findStage(std::string_view numberOrKey);
// Replaces the placeholders of a stage's text with this trace's sizes: "{l}" → "11".
std::string substituteShapes(std::string_view text, const Trace& trace);
// The stage's PyTorch (or NumPy) line for this run, shapes substituted. Cross-attention has its own lines where the
// decoder and the encoder differ (tokens, embedding, projection: queries from the decoder, keys and values from
// the encoder); every other stage's line already reads l_q and l_k.
std::string codeLine(const Stage& stage, const Trace& trace, bool numpy = false);
// The per-head map a stage is about (Q_i for the split, S_i for scores, A_i for softmax, Z_i for the weighted
// sum and the concatenation); nullopt for stages without one. Thumbnails and "all heads" figures show it.
std::optional<TensorId> perHeadTensor(StageId stage);
// The query row the stages follow while nothing is hovered (outlined in S_i, A_i … on screen and in exported figures):
// "it" under a head named for coreference (what that head is for) in sentence `batch`, else its last token (under a
// causal mask the only row that sees every key).
int followedQueryRow(const ModelRun& run, int batch, int head);
// "b × h × l × d_k" for a tensor of this trace, in symbols (the numeric shape is Tensor::shapeString()).
std::string symbolicShape(TensorId id, const Trace& trace);

}  // namespace attnviz::core
