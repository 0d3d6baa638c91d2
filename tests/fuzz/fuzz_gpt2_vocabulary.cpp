// fuzz_gpt2_vocabulary.cpp — libFuzzer entry point for GPT-2's tokenizer files (vocab.json + merges.txt through
// io::loadTokenizer). The input's bytes up to the first NUL are vocab.json, the rest merges.txt.
//
// Must give a tokenizer (which then encodes a sentence without crashing) or one io::FileError whose message is valid
// UTF-8 without control characters. Otherwise the entry point aborts so the fuzzer reports the input.
// Seeds: tests/fuzz/corpus/gpt2_vocabulary/.
#include "fuzz_files.h"

#include "core/tokenizer.h"
#include "io/tokenizer_files.h"

#include <algorithm>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::uint8_t* split = std::find(data, data + size, std::uint8_t{0});
    const std::filesystem::path folder = attnviz::fuzz::writeScratchFile("vocab.json", data, static_cast<std::size_t>(split - data)).parent_path();
    const std::size_t rest = split == data + size ? 0 : static_cast<std::size_t>(data + size - split - 1);
    attnviz::fuzz::writeScratchFile("merges.txt", split == data + size ? data : split + 1, rest);
    try {
        const auto tokenizer = attnviz::io::loadTokenizer(folder, attnviz::core::ModelFamily::Gpt2);
        tokenizer->encode("The cat sat on the mat, didn't it?");
    } catch (const attnviz::io::FileError& error) {
        attnviz::fuzz::requireCleanMessage(error.what());
    } catch (const attnviz::core::InputError& error) {
        attnviz::fuzz::requireCleanMessage(error.what());  // a piece the sentence needs and the vocabulary lacks
    }
    return 0;
}
