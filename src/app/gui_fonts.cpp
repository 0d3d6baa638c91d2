// gui_fonts.cpp — DejaVu fonts with glyph ranges grown from the text on screen, and fallback fonts merged in
// for the characters DejaVu lacks. See gui_fonts.h.
#include "app/gui_fonts.h"

#include "core/unicode.h"
#include "io/fallback_fonts.h"

#include <cmath>
#include <filesystem>
#include <iostream>

namespace attnviz::app {
namespace {

constexpr const char* kFontDir = "/usr/share/fonts/truetype/dejavu/";

// Latin (with extensions), Greek, Cyrillic, punctuation, sub/superscripts, letterlike signs (ℝ), arrows,
// math operators (√ · ×), control pictures (␣, GPT-2's space in token labels), geometric shapes (▶ ◀), and
// U+FFFD, which ImGui then uses as the fallback glyph.
constexpr ImWchar kBaseRanges[] = {
    0x0020, 0x024F, 0x0370, 0x03FF, 0x0400, 0x052F, 0x1D00, 0x1DBF, 0x2000, 0x206F, 0x2070, 0x209F,
    0x2100, 0x214F, 0x2190, 0x21FF, 0x2200, 0x22FF, 0x2400, 0x243F, 0x25A0, 0x25FF, 0x2700, 0x27BF, 0xFFFD, 0xFFFD, 0};

// The display font's characters: ASCII, ␣ (the space mark of GPT-2's tokens) and the word joiner ui::widgetLabel puts in "##". Its glyphs are large: Latin-1 and
// the control pictures as well cost 57 MB of peak memory presenting at 1920 × 1200 (the atlas quadrupled).
constexpr ImWchar kDisplayRanges[] = {0x0020, 0x007E, 0x2060, 0x2060, 0x2423, 0x2423, 0};

bool fontFilesPresent() { return std::filesystem::exists(std::string(kFontDir) + "DejaVuSans.ttf"); }

ImFont* addFont(const char* file, float size, const ImWchar* ranges) {
    ImFontConfig config;
    config.OversampleH = 2;
    config.PixelSnapH = false;
    return ImGui::GetIO().Fonts->AddFontFromFileTTF((std::string(kFontDir) + file).c_str(), size, &config, ranges);
}

// Merges a fallback font's glyphs for `ranges` into the font added last, without copying the file: the five
// sizes share io's one copy (megabytes each; a copy per size was 58 MB for four scripts). ImGui 1.86 copies
// font data it does not own, so the config says "owned", and releaseBorrowedFontData() takes that back before
// the atlas is ever cleared.
void mergeFallback(const io::FallbackFont& font, float size, const ImWchar* ranges) {
    ImFontConfig config;
    config.MergeMode = true;
    config.OversampleH = 2;
    config.PixelSnapH = false;
    config.FontDataOwnedByAtlas = true;
    void* bytes = const_cast<unsigned char*>(font.bytes.data());  // ImGui's API is not const; it only reads
    ImGui::GetIO().Fonts->AddFontFromMemoryTTF(bytes, static_cast<int>(font.bytes.size()), size, &config, ranges);
}

// Marks the fallback fonts' bytes (`borrowed`) as not the atlas's, so that clearing it does not free io's copies.
void releaseBorrowedFontData(ImFontAtlas& atlas, const std::set<const void*>& borrowed) {
    for (ImFontConfig& config : atlas.ConfigData) {
        if (borrowed.contains(config.FontData)) config.FontDataOwnedByAtlas = false;
    }
}

// The glyph ranges of each fallback font: the characters of `extra` it draws. Merged after DejaVu, a fallback
// font only adds the characters DejaVu lacks (in an atlas the first font with a glyph wins).
std::vector<ImVector<ImWchar>> fallbackRanges(const std::set<ImWchar>& extra) {
    std::vector<ImFontGlyphRangesBuilder> builders(io::fallbackFontCount());
    std::vector<bool> used(builders.size(), false);
    for (ImWchar c : extra) {
        if (const auto font = io::fallbackFontFor(c)) {
            builders[*font].AddChar(c);
            used[*font] = true;
        }
    }
    std::vector<ImVector<ImWchar>> ranges(builders.size());
    for (std::size_t i = 0; i < builders.size(); ++i) {
        if (used[i]) builders[i].BuildRanges(&ranges[i]);
    }
    return ranges;
}

}  // namespace

GuiFonts::GuiFonts(float pixelSize) : pixelSize_(pixelSize) {
    if (!fontFilesPresent()) {
        std::cerr << "attnviz: DejaVu fonts not found in " << kFontDir
                  << " (install fonts-dejavu-core); using ImGui's built-in font, which shows only ASCII.\n";
    }
    build();
}

GuiFonts::~GuiFonts() { releaseBorrowedFontData(*ImGui::GetIO().Fonts, borrowed_); }

bool GuiFonts::resize(float pixelSize) {
    if (pixelSize == pixelSize_) return false;
    pixelSize_ = pixelSize;
    build();
    return true;
}

bool GuiFonts::cover(const std::vector<std::string>& texts) {
    bool grew = false;
    for (const std::string& text : texts) {
        for (char32_t c : core::decodeUtf8(text)) {
            if (c > 0xFFFF) continue;  // ImWchar is 16-bit in this build: ImGui draws the fallback glyph
            const auto wide = static_cast<ImWchar>(c);
            if (ImGui::GetIO().Fonts->Fonts.empty() || ImGui::GetIO().Fonts->Fonts[0]->FindGlyphNoFallback(wide) != nullptr) continue;
            grew = extra_.insert(wide).second || grew;
        }
    }
    if (grew) build();
    return grew;
}

void GuiFonts::build() {
    ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
    releaseBorrowedFontData(atlas, borrowed_);
    atlas.Clear();
    if (!fontFilesPresent()) {
        fonts_ = {atlas.AddFontDefault(), nullptr, nullptr, nullptr, nullptr, nullptr};
        atlas.Build();
        return;
    }
    ImFontGlyphRangesBuilder builder;
    builder.AddRanges(kBaseRanges);
    for (ImWchar c : extra_) builder.AddChar(c);
    ranges_.clear();
    builder.BuildRanges(&ranges_);
    fallbackRanges_ = fallbackRanges(extra_);
    const float s = pixelSize_;
    auto withFallbacks = [&](const char* file, float size) {
        ImFont* font = addFont(file, size, ranges_.Data);
        for (std::size_t i = 0; i < fallbackRanges_.size(); ++i) {
            const io::FallbackFont& fallback = io::fallbackFont(i);
            if (fallbackRanges_[i].empty() || fallback.bytes.empty()) continue;
            mergeFallback(fallback, size, fallbackRanges_[i].Data);
            borrowed_.insert(fallback.bytes.data());
        }
        return font;
    };
    fonts_.regular = withFallbacks("DejaVuSans.ttf", s);
    fonts_.small = withFallbacks("DejaVuSans.ttf", std::round(s * 0.82f));
    fonts_.bold = withFallbacks("DejaVuSans-Bold.ttf", s);
    fonts_.large = withFallbacks("DejaVuSans-Bold.ttf", std::round(s * 1.3f));
    fonts_.mono = withFallbacks("DejaVuSansMono.ttf", std::round(s * 0.94f));
    fonts_.display = addFont("DejaVuSans-Bold.ttf", std::round(s * 1.3f * ui::kDisplayScale), kDisplayRanges);
    atlas.Build();

}

}  // namespace attnviz::app
