// fuzz_vocabulary.cpp — libFuzzer entry point for the vocabulary parser (io::parseVocabulary).
//
// Any bytes must give an index or an io::FileError, the one error weight_files.h documents. An index must map
// its n tokens to the rows 0 … n − 1, each once, and an error message must be valid UTF-8; otherwise the entry
// point aborts so the fuzzer reports the input. Every other exception escapes on purpose.
// Seeds: tests/fuzz/corpus/vocabulary/. What this file deliberately does not do: read embedding tables (.npy has
// a fuzzer of its own).
#include "core/unicode.h"
#include "io/weight_files.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const attnviz::io::VocabularyIndex index = attnviz::io::parseVocabulary(text, "fuzz.txt");
        std::vector<bool> seen(index.size(), false);
        for (const auto& [token, row] : index) {
            if (token.empty() || row < 0 || static_cast<std::size_t>(row) >= seen.size() || seen[static_cast<std::size_t>(row)]) std::abort();
            seen[static_cast<std::size_t>(row)] = true;
        }
    } catch (const attnviz::io::FileError& error) {
        // A refused file, the documented outcome; its message is shown as is, so it must be valid UTF-8.
        if (attnviz::core::findInvalidUtf8(error.what()) != std::string_view::npos) std::abort();
    }
    return 0;
}
