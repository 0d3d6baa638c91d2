// history.h — undo and redo of every change to the inputs (sentences, sizes, options, cell edits, weights, the
// questions revealed), each step named for the Edit menu ("heads 8 → 4").
//
// History watches rather than being told: once a frame, observe() compares the inputs with the newest step and
// records a step when they differ, so a panel that changes AppState::spec needs no undo code. Typing coalesces:
// a change of the sentences alone stays pending until the typist pauses (kTypingPause seconds), finishes a
// word (types a space) or changes something else, so "the cat sat" is two or three steps, not eleven.
// Snapshots are cheap values; loaded weights are held once by shared_ptr, never copied per step.
//
// What it deliberately does not do: record the view (stage, head, colormaps), read a clock (the caller gives
// the time), or touch ImGui.
#pragma once

#include "ui/app_state.h"

#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>

namespace attnviz::ui {

// The inputs of one step (the spec shares its loaded weights and model, never copies them).
struct InputsSnapshot {
    core::ModelSpec spec;
    io::WeightFiles weightFiles;
    std::vector<io::AskedQuestion> asked;  // ask mode's questions revealed (AskState::asked): undone like any edit
};

// What changed from `before` to `after`, for "Undo …": up to two changes ("d_model 64 → 512, heads 8 → 4").
std::string describeChange(const InputsSnapshot& before, const InputsSnapshot& after);

class History {
public:
    static constexpr std::size_t kMaxSteps = 200;   // undo steps kept (the oldest go first)
    static constexpr double kTypingPause = 1.0;     // seconds without typing that end a sentence step

    // `state`'s inputs are the first step, which cannot be undone.
    explicit History(const AppState& state);

    // Records a step when the inputs differ from the newest one (see the file comment). `seconds` is any
    // clock that only goes forward.
    void observe(const AppState& state, double seconds);
    // Forgets every step; `state`'s inputs become the first (a session was opened).
    void reset(const AppState& state);

    bool canUndo() const;
    bool canRedo() const;
    std::string undoLabel() const;  // empty when there is nothing to undo
    std::string redoLabel() const;
    // Write the previous (next) step's inputs into `state`; nothing when there is none.
    void undo(AppState& state);
    void redo(AppState& state);

private:
    struct Step {
        InputsSnapshot inputs;
        std::string label;  // how this step differs from the one before it
    };
    InputsSnapshot snapshot(const AppState& state) const;
    const InputsSnapshot& newest() const;
    void push(InputsSnapshot inputs);
    void commitTyping();

    std::deque<Step> steps_;
    std::size_t current_ = 0;               // the step on screen (when nothing is pending)
    std::optional<InputsSnapshot> typing_;  // sentences typed since the last step, not yet a step
    double lastKeystroke_ = 0.0;
};

// Whether `state`'s inputs are exactly `snapshot`.
bool matches(const AppState& state, const InputsSnapshot& snapshot);
// Writes a snapshot's inputs into `state`.
void applySnapshot(const InputsSnapshot& snapshot, AppState& state);

}  // namespace attnviz::ui
