// bench_page_forward.cpp — the bundled model's forward pass as the app runs it for its first screen, timed: built
// for the desktop (bench/, the release preset) and for the page (the web preset: WebAssembly, run under node and in
// headless chromium) so bench/page_vs_native.py can print their ratio, one thread each (docs/web.md, "Budgets").
//
//   bench_page_forward [repeats]     (default 30)
//
// One pass is core::runModel on attnviz-mini-bert with the first screen's sentence: tokenize, every layer, the
// featured layer's full Trace, every layer's attention weights (what the page computes when a sentence changes).
// Prints "forward_ms <median>" and "forward_min_ms <fastest>" over `repeats` passes after 3 warm-up passes.
// What this file deliberately does not do: judge the ratio (the script does), or run in ctest (no timed tests).
#include "core/model.h"
#include "io/model_library.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using namespace attnviz;

// The first screen's spec (app::toModelSpec with no options): the bundled model at its featured layer.
core::ModelSpec firstScreenSpec() {
    const auto model = io::loadBundledModel();
    core::ModelSpec spec;
    spec.attention.dModel = model->config().dModel;
    spec.attention.heads = model->config().heads;
    spec.model = core::TrainedLayer{model, model->featuredLayer()};
    return spec;
}

double passMilliseconds(const core::ModelSpec& spec) {
    const auto start = std::chrono::steady_clock::now();
    const core::ModelRun run = core::runModel(spec);
    const auto stop = std::chrono::steady_clock::now();
    if (run.modelPass == nullptr) std::abort();  // keeps the pass from being optimised away, and checks it ran
    return std::chrono::duration<double, std::milli>(stop - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 30;
    const core::ModelSpec spec = firstScreenSpec();
    for (int i = 0; i < 3; ++i) passMilliseconds(spec);
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) times.push_back(passMilliseconds(spec));
    std::sort(times.begin(), times.end());
    std::printf("forward_ms %.3f\nforward_min_ms %.3f\n", times[times.size() / 2], times.front());
    return 0;
}
