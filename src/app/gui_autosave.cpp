// gui_autosave.cpp — periodic atomic saves of the unsaved session, and finding one after a crash. See gui_autosave.h.
#include "app/gui_autosave.h"

#include "io/atomic_file.h"
#include "io/weight_files.h"
#include "ui/session_actions.h"

#include <sys/stat.h>

#include <ctime>

namespace attnviz::app {
namespace fs = std::filesystem;

namespace {

// "Tue 14:32" in local time, from the file's modification time.
std::string modifiedAt(const fs::path& file) {
    struct stat info {};
    if (::stat(file.c_str(), &info) != 0) return "an earlier run";
    std::tm local{};
    localtime_r(&info.st_mtime, &local);
    char text[32];
    std::strftime(text, sizeof text, "%a %H:%M", &local);
    return text;
}

}  // namespace

Autosaver::Autosaver(fs::path directory, bool keepFound) : directory_(std::move(directory)), filesMayExist_(keepFound) {}

std::string Autosaver::tick(const ui::AppState& state, double seconds) {
    if (state.session.restoreOffer) return {};
    if (!state.session.modified) {
        if (filesMayExist_) removeFiles();
        return {};
    }
    if (wroteOnce_ && seconds - lastWrite_ < kInterval) return {};
    return write(state, seconds);
}

void Autosaver::finish(const ui::AppState& state) {
    if (state.session.restoreOffer) return;
    if (ui::mayClose(state)) removeFiles();
    else write(state, lastWrite_);
}

std::string Autosaver::write(const ui::AppState& state, double seconds) {
    io::Session session = ui::sessionOf(state);
    if (written_ && *written_ == session) return {};
    written_ = session;  // a failure is not retried until the session changes
    lastWrite_ = seconds;
    wroteOnce_ = true;
    filesMayExist_ = true;
    try {
        io::writeFileAtomically(sourceFile(), state.session.file.string());
        io::saveSession(sessionFile(), session);
    } catch (const io::FileError& error) {
        return std::string("Autosave failed: ") + error.what();
    }
    return {};
}

void Autosaver::removeFiles() {
    std::error_code error;
    fs::remove(sessionFile(), error);
    fs::remove(sourceFile(), error);
    filesMayExist_ = false;
    written_.reset();
}

std::optional<ui::RestoreOffer> findAutosave(const fs::path& directory) {
    const fs::path session = directory / "autosave.json";
    std::error_code error;
    if (!fs::is_regular_file(session, error)) return std::nullopt;
    ui::RestoreOffer offer{session, {}, modifiedAt(session)};
    try {
        offer.source = io::readWholeFile(directory / "autosave.source");
    } catch (const io::FileError&) {
        // No source file: the session was untitled (or the crash came between the two writes).
    }
    return offer;
}

}  // namespace attnviz::app
