// bench_transformer.cpp — our side of the trained-model comparison bench/torch_transformer.py runs: open a
// checkpoint folder the way the app does, then a forward pass of the ids through every layer, timed.
//
//   bench_transformer <model dir> <ids.npy> <repeats> <out dir>
//
// Prints "open_ms <milliseconds>" (io::loadModelFolder: config, safetensors, tokenizer) and one "ms <milliseconds>"
// per forward pass (core::runTransformer, the stepped layer 0 with comparePerHead off, as the app's other layers),
// after one warm-up pass. Writes <out dir>/ours_last_hidden.npy (l × d_model, the model's output after ln_f) so
// the script can check that both computed the same thing.
// What this file deliberately does not do: time PyTorch or judge (the script does both), or run in ctest.
#include "core/transformer/transformer.h"
#include "io/model_folder.h"
#include "io/npy.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>

int main(int argc, char** argv) {
    using namespace attnviz;
    if (argc != 5) {
        std::fprintf(stderr, "usage: %s <model dir> <ids.npy> <repeats> <out dir>\n", argv[0]);
        return 2;
    }
    try {
        using Clock = std::chrono::steady_clock;
        const auto opening = Clock::now();
        const auto model = io::loadModelFolder(argv[1]);
        std::printf("open_ms %.1f\n", std::chrono::duration<double, std::milli>(Clock::now() - opening).count());
        const core::Tensor idsTensor = io::readNpy(argv[2]);
        std::vector<int> ids;
        for (float id : idsTensor.data) ids.push_back(static_cast<int>(id));
        core::AttentionConfig config;
        config.dModel = model->config().dModel;
        config.heads = model->config().heads;
        config.mask = core::MaskKind::Causal;
        config.comparePerHead = false;
        core::TransformerPass pass = core::runTransformer(model->transformer, {ids}, 0, config);  // warm-up
        for (int run = 0; run < std::atoi(argv[3]); ++run) {
            const auto start = Clock::now();
            pass = core::runTransformer(model->transformer, {ids}, 0, config);
            std::printf("ms %.3f\n", std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        }
        const int layers = model->config().layers;
        core::Tensor last({static_cast<int>(ids.size()), model->config().dModel});
        const core::MatrixView h = pass.hiddenStates.slice(layers);  // (n + 1) × 1 × l × d: the last, after ln_f
        Eigen::Map<core::Matrix>(last.data.data(), h.rows(), h.cols()) = h;
        io::writeNpy(std::filesystem::path(argv[4]) / "ours_last_hidden.npy", last);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "bench_transformer: %s\n", error.what());
        return 1;
    }
    return 0;
}
