// gui_fonts.h — the DejaVu fonts of the window, at the size the monitor's content scale asks for, with glyph
// ranges that cover Latin, Greek, Cyrillic, the math signs the UI prints, and every character of the
// sentences on screen. New characters (a Greek word typed into the sentence) rebuild the atlas between two
// frames; characters DejaVu lacks (CJK, Hangul, Devanagari, Thai) are merged in from io/fallback_fonts.h's
// fonts, only those in use, so a Latin-only session reads no extra font file. Characters beyond U+FFFF, which
// this ImGui build's 16-bit ImWchar cannot hold, are drawn as core::displayText's "[U+1F600]" by the views;
// in the sentence's input field they show as "�". A display font (ui::Fonts::display: ASCII and ␣, at
// ui::kDisplayScale the large size) keeps stage 0's grown words sharp.
//
// Does not decide the UI scale (gui_main does) and never fails: without fonts-dejavu-core it falls back to
// ImGui's built-in font and says so once on stderr.
#pragma once

#include "ui/views/view_context.h"

#include <set>
#include <string>
#include <vector>

namespace attnviz::app {

class GuiFonts {
public:
    // Builds the atlas for `pixelSize` (the body text size; the others are derived from it).
    explicit GuiFonts(float pixelSize);
    ~GuiFonts();  // before ImGui::DestroyContext: hands the fallback fonts' bytes back to io
    GuiFonts(const GuiFonts&) = delete;
    GuiFonts& operator=(const GuiFonts&) = delete;

    // Makes sure every character of `texts` is in the atlas. Returns true when the atlas was rebuilt: the
    // caller must then recreate the backend's font texture before the next ImGui::NewFrame().
    bool cover(const std::vector<std::string>& texts);
    // Rebuilds the atlas for another body text size (zoom, presentation mode); false when it already is that
    // size. Like cover(), a rebuild needs the backend's font texture recreated.
    bool resize(float pixelSize);
    float pixelSize() const { return pixelSize_; }

    const ui::Fonts& fonts() const { return fonts_; }

private:
    void build();

    float pixelSize_;
    std::set<ImWchar> extra_;   // characters from the texts, beyond the base ranges
    ImVector<ImWchar> ranges_;  // must outlive the atlas build
    std::vector<ImVector<ImWchar>> fallbackRanges_;  // per io::fallbackFont, likewise
    std::set<const void*> borrowed_;                 // io's font bytes the atlas was lent (see mergeFallback)
    ui::Fonts fonts_;
};

}  // namespace attnviz::app
