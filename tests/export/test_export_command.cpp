// test_export_command.cpp — `attnviz export` as a user meets it (app::runExport): the files and the paths it
// prints, the PNG metadata, the exact cell colors with default options, and every refusal — bad words, an
// existing file without --force, an unwritable directory — as one stderr line, exit code 1 and no file.
#include "app/cli_options.h"
#include "colormap/colormap.h"
#include "export/exporter.h"
#include "export/png_decode.h"
#include "io/model_library.h"
#include "io/scratch_dir.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

#include <unistd.h>

using namespace attnviz;
namespace fs = std::filesystem;

namespace {

struct CommandResult {
    int exitCode = 0;
    std::string out;
    std::string err;
};

// Runs runExport with stdout and stderr captured.
CommandResult runCaptured(const core::ModelSpec& spec, const app::ExportOptions& options) {
    std::ostringstream out, err;
    std::streambuf* oldOut = std::cout.rdbuf(out.rdbuf());
    std::streambuf* oldErr = std::cerr.rdbuf(err.rdbuf());
    CommandResult result;
    try {
        result.exitCode = app::runExport(spec, options);
    } catch (...) {
        std::cout.rdbuf(oldOut);
        std::cerr.rdbuf(oldErr);
        throw;
    }
    std::cout.rdbuf(oldOut);
    std::cerr.rdbuf(oldErr);
    result.out = out.str();
    result.err = err.str();
    return result;
}

app::ExportOptions optionsInto(const fs::path& out) {
    app::ExportOptions options;
    options.out = out;
    return options;
}

// The one error line: "attnviz export: …\n" with no other line.
void checkOneErrorLine(const CommandResult& result, std::string_view mustMention) {
    CHECK(result.exitCode == 1);
    CHECK(result.out.empty());
    CHECK(result.err.starts_with("attnviz export: "));
    CHECK(result.err.find('\n') == result.err.size() - 1);
    CHECK_MESSAGE(result.err.find(mustMention) != std::string::npos, result.err);
}

std::string contentOf(const fs::path& path) {
    std::ifstream file(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("export command: writes the planned files and prints each path") {
    test::ScratchDir dir("export-cmd");
    app::ExportOptions options = optionsInto(dir / "slides");
    options.stage = "softmax";
    options.kind = "stage";
    options.head = 2;
    const CommandResult result = runCaptured(core::ModelSpec{}, options);
    CHECK(result.exitCode == 0);
    CHECK(result.err.empty());
    const fs::path expected = dir / "slides" / "07-softmax-head2.png";
    CHECK(result.out == expected.string() + "\n");
    CHECK(fs::exists(expected));
    CHECK(test::decodePngFile(expected).width > 500);
}

TEST_CASE("export command: metadata holds the sentence, tokens, sizes, seed, mask, stage and version") {
    test::ScratchDir dir("export-cmd");
    core::ModelSpec spec;
    spec.sentences = {"Der B\u00E4r schl\u00E4ft"};
    spec.seeded()->seed = 99;
    spec.attention.mask = core::MaskKind::Causal;
    app::ExportOptions options = optionsInto(dir.path());
    options.stage = "7";
    options.matrix = "attention_weights";
    options.head = 1;
    options.scale = 3;
    REQUIRE(runCaptured(spec, options).exitCode == 0);
    const test::DecodedPng png = test::decodePngFile(dir / "07-softmax-attention_weights-head1.png");
    const core::ModelRun run = core::runModel(spec);
    CHECK(png.text.at("Software").starts_with("attnviz "));
    CHECK(png.text.at("Title").find("Softmax") != std::string::npos);
    CHECK(png.text.at("Description") == spec.sentences[0]);
    CHECK(nlohmann::json::parse(png.text.at("attnviz.sentences")) == nlohmann::json(spec.sentences));
    CHECK(nlohmann::json::parse(png.text.at("attnviz.tokens")) == nlohmann::json(run.tokens));
    CHECK(png.text.at("attnviz.d_model") == std::to_string(run.dims.dModel));
    CHECK(png.text.at("attnviz.h") == std::to_string(run.dims.heads));
    CHECK(png.text.at("attnviz.d_k") == std::to_string(run.dims.dK));
    CHECK(png.text.at("attnviz.seed") == "99");
    CHECK(png.text.at("attnviz.mask") == "causal");
    CHECK(png.text.at("attnviz.stage") == "7 softmax");
    CHECK(png.text.at("attnviz.matrix") == "attention_weights");
    CHECK(png.text.at("attnviz.head") == "1");
    CHECK(png.text.at("attnviz.version") == png.text.at("Software").substr(8));
    CHECK(png.pixelsPerMetreX == static_cast<std::uint32_t>(std::lround(96 * 3 / 0.0254)));
}

TEST_CASE("export command: with default options a cell's centre pixel is exactly its colormap color") {
    test::ScratchDir dir("export-cmd");
    app::ExportOptions options = optionsInto(dir.path());
    options.matrix = "x";  // 64 columns: cells too narrow for printed values, so the centre is pure color
    REQUIRE(runCaptured(core::ModelSpec{}, options).exitCode == 0);
    const test::DecodedPng png = test::decodePngFile(dir / "01-embed-x.png");

    const core::ModelRun run = core::runModel(core::ModelSpec{});
    const exporting::Figure figure =
        exporting::drawMatrixFigure(run, core::StageId::Embed, core::TensorId::X, 0, 0, exporting::FigureStyle{});
    REQUIRE(figure.heatmaps.size() == 1);
    const exporting::HeatmapPlacement& where = figure.heatmaps.front().where;
    REQUIRE(png.width == figure.image.width());
    const core::MatrixView x = run.trace[core::TensorId::X].slice(0);
    const colormap::Range range = colormap::computeRange({x.data(), static_cast<std::size_t>(x.size())},
                                                         colormap::RangeKind::Symmetric);
    for (auto [r, c] : {std::pair{0, 0}, std::pair{0, 63}, std::pair{5, 17}, std::pair{12, 40}}) {
        const exporting::PixelRect cell = where.cell(r, c);
        CHECK(png.pixel(cell.x + cell.width / 2, cell.y + cell.height / 2) ==
              exporting::opaque(colormap::sample(colormap::Colormap::Coolwarm, x(r, c), range.lo, range.hi)));
    }
}

TEST_CASE("export command: bad option values → one line on stderr, exit 1, no directory, no file") {
    test::ScratchDir dir("export-cmd");
    const fs::path out = dir / "never";
    const core::ModelSpec spec;
    const std::function<CommandResult(const std::function<void(app::ExportOptions&)>&)> withOption =
        [&](const std::function<void(app::ExportOptions&)>& set) {
            app::ExportOptions options = optionsInto(out);
            set(options);
            return runCaptured(spec, options);
        };
    using Options = app::ExportOptions;
    checkOneErrorLine(withOption([](Options& o) { o.stage = "sofmax"; }), "unknown stage 'sofmax'");
    checkOneErrorLine(withOption([](Options& o) { o.matrix = "attn"; }), "unknown matrix 'attn'");
    checkOneErrorLine(withOption([](Options& o) { o.kind = "grid"; }), "--kind 'grid'");
    checkOneErrorLine(withOption([](Options& o) { o.background = "white"; }), "--background 'white'");
    checkOneErrorLine(withOption([](Options& o) { o.colormap = "jet"; }), "--colormap 'jet'");
    checkOneErrorLine(withOption([](Options& o) { o.scale = 9; }), "--scale 9");
    checkOneErrorLine(withOption([](Options& o) { o.head = 8; }), "--head 8");
    checkOneErrorLine(withOption([](Options& o) {
                          o.stage = "embed";
                          o.matrix = "scores";
                      }),
                      "not shown by stage embed");
    CHECK_FALSE(fs::exists(out));
    CHECK(dir.entries().empty());
}

TEST_CASE("export command: an existing file is kept without --force, replaced with it") {
    test::ScratchDir dir("export-cmd");
    const fs::path existing = dir / "07-softmax-attention_weights-head0.png";
    std::ofstream(existing) << "keep me";
    app::ExportOptions options = optionsInto(dir.path());
    options.stage = "softmax";  // would write masked_scores too: nothing at all may be written
    const CommandResult refused = runCaptured(core::ModelSpec{}, options);
    checkOneErrorLine(refused, existing.string());
    CHECK(refused.err.find("--force") != std::string::npos);
    CHECK(contentOf(existing) == "keep me");
    CHECK(dir.entries() == std::vector<std::string>{existing.filename().string()});

    options.force = true;
    const CommandResult forced = runCaptured(core::ModelSpec{}, options);
    CHECK(forced.exitCode == 0);
    CHECK(test::decodePngFile(existing).width > 100);
    CHECK(dir.entries().size() == 2);
}

TEST_CASE("export command: an unwritable directory is one clear error and leaves no file") {
    if (::geteuid() == 0) {
        // Root ignores permissions: use a directory no one can create files in.
        const CommandResult result = runCaptured(core::ModelSpec{}, optionsInto("/proc"));
        checkOneErrorLine(result, "'/proc");
        const CommandResult missing = runCaptured(core::ModelSpec{}, optionsInto("/proc/attnviz-export-test"));
        checkOneErrorLine(missing, "/proc/attnviz-export-test");
        CHECK_FALSE(fs::exists("/proc/attnviz-export-test"));
        return;
    }
    test::ScratchDir dir("export-cmd");
    fs::permissions(dir.path(), fs::perms::owner_read | fs::perms::owner_exec);
    const CommandResult result = runCaptured(core::ModelSpec{}, optionsInto(dir.path()));
    fs::permissions(dir.path(), fs::perms::owner_all);
    checkOneErrorLine(result, "Permission denied");
    CHECK(dir.entries().empty());
}

TEST_CASE("export command: an output path that is a file is refused") {
    test::ScratchDir dir("export-cmd");
    std::ofstream(dir / "file.txt") << "x";
    checkOneErrorLine(runCaptured(core::ModelSpec{}, optionsInto(dir / "file.txt")), "is a file, not a directory");
}

TEST_CASE("export command: bad input sentences are reported like every other error") {
    test::ScratchDir dir("export-cmd");
    core::ModelSpec spec;
    spec.sentences = {"   "};
    checkOneErrorLine(runCaptured(spec, optionsInto(dir / "out")), "attnviz export: ");
    CHECK(dir.entries().empty());
}

TEST_CASE("export command: --ablate draws the run with those heads off, and every figure says which (caption, slide, metadata)") {
    test::ScratchDir dir("export-ablate");
    core::ModelSpec spec;
    const auto model = io::loadBundledModel();
    REQUIRE(model != nullptr);
    spec.model = core::TrainedLayer{model, model->featuredLayer()};
    spec.sentences = {"The animal didn't cross the street because [MASK] was too tired."};
    spec.attention.dModel = model->config().dModel;
    spec.attention.heads = model->config().heads;
    const auto readAll = [](const fs::path& path) {
        std::ifstream in(path, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    };
    for (const char* kind : {"stage", "slide", "next", "lines", "heads", "poster"}) {
        CAPTURE(kind);
        const fs::path out = dir / kind;
        app::ExportOptions options = optionsInto(out);
        options.kind = kind;
        if (std::string(kind) != "next" && std::string(kind) != "poster") options.stage = "7";
        options.format = "svg";
        options.ablate = "2.0,1.3:mean";
        REQUIRE(runCaptured(spec, options).exitCode == 0);
        for (const fs::directory_entry& file : fs::directory_iterator(out)) {
            const std::string svg = readAll(file.path());
            // A stage's caption line; the others' subtitle (the prediction's, the lines', the heads', the poster's); in layer order.
            const bool captioned = std::string(kind) == "stage" || std::string(kind) == "slide";
            const char* said = captioned ? "Heads switched off: 1.3 (Z_i replaced by its mean)" : "heads off: 1.3 mean, 2.0 off";
            CHECK_MESSAGE(svg.find(said) != std::string::npos, file.path());
        }
    }
    app::ExportOptions png = optionsInto(dir / "png");
    png.stage = "7";
    png.matrix = "attention_weights";
    png.ablate = "2.0";
    REQUIRE(runCaptured(spec, png).exitCode == 0);
    for (const fs::directory_entry& file : fs::directory_iterator(dir / "png")) CHECK(test::decodePngFile(file.path()).text.at("attnviz.heads_off") == "2.0 off");
    // Without --ablate, nothing is said.
    app::ExportOptions intact = optionsInto(dir / "intact");
    intact.stage = "7";
    intact.kind = "stage";
    intact.format = "svg";
    REQUIRE(runCaptured(spec, intact).exitCode == 0);
    for (const fs::directory_entry& file : fs::directory_iterator(dir / "intact")) CHECK(readAll(file.path()).find("heads off") == std::string::npos);
}
