// fuzz_tokenizer_json.cpp — libFuzzer entry point: any bytes as a tokenizer.json (up to the first NUL byte) and the
// text after it (a fixed sentence when there is none). Reading must give a tokenizer or one io::FileError; encoding
// must give ids inside the vocabulary with one piece, label and special flag per id, or throw InputError; anything
// else (a crash, a hang, another exception) is a bug. Every error message must be short, valid UTF-8 and free of
// control characters (C0, DEL, C1, bidi overrides and isolates): it quotes the file. Run it with a time and memory
// budget per input (-timeout=10 -rss_limit_mb=2048, docs/robustness.md): a normalizer or pattern that takes longer
// or more is a finding, since core/limits.h bounds both.
#include "core/tokenizer.h"  // InputError
#include "core/tokenizers/pipeline.h"
#include "core/unicode.h"  // findInvalidUtf8
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

// A message as it reaches the terminal: at most 2,000 bytes, valid UTF-8, no control or reordering character.
void checkMessage(std::string_view message) {
    if (message.size() > 2'000 || attnviz::core::findInvalidUtf8(message) != std::string_view::npos) __builtin_trap();
    for (std::size_t i = 0; i < message.size(); ++i) {
        const auto byte = [&](std::size_t at) { return at < message.size() ? static_cast<unsigned char>(message[at]) : 0u; };
        if (byte(i) < 0x20 || byte(i) == 0x7f) __builtin_trap();
        if (byte(i) == 0xc2 && byte(i + 1) >= 0x80 && byte(i + 1) <= 0x9f) __builtin_trap();
        if (byte(i) == 0xe2 && ((byte(i + 1) == 0x80 && byte(i + 2) >= 0xa8 && byte(i + 2) <= 0xae) ||
                                (byte(i + 1) == 0x81 && byte(i + 2) >= 0xa6 && byte(i + 2) <= 0xa9))) {
            __builtin_trap();
        }
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
    } catch (const attnviz::io::FileError& error) {
        checkMessage(error.what());
    } catch (const attnviz::core::InputError& error) {
        checkMessage(error.what());
    }
    return 0;
}
