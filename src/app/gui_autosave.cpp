// gui_autosave.cpp — periodic atomic saves of the unsaved session, and finding one after a crash. See gui_autosave.h.
#include "app/gui_autosave.h"

#include "io/atomic_file.h"
#include "io/weight_files.h"
#include "ui/session/session_actions.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <string_view>

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

constexpr std::string_view kPrefix = "autosave";

// autosave-<instance>.json → autosave-<instance>.<extension> (the legacy autosave.json → autosave.<extension>).
fs::path sibling(const fs::path& sessionFile, std::string_view extension) {
    return fs::path(sessionFile).replace_extension(extension);
}

// Whether a running instance holds the lock beside `sessionFile` (the legacy autosave.json never has one).
bool ownerAlive(const fs::path& sessionFile) {
    const int fd = ::open(sibling(sessionFile, ".lock").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool locked = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
    return locked;
}

// Lock files of dead instances that left no session (they crashed with nothing unsaved): nothing to guard.
void removeOrphanLocks(const fs::path& directory) {
    std::error_code error;
    fs::directory_iterator entries(directory, error);
    for (; !error && entries != fs::directory_iterator(); entries.increment(error)) {
        const fs::path& lock = entries->path();
        const std::string name = lock.filename().string();
        if (name.rfind(kPrefix, 0) != 0 || lock.extension() != ".lock") continue;
        std::error_code ignored;
        if (fs::exists(sibling(lock, ".json"), ignored) || ownerAlive(sibling(lock, ".json"))) continue;
        fs::remove(lock, ignored);
    }
}

bool isAutosaveName(const std::string& name) {
    return name.rfind(kPrefix, 0) == 0 && name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0;
}

}  // namespace

Autosaver::Autosaver(fs::path directory, bool keepFound, std::string instance)
    : directory_(std::move(directory)),
      instance_(instance.empty() ? std::to_string(::getpid()) : std::move(instance)),
      filesMayExist_(keepFound) {
    if (keepFound) {
        if (const std::optional<ui::RestoreOffer> found = findAutosave(directory_)) adopted_ = found->autosave;
    }
    removeOrphanLocks(directory_);
    lock_ = ::open(sibling(sessionFile(), ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock_ >= 0) ::flock(lock_, LOCK_EX | LOCK_NB);  // best effort: without it a second start may offer our files
}

Autosaver::~Autosaver() {
    if (lock_ < 0) return;
    std::error_code error;
    if (!fs::exists(sessionFile(), error)) fs::remove(sibling(sessionFile(), ".lock"), error);  // nothing to guard
    ::close(lock_);  // releases the lock: what is left is a dead instance's, for the next start to offer
}

std::optional<ui::RestoreOffer> offerAtStart(std::optional<ui::RestoreOffer> found, bool onlyOnRequest) {
    if (found && onlyOnRequest) found->onlyOnRequest = true;
    return found;
}

namespace {

// An offer waiting for its answer keeps the files it would restore; one left for File ▸ Recover does not stop this
// run's own autosave.
bool awaitingAnswer(const ui::AppState& state) { return state.session.restoreOffer && !state.session.restoreOffer->onlyOnRequest; }

}  // namespace

std::string Autosaver::tick(const ui::AppState& state, double seconds) {
    if (awaitingAnswer(state)) return {};
    if (adopted_ && !state.session.restoreOffer) removeAdopted();  // answered: restored into this instance's session, or discarded
    if (!state.session.modified) {
        if (filesMayExist_) removeFiles();
        return {};
    }
    if (wroteOnce_ && seconds - lastWrite_ < kInterval) return {};
    return write(state, seconds);
}

void Autosaver::finish(const ui::AppState& state, Ending ending) {
    if (awaitingAnswer(state)) return;
    if (ui::mayClose(state)) {
        removeFiles();
        return;
    }
    write(state, lastWrite_);
    if (ending == Ending::Signal) {
        try {
            io::writeFileAtomically(endedFile(), "ended by a signal: restore without asking\n");
        } catch (const io::FileError&) {
            // Without the mark the next start asks, as after a crash: nothing is lost.
        }
    }
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

void Autosaver::removeAdopted() {
    std::error_code error;
    if (*adopted_ != sessionFile()) {  // the same name when the dead instance had our process id
        for (const char* extension : {".json", ".source", ".ended", ".lock"}) fs::remove(sibling(*adopted_, extension), error);
    }
    adopted_.reset();
}

void Autosaver::removeFiles() {
    std::error_code error;
    fs::remove(sessionFile(), error);
    fs::remove(sourceFile(), error);
    fs::remove(endedFile(), error);
    filesMayExist_ = false;
    written_.reset();
}

std::optional<ui::RestoreOffer> findAutosave(const fs::path& directory) {
    std::optional<fs::path> newest;
    fs::file_time_type newestTime{};
    std::error_code error;
    fs::directory_iterator entries(directory, error);
    for (; !error && entries != fs::directory_iterator(); entries.increment(error)) {
        const fs::path& path = entries->path();
        if (!isAutosaveName(path.filename().string()) || !fs::is_regular_file(path) || ownerAlive(path)) continue;
        std::error_code timeError;
        const fs::file_time_type time = fs::last_write_time(path, timeError);
        if (timeError || (newest && time <= newestTime)) continue;
        newest = path;
        newestTime = time;
    }
    if (!newest) return std::nullopt;
    const fs::path session = *newest;
    ui::RestoreOffer offer{session, {}, modifiedAt(session)};
    offer.endedBySignal = fs::exists(sibling(session, ".ended"), error);
    try {
        offer.source = io::readWholeFile(sibling(session, ".source"));
    } catch (const io::FileError&) {
        // No source file: the session was untitled (or the crash came between the two writes).
    }
    return offer;
}

}  // namespace attnviz::app
