// attention_internal.h — what attention's source files share and nothing else uses: the input check of the passes
// (attention_checks.cpp) and the vectorised row kernels of the fused pass (attention_kernels.cpp). The passes
// themselves are attention.cpp; the tensor table attention_tensors.cpp.
#pragma once

#include "core/attention.h"

namespace attnviz::core::attention_detail {

// Throws InputError for an empty batch, a sentence without tokens or with the wrong width, a cross-attention batch
// whose two sides differ in count, and a causal mask on cross-attention.
void checkInput(const AttentionInput& input, const AttentionConfig& config, const Dimensions& dims);

// [5–6] masked_c = keep_c == 0 ? fill : S_c · scale (keep = nullptr: no mask), into `masked`, and S · scale into
// `scaled` when given. Returns the row's largest masked score.
float scaleAndMaskRow(const float* scores, const float* keep, float scale, float fill, float* scaled, float* masked, int n);
// exp of each lane for x in [ln(FLT_MIN), 0] (NaN stays NaN): Eigen's pexp there, bit for bit, minus the work it
// does for arguments outside (tests/core/test_attention.cpp compares the two).
Eigen::internal::packet_traits<float>::type expOfKeptArgument(Eigen::internal::packet_traits<float>::type x);
// [7] weights_c = exp(masked_c − largest) · (1/Σ), weights below FLT_MIN flushed to 0. Returns Σ.
float expAndNormaliseRow(const float* masked, float largest, float* weights, int n);
// [7] Softmax of one row (Safe mode: a fully masked row is zeros). Returns whether the weights are finite.
bool softmaxRow(const float* masked, float largest, float* weights, int n, bool fullyMasked, SoftmaxMode mode);
// Copies n floats into a Trace map, with streaming stores when `streaming` (large maps; same values).
void storeRow(float* destination, const float* source, Eigen::Index n, bool streaming);

}  // namespace attnviz::core::attention_detail
