// kill_harness.cpp — see kill_harness.h. POSIX only (posix_spawn, kill, waitpid), like attnviz's Debian target.
#include "robustness/kill_harness.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <regex>
#include <stdexcept>
#include <system_error>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace attnviz::test {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

pid_t spawnQuietly(const std::vector<std::string>& command) {
    if (command.empty()) throw std::runtime_error("runKilledAfter: empty command");
    std::vector<char*> argv;
    for (const std::string& argument : command) argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
        posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0);
    }
    pid_t pid = 0;
    const int error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0) throw std::runtime_error("cannot start " + command[0] + ": " + std::system_category().message(error));
    return pid;
}

int waitFor(pid_t pid, int flags) {
    int status = 0;
    for (;;) {
        const pid_t result = ::waitpid(pid, &status, flags);
        if (result == pid) return status;
        if (result == 0) return -1;  // WNOHANG and still running
        if (errno != EINTR) throw std::runtime_error("waitpid failed: " + std::system_category().message(errno));
    }
}

std::string readWholeFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string milliseconds(std::chrono::microseconds delay) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f ms", static_cast<double>(delay.count()) / 1000.0);
    return text;
}

}  // namespace

KillOutcome runKilledAfter(const std::vector<std::string>& command, std::chrono::microseconds delay) {
    KillOutcome outcome;
    outcome.delay = delay;
    const auto start = Clock::now();
    const pid_t pid = spawnQuietly(command);
    std::this_thread::sleep_until(start + delay);
    int status = waitFor(pid, WNOHANG);
    if (status == -1) {
        ::kill(pid, SIGKILL);
        status = waitFor(pid, 0);
    }
    outcome.killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    outcome.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return outcome;
}

std::chrono::microseconds timeCompleteRun(const std::vector<std::string>& command) {
    const auto start = Clock::now();
    const int status = waitFor(spawnQuietly(command), 0);
    const auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error(command[0] + " did not finish with exit code 0");
    return elapsed;
}

CampaignReport runKillCampaign(const KillCampaign& campaign) {
    CampaignReport report;
    std::mt19937_64 random(campaign.seed);
    std::chrono::microseconds longestDelay = campaign.longestDelay;
    const auto goOn = [&](int run) {
        if (run < campaign.runs) return true;
        return campaign.sawEnough && run < campaign.mostRuns && !campaign.sawEnough(report);
    };
    for (int run = 0; goOn(run); ++run) {
        const std::chrono::microseconds delay(std::uniform_int_distribution<std::int64_t>(0, longestDelay.count())(random));
        if (campaign.before) campaign.before(run);
        const KillOutcome outcome = runKilledAfter(campaign.command, delay);
        ++report.runs;
        ++(outcome.killed ? report.killed : report.finished);
        if (!outcome.killed) longestDelay = std::min(longestDelay, delay * 6 / 5);
        const std::string problem = campaign.check ? campaign.check(outcome) : std::string();
        if (!problem.empty()) {
            report.failures.push_back("run " + std::to_string(run) + (outcome.killed ? " (killed after " : " (finished, due at ") +
                                      milliseconds(delay) + "): " + problem);
        }
    }
    return report;
}

FileSet readFileSet(const fs::path& dir) {
    FileSet files;
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && !isAtomicTemporaryName(name)) files[name] = readWholeFile(entry.path());
    }
    return files;
}

bool isAtomicTemporaryName(const std::string& name) {
    static const std::regex pattern(R"(\..+\.tmp-[0-9a-f]{16})");
    return std::regex_match(name, pattern);
}

FolderVerdict checkFolderAgainstVersions(const fs::path& dir, const FileSet& oldVersion, const FileSet& newVersion,
                                         const FolderCheckOptions& options) {
    FolderVerdict verdict;
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (isAtomicTemporaryName(name)) {
            ++verdict.temporaryFiles;
            continue;
        }
        if (!entry.is_regular_file()) {
            verdict.problems.push_back(name + " is not a regular file");
            continue;
        }
        const auto oldFile = oldVersion.find(name), newFile = newVersion.find(name);
        if (oldFile == oldVersion.end() && newFile == newVersion.end()) {
            verdict.problems.push_back(name + " belongs to neither version (and is not a temporary name)");
            continue;
        }
        const std::string bytes = readWholeFile(entry.path());
        const bool isNew = newFile != newVersion.end() && bytes == newFile->second;
        const bool isOld = oldFile != oldVersion.end() && bytes == oldFile->second;
        if (isNew && isOld) {
            verdict.versionOf[name] = FolderVerdict::kEitherVersion;
        } else if (isNew) {
            verdict.versionOf[name] = 1;
        } else if (isOld) {
            verdict.versionOf[name] = 0;
        } else {
            const std::size_t expected = newFile != newVersion.end() ? newFile->second.size() : oldFile->second.size();
            verdict.problems.push_back(name + " is neither complete version (" + std::to_string(bytes.size()) + " bytes; the " +
                                       (newFile != newVersion.end() ? "new" : "old") + " one has " + std::to_string(expected) + ")");
            continue;
        }
        ++verdict.filesOfVersion[verdict.versionOf[name]];
        if (options.extraCheck) {
            const std::string problem = options.extraCheck(entry.path());
            if (!problem.empty()) verdict.problems.push_back(name + ": " + problem);
        }
    }
    for (const auto& [name, bytes] : oldVersion) {
        const bool mayBeMissing = std::find(options.mayBeMissing.begin(), options.mayBeMissing.end(), name) != options.mayBeMissing.end();
        if (newVersion.count(name) != 0 && !mayBeMissing && !fs::exists(dir / name)) verdict.problems.push_back(name + " is missing");
    }
    return verdict;
}

void restoreFileSet(const fs::path& dir, const FileSet& version) {
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (!isAtomicTemporaryName(name) && version.count(name) == 0) fs::remove(entry.path());
    }
    for (const auto& [name, bytes] : version) {
        std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out) throw std::runtime_error("cannot restore " + (dir / name).string());
    }
}

}  // namespace attnviz::test
