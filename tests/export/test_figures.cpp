// test_figures.cpp — whole figures: exact cell colors in the written PNG, sizes that follow the options, labels
// that are there, a golden image, the size limit, and every kind over unusual runs (cross-attention, batches
// with padding, NaN rows, one head, paper size, long sentences, every background).
//
// Golden image: tests/export/golden/mask-stage-tiny.png is the mask stage of a tiny causal model at scale 1.
// It is compared with an RMS tolerance (font rasterizing may differ by a few levels between stb versions; a
// moved label or a wrong color does not pass). On failure the test writes golden-actual-*.png and an amplified
// golden-diff-*.png next to the test binary (build/<dir>/tests/export/). When a change to the figure is
// intended, look at golden-actual-*.png, then regenerate with:
//     ATTNVIZ_UPDATE_GOLDEN=1 build/<dir>/tests/export/test_export -tc="figure: golden*"
// and commit the new file. A change to core's numbers (weights, embeddings) also needs a regeneration.
#include "colormap/colormap.h"
#include "core/display_text.h"
#include "export/export_error.h"
#include "export/blocks.h"
#include "export/exporter.h"
#include "export/notation.h"
#include "export/panel_content.h"
#include "export/png_decode.h"
#include "export/scene_figure.h"
#include "io/scratch_dir.h"
#include "io/model_folder.h"
#include "io/model_library.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>

using namespace attnviz;
using namespace attnviz::exporting;

namespace {

core::ModelSpec tinyCausalSpec() {
    core::ModelSpec spec;
    spec.sentences = {"the cat sat down"};
    spec.attention.dModel = 8;
    spec.attention.heads = 2;
    spec.attention.mask = core::MaskKind::Causal;
    spec.seeded()->seed = 7;
    return spec;
}

const core::ModelRun& tinyRun() {
    static const core::ModelRun run = core::runModel(tinyCausalSpec());
    return run;
}

const PlacedHeatmap& heatmapOf(const Figure& figure, core::TensorId id) {
    for (const PlacedHeatmap& h : figure.heatmaps) {
        if (h.tensor == id) return h;
    }
    throw std::runtime_error("no heatmap for that tensor");
}

// Every stage, matrix and heads figure and the poster, for the last head (head 1 when there are more).
std::vector<Figure> everyFigure(const core::ModelRun& run, const FigureStyle& style) {
    const int head = std::min(1, run.dims.heads - 1);
    std::vector<Figure> figures;
    for (const core::Stage& s : core::stages()) {
        figures.push_back(drawStageFigure(run, s.id, head, 0, style));
        for (core::TensorId id : s.shows) {
            if (run.trace.has(id)) figures.push_back(drawMatrixFigure(run, s.id, id, head, 0, style));
        }
        if (const auto id = core::perHeadTensor(s.id)) figures.push_back(drawHeadsFigure(run, s.id, *id, 0, style));
    }
    figures.push_back(drawPosterFigure(run, head, 0, style));
    return figures;
}

double rmsDifference(const test::DecodedPng& a, const test::DecodedPng& b) {
    double sum = 0.0;
    for (std::size_t i = 0; i < a.rgba.size(); ++i) {
        const double d = static_cast<double>(a.rgba[i]) - static_cast<double>(b.rgba[i]);
        sum += d * d;
    }
    return std::sqrt(sum / static_cast<double>(a.rgba.size()));
}

// |a − b| per channel, times 8, opaque: where the figures differ shows bright on black.
Canvas differenceImage(const test::DecodedPng& a, const test::DecodedPng& b) {
    Canvas diff(a.width, a.height, {0, 0, 0, 255});
    for (int y = 0; y < a.height; ++y) {
        for (int x = 0; x < a.width; ++x) {
            const Rgba8 p = a.pixel(x, y), q = b.pixel(x, y);
            const auto amplify = [](int u, int v) { return static_cast<std::uint8_t>(std::min(255, 8 * std::abs(u - v))); };
            diff.fillRect({x, y, 1, 1}, {amplify(p.r, q.r), amplify(p.g, q.g), amplify(p.b, q.b), 255});
        }
    }
    return diff;
}

}  // namespace

