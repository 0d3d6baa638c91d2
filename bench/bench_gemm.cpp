// bench_gemm — every installed implementation of core::gemm (gemm.h) on the shapes real models multiply, one
// thread, as ratios to Eigen's GEMM on the same shape in the same run (issue 34; docs/performance.md, "Choosing
// the matrix multiply"). Shapes: all-MiniLM-L6-v2 at 42 tokens, GPT-2 small at 64 and 1,024, Qwen2.5-0.5B and a
// 2,048-wide Llama at 64, and attention's two products per head (S = Q Kᵀ, Z = A V). Each weight shape runs with B
// in × out (as GPT-2 stores it, or transposed once when a model opens) and out × in (nn.Linear as stored, what a
// mapped F32 weight is multiplied by). Run it pinned: `taskset -c 0 bench_gemm --benchmark_repetitions=3
// --benchmark_enable_random_interleaving=true`; the table at the end gives GFLOP/s medians and time ÷ Eigen's.
// "oneDNN packed" (issue 34, item 2: does packing each weight once pay?) packs B once before timing with oneDNN's
// own pack-once sgemm (sgemm_pack / sgemm_compute: exported by libdnnl 2.6 but not in its public headers, so
// measured here and not used by core::gemm) and times only the products.
#include "core/gemm.h"
#include "core/gemm/backends.h"

#ifdef ATTNVIZ_HAVE_ONEDNN
#include <oneapi/dnnl/dnnl.h>
#endif

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#ifdef ATTNVIZ_HAVE_ONEDNN
// oneDNN 2.6's pack-once sgemm, exported by libdnnl but declared in no public header (BLAS conventions: column-major).
using dnnl_dim = long;
extern "C" void omp_set_num_threads(int);  // libgomp, which libdnnl links
namespace dnnl::impl::cpu {
dnnl_status_t sgemm_pack_get_size(const char* identifier, const char* transa, const char* transb, const dnnl_dim* m, const dnnl_dim* n,
                                  const dnnl_dim* k, const dnnl_dim* lda, const dnnl_dim* ldb, std::size_t* size, bool* pack);
dnnl_status_t sgemm_pack(const char* identifier, const char* transa, const char* transb, const dnnl_dim* m, const dnnl_dim* n,
                         const dnnl_dim* k, const dnnl_dim* lda, const dnnl_dim* ldb, const float* source, float* packed);
dnnl_status_t sgemm_compute(const char* transa, const char* transb, const dnnl_dim* m, const dnnl_dim* n, const dnnl_dim* k,
                            const float* a, const dnnl_dim* lda, const float* b, const dnnl_dim* ldb, const float* beta, float* c,
                            const dnnl_dim* ldc);
}  // namespace dnnl::impl::cpu
#endif

using namespace attnviz::core;

