// test_quiz_figure.cpp — `export --kind quiz`: a question slide and an answer slide per question the run offers, on
// the seeded layer with a causal mask (every kind but the trained model's prediction and shared K/V heads). Both
// slides are 16:9 at one scale; the question slide has none of the answer row's colours inside the answer's
// rectangle, no truth marked (the truth's green fill nowhere) and none of the reveal's words (the gap, the why),
// the answer slide has all three; files are named by question, SVG and PDF keep the words; --matrix is refused.
#include "export/export_refusal.h"
#include "export/exporter.h"
#include "export/png_decode.h"
#include "export/quiz_figure.h"
#include "io/scratch_dir.h"

#include "export/file_text.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <variant>

using namespace attnviz;
using namespace attnviz::exporting;
using attnviz::test::fileText;
namespace fs = std::filesystem;

namespace {

constexpr Rgba8 kTruthFill{222, 243, 224, 255};  // scene/question_drawing.cpp: the truth's row, revealed

const core::ModelRun& causalRun() {
    static const core::ModelRun run = [] {
        core::ModelSpec spec;
        spec.attention.mask = core::MaskKind::Causal;
        return core::runModel(spec);
    }();
    return run;
}

ExportRequest quizRequest(FigureFormat format) {
    ExportRequest request;
    request.kind = FigureKind::Quiz;
    request.format = format;
    request.style.scale = 1;
    return request;
}

// The answer rows' colours, as the slide draws them: each value on viridis over 0 … the rows' largest.
std::vector<Rgba8> answerColours(const core::Question& q) {
    float top = 0.0f;
    for (float v : q.answer.values) top = std::max(top, v);
    for (float v : q.answer.before) top = std::max(top, v);
    std::vector<float> values = q.answer.values;
    values.insert(values.end(), q.answer.before.begin(), q.answer.before.end());
    std::vector<Rgba8> colours;
    for (float v : values) colours.push_back(opaque(colormap::sample(colormap::Colormap::Viridis, v, 0.0f, top)));
    return colours;
}

int pixelsColoured(const Canvas& image, PixelRect rect, const std::vector<Rgba8>& colours) {
    int count = 0;
    for (int y = std::max(0, rect.y); y < std::min(image.height(), rect.bottom()); ++y) {
        for (int x = std::max(0, rect.x); x < std::min(image.width(), rect.right()); ++x) {
            count += std::find(colours.begin(), colours.end(), image.pixel(x, y)) != colours.end();
        }
    }
    return count;
}

// Every text run of the slide, joined.
std::string slideText(const Figure& figure) {
    std::string text;
    for (const Drawing::Primitive& p : figure.image.drawing().primitives) {
        if (const auto* t = std::get_if<Drawing::Text>(&p)) text += t->utf8 + "\n";
    }
    return text;
}

// Whether every word of `sentence` is drawn, in order, in the wrapped text (a sentence may wrap over lines).
bool holdsWords(const std::string& text, const std::string& sentence) {
    std::istringstream words(sentence);
    std::size_t at = 0;
    for (std::string word; words >> word;) {
        at = text.find(word, at);
        if (at == std::string::npos) return false;
        at += word.size();
    }
    return true;
}

}  // namespace

TEST_CASE("quiz slides: the question slide leaves the answer out — no answer colours in its rectangle, no truth marked, no reveal words — the answer slide has them") {
    const std::vector<core::QuestionKind> kinds = quizKinds(causalRun(), 0, 0, std::nullopt);
    CHECK(kinds == std::vector<core::QuestionKind>{core::QuestionKind::MostAttended, core::QuestionKind::Shape, core::QuestionKind::Scaling,
                                                   core::QuestionKind::Mask, core::QuestionKind::WeightedSum});
    const FigureStyle style = quizRequest(FigureFormat::Png).style;
    const int zoom = style.scale * kSlideZoom;
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        const core::Question q = quizQuestion(causalRun(), kinds[i], i, 0, 0);
        CAPTURE(q.prompt);
        const Figure asked = drawQuizFigure(q, false, style), answered = drawQuizFigure(q, true, style);
        for (const Figure* f : {&asked, &answered}) {
            CHECK(f->image.width() == kSlideWidth * style.scale);
            CHECK(f->image.height() == kSlideHeight * style.scale);
        }
        const scene::QuestionLayout layout = quizLayout(q, false, style);
        CHECK(layout.smallestType * static_cast<float>(zoom) >= 20.0f);  // 20 px or more on a 1080p slide
        CHECK(layout.bottom <= kSlideHeight / kSlideZoom);
        const PixelRect answer{layout.answer.x * zoom, layout.answer.y * zoom, layout.answer.width * zoom, layout.answer.height * zoom};
        const PixelRect whole{0, 0, asked.image.width(), asked.image.height()};
        const std::string gap = core::gapSentence(q, std::nullopt), askedText = slideText(asked), answeredText = slideText(answered);
        CHECK(holdsWords(askedText, q.prompt));
        CHECK_FALSE(holdsWords(askedText, gap));
        CHECK_FALSE(holdsWords(askedText, q.why));
        CHECK(pixelsColoured(asked.image, whole, {kTruthFill}) == 0);
        CHECK(holdsWords(answeredText, gap));
        CHECK(holdsWords(answeredText, q.why));
        CHECK(pixelsColoured(answered.image, whole, {kTruthFill}) > 0);
        if (!q.answer.values.empty()) {
            CHECK(pixelsColoured(asked.image, answer, answerColours(q)) == 0);
            CHECK(pixelsColoured(answered.image, answer, answerColours(q)) > 0);
        }
    }
}

