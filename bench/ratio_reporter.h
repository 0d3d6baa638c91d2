// ratio_reporter.h — a Google Benchmark reporter that also prints every result as a ratio to a baseline
// measured in the same run. These machines are shared and noisy: absolute times drift from run to run, the
// ratio to a GEMM timed minutes apart on the same cores does not drift much.
#pragma once

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

namespace attnviz::bench {

// Benchmarks report the counter "FLOP/s" (a rate); the one whose name starts with `baselinePrefix` is the
// reference. Finalize() prints "name  GFLOP/s  ratio" for all of them.
class RatioReporter : public benchmark::ConsoleReporter {
public:
    explicit RatioReporter(std::string baselinePrefix) : baselinePrefix_(std::move(baselinePrefix)) {}
    void ReportRuns(const std::vector<Run>& runs) override;
    void Finalize() override;

private:
    struct Row {
        std::string name;
        double flopsPerSecond;
    };
    std::string baselinePrefix_;
    std::vector<Row> rows_;
};

}  // namespace attnviz::bench
