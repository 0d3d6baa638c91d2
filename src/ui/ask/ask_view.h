// ask_view.h — ask mode's picture on screen: while a question is open it takes the place of the stage, its text and
// the side panels (each of which could name the answer: the heads' thumbnails, the prediction's bars, the
// inspector), draws the question (scene/question_drawing.h) through the drawing player, and after reveal the
// truth, the gap and the class's distribution beside the model's numbers; → then goes on to the stage as usual.
//
// The question is drawn from the run on screen (core/questions.h) and kept until that run, the sentence, the head,
// the kind or the seed changes; a new run redraws it and clears the picks and the reveal. What it deliberately does
// not do: handle keys (ask_keys.cpp) or choose sizes of the window's panels (App does).
#pragma once

#include "core/questions.h"
#include "scene/question_drawing.h"
#include "ui/views/view_context.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attnviz::ui {

// What the ask view drew this frame (tests check the rectangles without a window).
struct AskReport {
    bool drawn = false;
    bool revealed = false;
    ImVec2 origin{0.0f, 0.0f};          // the drawing's (0, 0) on screen
    ImVec2 size{0.0f, 0.0f};            // the room it was given
    std::optional<core::Question> question;
    scene::QuestionLayout layout;       // in the drawing's pixels: add origin for the screen's
};

class AskView {
public:
    // Draws the open question in the current window's remaining room. `generation` changes exactly when the run does.
    void draw(ViewContext& ctx, std::uint64_t generation);
    const AskReport& report() const { return report_; }

private:
    struct Key {
        std::uint64_t generation = 0;
        int batch = 0, head = 0;
        core::QuestionKind kind{};
        std::uint64_t seed = 0;
        friend bool operator==(const Key&, const Key&) = default;
    };
    void ask(ViewContext& ctx, const Key& key);
    // Mouse and the typed word on the drawn question: a click on a choice picks it, a click on the mask's grid marks
    // or keeps a cell, the field takes the prediction's typed word (Enter reveals). Before reveal only.
    void interact(ViewContext& ctx, const scene::QuestionLayout& layout, ImVec2 origin);
    void typedWordField(ViewContext& ctx, const scene::QuestionLayout& layout, ImVec2 origin);
    void typeWord(ViewContext& ctx, std::string word);
    void sizeClickedCells(ViewContext& ctx);  // G: the grid sized to the truth's picture, nothing marked

    std::optional<Key> key_;
    std::optional<core::Question> question_;
    AskReport report_;
    std::string typing_;      // the field's text while it is edited
    std::string typedError_;  // why the typed word cannot be ranked (drawn under the field), or empty
};

}  // namespace attnviz::ui
