// heads_off_view.h — switching heads off in the window (issue 35 item 1: "does this head matter?").
//
// A right-click on a head — its tile in the heads grid, its map in the model view, its map on the stage — opens a
// menu: "Switch off (zero Z_i)", "Replace by its mean", "Switch on", "Switch all back on". Each is an ordinary change
// of AppState::spec.headsOff (core::setHeadOff keeps the list in one order), so undo, the session file and autosave
// take it like the sentence, and App reruns from the first layer whose heads changed (ModelRunner → rerunHeadsOff).
// Every head that is off wears a mark (thumbnails: a pale wash, a dark frame, a strike for "off"; stage maps: the frame;
// both: a label "off" or "mean");
// above the stage a banner lists them with the prediction before → after (the run with every head on is the
// "before": RunResult::intact) and a "Switch all back on" button; the prediction panel says the same for its position.
//
// Holds the run with every head on, the shift of the prediction it last computed (logits of a large vocabulary are
// not recomputed every frame), and the head the menu is open for. Does not compute runs (ModelRunner does).
#pragma once

#include "core/transformer/heads_off.h"
#include "ui/views/view_context.h"

#include <imgui.h>

#include <cstddef>
#include <memory>
#include <optional>

namespace attnviz::ui {

enum class HeadMenuChoice { Zero, Mean, On, AllOn };

// Applies a menu choice for layer `layer`'s head `head` to state.spec (AllOn ignores the head). Returns whether the
// inputs changed.
bool chooseHeadOff(AppState& state, int layer, int head, HeadMenuChoice choice);
// Whether heads of `run` can be switched off: a trained model whose stepped layer is its own heads (not a re-split).
bool headsCanBeSwitched(const core::ModelRun& run);
// The mark of a head switched off over its map [min, max]: a dark frame and the label "off" or "mean" in `font` where
// it fits; with `wash` (thumbnails) the map pales and Zero gets a strike too (a stage map stays legible).
void drawHeadOffMark(ImDrawList& list, ImVec2 min, ImVec2 max, core::HeadOffMode mode, bool wash, ImFont* font);

class HeadsOffView {
public:
    // The run with every head on for the run on screen (RunResult::intact, null when no head is off); returns the one
    // held before, for the caller to release.
    std::shared_ptr<const core::ModelRun> replaceIntact(std::shared_ptr<const core::ModelRun> intact);
    const std::shared_ptr<const core::ModelRun>& intact() const { return intact_; }

    // Marks layer `layer`'s head `head` of ctx.run over [min, max] when it is off, and opens the menu for it on a
    // right-click there (in the current window, when it is hovered).
    void headTile(ViewContext& ctx, int layer, int head, ImVec2 min, ImVec2 max, bool wash);
    // The same for the stage's per-head maps drawn since ctx.drawn[firstDrawn] (the stepped layer's heads).
    void stageMaps(ViewContext& ctx, std::size_t firstDrawn);
    // The menu, once a frame, in the main window.
    void drawMenu(AppState& state);
    // Above the stage: the heads that are off, the prediction before → after, "Switch all back on". Nothing when
    // every head is on.
    void drawBanner(ViewContext& ctx);
    // The prediction panel's line at `position` (the token whose prediction it shows).
    void drawShift(ViewContext& ctx, int position);
    // What switching the heads off did to the prediction at `position` of the sentence on screen; nullopt when every
    // head is on or the model predicts nothing. Kept until the runs, the sentence or the position change.
    std::optional<core::PredictionShift> shift(const ViewContext& ctx, int position);
    // The shift shift() last computed (tests).
    std::optional<core::PredictionShift> shownShift() const { return shown_ ? std::optional(shown_->shift) : std::nullopt; }
    // The head the menu was last opened for (tests).
    std::optional<core::HeadAblation> menuHead() const { return menuHead_; }

private:
    std::shared_ptr<const core::ModelRun> intact_;
    std::optional<core::HeadAblation> requested_;  // a right-click this frame: the menu opens in drawMenu
    std::optional<core::HeadAblation> menuHead_;   // the head the open menu is for (layer, head)
    struct Shown {
        const core::ModelRun* run = nullptr;
        const core::ModelRun* intact = nullptr;
        int batch = -1, position = -1;
        core::PredictionShift shift;
    };
    std::optional<Shown> shown_;
};

}  // namespace attnviz::ui
