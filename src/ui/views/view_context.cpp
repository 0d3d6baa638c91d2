// view_context.cpp — the per-run value summaries (display ranges, special values, maps' largest values). See view_context.h.
#include "ui/views/view_context.h"

#include "core/derived_maps.h"
#include "core/narrow_range.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {
namespace {

using core::TensorId;

bool isProbability(TensorId tensor) { return tensor == TensorId::AttentionWeights || tensor == TensorId::Mask; }

}  // namespace

const ValueSummary& SummaryCache::get(const core::ModelRun& run, TensorId tensor) {
    if (const auto found = summaries_.find(tensor); found != summaries_.end()) return found->second;
    const core::ValueStats stats = core::valueStats(run.trace, tensor);  // recorded by the pass for derived maps
    // Masked scores hold the fill (−1e9) where the mask removed a key: color the kept ones on the scale of
    // the scaled scores they equal, and leave the fill to the hatching.
    const core::ValueStats scale = tensor == TensorId::MaskedScores ? core::valueStats(run.trace, TensorId::ScaledScores) : stats;
    ValueSummary s;
    s.hasNan = stats.hasNan;
    s.hasInfinity = stats.hasInfinity;
    s.range = colormap::rangeFromExtremes(scale.lo, scale.hi, scale.maxAbs,
                                          isProbability(tensor) ? colormap::RangeKind::Probability : colormap::RangeKind::Symmetric);
    return summaries_.emplace(tensor, s).first->second;
}

std::optional<float> SummaryCache::mapTop(const render::TextureKey& key) const {
    const auto found = mapTops_.find(key);
    return found == mapTops_.end() ? std::nullopt : std::optional(found->second);
}

const scene::LegendFacts& SummaryCache::legendFacts(const render::TextureKey& key, const std::function<scene::LegendFacts()>& make) {
    if (const auto found = legends_.find(key); found != legends_.end()) return found->second;
    return legends_.emplace(key, make()).first->second;
}

std::optional<float> SummaryCache::widestLabel(const LabelsKey& key) const {
    const auto found = widestLabels_.find(key);
    return found == widestLabels_.end() ? std::nullopt : std::optional(found->second);
}

colormap::Range SummaryCache::embeddings(const core::ModelRun& run) {
    if (!embeddings_) {
        float largest = 0.0f;
        for (const core::Tensor* table : {&run.embeddings, &run.positions}) {
            for (const float v : table->data) {
                if (std::isfinite(v)) largest = std::max(largest, std::fabs(v));
            }
        }
        embeddings_ = colormap::Range{-largest, largest};
    }
    return *embeddings_;
}

colormap::Range SummaryCache::probabilityRange(const render::MatrixSlice& slice, colormap::ProbabilityScale scale) {
    const bool stored = slice.owner == nullptr;  // a view into the run, alive and unchanged until clear()
    if (scale != colormap::ProbabilityScale::MapMax || !stored) return colormap::probabilityRange(slice.values, scale);
    const std::pair key{slice.values.data(), slice.values.size()};
    if (const auto found = largestWeights_.find(key); found != largestWeights_.end()) return found->second;
    return largestWeights_.emplace(key, colormap::probabilityRange(slice.values, scale)).first->second;
}

const std::optional<std::string>& SummaryCache::narrowRange(const render::MatrixSlice& slice) {
    if (slice.owner != nullptr) return scratchNote_ = core::narrowRangeNote(slice.values);  // derived: fresh storage
    const std::pair key{slice.values.data(), slice.values.size()};
    if (const auto found = narrowNotes_.find(key); found != narrowNotes_.end()) return found->second;
    return narrowNotes_.emplace(key, core::narrowRangeNote(slice.values)).first->second;
}

}  // namespace attnviz::ui
