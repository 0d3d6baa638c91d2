// pdf_unavailable.cpp — the web page's exporting::paintPdf: the page has no Cairo (the desktop's PDF painter,
// export/pdf_painter.cpp, which src/export leaves out of the page), so a PDF export ends in this one sentence; the
// export dialog says the same beside its disabled PDF choice (web_main.cpp's ExportLimits).
#include "export/pdf_painter.h"

namespace attnviz::exporting {

std::string paintPdf(const Drawing& /*drawing*/, const std::string& /*title*/, double /*pageWidth*/) {
    throw PdfError("The web page cannot write PDF (it has no Cairo); export PNG or SVG here, or PDF from the desktop app.");
}

}  // namespace attnviz::exporting
