// attention_kernels.cpp — the vectorised row kernels of the fused attention pass ([5–7] of attention.cpp): scale,
// mask and softmax of one score row, and the streaming store of a finished row into a Trace map. See
// attention_internal.h.
#include "core/attention_internal.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#if defined(__AVX512F__) || defined(__AVX__)
#include <immintrin.h>
#endif

namespace attnviz::core::attention_detail {

// [5–7] fused into three vectorised sweeps of one row (Eigen's packet functions, whatever SIMD the build has):
// scale, mask and max; exp and sum; divide. A row is cut into packets from its first element, never by address,
// so the bits do not depend on where the row lies in memory; the last partial packet goes through a padded copy.
namespace simd = Eigen::internal;
using Packet = simd::packet_traits<float>::type;
constexpr int kLanes = static_cast<int>(sizeof(Packet) / sizeof(float));

// [5–6] masked_c = keep_c == 0 ? fill : S_c · scale (keep = nullptr: no mask), into `masked`, and S · scale into
// `scaled` when given. Returns the row's largest masked score.
float scaleAndMaskRow(const float* scores, const float* keep, float scale, float fill, float* scaled, float* masked, int n) {
    const Packet scaleP = simd::pset1<Packet>(scale), fillP = simd::pset1<Packet>(fill), zero = simd::pset1<Packet>(0.0f);
    Packet largestP = simd::pset1<Packet>(-std::numeric_limits<float>::infinity());
    int c = 0;
    for (; c + kLanes <= n; c += kLanes) {
        Packet x = simd::pmul(simd::ploadu<Packet>(scores + c), scaleP);
        if (scaled) simd::pstoreu(scaled + c, x);
        if (keep) x = simd::pselect(simd::pcmp_eq(simd::ploadu<Packet>(keep + c), zero), fillP, x);
        simd::pstoreu(masked + c, x);
        largestP = simd::pmax(largestP, x);
    }
    alignas(64) std::array<float, kLanes> lanes;  // (Eigen's predux_max trips a GCC 12 false warning at AVX-512)
    simd::pstore(lanes.data(), largestP);
    float largest = *std::max_element(lanes.begin(), lanes.end());
    for (; c < n; ++c) {  // the same multiply and select, one at a time
        const float x = scores[c] * scale;
        if (scaled) scaled[c] = x;
        masked[c] = keep && keep[c] == 0.0f ? fill : x;
        largest = std::max(largest, masked[c]);
    }
    return largest;
}

// y · 2^m, m whole and y · 2^m a normal float: Eigen's fast ldexp on SIMD packets; one float where the build has no
// packets (the web page's Eigen has no wasm SIMD path).
template <typename P>
P twoToThe(P m, P y) {
    if constexpr (std::is_same_v<P, float>) {
        return std::ldexp(y, static_cast<int>(m));
    } else {
        return simd::pldexp_fast_impl<P>::run(y, m);
    }
}

// exp(x) for x in [ln(FLT_MIN), 0], the only arguments whose weights the softmax keeps: Eigen's pexp (Cephes'
// polynomial after x = m ln 2 + r), the same bits there, without its clamp of x and its final max with x and, where
// it uses one, its general ldexp, which only matter outside that range. NaN stays NaN; what is below the range is
// flushed by the caller. Eigen's AVX-512 pexp takes m ln 2 off in one FMA, its generic one (AVX2, the portable
// build) in two parts: each is followed.
Packet expOfKeptArgument(Packet x) {
    const Packet m = simd::pfloor(simd::pmadd(x, simd::pset1<Packet>(1.44269504088896341f), simd::pset1<Packet>(0.5f)));  // x / ln 2, rounded
#if defined(__AVX512F__)
    const Packet r = simd::pmadd(m, simd::pset1<Packet>(-0.6931471805599453f), x);  // x − m ln 2
#else
    const Packet r = simd::pmadd(m, simd::pset1<Packet>(2.12194440e-4f), simd::pmadd(m, simd::pset1<Packet>(-0.693359375f), x));
#endif
    const Packet r2 = simd::pmul(r, r), r3 = simd::pmul(r2, r);
    Packet y = simd::pmadd(simd::pset1<Packet>(1.9875691500E-4f), r, simd::pset1<Packet>(1.3981999507E-3f));
    Packet y1 = simd::pmadd(simd::pset1<Packet>(4.1665795894E-2f), r, simd::pset1<Packet>(1.6666665459E-1f));
    const Packet y2 = simd::padd(r, simd::pset1<Packet>(1.0f));
    y = simd::pmadd(y, r, simd::pset1<Packet>(8.3334519073E-3f));
    y1 = simd::pmadd(y1, r, simd::pset1<Packet>(5.0000001201E-1f));
    y = simd::pmadd(y, r3, y1);
    y = simd::pmadd(y, r2, y2);                                    // exp(r)
    return twoToThe(m, y);
}

// [7] weights_c = exp(masked_c − largest) / Σ. Below ln(FLT_MIN) exp is subnormal or 0, and Eigen's vectorised exp
// clamps its argument (a −1e9 fill would give ~1e-39, not 0 as in PyTorch): those are flushed to exactly 0.
// The division is a multiplication by 1/Σ, as PyTorch's own vectorised softmax does (within 1 ulp of dividing).
float expAndNormaliseRow(const float* masked, float largest, float* weights, int n) {
    constexpr float kSmallestNormalExponent = -87.33654f;  // ln(FLT_MIN)
    const Packet largestP = simd::pset1<Packet>(largest), floorP = simd::pset1<Packet>(kSmallestNormalExponent);
    const Packet zero = simd::pset1<Packet>(0.0f);
    const auto expPacket = [&](Packet x) {
        const Packet shifted = simd::psub(x, largestP);
        return simd::pselect(simd::pcmp_lt(shifted, floorP), zero, expOfKeptArgument(shifted));
    };
    Packet sumP = zero;
    int c = 0;
    for (; c + kLanes <= n; c += kLanes) {
        const Packet e = expPacket(simd::ploadu<Packet>(masked + c));
        simd::pstoreu(weights + c, e);
        sumP = simd::padd(sumP, e);
    }
    if (c < n) {  // the tail, padded with −∞ (exp → 0)
        alignas(64) std::array<float, kLanes> tail;
        tail.fill(-std::numeric_limits<float>::infinity());
        std::copy(masked + c, masked + n, tail.begin());
        const Packet e = expPacket(simd::pload<Packet>(tail.data()));
        simd::pstore(tail.data(), e);
        std::copy(tail.begin(), tail.begin() + (n - c), weights + c);
        sumP = simd::padd(sumP, e);
    }
    const float sum = simd::predux(sumP), reciprocal = 1.0f / sum;
    const Packet reciprocalP = simd::pset1<Packet>(reciprocal);
    for (c = 0; c + kLanes <= n; c += kLanes) simd::pstoreu(weights + c, simd::pmul(simd::ploadu<Packet>(weights + c), reciprocalP));
    for (; c < n; ++c) weights[c] *= reciprocal;
    return sum;
}

// [7] Softmax of one row of masked scores whose largest is `largest`. A row in `fullyMasked` gets zeros in Safe
// mode; in PyTorch mode it is computed literally (uniform with −1e9, NaN with −∞).
// Returns whether the weights are finite: a finite largest score and a finite sum leave no NaN and no ∞ in the row.
bool softmaxRow(const float* masked, float largest, float* weights, int n, bool fullyMasked, SoftmaxMode mode) {
    if (mode == SoftmaxMode::Safe && fullyMasked) {
        std::fill(weights, weights + n, 0.0f);
        return true;
    }
    const float sum = expAndNormaliseRow(masked, largest, weights, n);
    return std::isfinite(largest) && std::isfinite(sum);
}

// Copies n floats into a Trace map. Large maps are written with non-temporal (streaming) stores: they are
// written once here and read again only by a view or an export, so pulling each line into the cache first
// (read-for-ownership) would double the memory traffic for nothing. The values are the same either way.
void storeRow(float* destination, const float* source, Eigen::Index n, bool streaming) {
#if defined(__AVX512F__) || defined(__AVX__)
    if (streaming) {
#if defined(__AVX512F__)
        constexpr Eigen::Index kLanes = 16;
#else
        constexpr Eigen::Index kLanes = 8;
#endif
        constexpr std::uintptr_t kAlignMask = kLanes * sizeof(float) - 1;
        Eigen::Index k = 0;
        for (; k < n && (reinterpret_cast<std::uintptr_t>(destination + k) & kAlignMask) != 0; ++k) destination[k] = source[k];
        for (; k + kLanes <= n; k += kLanes) {
#if defined(__AVX512F__)
            _mm512_stream_ps(destination + k, _mm512_loadu_ps(source + k));
#else
            _mm256_stream_ps(destination + k, _mm256_loadu_ps(source + k));
#endif
        }
        for (; k < n; ++k) destination[k] = source[k];
        return;
    }
#endif
    (void)streaming;
    std::copy(source, source + n, destination);
}

}  // namespace attnviz::core::attention_detail
