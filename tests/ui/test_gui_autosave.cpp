// test_gui_autosave.cpp — the autosave with an injected clock: it writes only when there are unsaved changes that
// differ from the last write, at most every Autosaver::kInterval seconds, removes its files once everything is
// saved, leaves a crash's files alone until the restore question is answered, and is found again at start; two
// instances at once never offer each other's files.
#include "app/gui_autosave.h"
#include "io/atomic_file.h"
#include "io/scratch_dir.h"
#include "ui/session/session_actions.h"

#include <doctest/doctest.h>

#include <memory>

#include <unistd.h>

namespace attnviz::test {
namespace {

namespace fs = std::filesystem;

ui::AppState changedState(std::uint64_t seed) {
    ui::AppState state;
    state.spec.seeded()->seed = seed;
    state.session.modified = true;  // what SessionController publishes when the inputs differ from the saved ones
    state.session.file = "/lessons/masks.json";
    return state;
}

}  // namespace

TEST_CASE("autosave: nothing without a change, a write after one, at most every interval, none for the same session") {
    const ScratchDir dir("autosave");
    app::Autosaver autosave(dir.path(), false);
    ui::AppState state;
    for (double t = 0.0; t < 20.0; t += 1.0) CHECK(autosave.tick(state, t).empty());
    CHECK_FALSE(fs::exists(autosave.sessionFile()));

    state = changedState(7);
    CHECK(autosave.tick(state, 20.0).empty());
    REQUIRE(fs::exists(autosave.sessionFile()));
    CHECK(io::loadSession(autosave.sessionFile()) == ui::sessionOf(state));

    state = changedState(8);
    autosave.tick(state, 21.0);  // too soon
    CHECK(io::loadSession(autosave.sessionFile()).seed == 7);
    autosave.tick(state, 20.0 + app::Autosaver::kInterval);
    CHECK(io::loadSession(autosave.sessionFile()).seed == 8);

    fs::remove(autosave.sessionFile());
    autosave.tick(state, 100.0);  // unchanged since the last write: not written again
    CHECK_FALSE(fs::exists(autosave.sessionFile()));
}

TEST_CASE("autosave: saved means removed — a crash's files wait for the answer and are found with their source") {
    const ScratchDir dir("autosave-crash");
    {
        app::Autosaver autosave(dir.path(), false);
        autosave.tick(changedState(3), 0.0);
        REQUIRE(fs::exists(autosave.sessionFile()));
        // The process dies here: no finish().
    }
    const std::optional<ui::RestoreOffer> offer = app::findAutosave(dir.path());
    REQUIRE(offer);
    CHECK(offer->autosave == dir.path() / ("autosave-" + std::to_string(::getpid()) + ".json"));
    CHECK(offer->source == "/lessons/masks.json");
    CHECK_FALSE(offer->when.empty());

    app::Autosaver next(dir.path(), true);
    ui::AppState asking;
    asking.session.restoreOffer = offer;
    next.tick(asking, 0.0);
    next.finish(asking);
    CHECK(fs::exists(next.sessionFile()));  // still offered

    ui::AppState answered;  // "Discard": nothing unsaved
    next.tick(answered, 1.0);
    CHECK_FALSE(fs::exists(next.sessionFile()));
    CHECK_FALSE(fs::exists(next.sourceFile()));
    CHECK_FALSE(app::findAutosave(dir.path()));
}

TEST_CASE("autosave at exit: kept (written now) for unsaved changes, removed after 'Close without saving'") {
    const ScratchDir dir("autosave-exit");
    app::Autosaver autosave(dir.path(), false);
    ui::AppState state = changedState(11);
    autosave.finish(state);  // Ctrl+C with changes: written at once, whatever the interval
    REQUIRE(fs::exists(autosave.sessionFile()));
    CHECK(io::loadSession(autosave.sessionFile()).seed == 11);
    state.session.closeConfirmed = true;
    autosave.finish(state);
    CHECK_FALSE(fs::exists(autosave.sessionFile()));
}

TEST_CASE("autosave at a signal's exit: written and marked as a normal end, which a crash's files are not") {
    const ScratchDir dir("autosave-signal");
    {
        app::Autosaver autosave(dir.path(), false);
        autosave.finish(changedState(5), app::Autosaver::Ending::Signal);  // SIGTERM at logout
        CHECK(fs::exists(autosave.endedFile()));
    }
    std::optional<ui::RestoreOffer> offer = app::findAutosave(dir.path());
    REQUIRE(offer);
    CHECK(offer->endedBySignal);

    app::Autosaver next(dir.path(), true);
    ui::AppState answered;  // restored (or discarded): the dead instance's files go, its mark with them
    next.tick(answered, 0.0);
    CHECK_FALSE(app::findAutosave(dir.path()));
    CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) <= 1);  // at most our lock

    {
        app::Autosaver crashing(dir.path(), false, "crash");
        crashing.tick(changedState(6), 0.0);
        // Dies without finish(): the destructor only releases the lock, as the kernel would.
    }
    offer = app::findAutosave(dir.path());
    REQUIRE(offer);
    CHECK_FALSE(offer->endedBySignal);
}

