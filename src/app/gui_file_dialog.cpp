// gui_file_dialog.cpp — zenity as a child process: spawn, read stdout, wait. See gui_file_dialog.h.
#include "app/gui_file_dialog.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <future>
#include <sstream>

extern char** environ;

namespace attnviz::app {
namespace fs = std::filesystem;

namespace {

std::optional<fs::path> findOnPath(const std::string& program) {
    const char* path = std::getenv("PATH");
    if (path == nullptr) return std::nullopt;
    std::stringstream folders(path);
    for (std::string folder; std::getline(folders, folder, ':');) {
        if (folder.empty()) continue;
        const fs::path candidate = fs::path(folder) / program;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return std::nullopt;
}

struct Child {
    pid_t pid = -1;
    int output = -1;  // the read end of its stdout
};

// Starts `arguments` (argv[0] looked up on $PATH) with stdout into a pipe; nullopt when it cannot start.
std::optional<Child> spawn(const std::vector<std::string>& arguments) {
    int pipeEnds[2];
    if (::pipe2(pipeEnds, O_CLOEXEC) != 0) return std::nullopt;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO);
    std::vector<char*> argv;
    for (const std::string& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int error = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipeEnds[1]);
    if (error != 0) {
        ::close(pipeEnds[0]);
        return std::nullopt;
    }
    return Child{pid, pipeEnds[0]};
}

// Reads the child's stdout to the end and waits for it: the chosen path when it exited 0 and printed one.
std::optional<fs::path> answerOf(Child child) {
    std::string out;
    char buffer[4096];
    for (;;) {
        const ssize_t got = ::read(child.output, buffer, sizeof buffer);
        if (got > 0) out.append(buffer, static_cast<std::size_t>(got));
        else if (got == 0 || errno != EINTR) break;
    }
    ::close(child.output);
    int status = 0;
    while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || out.empty()) return std::nullopt;  // 1: cancelled
    return fs::path(out);
}

}  // namespace

std::vector<std::string> zenityArguments(const ui::PickRequest& request) {
    std::vector<std::string> arguments{"zenity", "--file-selection", "--title=" + request.title};
    switch (request.kind) {
        case ui::PickKind::OpenFile: break;
        case ui::PickKind::SaveFile: arguments.insert(arguments.end(), {"--save", "--confirm-overwrite"}); break;
        case ui::PickKind::Folder: arguments.emplace_back("--directory"); break;
    }
    if (request.kind != ui::PickKind::Folder) {
        arguments.insert(arguments.end(), {"--file-filter=Sessions (*.json) | *.json", "--file-filter=All files | *"});
    }
    if (!request.suggested.empty()) arguments.push_back("--filename=" + request.suggested.string());
    return arguments;
}

ui::FilePicker makeFilePicker() {
    if (!findOnPath("zenity")) return {};
    return [](const ui::PickRequest& request) -> std::future<std::optional<fs::path>> {
        const std::optional<Child> child = spawn(zenityArguments(request));
        if (!child) return {};
        return std::async(std::launch::async, answerOf, *child);
    };
}

}  // namespace attnviz::app
