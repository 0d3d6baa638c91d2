// fallback_fonts.cpp — the fallback font list, read lazily, and which font has a glyph. See fallback_fonts.h.
#include "io/fallback_fonts.h"

#include <stb_truetype.h>

#include <array>
#include <fstream>
#include <memory>
#include <mutex>
#include <vector>

namespace attnviz::io {
namespace {

struct CodePointRange {
    char32_t first, last;
};

// Hangul Jamo, compatibility Jamo, Jamo extended A and B, syllables.
constexpr std::array kHangul{CodePointRange{0x1100, 0x11FF}, CodePointRange{0x3130, 0x318F},
                             CodePointRange{0xA960, 0xA97F}, CodePointRange{0xAC00, 0xD7FF}};

struct Entry {
    const char* name;
    const char* path;
    std::span<const CodePointRange> preferredFor;  // characters this font is asked for before the others
};

const std::array kEntries{
    Entry{"FreeSans", "/usr/share/fonts/truetype/freefont/FreeSans.ttf", {}},
    Entry{"FreeSerif", "/usr/share/fonts/truetype/freefont/FreeSerif.ttf", {}},
    Entry{"Droid Sans Fallback", "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", {}},
    Entry{"NanumGothic", "/usr/share/fonts/truetype/nanum/NanumGothic.ttf", kHangul},
};

struct LoadedEntry {
    std::once_flag loaded;
    FallbackFont font;
    std::vector<unsigned char> storage;
    stbtt_fontinfo info{};
    bool usable = false;
};

std::array<LoadedEntry, kEntries.size()>& loadedEntries() {
    static std::array<LoadedEntry, kEntries.size()> entries;
    return entries;
}

// The file's bytes, allocated once at their exact size (these files are megabytes); empty when unreadable.
std::vector<unsigned char> readWholeFile(const std::filesystem::path& path) {
    std::error_code error;
    const auto size = std::filesystem::file_size(path, error);
    if (error) return {};
    std::vector<unsigned char> bytes(static_cast<std::size_t>(size));
    std::ifstream file(path, std::ios::binary);
    if (!file.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()))) return {};
    return bytes;
}

LoadedEntry& load(std::size_t index) {
    LoadedEntry& entry = loadedEntries()[index];
    std::call_once(entry.loaded, [&entry, index] {
        entry.font.name = kEntries[index].name;
        entry.font.path = kEntries[index].path;
        entry.storage = readWholeFile(entry.font.path);
        const int offset = entry.storage.empty() ? -1 : stbtt_GetFontOffsetForIndex(entry.storage.data(), 0);
        entry.usable = offset >= 0 && stbtt_InitFont(&entry.info, entry.storage.data(), offset) != 0;
        if (!entry.usable) entry.storage.clear();
        entry.font.bytes = entry.storage;
    });
    return entry;
}

bool has(std::size_t index, char32_t codePoint) {
    const LoadedEntry& entry = load(index);
    return entry.usable && stbtt_FindGlyphIndex(&entry.info, static_cast<int>(codePoint)) != 0;
}

bool prefers(std::size_t index, char32_t codePoint) {
    for (const CodePointRange& range : kEntries[index].preferredFor) {
        if (codePoint >= range.first && codePoint <= range.last) return true;
    }
    return false;
}

}  // namespace

std::size_t fallbackFontCount() { return kEntries.size(); }

const FallbackFont& fallbackFont(std::size_t index) { return load(index).font; }

std::optional<std::size_t> fallbackFontFor(char32_t codePoint) {
    for (std::size_t i = 0; i < kEntries.size(); ++i) {
        if (prefers(i, codePoint) && has(i, codePoint)) return i;
    }
    for (std::size_t i = 0; i < kEntries.size(); ++i) {
        if (has(i, codePoint)) return i;
    }
    return std::nullopt;
}

}  // namespace attnviz::io
