// test_kill_atomic.cpp — nothing lost (issue 8): `attnviz export` and `attnviz dump` are SIGKILLed at 40 random
// moments each (12 under the sanitizers; fixed seed) while they replace a complete earlier file set, and after every kill each file under
// a final name must be byte for byte the complete old or the complete new version (a .npy must also load with
// io::readNpy). Only files under io::writeFileAtomically's temporary naming scheme may be left over.
//
// Old version: seed 42; new version: seed 7, same files. Both are written once, completely, to take their bytes;
// before each killed run the folder gets the old version back (temporary leftovers stay, so they add up and the
// test reports how many killed writers left).
// Known gap: nothing removes a killed writer's ".<name>.tmp-<hex>" files later; they are harmless (hidden, never
// under a final name) but accumulate. Proposed fix in io/atomic_file.cpp: hold flock(LOCK_EX) on the temporary
// file while writing it, and before creating one, unlink the ".<name>.tmp-*" siblings that flock(LOCK_EX |
// LOCK_NB) can lock (their writer has died: the kernel drops its locks). Then tighten this test to "at most one
// temporary file per final name".
// Delays are spread over [0, 1.2 × the median time of a complete run] (narrowed when runs end sooner), so kills
// land before, during and after writing; for export the test also requires that some runs were really interrupted
// with both versions present (mid-write), going on for up to 3 × as many runs until that happened; a dump must never
// leave both (it is swapped in whole).
#include "robustness/kill_harness.h"

#include "io/npy.h"
#include "io/scratch_dir.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using attnviz::test::CampaignReport;
using attnviz::test::FileSet;
using attnviz::test::FolderVerdict;
using attnviz::test::KillCampaign;
using attnviz::test::KillOutcome;

#if defined(ATTNVIZ_SANITIZED)
constexpr int kRuns = 12;
#else
constexpr int kRuns = 40;
#endif

// Writes version `seed` of the file set completely into `dir` (fresh) and returns its bytes.
FileSet completeVersion(std::vector<std::string> command, const fs::path& dir, const char* seed) {
    command.insert(command.end(), {"--seed", seed, "--out", dir.string()});
    attnviz::test::timeCompleteRun(command);
    return attnviz::test::readFileSet(dir);
}

std::string loadsAsNpy(const fs::path& path) {
    if (path.extension() != ".npy") return {};
    try {
        attnviz::io::readNpy(path);
        return {};
    } catch (const std::exception& error) {
        return std::string("readNpy refused it: ") + error.what();
    }
}

// Whether a kill may leave old and new files side by side: export replaces figure after figure (each one atomic);
// a dump is written into a new folder and swapped in whole (io/dump.h), so it never may.
enum class Mixing { PerFile, Never };

struct CampaignSummary {
    CampaignReport report;
    int mixedFolders = 0;    // kills that left some old and some new files: the kill landed mid-set
    int temporaryFiles = 0;  // leftovers under the temporary naming scheme at the end
};

// Kills `command --seed 7 --out <dir> --force` over the old (seed 42) file set kRuns times.
// `folderCheck` adds what a command promises beyond "each file complete" (see the dump test).
CampaignSummary killWhileReplacing(const std::vector<std::string>& command, const std::string& label, Mixing mixing,
                                   const attnviz::test::FolderCheckOptions& options = {},
                                   const std::function<std::string(const FolderVerdict&)>& folderCheck = {}) {
    attnviz::test::ScratchDir scratch(label);
    fs::create_directories(scratch / "old");
    fs::create_directories(scratch / "new");
    fs::create_directories(scratch / "work");
    const FileSet oldVersion = completeVersion(command, scratch / "old", "42");
    const FileSet newVersion = completeVersion(command, scratch / "new", "7");
    REQUIRE(oldVersion.size() == newVersion.size());
    REQUIRE(oldVersion != newVersion);

    std::vector<std::string> replace = command;
    replace.insert(replace.end(), {"--seed", "7", "--out", (scratch / "work").string(), "--force"});
    // The median of 3 complete runs sets the delay range (one run alone may hit a burst of load elsewhere).
    std::vector<std::chrono::microseconds> completeRuns;
    for (int run = 0; run < 3; ++run) {
        attnviz::test::restoreFileSet(scratch / "work", oldVersion);
        completeRuns.push_back(attnviz::test::timeCompleteRun(replace));
    }
    std::sort(completeRuns.begin(), completeRuns.end());
    const std::chrono::microseconds complete = completeRuns[1];

    CampaignSummary summary;
    KillCampaign campaign;
    campaign.command = replace;
    campaign.runs = kRuns;
    campaign.seed = 20240601;
    campaign.longestDelay = complete * 6 / 5;
    campaign.before = [&](int) { attnviz::test::restoreFileSet(scratch / "work", oldVersion); };
    campaign.check = [&](const KillOutcome&) {
        const FolderVerdict verdict = attnviz::test::checkFolderAgainstVersions(scratch / "work", oldVersion, newVersion, options);
        if (verdict.mixed()) ++summary.mixedFolders;
        summary.temporaryFiles = verdict.temporaryFiles;
        std::string problems;
        for (const std::string& problem : verdict.problems) problems += (problems.empty() ? "" : "; ") + problem;
        const std::string folderProblem = folderCheck ? folderCheck(verdict) : std::string();
        if (!folderProblem.empty()) problems += (problems.empty() ? "" : "; ") + folderProblem;
        return problems;
    };
    // Kills mid-way through the file set are what the test is about, and the window for them is narrow: a short
    // campaign goes on (at most 3 × kRuns runs) until it has had some.
    campaign.sawEnough = [&](const CampaignReport& report) {
        return report.killed >= kRuns / 4 && (mixing == Mixing::Never || summary.mixedFolders > 0);
    };
    campaign.mostRuns = 3 * kRuns;
    summary.report = attnviz::test::runKillCampaign(campaign);
    MESSAGE(label << ": " << summary.report.runs << " runs (complete run " << complete.count() / 1000 << " ms), "
                  << summary.report.killed << " killed, " << summary.report.finished << " finished before their kill, "
                  << summary.mixedFolders << " left old and new files side by side, " << summary.temporaryFiles
                  << " temporary files left over at the end");
    for (const std::string& failure : summary.report.failures) FAIL_CHECK(failure);
    return summary;
}

