// bench_export.cpp — how long PNG export takes: every stage of the default sentence (the aim: all
// stages in under 0.3 s), and one 4096 × 4096 heatmap (drawing and encoding timed apart).
//
// "All stages" is `attnviz export --stage all` end to end (plan, draw, encode, atomic write to a temporary
// directory, figures in parallel), once with the default --kind matrix and once with --kind stage, at the
// default scale 2. The large figure is W^Q of a d_model 1024 model with 2-pixel cells at scale 2: its heatmap
// alone is 4096 × 4096 pixels. Counters: figures/s, megapixels/s (of finished images) and ms, whose ratio to the
// 1024³ GEMM baseline's ms (gemm_baseline.h, timed in the same run) the table at the end prints.
#include "export/exporter.h"
#include "gemm_baseline.h"
#include "ratio_reporter.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace {

using namespace attnviz;
namespace fs = std::filesystem;

fs::path freshDirectory(const std::string& label) {
    std::string pattern = (fs::temp_directory_path() / ("attnviz-bench-" + label + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + pattern);
    return pattern;
}

double megapixels(const fs::path& directory) {
    double total = 0.0;
    for (const auto& entry : fs::directory_iterator(directory)) {
        // Width and height are big-endian at bytes 16–23 of every PNG.
        std::FILE* file = std::fopen(entry.path().c_str(), "rb");
        unsigned char header[24] = {};
        const bool read = file != nullptr && std::fread(header, 1, sizeof header, file) == sizeof header;
        if (file != nullptr) std::fclose(file);
        if (!read) continue;
        const auto word = [&](int at) {
            return (static_cast<double>(header[at]) * 16777216.0) + header[at + 1] * 65536.0 + header[at + 2] * 256.0 + header[at + 3];
        };
        total += word(16) * word(20) / 1e6;
    }
    return total;
}

void exportAllStages(benchmark::State& state, exporting::FigureKind kind) {
    const core::ModelRun run = core::runModel(core::ModelSpec{});
    exporting::ExportRequest request;
    request.kind = kind;
    const fs::path directory = freshDirectory("stages");
    std::size_t figures = 0;
    for (auto _ : state) {
        figures = exporting::exportFigures(run, request, directory, true).size();
    }
    state.counters["figures"] = static_cast<double>(figures);
    state.counters["ms"] = attnviz::bench::msPerIteration();
    state.counters["figures/s"] = benchmark::Counter(static_cast<double>(figures), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["Mpx/s"] = benchmark::Counter(megapixels(directory), benchmark::Counter::kIsIterationInvariantRate);
    fs::remove_all(directory);
}

void exportAllStagesMatrixKind(benchmark::State& state) { exportAllStages(state, exporting::FigureKind::Matrix); }
void exportAllStagesStageKind(benchmark::State& state) { exportAllStages(state, exporting::FigureKind::Stage); }

struct LargeFigure {
    core::ModelRun run;
    exporting::FigureStyle style;
};

LargeFigure largeFigureSetup() {
    core::ModelSpec spec;
    spec.attention.dModel = 1024;
    spec.attention.heads = 8;
    exporting::FigureStyle style;
    style.scale = 2;
    style.cellSize = 2;
    return {core::runModel(spec), style};
}

exporting::Figure drawLarge(const LargeFigure& large) {
    return exporting::drawMatrixFigure(large.run, core::StageId::Project, core::TensorId::WQ, 0, 0, large.style);
}

void drawLargeFigure(benchmark::State& state) {
    const LargeFigure large = largeFigureSetup();
    double pixels = 0.0;
    for (auto _ : state) {
        const exporting::Figure figure = drawLarge(large);
        pixels = static_cast<double>(figure.image.width()) * figure.image.height();
        benchmark::DoNotOptimize(figure.image.bytes().data());
    }
    state.counters["Mpx/s"] = benchmark::Counter(pixels / 1e6, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["ms"] = attnviz::bench::msPerIteration();
}

void encodeLargeFigure(benchmark::State& state) {
    const LargeFigure large = largeFigureSetup();
    const exporting::Figure figure = drawLarge(large);
    std::size_t bytes = 0;
    for (auto _ : state) {
        bytes = exporting::encodePng(figure.image, {}).size();
    }
    state.counters["width"] = figure.image.width();
    state.counters["height"] = figure.image.height();
    state.counters["PNG MB"] = static_cast<double>(bytes) / 1e6;
    state.counters["ms"] = attnviz::bench::msPerIteration();
    state.counters["Mpx/s"] = benchmark::Counter(static_cast<double>(figure.image.width()) * figure.image.height() / 1e6,
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

BENCHMARK(attnviz::bench::gemmBaseline)->Name("gemmBaseline")->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(exportAllStagesMatrixKind)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(exportAllStagesStageKind)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(drawLargeFigure)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(encodeLargeFigure)->Unit(benchmark::kMillisecond)->UseRealTime();

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    attnviz::bench::RatioReporter reporter("gemmBaseline", {"ms", "ms", 1.0});
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
}