TEST_CASE("figure: the centre of every unmasked cell in the written PNG is exactly the colormap's color") {
    core::ModelSpec spec;
    spec.attention.mask = core::MaskKind::Causal;
    const core::ModelRun run = core::runModel(spec);
    ExportRequest request;
    request.stage = core::StageId::Softmax;
    request.matrix = core::TensorId::AttentionWeights;
    request.head = 3;
    request.style.cellValues = false;
    test::ScratchDir dir("export-figure");
    const std::vector<std::filesystem::path> written = exportFigures(run, request, dir.path(), false);
    REQUIRE(written.size() == 1);
    const test::DecodedPng png = test::decodePngFile(written.front());

    // The same figure drawn again tells where the heatmap is (drawing is deterministic).
    const Figure figure = drawMatrixFigure(run, core::StageId::Softmax, core::TensorId::AttentionWeights, 3, 0, request.style);
    REQUIRE(png.width == figure.image.width());
    REQUIRE(png.height == figure.image.height());
    const HeatmapPlacement& where = heatmapOf(figure, core::TensorId::AttentionWeights).where;
    const core::MatrixView weights = run.trace[core::TensorId::AttentionWeights].slice(0, 3);
    REQUIRE(where.rows == weights.rows());
    int checked = 0;
    for (int r = 0; r < where.rows; ++r) {
        for (int c = 0; c <= r; ++c) {  // causal: keys up to the query are unmasked
            const PixelRect cell = where.cell(r, c);
            const Rgba8 centre = png.pixel(cell.x + cell.width / 2, cell.y + cell.height / 2);
            const colormap::Rgb8 expected = colormap::sample(colormap::Colormap::Viridis, weights(r, c), 0.0f, 1.0f);
            CHECK(centre == opaque(expected));
            ++checked;
        }
    }
    CHECK(checked == where.rows * (where.rows + 1) / 2);
}

TEST_CASE("figure: scale 2 is exactly twice scale 1, for every figure") {
    FigureStyle one, two;
    one.scale = 1;
    two.scale = 2;
    const std::vector<Figure> small = everyFigure(tinyRun(), one);
    const std::vector<Figure> large = everyFigure(tinyRun(), two);
    REQUIRE(small.size() == large.size());
    for (std::size_t i = 0; i < small.size(); ++i) {
        CAPTURE(small[i].title);
        CHECK(large[i].image.width() == 2 * small[i].image.width());
        CHECK(large[i].image.height() == 2 * small[i].image.height());
        REQUIRE(large[i].heatmaps.size() == small[i].heatmaps.size());
        for (std::size_t h = 0; h < small[i].heatmaps.size(); ++h) {
            CHECK(large[i].heatmaps[h].where.rect.x == 2 * small[i].heatmaps[h].where.rect.x);
            CHECK(large[i].heatmaps[h].where.cellWidth == 2 * small[i].heatmaps[h].where.cellWidth);
        }
    }
}

TEST_CASE("figure: the cell size option sets every cell, on every axis") {
    FigureStyle style;
    style.scale = 3;
    style.cellSize = 12;
    const Figure figure = drawStageFigure(tinyRun(), core::StageId::Project, 0, 0, style);
    REQUIRE(figure.heatmaps.size() == 7);  // X once, beside W^Q, W^K and W^V above Q, K and V
    for (const PlacedHeatmap& h : figure.heatmaps) {
        CHECK(h.where.cellWidth == 36);
        CHECK(h.where.cellHeight == 36);
        CHECK(h.where.rect.width == h.where.cols * 36);
    }
    const PlacedHeatmap& x = heatmapOf(figure, core::TensorId::X);
    CHECK(x.where.rows == 4);
    CHECK(x.where.cols == 8);
}

