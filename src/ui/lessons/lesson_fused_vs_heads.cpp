// lesson_fused_vs_heads.cpp — "why 3 linear layers for Q, K, V instead of 3·h?" A switch between
// the fused view (one d_model × h·d_k W^Q whose column blocks are the heads' W_i^Q, one product, then a split)
// and the per-head view (h matrices W_i^Q of d_model × d_k, h products), the two Q_i side by side, and the
// largest difference between them (float32 rounding, ~1e-7). The third choice, K and V with fewer heads than Q, is
// lesson_kv_sharing.cpp.
//
// What it deliberately does not do: decide that the two agree — the core computes both paths and records
// Trace::perHeadMaxDifference; here the per-head blocks and products are only copied out for drawing.
#include "ui/lessons/lesson_views.h"
#include "ui/views/matrix_info.h"

#include <algorithm>
#include <functional>
#include <cmath>

namespace attnviz::ui {
namespace {

using core::TensorId;

constexpr int kMaxTiles = 8;  // heads drawn side by side

MatrixRef ref(TensorId tensor, int head = 0) { return {MatrixSource::Trace, tensor, head}; }

// What the per-head view computes: each head's own W_i^Q (d_model × d_k) and its product X W_i^Q (l × d_k),
// computed on its own (not cut from the fused Q).
enum Matrix { kHeadWeights, kHeadProduct };

MatrixRef headWeights(LessonFrame& frame, int head) {
    const core::Dimensions& d = frame.ctx.run.trace.dims;
    const ComputedSpec spec{withHead("W", head, "^Q"), "d_model × d_k", core::Axis::Features, core::Axis::Features, false};
    return computedRef(computedMatrix(frame, kHeadWeights, head, 0, spec, [&] { return core::Matrix(core::headBlock(frame.ctx.run.weights.wq, head, d.dK)); }));
}

MatrixRef headProduct(LessonFrame& frame, int head) {
    const core::ModelRun& run = frame.ctx.run;
    const core::Trace& t = run.trace;
    const ComputedSpec spec{withHead("X W", head, "^Q"), "l × d_k", core::Axis::QueryTokens, core::Axis::Features, false};
    return computedRef(computedMatrix(frame, kHeadProduct, head, 0, spec, [&] {
        const core::Tensor& input = t.cross ? t[TensorId::XQuery] : t[TensorId::X];
        core::Matrix out = input.slice(frame.ctx.state.batch) * core::headBlock(run.weights.wq, head, t.dims.dK);
        if (run.weights.hasBiases()) out.rowwise() += run.weights.bq.segment(head * t.dims.dK, t.dims.dK);
        return out;
    }));
}

// h tiles of one per-head matrix (mapOf(i)), a scene line on one cell size, each framed in its head's colour and
// captioned prefix + "ᵢ" + suffix.
float headTiles(LessonFrame& frame, const Box& box, const std::function<MatrixRef(int)>& mapOf, const std::string& prefix,
                const std::string& suffix, std::optional<colormap::Range> range) {
    const int heads = std::min(frame.ctx.run.trace.dims.heads, kMaxTiles);
    scene::Line tiles;
    for (int i = 0; i < heads; ++i) {
        scene::Map map = sceneMap(frame, mapOf(i));
        map.title = prefix + subscript(i) + suffix;
        map.frame = i;
        map.rowLabels = i == 0;
        map.colLabels = false;
        map.colorbar = scene::Colorbar::None;
        if (range) map.range = std::pair{range->lo, range->hi};
        tiles.terms.emplace_back(std::move(map));
    }
    const bool more = heads < frame.ctx.run.trace.dims.heads;
    const Box room{box.min, {box.max.x, box.max.y - (more ? ImGui::GetFontSize() + 4.0f : 0.0f)}};  // room for the note
    const float bottom = showScene(frame, {core::StageId::SplitHeads, {scene::Figure{tiles, "", "", {}}}, std::nullopt}, room).extent.y1;
    if (more) {
        sayAt(frame, {box.min.x, bottom + 2.0f}, box.width(),
              "(the first " + std::to_string(heads) + " of " + std::to_string(frame.ctx.run.trace.dims.heads) + " heads)", Tone::Dim);
    }
    return bottom;
}

// One term of X W^Q = Q: the input's tokens on the left only, feature numbers above the others, no colorbars (the
// tiles below share Q's colours).
scene::Map term(const core::Trace& trace, TensorId tensor, bool rowLabels) {
    scene::Map map = scene::traceMap(trace, tensor);
    map.rowLabels = rowLabels;
    map.colLabels = tensor != TensorId::X;
    map.colorbar = scene::Colorbar::None;
    return map;
}

void fusedView(LessonFrame& frame, Box box, const colormap::Range& qRange) {
    const core::Trace& t = frame.ctx.run.trace;
    scene::Map product = term(t, TensorId::Q, false);
    product.range = std::pair{qRange.lo, qRange.hi};
    const scene::Line xTimesW{{term(t, TensorId::X, true), scene::Operator{"×"}, term(t, TensorId::WQ, false), scene::Operator{"="}, product}};
    const float bottom = showScene(frame, {core::StageId::SplitHeads, {scene::Figure{xTimesW, "", "", {}}}, std::nullopt}, takeTop(box, box.height() * 0.62f)).extent.y1;
    box.min.y = bottom + 8.0f;
    const float line = sayAt(frame, box.min, box.width(), "↓ split: Q_i = columns i·d_k … (i+1)·d_k − 1 of Q  (.view(b, l, h, d_k).transpose(1, 2))",
                             Tone::Code);
    box.min.y += line + 6.0f;
    headTiles(frame, box, [](int i) { return ref(TensorId::QHeads, i); }, "Q", "", qRange);
}

void perHeadView(LessonFrame& frame, Box box, const colormap::Range& qRange) {
    const float line = sayAt(frame, box.min, box.width(), "h separate matrices W_i^Q (d_model × d_k), one linear layer per head:", Tone::Plain);
    box.min.y += line + 4.0f;
    const float bottom = headTiles(frame, takeTop(box, box.height() * 0.62f), [&](int i) { return headWeights(frame, i); }, "W", "^Q", std::nullopt);
    box.min.y = bottom + 8.0f;
    const float below = sayAt(frame, box.min, box.width(), "↓ each head multiplies the whole X by its own W_i^Q:  Q_i = X W_i^Q", Tone::Code);
    box.min.y += below + 6.0f;
    headTiles(frame, box, [&](int i) { return headProduct(frame, i); }, "X W", "^Q", qRange);
}

// "W^Q = [W₀^Q | W₁^Q | … | W₇^Q]"
std::string blockEquation(int heads) {
    std::string text = "W^Q = [W" + subscript(0) + "^Q";
    if (heads > 2) text += " | W" + subscript(1) + "^Q";
    if (heads > 3) text += " | …";
    if (heads > 1) text += " | W" + subscript(heads - 1) + "^Q";
    return text + "]";
}

void explain(LessonFrame& frame) {
    const core::Dimensions& d = frame.ctx.run.trace.dims;
    const std::string dm = std::to_string(d.dModel), h = std::to_string(d.heads), dk = std::to_string(d.dK);
    say(frame, blockEquation(d.heads) + ": the one d_model × h·d_k = " + dm + " × " + std::to_string(d.heads * d.dK) + " matrix is the h = " + h +
                   " per-head matrices W_i^Q of d_model × d_k = " + dm + " × " + dk +
                   " side by side (the colored column blocks). X W^Q computes all h products in one go; its column block i is X W_i^Q.");
    say(frame, "fused:     self.linears[0](x).view(b, -1, h, d_k).transpose(1, 2)", Tone::Code);
    say(frame, "per head:  torch.stack([lin(x) for lin in self.query_linears], dim=1)", Tone::Code);
    say(frame, "Largest difference between the two Q_i: " + scientific(frame.ctx.run.trace.perHeadMaxDifference) +
                   " — float32 rounding (the sums run in another order), not a different model. The same parameters, h · d_model · d_k = " + h +
                   " · " + dm + " · " + dk + " = " + std::to_string(d.heads * d.dModel * d.dK) +
                   "; one big matrix product is just faster than h small ones.",
        Tone::Point);
}

}  // namespace

void drawFusedVsHeadsLesson(LessonFrame& frame) {
    FusedView& view = frame.ctx.state.lesson.fusedView;
    radioChoices("show", view,
                 {{FusedView::Fused, "one fused W^Q, d_model × h·d_k (3 layers)"},
                  {FusedView::PerHead, "h matrices d_model × d_k (3·h layers)"},
                  {FusedView::SharedKv, "fewer K/V heads: MHA → GQA → MQA"}});
    if (view == FusedView::SharedKv) {
        drawKvSharingView(frame);
        return;
    }
    const bool perHead = view == FusedView::PerHead;
    explain(frame);
    ImGui::Spacing();
    const colormap::Range qRange = frame.ctx.summaries.get(frame.ctx.run, TensorId::Q).range;  // both Q_i on one scale
    if (perHead) perHeadView(frame, remainingBox(frame), qRange);
    else fusedView(frame, remainingBox(frame), qRange);
}

}  // namespace attnviz::ui
