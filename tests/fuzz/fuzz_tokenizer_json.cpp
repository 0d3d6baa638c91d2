// fuzz_tokenizer_json.cpp — libFuzzer entry point: any bytes as a tokenizer.json (up to the first NUL byte) and the
// text after it (a fixed sentence when there is none). Reading must give a tokenizer or one io::FileError; encoding
// must give ids inside the vocabulary with one piece, label and special flag per id, or throw InputError; anything
// else (a crash, a hang, another exception) is a bug.
#include "core/tokenizer.h"  // InputError
#include "core/tokenizers/pipeline.h"
#include "io/tokenizer_json.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

constexpr std::string_view kDefaultText = "Hello  world! It's 2026: café, 猫, 😀 <s>[CLS]<|endoftext|>\n\tend";

void check(const attnviz::core::Encoding& encoding, int vocabularySize) {
    const std::size_t count = encoding.ids.size();
    if (encoding.pieces.size() != count || encoding.labels.size() != count || encoding.special.size() != count) __builtin_trap();
    for (int id : encoding.ids) {
        if (id < 0 || id >= vocabularySize) __builtin_trap();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t nul = input.find('\0');
    const std::string_view json = input.substr(0, nul);
    const std::string_view text = nul == std::string_view::npos ? kDefaultText : input.substr(nul + 1);
    try {
        const attnviz::core::PipelineTokenizer tokenizer(attnviz::io::parseTokenizerJson(json, "tokenizer.json"));
        check(tokenizer.encode(text), tokenizer.vocabularySize());
    } catch (const attnviz::io::FileError&) {
    } catch (const attnviz::core::InputError&) {
    }
    return 0;
}