TEST_CASE("figure: a stage's maps keep the layout's rules: one X, square weights above their products, labelled rows") {
    const Figure figure = drawStageFigure(core::runModel(core::ModelSpec{}), core::StageId::Project, 0, 0, FigureStyle{});
    const PlacedHeatmap& x = heatmapOf(figure, core::TensorId::X);
    const PlacedHeatmap& wq = heatmapOf(figure, core::TensorId::WQ);
    const PlacedHeatmap& q = heatmapOf(figure, core::TensorId::Q);
    CHECK(std::count_if(figure.heatmaps.begin(), figure.heatmaps.end(), [](const PlacedHeatmap& h) { return h.tensor == core::TensorId::X; }) == 1);
    CHECK(wq.where.cellWidth == wq.where.cellHeight);
    CHECK(wq.where.rect.x == q.where.rect.x);           // W^Q above Q, column over column
    CHECK(wq.where.cellWidth == q.where.cellWidth);
    CHECK(wq.where.rect.bottom() < q.where.rect.y);
    CHECK(x.where.rect.y == q.where.rect.y);            // X beside Q, row beside row
    CHECK(x.where.cellHeight == q.where.cellHeight);
    CHECK(x.where.cellHeight >= labelledCellSize() * FigureStyle{}.scale);  // every token row keeps its label
}

TEST_CASE("figure: stage and slide figures draw their stage's scene, and only its maps") {
    const core::ModelRun run = core::runModel(core::ModelSpec{});
    FigureStyle style;
    style.scale = 1;
    for (const core::Stage& s : core::stages()) {
        const std::optional<scene::Scene> scene = exportedScene(run.trace, s.id, 2);
        if (!scene) continue;  // the tokens stage: boxes, no maps (test_token_figures.cpp)
        const std::vector<MatrixRequest> shown = sceneRequests(*scene);
        for (const Figure& figure : {drawStageFigure(run, s.id, 2, 0, style), drawSlideFigure(run, s.id, 2, 0, style)}) {
            CAPTURE(figure.title);
            CHECK_FALSE(figure.heatmaps.empty());
            for (const PlacedHeatmap& h : figure.heatmaps) {
                const bool inScene = std::any_of(shown.begin(), shown.end(), [&](const MatrixRequest& r) {
                    return r.tensor == h.tensor && r.head == h.head && r.transposed == h.transposed;
                });
                CHECK_MESSAGE(inScene, core::tensorInfo(h.tensor).key);
            }
        }
    }
}

TEST_CASE("figure: the bundled model's stage and slide figures outline \"it\" under the coreference head, as the screen does") {
    core::ModelSpec spec;
    const auto model = io::loadBundledModel();
    const core::NamedHead& coreference = *model->featuredHead();
    REQUIRE(coreference.name.find("coreference") != std::string::npos);
    spec.model = core::TrainedLayer{model};
    spec.sentences = {std::string(core::kDefaultSentence)};
    spec.attention.dModel = model->config().dModel;
    spec.attention.heads = model->config().heads;
    spec.trained()->layer = coreference.layer;
    const core::ModelRun run = core::runModel(spec);
    const auto& tokens = run.queryTokens[0];
    const int it = static_cast<int>(std::find(tokens.begin(), tokens.end(), "it") - tokens.begin());
    REQUIRE(it < static_cast<int>(tokens.size()));
    REQUIRE(it != run.trace.queryLengths[0] - 1);  // not the row a figure without a followed query would pick
    const std::optional<scene::Scene> scene = exportedScene(run, core::StageId::Softmax, coreference.head, 0);
    REQUIRE(scene);
    FigureStyle style;
    style.scale = 1;
    const Rgba8 orange{215, 80, 0, 255};
    for (const Figure& figure : {drawStageFigure(run, core::StageId::Softmax, coreference.head, 0, style),
                                 drawSlideFigure(run, core::StageId::Softmax, coreference.head, 0, style)}) {
        CAPTURE(figure.title);
        const PixelRect row = heatmapOf(figure, core::TensorId::AttentionWeights).where.cell(it, 0);
        CHECK(figure.image.pixel(row.x, row.y) == orange);
        CHECK(figure.image.pixel(row.x, row.y - row.height) != orange);  // the row above is not outlined
    }
    // Another head, not named for coreference, follows the last token.
    const int other = (coreference.head + 1) % run.trace.dims.heads;
    const Figure last = drawStageFigure(run, core::StageId::Softmax, other, 0, style);
    const PixelRect row = heatmapOf(last, core::TensorId::AttentionWeights).where.cell(run.trace.queryLengths[0] - 1, 0);
    CHECK(last.image.pixel(row.x, row.y) == orange);
}

