// lesson_views.h — one function per lesson view, each in its own lesson_*.cpp, called by LessonPanel with the
// area under the lesson's title. Each draws its controls (which edit AppState), its maps and charts, and its
// plain-words explanation, all through lesson_scene.h so that what it shows is reported.
//
// They share nothing but lesson_scene.h; none computes the forward pass (controls that change the numbers
// edit AppState::spec and App recomputes).
#pragma once

#include "ui/lessons/lesson_scene.h"

namespace attnviz::ui {

void drawMasksLesson(LessonFrame& frame);         // lesson_masks.cpp
void drawCrossLesson(LessonFrame& frame);         // lesson_cross.cpp
void drawFusedVsHeadsLesson(LessonFrame& frame);  // lesson_fused_vs_heads.cpp
void drawKvSharingView(LessonFrame& frame);       // lesson_kv_sharing.cpp: its third choice, MHA → GQA → MQA
void drawSlicingLesson(LessonFrame& frame);       // lesson_slicing.cpp
void drawRowByRowLesson(LessonFrame& frame);      // lesson_rows.cpp
void drawScalingLesson(LessonFrame& frame);       // lesson_scaling.cpp
void drawPoolingLesson(LessonFrame& frame);       // lesson_pooling.cpp
void drawCostLesson(LessonFrame& frame);          // lesson_cost.cpp
void drawFreeDimsLesson(LessonFrame& frame);      // lesson_free_dims.cpp
void drawTrainingLesson(LessonFrame& frame);      // lesson_training.cpp
void drawRopeLesson(LessonFrame& frame);          // lesson_rope.cpp
void drawLinesLesson(LessonFrame& frame);         // lesson_lines.cpp
void drawNextTokenLesson(LessonFrame& frame);     // lesson_next_token.cpp
void drawCopyLesson(LessonFrame& frame);          // lesson_copy.cpp
void drawLayersLesson(LessonFrame& frame);        // lesson_layers.cpp
void drawRolesLesson(LessonFrame& frame);         // lesson_roles.cpp

}  // namespace attnviz::ui
