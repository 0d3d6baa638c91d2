// random.h — a tiny, portable, seeded random source for embeddings and weight init.
//
// std::uniform_real_distribution's output differs between standard libraries, and the Trace must be the same
// bit for bit everywhere, so the core draws its numbers from SplitMix64 with an explicit float conversion.
#pragma once

#include <cstdint>
#include <string_view>

namespace attnviz::core {

class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [lo, hi) with 24 bits of resolution (exactly representable steps).
    float uniform(float lo, float hi) {
        const float unit = static_cast<float>(next() >> 40) * (1.0f / 16777216.0f);
        return lo + (hi - lo) * unit;
    }

private:
    std::uint64_t state_;
};

// FNV-1a of a string mixed with a seed: the stream for one named thing ("the", "W^Q", …).
inline std::uint64_t streamSeed(std::string_view name, std::uint64_t seed) {
    std::uint64_t hash = 0xCBF29CE484222325ull ^ (seed * 0x9E3779B97F4A7C15ull);
    for (unsigned char c : name) {
        hash ^= c;
        hash *= 0x100000001B3ull;
    }
    return hash;
}

}  // namespace attnviz::core