TEST_CASE("figure: the label areas around a heatmap are not blank") {
    FigureStyle style;
    style.scale = 1;
    const Figure figure = drawMatrixFigure(tinyRun(), core::StageId::Softmax, core::TensorId::AttentionWeights, 0, 0, style);
    const test::DecodedPng png = test::decodePngBytes(encodePng(figure.image, {}));
    const PixelRect& h = heatmapOf(figure, core::TensorId::AttentionWeights).where.rect;
    const Rgba8 background = themeFor(Background::Light).background;
    const auto inkIn = [&](PixelRect area) {
        int ink = 0;
        for (int y = area.y; y < area.bottom(); ++y) {
            for (int x = area.x; x < area.right(); ++x) ink += png.pixel(x, y) == background ? 0 : 1;
        }
        return ink;
    };
    CHECK(inkIn({0, h.y, h.x - 2, h.height}) > 50);                             // token labels on rows
    CHECK(inkIn({h.x, h.y - 40, h.width, 30}) > 50);                            // token labels on columns
    CHECK(inkIn({h.right() + 2, h.y, png.width - h.right() - 2, h.height}) > 200);  // colorbar and ticks
    CHECK(inkIn({0, 0, png.width, 40}) > 100);                                  // context line and title
    CHECK(inkIn({h.x, h.bottom() + 2, h.width, png.height - h.bottom() - 2}) > 20);  // masked legend
}

TEST_CASE("figure: golden mask stage of a tiny causal model, within an RMS tolerance") {
    constexpr double kTolerance = 1.0;  // 0–255 levels, over every channel of every pixel
    const std::filesystem::path golden =
        std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/export/golden/mask-stage-tiny.png";
    FigureStyle style;
    style.scale = 1;
    const std::string actualBytes = encodePng(drawStageFigure(tinyRun(), core::StageId::Mask, 1, 0, style).image, {});
    if (std::getenv("ATTNVIZ_UPDATE_GOLDEN") != nullptr) {
        std::ofstream(golden, std::ios::binary) << actualBytes;
        MESSAGE("golden image rewritten: " << golden.string());
        return;
    }
    REQUIRE_MESSAGE(std::filesystem::exists(golden), "missing " << golden.string() << " (see this file's header)");
    const test::DecodedPng expected = test::decodePngFile(golden);
    const test::DecodedPng actual = test::decodePngBytes(actualBytes);
    const bool sameSize = expected.width == actual.width && expected.height == actual.height;
    const double rms = sameSize ? rmsDifference(expected, actual) : 255.0;
    if (!sameSize || rms > kTolerance) {
        std::ofstream("golden-actual-mask-stage-tiny.png", std::ios::binary) << actualBytes;
        if (sameSize) writePng("golden-diff-mask-stage-tiny.png", differenceImage(expected, actual), {});
        MESSAGE("wrote golden-actual-mask-stage-tiny.png" << std::string(sameSize ? " and golden-diff-mask-stage-tiny.png" : "")
                << " in " << std::filesystem::current_path().string());
    }
    CHECK_MESSAGE(sameSize, "golden is " << expected.width << "x" << expected.height << ", actual " << actual.width
                                         << "x" << actual.height);
    CHECK_MESSAGE(rms <= kTolerance, "RMS difference " << rms);
}

