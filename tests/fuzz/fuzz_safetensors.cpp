// fuzz_safetensors.cpp — libFuzzer entry point: any bytes as a .safetensors file. The header must be refused with
// a FileError or accepted, and every accepted tensor must decode within the buffer; anything else (a crash, a
// sanitizer report, another exception) is a bug.
#include "io/safetensors.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace attnviz::io;
    const std::span<const std::byte> file(reinterpret_cast<const std::byte*>(data), size);
    try {
        const auto entries = parseSafetensorsHeader(file, "fuzz.safetensors");
        std::uint64_t length = 0;
        for (int i = 7; i >= 0; --i) length = length << 8 | data[i];
        for (const auto& [name, entry] : entries) {
            if (entry.end - entry.begin > (1u << 20)) continue;  // decoding is linear; a big tensor proves nothing more
            const auto bytes = file.subspan(8 + length + entry.begin, entry.end - entry.begin);
            try {
                (void)decodeTensor(bytes, entry.dtype, name);
            } catch (const FileError&) {  // a dtype attnviz does not read
            }
        }
    } catch (const FileError&) {
    }
    return 0;
}
