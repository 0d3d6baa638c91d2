// fuzz_config_json.cpp — libFuzzer entry point for a model folder's config.json (io::readTransformerConfig).
//
// Any bytes, written as config.json in a scratch folder, must give a config or one io::FileError whose message is
// valid UTF-8 and carries no control character (file content is echoed only through core::echoed); nothing may
// crash, recurse without bound or allocate without bound. A returned config must be usable: positive sizes, heads
// dividing the width. Otherwise the entry point aborts so the fuzzer reports the input.
// Seeds: tests/fuzz/corpus/config_json/.
#include "fuzz_files.h"

#include "io/checkpoint.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::filesystem::path file = attnviz::fuzz::writeScratchFile("config.json", data, size);
    try {
        const attnviz::core::TransformerConfig config = attnviz::io::readTransformerConfig(file);
        if (config.layers < 1 || config.dModel < 1 || config.heads < 1 || config.dModel % config.heads != 0 || config.vocabSize < 1) std::abort();
    } catch (const attnviz::io::FileError& error) {
        attnviz::fuzz::requireCleanMessage(error.what());
    }
    return 0;
}
