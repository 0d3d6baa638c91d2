// pdf_painter.h — a Drawing (drawing.h) as a one-page PDF, through Cairo's PDF surface: the same rectangles, and
// the text as text in DejaVu Sans (Cairo embeds the glyphs used, so readers and pdftotext find the words). One
// canvas pixel is 0.75 pt, so the page rasterised at 96 DPI (pdftoppm -r 96) has the PNG's size and colours; a
// slide's page is 13.33 × 7.5 in whatever its pixels (Figure::pdfPageWidth).
// What this file deliberately does not do: lay out, measure text, or write files (exporter.cpp does).
#pragma once

#include "export/drawing.h"

#include <stdexcept>
#include <string>

namespace attnviz::exporting {

// Cairo could not make the PDF (out of memory, a font it cannot use).
class PdfError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The whole PDF file in memory; `title` goes into its Title. `pageWidth` > 0: the page is that many points wide
// (the drawing scaled to it, the height in proportion); 0: 0.75 pt a canvas pixel. Throws PdfError.
std::string paintPdf(const Drawing& drawing, const std::string& title, double pageWidth = 0.0);

}  // namespace attnviz::exporting
