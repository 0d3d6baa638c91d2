// lesson_state.h — which question view ("lesson") is open and what its own controls chose, as plain data
// inside AppState (AppState::lesson). The lessons answer what learners ask: masks,
// cross-attention, fused vs per-head weights (and shared K/V heads), slicing, per-row linear layers, scaling, pooling,
// cost, d_k/d_v, rotary positions, and which words each word attends to (the line view).
//
// What it deliberately does not hold: anything a lesson computes (panel_lessons.h caches that per run), or
// the model's inputs: a lesson control that changes the numbers (mask, scale, d_k …) edits AppState::spec, so
// the timeline and every other view follow. A question view works on a copy of what the user had: `returnTo`
// keeps the model, sentences, stage and view from before it opened, and closing it puts them back.
#pragma once

#include "core/model.h"
#include "core/stages.h"

#include <optional>
#include <string>

namespace attnviz::ui {

enum class Projection;  // app_state.h

// What the user had on screen before a question view changed it, restored when the view closes.
struct LessonReturn {
    core::ModelSpec spec;  // the model (trained or seeded), its sentences, sizes and masks
    int batch = 0;
    core::StageId stage = core::StageId::Tokens;
    int head = 0;
    bool allHeads = false;
    bool modelView = false;
    bool hideSpecialTokens = false;
    Projection projection{};
};

enum class Lesson { None, Masks, Cross, FusedVsHeads, Slicing, RowByRow, Scaling, Pooling, Cost, FreeDims, Training, Rope, Lines, NextToken, Copy, Layers, Roles };

// "3 layers or 3·h?": W^Q as one fused matrix, as h matrices, or K/V heads shared (MHA → GQA → MQA).
enum class FusedView { Fused, PerHead, SharedKv };

struct LessonState {
    Lesson open = Lesson::None;
    std::string setupNote;        // what opening the lesson changed in the inputs ("Added 2 sentences …"), or empty
    int pendingBatch = -1;        // a sentence to show as soon as the run on screen has it (one opening added it)

    FusedView fusedView = FusedView::Fused;  // fused vs heads: h matrices d_model × d_k instead of one d_model × h·d_k, or K/V sharing
    int row = 0;                  // per row: the row t of X multiplied by W^Q
    bool animateRows = false;     // per row: step t forward every secondsPerRow
    float rowElapsed = 0.0f;
    float secondsPerRow = 1.5f;
    int classes = 3;              // pooling: outputs of the small classifier (2 … 8)
    int costLength = 0;           // cost: the l the table assumes; 0 = this run's sentence
    int ropeQuery = -1;           // rotary positions: the query token whose q is turned (−1: the last)
    int ropeKey = 0;              // rotary positions: the key token whose k it is scored against
    bool ropeEachToken = false;   // rotary positions: every token's q at its own position instead of one q at 0 … 7
    int linesQuery = -1;          // the line view: the query row drawn bold (−1: "it" when the sentence has it)
    int copySeed = 0;             // "How does it copy?": which random word sequence (Another random sequence adds 1)

    std::optional<LessonReturn> returnTo;  // set while a view is open; empty after the user chose another model
};

}  // namespace attnviz::ui
