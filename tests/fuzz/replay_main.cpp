// replay_main.cpp — runs one fuzz target's entry point over every file of its corpus directories, with no
// fuzzing engine: this is how ctest (GCC, and the ASan preset) keeps every committed corpus input passing.
// Usage: fuzz_replay TARGET DIR [DIR…]   (TARGET is a fuzz_<TARGET>.cpp name, e.g. "npy")
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "replay_targets.h"

namespace {

const ReplayTarget* findTarget(const char* name) {
    for (const ReplayTarget& target : replayTargets()) {
        if (std::strcmp(target.name, name) == 0) return &target;
    }
    return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
    const ReplayTarget* target = argc >= 3 ? findTarget(argv[1]) : nullptr;
    if (target == nullptr) {
        std::fprintf(stderr, "usage: fuzz_replay TARGET DIR [DIR…]; targets:");
        for (const ReplayTarget& known : replayTargets()) std::fprintf(stderr, " %s", known.name);
        std::fprintf(stderr, "\n");
        return 2;
    }
    int replayed = 0;
    for (int a = 2; a < argc; ++a) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(argv[a])) {
            if (!entry.is_regular_file()) continue;
            std::ifstream file(entry.path(), std::ios::binary);
            const std::vector<char> bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
            target->testOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
            ++replayed;
        }
    }
    std::printf("replayed %d inputs of %s\n", replayed, target->name);
    return replayed > 0 ? 0 : 1;  // an empty corpus means the test is not testing anything
}
