// panel_lessons.h — the "Questions" bar under the timeline (one button per lesson) and the open lesson in
// the centre of the window, in place of the stage view: its question, what opening it changed, buttons to
// export its stage and to go back, then the lesson's own view (lesson_*.cpp).
//
// LessonPanel keeps, per run, what the lessons computed from it (ComputedCache) and the report of what the open
// lesson showed in the last frame (for tests). It does not compute the forward pass or decide what a lesson
// shows; App owns one and clears it when the run changes.
#pragma once

#include "ui/lessons/lesson_scene.h"

namespace attnviz::ui {

class LessonPanel {
public:
    // The Questions bar, once per frame before draw(). Also closes the open lesson when the timeline or a key
    // moved away from its stage.
    void drawBar(AppState& state, const Fonts& fonts, float scale);
    // The open lesson (AppState::lesson.open != None) into the current child window; the next-token view draws
    // `prediction` (the app's, with its KV cache); the layers and roles views show what `analyses` has of the run.
    void draw(ViewContext& ctx, PredictionPanel& prediction, AnalysisDesk& analyses);
    // The compare view (panel_compare.h) into the current child window, in the frame a lesson gets.
    void drawCompare(ViewContext& ctx);
    // The run on screen changed: what was computed from the old one goes.
    void clear() { computed_.clear(); }
    const LessonReport& report() const { return report_; }

private:
    ComputedCache computed_;
    LessonReport report_;
};

}  // namespace attnviz::ui
