// gui_autosave.h — the unsaved session, kept safe: while the session has unsaved changes it is written every
// kInterval seconds (when it changed since the last write) to $XDG_STATE_HOME/attnviz/autosave-<pid>.json with
// io::saveSession (atomic), beside autosave-<pid>.source naming the session file it was editing. Closing the
// window (after saving, or choosing not to) removes both; a crash leaves them, and the next start offers to
// restore them (findAutosave → ui::RestoreOffer); a signal (logout) leaves them marked, and the next start
// restores them without asking.
//
// Several attnviz may run at once: each writes its own files and holds flock() on autosave-<pid>.lock while it
// lives, so findAutosave offers only what a dead instance left (the newest), never a running one's work.
// The clock is the caller's (seconds from any start), so tests drive it. What it deliberately does not do: keep
// several generations, or autosave a session that has no unsaved changes (there is nothing to lose).
#pragma once

#include "ui/app_state.h"

#include <filesystem>
#include <optional>
#include <string>

namespace attnviz::app {

class Autosaver {
public:
    static constexpr double kInterval = 5.0;

    // Writes into `directory` (which must exist) as `instance` (default: this process's id). `keepFound`: a dead
    // instance's files (findAutosave) are offered; they stay until the restore question is answered, then go.
    Autosaver(std::filesystem::path directory, bool keepFound, std::string instance = {});
    ~Autosaver();
    Autosaver(const Autosaver&) = delete;
    Autosaver& operator=(const Autosaver&) = delete;

    // Once a frame. Writes when `state` has unsaved changes that differ from the last write and kInterval has
    // passed since it; removes the files once nothing is unsaved. Does nothing while state.session.restoreOffer
    // is open. Returns a sentence for the status line when a write failed, else an empty string.
    std::string tick(const ui::AppState& state, double seconds);
    // At exit. The files go when nothing is unsaved or the user chose "Close without saving"; otherwise the
    // session is written now. Ended by a signal (SIGTERM at logout, SIGHUP, Ctrl+C) it is also marked
    // autosave-<pid>.ended: a normal end, which the next start restores without asking. An open restore question
    // keeps the files.
    enum class Ending { Window, Signal };
    void finish(const ui::AppState& state, Ending ending = Ending::Window);

    std::filesystem::path sessionFile() const { return directory_ / ("autosave-" + instance_ + ".json"); }
    std::filesystem::path sourceFile() const { return directory_ / ("autosave-" + instance_ + ".source"); }
    std::filesystem::path endedFile() const { return directory_ / ("autosave-" + instance_ + ".ended"); }

private:
    std::string write(const ui::AppState& state, double seconds);
    void removeFiles();
    void removeAdopted();

    std::filesystem::path directory_;
    std::string instance_;
    int lock_ = -1;                                         // holds flock() on autosave-<instance>.lock
    std::optional<std::filesystem::path> adopted_;          // a dead instance's autosave, removed once answered
    bool filesMayExist_ = false;
    std::optional<io::Session> written_;  // the last session written (or that failed to write)
    double lastWrite_ = 0.0;
    bool wroteOnce_ = false;
};

// What this start does with an earlier run's unsaved changes (`found`): asks, or after a logout restores, when
// nothing chose this start's inputs; when the command line did, or the last start died before drawing its inputs
// (gui_settings.h's DrawingMarker: its Restore could die again), the changes wait for File ▸ Recover.
std::optional<ui::RestoreOffer> offerAtStart(std::optional<ui::RestoreOffer> found, bool onlyOnRequest);

// The newest autosave a dead instance left in `directory` (one no running attnviz holds the lock of), with the
// session file it was editing and its time.
std::optional<ui::RestoreOffer> findAutosave(const std::filesystem::path& directory);

}  // namespace attnviz::app
