// panel_compare.h — two runs side by side (issue 35 item 2): the compare toggle (the C key, the Inputs' checkbox),
// the choice of B (another sentence; the same sentence with every head on, beside the heads switched off; the same
// sentence through the model untrained) and the second sentence's field; the view that takes the stage's place while compare is on (A, B and A − B of the
// focused head of the stepped layer, aligned by position, hovered together); and the inspector's words for the
// hovered cell. The numbers are core::compareSentences' (core/compare.h), from the one forward (runModel's
// ModelRun::compared); the maps are scene maps, laid out and painted as the question views' are (lesson_scene.h).
// What it deliberately does not do: run the model, or export (export/compare_figure.h does).
#pragma once

#include "ui/lessons/lesson_scene.h"
#include "ui/panels/panels.h"

namespace attnviz::ui {

// On: spec.compareWith gets the draft (or the lesson's minimal pair of the sentence shown, core::
// defaultComparedSentence); off: it goes back to the draft.
void toggleCompare(AppState& state);
// The Inputs' checkbox and, while on, the choice of B and (B another sentence) its field and token count.
void compareField(AppState& state, const RunStatus& status);
// The compare view into the current child window (LessonPanel::drawCompare gives it its frame).
void drawCompareView(LessonFrame& frame);
// The inspector's compare lines for the hovered aligned cell; false when there is none (compare off, nothing hovered).
bool drawCompareInspector(const ViewContext& ctx);

}  // namespace attnviz::ui
