// session_actions.h — what File ▸ Open, Save and Load weights do to AppState, as plain functions: the
// AppState ⇄ io::Session translation, applying an opened session, finding and loading a folder of trained
// weights (docs/loading-weights.md names), the recent-files list and the window title.
//
// Every function either completes or throws io::FileError with AppState untouched (callers show the message).
// What it deliberately does not do: draw anything, ask for paths (SessionService and its dialogs do), or
// keep undo steps (History notices the changes on its own).
#pragma once

#include "ui/app_state.h"

#include <filesystem>
#include <string>

namespace attnviz::ui {

// The session on screen: inputs, edits, weight files and the view.
io::Session sessionOf(const AppState& state);
// Whether two sessions define the same numbers (everything but the view): what makes a session "modified".
bool sameDocument(const io::Session& a, const io::Session& b);
// Stage, batch, head and colormaps from a session's view (unknown colormap names keep the current ones).
void applyView(const io::ViewState& view, AppState& state);
// Puts an opened session on screen as the document `file`: inputs, weights, view, and the saved baseline.
void applyOpenedSession(io::OpenedSession opened, const std::filesystem::path& file, AppState& state);

// `file` first in `recent`, once, at most kMaxRecentFiles kept.
void addRecent(std::vector<std::filesystem::path>& recent, const std::filesystem::path& file);
// "lesson.json • — attnviz" (the bullet while modified); "attnviz — …" for an untitled, unchanged session.
std::string windowTitle(const AppState& state);
// Whether the window may close now: nothing unsaved, or the user chose to close without saving.
bool mayClose(const AppState& state);

// The weight files docs/loading-weights.md names (w_q.npy … w_o.npy, b_q.npy … b_o.npy, embeddings.npy,
// vocab.txt) that exist in `folder` (a file's own folder when a file is given), as absolute paths; missing
// ones stay empty. Throws FileError when there are none, or an incomplete set (naming what is missing).
io::WeightFiles weightFilesIn(const std::filesystem::path& folder);

// What File ▸ Open model's path field says under a typed folder, judged by the files a model folder has (by name
// only: nothing is read while typing).
struct FolderCheck {
    std::string text;
    bool problem = false;
};
FolderCheck checkModelFolder(const std::filesystem::path& folder);

struct LoadedWeights {
    core::ModelSpec spec;   // the inputs with the trained numbers in (d_model adapted when the files need it)
    io::WeightFiles files;
    std::string summary;    // "Loaded W^Q, W^K, W^V, W^O, biases and 30 embeddings from lesson/"
};
// Reads the weights in `folder` for `spec`. When W^Q's rows say another d_model and the head count divides it,
// the spec takes that d_model (so a trained 32-wide layer opens in a 64-wide session). Throws FileError.
LoadedWeights loadWeightsFolder(const core::ModelSpec& spec, const std::filesystem::path& folder);
// Puts loaded weights on screen.
void applyLoadedWeights(LoadedWeights loaded, AppState& state);
// Back to seeded weights and embeddings (the cell edits and the rest stay).
void useSeededWeights(AppState& state);
// Puts a trained model on screen: its sizes and heads, its featured layer and head (heads.json), in place of the
// seeded layer (its cell edits, .npy weights and decoder sentences go); the sentences stay.
void useTrainedModel(std::shared_ptr<const core::TrainedModel> model, AppState& state);
// Back to the seeded single layer with untrained (random) weights at its default sizes; the sentences stay, and
// so do the seeded layer's options when it is already on screen (after a trained model they are the defaults).
void useRandomWeights(AppState& state);

// "lesson/" for the status line and the controls; empty with seeded weights.
std::string weightsFolderName(const io::WeightFiles& files);

}  // namespace attnviz::ui
