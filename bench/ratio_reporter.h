// ratio_reporter.h — a Google Benchmark reporter that also prints every result as a ratio to a baseline
// measured in the same run. These machines are shared and noisy: absolute times drift from run to run, the
// ratio to a GEMM (or an empty GUI frame) timed minutes apart on the same cores does not drift much.
#pragma once

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

namespace attnviz::bench {

// The counter the ratios are taken of, and how the table shows its value (value × scale, headed `column`).
struct RatioMeasure {
    std::string counter = "FLOP/s";
    std::string column = "GFLOP/s";
    double scale = 1e-9;
    std::vector<std::string> moreBaselines;  // prefixes of further references: one more ratio column each
};

// Benchmarks report the counter `measure.counter`; the one whose name starts with `baselinePrefix` is the
// reference. Finalize() prints "name  value  ratio" (ratio = value ÷ the baseline's value) for all of them, and a
// column more for each of measure.moreBaselines.
class RatioReporter : public benchmark::ConsoleReporter {
public:
    explicit RatioReporter(std::string baselinePrefix, RatioMeasure measure = {})
        : baselinePrefix_(std::move(baselinePrefix)), measure_(std::move(measure)) {}
    void ReportRuns(const std::vector<Run>& runs) override;
    void Finalize() override;

private:
    double valueOf(const std::string& prefix) const;  // the last row whose name starts with prefix; 0 if none
    struct Row {
        std::string name;
        double value;
    };
    std::string baselinePrefix_;
    RatioMeasure measure_;
    std::vector<Row> rows_;
};

}  // namespace attnviz::bench
