// sentence_notes.h — what the screen says about the sentence on screen with a trained model (issue 22): the words
// its vocabulary did not know, and what a named head does on this sentence next to what heads.json says it was
// trained or found to do. Text only (core/sentence_words.h does the counting); the panels draw it.
#pragma once

#include "ui/views/view_context.h"

#include <string>

namespace attnviz::ui {

// "Outside the vocabulary: 2 of 12 words were cut into 14 pieces, …" for sentence `batch` of a trained model's run;
// "" when every word is in the vocabulary, and for the seeded layer (its tokens are whole words).
std::string vocabularyNoticeOf(const core::ModelRun& run, int batch);

// What named head `named` does on this sentence (core::headReading: "it → trophy 0.58, suitcase 0.31: a close
// call …"): query row `query` (-1: the head's own row, "it" for the coreference head) of its map (from the whole pass
// when the run kept every layer's A, else from the stepped layer's Trace). "" for the seeded layer or tokens that no
// longer match the sentence.
std::string onThisSentence(const core::ModelRun& run, int batch, const core::NamedHead& named, int query);

// The row a named head's reading is about in the model view: -1 for the coreference head (its reading finds "it"),
// else the sentence's last token that is not a special one.
int defaultQueryRow(const core::ModelRun& run, int batch, const core::NamedHead& named);

// The query row a reader is looking at in the focused head: the hovered (or pinned) cell's row on one of its l × l
// maps, else the row the stages outline (core::followedQueryRow), so the reading is about the outlined row.
int focusedQueryRow(const ViewContext& ctx);

// What the focused head does on this sentence, for beside its heads.json caption (the stage view draws that):
// "On this sentence, head 0 (coreference (it → its noun)): it → trophy 0.58, suitcase 0.31." "" when the head is not
// named, or the heads are a re-split.
std::string namedHeadReading(const ViewContext& ctx);

}  // namespace attnviz::ui
