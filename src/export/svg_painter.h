// svg_painter.h — a Drawing (drawing.h) as an SVG 1.1 document: rectangles as <rect>, hatching as <pattern>s,
// text as <text> elements in DejaVu Sans, so a figure's words stay searchable and editable (Inkscape,
// PowerPoint). One user unit is one canvas pixel; rasterised at 96 DPI (rsvg-convert) it has the PNG's size, and
// its colours are the PNG's. Cairo's SVG surface would write glyphs as paths, hence this painter of our own.
// What this file deliberately does not do: lay out, measure text, or write files (exporter.cpp does).
#pragma once

#include "export/drawing.h"

#include <string>

namespace attnviz::exporting {

// `title` goes into <title> (plain words, as the PNG's Title).
std::string paintSvg(const Drawing& drawing, const std::string& title);

}  // namespace attnviz::exporting
