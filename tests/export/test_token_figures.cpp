// test_token_figures.cpp — stage 0 as a scene and its exported figure, and the RoPE step's exported figure:
// the tokens' scene holds each token's text, id and position (a trained tokenizer's pieces as a reader reads them,
// with a note for the marks), its exported figure draws every token and id as text in PNG, SVG and PDF, and
// `export --stage rope` draws a Llama model's q and k before and after RoPE with the turning pairs, or refuses a
// model without rotary positions in one sentence.
#include "app/cli_options.h"
#include "export/export_error.h"
#include "export/exporter.h"
#include "export/scene_figure.h"
#include "io/model_folder.h"
#include "io/scratch_dir.h"
#include "scene/scene.h"

#include "export/file_text.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace attnviz;
using namespace attnviz::exporting;
using attnviz::test::fileText;

namespace {

const scene::Tokens& tokensOf(const scene::Scene& s) {
    REQUIRE(s.figures.size() == 1);
    return std::get<scene::Tokens>(s.figures.front().composition);
}

// The decoder fixture with grouped-query attention (8 query heads sharing 2 K/V heads) and rotary positions.
const core::ModelRun& llamaRun() {
    static const core::ModelRun run = [] {
        core::ModelSpec spec;
        spec.model = core::TrainedLayer{io::loadModelFolder(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/decoders/llama-gqa-llama3")};
        spec.sentences = {"the cat sat on the mat"};  // the tiny model has 32 positions
        return core::runModel(spec);
    }();
    return run;
}

// Every text run the figure drew, in order.
std::vector<std::string> textsOf(const Figure& figure) {
    std::vector<std::string> texts;
    for (const Drawing::Primitive& p : figure.image.drawing().primitives) {
        if (const auto* text = std::get_if<Drawing::Text>(&p)) texts.push_back(text->utf8);
    }
    return texts;
}

bool contains(const std::vector<std::string>& texts, const std::string& text) { return std::find(texts.begin(), texts.end(), text) != texts.end(); }

int linesOf(const Figure& figure) {
    return static_cast<int>(std::count_if(figure.image.drawing().primitives.begin(), figure.image.drawing().primitives.end(),
                                          [](const Drawing::Primitive& p) { return std::holds_alternative<Drawing::Line>(p); }));
}

}  // namespace

TEST_CASE("stage 0's scene: every token's text, its id (the batch vocabulary's: the same word, the same id) and its position") {
    core::ModelSpec spec;
    spec.sentences = {"the cat saw the dog", "a dog"};
    const core::ModelRun run = core::runModel(spec);
    const scene::Scene s = scene::stageScene(core::StageId::Tokens, run, {});
    const scene::Tokens& tokens = tokensOf(s);
    REQUIRE(tokens.sentences.size() == 2);
    for (std::size_t b = 0; b < 2; ++b) {
        CAPTURE(b);
        const scene::TokenRow& row = tokens.sentences[b];
        CHECK(row.heading.find(spec.sentences[b]) != std::string::npos);
        REQUIRE(row.tokens.size() == static_cast<std::size_t>(run.trace.keyLength));  // padded to the longest
        for (std::size_t i = 0; i < row.tokens.size(); ++i) {
            CHECK(row.tokens[i].position == static_cast<int>(i));
            if (i >= run.tokens[b].size()) {
                CHECK(row.tokens[i].kind == scene::Token::Kind::Padding);
                CHECK_FALSE(row.tokens[i].id.has_value());
                continue;
            }
            CHECK(row.tokens[i].text == run.tokens[b][i]);
            CHECK(row.tokens[i].id.has_value());
        }
    }
    const std::vector<scene::Token>& first = tokens.sentences[0].tokens;
    CHECK(first[0].id == first[3].id);  // "the" twice
    CHECK(first[0].id != first[1].id);
    CHECK(tokens.sentences[1].tokens[1].id == first[4].id);  // "dog" in both sentences
    CHECK(first[0].kind == scene::Token::Kind::Piece);
    // One sentence for a figure.
    scene::SceneChoices second;
    second.sentence = 1;
    const scene::Scene one = scene::stageScene(core::StageId::Tokens, run, second);
    REQUIRE(tokensOf(one).sentences.size() == 1);
    CHECK(tokensOf(one).sentences[0].tokens[0].text == "a");
    CHECK(s.figures.front().hint.find("l = 5 tokens, b = 2 sentences") != std::string::npos);
}

TEST_CASE("stage 0's scene of a trained model: its tokenizer's pieces as a reader reads them, the model's ids, a note for the space mark") {
    const core::ModelRun& run = llamaRun();
    const scene::Scene s = scene::stageScene(core::StageId::Tokens, run, {});
    const scene::TokenRow& row = tokensOf(s).sentences.at(0);
    REQUIRE(row.tokens.size() == run.tokens[0].size());
    bool spaceMark = false;
    for (std::size_t i = 0; i < row.tokens.size(); ++i) {
        CAPTURE(i);
        CHECK(row.tokens[i].id == run.tokenIds[0][i]);
        CHECK(row.tokens[i].text.find("\u0120") == std::string::npos);  // GPT-2's byte alphabet never shows
        CHECK(row.tokens[i].text.find("\u2581") == std::string::npos);
        spaceMark = spaceMark || row.tokens[i].text.rfind("\u2423", 0) == 0;
    }
    CHECK(spaceMark);  // " cat" as "␣cat"
    const std::vector<scene::Note>& notes = s.figures.front().notes;
    CHECK(std::any_of(notes.begin(), notes.end(), [](const scene::Note& n) { return n.text == "\u2423 = the token begins with a space"; }));
}

TEST_CASE("the exported stage 0 figure draws every token and its id as text, in PNG, SVG and PDF, from the scene's boxes") {
    core::ModelSpec spec;
    spec.sentences = {"the cat sat down"};
    const core::ModelRun run = core::runModel(spec);
    FigureStyle style;
    style.scale = 1;
    const Figure figure = drawStageFigure(run, core::StageId::Tokens, 0, 0, style);
    const std::vector<std::string> texts = textsOf(figure);
    const scene::Scene exported = exportedScene(run, core::StageId::Tokens, 0, 0);
    const scene::TokenRow& row = tokensOf(exported).sentences.at(0);
    REQUIRE(row.tokens.size() == 4);
    for (const scene::Token& token : row.tokens) {
        CAPTURE(token.text);
        CHECK(contains(texts, token.text));
        CHECK(contains(texts, "id " + std::to_string(*token.id)));
        CHECK(contains(texts, "pos " + std::to_string(token.position)));
    }
    CHECK(figure.heatmaps.empty());
    CHECK(figure.image.width() <= 1400);
    const test::ScratchDir dir("tokens");
    ExportRequest request;
    request.stage = core::StageId::Tokens;
    request.kind = FigureKind::Stage;
    request.style = style;
    for (FigureFormat format : {FigureFormat::Svg, FigureFormat::Pdf, FigureFormat::Png}) {
        request.format = format;
        const std::vector<std::filesystem::path> files = exportFigures(run, request, dir.path(), true);
        REQUIRE(files.size() == 1);
        CHECK(std::filesystem::file_size(files.front()) > 0);
        if (format == FigureFormat::Svg) {
            const std::string svg = fileText(files.front());
            for (const char* word : {">the<", ">cat<", ">sat<", ">down<", ">pos 3<"}) CHECK_MESSAGE(svg.find(word) != std::string::npos, word);
        }
    }
}

TEST_CASE("export --stage rope: a Llama model's q and k before and after RoPE, and the turning pairs, as one figure") {
    const core::ModelRun& run = llamaRun();
    ExportRequest request;
    request.stage = parseStage("rope");
    request.ropeStep = namesRopeStep("rope");
    request.head = 5;
    request.style.scale = 1;
    CHECK(request.stage == core::StageId::SplitHeads);
    for (FigureKind kind : {FigureKind::Matrix, FigureKind::Stage, FigureKind::Slide}) {
        request.kind = kind;
        const std::vector<PlannedFigure> planned = planExport(run, request);
        REQUIRE(planned.size() == 1);
        CHECK(planned.front().ropeStep);
        CHECK(planned.front().fileName == (kind == FigureKind::Slide ? "slide-03-rope-head5.png" : "03-rope-head5.png"));
    }
    const Figure figure = drawStageFigure(run, core::StageId::SplitHeads, 5, 0, request.style, true);
    std::set<core::TensorId> maps;
    for (const PlacedHeatmap& h : figure.heatmaps) {
        maps.insert(h.tensor);
        CHECK(h.head == 5);
    }
    CHECK(maps == std::set<core::TensorId>{core::TensorId::QHeadsBeforeRope, core::TensorId::QHeads, core::TensorId::KHeadsBeforeRope, core::TensorId::KHeads});
    const std::vector<std::string> texts = textsOf(figure);
    CHECK(std::any_of(texts.begin(), texts.end(), [](const std::string& t) { return t.find("RoPE") != std::string::npos; }));
    CHECK(std::any_of(texts.begin(), texts.end(), [](const std::string& t) { return t.rfind("pair 0:", 0) == 0; }));
    CHECK(linesOf(figure) > 4 * 2 * 7);  // 4 pairs × (before + after) × 7 positions: the arrows at least
    // The split itself has no turning pairs.
    CHECK(linesOf(drawStageFigure(run, core::StageId::SplitHeads, 5, 0, request.style)) == 0);
}

TEST_CASE("the RoPE step's slide: the turning pairs beside the maps, every map with its shape, identifiers as typed") {
    const core::ModelRun& run = llamaRun();
    FigureStyle style;
    style.scale = 1;
    const Figure slide = drawSlideFigure(run, core::StageId::SplitHeads, 0, 0, style, true);
    REQUIRE(slide.image.width() == kSlideWidth);
    REQUIRE(slide.image.height() == kSlideHeight);
    REQUIRE(slide.heatmaps.size() == 4);
    int mapsRight = 0;
    for (const PlacedHeatmap& h : slide.heatmaps) mapsRight = std::max(mapsRight, h.where.rect.right());
    // The pairs: 3 squares (d_k = 6) of arrows, each line inside the slide and right of the maps.
    const std::vector<std::string> texts = textsOf(slide);
    for (const char* caption : {"pair 0:", "pair 1:", "pair 2:"}) {
        CHECK_MESSAGE(std::any_of(texts.begin(), texts.end(), [&](const std::string& t) { return t.rfind(caption, 0) == 0; }), caption);
    }
    CHECK(linesOf(slide) > 3 * 2 * 14);  // 3 pairs × (before + after) × 14 positions: the arrows at least
    for (const Drawing::Primitive& p : slide.image.drawing().primitives) {
        const auto* line = std::get_if<Drawing::Line>(&p);
        if (line == nullptr) continue;
        CHECK(std::min(line->x0, line->x1) > static_cast<float>(mapsRight));
        CHECK(std::max(line->x0, line->x1) < static_cast<float>(kSlideWidth - kFigureMargin));
        CHECK(std::min(line->y0, line->y1) > static_cast<float>(kFigureMargin));
        CHECK(std::max(line->y0, line->y1) < static_cast<float>(kSlideHeight - kFigureMargin));
    }
    // Each of the four maps has its shape under its title, not only the first: l × d_k = 14 × 6 under the first, whose
    // rows the others share, the numbers under the others.
    CHECK(std::count(texts.begin(), texts.end(), " = 14 \u00D7 6") == 1);
    CHECK(std::count(texts.begin(), texts.end(), "14 \u00D7 6") == 3);
    // Code identifiers are drawn as typed, not with a word lowered into a subscript.
    CHECK(std::any_of(texts.begin(), texts.end(), [](const std::string& t) { return t.find("rope_theta") != std::string::npos; }));
    CHECK(std::any_of(texts.begin(), texts.end(), [](const std::string& t) { return t.find("HF's rotate_half pairs") != std::string::npos; }));
    CHECK_FALSE(contains(texts, "theta"));
    CHECK_FALSE(contains(texts, "half"));
}

TEST_CASE("export --stage rope writes PNG, SVG and PDF through the command, and refuses a model without rotary positions in one sentence") {
    const test::ScratchDir dir("rope");
    app::ExportOptions options;
    options.out = dir.path().string();
    options.stage = "rope";
    options.kind = "stage";
    options.scale = 1;
    for (const char* format : {"png", "svg", "pdf"}) {
        options.format = format;
        CHECK(app::runExport(llamaRun().spec, options) == 0);
        CHECK(std::filesystem::exists(dir.path() / ("03-rope-head0." + std::string(format))));
    }
    ExportRequest request;
    request.stage = core::StageId::SplitHeads;
    request.ropeStep = true;
    request.kind = FigureKind::Stage;
    const core::ModelRun seeded = core::runModel(core::ModelSpec{});
    CHECK_THROWS_WITH_AS(planExport(seeded, request),
                         "--stage rope needs a model with rotary positions (a Llama, Mistral or Qwen folder); this model has none.", ExportError);
    CHECK_THROWS_AS(drawStageFigure(seeded, core::StageId::SplitHeads, 0, 0, FigureStyle{}, true), ExportError);
    request.kind = FigureKind::Heads;
    CHECK_THROWS_AS(planExport(llamaRun(), request), ExportError);
}
