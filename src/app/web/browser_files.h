// browser_files.h — the web page's files across the browser's edge; browser_files.js is the JavaScript half.
//   Downloads: whatever the app writes into kDownloadsFolder (figures, saved sessions) arrives as a browser
//     download (app/page_files.h's Outbox), once per new or rewritten file.
//   Choosing: File ▸ Open… asks the browser's file chooser (<input type=file>), Open model folder… and Load weights
//     its folder chooser (<input type=file webkitdirectory>); the chosen bytes are copied into the page's memory
//     file system, and the app opens them by its normal path, with its normal errors. Save As… needs no chooser: the
//     session is written into kDownloadsFolder and downloads. Files or a folder dropped on the page open the same way
//     (a .json file as a session, anything else as a model folder); so does a choice made with no question pending.
//     A model folder over app/page_files.h's limit is refused in one sentence before a byte is read.
//   Storage: kStorageFolder is the browser's IndexedDB (Emscripten's IDBFS), read before main starts; the app's
//     state folder (settings, imgui.ini, the autosave) lives in it, and syncStorage() copies changes back.
#pragma once

#include "ui/app_state.h"

#include <string>

namespace attnviz::app::web {

inline constexpr const char* kDownloadsFolder = "/downloads";
inline constexpr const char* kStorageFolder = "/storage";

// The chooser for File ▸ Open… / Save As… / Open model folder… / Load weights… (App::setFilePicker).
ui::FilePicker makeBrowserFilePicker();

// Once a frame: hands new downloads to the browser, turns files dropped on the page into open requests, and puts
// what went wrong (a refused model, an unreadable file) on the status line.
void exchangeFiles(ui::AppState& state);

// Copies the storage folder's changes into the browser's storage (in the background; a sync asked for while one
// runs follows it).
void syncStorage();

// One sentence when the browser gave the page no storage at start (settings and the autosave then last only as long
// as the tab); else empty.
std::string storageProblem();

}  // namespace attnviz::app::web
