// session_menu.h — the session's items in the menu bar and the controls panel: File ▸ Open, Open Recent, Save,
// Save As, Load weights, Use seeded weights; the Edit menu (Undo/Redo named after the change, Reset edits); the
// controls panel's "weights: <folder>" line with its "use seeded weights" button and the count of typed-in cells.
//
// Items only set AppState::session.request (or change the spec directly, for resets); SessionController does
// the work. What it deliberately does not do: open dialogs or read files.
#pragma once

#include "ui/app_state.h"

namespace attnviz::ui {

// The session items at the top of the File menu (inside BeginMenu("File")).
void drawSessionFileItems(AppState& state);
// The Edit menu, between File and View.
void drawEditMenu(AppState& state);
// In the controls panel: where the weights come from, and how many cells hold typed-in values.
void drawWeightsAndEdits(AppState& state);
// Asks for attnviz's bundled decoder (attnviz-mini-llama) to be opened as a model folder; false (nothing asked) when
// this install has none. The Model box, the File menu and the decoder lessons' "open the bundled decoder" call it.
bool requestBundledDecoder(AppState& state);
// Whether the model on screen is attnviz's bundled decoder.
bool showsBundledDecoder(const AppState& state);

}  // namespace attnviz::ui
