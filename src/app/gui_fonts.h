// gui_fonts.h — the DejaVu fonts of the window, at the size the monitor's content scale asks for, with glyph
// ranges that cover Latin, Greek, Cyrillic, the math signs the UI prints, and every character of the
// sentences on screen. New characters (a Greek word typed into the sentence) rebuild the atlas between two
// frames; characters DejaVu lacks, or outside the 16-bit range this ImGui build uses, show the fallback "�".
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

    // Makes sure every character of `texts` is in the atlas. Returns true when the atlas was rebuilt: the
    // caller must then recreate the backend's font texture before the next ImGui::NewFrame().
    bool cover(const std::vector<std::string>& texts);

    const ui::Fonts& fonts() const { return fonts_; }

private:
    void build();

    float pixelSize_;
    std::set<ImWchar> extra_;   // characters from the texts, beyond the base ranges
    ImVector<ImWchar> ranges_;  // must outlive the atlas build
    ui::Fonts fonts_;
};

}  // namespace attnviz::app
