// kill_harness.h — "nothing lost" tests: start a command as a child process, SIGKILL it at random moments,
// and check after every kill that the files it was replacing are each a complete old or a complete new version.
//
// Generic on purpose: a campaign is a command, a seeded list of delays, an optional `before` step (restore the
// previous version) and a `check` predicate; the directory helpers compare a folder with known-good versions
// of its files byte for byte and recognise the temporary names io::writeFileAtomically uses. Export, dump and
// session save all write through writeFileAtomically, so all three are tested the same way.
// What this file deliberately does not do: know about attnviz's commands or file formats (the tests do), or
// clean up temporary files a killed writer left (they are reported, so a test can say how many there are).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace attnviz::test {

// [SECTION] Running and killing a child process

struct KillOutcome {
    std::chrono::microseconds delay{0};  // how long after the start the kill was due
    bool killed = false;                 // false: the command ended on its own before the kill was due
    int exitCode = 0;                    // the command's exit code when it ended on its own
};

// Starts `command` (command[0] is the program's path; stdin, stdout and stderr go to /dev/null), SIGKILLs it
// `delay` after the start unless it ended first, and reaps it. Throws std::runtime_error if it cannot start.
KillOutcome runKilledAfter(const std::vector<std::string>& command, std::chrono::microseconds delay);

// Runs `command` to completion and returns its wall time; throws std::runtime_error unless it exits with 0.
std::chrono::microseconds timeCompleteRun(const std::vector<std::string>& command);

struct CampaignReport {
    int runs = 0;
    int killed = 0;    // runs the kill interrupted
    int finished = 0;  // runs that ended before their kill was due
    std::vector<std::string> failures;  // "run 7 (killed after 41.2 ms): <what check said>"
};

struct KillCampaign {
    std::vector<std::string> command;
    int runs = 40;
    std::uint64_t seed = 1;
    // Delays are drawn uniformly from [0, longestDelay]. A run that ends before its kill was due shows the command
    // takes less than that delay: the range then shrinks to 1.2 × that delay (the time measured beforehand may have
    // met a burst of load elsewhere, and kills after the end teach nothing).
    std::chrono::microseconds longestDelay{0};
    std::function<void(int run)> before;  // optional: put the previous version back before each run
    // After each run: "" when everything is as it must be, else a sentence saying what is wrong.
    std::function<std::string(const KillOutcome&)> check;
    // Optional: after `runs` runs, go on (up to `mostRuns` in all) until this says the campaign saw enough — kills
    // that land in a narrow window (mid-way through a file set) are rare in a short campaign.
    std::function<bool(const CampaignReport&)> sawEnough;
    int mostRuns = 0;
};

// Runs the campaign: the same seed and the same run lengths give the same delays, in the same order.
CampaignReport runKillCampaign(const KillCampaign& campaign);

// [SECTION] Comparing a folder with known-good versions of its files

using FileSet = std::map<std::string, std::string>;  // file name → complete contents

// Every regular file directly in `dir` whose name is not a temporary name, with its bytes.
FileSet readFileSet(const std::filesystem::path& dir);

// True for the names io::writeFileAtomically gives its temporary files: ".<final name>.tmp-<16 hex digits>".
bool isAtomicTemporaryName(const std::string& name);

struct FolderVerdict {
    std::vector<std::string> problems;  // empty when every file under a final name is complete
    // File name → 0 (the old version's bytes), 1 (the new version's) or kEitherVersion (both versions have
    // these bytes, such as a figure that does not depend on what changed).
    std::map<std::string, int> versionOf;
    static constexpr int kEitherVersion = 2;
    int filesOfVersion[3] = {0, 0, 0};  // how many files are old (0), new (1), either (2)
    int temporaryFiles = 0;             // leftovers under the temporary naming scheme
    bool mixed() const { return filesOfVersion[0] > 0 && filesOfVersion[1] > 0; }
};

struct FolderCheckOptions {
    // Names a writer deliberately removes before replacing the rest (dump's manifest.json: a folder with a
    // manifest is complete), so they may be missing although both versions have them.
    std::vector<std::string> mayBeMissing;
    // Runs on each file under a final name and returns "" or a problem (e.g. "readNpy refused it: …").
    std::function<std::string(const std::filesystem::path&)> extraCheck;
};

// Checks that every file in `dir` is byte for byte the old or the new version of that name, or else a temporary
// file under writeFileAtomically's naming scheme; a name both versions have must not be missing (the old file
// stays until the new one replaces it) unless the options allow it.
FolderVerdict checkFolderAgainstVersions(const std::filesystem::path& dir, const FileSet& oldVersion, const FileSet& newVersion,
                                         const FolderCheckOptions& options = {});

// Replaces every file under a final name in `dir` with `version` (removing final-name files it lacks); leaves
// temporary files where they are, so leftovers accumulate over a campaign and can be counted at the end.
void restoreFileSet(const std::filesystem::path& dir, const FileSet& version);

}  // namespace attnviz::test
