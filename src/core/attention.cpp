// attention.cpp — the forward pass of multi-head attention, keeping every intermediate.
//
// Dimension legend: see attention.h (b, h, l_q, l_k, d_model, d_k, d_v). All storage is row-major, so a
// b × l × d tensor's data is also a (b·l) × d matrix: projections run once over every row of the batch.
//
// Passes (the stage numbers of docs/design.md):
//   [1] pad the batch into X (b × l_k × d_model) and X_query (b × l_q × d_model)
//   [2] project: Q = X_q W^Q + b^Q, K = X W^K + b^K, V = X W^V + b^V   (one work item per head block)
//   [3] split heads: Q_i = Q[:, :, i·d_k:(i+1)·d_k] → b × h × l × d_k (K and V into h_kv heads), then, when the
//       layer has them, the per-head RMSNorm of q and k and the rotary positions; one work item per head (a plain
//       copy, without those, is done by forwardInto's projections as their rows are made)
//   per (batch, query head) work item, on all cores (query head i reads K/V head i / (h / h_kv)):
//     [4–8] S_i = Q_i K_iᵀ, scale, mask, softmax, Z_i = A_i V_i, fused over cache-sized panels of query rows
//     [9] concat: write Z_i into its block of Z = [Z_0 … Z_{h−1}] → b × l_q × h·d_v
//   [10] output: O = Z W^O + b^O
//   and the per-head path: Q_i = X_q W_i^Q with h separate matrices, compared with [3].
// A large batch's S, S·scale and masked S are not stored, only their statistics (derived_maps.h derives them); with
// keepStageMaps off, not even those. [5–7] run as three vectorised sweeps of each score row (scaleAndMaskRow,
// expAndNormaliseRow). attendLean is the same arithmetic without a Trace, for the layers nobody steps through.
// Beside it: the tensor table (attention_tensors.cpp), the checks of sizes, weights and input (attention_checks.cpp),
// the vectorised row kernels (attention_kernels.cpp), the error type (input_error.h).
#include "core/attention.h"
#include "core/attention_internal.h"

#include "core/derived_maps.h"
#include "core/gemm.h"
#include "core/parallel.h"
#include "core/random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>

#if defined(__AVX512F__) || defined(__AVX__)
#include <immintrin.h>  // _mm_sfence after streaming stores
#endif

