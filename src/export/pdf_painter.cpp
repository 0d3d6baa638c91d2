// pdf_painter.cpp — Drawing → PDF bytes with Cairo. See pdf_painter.h.
#include "export/pdf_painter.h"

#include <cairo-pdf.h>
#include <cairo.h>

#include <cstdint>
#include <memory>
#include <numbers>

namespace attnviz::exporting {
namespace {

constexpr double kPointsPerPixel = 0.75;  // 72 pt per inch over 96 px per inch

cairo_status_t appendBytes(void* closure, const unsigned char* data, unsigned int length) {
    static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
    return CAIRO_STATUS_SUCCESS;
}

void setColor(cairo_t* cr, Rgba8 c) { cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, c.a / 255.0); }

void fill(cairo_t* cr, PixelRect r, Rgba8 c) {
    if (r.empty()) return;
    setColor(cr, c);
    cairo_rectangle(cr, r.x, r.y, r.width, r.height);
    cairo_fill(cr);
}

// A heatmap as an image of the canvas's own pixels for the map (one pixel per PDF pixel at 96 DPI), so no
// viewer's smoothing can blend neighbouring cells.
void cells(cairo_t* cr, const Drawing::Cells& cells) {
    if (cells.cols <= 0 || cells.rows <= 0) return;
    const std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> image(
        cairo_image_surface_create(CAIRO_FORMAT_RGB24, cells.cols * cells.cellWidth, cells.rows * cells.cellHeight), cairo_surface_destroy);
    cairo_surface_flush(image.get());
    unsigned char* data = cairo_image_surface_get_data(image.get());
    const int stride = cairo_image_surface_get_stride(image.get());
    for (int y = 0; y < cells.rows * cells.cellHeight; ++y) {
        auto* row = reinterpret_cast<std::uint32_t*>(data + static_cast<std::ptrdiff_t>(y) * stride);
        for (int x = 0; x < cells.cols * cells.cellWidth; ++x) {
            const Rgba8 v = cells.colors[static_cast<std::size_t>(y / cells.cellHeight) * cells.cols + x / cells.cellWidth];
            row[x] = std::uint32_t{v.r} << 16 | std::uint32_t{v.g} << 8 | v.b;
        }
    }
    cairo_surface_mark_dirty(image.get());
    cairo_save(cr);
    cairo_translate(cr, cells.x, cells.y);
    cairo_set_source_surface(cr, image.get(), 0.0, 0.0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
    cairo_rectangle(cr, 0.0, 0.0, cells.cols * cells.cellWidth, cells.rows * cells.cellHeight);
    cairo_fill(cr);
    cairo_restore(cr);
}

void line(cairo_t* cr, const Drawing::Line& l) {
    setColor(cr, l.color);
    cairo_set_line_width(cr, l.width);
    cairo_move_to(cr, l.x0, l.y0);
    cairo_line_to(cr, l.x1, l.y1);
    cairo_stroke(cr);
}

void stroke(cairo_t* cr, const Drawing::Stroke& s) {
    const PixelRect r = s.rect;
    const int t = s.thickness;
    fill(cr, {r.x, r.y, r.width, t}, s.color);
    fill(cr, {r.x, r.bottom() - t, r.width, t}, s.color);
    fill(cr, {r.x, r.y + t, t, r.height - 2 * t}, s.color);
    fill(cr, {r.right() - t, r.y + t, t, r.height - 2 * t}, s.color);
}

// Bands between the lines x + y = k · spacing + ½ and x + y = k · spacing + ½ + thickness (Canvas::hatchRect's
// pixels, whose centres are at + ½), clipped to the rectangle.
void hatch(cairo_t* cr, const Drawing::Hatch& h) {
    const PixelRect r = h.rect;
    if (r.empty() || h.spacing <= 0) return;
    cairo_save(cr);
    cairo_rectangle(cr, r.x, r.y, r.width, r.height);
    cairo_clip(cr);
    setColor(cr, h.color);
    const int first = (r.x + r.y) / h.spacing * h.spacing, last = r.right() + r.bottom();
    for (int k = first; k <= last; k += h.spacing) {
        const double from = k + 0.5, to = from + h.thickness;
        cairo_move_to(cr, from - r.y, r.y);
        cairo_line_to(cr, from - r.bottom(), r.bottom());
        cairo_line_to(cr, to - r.bottom(), r.bottom());
        cairo_line_to(cr, to - r.y, r.y);
        cairo_close_path(cr);
    }
    cairo_fill(cr);
    cairo_restore(cr);
}

void text(cairo_t* cr, const Drawing::Text& t) {
    cairo_save(cr);
    const char* family = t.face == FontFace::Mono ? "DejaVu Sans Mono" : "DejaVu Sans";
    cairo_select_font_face(cr, family, CAIRO_FONT_SLANT_NORMAL, t.face == FontFace::Bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, t.size);
    setColor(cr, t.color);
    cairo_translate(cr, t.x, t.baseline);
    if (t.upwards) cairo_rotate(cr, -std::numbers::pi / 2.0);
    cairo_move_to(cr, 0.0, 0.0);
    cairo_show_text(cr, t.utf8.c_str());
    cairo_restore(cr);
}

}  // namespace

std::string paintPdf(const Drawing& drawing, const std::string& title, double pageWidth) {
    std::string bytes;
    {
        const double pointsPerPixel = pageWidth > 0.0 && drawing.width > 0 ? pageWidth / drawing.width : kPointsPerPixel;
        const std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface(
            cairo_pdf_surface_create_for_stream(appendBytes, &bytes, drawing.width * pointsPerPixel, drawing.height * pointsPerPixel),
            cairo_surface_destroy);
        cairo_pdf_surface_set_metadata(surface.get(), CAIRO_PDF_METADATA_TITLE, title.c_str());
        cairo_pdf_surface_set_metadata(surface.get(), CAIRO_PDF_METADATA_CREATOR, "attnviz");
        const std::unique_ptr<cairo_t, decltype(&cairo_destroy)> context(cairo_create(surface.get()), cairo_destroy);
        cairo_t* cr = context.get();
        cairo_scale(cr, pointsPerPixel, pointsPerPixel);
        if (drawing.background.a != 0) fill(cr, {0, 0, drawing.width, drawing.height}, drawing.background);
        for (const Drawing::Primitive& primitive : drawing.primitives) {
            if (const auto* f = std::get_if<Drawing::Fill>(&primitive)) fill(cr, f->rect, f->color);
            else if (const auto* c = std::get_if<Drawing::Cells>(&primitive)) cells(cr, *c);
            else if (const auto* s = std::get_if<Drawing::Stroke>(&primitive)) stroke(cr, *s);
            else if (const auto* l = std::get_if<Drawing::Line>(&primitive)) line(cr, *l);
            else if (const auto* h = std::get_if<Drawing::Hatch>(&primitive)) hatch(cr, *h);
            else text(cr, std::get<Drawing::Text>(primitive));
        }
        cairo_show_page(cr);
        if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) throw PdfError(std::string("Cannot draw the PDF: ") + cairo_status_to_string(cairo_status(cr)) + ".");
        cairo_surface_finish(surface.get());
        if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS) {
            throw PdfError(std::string("Cannot write the PDF: ") + cairo_status_to_string(cairo_surface_status(surface.get())) + ".");
        }
    }
    return bytes;
}

}  // namespace attnviz::exporting
