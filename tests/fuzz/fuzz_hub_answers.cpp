// fuzz_hub_answers.cpp — libFuzzer entry point for what a Hugging Face Hub server answers in JSON: the model-info
// answer (io::parseRevisionListing: the commit and the file list) and model.safetensors.index.json
// (io::shardsOfIndex). The first byte chooses which; the rest is the server's body.
//
// Any bytes must give checked values — a 40-hex commit, safe relative file names, plain *.safetensors shard
// names — or one io::FileError whose message is valid UTF-8 without control characters. Otherwise the entry point
// aborts so the fuzzer reports the input. Seeds: tests/fuzz/corpus/hub_answers/.
#include "fuzz_files.h"

#include "io/hub_answers.h"
#include "io/hub_cache.h"

#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        if (data[0] % 2 == 0) {
            const attnviz::io::RevisionListing listing = attnviz::io::parseRevisionListing(body, "the Hub's answer");
            if (!attnviz::io::isCommitHash(listing.commit)) std::abort();
            for (const attnviz::io::HubFile& file : listing.files) {
                if (!attnviz::io::isSafeRepoFileName(file.name)) std::abort();
            }
        } else {
            for (const std::string& shard : attnviz::io::shardsOfIndex(body, "model.safetensors.index.json")) {
                if (!attnviz::io::isSafeRepoFileName(shard) || shard.find('/') != std::string::npos) std::abort();
            }
        }
    } catch (const attnviz::io::FileError& error) {
        attnviz::fuzz::requireCleanMessage(error.what());
    }
    return 0;
}
