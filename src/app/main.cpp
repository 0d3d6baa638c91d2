// main.cpp — the attnviz binary: the desktop app by default, `dump` and `export` as headless subcommands.
//
//   attnviz [--sentence S --heads N …] [--screenshot FILE --stage N --head I --size WxH] [--quit-after-frames N]
//   attnviz dump   [input options] --out DIR [--force]
//   attnviz export [input options] --stage all|N|NAME [--matrix M] [--head I] [--kind K] --out DIR …
//   attnviz fetch  REPO_ID[@REV] [--revision R] | --list
// Every error a user can cause ends in one line on stderr and a non-zero exit code, never a crash.
#include "app/command_line.h"
#include "io/atomic_file.h"
#include "io/memory_budget.h"

#include <iostream>
#include <new>

int main(int argc, char** argv) {
    using namespace attnviz;
    const app::CommandLine line = app::parseCommandLine(std::vector<std::string>(argv, argv + argc), std::cout, std::cerr);
    if (line.command == app::Command::Exit) return line.exitCode;
    if (line.command == app::Command::Fetch) return app::runFetch(line.fetch);

    const char* name = line.command == app::Command::Dump ? "attnviz dump"
                     : line.command == app::Command::Export ? "attnviz export" : "attnviz";
    try {
        app::InputOptions inputs = line.inputs;
        app::GuiOptions gui = line.gui;
        if (line.command == app::Command::Gui) app::fetchInWindow(inputs, gui);
        const core::ModelSpec spec = app::toModelSpec(inputs);
        if (const std::string note = app::resplitNote(spec); !note.empty() && line.command != app::Command::Gui) {
            std::cerr << name << ": " << note << '\n';  // the app says the same in its banner
        }
        switch (line.command) {
            case app::Command::Dump: {
                app::DumpOptions dump = line.dump;
                dump.inputs = app::inputPaths(inputs, spec);
                return app::runDump(spec, dump);
            }
            case app::Command::Export: return app::runExport(spec, line.exportOptions);
            default: return app::runGui(spec, gui);
        }
    } catch (const core::InputError& error) {
        std::cerr << name << ": " << error.what() << '\n';
    } catch (const io::FileError& error) {
        std::cerr << name << ": " << error.what() << '\n';
    } catch (const std::bad_alloc&) {
        std::cerr << name << ": " << io::outOfMemoryMessage() << '\n';
    } catch (const std::exception& error) {
        std::cerr << name << ": unexpected error: " << error.what() << '\n';
    }
    return app::kExitRunError;
}
