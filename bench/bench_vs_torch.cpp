// bench_vs_torch.cpp — our bare forward pass on the input and weights bench/torch_attention.py wrote, timed,
// with the results written back so the script can compare them with PyTorch's and print the time ratio.
//
//   bench_vs_torch <dir> <heads> <repeats>
//
// Reads <dir>/x.npy (l × d_model) and <dir>/w_q.npy, w_k.npy, w_v.npy, w_o.npy (d_model × d_model, our
// convention out = x · W, i.e. the transposes of PyTorch's in_proj/out_proj weights). Runs forwardInto once to
// warm up (a running app has its buffers), then `repeats` times into the same Trace (comparePerHead off: the
// seed-004 comparison is a teaching extra, not attention), printing "ms <milliseconds>" per run. Writes
// <dir>/ours_output.npy (l × d_model) and <dir>/ours_attention_weights.npy (h × l × l) last.
// What this file deliberately does not do: time PyTorch or decide pass/fail (the script does both), or run
// in ctest (it needs the script's files and a quiet machine).
#include "core/attention.h"
#include "io/npy.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>

namespace {

using namespace attnviz;

core::Matrix readMatrix(const std::filesystem::path& path) {
    const core::Tensor tensor = io::readNpy(path);
    if (tensor.rank() != 2) throw io::FileError(path.string() + " should hold a matrix, not shape " + tensor.shapeString() + ".");
    return core::MatrixView(tensor.data.data(), tensor.rows(), tensor.cols());
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s <dir> <heads> <repeats>\n", argv[0]);
        return 2;
    }
    try {
        const std::filesystem::path dir = argv[1];
        const int repeats = std::atoi(argv[3]);
        core::AttentionInput input;
        input.keyValueSide = {readMatrix(dir / "x.npy")};
        core::Weights weights;
        weights.wq = readMatrix(dir / "w_q.npy");
        weights.wk = readMatrix(dir / "w_k.npy");
        weights.wv = readMatrix(dir / "w_v.npy");
        weights.wo = readMatrix(dir / "w_o.npy");
        core::AttentionConfig config;
        config.dModel = static_cast<int>(weights.wq.rows());
        config.heads = std::atoi(argv[2]);
        config.comparePerHead = false;

        core::Trace trace;
        core::forwardInto(input, weights, config, trace);  // warm-up
        for (int run = 0; run < repeats; ++run) {
            const auto start = std::chrono::steady_clock::now();
            core::forwardInto(input, weights, config, trace);
            const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
            std::printf("ms %.4f\n", elapsed.count());
        }

        core::Tensor output = trace[core::TensorId::Output];  // 1 × l × d_model
        output.shape = {output.dim(1), output.dim(2)};
        io::writeNpy(dir / "ours_output.npy", output);
        core::Tensor attention = trace[core::TensorId::AttentionWeights];  // 1 × h × l × l
        attention.shape = {attention.dim(1), attention.dim(2), attention.dim(3)};
        io::writeNpy(dir / "ours_attention_weights.npy", attention);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "bench_vs_torch: %s\n", error.what());
        return 1;
    }
    return 0;
}
