// fuzz_npy.cpp — libFuzzer entry point: any bytes as a .npy file. decodeNpy must return a Tensor whose data
// matches its shape, or throw io::FileError.
#include "io/npy.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        const attnviz::core::Tensor tensor = attnviz::io::decodeNpy(bytes, "fuzz.npy");
        std::size_t count = 1;
        for (int extent : tensor.shape) count *= static_cast<std::size_t>(extent);
        if (count != tensor.size()) __builtin_trap();
    } catch (const attnviz::io::FileError&) {
    }
    return 0;
}