std::vector<std::string> attnvizCommand(std::initializer_list<std::string> arguments) {
    std::vector<std::string> command{ATTNVIZ_BINARY};
    command.insert(command.end(), arguments);
    return command;
}

}  // namespace

TEST_CASE("export killed at random moments: every figure is the complete old or new PNG") {
    const CampaignSummary summary = killWhileReplacing(attnvizCommand({"export", "--stage", "all"}), "kill-export", Mixing::PerFile);
    CHECK(summary.report.failures.empty());
    CHECK(summary.report.killed >= kRuns / 4);  // many kills must land while the command runs
    CHECK(summary.mixedFolders > 0);            // and some in the middle of the file set
}

// dump.h promises more: a forced dump is written beside the folder and swapped in whole, so after a kill every file
// is of one version, and the manifest (written last) vouches for the files beside it.
std::string manifestVouchesForFolder(const FolderVerdict& verdict) {
    const auto manifest = verdict.versionOf.find("manifest.json");
    if (manifest == verdict.versionOf.end()) return {};
    for (const auto& [name, version] : verdict.versionOf) {
        if (version != manifest->second && version != FolderVerdict::kEitherVersion) {
            return "manifest.json is the " + std::string(manifest->second == 1 ? "new" : "old") + " one but " + name + " is not";
        }
    }
    return {};
}

TEST_CASE("dump killed at random moments: the folder is the whole old dump or the whole new one") {
    std::string sentence;
    for (int i = 0; i < 400; ++i) sentence.append("w").append(std::to_string(i % 41)).append(" ");
    attnviz::test::FolderCheckOptions options;
    options.mayBeMissing = {"manifest.json"};
    options.extraCheck = loadsAsNpy;
    const CampaignSummary summary = killWhileReplacing(
        attnvizCommand({"dump", "--sentence", sentence, "--token-limit", "512", "--d-model", "256", "--heads", "8"}), "kill-dump",
        Mixing::Never, options, manifestVouchesForFolder);
    CHECK(summary.report.failures.empty());
    CHECK(summary.report.killed >= kRuns / 4);
    CHECK(summary.mixedFolders == 0);
}

TEST_CASE("the kill harness's own checks catch a truncated file and a stray name") {
    attnviz::test::ScratchDir scratch("kill-harness");
    const FileSet oldVersion{{"a.npy", "old a"}, {"b.png", "old b"}};
    const FileSet newVersion{{"a.npy", "new a, longer"}, {"b.png", "new b"}};
    attnviz::test::restoreFileSet(scratch.path(), oldVersion);
    FolderVerdict verdict = attnviz::test::checkFolderAgainstVersions(scratch.path(), oldVersion, newVersion);
    CHECK(verdict.problems.empty());
    CHECK(verdict.filesOfVersion[0] == 2);

    attnviz::test::restoreFileSet(scratch.path(), {{"a.npy", "new a"}, {"b.png", "new b"}, {".a.npy.tmp-0123456789abcdef", "partial"}});
    verdict = attnviz::test::checkFolderAgainstVersions(scratch.path(), oldVersion, newVersion);
    REQUIRE(verdict.problems.size() == 1);  // a.npy is "new a", a truncated "new a, longer"; the temp name is allowed
    CHECK(verdict.problems[0].find("a.npy is neither complete version") == 0);
    CHECK(verdict.temporaryFiles == 1);
    CHECK(verdict.filesOfVersion[1] == 1);

    fs::remove(scratch / "a.npy");
    std::ofstream(scratch / "b.pngx") << "x";
    verdict = attnviz::test::checkFolderAgainstVersions(scratch.path(), oldVersion, newVersion);
    CHECK(verdict.problems.size() == 2);  // a.npy missing (both versions have it) and a stray b.pngx

    CHECK(attnviz::test::isAtomicTemporaryName(".output.npy.tmp-00ff00ff00ff00ff"));
    CHECK_FALSE(attnviz::test::isAtomicTemporaryName("output.npy.tmp-00ff00ff00ff00ff"));
    CHECK_FALSE(attnviz::test::isAtomicTemporaryName(".output.npy.tmp-00ff"));

    const KillOutcome sleeper = attnviz::test::runKilledAfter({"/bin/sleep", "5"}, std::chrono::milliseconds(20));
    CHECK(sleeper.killed);
    const KillOutcome quick = attnviz::test::runKilledAfter({"/bin/true"}, std::chrono::milliseconds(500));
    CHECK_FALSE(quick.killed);
    CHECK(quick.exitCode == 0);
}
