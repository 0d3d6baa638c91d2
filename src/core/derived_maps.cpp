// derived_maps.cpp — slices of stored or derived Trace tensors, the cache of derived ones, value statistics.
// See derived_maps.h; the derivation itself (deriveMapSlice) is in attention.cpp.
#include "core/derived_maps.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace attnviz::core {
namespace {

std::uint64_t cacheKey(TensorId id, int batchHead) {
    return static_cast<std::uint64_t>(id) << 32 | static_cast<std::uint32_t>(batchHead);
}

std::size_t bytesOf(const FloatBuffer& buffer) { return buffer.size() * sizeof(float); }

}  // namespace

void ValueStats::add(float value) {
    if (std::isnan(value)) {
        hasNan = true;
    } else if (std::isinf(value)) {
        hasInfinity = true;
    } else {
        lo = std::min(lo, value);
        hi = std::max(hi, value);
        maxAbs = std::max(maxAbs, std::fabs(value));
    }
}

// A finite sum means no NaN and no ±∞ (they would have reached it), and then the vectorised min and max are right;
// chunks holding special values (or overflowing the sum) go value by value. Sum, min and max are taken in one sweep
// (three sweeps cost the stepped layer's pass 1–2 % at (512, 512, 8), where it counts two maps per row). Per value
// throughout, the forward pass at l = 2048 took 2.5× as long, and the GUI worker's recordValueStats was an eighth
// of its time.
void ValueStats::addAll(const float* values, std::size_t count) {
    namespace simd = Eigen::internal;
    using Packet = simd::packet_traits<float>::type;
    constexpr std::size_t kLanes = sizeof(Packet) / sizeof(float);
    constexpr std::size_t kChunk = 4096;
    for (std::size_t first = 0; first < count; first += kChunk) {
        const std::size_t n = std::min(kChunk, count - first);
        const float* const chunk = values + first;
        Packet sumP = simd::pset1<Packet>(0.0f), loP = simd::pset1<Packet>(std::numeric_limits<float>::infinity());
        Packet hiP = simd::pset1<Packet>(-std::numeric_limits<float>::infinity());
        std::size_t i = 0;
        for (; i + kLanes <= n; i += kLanes) {
            const Packet x = simd::ploadu<Packet>(chunk + i);
            sumP = simd::padd(sumP, x);
            loP = simd::pmin(loP, x);
            hiP = simd::pmax(hiP, x);
        }
        float sum = simd::predux(sumP), chunkLo = simd::predux_min(loP), chunkHi = simd::predux_max(hiP);
        for (; i < n; ++i) {
            sum += chunk[i];
            chunkLo = std::min(chunkLo, chunk[i]);
            chunkHi = std::max(chunkHi, chunk[i]);
        }
        if (!std::isfinite(sum)) {
            for (std::size_t k = 0; k < n; ++k) add(chunk[k]);
            continue;
        }
        lo = std::min(lo, chunkLo);
        hi = std::max(hi, chunkHi);
        maxAbs = std::max({maxAbs, -chunkLo, chunkHi});
    }
}

void ValueStats::merge(const ValueStats& other) {
    lo = std::min(lo, other.lo);
    hi = std::max(hi, other.hi);
    maxAbs = std::max(maxAbs, other.maxAbs);
    hasNan = hasNan || other.hasNan;
    hasInfinity = hasInfinity || other.hasInfinity;
}

std::shared_ptr<const FloatBuffer> DerivedSliceCache::find(std::uint64_t key) {
    const std::lock_guard lock(mutex_);
    const auto found = index_.find(key);
    if (found == index_.end()) return nullptr;
    entries_.splice(entries_.begin(), entries_, found->second);  // now the most recently used
    return found->second->slice;
}

void DerivedSliceCache::insert(std::uint64_t key, std::shared_ptr<const FloatBuffer> slice) {
    const std::lock_guard lock(mutex_);
    if (index_.count(key) > 0) return;  // another thread derived it meanwhile: the same values
    bytes_ += bytesOf(*slice);
    entries_.push_front({key, std::move(slice)});
    index_[key] = entries_.begin();
    while (bytes_ > budgetBytes_ && entries_.size() > 1) {
        bytes_ -= bytesOf(*entries_.back().slice);
        index_.erase(entries_.back().key);
        entries_.pop_back();
    }
}

std::size_t DerivedSliceCache::bytes() const {
    const std::lock_guard lock(mutex_);
    return bytes_;
}

MapSlice mapSlice(const Trace& trace, TensorId id, int batch, int head) {
    const Tensor& tensor = trace[id];
    if (!trace.isDerived(id)) {
        // K and V have h_kv heads (grouped-query): query head `head` reads the one it shares.
        const bool keyValue = id == TensorId::KHeads || id == TensorId::VHeads || id == TensorId::KHeadsBeforeRope;
        const MatrixView view = tensor.slice(batch, keyValue ? keyValueHead(trace.dims, head) : head);
        return {view.data(), static_cast<int>(view.rows()), static_cast<int>(view.cols()), nullptr};
    }
    // Derived tensors are b × h × l_q × l_k.
    const int heads = tensor.dim(1);
    if (batch < 0 || batch >= tensor.dim(0) || head < 0 || head >= heads) throw std::out_of_range("mapSlice: no such batch or head");
    const int batchHead = batch * heads + head;
    const std::uint64_t key = cacheKey(id, batchHead);
    std::shared_ptr<const FloatBuffer> slice = trace.derivedCache ? trace.derivedCache->find(key) : nullptr;
    if (!slice) {
        auto fresh = std::make_shared<FloatBuffer>(static_cast<std::size_t>(tensor.rows()) * tensor.cols());
        deriveMapSlice(trace, id, batchHead, fresh->data());
        slice = std::move(fresh);
        if (trace.derivedCache) trace.derivedCache->insert(key, slice);
    }
    return {slice->data(), tensor.rows(), tensor.cols(), slice};
}

Tensor materialize(const Trace& trace, TensorId id) {
    if (!trace.isDerived(id)) return trace[id];
    Tensor whole;
    whole.reshape(trace[id].shape);
    for (int batchHead = 0; batchHead < whole.sliceCount(); ++batchHead) deriveMapSlice(trace, id, batchHead, whole.sliceData(batchHead));
    return whole;
}

ValueStats valueStats(const Trace& trace, TensorId id) {
    if (const std::optional<ValueStats>& known = trace.stats[static_cast<std::size_t>(id)]) return *known;
    ValueStats stats;
    if (!trace.isDerived(id)) {
        stats.addAll(trace[id].data.data(), trace[id].size());
        return stats;
    }
    // A derived map whose statistics the pass did not record (AttentionConfig::keepStageMaps off): slice by slice.
    FloatBuffer slice(static_cast<std::size_t>(trace[id].rows()) * trace[id].cols());
    for (int batchHead = 0; batchHead < trace[id].sliceCount(); ++batchHead) {
        deriveMapSlice(trace, id, batchHead, slice.data());
        stats.addAll(slice.data(), slice.size());
    }
    return stats;
}

void recordValueStats(Trace& trace) {
    for (int index = 0; index < kTensorCount; ++index) {
        const auto id = static_cast<TensorId>(index);
        trace.stats[static_cast<std::size_t>(index)] = valueStats(trace, id);
    }
}

}  // namespace attnviz::core