TEST_CASE("quiz export: a question and an answer file per question, named by what it asks, SVG and PDF keep the words, --matrix is refused") {
    const test::ScratchDir dir("quiz");
    ExportRequest request = quizRequest(FigureFormat::Png);
    request.stage = core::StageId::Mask;
    const std::vector<fs::path> written = exportFigures(causalRun(), request, dir.path(), false);
    REQUIRE(written.size() == 2);
    CHECK(written[0].filename() == "quiz-01-mask-question.png");
    CHECK(written[1].filename() == "quiz-01-mask-answer.png");
    const test::DecodedPng image = test::decodePngFile(written[1]);
    CHECK(image.width == kSlideWidth);
    CHECK(image.height == kSlideHeight);
    CHECK(image.text.at("attnviz.question") == "mask");
    CHECK(image.text.at("attnviz.revealed") == "true");

    request.format = FigureFormat::Svg;
    const std::vector<fs::path> svg = exportFigures(causalRun(), request, dir.path(), false);
    CHECK(fileText(svg[0]).find("Which cells of the scores") != std::string::npos);
    CHECK(fileText(svg[0]).find("The answer:") == std::string::npos);
    CHECK(fileText(svg[1]).find("The answer:") != std::string::npos);
    request.format = FigureFormat::Pdf;
    const std::vector<fs::path> pdf = exportFigures(causalRun(), request, dir.path(), false);
    CHECK(std::system(("pdftotext '" + pdf[1].string() + "' '" + (dir / "text.txt").string() + "'").c_str()) == 0);
    CHECK(fileText(dir / "text.txt").find("The answer:") != std::string::npos);

    ExportRequest matrix = quizRequest(FigureFormat::Png);
    matrix.matrix = core::TensorId::AttentionWeights;
    CHECK(test::exportRefusal(causalRun(), matrix, dir / "out").find("leave out --matrix") != std::string::npos);
    ExportRequest tokens = quizRequest(FigureFormat::Png);
    tokens.stage = core::StageId::Tokens;
    CHECK(test::exportRefusal(causalRun(), tokens, dir / "out").find("offers no question about stage tokens") != std::string::npos);
}

TEST_CASE("quiz slides: choices with nothing beside them (the mask's pictures, the shapes) fill the slide's width in two columns of cards") {
    for (core::QuestionKind kind : {core::QuestionKind::Mask, core::QuestionKind::Shape}) {
        CAPTURE(core::questionKey(kind));
        const core::Question question = quizQuestion(causalRun(), kind, 1, 0, 0);
        for (bool revealed : {false, true}) {
            const scene::QuestionLayout layout = quizLayout(question, revealed, {});
            const int width = kSlideWidth / kSlideZoom;
            REQUIRE(layout.choices.size() == 4u);
            int right = 0;
            for (const PixelRect& c : layout.choices) right = std::max(right, c.right());
            CHECK(right >= width * 9 / 10);  // no empty right column (the cards ended at 57 % of the width)
            CHECK(layout.choices[1].x > layout.choices[0].right());  // two columns
            CHECK(layout.choices[2].y > layout.choices[0].bottom());
            CHECK(layout.bottom <= kSlideHeight / kSlideZoom);
        }
    }
}
