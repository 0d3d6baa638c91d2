// fuzz_tokenizer.cpp — libFuzzer entry point: any bytes as a sentence. The tokenizer must return tokens or
// throw InputError; anything else (a crash, a sanitizer report, another exception) is a bug.
#include "core/tokenizer.h"
#include "core/unicode.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    using namespace attnviz::core;
    try {
        const auto tokens = tokenize(text, {.prependCls = size % 2 == 1, .tokenLimit = kMaxTokenLimit});
        for (const std::string& token : tokens) {
            if (token.empty()) __builtin_trap();  // a token is never empty
        }
    } catch (const InputError&) {
    }
    (void)decodeUtf8(text);
    return 0;
}
