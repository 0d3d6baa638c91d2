// test_gui_file_dialog.cpp — the zenity chooser with a stand-in `zenity` on $PATH: arguments arrive one by one
// (spaces and quotes intact: no shell), the printed path is the answer, exit status 1 is "cancelled", and
// without zenity the hook is empty (the app then uses its own path field).
#include "app/gui_file_dialog.h"
#include "io/scratch_dir.h"

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace attnviz::test {
namespace {

namespace fs = std::filesystem;

// Puts `folder` alone on $PATH for the test's lifetime.
class PathOverride {
public:
    explicit PathOverride(const fs::path& folder) : old_(std::getenv("PATH") ? std::getenv("PATH") : "") { ::setenv("PATH", folder.c_str(), 1); }
    ~PathOverride() { ::setenv("PATH", old_.c_str(), 1); }

private:
    std::string old_;
};

// A `zenity` that records its arguments (one per line) and answers with `answer` and `status`.
void fakeZenity(const fs::path& folder, const std::string& answer, int status) {
    std::ofstream(folder / "answer.txt") << answer << "\n";
    const fs::path script = folder / "zenity";
    std::ofstream(script) << "#!/bin/sh\nPATH=/usr/bin:/bin\ncd '" << folder.string() << "'\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > args.txt\n"
                          << "cat answer.txt\nexit " << status << "\n";
    ::chmod(script.c_str(), 0755);
}

std::vector<std::string> recordedArguments(const fs::path& folder) {
    std::ifstream in(folder / "args.txt");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

}  // namespace

TEST_CASE("zenity's arguments for each kind of question") {
    const auto save = app::zenityArguments({ui::PickKind::SaveFile, "Save the session as", "/tmp/a b/lesson.json"});
    CHECK(save == std::vector<std::string>{"zenity", "--file-selection", "--title=Save the session as", "--save", "--confirm-overwrite",
                                           "--file-filter=Sessions (*.json) | *.json", "--file-filter=All files | *",
                                           "--filename=/tmp/a b/lesson.json"});
    const auto folder = app::zenityArguments({ui::PickKind::Folder, "Load weights", "/w/"});
    CHECK(folder == std::vector<std::string>{"zenity", "--file-selection", "--title=Load weights", "--directory", "--filename=/w/"});
}

TEST_CASE("the chooser runs zenity without a shell and answers with the path it printed") {
    const ScratchDir dir("zenity");
    fakeZenity(dir.path(), "/home/teacher/it's a \"lesson\".json", 0);
    const PathOverride path(dir.path());
    const ui::FilePicker pick = app::makeFilePicker();
    REQUIRE(pick);
    auto answer = pick({ui::PickKind::OpenFile, "Open a session", "/tmp/$(touch x)/"});
    REQUIRE(answer.valid());
    CHECK(answer.get() == fs::path("/home/teacher/it's a \"lesson\".json"));
    const std::vector<std::string> args = recordedArguments(dir.path());
    REQUIRE(args.size() == 5);  // argv[1] … argv[5]
    CHECK(args[1] == "--title=Open a session");
    CHECK(args[4] == "--filename=/tmp/$(touch x)/");  // one argument, never run
}

TEST_CASE("cancelling the chooser answers nothing — without zenity there is no hook") {
    const ScratchDir dir("zenity-cancel");
    fakeZenity(dir.path(), "", 1);
    {
        const PathOverride path(dir.path());
        const ui::FilePicker pick = app::makeFilePicker();
        REQUIRE(pick);
        CHECK_FALSE(pick({ui::PickKind::SaveFile, "Save", {}}).get());
    }
    const ScratchDir empty("no-zenity");
    const PathOverride path(empty.path());
    CHECK_FALSE(app::makeFilePicker());
}

}  // namespace attnviz::test
