// test_vector_figures.cpp — SVG and PDF figures, checked by other programs than ours: every kind as SVG validates
// with xmllint and holds the token words as <text>; as PDF it opens (pdfinfo) and pdftotext finds the words; and
// the PNG, the SVG rasterised by rsvg-convert and the PDF rasterised by pdftoppm agree in colour at every cell
// centre of every heatmap within 2/255 (scripts/setup installs libxml2-utils, librsvg2-bin and poppler-utils).
// A slide of 22 tokens keeps every token's row and column label as <text>.
#include "export/export_error.h"
#include "export/exporter.h"
#include "export/png_decode.h"
#include "export/svg_painter.h"
#include "io/model_library.h"
#include "io/scratch_dir.h"

#include "export/file_text.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace attnviz;
using namespace attnviz::exporting;
using attnviz::test::fileText;

namespace {

const core::ModelRun& run() {
    static const core::ModelRun r = [] {
        core::ModelSpec spec;
        spec.sentences = {"the cat sat down"};
        spec.attention.dModel = 8;
        spec.attention.heads = 2;
        spec.attention.mask = core::MaskKind::Causal;
        spec.seeded()->seed = 7;
        return core::runModel(spec);
    }();
    return r;
}

// Runs a shell command; its stdout goes to `output` when given. Returns the exit status.
int shell(const std::string& command, const std::filesystem::path& output = "/dev/null") {
    const int status = std::system((command + " > '" + output.string() + "' 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

ExportRequest requestFor(FigureKind kind, FigureFormat format) {
    ExportRequest request;
    request.stage = kind == FigureKind::Poster || kind == FigureKind::Lines ? std::nullopt : std::optional(core::StageId::Softmax);
    request.kind = kind;
    request.format = format;
    request.style.scale = 1;
    return request;
}

constexpr FigureKind kEveryKind[] = {FigureKind::Matrix, FigureKind::Stage, FigureKind::Heads, FigureKind::Poster, FigureKind::Slide,
                                     FigureKind::Lines};

}  // namespace

TEST_CASE("vector figures: every kind as SVG validates with xmllint and keeps the token words as <text>") {
    const test::ScratchDir dir("svg");
    for (FigureKind kind : kEveryKind) {
        for (const std::filesystem::path& file : exportFigures(run(), requestFor(kind, FigureFormat::Svg), dir.path(), true)) {
            CAPTURE(file.string());
            CHECK(file.extension() == ".svg");
            CHECK(shell("xmllint --noout '" + file.string() + "'") == 0);
            const std::string svg = fileText(file);
            CHECK(svg.find("<text") != std::string::npos);
            for (const char* word : {">the<", ">cat<", ">sat<", ">down<"}) CHECK_MESSAGE(svg.find(word) != std::string::npos, word);
        }
    }
}

TEST_CASE("vector figures: every kind as PDF opens in pdfinfo and pdftotext finds the token words") {
    const test::ScratchDir dir("pdf");
    for (FigureKind kind : kEveryKind) {
        for (const std::filesystem::path& file : exportFigures(run(), requestFor(kind, FigureFormat::Pdf), dir.path(), true)) {
            CAPTURE(file.string());
            CHECK(file.extension() == ".pdf");
            CHECK(shell("pdfinfo '" + file.string() + "'", dir.path() / "info.txt") == 0);
            const std::string info = fileText(dir.path() / "info.txt");
            const std::size_t pages = info.find("Pages:");
            REQUIRE(pages != std::string::npos);
            CHECK(info.substr(pages, info.find('\n', pages) - pages).ends_with(" 1"));
            REQUIRE(shell("pdftotext '" + file.string() + "' -", dir.path() / "text.txt") == 0);
            const std::string text = fileText(dir.path() / "text.txt");
            for (const char* word : {"the", "cat", "sat", "down"}) CHECK_MESSAGE(text.find(word) != std::string::npos, word);
        }
    }
}

TEST_CASE("vector figures: a slide's PDF page is 13.33 x 7.5 inches at every scale, as presentation software makes slides") {
    const test::ScratchDir dir("slide-pdf");
    for (int scale : {1, 2, 4}) {
        CAPTURE(scale);
        ExportRequest request = requestFor(FigureKind::Slide, FigureFormat::Pdf);
        request.style.scale = scale;
        for (const std::filesystem::path& file : exportFigures(run(), request, dir.path(), true)) {
            REQUIRE(shell("pdfinfo '" + file.string() + "'", dir.path() / "info.txt") == 0);
            const std::string info = fileText(dir.path() / "info.txt");
            CHECK(info.find(" 960 x 540 pts") != std::string::npos);  // scale 2: 2880 x 1620 pts, 40 inches wide
        }
    }
}

const core::ModelRun& wideRun() {
    static const core::ModelRun r = [] {
        core::ModelSpec spec;
        spec.sentences = {"the cat sat down"};
        spec.attention.dModel = 96;  // W^Q: 96 × 96 = 9216 cells, written as an embedded image in SVG
        spec.attention.heads = 2;
        return core::runModel(spec);
    }();
    return r;
}

TEST_CASE("vector figures: the PNG, the rasterised SVG and the rasterised PDF agree at every cell within 2/255") {
    const test::ScratchDir dir("colours");
    struct Case {
        const core::ModelRun& run;
        FigureKind kind;
        core::StageId stage;
    };
    for (const Case& c : {Case{run(), FigureKind::Stage, core::StageId::Softmax}, Case{run(), FigureKind::Heads, core::StageId::Softmax},
                          Case{wideRun(), FigureKind::Stage, core::StageId::Project}}) {
        const core::ModelRun& run = c.run;
        ExportRequest request = requestFor(c.kind, FigureFormat::Png);
        request.stage = c.stage;
        const PlannedFigure planned = planExport(run, request).front();
        const Figure figure = drawPlannedFigure(run, planned, request.style);
        REQUIRE_FALSE(figure.heatmaps.empty());
        std::vector<test::DecodedPng> images;
        for (FigureFormat format : {FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf}) {
            PlannedFigure inFormat = planned;
            inFormat.format = format;
            const std::filesystem::path file = dir.path() / ("figure" + std::to_string(static_cast<int>(format)));
            writeFigure(file, run, inFormat, figure, request.style);
            const std::filesystem::path raster = dir.path() / ("raster" + std::to_string(static_cast<int>(format)) + ".png");
            if (format == FigureFormat::Png) std::filesystem::copy_file(file, raster, std::filesystem::copy_options::overwrite_existing);
            if (format == FigureFormat::Svg && &run == &wideRun()) CHECK(fileText(file).find("<image") != std::string::npos);
            if (format == FigureFormat::Svg) REQUIRE(shell("rsvg-convert -o '" + raster.string() + "' '" + file.string() + "'") == 0);
            if (format == FigureFormat::Pdf) {
                REQUIRE(shell("pdftoppm -r 96 -png -singlefile '" + file.string() + "' '" + (dir.path() / "raster2").string() + "'") == 0);
            }
            images.push_back(test::decodePngFile(raster));
            CHECK(images.back().width == figure.image.width());
            CHECK(images.back().height == figure.image.height());
        }
        int cells = 0;
        for (const PlacedHeatmap& placed : figure.heatmaps) {
            for (int r = 0; r < placed.where.rows; ++r) {
                for (int c = 0; c < placed.where.cols; ++c) {
                    const PixelRect cell = placed.where.cell(r, c);
                    // A large cell near its top-left corner (the centre may hold the cell's value, whose anti-aliasing
                    // differs), between two lines of a masked cell's hatching (spacing 5, thickness 1, at scale 1); a
                    // small one (no value fits) at its centre, away from edges a rasteriser may blend.
                    const bool large = cell.width >= 10 && cell.height >= 10;
                    const int y = cell.y + (large ? cell.height / 5 : cell.height / 2);
                    int x = cell.x + (large ? cell.width / 5 : cell.width / 2);
                    while (large && (x + y) % 5 != 3) ++x;
                    const Rgba8 png = images[0].pixel(x, y);
                    for (std::size_t other = 1; other < images.size(); ++other) {
                        const Rgba8 v = images[other].pixel(x, y);
                        CAPTURE(other);
                        CAPTURE(x);
                        CAPTURE(y);
                        CHECK(std::abs(v.r - png.r) <= 2);
                        CHECK(std::abs(v.g - png.g) <= 2);
                        CHECK(std::abs(v.b - png.b) <= 2);
                    }
                    ++cells;
                }
            }
        }
        MESSAGE(cells, " cells compared");
    }
}

TEST_CASE("vector figures: SVG text is escaped XML and a quarter turn for column labels") {
    Drawing drawing;
    drawing.width = 20;
    drawing.height = 10;
    drawing.primitives.emplace_back(Drawing::Text{2, 8, "a<b & \"c\"", 12.0f, FontFace::Bold, {}, true});
    const std::string svg = paintSvg(drawing, "t & t");
    CHECK(svg.find(">a&lt;b &amp; &quot;c&quot;</text>") != std::string::npos);
    CHECK(svg.find("rotate(-90 2 8)") != std::string::npos);
    CHECK(svg.find("font-weight=\"bold\"") != std::string::npos);
    CHECK(svg.find("<title>t &amp; t</title>") != std::string::npos);
}

TEST_CASE("vector figures: --format takes png, svg or pdf and names the files by it — anything else is one clear sentence") {
    CHECK(parseFormat("png") == FigureFormat::Png);
    CHECK(parseFormat("svg") == FigureFormat::Svg);
    CHECK(parseFormat("pdf") == FigureFormat::Pdf);
    CHECK_THROWS_WITH_AS(parseFormat("gif"), "unknown --format 'gif'; use png, svg or pdf.", ExportError);
    for (const PlannedFigure& planned : planExport(run(), requestFor(FigureKind::Stage, FigureFormat::Pdf))) {
        CHECK(planned.fileName.ends_with(".pdf"));
    }
}

TEST_CASE("lines figure: every label of a 40-token sentence, opacity = weight, the focused query bold on top") {
    core::ModelSpec spec;
    std::string sentence = "it";
    for (int i = 1; i < 40; ++i) sentence += " w" + std::to_string(i);
    spec.sentences = {sentence};
    spec.attention.dModel = 16;
    spec.attention.heads = 2;
    const core::ModelRun wide = core::runModel(spec);
    REQUIRE(wide.tokens.front().size() == 40);
    FigureStyle style;
    style.scale = 1;
    const Figure figure = drawLinesFigure(wide, 1, 0, style);
    std::map<std::string, int> labels;
    std::vector<Drawing::Line> lines;
    const Drawing::Text* focus = nullptr;
    for (const Drawing::Primitive& p : figure.image.drawing().primitives) {
        if (const auto* t = std::get_if<Drawing::Text>(&p)) {
            ++labels[t->utf8];
            if (t->utf8 == "it" && t->face == FontFace::Bold) focus = t;
            if (t->utf8 == "it" || (t->utf8.size() <= 3 && t->utf8.starts_with("w"))) CHECK(t->size >= 11.0f);  // a token label
        }
        if (const auto* l = std::get_if<Drawing::Line>(&p)) lines.push_back(*l);
    }
    for (const std::string& token : wide.tokens.front()) CHECK_MESSAGE(labels[token] == 2, token);  // left and right
    REQUIRE(focus != nullptr);
    const core::Matrix a = wide.trace[core::TensorId::AttentionWeights].slice(0, 1);
    int drawn = 0;
    for (int q = 0; q < a.rows(); ++q) {
        for (int k = 0; k < a.cols(); ++k) drawn += a(q, k) >= 0.02f ? 1 : 0;
    }
    CHECK(static_cast<int>(lines.size()) == drawn);
    // The last lines drawn are the focused query's (row 0, "it"), thicker, with alpha = its weights.
    const float firstRowY = lines.back().y0;
    for (auto l = lines.rbegin(); l != lines.rend() && l->y0 == firstRowY; ++l) CHECK(l->width > 2.0f);
    float strongest = 0.0f;
    for (int k = 0; k < a.cols(); ++k) strongest = std::max(strongest, a(0, k));
    std::uint8_t strongestAlpha = 0;
    for (const Drawing::Line& l : lines) {
        if (l.y0 == firstRowY) strongestAlpha = std::max(strongestAlpha, l.color.a);
    }
    CHECK(strongestAlpha == static_cast<std::uint8_t>(std::lround(strongest * 255.0f)));
}

// Issue #32: a slide of 20+ tokens drew every other label (the pronoun "er" had none): a token axis's labels now
// shrink to their floor before any is skipped. Main: 11 of the 22 row and column labels of S_0 and A_0 drawn.
TEST_CASE("vector figures: a slide of 22 tokens keeps every token's row and column label, the pronoun among them") {
    core::ModelSpec spec;
    const auto model = io::loadBundledModel();
    spec.model = core::TrainedLayer{model};
    spec.sentences = {"Der Hund lief nicht über die Straße, weil er zu müde war."};
    spec.attention.dModel = model->config().dModel;
    spec.attention.heads = model->config().heads;
    const core::ModelRun bert = core::runModel(spec);
    const std::vector<std::string>& tokens = bert.tokens.front();
    REQUIRE(tokens.size() >= 20);
    REQUIRE(std::count(tokens.begin(), tokens.end(), "er") == 1);
    const test::ScratchDir dir("slide-labels");
    const std::vector<std::filesystem::path> files = exportFigures(bert, requestFor(FigureKind::Slide, FigureFormat::Svg), dir.path(), true);
    REQUIRE(files.size() == 1);
    const std::string svg = fileText(files.front());
    const auto drawn = [&](const std::string& text) {
        int count = 0;
        for (std::size_t at = svg.find(">" + text + "<"); at != std::string::npos; at = svg.find(">" + text + "<", at + 1)) ++count;
        return count;
    };
    for (const std::string& token : tokens) {
        CAPTURE(token);
        const auto times = static_cast<int>(std::count(tokens.begin(), tokens.end(), token));
        CHECK(drawn(token) >= 4 * times);  // S_0's and A_0's rows and columns
    }
}
