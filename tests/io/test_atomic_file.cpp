// test_atomic_file.cpp — io::writeFileAtomically: the new content appears whole, and every failure keeps the
// old file, leaves no temporary file behind, and throws FileError naming the path and the OS reason.
// Not tested here: durability across a power cut (the fsyncs), which needs a machine to crash.
#include "io/atomic_file.h"

#include "io/scratch_dir.h"

#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using attnviz::io::FileError;
using attnviz::io::writeFileAtomically;
using Names = std::vector<std::string>;

std::string contentOf(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

// "'path'", as FileError messages quote paths (appended: GCC 12's -Wrestrict misfires on "'" + s + "'").
std::string inQuotes(const fs::path& path) {
    std::string text(1, '\'');
    text.append(path.string());
    text.push_back('\'');
    return text;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The message of the FileError `write` throws; fails the test when it throws nothing.
std::string fileErrorOf(const std::function<void()>& write) {
    try {
        write();
    } catch (const FileError& error) {
        return error.what();
    }
    FAIL("expected a FileError, got none");
    return {};
}

}  // namespace

TEST_CASE("atomic: writeFileAtomically writes the bytes and leaves only the target") {
    attnviz::test::ScratchDir dir("atomic");
    const std::string bytes("binary\0data\n", 12);
    writeFileAtomically(dir / "out.bin", bytes);
    CHECK(contentOf(dir / "out.bin") == bytes);
    CHECK(dir.entries() == Names{"out.bin"});
}

TEST_CASE("atomic: writeFileAtomically replaces an existing file, including with nothing") {
    attnviz::test::ScratchDir dir("atomic");
    writeFileAtomically(dir / "out.txt", "old content that is longer");
    writeFileAtomically(dir / "out.txt", "new");
    CHECK(contentOf(dir / "out.txt") == "new");
    writeFileAtomically(dir / "out.txt", "");
    CHECK(fs::file_size(dir / "out.txt") == 0);
    CHECK(dir.entries() == Names{"out.txt"});
}

TEST_CASE("atomic: the FILE* overload writes what the callback writes") {
    attnviz::test::ScratchDir dir("atomic");
    writeFileAtomically(dir / "numbers.txt", [](std::FILE* file) {
        for (int i = 0; i < 3; ++i) std::fprintf(file, "%d\n", i);
    });
    CHECK(contentOf(dir / "numbers.txt") == "0\n1\n2\n");
    CHECK(dir.entries() == Names{"numbers.txt"});
}

TEST_CASE("atomic: a callback that throws keeps the old file, removes the temporary and lets its exception through") {
    attnviz::test::ScratchDir dir("atomic");
    writeFileAtomically(dir / "keep.txt", "old");
    struct Interrupted {};
    CHECK_THROWS_AS(writeFileAtomically(dir / "keep.txt",
                                        [](std::FILE* file) {
                                            std::fputs("half of the new", file);
                                            throw Interrupted{};
                                        }),
                    Interrupted);
    CHECK(contentOf(dir / "keep.txt") == "old");
    CHECK(dir.entries() == Names{"keep.txt"});
}

TEST_CASE("atomic: a stream error during the callback is a FileError, and the old file stays") {
    attnviz::test::ScratchDir dir("atomic");
    writeFileAtomically(dir / "keep.txt", "old");
    // Reading from a write-only stream sets its error indicator, as a failed write would.
    const std::string message = fileErrorOf([&] {
        writeFileAtomically(dir / "keep.txt", [](std::FILE* file) {
            std::fputs("new", file);
            std::fgetc(file);
        });
    });
    CHECK(contains(message, (dir / "keep.txt").string()));
    CHECK(contentOf(dir / "keep.txt") == "old");
    CHECK(dir.entries() == Names{"keep.txt"});
}

TEST_CASE("atomic: a failed rename (the target is a directory) removes the temporary and names the reason") {
    attnviz::test::ScratchDir dir("atomic");
    fs::create_directory(dir / "target");
    const std::string message = fileErrorOf([&] { writeFileAtomically(dir / "target", "bytes"); });
    CHECK(contains(message, inQuotes(dir / "target")));
    CHECK(contains(message, "Is a directory"));
    CHECK(fs::is_directory(dir / "target"));
    CHECK(dir.entries() == Names{"target"});
}

TEST_CASE("atomic: a missing directory is a FileError with the OS reason") {
    attnviz::test::ScratchDir dir("atomic");
    const fs::path path = dir / "missing" / "out.npy";
    const std::string message = fileErrorOf([&] { writeFileAtomically(path, "bytes"); });
    CHECK(contains(message, inQuotes(path)));
    CHECK(contains(message, "No such file or directory"));
    CHECK(dir.entries().empty());
}

TEST_CASE("atomic: a path naming a directory (trailing slash) is refused") {
    attnviz::test::ScratchDir dir("atomic");
    const std::string message = fileErrorOf([&] { writeFileAtomically(dir.path() / "", "bytes"); });
    CHECK(contains(message, "names a directory"));
    CHECK(dir.entries().empty());
}

TEST_CASE("atomic: an unwritable directory keeps the old file and leaves no temporary") {
    attnviz::test::ScratchDir dir("atomic");
    writeFileAtomically(dir / "keep.txt", "old");
    if (::geteuid() == 0) {
        // Root ignores directory permissions; the rename and stream-error cases above cover root.
        MESSAGE("running as root: directory permissions cannot make the write fail, so this case only checks the setup");
        CHECK(contentOf(dir / "keep.txt") == "old");
        return;
    }
    fs::permissions(dir.path(), fs::perms::owner_read | fs::perms::owner_exec);
    const std::string message = fileErrorOf([&] { writeFileAtomically(dir / "keep.txt", "new"); });
    fs::permissions(dir.path(), fs::perms::owner_all);
    CHECK(contains(message, "Permission denied"));
    CHECK(contentOf(dir / "keep.txt") == "old");
    CHECK(dir.entries() == Names{"keep.txt"});
}

TEST_CASE("atomic: a killed writer's old, unlocked temporary is swept by the next write — live or fresh ones are not") {
    attnviz::test::ScratchDir scratch("atomic");
    const fs::path target = scratch / "figure.png";
    const auto temporary = [&](const char* hex) { return scratch / (std::string(".figure.png.tmp-") + hex); };
    const fs::path stale = temporary("00000000000000aa"), fresh = temporary("00000000000000bb"), held = temporary("00000000000000cc");
    const fs::path otherFiles = scratch / ".other.png.tmp-00000000000000dd";
    for (const fs::path& path : {stale, fresh, held, otherFiles}) writeFileAtomically(path, "half a figure");
    const auto aMinuteAgo = fs::file_time_type::clock::now() - std::chrono::minutes(1);
    for (const fs::path& path : {stale, held, otherFiles}) fs::last_write_time(path, aMinuteAgo);
    const int holder = ::open(held.c_str(), O_RDONLY);  // a live writer of the same file holds its lock
    REQUIRE(holder >= 0);
    REQUIRE(::flock(holder, LOCK_EX) == 0);

    writeFileAtomically(target, "the whole figure");
    CHECK(contentOf(target) == "the whole figure");
    CHECK_FALSE(fs::exists(stale));
    CHECK(fs::exists(fresh));       // could be a writer between open() and flock()
    CHECK(fs::exists(held));        // locked: its writer is alive
    CHECK(fs::exists(otherFiles));  // another file's temporary is that write's business
    ::close(holder);
}