namespace attnviz::core {

using namespace attention_detail;  // checkInput and the row kernels

namespace {

// Tuning of the fused [4–8] pass (attendOneHead), chosen with bench/bench_forward on a 2-core AVX-512 Xeon with
// 2 MB of L2 per core (docs/performance.md; 0.5 to 1.5 MB per panel measured alike within the noise):
constexpr long long kPanelBytes = 1024 * 1024;               // scratch per panel: its scores and weights
constexpr long long kPanelMinRows = 16;                      // never fewer query rows per panel
constexpr long long kStreamingMinElements = 512LL * 512;     // l_q · l_k from which maps are streamed to memory

void copyInto(Tensor& tensor, std::vector<int> shape, const Matrix& source) {
    tensor.reshape(std::move(shape));
    std::copy(source.data(), source.data() + source.size(), tensor.data.begin());
}

// A b × l × width tensor seen as a (b·l) × width row-major matrix.
Eigen::Map<Matrix> asRows(Tensor& t) {
    return Eigen::Map<Matrix>(t.data.data(), static_cast<Eigen::Index>(t.size() / t.cols()), t.cols());
}
MatrixView asRows(const Tensor& t) {
    return MatrixView(t.data.data(), static_cast<Eigen::Index>(t.size() / t.cols()), t.cols());
}

// [1] b unpadded matrices → b × l × d_model, zero rows after each sequence's end.
void padBatchInto(Tensor& padded, const std::vector<Matrix>& sequences, int length, int dModel) {
    const int batch = static_cast<int>(sequences.size());
    padded.reshape({batch, length, dModel});
    for (int b = 0; b < batch; ++b) {
        const Matrix& rows = sequences[static_cast<std::size_t>(b)];
        Eigen::Map<Matrix> slice(padded.sliceData(b), length, dModel);
        slice.topRows(rows.rows()) = rows;
        slice.bottomRows(length - rows.rows()).setZero();
    }
}

int longest(const std::vector<Matrix>& sequences) {
    int length = 0;
    for (const Matrix& m : sequences) length = std::max(length, static_cast<int>(m.rows()));
    return length;
}

std::vector<int> lengthsOf(const std::vector<Matrix>& sequences) {
    std::vector<int> lengths;
    for (const Matrix& m : sequences) lengths.push_back(static_cast<int>(m.rows()));
    return lengths;
}

// [2] and [10]: out = in · W + bias over all (b·l) rows, computed in row blocks so every core runs one large
// GEMM (row blocks keep W's full width: narrow per-head column blocks ran at half the GEMM's speed).
struct Linear {
    const Tensor* input;     // b × l × d_in
    const Matrix* weight;    // d_in × d_out
    const RowVector* bias;   // 1 × d_out or empty
    Tensor* output;          // b × l × d_out
    Tensor* heads = nullptr; // b × h × l × w (h·w = d_out): also [3], the output's rows split into heads; or nullptr
};

// [3] Rows first … first + count − 1 of a b × l × h·w tensor, seen as (b·l) rows, into their heads of b × h × l × w.
void splitRows(const Tensor& fused, Tensor& split, Eigen::Index first, Eigen::Index count) {
    const int heads = split.dim(1), length = split.dim(2), width = split.dim(3);
    const std::ptrdiff_t headSize = static_cast<std::ptrdiff_t>(length) * width;  // one (batch, head) slice
    for (Eigen::Index row = first; row < first + count; ++row) {
        const std::ptrdiff_t b = row / length, position = row % length;
        const float* const source = fused.data.data() + row * heads * width;
        float* const destination = split.data.data() + b * heads * headSize + position * width;  // head 0's row
        for (int i = 0; i < heads; ++i) std::copy(source + i * width, source + (i + 1) * width, destination + i * headSize);
    }
}

// Rows per GEMM when a projection's rows are split into heads as they are made: small enough that they are still in
// the core's cache when split (64 × 4096 floats: 1 MiB), large enough that the GEMM runs at full speed
// (docs/performance.md: 64-row products run as fast as 1,024-row ones).
constexpr Eigen::Index kSplitChunkRows = 64;

void linearRowBlock(const Linear& p, int block, int blocks) {
    const MatrixView in = asRows(*p.input);
    const Eigen::Index rows = in.rows();
    const Eigen::Index first = rows * block / blocks, last = rows * (block + 1) / blocks;
    const Eigen::Index step = p.heads ? kSplitChunkRows : last - first;
    for (Eigen::Index chunk = first; chunk < last; chunk += step) {
        const Eigen::Index count = std::min(step, last - chunk);
        auto out = asRows(*p.output).middleRows(chunk, count);
        gemm(in.middleRows(chunk, count), *p.weight, BLayout::AsStored, out);
        if (p.bias->size() > 0) out.rowwise() += *p.bias;
        if (p.heads) splitRows(*p.output, *p.heads, chunk, count);
    }
}

// How many row blocks to split a linear layer into: one per core when threads are worth it.
int rowBlocksFor(bool threaded) {
    return threaded ? usableCores() : 1;
}

// [3] Head i of batch element b: columns i·w … (i+1)·w − 1 of a b × l × h·w tensor → slice (b, i) of b × h × l × w.
void splitOneHead(const Tensor& fused, Tensor& split, int b, int i) {
    const int heads = split.dim(1), length = split.dim(2), width = split.dim(3);
    Eigen::Map<Matrix>(split.sliceData(b * heads + i), length, width) = fused.slice(b).middleCols(i * width, width);
}

// [9] The inverse: slice (b, i) of b × h × l × w → its column block of b × l × h·w.
void concatOneHead(const Tensor& split, Tensor& fused, int b, int i) {
    const int heads = split.dim(1), length = split.dim(2), width = split.dim(3);
    Eigen::Map<Matrix>(fused.sliceData(b), length, heads * width).middleCols(i * width, width) = split.slice(b * heads + i);
}

// [9½] The switched-off heads (AttentionConfig::headsOff) in the concatenation b × l × h·d_v: head i's column block
// zeroed, or each of its rows replaced by the mean of its rows over the sentence's own tokens (`lengths`, one per
// batch element; padded rows stay as they were). A head outside 0 … h − 1 throws InputError.
void switchHeadsOff(Tensor& concat, const std::vector<HeadOff>& headsOff, const std::vector<int>& lengths, int heads, int dV) {
    for (const HeadOff& off : headsOff) {
        if (off.head < 0 || off.head >= heads) {
            throw InputError("Head " + std::to_string(off.head) + " cannot be switched off: the layer has heads 0 to " + std::to_string(heads - 1) + ".");
        }
        for (int b = 0; b < concat.dim(0); ++b) {
            const int length = lengths[static_cast<std::size_t>(b)];
            Eigen::Map<Matrix> sentence(concat.sliceData(b), concat.dim(1), heads * dV);  // l × h·d_v
            auto block = sentence.block(0, off.head * dV, length, dV);                      // l_b × d_v: Z_i
            if (off.mode == HeadOffMode::Zero) {
                block.setZero();
            } else {
                const RowVector mean = block.colwise().mean();  // 1 × d_v
                block = mean.replicate(length, 1);
            }
        }
    }
}

// [3] RMSNorm of each row of one head (Qwen3's q_norm / k_norm): x / √(mean(x²) + ε) · γ.
template <typename Rows>  // a Map of l × d_k rows, contiguous or strided
void rmsNormRows(Rows rows, const RowVector& gamma, float eps) {
    for (Eigen::Index r = 0; r < rows.rows(); ++r) {
        const float meanSquare = rows.row(r).squaredNorm() / static_cast<float>(rows.cols());
        rows.row(r) = (rows.row(r) / std::sqrt(meanSquare + eps)).cwiseProduct(gamma);
    }
}

// cos and sin of p·θ_j for p = 0 … l − 1, j = 0 … d_k/2 − 1 (l × d_k/2 each), computed in double.
struct RotaryTable {
    Matrix cos, sin;
};

RotaryTable rotaryTable(const RowVector& frequencies, int length) {
    RotaryTable table{Matrix(length, frequencies.size()), Matrix(length, frequencies.size())};
    for (int p = 0; p < length; ++p) {
        for (Eigen::Index j = 0; j < frequencies.size(); ++j) {
            const double angle = static_cast<double>(p) * static_cast<double>(frequencies(j));
            table.cos(p, j) = static_cast<float>(std::cos(angle));
            table.sin(p, j) = static_cast<float>(std::sin(angle));
        }
    }
    return table;
}

// [3] RoPE in HF's rotate-half form (modeling_llama.py apply_rotary_pos_emb): with x = [x1 | x2] (halves of d_k),
// x·cos + [−x2 | x1]·sin, row p at angle p·θ_j: each pair (x1_j, x2_j) turns by p·θ_j.
template <typename Rows>  // a Map of l × d_k rows, contiguous or strided
void rotateRows(Rows rows, const RotaryTable& table) {
    const Eigen::Index half = table.cos.cols();
    for (Eigen::Index p = 0; p < rows.rows(); ++p) {
        for (Eigen::Index j = 0; j < half; ++j) {
            const float x1 = rows(p, j), x2 = rows(p, j + half), c = table.cos(p, j), s = table.sin(p, j);
            rows(p, j) = x1 * c - x2 * s;
            rows(p, j + half) = x2 * c + x1 * s;
        }
    }
}

// [3] for one head of Q or K: split, norm (when γ is given), keep the unrotated copy, rotate (when RoPE is on).
void prepareOneHead(const Tensor& fused, Tensor& split, Tensor& beforeRope, const RowVector& gamma, float eps,
                    const RotaryTable* table, int b, int i) {
    splitOneHead(fused, split, b, i);
    const int heads = split.dim(1), length = split.dim(2), width = split.dim(3);
    Eigen::Map<Matrix> rows(split.sliceData(b * heads + i), length, width);
    if (gamma.size() > 0) rmsNormRows(rows, gamma, eps);
    if (!table) return;
    Eigen::Map<Matrix>(beforeRope.sliceData(b * heads + i), length, width) = rows;
    rotateRows(rows, *table);
}

// [6] The mask as PyTorch broadcasts it: b × 1 × 1 × l_k (key padding) or b × 1 × l_q × l_k (causal, both,
// or padding that also hides padded query rows).
void buildMaskInto(Tensor& mask, const AttentionConfig& config, const std::vector<int>& queryLengths,
                   const std::vector<int>& keyLengths, int queryLength, int keyLength) {
    if (config.mask == MaskKind::None) {
        mask = Tensor{};
        return;
    }
    const bool padding = config.mask == MaskKind::Padding || config.mask == MaskKind::Both;
    const bool causal = config.mask == MaskKind::Causal || config.mask == MaskKind::Both;
    const bool paddedQueries = padding && config.maskPaddedQueries;
    const int batch = static_cast<int>(keyLengths.size());
    const int rows = causal || paddedQueries ? queryLength : 1;
    mask.reshape({batch, 1, rows, keyLength});
    for (int b = 0; b < batch; ++b) {
        const int keys = keyLengths[static_cast<std::size_t>(b)], queries = queryLengths[static_cast<std::size_t>(b)];
        Eigen::Map<Matrix> m(mask.sliceData(b), rows, keyLength);
        for (int r = 0; r < rows; ++r) {
            for (int c = 0; c < keyLength; ++c) {
                const bool keyVisible = !padding || c < keys;
                const bool queryReal = !paddedQueries || r < queries;
                const bool notFuture = !causal || c <= r;
                const bool inWindow = !causal || config.slidingWindow <= 0 || c > r - config.slidingWindow;
                m(r, c) = keyVisible && queryReal && notFuture && inWindow ? 1.0f : 0.0f;
            }
        }
    }
}

// Streaming pays only when a head's maps are larger than the caches would keep for the next reader.
bool worthStreaming(int lq, int lk) { return static_cast<long long>(lq) * lk >= kStreamingMinElements; }

// Query rows per panel of [4–8]: the panel's scores and weights (2 · rows · l_k floats) stay in a core's L2 cache.
int panelRowsFor(int lq, int lk) {
    const int rows = static_cast<int>(std::max<long long>(kPanelMinRows, kPanelBytes / (2LL * lk * static_cast<long long>(sizeof(float)))));
    return std::min(lq, rows);
}

// The three maps a large Trace derives instead of storing (derived_maps.h), in the order [4], [5], [6].
constexpr std::array<TensorId, 3> kDerivableMaps{TensorId::Scores, TensorId::ScaledScores, TensorId::MaskedScores};
using MapStats = std::array<ValueStats, kDerivableMaps.size()>;  // one per kDerivableMaps entry

float fillValueOf(MaskFill fill) { return fill == MaskFill::MinusInfinity ? -std::numeric_limits<float>::infinity() : -1e9f; }

// What the fused pass reads of one (batch, head) pair, and the shared panel code of the pass and of deriveMapSlice
// (the same calls in the same order, so a derived map has the bits a stored one would have had).
struct HeadInputs {
    MatrixView qi;                    // l_q × d_k
    MatrixView ki;                    // l_k × d_k
    std::optional<MatrixView> mask;   // 1 × l_k (broadcast over rows) or l_q × l_k; none without a mask
    float scale;
    float fill;
    int panelRows;                    // query rows per panel (panelRowsFor)
};

HeadInputs headInputs(const Trace& t, int batchHead) {
    const int b = batchHead / t.dims.heads, i = batchHead % t.dims.heads;
    const Tensor& mask = t[TensorId::Mask];
    return {t[TensorId::QHeads].slice(batchHead), t[TensorId::KHeads].slice(b, keyValueHead(t.dims, i)),
            mask.empty() ? std::nullopt : std::optional<MatrixView>(mask.slice(b, i)), t.dims.scale, fillValueOf(t.fill),
            panelRowsFor(t.queryLength, t.keyLength)};
}

// [4] S_panel = Q_i,panel K_iᵀ for query rows first … first + rows − 1.
void scoresPanel(const HeadInputs& in, int first, int rows, Eigen::Map<Matrix> s) {
    gemm(in.qi.middleRows(first, rows), in.ki, BLayout::Transposed, s);
}

// The mask row query row `row` reads (a 1 × l_k mask broadcasts over rows), or nullptr without a mask.
const float* maskRowOf(const HeadInputs& in, int row) {
    return in.mask ? in.mask->row(in.mask->rows() == 1 ? 0 : row).data() : nullptr;
}

struct HeadContext {
    Trace* trace;                  // reads the head splits and the mask; writes this head's slices only
    bool storeScores;              // S stored; else, like S·scale and masked S always, only its statistics kept
    std::vector<MapStats>* stats;  // b·h entries: one per work item, merged after the pass; nullptr: no statistics
};

// [3–9] for one (batch, head) pair. [4–8] run over panels of query rows, fused: S_panel = Q_i,panel K_iᵀ lands
// in a scratch buffer that stays in cache; one pass per row then writes S (when stored) and A = softmax to the
// Trace, and counts S · scale and the masked scores into their statistics (they are derived from S when read);
// Z_panel = A_panel V_i reads A from the same scratch. Each stored l_q × l_k map thus crosses the memory bus once,
// written; before, the GEMM's zero-fill, the scale, the copy and the softmax passes each went over whole maps (at
// l = 2048 a map is 16 MB, far beyond the caches).
// Deterministic: panel sizes depend only on l_q and l_k, never on the thread that runs the head.
void attendOneHead(const HeadContext& ctx, int batchHead) {
    Trace& t = *ctx.trace;
    const int b = batchHead / t.dims.heads, i = batchHead % t.dims.heads;
    const int lq = t.queryLength, lk = t.keyLength;
    const HeadInputs in = headInputs(t, batchHead);
    const MatrixView vi = t[TensorId::VHeads].slice(b, keyValueHead(t.dims, i));  // l_k × d_v
    float* const scores = ctx.storeScores ? t[TensorId::Scores].sliceData(batchHead) : nullptr;  // l_q × l_k, when stored
    MapStats* const stats = ctx.stats ? &(*ctx.stats)[static_cast<std::size_t>(batchHead)] : nullptr;
    // Without a mask the masked scores are S·scale bit for bit: one row and one set of statistics serve both.
    const bool maskedIsScaled = !in.mask;
    const bool stageRows = stats != nullptr && !maskedIsScaled;  // S·scale is needed as a row of its own
    float* const weights = t[TensorId::AttentionWeights].sliceData(batchHead);  // l_q × l_k
    Eigen::Map<Matrix> z(t[TensorId::ZHeads].sliceData(batchHead), lq, t.dims.dV);
    const std::uint8_t* fullyMasked = &t.fullyMaskedRows[static_cast<std::size_t>(b) * lq];
    const bool streaming = worthStreaming(lq, lk);
    // Each row's S, S·scale and masked S, once computed: S stored when asked, the rest only counted in the statistics.
    const auto keep = [&](std::size_t map, std::size_t offset, const float* row) {
        if (map == 0 && scores) storeRow(scores + offset, row, lk, streaming);
        else if (stats) (*stats)[map].addAll(row, static_cast<std::size_t>(lk));
    };

    const std::size_t panelSize = static_cast<std::size_t>(in.panelRows) * lk;
    FloatBuffer scratch(2 * panelSize + 2 * static_cast<std::size_t>(lk));  // S panel | A panel | S·scale row | masked row
    float* const scaled = scratch.data() + 2 * panelSize;
    float* const masked = scaled + lk;
    for (int first = 0; first < lq; first += in.panelRows) {
        const int rows = std::min(in.panelRows, lq - first);
        Eigen::Map<Matrix> s(scratch.data(), rows, lk);
        Eigen::Map<Matrix> a(scratch.data() + panelSize, rows, lk);
        scoresPanel(in, first, rows, s);  // [4]
        for (int r = 0; r < rows; ++r) {
            const int row = first + r;
            const std::size_t offset = static_cast<std::size_t>(row) * lk;
            keep(0, offset, s.row(r).data());
            const float largest = scaleAndMaskRow(s.row(r).data(), maskRowOf(in, row), in.scale, in.fill, stageRows ? scaled : nullptr,
                                                  masked, lk);  // [5–6]
            if (!maskedIsScaled) keep(1, offset, scaled);
            keep(2, offset, masked);
            softmaxRow(masked, largest, a.row(r).data(), lk, fullyMasked[row] != 0, t.softmax);  // [7]
            storeRow(weights + offset, a.row(r).data(), lk, streaming);
        }
        gemm(a, vi, BLayout::AsStored, z.middleRows(first, rows));  // [8]
    }
#if defined(__AVX512F__) || defined(__AVX__)
    if (streaming) _mm_sfence();  // streaming stores are weakly ordered: finish them before another thread reads
#endif
    if (stats && maskedIsScaled) (*stats)[1] = (*stats)[2];
    concatOneHead(t[TensorId::ZHeads], t[TensorId::Concat], b, i);
}

// Whether the batch's maps are too large to keep all four (AttentionConfig::storeMapsUpTo).
bool derivesMaps(const AttentionConfig& config, int batch, int heads, int lq, int lk) {
    return static_cast<std::int64_t>(batch) * heads * lq * lk > config.storeMapsUpTo;
}

// Shapes the four maps; derived ones keep their shape and give their memory back. S·scale and the masked scores are
// always derived (one multiply and one select per element of S: storing them cost more than deriving them when
// shown); S too when `deriveScores` (one GEMM per slice).
void shapeMaps(Trace& t, bool deriveScores) {
    const std::vector<int> shape{t.batch, t.dims.heads, t.queryLength, t.keyLength};
    t.derived.fill(false);
    t.stats.fill(std::nullopt);
    for (TensorId id : kDerivableMaps) {
        const bool derive = deriveScores || id != TensorId::Scores;
        t.derived[static_cast<std::size_t>(id)] = derive;
        if (derive) {
            t[id].shape = shape;
            t[id].data = FloatBuffer{};
        } else {
            t[id].reshape(shape);
        }
    }
    t[TensorId::AttentionWeights].reshape(shape);
    t.derivedCache = std::make_shared<DerivedSliceCache>(kDerivedCacheBytes);
}

// The derived maps' statistics, merged over the pass's work items (a stored S is read when asked, as any tensor).
void mergeMapStats(Trace& t, const std::vector<MapStats>& perHead) {
    if (perHead.empty()) return;
    for (std::size_t k = 0; k < kDerivableMaps.size(); ++k) {
        if (!t.isDerived(kDerivableMaps[k])) continue;
        ValueStats merged;
        for (const MapStats& head : perHead) merged.merge(head[k]);
        t.stats[static_cast<std::size_t>(kDerivableMaps[k])] = merged;
    }
}

std::vector<std::uint8_t> findFullyMaskedRows(const Tensor& mask, int batch, int queryLength, int keyLength) {
    std::vector<std::uint8_t> rows(static_cast<std::size_t>(batch) * queryLength, 0);
    if (mask.empty()) return rows;
    for (int b = 0; b < batch; ++b) {
        const MatrixView m = mask.slice(b, 0);
        for (int r = 0; r < queryLength; ++r) {
            const auto maskRow = m.row(m.rows() == 1 ? 0 : r);
            rows[static_cast<std::size_t>(b) * queryLength + r] = maskRow.head(keyLength).maxCoeff() == 0.0f ? 1 : 0;
        }
    }
    return rows;
}

// Seed 004: h separate d_model × w matrices give the same head blocks as the fused projection (b × l × h·w).
float perHeadDifference(const Tensor& input, const Matrix& fused, const RowVector& bias, const Tensor& projected, int heads) {
    const int width = projected.cols() / heads, batch = projected.dim(0), length = projected.dim(1);
    float largest = 0.0f;
    for (int i = 0; i < heads; ++i) {
        const Matrix wi = headBlock(fused, i, width);  // d_model × w, its own matrix
        Matrix qi = asRows(input) * wi;                // (b·l) × w
        if (bias.size() > 0) qi.rowwise() += bias.middleCols(i * width, width);
        for (int b = 0; b < batch; ++b) {
            const auto mine = qi.middleRows(static_cast<Eigen::Index>(b) * length, length);
            largest = std::max(largest, (mine - projected.slice(b).middleCols(i * width, width)).cwiseAbs().maxCoeff());
        }
    }
    return largest;
}

bool worthThreads(const Dimensions& d, int rows) {
    return static_cast<double>(rows) * d.dModel * d.dModel > 4.0e6;  // below ~4 MFLOP a thread costs more
}

// [3] Q into h heads, K and V into h_kv heads; q and k normed and rotated when the layer says so. One work item per
// (batch, head) of each: b·h for Q, then b·h_kv for K, then b·h_kv for V.
// Shapes Q_i, K_i and V_i (and the heads before RoPE, or empties them without rotary positions).
void shapeHeads(Trace& t, bool rotary) {
    const Dimensions& d = t.dims;
    const int b = t.batch, h = d.heads, hkv = d.kvHeads, lq = t.queryLength, lk = t.keyLength;
    t[TensorId::QHeads].reshape({b, h, lq, d.dK});
    t[TensorId::KHeads].reshape({b, hkv, lk, d.dK});
    t[TensorId::VHeads].reshape({b, hkv, lk, d.dV});
    if (rotary) {
        t[TensorId::QHeadsBeforeRope].reshape({b, h, lq, d.dK});
        t[TensorId::KHeadsBeforeRope].reshape({b, hkv, lk, d.dK});
    } else {
        t[TensorId::QHeadsBeforeRope] = Tensor{};
        t[TensorId::KHeadsBeforeRope] = Tensor{};
    }
}

// Whether [3] is a plain copy of columns (no per-head RMSNorm, no rotary positions): then forwardInto splits each
// projection's rows while they are in cache (Linear::heads) instead of in a pass of its own.
bool splitIsCopy(const Weights& weights, const AttentionConfig& config) {
    return config.rotaryFrequencies.size() == 0 && weights.qNorm.size() == 0 && weights.kNorm.size() == 0;
}

void splitHeads(const Weights& weights, const AttentionConfig& config, Trace& t, bool threaded) {
    const Dimensions& d = t.dims;
    const int b = t.batch, h = d.heads, hkv = d.kvHeads, lq = t.queryLength, lk = t.keyLength;
    const bool rotary = config.rotaryFrequencies.size() > 0;
    shapeHeads(t, rotary);
    std::optional<RotaryTable> queryTable, keyTable;
    if (rotary) {
        queryTable = rotaryTable(config.rotaryFrequencies, lq);
        keyTable = rotaryTable(config.rotaryFrequencies, lk);
    }
    parallelFor(b * (h + 2 * hkv), threaded, [&](int item) {
        if (item < b * h) {
            prepareOneHead(t[TensorId::Q], t[TensorId::QHeads], t[TensorId::QHeadsBeforeRope], weights.qNorm, weights.qkNormEps,
                           rotary ? &*queryTable : nullptr, item / h, item % h);
            return;
        }
        item -= b * h;
        if (item < b * hkv) {
            prepareOneHead(t[TensorId::K], t[TensorId::KHeads], t[TensorId::KHeadsBeforeRope], weights.kNorm, weights.qkNormEps,
                           rotary ? &*keyTable : nullptr, item / hkv, item % hkv);
            return;
        }
        item -= b * hkv;
        splitOneHead(t[TensorId::V], t[TensorId::VHeads], item / hkv, item % hkv);
    });
}


// ---- the lean pass (attendLean): no Trace, no per-stage maps, heads read and written in place ----

using StridedMap = Eigen::Map<Matrix, 0, Eigen::OuterStride<>>;         // a column block of a wider row-major matrix
using StridedView = Eigen::Map<const Matrix, 0, Eigen::OuterStride<>>;

// The key columns query row r can see: first … last; first > last for a fully masked row.
struct KeySpan {
    int first = 0;
    int last = -1;
};

// b × l_q spans from the mask (every key without one).
std::vector<KeySpan> visibleSpans(const Tensor& mask, int batch, int lq, int lk) {
    std::vector<KeySpan> spans(static_cast<std::size_t>(batch) * lq, KeySpan{0, lk - 1});
    if (mask.empty()) return spans;
    for (int b = 0; b < batch; ++b) {
        const MatrixView m = mask.slice(b, 0);
        for (int r = 0; r < lq; ++r) {
            const float* keep = m.row(m.rows() == 1 ? 0 : r).data();
            KeySpan span{lk, -1};
            for (int c = 0; c < lk; ++c) {
                if (keep[c] == 0.0f) continue;
                span.first = std::min(span.first, c);
                span.last = c;
            }
            spans[static_cast<std::size_t>(b) * lq + r] = span;
        }
    }
    return spans;
}

// One projection of the fused [Q | K | V] buffer: rows block … of X · W + bias into columns firstColumn … of qkv.
void projectRowBlock(const Tensor& x, const Matrix& w, const RowVector& bias, Tensor& qkv, int firstColumn, int block, int blocks) {
    const MatrixView in = asRows(x);
    const Eigen::Index rows = in.rows(), first = rows * block / blocks, last = rows * (block + 1) / blocks;
    if (last <= first) return;
    StridedMap out(qkv.data.data() + first * qkv.cols() + firstColumn, last - first, w.cols(), Eigen::OuterStride<>(qkv.cols()));
    gemm(in.middleRows(first, last - first), w, BLayout::AsStored, out);
    if (bias.size() > 0) out.rowwise() += bias;
}

// What every head of the lean pass reads and writes.
struct LeanContext {
    const Tensor* qkv;            // b × l × (h·d_k | h_kv·d_k | h_kv·d_v)
    const Tensor* mask;           // as forward builds it, or empty
    const std::vector<KeySpan>* spans;             // b × l
    const std::vector<std::uint8_t>* fullyMasked;  // b × l
    const std::vector<int>* lengths;               // b: unpadded l
    Dimensions dims;
    float fill;
    SoftmaxMode softmax;
    Tensor* concat;               // b × l × h·d_v
    float* weights;               // b × h × l × l, or nullptr
    std::vector<std::uint8_t>* nonFinite;  // b × h
};

// The key columns a panel of query rows needs: the union of its rows' spans; every column when a fully masked row
// must be computed literally (PyTorch mode: uniform or NaN over all keys). Masked keys outside it weigh exactly 0.
KeySpan panelSpan(const LeanContext& ctx, int b, int first, int rows, int lk) {
    const std::size_t base = static_cast<std::size_t>(b) * ctx.qkv->dim(1);  // row 0 of batch element b
    KeySpan span{lk, -1};
    for (int r = first; r < first + rows; ++r) {
        if ((*ctx.fullyMasked)[base + r] != 0) {
            if (ctx.softmax == SoftmaxMode::PyTorch) return KeySpan{0, lk - 1};
            continue;
        }
        span.first = std::min(span.first, (*ctx.spans)[base + r].first);
        span.last = std::max(span.last, (*ctx.spans)[base + r].last);
    }
    return span;
}

// [4–9] for one (batch, head) pair of the lean pass: panels of query rows as attendOneHead, over only the key columns
// the panel sees; A to ctx.weights when asked; Z_panel straight into the head's column block of the concatenation.
void attendLeanHead(const LeanContext& ctx, int batchHead) {
    const Dimensions& d = ctx.dims;
    const int b = batchHead / d.heads, i = batchHead % d.heads, kv = keyValueHead(d, i);
    const int l = ctx.qkv->dim(1), width = ctx.qkv->cols(), qWidth = d.heads * d.dK, kWidth = d.kvHeads * d.dK;
    const float* const base = ctx.qkv->data.data() + static_cast<std::size_t>(b) * l * width;
    const StridedView qi(base + i * d.dK, l, d.dK, Eigen::OuterStride<>(width));
    const StridedView ki(base + qWidth + kv * d.dK, l, d.dK, Eigen::OuterStride<>(width));
    const StridedView vi(base + qWidth + kWidth + kv * d.dV, l, d.dV, Eigen::OuterStride<>(width));
    StridedMap z(ctx.concat->sliceData(b) + i * d.dV, l, d.dV, Eigen::OuterStride<>(d.heads * d.dV));
    const std::optional<MatrixView> mask = ctx.mask->empty() ? std::nullopt : std::optional<MatrixView>(ctx.mask->slice(b, i));
    float* const weights = ctx.weights ? ctx.weights + static_cast<std::size_t>(batchHead) * l * l : nullptr;
    const std::uint8_t* const fullyMasked = &(*ctx.fullyMasked)[static_cast<std::size_t>(b) * l];
    const int realRows = (*ctx.lengths)[static_cast<std::size_t>(b)];
    const bool streaming = worthStreaming(l, l);
    const int panelRows = panelRowsFor(l, l);
    const std::size_t panelSize = static_cast<std::size_t>(panelRows) * l;
    FloatBuffer scratch(2 * panelSize + static_cast<std::size_t>(l));  // S panel | A panel | masked row
    float* const masked = scratch.data() + 2 * panelSize;
    bool finite = true;
    for (int first = 0; first < l; first += panelRows) {
        const int rows = std::min(panelRows, l - first);
        const KeySpan span = panelSpan(ctx, b, first, rows, l);
        const int n = span.last - span.first + 1;
        if (n <= 0) {  // every row fully masked, Safe mode: zero weights, zero output
            if (weights) std::fill(weights + static_cast<std::size_t>(first) * l, weights + static_cast<std::size_t>(first + rows) * l, 0.0f);
            z.middleRows(first, rows).setZero();
            continue;
        }
        Eigen::Map<Matrix> s(scratch.data(), rows, n);
        Eigen::Map<Matrix> a(scratch.data() + panelSize, rows, n);
        gemm(qi.middleRows(first, rows), ki.middleRows(span.first, n), BLayout::Transposed, s);  // [4]
        for (int r = 0; r < rows; ++r) {
            const int row = first + r;
            const float* keep = mask ? mask->row(mask->rows() == 1 ? 0 : row).data() + span.first : nullptr;
            const float largest = scaleAndMaskRow(s.row(r).data(), keep, d.scale, ctx.fill, nullptr, masked, n);  // [5–6]
            const bool rowFinite = softmaxRow(masked, largest, a.row(r).data(), n, fullyMasked[row] != 0, ctx.softmax);  // [7]
            if (row < realRows) finite = finite && rowFinite;
            if (!weights) continue;
            float* const out = weights + static_cast<std::size_t>(row) * l;
            std::fill(out, out + span.first, 0.0f);
            storeRow(out + span.first, a.row(r).data(), n, streaming);
            std::fill(out + span.last + 1, out + l, 0.0f);
        }
        gemm(a, vi.middleRows(span.first, n), BLayout::AsStored, z.middleRows(first, rows));  // [8–9]
    }
#if defined(__AVX512F__) || defined(__AVX__)
    if (streaming && weights) _mm_sfence();
#endif
    (*ctx.nonFinite)[static_cast<std::size_t>(batchHead)] = finite ? 0 : 1;
}

// [3] for the lean pass, in place in the [Q | K | V] buffer: the per-head RMSNorm and RoPE of every q and k head.
void normAndRotateInPlace(Tensor& qkv, const Weights& weights, const Dimensions& d, const RowVector& frequencies, bool threaded) {
    const bool rotary = frequencies.size() > 0;
    if (!rotary && weights.qNorm.size() == 0 && weights.kNorm.size() == 0) return;
    const int batch = qkv.dim(0), l = qkv.dim(1), width = qkv.cols(), qHeads = d.heads, heads = d.heads + d.kvHeads;
    const std::optional<RotaryTable> table = rotary ? std::optional<RotaryTable>(rotaryTable(frequencies, l)) : std::nullopt;
    parallelFor(batch * heads, threaded, [&](int item) {
        const int b = item / heads, head = item % heads;  // heads 0 … h − 1 are q's, then the h_kv k heads
        StridedMap rows(qkv.sliceData(b) + head * d.dK, l, d.dK, Eigen::OuterStride<>(width));
        const RowVector& gamma = head < qHeads ? weights.qNorm : weights.kNorm;
        if (gamma.size() > 0) rmsNormRows(rows, gamma, weights.qkNormEps);
        if (table) rotateRows(rows, *table);
    });
}
}  // namespace

void deriveMapSlice(const Trace& t, TensorId id, int batchHead, float* out) {
    const std::size_t map = static_cast<std::size_t>(std::find(kDerivableMaps.begin(), kDerivableMaps.end(), id) - kDerivableMaps.begin());
    if (map == kDerivableMaps.size()) throw std::logic_error("deriveMapSlice: only S, S·scale and masked S are derived");
    const int lq = t.queryLength, lk = t.keyLength;
    const HeadInputs in = headInputs(t, batchHead);
    const bool scoresStored = !t.isDerived(TensorId::Scores);
    const std::size_t panelSize = scoresStored ? 0 : static_cast<std::size_t>(in.panelRows) * lk;
    FloatBuffer scratch(panelSize + 2 * static_cast<std::size_t>(lk));  // S panel (S derived) | S · scale row | masked row
    float* const work = scratch.data() + panelSize;
    float* const masked = work + lk;
    // Row `row` of the map from its row of S: the pass's own multiply and select.
    const auto finishRow = [&](int row, const float* scores) {
        float* const destination = out + static_cast<std::size_t>(row) * lk;
        if (map == 0) {
            std::copy(scores, scores + lk, destination);
            return;
        }
        scaleAndMaskRow(scores, maskRowOf(in, row), in.scale, in.fill, work, masked, lk);
        const float* const result = map == 1 ? work : masked;
        std::copy(result, result + lk, destination);
    };
    if (scoresStored) {  // one sweep of the stored rows of S
        const float* const scores = t[TensorId::Scores].slice(batchHead).data();
        for (int row = 0; row < lq; ++row) finishRow(row, scores + static_cast<std::size_t>(row) * lk);
        return;
    }
    for (int first = 0; first < lq; first += in.panelRows) {
        const int rows = std::min(in.panelRows, lq - first);
        Eigen::Map<Matrix> s(scratch.data(), rows, lk);
        scoresPanel(in, first, rows, s);
        for (int r = 0; r < rows; ++r) finishRow(first + r, s.row(r).data());
    }
}

Matrix headBlock(const Matrix& fused, int head, int width) {
    return fused.middleCols(static_cast<Eigen::Index>(head) * width, width);
}

Weights initWeights(const Dimensions& dims, std::uint64_t seed, bool withBiases) {
    const auto xavier = [&](std::string_view name, int fanIn, int fanOut) {
        SplitMix64 random(streamSeed(name, seed));
        const float bound = std::sqrt(6.0f / static_cast<float>(fanIn + fanOut));
        Matrix w(fanIn, fanOut);
        for (Eigen::Index k = 0; k < w.size(); ++k) w.data()[k] = random.uniform(-bound, bound);
        return w;
    };
    const auto bias = [&](std::string_view name, int width) {
        SplitMix64 random(streamSeed(name, seed));
        RowVector v(width);
        for (int k = 0; k < width; ++k) v(k) = random.uniform(-0.1f, 0.1f);
        return v;
    };
    const int hk = dims.heads * dims.dK, hv = dims.heads * dims.dV;
    Weights w;
    w.wq = xavier("W^Q", dims.dModel, hk);
    w.wk = xavier("W^K", dims.dModel, hk);
    w.wv = xavier("W^V", dims.dModel, hv);
    w.wo = xavier("W^O", hv, dims.dModel);
    if (withBiases) {
        w.bq = bias("b^Q", hk);
        w.bk = bias("b^K", hk);
        w.bv = bias("b^V", hv);
        w.bo = bias("b^O", dims.dModel);
    }
    return w;
}

namespace {
// reattendInto, and the end of forwardInto: `headsSplit` when forwardInto split Q, K and V with the projections.
void attendProjections(const Weights& weights, const AttentionConfig& config, Trace& t, bool headsSplit) {
    const Dimensions dims = resolveDimensions(config);
    if (dims.dModel != t.dims.dModel || dims.heads != t.dims.heads || dims.kvHeads != t.dims.kvHeads || dims.dK != t.dims.dK ||
        dims.dV != t.dims.dV) {
        throw std::logic_error("reattendInto: the sizes changed; the projections must be redone (forwardInto)");
    }
    if (t.cross && (config.mask == MaskKind::Causal || config.mask == MaskKind::Both)) {
        throw InputError("A causal mask applies to self-attention; cross-attention takes mask none or padding.");
    }
    t.dims = dims;  // the scale may have changed
    const Dimensions& d = t.dims;
    t.mask = config.mask;
    t.fill = config.fill;
    t.softmax = config.softmax;
    t.perHeadMaxDifference = 0.0f;
    const int b = t.batch, h = d.heads, lq = t.queryLength, lk = t.keyLength;
    const bool threaded = worthThreads(d, b * std::max(lq, lk));
    const int rowBlocks = rowBlocksFor(threaded);

    // [3]
    if (!headsSplit) splitHeads(weights, config, t, threaded);

    // [4–9]
    buildMaskInto(t[TensorId::Mask], config, t.queryLengths, t.keyLengths, lq, lk);
    t.fullyMaskedRows = findFullyMaskedRows(t[TensorId::Mask], b, lq, lk);
    const bool deriveScores = !config.keepStageMaps || derivesMaps(config, b, h, lq, lk);
    shapeMaps(t, deriveScores);
    t[TensorId::ZHeads].reshape({b, h, lq, d.dV});
    t[TensorId::Concat].reshape({b, lq, h * d.dV});
    // Statistics of derived maps while each row is in cache, unless nobody asked for the maps at all.
    std::vector<MapStats> stats(config.keepStageMaps ? static_cast<std::size_t>(b) * h : 0);
    const HeadContext context{&t, !deriveScores, config.keepStageMaps ? &stats : nullptr};
    parallelFor(b * h, threaded, [&](int batchHead) { attendOneHead(context, batchHead); });
    mergeMapStats(t, stats);
    switchHeadsOff(t[TensorId::Concat], config.headsOff, t.queryLengths, h, d.dV);

    // [10]
    t[TensorId::Output].reshape({b, lq, d.dModel});
    const Linear output{&t[TensorId::Concat], &weights.wo, &weights.bo, &t[TensorId::Output]};
    parallelFor(rowBlocks, threaded, [&](int block) { linearRowBlock(output, block, rowBlocks); });

    // Seed 004's comparison, for the queries (the same holds for keys and values by the same algebra).
    if (config.comparePerHead) {
        const Tensor& queryInput = t.cross ? t[TensorId::XQuery] : t[TensorId::X];
        t.perHeadMaxDifference = perHeadDifference(queryInput, weights.wq, weights.bq, t[TensorId::Q], h);
    }
}
}  // namespace

Trace forward(const AttentionInput& input, const Weights& weights, const AttentionConfig& config) {
    Trace trace;
    forwardInto(input, weights, config, trace);
    return trace;
}

void forwardInto(const AttentionInput& input, const Weights& weights, const AttentionConfig& config, Trace& t) {
    const Dimensions dims = resolveDimensions(config);
    checkInput(input, config, dims);
    checkWeightShapes(weights, dims);
    t.dims = dims;
    const Dimensions& d = t.dims;
    t.cross = input.isCross();
    t.batch = static_cast<int>(input.keyValueSide.size());
    t.keyLengths = lengthsOf(input.keyValueSide);
    t.queryLengths = t.cross ? lengthsOf(input.querySide) : t.keyLengths;
    t.keyLength = longest(input.keyValueSide);
    t.queryLength = t.cross ? longest(input.querySide) : t.keyLength;
    const int b = t.batch, h = d.heads, lq = t.queryLength, lk = t.keyLength;

    // [1]
    padBatchInto(t[TensorId::X], input.keyValueSide, lk, d.dModel);
    if (t.cross) {
        padBatchInto(t[TensorId::XQuery], input.querySide, lq, d.dModel);
    } else {
        t[TensorId::XQuery] = Tensor{};
    }
    const Tensor& queryInput = t.cross ? t[TensorId::XQuery] : t[TensorId::X];
    const int hkv = d.kvHeads;
    copyInto(t[TensorId::WQ], {d.dModel, h * d.dK}, weights.wq);
    copyInto(t[TensorId::WK], {d.dModel, hkv * d.dK}, weights.wk);
    copyInto(t[TensorId::WV], {d.dModel, hkv * d.dV}, weights.wv);
    copyInto(t[TensorId::WO], {h * d.dV, d.dModel}, weights.wo);

    // [2]
    t[TensorId::Q].reshape({b, lq, h * d.dK});
    t[TensorId::K].reshape({b, lk, hkv * d.dK});
    t[TensorId::V].reshape({b, lk, hkv * d.dV});
    // [3] with them when it is a plain copy
    const bool splitWithProjections = splitIsCopy(weights, config);
    if (splitWithProjections) shapeHeads(t, false);
    const auto headsOf = [&](TensorId heads) { return splitWithProjections ? &t[heads] : nullptr; };
    const std::array<Linear, 3> projections{{
        {&queryInput, &weights.wq, &weights.bq, &t[TensorId::Q], headsOf(TensorId::QHeads)},
        {&t[TensorId::X], &weights.wk, &weights.bk, &t[TensorId::K], headsOf(TensorId::KHeads)},
        {&t[TensorId::X], &weights.wv, &weights.bv, &t[TensorId::V], headsOf(TensorId::VHeads)},
    }};
    const bool threaded = worthThreads(d, b * std::max(lq, lk));
    const int rowBlocks = rowBlocksFor(threaded);
    parallelFor(3 * rowBlocks, threaded, [&](int item) {
        linearRowBlock(projections[static_cast<std::size_t>(item / rowBlocks)], item % rowBlocks, rowBlocks);
    });

    attendProjections(weights, config, t, splitWithProjections);
}

LeanAttention attendLean(const AttentionInput& input, const Weights& weights, const AttentionConfig& config, float* attentionWeights) {
    if (input.isCross()) throw InputError("The lean pass computes self-attention only.");
    const Dimensions d = resolveDimensions(config);
    checkInput(input, config, d);
    checkWeightShapes(weights, d);
    const int b = static_cast<int>(input.keyValueSide.size()), l = longest(input.keyValueSide), h = d.heads;
    const std::vector<int> lengths = lengthsOf(input.keyValueSide);
    const bool threaded = worthThreads(d, b * l);
    const int rowBlocks = rowBlocksFor(threaded);

    // [1–2] X, then one [Q | K | V] buffer, each projection's row blocks on all cores
    Tensor x;
    padBatchInto(x, input.keyValueSide, l, d.dModel);
    const int qWidth = h * d.dK, kWidth = d.kvHeads * d.dK;
    Tensor qkv;
    qkv.reshape({b, l, qWidth + kWidth + d.kvHeads * d.dV});
    const std::array<const Matrix*, 3> w{&weights.wq, &weights.wk, &weights.wv};
    const std::array<const RowVector*, 3> bias{&weights.bq, &weights.bk, &weights.bv};
    const std::array<int, 3> firstColumn{0, qWidth, qWidth + kWidth};
    parallelFor(3 * rowBlocks, threaded, [&](int item) {
        const auto p = static_cast<std::size_t>(item / rowBlocks);
        projectRowBlock(x, *w[p], *bias[p], qkv, firstColumn[p], item % rowBlocks, rowBlocks);
    });
    // [3]
    normAndRotateInPlace(qkv, weights, d, config.rotaryFrequencies, threaded);

    // [4–9]
    Tensor mask;
    buildMaskInto(mask, config, lengths, lengths, l, l);
    const std::vector<std::uint8_t> fullyMasked = findFullyMaskedRows(mask, b, l, l);
    const std::vector<KeySpan> spans = visibleSpans(mask, b, l, l);
    Tensor concat;
    concat.reshape({b, l, h * d.dV});
    LeanAttention result;
    result.nonFiniteHeads.assign(static_cast<std::size_t>(b) * h, 0);
    const LeanContext context{&qkv, &mask, &spans, &fullyMasked, &lengths, d, fillValueOf(config.fill), config.softmax, &concat,
                              attentionWeights, &result.nonFiniteHeads};
    parallelFor(b * h, threaded, [&](int batchHead) { attendLeanHead(context, batchHead); });
    switchHeadsOff(concat, config.headsOff, lengths, h, d.dV);

    // [10]
    result.output.reshape({b, l, d.dModel});
    const Linear output{&concat, &weights.wo, &weights.bo, &result.output};
    parallelFor(rowBlocks, threaded, [&](int block) { linearRowBlock(output, block, rowBlocks); });
    return result;
}

Trace projectionsOf(const Trace& full) {
    Trace t;
    t.dims = full.dims;
    t.cross = full.cross;
    t.batch = full.batch;
    t.queryLength = full.queryLength;
    t.keyLength = full.keyLength;
    t.queryLengths = full.queryLengths;
    t.keyLengths = full.keyLengths;
    for (TensorId id : {TensorId::X, TensorId::XQuery, TensorId::WQ, TensorId::WK, TensorId::WV, TensorId::WO, TensorId::Q,
                        TensorId::K, TensorId::V}) {
        t[id] = full[id];
    }
    return t;
}

void reattendInto(const Weights& weights, const AttentionConfig& config, Trace& t) {
    attendProjections(weights, config, t, false);
}

}  // namespace attnviz::core
