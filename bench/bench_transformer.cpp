// bench_transformer.cpp — our side of the trained-model comparison bench/torch_transformer.py runs: open a
// checkpoint folder the way the app does, then forward passes of the ids through every layer, timed.
//
//   bench_transformer <model dir> <ids.npy> <repeats> <out dir> [lean|app|both]
//
// Prints "open_ms <milliseconds>" (io::loadModelFolder: config, safetensors, tokenizer) and "open_cpu_ms" (its CPU
// time, what counts on a shared machine), then per repeat, after one
// warm-up of each:
//   "lean_ms <ms>": every layer through the lean pass, no attention weights kept (core::PassOptions both off);
//   "app_ms <ms>":  what the app computes: layer 0 stepped with its full Trace, every layer's A kept for the model
//                   view (the default PassOptions);
// each followed by "<kind>_cpu_ms <ms>", the CPU time of all the process's threads during that pass.
// The mask is the model's own for one sentence: causal for decoders (GPT-2, the Llama family), none for BERT.
// Writes <out dir>/ours_last_hidden.npy (l × d_model, the model's output, after ln_f for decoders) so the script can
// check that both computed the same thing. The last word picks the passes timed (both by default), so a peak RSS
// can be measured for each alone.
// What this file deliberately does not do: time PyTorch or judge (the script does both), or run in ctest.
#include "core/transformer/transformer.h"
#include "io/model_folder.h"
#include "io/npy.h"

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

namespace {

using namespace attnviz;

// The model's own mask for one unpadded sentence (core::trainedAttention's rule).
core::AttentionConfig modelAttention(const core::TransformerConfig& model) {
    core::AttentionConfig config;
    config.dModel = model.dModel;
    config.heads = model.heads;
    config.mask = model.family == core::ModelFamily::Bert ? core::MaskKind::None : core::MaskKind::Causal;
    config.comparePerHead = false;
    return config;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 5 && argc != 6) {
        std::fprintf(stderr, "usage: %s <model dir> <ids.npy> <repeats> <out dir> [lean|app|both]\n", argv[0]);
        return 2;
    }
    const char* which = argc == 6 ? argv[5] : "both";
    const bool lean = std::strcmp(which, "app") != 0, app = std::strcmp(which, "lean") != 0;
    try {
        using Clock = std::chrono::steady_clock;
        const auto opening = Clock::now();
        const std::clock_t openingCpu = std::clock();
        const auto model = io::loadModelFolder(argv[1]);
        std::printf("open_ms %.1f\nopen_cpu_ms %.1f\n", std::chrono::duration<double, std::milli>(Clock::now() - opening).count(),
                    1000.0 * static_cast<double>(std::clock() - openingCpu) / CLOCKS_PER_SEC);
        const core::Tensor idsTensor = io::readNpy(argv[2]);
        std::vector<int> ids;
        for (float id : idsTensor.data) ids.push_back(static_cast<int>(id));
        const core::AttentionConfig config = modelAttention(model->config());
        const core::PassOptions leanOptions{false, false};
        const auto run = [&](const char* label, const core::PassOptions& options) {
            const auto start = Clock::now();
            const std::clock_t cpuStart = std::clock();
            core::TransformerPass pass = core::runTransformer(model->transformer, {ids}, 0, config, options);
            const double cpuMs = 1000.0 * static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
            if (label) std::printf("%s_ms %.3f\n%s_cpu_ms %.3f\n", label, std::chrono::duration<double, std::milli>(Clock::now() - start).count(), label, cpuMs);
            return pass;
        };
        core::TransformerPass pass = run(nullptr, lean ? leanOptions : core::PassOptions{});  // warm-up
        if (lean && app) run(nullptr, core::PassOptions{});
        for (int repeat = 0; repeat < std::atoi(argv[3]); ++repeat) {
            if (lean) pass = run("lean", leanOptions);
            if (app) pass = run("app", core::PassOptions{});
        }
        const int layers = model->config().layers;
        core::Tensor last({static_cast<int>(ids.size()), model->config().dModel});
        const core::MatrixView h = pass.hiddenStates.slice(layers);  // (n + 1) × 1 × l × d: the last
        Eigen::Map<core::Matrix>(last.data.data(), h.rows(), h.cols()) = h;
        io::writeNpy(std::filesystem::path(argv[4]) / "ours_last_hidden.npy", last);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "bench_transformer: %s\n", error.what());
        return 1;
    }
    return 0;
}
