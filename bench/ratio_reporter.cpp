// ratio_reporter.cpp — see ratio_reporter.h.
#include "ratio_reporter.h"

#include <cstdio>

namespace attnviz::bench {

void RatioReporter::ReportRuns(const std::vector<Run>& runs) {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
        // With --benchmark_repetitions, only the median of the repetitions counts (each repetition alone would
        // overwrite the baseline with whichever ran last).
        const bool single = run.run_type == Run::RT_Iteration && run.repetitions <= 1;
        if (!single && run.aggregate_name != "median") continue;
        const auto flops = run.counters.find("FLOP/s");
        if (flops == run.counters.end()) continue;
        rows_.push_back({run.benchmark_name(), flops->second.value});
    }
}

void RatioReporter::Finalize() {
    ConsoleReporter::Finalize();
    double baseline = 0.0;
    for (const Row& row : rows_) {
        if (row.name.rfind(baselinePrefix_, 0) == 0) baseline = row.flopsPerSecond;
    }
    std::printf("\n%-58s %10s %10s\n", "benchmark", "GFLOP/s", "ratio");
    for (const Row& row : rows_) {
        const double ratio = baseline > 0 ? row.flopsPerSecond / baseline : 0.0;
        std::printf("%-58s %10.2f %10.3f\n", row.name.c_str(), row.flopsPerSecond / 1e9, ratio);
    }
    std::printf("(ratio = GFLOP/s / GFLOP/s of %s, measured in this run)\n", baselinePrefix_.c_str());
}

}  // namespace attnviz::bench
