// gui_export.h — connects the GUI's export dialog (PNG, SVG or PDF) (ui::AppState::exportPng) to the CPU figure
// export (src/export), and picks the default folder. The GUI knows nothing of PNGs; export nothing of ImGui.
#pragma once

#include "ui/app_state.h"

#include <filesystem>

namespace attnviz::app {

// Writes the stage figure(s) the request names into the dialog's folder; returns one line for the status bar, never
// throws. With `downloads` (the web page's Outbox folder) the figures go there instead and the line says they are
// downloading.
ui::ExportHook makeExportHook(std::filesystem::path downloads = {});

// $XDG_PICTURES_DIR/attnviz, else ~/Pictures/attnviz, else a folder under the temp directory.
std::filesystem::path defaultExportDirectory();

}  // namespace attnviz::app
