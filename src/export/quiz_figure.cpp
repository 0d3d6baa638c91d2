// quiz_figure.cpp — a question and its answer as two slides (see quiz_figure.h): the question laid out by
// scene/question_drawing.h with the exporter's type, then its Drawing played onto a Canvas primitive by primitive,
// every position and size times the slide's zoom.
#include "export/quiz_figure.h"

#include "export/export_error.h"
#include "export/text.h"

#include <algorithm>
#include <variant>

namespace attnviz::exporting {
namespace {

// Base pixels: the slide's body type, stepped down to fit, and the floor (36 and 20 px on a 1080p slide).
constexpr float kQuizType = 18.0f, kQuizMinType = 10.0f;

PixelRect zoomed(PixelRect r, int zoom) { return {r.x * zoom, r.y * zoom, r.width * zoom, r.height * zoom}; }

// One scene::Drawing onto the canvas, `zoom` times larger: the raster player of the question's picture (the screen's
// is ui/views/drawing_player.h).
void playOnCanvas(const Drawing& drawing, Canvas& canvas, int zoom) {
    for (const Drawing::Primitive& primitive : drawing.primitives) {
        if (const auto* f = std::get_if<Drawing::Fill>(&primitive)) {
            canvas.fillRect(zoomed(f->rect, zoom), f->color);
        } else if (const auto* c = std::get_if<Drawing::Cells>(&primitive)) {
            Drawing::Cells cells = *c;
            cells.x *= zoom;
            cells.y *= zoom;
            cells.cellWidth *= zoom;
            cells.cellHeight *= zoom;
            canvas.fillCells(std::move(cells));
        } else if (const auto* s = std::get_if<Drawing::Stroke>(&primitive)) {
            canvas.strokeRect(zoomed(s->rect, zoom), s->color, s->thickness * zoom);
        } else if (const auto* l = std::get_if<Drawing::Line>(&primitive)) {
            const float z = static_cast<float>(zoom);
            canvas.drawLine({l->x0 * z, l->y0 * z, l->x1 * z, l->y1 * z, l->width * z, l->color});
        } else if (const auto* h = std::get_if<Drawing::Hatch>(&primitive)) {
            canvas.hatchRect(zoomed(h->rect, zoom), h->color, h->spacing * zoom, h->thickness * zoom);
        } else if (const auto* t = std::get_if<Drawing::Text>(&primitive)) {
            const TextStyle style{t->size * static_cast<float>(zoom), t->face, t->color};
            const float x = static_cast<float>(t->x * zoom), pen = static_cast<float>(t->baseline * zoom);
            if (t->upwards) drawTextUpwards(canvas, x, pen, t->utf8, style);
            else drawText(canvas, x, pen, t->utf8, style);
        }
    }
}

scene::QuestionLook slideLook(const core::Question& question, const FigureStyle& style) {
    scene::QuestionLook look;
    look.type = kQuizType;
    look.minType = kQuizMinType;
    look.keysHint = "";
    look.classCounts = false;
    look.revealHint = "Think first: the next slide has the answer.";
    look.whyPrompt = "Why did the model do that? Say it in one sentence.";
    float top = 0.0f;
    for (float v : question.answer.values) top = std::max(top, v);
    for (float v : question.answer.before) top = std::max(top, v);
    const colormap::Colormap map = style.colormap.value_or(colormap::Colormap::Viridis);
    look.probabilityColour = [map, top](float v) { return opaque(colormap::sample(map, v, 0.0f, top > 0.0f ? top : 1.0f)); };
    return look;
}

}  // namespace

std::vector<core::QuestionKind> quizKinds(const core::ModelRun& run, int batch, int head, std::optional<core::StageId> stage) {
    std::vector<core::QuestionKind> kinds;
    for (core::QuestionKind kind : core::offeredQuestions(run, {batch, head, std::nullopt, 0})) {
        if (!stage || core::askQuestion(kind, run, {batch, head, std::nullopt, 0})->stage == *stage) kinds.push_back(kind);
    }
    return kinds;
}

core::Question quizQuestion(const core::ModelRun& run, core::QuestionKind kind, std::uint64_t number, int head, int batch) {
    std::optional<core::Question> question = core::askQuestion(kind, run, {batch, head, std::nullopt, number});
    if (!question) throw ExportError("This run offers no question \"" + std::string(core::questionKey(kind)) + "\".");
    return std::move(*question);
}

scene::QuestionLayout quizLayout(const core::Question& question, bool revealed, const FigureStyle& style) {
    const scene::TextWidth measure = [](std::string_view text, float size, FontFace face) { return textWidth(text, size, face); };
    return scene::layoutQuestion(question, {}, revealed, kSlideWidth / kSlideZoom, kSlideHeight / kSlideZoom, slideLook(question, style), measure);
}

Figure drawQuizFigure(const core::Question& question, bool revealed, const FigureStyle& style) {
    const int zoom = style.scale * kSlideZoom;
    const scene::QuestionLayout layout = quizLayout(question, revealed, style);
    Figure figure{Canvas(kSlideWidth * style.scale, kSlideHeight * style.scale, themeFor(Background::Light).background), "", {}, kSlidePagePoints};
    playOnCanvas(layout.drawing, figure.image, zoom);
    figure.title = (revealed ? "Answer: " : "Question: ") + question.prompt;
    return figure;
}

}  // namespace attnviz::exporting
