// test_prediction_figure.cpp — `export --kind next`, the prediction slide, checked from outside its drawing code:
// the top ten come from core::topTokens on core::predictionLogits (the core's own path, tested against PyTorch in
// tests/core), the percentages are formatted here, and the files are read back by libpng, xmllint and pdftotext.
// The PNG's bars are measured in pixels: their lengths keep the probabilities' ratios. BERT fills its first [MASK];
// a run that predicts nothing, a sentence without [MASK], a stage or a bad temperature are refused with one sentence.
#include "app/cli_options.h"
#include "core/transformer/prediction.h"
#include "export/export_error.h"
#include "export/export_refusal.h"
#include "export/exporter.h"
#include "export/png_decode.h"
#include "io/model_folder.h"
#include "io/scratch_dir.h"

#include "export/file_text.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace attnviz;
using namespace attnviz::exporting;
using attnviz::test::fileText;
namespace fs = std::filesystem;

namespace {

const fs::path kReference = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference";
constexpr Rgba8 kBarBlue{70, 120, 180, 255};  // the prediction panel's bar colour, opaque

core::ModelRun trainedRun(const fs::path& folder, const std::string& sentence) {
    core::ModelSpec spec;
    spec.model = core::TrainedLayer{io::loadModelFolder(folder)};
    spec.sentences = {sentence};
    return core::runModel(spec);
}

const core::ModelRun& llamaRun() {
    static const core::ModelRun run = trainedRun(kReference / "decoders/llama-gqa-llama3", "the cat sat on the mat");
    return run;
}

const core::ModelRun& bertRun() {
    static const core::ModelRun run = trainedRun(kReference / "predictions/bert-mlm", "the [MASK] sat");
    return run;
}

struct Expected {
    std::string label, percent;
    float probability = 0.0f;
};

// The ten most likely pieces at `position` as the core computes them, written as a reader reads them: the piece's
// text (a leading space as ␣, a control byte as <12>), or the raw piece when the text is empty.
std::vector<Expected> expectedTop(const core::ModelRun& run, int position, float temperature) {
    const core::TrainedModel& model = *run.spec.trainedModel();
    const core::RowVector logits = core::predictionLogits(model.transformer, *run.modelPass, 0, position);
    std::vector<Expected> top;
    for (const core::TokenChoice& choice : core::topTokens(logits, 10, temperature)) {
        const std::string piece = model.tokenizer->pieceOf(choice.id), text = core::pieceText(piece);
        std::string label;
        for (const char c : text.empty() ? piece : text) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "<%02X>", static_cast<unsigned char>(c));
            label += c == ' ' ? std::string("\u2423") : static_cast<unsigned char>(c) < 0x20 ? std::string(hex) : std::string(1, c);
        }
        char percent[16];
        std::snprintf(percent, sizeof percent, "%.1f%%", 100.0 * choice.probability);
        top.push_back({label, percent, choice.probability});
    }
    return top;
}

