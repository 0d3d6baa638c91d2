// hub_test_server.h — starts tests/reference/hub_server.py (a loopback Hugging Face Hub on 127.0.0.1) for one
// test, points HF_ENDPOINT and HF_HUB_CACHE at it and a scratch cache, and stops it when the test ends (or dies).
// Test-only: fork/exec of Debian's /usr/bin/python3, the port read from the script's first line of stdout.
#pragma once

#include <nlohmann/json.hpp>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace attnviz::test {

inline const std::filesystem::path kHubServerScript = std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/hub_server.py";

// Sets an environment variable for the test's lifetime (unset: nullopt), then puts the old value back.
class ScopedEnvironment {
public:
    ScopedEnvironment(const char* name, std::optional<std::string> value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value) ::setenv(name, value->c_str(), 1);
        else ::unsetenv(name);
    }
    ~ScopedEnvironment() {
        if (old_) ::setenv(name_, old_->c_str(), 1);
        else ::unsetenv(name_);
    }
    ScopedEnvironment(const ScopedEnvironment&) = delete;
    ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

private:
    const char* name_;
    std::optional<std::string> old_;
};

// Runs hub_server.py with `arguments` (mode first) to completion: write-cache.
inline void runHubScript(const std::vector<std::string>& arguments) {
    std::string command = "/usr/bin/python3 '" + kHubServerScript.string() + "'";
    for (const std::string& argument : arguments) command += " '" + argument + "'";
    if (std::system(command.c_str()) != 0) throw std::runtime_error("failed: " + command);
}

class HubTestServer {
public:
    // `arguments`: --repo ID=FOLDER … and fault options (hub_server.py's docstring). `stats` records requests.
    HubTestServer(std::vector<std::string> arguments, const std::filesystem::path& stats) : stats_(stats) {
        int output[2];
        if (::pipe(output) != 0) throw std::runtime_error("pipe failed");
        arguments.insert(arguments.begin(), {"/usr/bin/python3", kHubServerScript.string(), "serve", "--stats", stats.string()});
        const pid_t testProcess = ::getpid();
        pid_ = ::fork();
        if (pid_ == 0) {
            // A test that crashes never runs the destructor: the server goes with the test's process instead of
            // staying behind on its port (seen after crashed GUI test runs).
            ::prctl(PR_SET_PDEATHSIG, SIGTERM);
            if (::getppid() != testProcess) ::_exit(0);
            ::dup2(output[1], STDOUT_FILENO);
            ::close(output[0]);
            ::close(output[1]);
            std::vector<char*> argv;
            for (std::string& argument : arguments) argv.push_back(argument.data());
            argv.push_back(nullptr);
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
        ::close(output[1]);
        std::string line;
        char c = 0;
        while (::read(output[0], &c, 1) == 1 && c != '\n') line += c;
        ::close(output[0]);
        port_ = std::atoi(line.c_str());
        if (port_ <= 0) {
            stop();
            throw std::runtime_error("hub_server.py did not start (said \"" + line + "\")");
        }
    }
    ~HubTestServer() { stop(); }
    HubTestServer(const HubTestServer&) = delete;
    HubTestServer& operator=(const HubTestServer&) = delete;

    std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }

    // What the server recorded: {"requests", "ranges", "paths", "cdn_authorization"}; zero requests before any.
    nlohmann::json stats() const {
        std::ifstream in(stats_);
        if (!in) return {{"requests", 0}, {"ranges", nlohmann::json::array()}, {"paths", nlohmann::json::array()}, {"cdn_authorization", 0}};
        std::stringstream text;
        text << in.rdbuf();
        return nlohmann::json::parse(text.str());
    }
    int requests() const { return stats()["requests"].get<int>(); }

private:
    void stop() {
        if (pid_ > 0) {
            ::kill(pid_, SIGTERM);
            ::waitpid(pid_, nullptr, 0);
            pid_ = -1;
        }
    }

    std::filesystem::path stats_;
    pid_t pid_ = -1;
    int port_ = 0;
};

}  // namespace attnviz::test
