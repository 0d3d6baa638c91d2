// panel_lessons.cpp — the Questions bar and the frame around the open lesson. See panel_lessons.h.
#include "ui/panels/panel_lessons.h"

#include "ui/lessons/lesson_catalog.h"
#include "ui/lessons/lesson_views.h"
#include "ui/panels/panel_compare.h"
#include "ui/widgets/widget_label.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {
namespace {

void lessonButton(AppState& state, const LessonInfo& info) {
    const bool open = state.lesson.open == info.id;
    if (open) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(widgetLabel(std::string(info.label)).c_str())) openLesson(state, info.id);
    if (open) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s\n(stage %d %s)", std::string(info.question).c_str(),
                          static_cast<int>(info.home), std::string(core::stage(info.home).title).c_str());
    }
}

float textWidthIn(ImFont* wanted, const char* text) {
    ImFont* f = font(wanted);
    return f->CalcTextSizeA(f->FontSize, FLT_MAX, 0.0f, text).x;
}

constexpr const char* kMoreLabel = "More \xe2\x96\xbe";  // "More ▾"

float buttonWidth(std::string_view label) {
    const ImGuiStyle& style = ImGui::GetStyle();
    return ImGui::CalcTextSize(std::string(label).c_str()).x + 2.0f * style.FramePadding.x + style.ItemSpacing.x;
}

// How many question buttons fit on the bar's one line after the title, in `width`: all of them, or as many as
// leave room for the "More ▾" button that lists the rest.
std::size_t buttonsThatFit(float width, float titleWidth) {
    float x = titleWidth;
    std::size_t fit = 0;
    for (const LessonInfo& info : lessons()) {
        x += buttonWidth(info.label);
        if (x > width) break;
        ++fit;
    }
    if (fit == lessons().size()) return fit;
    for (x = titleWidth + buttonWidth(kMoreLabel), fit = 0; fit < lessons().size(); ++fit) {
        x += buttonWidth(lessons()[fit].label);
        if (x > width) break;
    }
    return fit;
}

// "More ▾": the questions the bar had no room for, as a menu of their labels; the one open is checked.
void moreButton(AppState& state, std::size_t firstHidden) {
    const bool openInside = std::any_of(lessons().begin() + static_cast<std::ptrdiff_t>(firstHidden), lessons().end(),
                                        [&](const LessonInfo& info) { return info.id == state.lesson.open; });
    if (openInside) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(widgetLabel(kMoreLabel).c_str())) ImGui::OpenPopup("more questions");
    if (openInside) ImGui::PopStyleColor();
    if (!ImGui::BeginPopup("more questions")) return;
    for (std::size_t i = firstHidden; i < lessons().size(); ++i) {
        const LessonInfo& info = lessons()[i];
        if (ImGui::MenuItem(widgetLabel(std::string(info.label)).c_str(), nullptr, state.lesson.open == info.id)) openLesson(state, info.id);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(info.question).c_str());
    }
    ImGui::EndPopup();
}

void drawLessonView(Lesson lesson, LessonFrame& frame) {
    switch (lesson) {
        case Lesson::Masks: drawMasksLesson(frame); break;
        case Lesson::Cross: drawCrossLesson(frame); break;
        case Lesson::FusedVsHeads: drawFusedVsHeadsLesson(frame); break;
        case Lesson::Slicing: drawSlicingLesson(frame); break;
        case Lesson::RowByRow: drawRowByRowLesson(frame); break;
        case Lesson::Scaling: drawScalingLesson(frame); break;
        case Lesson::Pooling: drawPoolingLesson(frame); break;
        case Lesson::Cost: drawCostLesson(frame); break;
        case Lesson::FreeDims: drawFreeDimsLesson(frame); break;
        case Lesson::Training: drawTrainingLesson(frame); break;
        case Lesson::Rope: drawRopeLesson(frame); break;
        case Lesson::Lines: drawLinesLesson(frame); break;
        case Lesson::NextToken: drawNextTokenLesson(frame); break;
        case Lesson::Copy: drawCopyLesson(frame); break;
        case Lesson::Layers: drawLayersLesson(frame); break;
        case Lesson::Roles: drawRolesLesson(frame); break;
        case Lesson::None: break;
    }
}

