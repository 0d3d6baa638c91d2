// test_drawing_player.cpp — screen = paper for the one drawing list: a labelled map drawn by the exporter
// (export/matrix_panel.h on a Canvas) and its drawing list played into ImGui's draw list (ui/views/drawing_player.h)
// put every rectangle and every cell on the same pixels, and every label's ink where the exporter measured the
// label: same start, same width (so the same size), same baseline, upright and upwards. No window: the draw list's
// vertices are read back.
#include "app/gui_fonts.h"
#include "export/matrix_panel.h"
#include "export/text.h"
#include "export/theme.h"
#include "ui/views/drawing_player.h"

#include <doctest/doctest.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace attnviz::test {
namespace {

using scene::Drawing;

struct Frame {
    Frame() {
        ImGui::CreateContext();
        fonts.emplace(13.0f);
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = {1600.0f, 1000.0f};
        io.DeltaTime = 1.0f / 60.0f;
        unsigned char* pixels = nullptr;
        int width = 0, height = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
        ImGui::NewFrame();
    }
    ~Frame() {
        ImGui::EndFrame();
        fonts.reset();
        ImGui::DestroyContext();
    }
    std::optional<app::GuiFonts> fonts;
};

struct Box {
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
};

// The vertices one primitive added, as their bounding box and as quads (4 vertices each, in order).
struct Played {
    Box box;
    std::vector<Box> quads;
};

Played playAlone(const Drawing::Primitive& primitive, ImVec2 origin, const ui::Fonts& fonts) {
    ImDrawList& list = *ImGui::GetForegroundDrawList();
    const int first = list.VtxBuffer.Size;
    ui::playPrimitive(primitive, list, origin, fonts);
    Played played;
    for (int i = first; i < list.VtxBuffer.Size; ++i) {
        const ImVec2 p{list.VtxBuffer[i].pos.x - origin.x, list.VtxBuffer[i].pos.y - origin.y};
        if ((i - first) % 4 == 0) played.quads.emplace_back();
        for (Box* box : {&played.box, &played.quads.back()}) {
            box->x0 = std::min(box->x0, p.x), box->y0 = std::min(box->y0, p.y);
            box->x1 = std::max(box->x1, p.x), box->y1 = std::max(box->y1, p.y);
        }
    }
    return played;
}

// Within `slack` pixels: 0 for fills, a pixel and a half for strokes (ImGui feathers anti-aliased lines outwards).
void checkSameRect(const Box& played, const scene::PixelRect& paper, float slack = 0.0f) {
    CHECK(std::fabs(played.x0 - static_cast<float>(paper.x)) <= slack);
    CHECK(std::fabs(played.y0 - static_cast<float>(paper.y)) <= slack);
    CHECK(std::fabs(played.x1 - static_cast<float>(paper.right())) <= slack);
    CHECK(std::fabs(played.y1 - static_cast<float>(paper.bottom())) <= slack);
}

// A 4 × 6 attention map with token axes, a masked triangle, a focused row, a head stripe, a colorbar and a legend.
exporting::PanelContent attentionPanel() {
    exporting::PanelContent content;
    content.title = "A_2 = softmax(QK^T / sqrt(d_k))";
    content.captions = {"4 \u00D7 6"};
    content.values = core::Matrix::Constant(4, 6, 0.25f);
    content.masked.assign(24, 0);
    for (int r = 0; r < 4; ++r) {
        for (int c = r + 3; c < 6; ++c) content.masked[static_cast<std::size_t>(r) * 6 + c] = 1;
    }
    content.maskedLegend = "masked";
    content.rows.labels = {"The", "animal", "didn't", "cross"};
    content.rows.tokens = true;
    content.cols.labels = {"The", "animal", "didn't", "cross", "the", "street"};
    content.cols.tokens = true;
    content.range = {0.0f, 1.0f};
    content.head = 2;
    content.focusRow = 1;
    return content;
}

}  // namespace

TEST_CASE("screen = paper: a labelled map's drawing list played into ImGui lands every rectangle, cell and label where the exporter put it") {
    const Frame frame;
    const ui::Fonts& fonts = frame.fonts->fonts();
    REQUIRE(fonts.small != nullptr);  // DejaVu (fonts-dejavu-core), as the exporters use
    const exporting::MatrixPanel panel(attentionPanel(), {});
    exporting::Canvas canvas(panel.width(), panel.height(), {255, 255, 255, 255});
    panel.draw(canvas, 0, 0, 1, exporting::themeFor(exporting::Background::Light));
    const Drawing& paper = canvas.drawing();
    const ImVec2 origin{37.0f, 21.0f};  // anywhere on screen

    int fills = 0, cells = 0, uprightTexts = 0, upwardTexts = 0;
    for (const Drawing::Primitive& primitive : paper.primitives) {
        const Played screen = playAlone(primitive, origin, fonts);
        if (const auto* fill = std::get_if<Drawing::Fill>(&primitive)) {
            ++fills;
            checkSameRect(screen.box, fill->rect);
        } else if (const auto* map = std::get_if<Drawing::Cells>(&primitive)) {
            REQUIRE(screen.quads.size() == static_cast<std::size_t>(map->rows * map->cols));
            for (int r = 0; r < map->rows; ++r) {
                for (int c = 0; c < map->cols; ++c) checkSameRect(screen.quads[static_cast<std::size_t>(r * map->cols + c)], map->cell(r, c));
            }
            cells += map->rows * map->cols;
        } else if (const auto* stroke = std::get_if<Drawing::Stroke>(&primitive)) {
            checkSameRect(screen.box, stroke->rect, 1.5f);  // drawn inwards on both: the outer edge is the rectangle's
        } else if (const auto* text = std::get_if<Drawing::Text>(&primitive)) {
            if (text->utf8.find_first_not_of(' ') == std::string::npos) continue;
            CAPTURE(text->utf8);
            const float width = exporting::textWidth(text->utf8, text->size, text->face);
            const exporting::LineMetrics line = exporting::lineMetrics(text->size, text->face);
            const float x = static_cast<float>(text->x), pen = static_cast<float>(text->baseline);
            // Ink starts within a side bearing of the pen (after leading spaces), ends within one of the advance, and sits
            // in the line.
            const float lead = exporting::textWidth(text->utf8.substr(0, text->utf8.find_first_not_of(' ')), text->size, text->face);
            const float along0 = (text->upwards ? pen - screen.box.y1 : screen.box.x0 - x) - lead;
            const float along1 = text->upwards ? pen - screen.box.y0 : screen.box.x1 - x;
            const float above = text->upwards ? x - screen.box.x0 : pen - screen.box.y0;
            const float below = text->upwards ? screen.box.x1 - x : screen.box.y1 - pen;
            CHECK(along0 >= -1.5f);
            CHECK(along0 <= 2.5f);
            CHECK(std::fabs(along1 - width) <= 2.5f);
            CHECK(above <= line.ascent + 1.5f);
            CHECK(above >= 0.5f * line.ascent);  // letters rise from the baseline, not from the line's top
            CHECK(below <= line.descent + 1.5f);
            ++(text->upwards ? upwardTexts : uprightTexts);
        }
    }
    CHECK(cells == 24);
    CHECK(fills >= 3);         // head stripe, colorbar, legend swatch
    CHECK(uprightTexts >= 6);  // title, caption, row labels, ticks
    CHECK(upwardTexts == 6);   // the column tokens
}

}  // namespace attnviz::test
