// heatmap_renderer.h — the narrow interface between the UI and the GPU: matrices in, textured quads out.
//
// A matrix is copied once per Trace (the caller passes a generation number that changes with the Trace), or
// not at all when its values did not change; its colormap and display range are draw-time parameters: changing
// them reads no matrix again (the GL renderer colors its kept copy anew, on the CPU). Drawing
// goes through an ImDrawList callback, so a heatmap sits in ImGui's draw order like any widget.
//
// What this interface deliberately does not expose: any GL type or header (GL lives in gl_*.cpp only, as in
// Polyscope's render/engine.h), labels, colorbars or hover logic (that is src/ui), and the colors (that is
// src/colormap; the GL renderer colors its textures with it). A null one serves UI tests that have no window.
#pragma once

#include "colormap/colormap.h"

#include <imgui.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>

namespace attnviz::render {

// A row-major rows × cols matrix of floats (a Tensor slice), borrowed for the duration of a call, or kept alive
// by `owner` when it was derived on demand (core/derived_maps.h). Row 0 is drawn at the top, column 0 at the left.
struct MatrixSlice {
    std::span<const float> values;  // rows · cols values, row after row
    int rows = 0;
    int cols = 0;
    std::shared_ptr<const void> owner;  // the storage of a derived slice; null for a view into stored data
};

// What a texture holds, field by field (no bit layout): equal keys within one generation mean the same matrix, so
// the model view's layer 3 head 0, a question view's matrix and the stage's A₀ never share a texture by accident.
struct TextureKey {
    // Whose matrix: the run's (a Trace tensor or an embedding extra), the model view's (every layer's A), or a
    // question view's own computation.
    enum class Source : std::uint8_t { Trace, TokenEmbeddings, Positions, ModelView, Question };
    // What the texture holds of it: the values, each row divided by its largest value, or the matrix as a mask.
    enum class Content : std::uint8_t { Values, RowNormalised, Mask };
    Source source = Source::Trace;
    int owner = 0;     // Question: which question view (ui's Lesson); otherwise 0
    int tensor = 0;    // Trace: the core::TensorId; Question: which of the view's matrices; otherwise 0
    int layer = 0;     // ModelView: the layer
    int batch = 0;     // the sentence
    int head = 0;
    int variant = 0;   // an option that changes the numbers (a question view's pooling, the model view's hidden tokens)
    bool transposed = false;
    Content content = Content::Values;
    friend bool operator==(const TextureKey&, const TextureKey&) = default;
};

// Every field mixed in (boost's hash_combine step), so keys that differ in any field rarely collide in a bucket.
struct TextureKeyHash {
    std::size_t operator()(const TextureKey& key) const {
        std::size_t seed = 0;
        const auto mix = [&seed](std::size_t value) { seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2); };
        for (const int field : {static_cast<int>(key.source), key.owner, key.tensor, key.layer, key.batch, key.head, key.variant,
                                static_cast<int>(key.transposed), static_cast<int>(key.content)}) {
            mix(std::hash<int>{}(field));
        }
        return seed;
    }
};

// An uploaded matrix; 0 means "none" (nothing uploaded, or the upload failed).
struct HeatmapHandle {
    std::uint32_t id = 0;
    explicit operator bool() const { return id != 0; }
    friend bool operator==(const HeatmapHandle&, const HeatmapHandle&) = default;
};

struct HeatmapStyle {
    colormap::Colormap map = colormap::Colormap::Viridis;
    float lo = 0.0f;  // the colormap spans [lo, hi]; values outside are clamped to its ends
    float hi = 1.0f;
    // Optional mask, same columns as the values and either the same rows or one row (broadcast down, like a
    // PyTorch b × 1 × 1 × l padding mask): 1 = keep, 0 = masked (drawn hatched in colormap::kMaskedColor).
    HeatmapHandle mask;
};

// How a matrix drawn in fewer pixels than it has cells is shrunk (downsample.h): each block's strongest cell (for
// token-by-token maps, where one strong cell is the point) or its mean (for maps with a feature axis).
enum class Downsample { Strongest, Mean };

struct RendererStats {
    std::uint64_t uploads = 0;        // matrices handed over (heatmap() with a new key) and not unchanged since creation
    std::uint64_t reusedTextures = 0; // matrices unchanged from the previous generation: their textures were kept
    std::uint64_t pooledUploads = 0;  // shrunk textures made for heatmaps drawn smaller than their cells
    int liveTextures = 0;             // textures held now (at the sizes drawn this generation)
    std::size_t keptValues = 0;       // floats held now in CPU copies (each shrunk to ≤ 1024 cells per axis)
    int maxTextureSize = 0;           // the driver's limit (or the override); 0 for the null renderer
};

class HeatmapRenderer {
public:
    virtual ~HeatmapRenderer() = default;

    // Once per frame, before any heatmap() or draw(). A generation different from the previous frame's (a
    // new Trace) drops every cached texture, except those of matrices that come again in its first frame with
    // the same values; the same generation keeps them all.
    virtual void beginFrame(std::uint64_t generation) = 0;

    // The texture of `key` in this generation. `slice` is copied (shrunk `how` says to at most 1024 cells per axis)
    // the first time the key is asked for and ignored afterwards, so calling this every frame costs a hash lookup;
    // textures are made from the copy at the sizes draw() needs. With `transpose`, the matrix is stored as
    // cols × rows (for drawing Kᵀ from K without a copy in the caller).
    virtual HeatmapHandle heatmap(const TextureKey& key, const MatrixSlice& slice, bool transpose = false,
                                  Downsample how = Downsample::Strongest) = 0;
    // The same, reading the matrix only when the key is new this generation: for matrices that cost something
    // to read (a derived score map is one GEMM per read, core/derived_maps.h).
    HeatmapHandle heatmap(const TextureKey& key, const std::function<MatrixSlice()>& read, bool transpose = false,
                          Downsample how = Downsample::Strongest) {
        if (const HeatmapHandle known = find(key)) return known;
        return heatmap(key, read(), transpose, how);
    }
    // The handle `key` was given this generation, or none.
    virtual HeatmapHandle find(const TextureKey& key) const = 0;

    // Appends to `list` a draw of `handle` filling [min, max] (ImGui screen coordinates), then
    // ImDrawCallback_ResetRenderState so ImGui's own drawing resumes with its state. If the rectangle has
    // fewer pixels than the matrix has cells along an axis, a copy shrunk to one texel per pixel is drawn instead
    // (downsample.h): no texel is drawn wider than its neighbours, and a Strongest matrix's single large value
    // never disappears between pixels.
    virtual void draw(ImDrawList& list, HeatmapHandle handle, ImVec2 min, ImVec2 max, const HeatmapStyle& style) = 0;

    virtual RendererStats stats() const = 0;
};

// Draws nothing and counts uploads: for UI tests without a window or GPU.
std::unique_ptr<HeatmapRenderer> createNullRenderer();

}  // namespace attnviz::render