TEST_CASE("figure: a figure over the size limit is a clear ExportError, not an allocation failure") {
    FigureStyle style;
    style.scale = 4;
    style.cellSize = 96;
    core::ModelSpec spec;
    spec.attention.dModel = 512;
    const core::ModelRun run = core::runModel(spec);
    try {
        drawMatrixFigure(run, core::StageId::Project, core::TensorId::WQ, 0, 0, style);
        FAIL("expected ExportError");
    } catch (const ExportError& error) {
        const std::string message = error.what();
        CHECK(message.find("pixels") != std::string::npos);
        CHECK(message.find("--scale") != std::string::npos);
    }
}

TEST_CASE("figure: a scale or cell size out of range is an ExportError naming the range") {
    FigureStyle style;
    style.cellSize = 200;
    CHECK_THROWS_WITH_AS(drawStageFigure(tinyRun(), core::StageId::Scores, 0, 0, style),
                         doctest::Contains("1-96"), ExportError);
    style = {};
    style.scale = 0;
    CHECK_THROWS_WITH_AS(drawPosterFigure(tinyRun(), 0, 0, style), doctest::Contains("1-4"), ExportError);
}

TEST_CASE("figure: every kind draws for unusual runs") {
    std::vector<std::pair<std::string, core::ModelSpec>> specs;
    {
        core::ModelSpec cross;
        cross.sentences = {"the cat sleeps"};
        cross.seeded()->decoderSentences = {"le chat dort bien"};
        specs.emplace_back("cross-attention", cross);
    }
    {
        core::ModelSpec nanRows;  // padded query rows fully masked with −inf, softmax as PyTorch: NaN rows
        nanRows.sentences = {"a much longer first sentence here", "short one"};
        nanRows.attention.mask = core::MaskKind::Both;
        nanRows.attention.maskPaddedQueries = true;
        nanRows.attention.fill = core::MaskFill::MinusInfinity;
        nanRows.attention.softmax = core::SoftmaxMode::PyTorch;
        specs.emplace_back("batch with NaN rows", nanRows);
    }
    {
        core::ModelSpec oneHead;
        oneHead.attention.dModel = 16;
        oneHead.attention.heads = 1;
        oneHead.attention.scale = 0.5f;
        specs.emplace_back("one head, custom scale", oneHead);
    }
    {
        core::ModelSpec longSentence;
        std::string text;
        for (int i = 0; i < 60; ++i) text += "word" + std::to_string(i) + " ";
        longSentence.sentences = {text + "\u00FCberl\u00E4nge \u6F22\u5B57 \u03B1\u03B2"};
        longSentence.tokenLimit = 80;
        specs.emplace_back("long sentence, CJK fallback", longSentence);
    }
    for (const auto& [name, spec] : specs) {
        CAPTURE(name);
        const core::ModelRun run = core::runModel(spec);
        for (Background background : {Background::Light, Background::Dark, Background::Transparent}) {
            FigureStyle style;
            style.scale = 1;
            style.background = background;
            if (background == Background::Dark) style.colormap = colormap::Colormap::Magma;
            for (int batch = 0; batch < run.trace.batch; ++batch) {
                CHECK_NOTHROW(drawStageFigure(run, core::StageId::Softmax, 0, batch, style));
            }
            for (const Figure& figure : everyFigure(run, style)) {
                CHECK(figure.image.width() > 100);
                CHECK(figure.image.height() > 100);
                CHECK(figure.image.isOpaque() == (background != Background::Transparent));
            }
        }
    }
}

