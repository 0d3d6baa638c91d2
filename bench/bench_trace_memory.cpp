// bench_trace_memory.cpp — what a Trace holds, in bytes, and what the process's peak RSS is after computing it.
//
//   bench_trace_memory [l d_model h]      default: the default sentence at the default sizes (runModel)
//   bench_trace_memory 2048 1024 16       a 2048-token sentence at d_model 1024, 16 heads
//
// Prints every tensor of the Trace with its shape and the MiB it keeps ("derived" for the score maps a large
// Trace derives on demand, core/derived_maps.h), the total, the peak RSS (getrusage), the peak RSS again with a
// second Trace (the GUI keeps two while it recomputes) and after deriving every head of one map through the
// slice cache (the all-heads view), and the minor page faults of 3 forward passes into that reused Trace (few:
// its buffers are reused). Not a Google Benchmark: it measures memory, not time, and runs once; scripts/bench
// runs it under /usr/bin/time as well.
#include "core/attention.h"
#include "core/derived_maps.h"
#include "core/model.h"

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using namespace attnviz::core;

double mebibytes(std::size_t floats) { return static_cast<double>(floats) * sizeof(float) / (1024.0 * 1024.0); }

long minorFaults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

double peakRssMebibytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

}  // namespace

int main(int argc, char** argv) {
    ModelSpec spec;
    if (argc == 4) {
        const int l = std::atoi(argv[1]);
        spec.attention.dModel = std::atoi(argv[2]);
        spec.attention.heads = std::atoi(argv[3]);
        spec.tokenLimit = l;
        std::string sentence;
        for (int i = 0; i < l; ++i) sentence.append("w").append(std::to_string(i % 97)).append(" ");
        spec.sentences = {sentence};
    } else if (argc != 1) {
        std::fprintf(stderr, "usage: %s [l d_model h]\n", argv[0]);
        return 2;
    }
    const ModelRun run = runModel(spec);
    const Trace& trace = run.trace;
    std::printf("Trace at l = %d, d_model = %d, h = %d (b = %d)\n", trace.keyLength, trace.dims.dModel, trace.dims.heads, trace.batch);
    std::size_t total = 0;
    for (int id = 0; id < kTensorCount; ++id) {
        const TensorId tensorId = static_cast<TensorId>(id);
        const Tensor& tensor = trace[tensorId];
        total += tensor.size();
        std::printf("  %-18s %-22s %10.1f MiB%s\n", std::string(tensorInfo(tensorId).key).c_str(),
                    trace.has(tensorId) ? tensor.shapeString().c_str() : "-", mebibytes(tensor.size()),
                    trace.isDerived(tensorId) ? "  (derived on demand)" : "");
    }
    std::printf("  %-41s %10.1f MiB\n", "total", mebibytes(total));
    std::printf("peak RSS after runModel: %.1f MiB\n", peakRssMebibytes());

    // A second Trace, as the GUI keeps one to show and one to compute into, and three passes into it: its buffers
    // are reused, so after the copy few new pages should be touched.
    AttentionConfig config = spec.attention;
    config.comparePerHead = false;
    AttentionInput input;
    input.keyValueSide = {trace[TensorId::X].slice(0)};
    Trace reused = run.trace;
    const long before = minorFaults();
    for (int pass = 0; pass < 3; ++pass) forwardInto(input, run.weights, config, reused);
    std::printf("minor page faults in 3 forward passes into a reused Trace: %ld\n", minorFaults() - before);
    std::printf("peak RSS with a second Trace (the GUI's double buffer): %.1f MiB\n", peakRssMebibytes());
    for (int head = 0; head < trace.dims.heads; ++head) (void)mapSlice(trace, TensorId::ScaledScores, 0, head);
    std::printf("peak RSS after deriving every head of S·scale (all-heads view; slice cache %.1f MiB): %.1f MiB\n",
                trace.derivedCache ? static_cast<double>(trace.derivedCache->bytes()) / (1024.0 * 1024.0) : 0.0, peakRssMebibytes());
    return 0;
}
