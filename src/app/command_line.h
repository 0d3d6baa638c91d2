// command_line.h — turns argv into a decision: which command to run with which options, or exit now
// (--help, --version, or a parse error with its message). No side effects beyond writing help/errors to the
// given streams, so it can be tested and fuzzed without starting anything.
#pragma once

#include "app/cli_options.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace attnviz::app {

enum class Command { Gui, Dump, Export, Fetch, Exit };

struct CommandLine {
    Command command = Command::Gui;
    int exitCode = 0;  // for Command::Exit
    InputOptions inputs;
    GuiOptions gui;
    DumpOptions dump;
    ExportOptions exportOptions;
    FetchCommandOptions fetch;
};

// args[0] is the program name, as in argv.
CommandLine parseCommandLine(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace attnviz::app
