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
        const auto counter = run.counters.find(measure_.counter);
        if (counter == run.counters.end()) continue;
        rows_.push_back({run.benchmark_name(), counter->second.value});
    }
}

double RatioReporter::valueOf(const std::string& prefix) const {
    double value = 0.0;
    for (const Row& row : rows_) {
        if (row.name.rfind(prefix, 0) == 0) value = row.value;
    }
    return value;
}

void RatioReporter::Finalize() {
    ConsoleReporter::Finalize();
    const double baseline = valueOf(baselinePrefix_);
    const char* column = measure_.column.c_str();
    std::printf("\n%-58s %10s %10s", "benchmark", column, "ratio");
    for (const std::string& other : measure_.moreBaselines) std::printf(" %22s", ("÷ " + other).c_str());
    std::printf("\n");
    for (const Row& row : rows_) {
        const double ratio = baseline > 0 ? row.value / baseline : 0.0;
        std::printf("%-58s %10.2f %10.3f", row.name.c_str(), row.value * measure_.scale, ratio);
        for (const std::string& other : measure_.moreBaselines) {
            const double reference = valueOf(other);
            std::printf(" %20.3f", reference > 0 ? row.value / reference : 0.0);
        }
        std::printf("\n");
    }
    std::printf("(ratio = %s / %s of %s, measured in this run)\n", column, column, baselinePrefix_.c_str());
}

}  // namespace attnviz::bench
