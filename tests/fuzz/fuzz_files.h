// fuzz_files.h — what the model-folder fuzz targets share: a scratch folder to write the fuzzed bytes into (the
// readers under test take paths), and the rule every message they produce must keep.
#pragma once

#include "core/tokenizer.h"
#include "core/unicode.h"  // findInvalidUtf8

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <unistd.h>

namespace attnviz::fuzz {

// This process's scratch folder (in /dev/shm when there is one: the fuzzer writes a file per input).
inline const std::filesystem::path& scratchFolder() {
    static const std::filesystem::path folder = [] {
        const std::filesystem::path base = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
        std::filesystem::path made = base / ("attnviz-fuzz-" + std::to_string(::getpid()));
        std::filesystem::create_directories(made);
        return made;
    }();
    return folder;
}

// Writes the bytes as `name` in the scratch folder and returns its path.
inline std::filesystem::path writeScratchFile(const char* name, const std::uint8_t* data, std::size_t size) {
    const std::filesystem::path path = scratchFolder() / name;
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return path;
}

// A message shown as is: valid UTF-8, no control character (a file's ESC or BEL must arrive escaped).
inline void requireCleanMessage(std::string_view message) {
    if (core::findInvalidUtf8(message) != std::string_view::npos) std::abort();
    for (const char c : message) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) std::abort();
    }
}

}  // namespace attnviz::fuzz
