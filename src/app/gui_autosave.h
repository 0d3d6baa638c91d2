// gui_autosave.h — the unsaved session, kept safe: while the session has unsaved changes it is written every
// kInterval seconds (when it changed since the last write) to $XDG_STATE_HOME/attnviz/autosave.json with
// io::saveSession (atomic), beside autosave.source naming the session file it was editing. Closing the window
// (after saving, or choosing not to) removes both; a crash or a signal leaves them, and the next start offers to
// restore them (findAutosave → ui::RestoreOffer).
//
// The clock is the caller's (seconds from any start), so tests drive it. What it deliberately does not do: keep
// several generations, lock against a second attnviz running at once (the last writer wins), or autosave a
// session that has no unsaved changes (there is nothing to lose).
#pragma once

#include "ui/app_state.h"

#include <filesystem>
#include <optional>
#include <string>

namespace attnviz::app {

class Autosaver {
public:
    static constexpr double kInterval = 5.0;

    // Writes into `directory` (which must exist). `keepFound`: a previous run's files are there and stay until
    // the restore question is answered.
    Autosaver(std::filesystem::path directory, bool keepFound);

    // Once a frame. Writes when `state` has unsaved changes that differ from the last write and kInterval has
    // passed since it; removes the files once nothing is unsaved. Does nothing while state.session.restoreOffer
    // is open. Returns a sentence for the status line when a write failed, else an empty string.
    std::string tick(const ui::AppState& state, double seconds);
    // At exit. The files go when nothing is unsaved or the user chose "Close without saving"; otherwise (Ctrl+C,
    // SIGTERM) the session is written now, so the next start offers it. An open restore question keeps them.
    void finish(const ui::AppState& state);

    std::filesystem::path sessionFile() const { return directory_ / "autosave.json"; }
    std::filesystem::path sourceFile() const { return directory_ / "autosave.source"; }

private:
    std::string write(const ui::AppState& state, double seconds);
    void removeFiles();

    std::filesystem::path directory_;
    bool filesMayExist_ = false;
    std::optional<io::Session> written_;  // the last session written (or that failed to write)
    double lastWrite_ = 0.0;
    bool wroteOnce_ = false;
};

// The autosave a previous run left in `directory`, with the session file it was editing and its time.
std::optional<ui::RestoreOffer> findAutosave(const std::filesystem::path& directory);

}  // namespace attnviz::app