int shell(const std::string& command, const fs::path& output = "/dev/null") {
    const int status = std::system((command + " > '" + output.string() + "' 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string xmlEscaped(const std::string& text) {
    std::string out;
    for (const char c : text) out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
    return out;
}

ExportRequest nextRequest(FigureFormat format, std::optional<float> temperature = std::nullopt) {
    ExportRequest request;
    request.kind = FigureKind::Next;
    request.format = format;
    request.temperature = temperature;
    request.style.scale = 1;
    return request;
}

fs::path exportOne(const core::ModelRun& run, const ExportRequest& request, const fs::path& dir) {
    const std::vector<fs::path> written = exportFigures(run, request, dir, true);
    REQUIRE(written.size() == 1);
    return written.front();
}

// Each horizontal run of bar-blue pixels, one per bar, top to bottom: its length in pixels.
std::vector<int> barLengths(const test::DecodedPng& png) {
    std::vector<int> lengths;
    int previous = 0;
    for (int y = 0; y < png.height; ++y) {
        int length = 0;
        for (int x = 0; x < png.width; ++x) length += png.pixel(x, y) == kBarBlue ? 1 : 0;
        if (length > 0 && previous == 0) lengths.push_back(length);
        previous = length;
    }
    return lengths;
}

void checkVectorFiles(const core::ModelRun& run, const std::vector<Expected>& top, const fs::path& dir, std::optional<float> temperature) {
    const fs::path svg = exportOne(run, nextRequest(FigureFormat::Svg, temperature), dir);
    CHECK(svg.filename() == "next.svg");
    CHECK(shell("xmllint --noout '" + svg.string() + "'") == 0);
    const std::string markup = fileText(svg);
    for (const Expected& choice : top) {
        CHECK_MESSAGE(markup.find(">" + xmlEscaped(choice.label) + "</text>") != std::string::npos, choice.label);
        CHECK_MESSAGE(markup.find(">" + choice.percent + "</text>") != std::string::npos, choice.percent);
    }
    const fs::path pdf = exportOne(run, nextRequest(FigureFormat::Pdf, temperature), dir);
    REQUIRE(shell("pdftotext '" + pdf.string() + "' -", dir / "text.txt") == 0);
    const std::string text = fileText(dir / "text.txt");
    for (const Expected& choice : top) {
        CHECK_MESSAGE(text.find(choice.label) != std::string::npos, choice.label);
        CHECK_MESSAGE(text.find(choice.percent) != std::string::npos, choice.percent);
    }
}

}  // namespace

TEST_CASE("prediction slide: a decoder's ten most likely next tokens as bars in PNG, SVG and PDF") {
    const test::ScratchDir dir("next-decoder");
    const core::ModelRun& run = llamaRun();
    const int last = static_cast<int>(run.tokenIds[0].size()) - 1;
    const std::vector<Expected> top = expectedTop(run, last, 1.0f);

    const fs::path png = exportOne(run, nextRequest(FigureFormat::Png), dir.path());
    CHECK(png.filename() == "next.png");
    const test::DecodedPng image = test::decodePngFile(png);
    CHECK(image.width == kSlideWidth);  // a 16:9 slide at scale 1
    CHECK(image.height == kSlideHeight);
    CHECK(image.text.at("attnviz.kind") == "next");
    CHECK(image.text.at("Title").find("\u201C" + run.tokens[0].back() + "\u201D") != std::string::npos);
    // Ten bars, 0 … 100 % across the same track: their lengths keep the probabilities' ratios (within a pixel).
    const std::vector<int> lengths = barLengths(image);
    REQUIRE(lengths.size() == top.size());
    for (std::size_t i = 0; i < top.size(); ++i) {
        CAPTURE(i);
        CHECK(std::abs(static_cast<float>(lengths[i]) - static_cast<float>(lengths[0]) * top[i].probability / top[0].probability) <= 1.5f);
    }
    CHECK(lengths[0] > kSlideWidth / 10);  // the top bar at 18 % of a track most of the slide wide

    checkVectorFiles(run, top, dir.path(), std::nullopt);
    // Another temperature, other bars: T = 0.5 sharpens them.
    const std::vector<Expected> sharper = expectedTop(run, last, 0.5f);
    CHECK(sharper.front().probability > top.front().probability);
    checkVectorFiles(run, sharper, dir.path(), 0.5f);
}

TEST_CASE("prediction slide: BERT with a masked-word head fills the first [MASK]") {
    const test::ScratchDir dir("next-bert");
    const core::ModelRun& run = bertRun();
    int mask = -1;
    for (std::size_t p = 0; p < run.tokenIds[0].size(); ++p) {
        if (mask < 0 && run.spec.trainedModel()->tokenizer->pieceOf(run.tokenIds[0][p]) == "[MASK]") mask = static_cast<int>(p);
    }
    REQUIRE(mask == 2);  // [CLS] the [MASK] sat [SEP]
    checkVectorFiles(run, expectedTop(run, mask, 1.0f), dir.path(), std::nullopt);
    CHECK(fileText(dir / "next.svg").find("predict for [MASK]?") != std::string::npos);
}

TEST_CASE("prediction slide: what predicts nothing, a stage, a misplaced or bad temperature — one sentence, no file") {
    const test::ScratchDir dir("next-refused");
    const auto refusal = [&](const core::ModelRun& run, const ExportRequest& request) { return test::exportRefusal(run, request, dir / "out"); };
    core::ModelSpec seeded;
    CHECK(refusal(core::runModel(seeded), nextRequest(FigureFormat::Png)).find("The seeded layer is one attention layer with random weights") == 0);
    const core::ModelRun noMask = trainedRun(kReference / "predictions/bert-mlm", "the cat sat");
    CHECK(refusal(noMask, nextRequest(FigureFormat::Png)).find("type [MASK] into --sentence") != std::string::npos);
    const core::ModelRun noHead = trainedRun(kReference / "models/bert-original-names", "the [MASK] sat");
    CHECK(refusal(noHead, nextRequest(FigureFormat::Png)) == core::whyNoPrediction(noHead.spec.trainedModel()->transformer));

    ExportRequest staged = nextRequest(FigureFormat::Png);
    staged.stage = core::StageId::Softmax;
    CHECK(refusal(llamaRun(), staged).find("leave out --stage") != std::string::npos);
    ExportRequest stageWithTemperature;
    stageWithTemperature.kind = FigureKind::Stage;
    stageWithTemperature.temperature = 0.5f;
    CHECK(refusal(llamaRun(), stageWithTemperature).find("--temperature is for --kind next") != std::string::npos);
    for (const float bad : {0.0f, 5.5f, std::nanf("")}) {
        CAPTURE(bad);
        CHECK(refusal(llamaRun(), nextRequest(FigureFormat::Png, bad)).find("out of range; use 0.05 to 5") != std::string::npos);
    }
}
