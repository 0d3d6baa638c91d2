// gui_export.h — connects the GUI's export dialog (PNG, SVG or PDF) (ui::AppState::exportPng) to the CPU figure
// export (src/export), and picks the default folder. The GUI knows nothing of PNGs; export nothing of ImGui.
#pragma once

#include "ui/app_state.h"

#include <filesystem>

namespace attnviz::app {

// Writes the stage figure(s) the request names; returns one line for the status bar, never throws.
ui::ExportHook makeExportHook();

// $XDG_PICTURES_DIR/attnviz, else ~/Pictures/attnviz, else a folder under the temp directory.
std::filesystem::path defaultExportDirectory();

}  // namespace attnviz::app
