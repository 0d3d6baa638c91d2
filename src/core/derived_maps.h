// derived_maps.h — the score maps a Trace does not store (S_i·scale and masked S_i always, S_i in a large Trace),
// derived on demand, bit for bit what the forward pass computed.
//
// Why: at (2048, 1024, 16) each of the four b × h × l_q × l_k maps is 256 MiB, and the GUI holds two Traces
// while it recomputes; at (512, 512, 8) streaming two more maps to memory cost the pass 3 % of its time. A Trace
// keeps A (the softmax: exps over the whole map, and Z needs it) and S, and derives S·scale (one multiply) and the
// masking (one select) from S's rows. Over AttentionConfig::storeMapsUpTo it derives S too: S_i = Q_i K_iᵀ, one
// GEMM per head (a few ms at l = 2048, d_k = 64), by the forward pass's own panel code, so the bits are the same.
//
// mapSlice works for every tensor (stored ones are a view, no copy), so readers need not know which is which.
#pragma once

#include "core/attention.h"

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace attnviz::core {

// One (batch, head) matrix of a Trace tensor.
struct MapSlice {
    const float* data = nullptr;  // rows × cols, row-major
    int rows = 0;
    int cols = 0;
    std::shared_ptr<const FloatBuffer> owner;  // a derived slice's storage, alive while any copy of this lives

    MatrixView view() const { return MatrixView(data, rows, cols); }
};

// Slice (batch, head) as Tensor::slice(batch, head) gives it (leading dimensions of 1 broadcast), derived when
// the tensor is; for K_i and V_i (also before RoPE) `head` is a query head, given the K/V head it shares
// (keyValueHead). Throws std::out_of_range for a batch or head the tensor does not have.
MapSlice mapSlice(const Trace& trace, TensorId id, int batch, int head);
// The whole tensor, stored or derived (for `dump`, which writes one tensor at a time).
Tensor materialize(const Trace& trace, TensorId id);
// Finite range, |max| and special values of a whole tensor: as recorded (Trace::stats), else read from its data.
ValueStats valueStats(const Trace& trace, TensorId id);
// Records every tensor's statistics in Trace::stats (the GUI's worker does, so the UI thread never sweeps a map).
void recordValueStats(Trace& trace);

// Derives slice `batchHead` (= batch·h + head) of S, S·scale or the masked scores into out (l_q × l_k).
// Defined in attention.cpp beside the forward pass whose panel code it shares.
void deriveMapSlice(const Trace& trace, TensorId id, int batchHead, float* out);

// Derived slices kept for reuse (a view redraws every frame), least recently used first out once over budget.
// A slice handed out stays valid while its MapSlice lives, evicted or not. Thread-safe.
class DerivedSliceCache {
public:
    explicit DerivedSliceCache(std::size_t budgetBytes) : budgetBytes_(budgetBytes) {}

    std::shared_ptr<const FloatBuffer> find(std::uint64_t key);
    void insert(std::uint64_t key, std::shared_ptr<const FloatBuffer> slice);
    std::size_t bytes() const;

private:
    struct Entry {
        std::uint64_t key;
        std::shared_ptr<const FloatBuffer> slice;
    };
    mutable std::mutex mutex_;
    std::size_t budgetBytes_;
    std::size_t bytes_ = 0;
    std::list<Entry> entries_;  // most recently used first
    std::unordered_map<std::uint64_t, std::list<Entry>::iterator> index_;
};

// 96 MiB: six 2048² slices. What a frame reads again and again is a few slices (the inspector's cell, a row chart);
// the heatmaps read a slice once per run for their texture (ui/heatmap_view.cpp), so all heads need not fit.
inline constexpr std::size_t kDerivedCacheBytes = 96u << 20;

}  // namespace attnviz::core
