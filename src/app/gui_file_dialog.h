// gui_file_dialog.h — the native file chooser for File ▸ Open / Save As / Load weights: zenity, when it is
// installed, run as a child process with an argument list (posix_spawnp, never a shell, so no path or title is
// ever interpreted) and its answer read from its stdout on a worker thread while the app keeps drawing.
//
// Without zenity the hook is empty and the app asks with its built-in path field (ui::SessionController).
// What it deliberately does not do: talk to GTK/portals directly, filter by anything but *.json, or kill a
// chooser that is still open when the app quits (the worker waits for it).
#pragma once

#include "ui/session/session_state.h"

#include <optional>
#include <string>
#include <vector>

namespace attnviz::app {

// zenity's arguments for a request (argv[0] included).
std::vector<std::string> zenityArguments(const ui::PickRequest& request);
// The hook: zenity when `zenity` is found on $PATH, else empty. A chooser that cannot start gives an invalid
// future (the app then falls back to its path field).
ui::FilePicker makeFilePicker();

}  // namespace attnviz::app
