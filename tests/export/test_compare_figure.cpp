// test_compare_figure.cpp — `export --kind compare`: two sentences side by side as one 16:9 slide, on the bundled
// model's minimal pair. The PNG is 1920 × 1080 at scale 1 and names the pair in its metadata; the A − B panel's cells
// are coloured by exactly colormap::sample(coolwarm, A − B, ±max|A − B|) of a difference computed here from the two
// sentences' own runs (not from the compare code); SVG and PDF carry the words; a missing --compare-with, a
// --compare-with of another kind and a --stage are refused with one sentence and no file. Its maps take 0.38 of the
// slide's height or more (issue #32 item 7).
#include "export/export_error.h"
#include "export/export_refusal.h"
#include "export/exporter.h"
#include "export/png_decode.h"
#include "io/model_library.h"
#include "io/scratch_dir.h"

#include "export/file_text.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace attnviz;
using namespace attnviz::exporting;
using attnviz::test::fileText;
namespace fs = std::filesystem;

namespace {

constexpr const char* kTired = "The animal didn't cross the street because it was too tired";
constexpr const char* kWide = "The animal didn't cross the street because it was too wide";

core::ModelRun bundledRun(const std::string& sentence, std::optional<std::string> compareWith) {
    static const std::shared_ptr<const core::TrainedModel> model = io::loadBundledModel();
    REQUIRE(model != nullptr);
    core::ModelSpec spec;
    spec.model = core::TrainedLayer{model, model->featuredLayer()};
    spec.sentences = {sentence};
    spec.attention.dModel = model->config().dModel;
    spec.attention.heads = model->config().heads;
    spec.compareWith = std::move(compareWith);
    return core::runModel(spec);
}

ExportRequest compareRequest(FigureFormat format) {
    ExportRequest request;
    request.kind = FigureKind::Compare;
    request.format = format;
    request.style.scale = 1;
    return request;
}

}  // namespace

TEST_CASE("compare slide: A, B and A − B of the minimal pair as one 16:9 slide, A − B's cells coloured by the difference") {
    const test::ScratchDir dir("compare-slide");
    const core::ModelRun run = bundledRun(kTired, std::string(kWide));
    const std::vector<fs::path> written = exportFigures(run, compareRequest(FigureFormat::Png), dir.path(), false);
    REQUIRE(written.size() == 1);
    CHECK(written.front().filename() == "compare-head0.png");
    const test::DecodedPng image = test::decodePngFile(written.front());
    CHECK(image.width == kSlideWidth);
    CHECK(image.height == kSlideHeight);
    CHECK(image.text.at("attnviz.kind") == "compare");
    CHECK(image.text.at("attnviz.compare_with") == "\"" + std::string(kWide) + "\"");

    // The difference of the two sentences' own runs, head 0, in double.
    const core::ModelRun a = bundledRun(kTired, std::nullopt), b = bundledRun(kWide, std::nullopt);
    const core::Matrix weightsA(a.trace[core::TensorId::AttentionWeights].slice(0, 0)), weightsB(b.trace[core::TensorId::AttentionWeights].slice(0, 0));
    const int length = static_cast<int>(weightsA.rows());
    REQUIRE(weightsB.rows() == length);
    double largest = 0.0;
    for (int r = 0; r < length; ++r) {
        for (int c = 0; c < length; ++c) largest = std::max(largest, std::fabs(static_cast<double>(weightsA(r, c)) - weightsB(r, c)));
    }
    ExportRequest plain = compareRequest(FigureFormat::Png);
    plain.style.cellValues = false;  // every cell's centre pixel its colour alone
    const Figure figure = drawPlannedFigure(run, planExport(run, plain).front(), plain.style);
    REQUIRE(figure.heatmaps.size() == 3);
    const HeatmapPlacement& difference = figure.heatmaps[2].where;
    REQUIRE(difference.rows == length);
    int checked = 0;
    for (int r = 0; r < length; ++r) {
        for (int c = 0; c < length; ++c) {
            const PixelRect cell = difference.cell(r, c);
            const float value = static_cast<float>(static_cast<double>(weightsA(r, c)) - weightsB(r, c));
            const colormap::Rgb8 expected = colormap::sample(colormap::Colormap::Coolwarm, value, static_cast<float>(-largest), static_cast<float>(largest));
            const Rgba8 centre = figure.image.pixel(cell.x + cell.width / 2, cell.y + cell.height / 2);  // the centre: clear of the outlines
            CAPTURE(r);
            CAPTURE(c);
            CHECK((std::abs(centre.r - expected.r) <= 1 && std::abs(centre.g - expected.g) <= 1 && std::abs(centre.b - expected.b) <= 1));
            ++checked;
        }
    }
    CHECK(checked == length * length);
    // Issue #32 item 7: the three maps, bound by the slide's width, take its height's room once their colorbars go
    // under them (colorbars beside them: 0.34 of the height).
    const double share = static_cast<double>(difference.rect.height) / kSlideHeight;
    MESSAGE("the maps take ", share, " of the slide's height");
    CHECK(share >= 0.38);

    const fs::path svg = exportFigures(run, compareRequest(FigureFormat::Svg), dir.path(), false).front();
    CHECK(fileText(svg).find("Largest change: the row of") != std::string::npos);
    const fs::path pdf = exportFigures(run, compareRequest(FigureFormat::Pdf), dir.path(), false).front();
    CHECK(std::system(("pdftotext '" + pdf.string() + "' '" + (dir / "text.txt").string() + "'").c_str()) == 0);
    CHECK(fileText(dir / "text.txt").find("Two sentences, one head") != std::string::npos);
}

TEST_CASE("compare slide: no second sentence, a second sentence for another kind, or a stage — one sentence, no file") {
    const test::ScratchDir dir("compare-refused");
    const auto refusal = [&](const core::ModelRun& run, const ExportRequest& request) { return test::exportRefusal(run, request, dir / "out"); };
    CHECK(refusal(bundledRun(kTired, std::nullopt), compareRequest(FigureFormat::Png)).find("add --compare-with") != std::string::npos);
    const core::ModelRun pair = bundledRun(kTired, std::string(kWide));
    ExportRequest slide = compareRequest(FigureFormat::Png);
    slide.kind = FigureKind::Slide;
    CHECK(refusal(pair, slide).find("--compare and --compare-with are for --kind compare") == 0);
    ExportRequest staged = compareRequest(FigureFormat::Png);
    staged.stage = core::StageId::Softmax;
    CHECK(refusal(pair, staged).find("leave out --stage and --matrix") != std::string::npos);
}

TEST_CASE("compare slide: a pasted 20,000-letter word in either sentence still makes the slide, the word cut to fit") {
    const test::ScratchDir dir("compare-long-word");
    const std::string word(20'000, 'G');  // one token label too: every piece of it is cut as the screen cuts a token
    // Both sentences end in it (their labels), or only A (the length warning names A's last tokens).
    for (const std::string& b : {std::string(kWide) + " " + word, std::string(kWide)}) {
        const core::ModelRun run = bundledRun(std::string(kTired) + " " + word, b);
        const std::vector<fs::path> written = exportFigures(run, compareRequest(FigureFormat::Svg), dir.path(), true);
        REQUIRE(written.size() == 1);
        const std::string svg = fileText(written.front());
        CHECK(svg.find(std::string(300, 'G')) == std::string::npos);  // no line or label holds the whole word
        CHECK(svg.find("A = \u201CThe animal") != std::string::npos);
        CHECK(svg.find("\u2026") != std::string::npos);
    }
}