namespace {

struct Implementation {
    const char* name;
    void (*multiply)(const GemmInput&, const GemmInput&, BLayout, GemmOutput);
    std::string (*describe)();
    bool packsOnce = false;  // "oneDNN packed": runPackedGemm instead of runGemm
};

std::string describeEigen() {
    return "Eigen";
}

// Eigen first: the table's reference.
const std::vector<Implementation>& implementations() {
    static const std::vector<Implementation> all = {
        {"Eigen", gemmEigen, describeEigen},
#ifdef ATTNVIZ_HAVE_ONEDNN
        {"oneDNN", gemm_backends::oneDnn, gemm_backends::describeOneDnn},
        {"oneDNN packed", gemm_backends::oneDnn, gemm_backends::describeOneDnn, true},
#endif
#ifdef ATTNVIZ_HAVE_OPENBLAS
        {"OpenBLAS", gemm_backends::openBlas, gemm_backends::describeOpenBlas},
#endif
#ifdef ATTNVIZ_HAVE_BLIS
        {"BLIS", gemm_backends::blis, gemm_backends::describeBlis},
#endif
    };
    return all;
}

struct Shape {
    const char* what;
    int m, k, n;
    bool weight;  // a weight (both layouts measured) or an attention product (its one layout)
    BLayout attentionLayout = BLayout::AsStored;
};

const Shape kShapes[] = {
    {"MiniLM 42 tok, Q/K/V/O", 42, 384, 384, true},
    {"MiniLM 42 tok, MLP in", 42, 384, 1536, true},
    {"MiniLM 42 tok, MLP out", 42, 1536, 384, true},
    {"GPT-2 64 tok, Q/K/V/O", 64, 768, 768, true},
    {"GPT-2 64 tok, MLP in", 64, 768, 3072, true},
    {"GPT-2 64 tok, MLP out", 64, 3072, 768, true},
    {"GPT-2 1024 tok, Q/K/V/O", 1024, 768, 768, true},
    {"GPT-2 1024 tok, MLP in", 1024, 768, 3072, true},
    {"GPT-2 1024 tok, MLP out", 1024, 3072, 768, true},
    {"Qwen2.5-0.5B 64 tok, K/V", 64, 896, 128, true},
    {"Qwen2.5-0.5B 64 tok, gate/up", 64, 896, 4864, true},
    {"Qwen2.5-0.5B 64 tok, down", 64, 4864, 896, true},
    {"2048 wide 64 tok, Q/O", 64, 2048, 2048, true},
    {"2048 wide 64 tok, gate/up", 64, 2048, 8192, true},
    {"head 1024 tok, S = Q K^T", 1024, 64, 1024, false, BLayout::Transposed},
    {"head 1024 tok, Z = A V", 1024, 1024, 64, false, BLayout::AsStored},
    {"head 512 tok, S = Q K^T", 512, 64, 512, false, BLayout::Transposed},
    {"head 512 tok, Z = A V", 512, 512, 64, false, BLayout::AsStored},
};

Matrix filled(Eigen::Index rows, Eigen::Index cols, unsigned seed) {
    std::mt19937 engine(seed);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    Matrix m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = value(engine);
    return m;
}

void runGemm(benchmark::State& state, const Shape& shape, BLayout layout, const Implementation& impl) {
    const Matrix a = filled(shape.m, shape.k, 1);
    const Matrix b = layout == BLayout::Transposed ? filled(shape.n, shape.k, 2) : filled(shape.k, shape.n, 2);
    Matrix c(shape.m, shape.n), reference(shape.m, shape.n);
    impl.multiply(a, b, layout, c);
    gemmEigen(a, b, layout, reference);
    if ((c - reference).cwiseAbs().maxCoeff() > 1e-5 * shape.k) state.SkipWithError("differs from Eigen's product");
    for (auto _ : state) {
        impl.multiply(a, b, layout, c);
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    state.counters["FLOP/s"] = benchmark::Counter(2.0 * shape.m * shape.k * shape.n, benchmark::Counter::kIsIterationInvariantRate);
}

#ifdef ATTNVIZ_HAVE_ONEDNN
// "oneDNN packed": row-major C = A · op(B) is column-major Cᵀ = op(B)ᵀ · Aᵀ, so B is the operand packed once ("A" in
// BLAS terms, leading dimension B's row stride); the loop times only the products.
void runPackedGemm(benchmark::State& state, const Shape& shape, BLayout layout) {
    namespace cpu = dnnl::impl::cpu;
    const Matrix a = filled(shape.m, shape.k, 1);
    const Matrix b = layout == BLayout::Transposed ? filled(shape.n, shape.k, 2) : filled(shape.k, shape.n, 2);
    Matrix c(shape.m, shape.n), reference(shape.m, shape.n);
    const char* const transB = layout == BLayout::Transposed ? "T" : "N";
    const dnnl_dim m = shape.n, n = shape.m, k = shape.k, ldb = b.cols(), lda = a.cols(), ldc = c.cols();
    const float beta = 0.0f;
    std::size_t bytes = 0;
    bool packs = false;
    omp_set_num_threads(1);  // one thread, as core::gemm holds oneDNN to
    if (cpu::sgemm_pack_get_size("A", transB, "N", &m, &n, &k, &ldb, &lda, &bytes, &packs) != dnnl_success) {
        state.SkipWithError("oneDNN cannot pack this shape");
        return;
    }
    FloatBuffer packed(bytes / sizeof(float) + 1);
    cpu::sgemm_pack("A", transB, "N", &m, &n, &k, &ldb, &lda, b.data(), packed.data());
    const auto multiply = [&] { cpu::sgemm_compute("P", "N", &m, &n, &k, packed.data(), &ldb, a.data(), &lda, &beta, c.data(), &ldc); };
    multiply();
    gemmEigen(a, b, layout, reference);
    if ((c - reference).cwiseAbs().maxCoeff() > 1e-5 * shape.k) state.SkipWithError("differs from Eigen's product");
    for (auto _ : state) {
        multiply();
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    state.counters["FLOP/s"] = benchmark::Counter(2.0 * shape.m * shape.k * shape.n, benchmark::Counter::kIsIterationInvariantRate);
}
#endif

// "<shape> [in×out|out×in]" — the row label of the table; the benchmark's name is "<label>/<implementation>".
std::string labelOf(const Shape& shape, BLayout layout) {
    if (!shape.weight) return shape.what;
    return std::string(shape.what) + (layout == BLayout::Transposed ? " [W out x in]" : " [W in x out]");
}

// Collects each benchmark's median GFLOP/s and prints, per shape, every implementation's and its time ÷ Eigen's.
class TableReporter : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const Run& run : runs) {
            if (run.run_type != Run::RT_Aggregate || run.aggregate_name != "median") continue;
            const std::string& name = run.run_name.function_name;  // "<label>/<implementation>", no /min_time: etc.
            const auto slash = name.rfind('/');
            const auto counter = run.counters.find("FLOP/s");
            if (slash == std::string::npos || counter == run.counters.end()) continue;
            const std::string label = name.substr(0, slash), impl = name.substr(slash + 1);
            if (std::find(labels_.begin(), labels_.end(), label) == labels_.end()) labels_.push_back(label);
            gflops_[label][impl] = counter->second.value * 1e-9;
        }
    }
    void Finalize() override {
        ConsoleReporter::Finalize();
        std::printf("\nGFLOP/s (median), and time / Eigen's time on the same shape (< 1: faster than Eigen)\n%-46s", "shape (m x k x n)");
        for (const Implementation& impl : implementations()) std::printf(" %18s", impl.name);
        std::printf("\n");
        for (const std::string& label : labels_) {
            auto& row = gflops_[label];
            std::printf("%-46s", label.c_str());
            for (const Implementation& impl : implementations()) {
                const double value = row[impl.name], eigen = row["Eigen"];
                if (value > 0 && eigen > 0) std::printf("     %6.1f (%4.2f)", value, eigen / value);
                else std::printf(" %18s", "-");
            }
            std::printf("\n");
        }
    }

private:
    std::vector<std::string> labels_;
    std::map<std::string, std::map<std::string, double>> gflops_;
};

}  // namespace