// The question in large type, then what the lesson belongs to and what opening it changed; Export and Close
// at the right.
void header(LessonFrame& frame, const LessonInfo& info) {
    AppState& state = frame.ctx.state;
    const float buttonsWidth = ImGui::CalcTextSize("Export…  Close ✕").x + 4.0f * ImGui::GetStyle().FramePadding.x +
                               ImGui::GetStyle().ItemSpacing.x;
    const float right = ImGui::GetWindowContentRegionMax().x, top = ImGui::GetCursorPosY();
    ImGui::PushFont(font(frame.ctx.fonts.large));
    ImGui::PushTextWrapPos(right - buttonsWidth - ImGui::GetStyle().ItemSpacing.x);
    const std::string question(lessonQuestion(info, state));
    ImGui::TextWrapped("%s", question.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    frame.report.texts.push_back(question);
    const ImVec2 below = ImGui::GetCursorPos();
    ImGui::SetCursorPos({right - buttonsWidth, top});
    ImGui::BeginDisabled(!state.exportPng);
    // The next-token view exports what it shows (export --kind next); the others their stage.
    const bool prediction = info.id == Lesson::NextToken;
    if (ImGui::Button("Export…")) {
        state.exportAllStages = false;
        state.exportPrediction = prediction;
        state.openExportDialog = true;
    }
    frame.report.exportButton = {(ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) / 2.0f, (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) / 2.0f};
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        if (prediction) {
            ImGui::SetTooltip("Exports these bars as a 16:9 slide, like attnviz export --kind next.");
        } else {
            ImGui::SetTooltip("Exports stage %d (%s) with this lesson's inputs, like File → Export this stage.", static_cast<int>(info.home),
                              std::string(core::stage(info.home).title).c_str());
        }
    }
    ImGui::SameLine();
    if (ImGui::Button("Close ✕")) closeLesson(state);
    ImGui::SetCursorPos(below);
    say(frame, "Stage " + std::to_string(static_cast<int>(info.home)) + " " +
                   std::string(core::stage(info.home).title) + " is marked on the timeline; click any stage to leave.", Tone::Dim);
    if (!state.lesson.setupNote.empty()) say(frame, state.lesson.setupNote, Tone::Point);
    ImGui::Spacing();
}

// When the maps did not fit (a small window), the content reaches down to their bottom and the child scrolls.
void reachContentBottom(const LessonFrame& frame) {
    if (frame.contentBottom > ImGui::GetWindowPos().y + ImGui::GetWindowContentRegionMax().y + 0.5f) {
        ImGui::SetCursorScreenPos({ImGui::GetWindowPos().x, frame.contentBottom - 1.0f});
        ImGui::Dummy({1.0f, 1.0f});
    }
}

}  // namespace

void LessonPanel::drawBar(AppState& state, const Fonts& fonts, float scale) {
    report_ = {};
    // Stepping to another stage leaves the view: the user's own inputs come back, on the stage stepped to.
    if (state.lesson.open != Lesson::None && state.stage != lessonInfo(state.lesson.open).home) {
        const core::StageId steppedTo = state.stage;
        closeLesson(state);
        state.stage = steppedTo;
    }
    // One line, whatever the width and zoom (a line of the questions bar is a line the maps lose): the buttons that
    // do not fit go under "More ▾"; the title shortens first when that keeps a button on the bar.
    const float width = ImGui::GetContentRegionAvail().x;
    const char* title = "Questions learners ask:";
    std::size_t shown = buttonsThatFit(width, textWidthIn(fonts.bold, title));
    if (const std::size_t shorter = buttonsThatFit(width, textWidthIn(fonts.bold, "Questions:")); shorter > shown) {
        title = "Questions:";
        shown = shorter;
    }
    const float height = ImGui::GetFrameHeightWithSpacing() + std::round(6.0f * scale);
    ImGui::BeginChild("questions", {0.0f, height}, false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::AlignTextToFramePadding();
    ImGui::PushFont(font(fonts.bold));
    ImGui::TextUnformatted(title);
    ImGui::PopFont();
    for (std::size_t i = 0; i < shown; ++i) {
        ImGui::SameLine();
        lessonButton(state, lessons()[i]);
    }
    if (shown < lessons().size()) {
        ImGui::SameLine();
        moreButton(state, shown);
    }
    ImGui::EndChild();
}

void LessonPanel::draw(ViewContext& ctx, PredictionPanel& prediction, AnalysisDesk& analyses) {
    const Lesson lesson = ctx.state.lesson.open;
    if (lesson == Lesson::None) return;
    report_ = {};  // this frame's (presenting, drawBar does not run)
    report_.lesson = lesson;
    int& pending = ctx.state.lesson.pendingBatch;
    if (pending >= 0 && pending < ctx.run.trace.batch) {
        ctx.state.batch = pending;
        pending = -1;
    }
    LessonFrame frame{ctx, computed_, report_};
    frame.prediction = &prediction;
    frame.analyses = &analyses;
    header(frame, lessonInfo(lesson));
    drawLessonView(lesson, frame);
    reachContentBottom(frame);
}

void LessonPanel::drawCompare(ViewContext& ctx) {
    report_ = {};
    LessonFrame frame{ctx, computed_, report_};
    drawCompareView(frame);
    reachContentBottom(frame);
}

}  // namespace attnviz::ui
