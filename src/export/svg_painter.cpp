// svg_painter.cpp — Drawing → SVG text. See svg_painter.h.
#include "export/svg_painter.h"

#include "export/canvas.h"
#include "export/png_writer.h"

#include <map>
#include <sstream>
#include <tuple>

namespace attnviz::exporting {
namespace {

std::string hex(Rgba8 c) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out = "#";
    for (std::uint8_t v : {c.r, c.g, c.b}) {
        out += kDigits[v >> 4];
        out += kDigits[v & 15];
    }
    return out;
}

// fill="#rrggbb" and, when see-through, its opacity.
std::string paint(const char* attribute, Rgba8 c) {
    std::string out = attribute;
    out += "=\"";
    out += hex(c);
    out += '"';
    if (c.a == 255) return out;
    out += ' ';
    out += attribute;
    out += "-opacity=\"";
    out += std::to_string(c.a / 255.0f);
    out += '"';
    return out;
}

// Text as XML character data: the five markup characters escaped, control characters XML 1.0 forbids dropped.
std::string escaped(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default:
                if (static_cast<unsigned char>(c) >= 0x20 || c == '\t') out += c;
        }
    }
    return out;
}

std::string rect(PixelRect r, const std::string& fill) {
    return "<rect x=\"" + std::to_string(r.x) + "\" y=\"" + std::to_string(r.y) + "\" width=\"" + std::to_string(r.width) +
           "\" height=\"" + std::to_string(r.height) + "\" " + fill + "/>\n";
}

std::string fontAttributes(FontFace face) {
    switch (face) {
        case FontFace::Bold: return "font-family=\"DejaVu Sans\" font-weight=\"bold\"";
        case FontFace::Mono: return "font-family=\"DejaVu Sans Mono\"";
        case FontFace::Regular: break;
    }
    return "font-family=\"DejaVu Sans\"";
}

// The hatch patterns a drawing uses, one per (colour, spacing, thickness), in user space so that neighbouring
// hatched rectangles join as on the canvas.
class Patterns {
public:
    std::string idFor(const Drawing::Hatch& h) {
        const auto key = std::tuple{h.color.r, h.color.g, h.color.b, h.color.a, h.spacing, h.thickness};
        auto [at, added] = ids_.try_emplace(key, "hatch" + std::to_string(ids_.size()));
        if (added) definitions_ += definition(at->second, h);
        return at->second;
    }
    const std::string& definitions() const { return definitions_; }

private:
    // Bands x + y = k · spacing + ½ … + thickness, like Canvas::hatchRect's pixels (whose centres are at + ½).
    static std::string definition(const std::string& id, const Drawing::Hatch& h) {
        const std::string s = std::to_string(h.spacing);
        std::string band;
        for (int k = 0; k <= 2; ++k) {  // the bands that cross one spacing × spacing tile
            const int from = k * h.spacing - h.spacing;
            const auto point = [&](char command, int x, int y) {
                band += command;
                band += std::to_string(x);
                band += ',';
                band += std::to_string(y);
                band += ' ';
            };
            point('M', from, h.spacing);
            point('L', from + h.spacing, 0);
            point('L', from + h.spacing + h.thickness, 0);
            point('L', from + h.thickness, h.spacing);
            band += "Z ";
        }
        return "<pattern id=\"" + id + "\" patternUnits=\"userSpaceOnUse\" patternTransform=\"translate(0.5 0)\" width=\"" + s +
               "\" height=\"" + s + "\">" +
               "<path d=\"" + band + "\" " + paint("fill", h.color) + "/></pattern>\n";
    }

    std::map<std::tuple<int, int, int, int, int, int>, std::string> ids_;
    std::string definitions_;
};

// Up to this many cells a heatmap is written cell by cell (each a <rect>, editable); larger ones (d_model 768
// maps: a GPT-2 poster was 156 MB of rects) as one embedded PNG of the canvas's own pixels for the map, so no
// viewer's smoothing can blend neighbouring cells.
constexpr int kMaxCellRects = 4096;

std::string base64(const std::string& bytes) {
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const auto byte = [&](std::size_t at) { return at < bytes.size() ? static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at])) : 0u; };
        const std::uint32_t group = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
        out += kAlphabet[group >> 18 & 63];
        out += kAlphabet[group >> 12 & 63];
        out += i + 1 < bytes.size() ? kAlphabet[group >> 6 & 63] : '=';
        out += i + 2 < bytes.size() ? kAlphabet[group & 63] : '=';
    }
    return out;
}