int main(int argc, char** argv) {
    std::printf("core::gemm uses: %s\n", gemmImplementation().c_str());
    for (const Implementation& impl : implementations()) std::printf("  %-9s %s\n", impl.name, impl.describe().c_str());
    for (const Shape& shape : kShapes) {
        const std::vector<BLayout> layouts = shape.weight ? std::vector<BLayout>{BLayout::AsStored, BLayout::Transposed}
                                                          : std::vector<BLayout>{shape.attentionLayout};
        for (const BLayout layout : layouts) {
            const std::string label = labelOf(shape, layout) + " " + std::to_string(shape.m) + "x" + std::to_string(shape.k) + "x" +
                                      std::to_string(shape.n);
            for (const Implementation& impl : implementations()) {
                const std::string name = label + "/" + impl.name;
#ifdef ATTNVIZ_HAVE_ONEDNN
                benchmark::internal::Benchmark* const run = impl.packsOnce ? benchmark::RegisterBenchmark(name.c_str(), runPackedGemm, shape, layout)
                                                                           : benchmark::RegisterBenchmark(name.c_str(), runGemm, shape, layout, impl);
#else
                benchmark::internal::Benchmark* const run = benchmark::RegisterBenchmark(name.c_str(), runGemm, shape, layout, impl);
#endif
                run->Unit(benchmark::kMicrosecond)->MinTime(0.05);
            }
        }
    }
    benchmark::Initialize(&argc, argv);
    TableReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
}
