// fuzz_command_line.cpp — libFuzzer entry point: the bytes, split at NUL, as argv. Parsing and turning the
// options into a ModelSpec must end in a decision or an InputError; nothing is run.
#include "app/command_line.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> args{"attnviz"};
    std::string current;
    for (std::size_t i = 0; i < size; ++i) {
        if (data[i] == 0) {
            args.push_back(std::move(current));
            current.clear();
        } else {
            current += static_cast<char>(data[i]);
        }
    }
    if (!current.empty()) args.push_back(current);
    std::ostringstream out, err;
    using namespace attnviz;
    const app::CommandLine line = app::parseCommandLine(args, out, err);
    if (line.command == app::Command::Exit) return 0;
    try {
        (void)app::toModelSpec(line.inputs);
    } catch (const core::InputError&) {
    }
    return 0;
}
