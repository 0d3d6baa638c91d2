// view_context.cpp — the per-run value summaries (display ranges and special values). See view_context.h.
#include "ui/view_context.h"

#include <cmath>

namespace attnviz::ui {
namespace {

using core::TensorId;

bool isProbability(TensorId tensor) { return tensor == TensorId::AttentionWeights || tensor == TensorId::Mask; }

}  // namespace

const ValueSummary& SummaryCache::get(const core::ModelRun& run, TensorId tensor) {
    if (const auto found = summaries_.find(tensor); found != summaries_.end()) return found->second;
    const core::Tensor& values = run.trace[tensor];
    ValueSummary s;
    for (float v : values.data) {
        s.hasNan = s.hasNan || std::isnan(v);
        s.hasInfinity = s.hasInfinity || std::isinf(v);
    }
    // Masked scores hold the fill (−1e9) where the mask removed a key: color the kept ones on the scale of
    // the scaled scores they equal, and leave the fill to the hatching.
    const TensorId rangeOf = tensor == TensorId::MaskedScores ? TensorId::ScaledScores : tensor;
    s.range = colormap::computeRange(run.trace[rangeOf].data,
                                     isProbability(tensor) ? colormap::RangeKind::Probability : colormap::RangeKind::Symmetric);
    return summaries_.emplace(tensor, s).first->second;
}

}  // namespace attnviz::ui
