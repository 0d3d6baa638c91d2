// fuzz_heads_json.cpp — libFuzzer entry point for a model folder's heads.json (io::parseNamedHeads).
//
// Any bytes must give named heads inside the model (3 layers × 4 heads here) or one io::FileError whose message is
// valid UTF-8 without control characters; a head's name is at most 80 characters (core::echoed) plus "…".
// Otherwise the entry point aborts so the fuzzer reports the input. Seeds: tests/fuzz/corpus/heads_json/.
#include "fuzz_files.h"

#include "io/model_folder.h"

#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    attnviz::core::TransformerConfig config;
    config.layers = 3;
    config.heads = 4;
    try {
        for (const attnviz::core::NamedHead& head :
             attnviz::io::parseNamedHeads(std::string_view(reinterpret_cast<const char*>(data), size), config, "heads.json")) {
            if (head.layer < 0 || head.layer >= 3 || head.head < 0 || head.head >= 4 || head.name.size() > 4 * 80 + 3) std::abort();
            attnviz::fuzz::requireCleanMessage(head.name);
        }
    } catch (const attnviz::io::FileError& error) {
        attnviz::fuzz::requireCleanMessage(error.what());
    }
    return 0;
}
