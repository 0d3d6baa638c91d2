// bench_tokenizer_limit.cpp — a pasted megabyte over the token limit (issue 31): what the tokenizer spends before
// the sentence is refused. The paste: 1 MiB of base64 (random bytes), about 32,000 short words between its "+" and
// "/", through the bundled model's tokenizer (BERT's WordPiece, the app's default model).
//
// everyToken: encode() of the whole paste, as the worker did before the tokenizer stopped at the limit.
// stopsAtLimit: encode(paste, 128), as the app now asks (twice the default limit of 64, core/limits.h).
// oneWordEveryToken / oneWordStopsAtLimit: the same for a paste with no space (one 1 MiB word of base64; one [UNK]
// to WordPiece, so this one is cheap either way).
// RatioReporter prints each as a ratio to everyToken measured in the same run.
#include "model_bench.h"
#include "ratio_reporter.h"

#include "core/limits.h"
#include "core/random.h"
#include "io/model_library.h"

#include <benchmark/benchmark.h>

#include <string>

namespace {

using namespace attnviz;
using bench::secondsPerIteration;

constexpr std::size_t kPasteBytes = 1 << 20;
constexpr std::size_t kStopAfter = core::limits::kDefaultTokenLimit * core::limits::kTokensCountedPerLimit;

std::string base64Paste() {
    static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    core::SplitMix64 random(31);
    std::string text;
    for (std::size_t i = 0; i < kPasteBytes; ++i) text += alphabet[random.next() % 64];
    return text;
}

const core::Tokenizer* theTokenizer = nullptr;

void encodeWith(benchmark::State& state, const std::string& paste, std::size_t maxTokens) {
    for (auto _ : state) benchmark::DoNotOptimize(theTokenizer->encode(paste, maxTokens).ids.data());
    secondsPerIteration(state);
}

const std::string& paste() {
    static const std::string text = base64Paste();
    return text;
}

const std::string& oneWord() {
    static const std::string text = [] {
        std::string word = paste();
        for (char& c : word) c = c == '+' || c == '/' ? 'A' : c;
        return word;
    }();
    return text;
}

void everyToken(benchmark::State& state) { encodeWith(state, paste(), core::kEveryToken); }
void stopsAtLimit(benchmark::State& state) { encodeWith(state, paste(), kStopAfter); }
void oneWordEveryToken(benchmark::State& state) { encodeWith(state, oneWord(), core::kEveryToken); }
void oneWordStopsAtLimit(benchmark::State& state) { encodeWith(state, oneWord(), kStopAfter); }

}  // namespace

BENCHMARK(everyToken)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(stopsAtLimit)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(oneWordEveryToken)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(oneWordStopsAtLimit)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

int main(int argc, char** argv) {
    const auto model = io::loadBundledModel();
    theTokenizer = model->tokenizer.get();
    benchmark::Initialize(&argc, argv);
    bench::RatioReporter reporter("everyToken", {"s", "ms", 1e3, {}});
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return 0;
}
