// null_heatmap_renderer.cpp — a HeatmapRenderer without a GPU, for UI tests and headless runs.
//
// It keeps the same caching contract as the GL renderer (one upload per key per generation), so tests can
// assert that redrawing does not re-upload, and it adds nothing to draw lists.
#include "render/heatmap_renderer.h"

#include <unordered_map>

namespace attnviz::render {
namespace {

class NullHeatmapRenderer final : public HeatmapRenderer {
public:
    void beginFrame(std::uint64_t generation) override {
        if (generation == generation_ && started_) return;
        generation_ = generation;
        started_ = true;
        handles_.clear();
    }

    HeatmapHandle heatmap(const TextureKey& key, const MatrixSlice& slice, bool /*transpose*/, Downsample /*how*/) override {
        if (const auto found = handles_.find(key); found != handles_.end()) return found->second;
        if (slice.rows <= 0 || slice.cols <= 0) return {};
        ++stats_.uploads;
        const HeatmapHandle handle{++nextId_};
        handles_.emplace(key, handle);
        return handle;
    }

    HeatmapHandle find(const TextureKey& key) const override {
        const auto found = handles_.find(key);
        return found == handles_.end() ? HeatmapHandle{} : found->second;
    }

    void draw(ImDrawList& /*list*/, HeatmapHandle /*handle*/, ImVec2 /*min*/, ImVec2 /*max*/,
              const HeatmapStyle& /*style*/) override {}

    RendererStats stats() const override {
        RendererStats s = stats_;
        s.liveTextures = static_cast<int>(handles_.size());
        return s;
    }

private:
    std::uint64_t generation_ = 0;
    bool started_ = false;
    std::uint32_t nextId_ = 0;
    std::unordered_map<TextureKey, HeatmapHandle, TextureKeyHash> handles_;
    RendererStats stats_;
};

}  // namespace

std::unique_ptr<HeatmapRenderer> createNullRenderer() { return std::make_unique<NullHeatmapRenderer>(); }

}  // namespace attnviz::render