TEST_CASE("figure: a 20,000-letter token is labelled as the screen labels it (core::labelText), and the figure draws") {
    const std::string word(20'000, 'a');
    core::ModelSpec spec = tinyCausalSpec();
    spec.sentences = {"the " + word + " sat"};
    const core::ModelRun run = core::runModel(spec);
    REQUIRE(run.tokens.at(0).at(1) == word);
    const PanelContent content = panelContent(run, {core::TensorId::AttentionWeights, 0, false}, 0, FigureStyle{}, std::nullopt, true);
    REQUIRE(content.rows.labels.size() == 3);
    CHECK(content.rows.labels[1] == core::labelText(word));  // 48 letters, then …
    CHECK(content.cols.labels[1] == core::labelText(word));
    CHECK(content.rows.labels[0] == "the");
    const Figure figure = drawMatrixFigure(run, core::StageId::Softmax, core::TensorId::AttentionWeights, 0, 0, FigureStyle{});
    CHECK(heatmapOf(figure, core::TensorId::AttentionWeights).tensor == core::TensorId::AttentionWeights);
}

TEST_CASE("figure: NaN weights of fully masked rows show in the NaN color") {
    core::ModelSpec spec;
    spec.sentences = {"one two three four", "five"};
    spec.attention.mask = core::MaskKind::Padding;
    spec.attention.maskPaddedQueries = true;
    spec.attention.fill = core::MaskFill::MinusInfinity;
    spec.attention.softmax = core::SoftmaxMode::PyTorch;
    const core::ModelRun run = core::runModel(spec);
    FigureStyle style;
    style.scale = 1;
    const Figure figure = drawMatrixFigure(run, core::StageId::Softmax, core::TensorId::AttentionWeights, 0, 1, style);
    const HeatmapPlacement& where = heatmapOf(figure, core::TensorId::AttentionWeights).where;
    REQUIRE(std::isnan(run.trace[core::TensorId::AttentionWeights].slice(1, 0)(3, 0)));
    const PixelRect cell = where.cell(3, 0);  // a padded query row of sentence 1: every key masked
    int nanPixels = 0;
    for (int y = cell.y; y < cell.bottom(); ++y) {
        for (int x = cell.x; x < cell.right(); ++x) nanPixels += figure.image.pixel(x, y) == opaque(colormap::kNanColor);
    }
    CHECK(nanPixels > cell.width * cell.height / 2);  // the rest is hatching: the row is masked too
}

TEST_CASE("slide: every stage is 16:9, 1920 x 1080 at scale 1 and twice that at scale 2, with X once") {
    core::ModelSpec spec;  // the default seeded layer: d_model 64, 8 heads, the 13-token sentence
    const core::ModelRun run = core::runModel(spec);
    for (const core::Stage& s : core::stages()) {
        FigureStyle style;
        style.scale = 1;
        const Figure slide = drawSlideFigure(run, s.id, 0, 0, style);
        CHECK_MESSAGE(slide.image.width() == 1920, s.key);
        CHECK_MESSAGE(slide.image.height() == 1080, s.key);
        const auto xs = std::count_if(slide.heatmaps.begin(), slide.heatmaps.end(), [](const PlacedHeatmap& h) { return h.tensor == core::TensorId::X; });
        CHECK_MESSAGE(xs <= 1, s.key, " repeats X");
        for (const PlacedHeatmap& h : slide.heatmaps) {  // inside the slide's margins
            CHECK(h.where.rect.x >= 0);
            CHECK(h.where.rect.x + h.where.rect.width <= 1920);
            CHECK(h.where.rect.y + h.where.rect.height <= 1080);
        }
    }
    FigureStyle twice;
    twice.scale = 2;
    const Figure big = drawSlideFigure(run, core::StageId::Softmax, 0, 0, twice);
    CHECK(big.image.width() == 3840);
    CHECK(big.image.height() == 2160);
}

// The share of a slide's height its tallest map's cells take.
double tallestMapShare(const Figure& slide) {
    int tallest = 0;
    for (const PlacedHeatmap& h : slide.heatmaps) tallest = std::max(tallest, h.where.rect.height);
    return static_cast<double>(tallest) / slide.image.height();
}

// Issue #32 item 7: a slide's maps filled a third of its height (the bundled BERT: 0.40 at 15 and 22 tokens) under
// two-line map titles, 28-pixel gaps and colorbars beside maps the slide's width bound. Now one-line map titles
// ("A_0  l × l = 22 × 22"), 10-pixel gaps, colorbars under the maps when that gives them larger cells, and the
// formula beside the heading when the two fit one line (the seeded layer's "Stage 7 · Softmax — head 0 of 8").
TEST_CASE("slide: the maps use the slide's height (the bundled BERT's softmax at 15 and 22 tokens, the seeded layer's products)") {
    const auto model = io::loadBundledModel();
    FigureStyle style;
    style.scale = 1;
    for (const char* sentence : {"The animal didn't cross the street because it was too tired",
                                 "Der Hund lief nicht \u00FCber die Stra\u00DFe, weil er zu m\u00FCde war."}) {
        core::ModelSpec spec;
        spec.model = core::TrainedLayer{model};
        spec.sentences = {sentence};
        spec.attention.dModel = model->config().dModel;
        spec.attention.heads = model->config().heads;
        const core::ModelRun bert = core::runModel(spec);
        const double share = tallestMapShare(drawSlideFigure(bert, core::StageId::Softmax, 0, 0, style));
        MESSAGE(std::string(sentence), ": the maps take ", share, " of the slide's height");
        CHECK(share >= 0.47);
    }
    // The seeded layer's three-map products are bound by the slide's width (before: 0.34, 0.37, 0.30).
    const core::ModelRun seeded = core::runModel(core::ModelSpec{});
    for (const auto& [stage, floor] : {std::pair{core::StageId::Scores, 0.47}, {core::StageId::Softmax, 0.47}, {core::StageId::WeightedSum, 0.44}}) {
        const double share = tallestMapShare(drawSlideFigure(seeded, stage, 0, 0, style));
        MESSAGE("seeded stage ", static_cast<int>(stage), ": the maps take ", share, " of the slide's height");
        CHECK(share >= floor);
    }
}

TEST_CASE("slide: stage 2 shows Q, K and V, as the screen does: X × [W^Q W^K W^V] = [Q K V] when the three products do not fit") {
    using core::TensorId;
    const std::set<TensorId> projections{TensorId::X, TensorId::WQ, TensorId::WK, TensorId::WV, TensorId::Q, TensorId::K, TensorId::V};
    for (const int dModel : {64, 128}) {
        core::ModelSpec spec;  // the seeded layer; at d_model 128 the products' weights would be strips on a slide
        spec.attention.dModel = dModel;
        spec.attention.heads = 4;
        const core::ModelRun run = core::runModel(spec);
        for (const int scale : {1, 2}) {
            CAPTURE(dModel);
            CAPTURE(scale);
            FigureStyle style;
            style.scale = scale;
            const Figure slide = drawSlideFigure(run, core::StageId::Project, 0, 0, style);
            std::multiset<TensorId> shown;
            for (const PlacedHeatmap& h : slide.heatmaps) {
                shown.insert(h.tensor);
                CHECK(h.where.rect.x >= 0);
                CHECK(h.where.rect.right() <= slide.image.width());
                CHECK(h.where.rect.bottom() <= slide.image.height());
                CHECK(h.where.cellWidth >= 1);
            }
            CHECK(std::set<TensorId>(shown.begin(), shown.end()) == projections);
            CHECK(shown.size() == projections.size());  // X once
            if (dModel != 128) continue;
            // The fused line: the weights side by side between X and Q, Q K V on X's rows.
            const PlacedHeatmap &x = heatmapOf(slide, TensorId::X), &wq = heatmapOf(slide, TensorId::WQ), &wv = heatmapOf(slide, TensorId::WV);
            const PlacedHeatmap &q = heatmapOf(slide, TensorId::Q), &k = heatmapOf(slide, TensorId::K), &v = heatmapOf(slide, TensorId::V);
            CHECK(x.where.rect.right() < wq.where.rect.x);
            CHECK(wv.where.rect.right() < q.where.rect.x);
            CHECK(q.where.rect.right() < k.where.rect.x);
            CHECK(k.where.rect.right() < v.where.rect.x);
            for (const PlacedHeatmap* result : {&q, &k, &v}) {
                CHECK(result->where.rect.y == x.where.rect.y);
                CHECK(result->where.cellHeight == x.where.cellHeight);
            }
            CHECK(wq.where.cellWidth == wv.where.cellWidth);  // the weights share one cell size
        }
    }
}

TEST_CASE("slide: at GPT-2's d_model the embedding slide shows X alone rather than failing to fit E[ids] + P = X") {
    core::ModelSpec spec;
    spec.attention.dModel = 768;  // three 768-column maps side by side need more than 1920 px at one pixel a cell
    spec.attention.heads = 12;
    const core::ModelRun run = core::runModel(spec);
    FigureStyle style;
    style.scale = 1;
    const Figure slide = drawSlideFigure(run, core::StageId::Embed, 0, 0, style);
    REQUIRE(slide.heatmaps.size() == 1);
    CHECK(slide.heatmaps.front().tensor == core::TensorId::X);
    CHECK(slide.image.width() == 1920);
}

TEST_CASE("slide: drawn twice as large as the stage figure, so its smallest text is 24 px at 1080p") {
    const core::ModelRun run = core::runModel(core::ModelSpec{});
    FigureStyle style;
    style.scale = 1;
    style.cellSize = 10;  // the same cells in both, so only the zoom differs
    const Figure stage = drawStageFigure(run, core::StageId::Softmax, 0, 0, style);
    const Figure slide = drawSlideFigure(run, core::StageId::Softmax, 0, 0, style);
    const PlacedHeatmap& inStage = heatmapOf(stage, core::TensorId::AttentionWeights);
    const PlacedHeatmap& onSlide = heatmapOf(slide, core::TensorId::AttentionWeights);
    CHECK(onSlide.where.rect.width == 2 * inStage.where.rect.width);  // labels and titles scale with the cells
}

TEST_CASE("slide: export --kind slide --stage all plans the deck in stage order") {
    ExportRequest request;
    request.kind = FigureKind::Slide;
    const std::vector<PlannedFigure> planned = planExport(core::runModel(core::ModelSpec{}), request);
    REQUIRE(planned.size() == static_cast<std::size_t>(core::kStageCount));
    CHECK(planned.front().fileName == "slide-00-tokens.png");
    CHECK(planned[7].fileName == "slide-07-softmax-head0.png");
    for (std::size_t i = 0; i < planned.size(); ++i) CHECK(static_cast<std::size_t>(planned[i].stage) == i);
}

TEST_CASE("figure: a trained model's X is titled by the residual stream it is, not E[ids] + PE") {
    core::ModelSpec spec;
    CHECK(matrixTitle(core::TensorId::X, "0", tinyRun().trace, spec) == "X = E[ids] + PE");
    spec.seeded()->positional = false;
    CHECK(matrixTitle(core::TensorId::X, "0", tinyRun().trace, spec) == "X = E[ids]");
    spec.model = core::TrainedLayer{io::loadBundledModel()};  // a BERT: X at layer 1 is h_1, the output of block 0
    spec.trained()->layer = 1;
    CHECK(matrixTitle(core::TensorId::X, "0", tinyRun().trace, spec) == "X = h_1");
}