std::string cellsOf(const Drawing::Cells& cells) {
    if (cells.cols * cells.rows <= kMaxCellRects) {
        std::string out;
        for (int r = 0; r < cells.rows; ++r) {
            for (int c = 0; c < cells.cols; ++c) out += rect(cells.cell(r, c), paint("fill", cells.colors[static_cast<std::size_t>(r) * cells.cols + c]));
        }
        return out;
    }
    const int width = cells.cols * cells.cellWidth, height = cells.rows * cells.cellHeight;
    Canvas image(width, height, {255, 255, 255, 255});
    image.fillCells({0, 0, cells.cellWidth, cells.cellHeight, cells.cols, cells.rows, cells.colors});
    return "<image x=\"" + std::to_string(cells.x) + "\" y=\"" + std::to_string(cells.y) + "\" width=\"" + std::to_string(width) +
           "\" height=\"" + std::to_string(height) + "\" preserveAspectRatio=\"none\" href=\"data:image/png;base64," +
           base64(encodePng(image, {})) + "\"/>\n";
}

std::string lineOf(const Drawing::Line& l) {
    return "<line x1=\"" + std::to_string(l.x0) + "\" y1=\"" + std::to_string(l.y0) + "\" x2=\"" + std::to_string(l.x1) + "\" y2=\"" +
           std::to_string(l.y1) + "\" stroke-width=\"" + std::to_string(l.width) + "\" " + paint("stroke", l.color) +
           " shape-rendering=\"geometricPrecision\"/>\n";
}

std::string strokeOf(const Drawing::Stroke& s) {
    const PixelRect r = s.rect;
    const int t = s.thickness;
    const std::string fill = paint("fill", s.color);
    return rect({r.x, r.y, r.width, t}, fill) + rect({r.x, r.bottom() - t, r.width, t}, fill) +
           rect({r.x, r.y + t, t, r.height - 2 * t}, fill) + rect({r.right() - t, r.y + t, t, r.height - 2 * t}, fill);
}

std::string textOf(const Drawing::Text& t) {
    const std::string x = std::to_string(t.x), y = std::to_string(t.baseline);
    std::string out = "<text x=\"" + x + "\" y=\"" + y + "\" font-size=\"" + std::to_string(t.size) + "\" " + fontAttributes(t.face) +
                      " " + paint("fill", t.color);
    if (t.upwards) out += " transform=\"rotate(-90 " + x + " " + y + ")\"";
    return out + ">" + escaped(t.utf8) + "</text>\n";
}

}  // namespace

std::string paintSvg(const Drawing& drawing, const std::string& title) {
    Patterns patterns;
    std::string body;
    for (const Drawing::Primitive& primitive : drawing.primitives) {
        if (const auto* f = std::get_if<Drawing::Fill>(&primitive)) body += rect(f->rect, paint("fill", f->color));
        else if (const auto* cells = std::get_if<Drawing::Cells>(&primitive)) body += cellsOf(*cells);
        else if (const auto* s = std::get_if<Drawing::Stroke>(&primitive)) body += strokeOf(*s);
        else if (const auto* l = std::get_if<Drawing::Line>(&primitive)) body += lineOf(*l);
        else if (const auto* h = std::get_if<Drawing::Hatch>(&primitive)) body += rect(h->rect, "fill=\"url(#" + patterns.idFor(*h) + ")\"");
        else body += textOf(std::get<Drawing::Text>(primitive));
    }
    const std::string w = std::to_string(drawing.width), h = std::to_string(drawing.height);
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + w + "\" height=\"" + h +
                      "\" viewBox=\"0 0 " + w + " " + h + "\" shape-rendering=\"crispEdges\" xml:space=\"preserve\">\n";
    out += "<title>" + escaped(title) + "</title>\n";
    if (!patterns.definitions().empty()) out += "<defs>\n" + patterns.definitions() + "</defs>\n";
    if (drawing.background.a != 0) out += rect({0, 0, drawing.width, drawing.height}, paint("fill", drawing.background));
    return out + body + "</svg>\n";
}

}  // namespace attnviz::exporting