TEST_CASE("autosave: an earlier run's files left for File ▸ Recover stay, and this run saves its own meanwhile") {
    const ScratchDir dir("autosave-recover");
    {
        app::Autosaver dead(dir.path(), false, "dead");
        dead.tick(changedState(3), 0.0);
        // The process ends here by a signal the test does not send: no finish().
    }
    const std::optional<ui::RestoreOffer> found = app::findAutosave(dir.path());
    REQUIRE(found);
    app::Autosaver now(dir.path(), true, "now");
    ui::AppState state = changedState(9);  // the command line's inputs
    state.session.restoreOffer = app::offerAtStart(found, true);
    CHECK(now.tick(state, 0.0).empty());
    REQUIRE(fs::exists(now.sessionFile()));
    CHECK(io::loadSession(now.sessionFile()).seed == 9);  // this run's work is autosaved
    now.finish(state);
    CHECK(fs::exists(found->autosave));  // the earlier run's, still to recover
}

TEST_CASE("autosave: a session the file format refuses is reported, not written") {
    const ScratchDir dir("autosave-bad");
    app::Autosaver autosave(dir.path(), false);
    ui::AppState state = changedState(1);
    state.head = 99;  // outside the model: saveSession refuses it
    const std::string problem = autosave.tick(state, 0.0);
    CHECK(problem.find("Autosave failed: ") == 0);
    CHECK_FALSE(fs::exists(autosave.sessionFile()));
    CHECK(autosave.tick(state, 10.0).empty());  // said once, not every interval
}

TEST_CASE("autosave: two instances at once keep their own files — only a dead one's are offered, the newest first") {
    const ScratchDir dir("autosave-two");
    auto first = std::make_unique<app::Autosaver>(dir.path(), false, "111");
    app::Autosaver second(dir.path(), false, "222");
    first->tick(changedState(1), 0.0);
    second.tick(changedState(2), 0.0);
    REQUIRE(first->sessionFile() != second.sessionFile());
    CHECK(io::loadSession(first->sessionFile()).seed == 1);
    CHECK(io::loadSession(second.sessionFile()).seed == 2);
    CHECK_FALSE(app::findAutosave(dir.path()));  // both alive: nothing to restore

    const fs::path firstFile = first->sessionFile();
    first.reset();  // the first one dies without finish()
    const std::optional<ui::RestoreOffer> offer = app::findAutosave(dir.path());
    REQUIRE(offer);
    CHECK(offer->autosave == firstFile);

    // A third start adopts it; once answered, the dead instance's files go and the living one's stay.
    app::Autosaver third(dir.path(), true, "333");
    ui::AppState answered;
    third.tick(answered, 1.0);
    CHECK_FALSE(fs::exists(firstFile));
    CHECK(fs::exists(second.sessionFile()));
    CHECK_FALSE(app::findAutosave(dir.path()));
}

TEST_CASE("autosave: an older version's autosave.json is still offered and removed once answered") {
    const ScratchDir dir("autosave-legacy");
    io::saveSession(dir.path() / "autosave.json", ui::sessionOf(changedState(5)));
    const std::optional<ui::RestoreOffer> offer = app::findAutosave(dir.path());
    REQUIRE(offer);
    CHECK(offer->autosave == dir.path() / "autosave.json");
    app::Autosaver next(dir.path(), true);
    next.tick(ui::AppState{}, 0.0);
    CHECK_FALSE(fs::exists(dir.path() / "autosave.json"));
}

TEST_CASE("autosave: a dead instance's lock without a session is removed — a living one's stays") {
    const ScratchDir dir("autosave-locks");
    const fs::path orphan = dir.path() / "autosave-444.lock";
    io::writeFileAtomically(orphan, "");
    app::Autosaver living(dir.path(), false, "555");
    const fs::path livingLock = dir.path() / "autosave-555.lock";
    REQUIRE(fs::exists(livingLock));
    CHECK_FALSE(fs::exists(orphan));
    app::Autosaver another(dir.path(), false, "666");  // sweeps again: the living lock is held
    CHECK(fs::exists(livingLock));
}

}  // namespace attnviz::test
