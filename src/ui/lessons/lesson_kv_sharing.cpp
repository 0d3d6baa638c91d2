// lesson_kv_sharing.cpp — the third view of "3 layers or 3·h?": Q keeps one head per query head, but K and V may
// have fewer (grouped-query attention, GQA) or one (multi-query, MQA). A table per shape — the model the user opened
// and the seeded layer on screen — of what W^Q, W^K, W^V and W^O hold and what the KV cache keeps per token, for
// MHA, GQA and MQA, in the dtype the weights were stored in and in the other width (F16 beside F32), and a small
// drawing of which query heads share a K/V head.
//
// What it deliberately does not do: count anything (core::kvSharingVariants and kvCacheBytes do) or run a model
// with other K/V heads: the counts follow from the sizes alone.
#include "core/decoder_lessons.h"
#include "core/display_text.h"
#include "core/lessons.h"
#include "core/names.h"
#include "ui/lessons/lesson_views.h"

#include <algorithm>

namespace attnviz::ui {
namespace {

// The model the user had open before the view switched to the seeded layer (or the one on screen), if any.
const core::TrainedModel* openModel(const LessonFrame& frame) {
    if (const core::TrainedModel* model = frame.ctx.run.spec.trainedModel()) return model;
    const std::optional<LessonReturn>& saved = frame.ctx.state.lesson.returnTo;
    return saved ? saved->spec.trainedModel() : nullptr;
}

// What the numbers are for: a title, the sizes, the dtype the cache is counted in and the one beside it.
struct Subject {
    std::string title;
    core::AttentionShape shape;
    core::Dtype dtype = core::Dtype::F32;       // what the weights were stored in (float32: attnviz's own)
    core::Dtype otherDtype = core::Dtype::F16;  // F32 beside a 16-bit dtype, F16 beside F32
    std::int64_t tokens = 0; // the cache at this many tokens (a model's context, or this sentence)
    std::string tokensLabel;
};

std::string bytes(std::int64_t value) {
    return value < 1024 * 1024 ? core::groupedDigits(value) + " B" : core::formatBytes(static_cast<double>(value));
}

// Query heads in a row above their K/V heads, each query head in the colour of the K/V head it reads.
void sharingDiagram(const core::Dimensions& shape, float width) {
    const int h = shape.heads, hkv = shape.kvHeads, group = h / hkv;
    const float cell = std::min(ImGui::GetTextLineHeight() * 0.7f, width / static_cast<float>(h) - 1.0f);
    if (cell < 2.0f) return;  // too many heads for the column: the numbers say it
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImDrawList& list = *ImGui::GetWindowDrawList();
    const float rowGap = cell * 1.2f;
    for (int i = 0; i < h; ++i) {
        const float x = at.x + static_cast<float>(i) * (cell + 1.0f);
        list.AddRectFilled({x, at.y}, {x + cell, at.y + cell}, headColor(i / group));
        const int kv = i / group;
        const float kvX = at.x + (static_cast<float>(kv) + 0.5f) * static_cast<float>(group) * (cell + 1.0f) - cell / 2.0f;
        list.AddLine({x + cell / 2.0f, at.y + cell}, {kvX + cell / 2.0f, at.y + cell + rowGap}, headColor(kv, 120));
    }
    for (int kv = 0; kv < hkv; ++kv) {
        const float x = at.x + (static_cast<float>(kv) + 0.5f) * static_cast<float>(group) * (cell + 1.0f) - cell / 2.0f;
        list.AddRectFilled({x, at.y + cell + rowGap}, {x + cell, at.y + 2.0f * cell + rowGap}, headColor(kv));
        list.AddRect({x, at.y + cell + rowGap}, {x + cell, at.y + 2.0f * cell + rowGap}, IM_COL32(40, 40, 40, 255));
    }
    ImGui::Dummy({width, 2.0f * cell + rowGap});
}

void sharingTable(LessonFrame& frame, const Subject& s, const std::vector<core::KvSharing>& variants) {
    const int bytes1 = core::bytesPerValue(s.dtype), bytes2 = core::bytesPerValue(s.otherDtype);
    const std::string layers = std::to_string(s.shape.layers) + (s.shape.layers == 1 ? " layer" : " layers");
    const std::string dtype(core::nameOf(s.dtype)), otherDtype(core::nameOf(s.otherDtype));
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable(s.title.c_str(), 10, flags)) return;
    ImGui::TableSetupColumn("K/V heads", ImGuiTableColumnFlags_WidthStretch, 1.5f);
    ImGui::TableSetupColumn("W^Q", ImGuiTableColumnFlags_WidthStretch, 0.9f);
    ImGui::TableSetupColumn("W^K", ImGuiTableColumnFlags_WidthStretch, 0.9f);
    ImGui::TableSetupColumn("W^V", ImGuiTableColumnFlags_WidthStretch, 0.9f);
    ImGui::TableSetupColumn("W^O", ImGuiTableColumnFlags_WidthStretch, 0.9f);
    ImGui::TableSetupColumn(("× " + layers).c_str(), ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn(("KV 1 layer " + dtype).c_str(), ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn(("KV " + dtype).c_str(), ImGuiTableColumnFlags_WidthStretch, 0.9f);
    ImGui::TableSetupColumn(("KV " + otherDtype).c_str(), ImGuiTableColumnFlags_WidthStretch, 0.9f);
    ImGui::TableSetupColumn((core::groupedDigits(s.tokens) + " tok " + dtype).c_str(), ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableHeadersRow();
    for (const core::KvSharing& v : variants) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (v.own) ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(20, 90, 180, 255));
        ImGui::Text("%s  h_kv = %d%s", v.name.c_str(), v.kvHeads, v.own ? "  ◀" : "");
        if (v.own) ImGui::PopStyleColor();
        const core::Dimensions drawn{s.shape.dModel, s.shape.heads, v.kvHeads, s.shape.headDim, s.shape.headDim, 0.0f};
        sharingDiagram(drawn, ImGui::GetContentRegionAvail().x);
        const std::int64_t perToken = core::kvCacheBytes(v, s.shape, bytes1), perLayer = core::kvCacheBytes(v, bytes1);
        const std::int64_t other = core::kvCacheBytes(v, s.shape, bytes2), atLength = core::kvCacheBytes(v, s.shape, bytes1, s.tokens);
        for (const std::string& cell : {core::groupedDigits(v.wq), core::groupedDigits(v.wk), core::groupedDigits(v.wv), core::groupedDigits(v.wo),
                                        core::groupedDigits(v.parametersPerLayer() * s.shape.layers), bytes(perLayer), bytes(perToken), bytes(other),
                                        bytes(atLength)}) {
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(core::clipped(cell).c_str());
        }
        frame.report.texts.push_back(s.title + " " + v.name + " h_kv = " + std::to_string(v.kvHeads) + (v.own ? " (its own)" : "") +
                                     ": W^Q " + core::groupedDigits(v.wq) + ", W^K " + core::groupedDigits(v.wk) + ", W^V " +
                                     core::groupedDigits(v.wv) + ", W^O " + core::groupedDigits(v.wo) + "; KV cache " + bytes(perLayer) +
                                     " per token per layer, " + bytes(perToken) + " per token for " + layers + " (" + dtype + "), " +
                                     bytes(other) + " (" + otherDtype + ")");
    }
    ImGui::EndTable();
}

// One sentence comparing the shape's GQA (or MQA) with MHA, in the numbers of the table.
void saving(LessonFrame& frame, const Subject& s, const std::vector<core::KvSharing>& variants) {
    if (variants.size() < 2) return;
    const core::KvSharing& mha = variants.front();
    const core::KvSharing& shared = variants.size() > 2 ? variants[1] : variants.back();
    const int b = core::bytesPerValue(s.dtype);
    say(frame, shared.name + " with h_kv = " + std::to_string(shared.kvHeads) + " keeps " + std::to_string(shared.kvHeads) + "/" +
                   std::to_string(mha.kvHeads) + " of MHA's cache: " + bytes(core::kvCacheBytes(shared, s.shape, b)) + " instead of " +
                   bytes(core::kvCacheBytes(mha, s.shape, b)) + " per token, " + bytes(core::kvCacheBytes(shared, s.shape, b, s.tokens)) +
                   " instead of " + bytes(core::kvCacheBytes(mha, s.shape, b, s.tokens)) + " for " + core::groupedDigits(s.tokens) +
                   " tokens. W^Q and W^O do not shrink: every query head keeps its own.",
        Tone::Point);
}

void subjectView(LessonFrame& frame, const Subject& s) {
    heading(frame, s.title);
    say(frame, "Entries of each matrix and their sum over the layers; KV: the bytes of one token's K and V rows, for one layer and "
               "for the whole model, and for " + s.tokensLabel + ".", Tone::Dim);
    const std::vector<core::KvSharing> variants = core::kvSharingVariants(s.shape);
    sharingTable(frame, s, variants);
    saving(frame, s, variants);
    ImGui::Spacing();
}

Subject modelSubject(const core::TrainedModel& model) {
    const core::TransformerConfig& c = model.config();
    Subject s;
    s.shape = core::attentionShape(c);
    const std::optional<core::Dtype> stored = model.transformer.storedDtype;
    s.dtype = stored.value_or(core::Dtype::F32);
    s.otherDtype = s.dtype == core::Dtype::F32 ? core::Dtype::F16 : core::Dtype::F32;
    s.tokens = c.maxPositions;
    s.tokensLabel = core::groupedDigits(c.maxPositions) + " tokens";
    s.title = model.name + " (" + model.familyName() + "): " + std::to_string(c.layers) + " layers, d_model = " + std::to_string(c.dModel) +
              ", h = " + std::to_string(c.heads) + ", h_kv = " + std::to_string(c.keyValueHeads()) + ", d_k = " + std::to_string(c.headWidth()) +
              ", stored as " + (stored ? std::string(core::nameOf(*stored)) : "float32 (attnviz's own)");
    return s;
}

std::optional<Subject> seededSubject(LessonFrame& frame) {
    const core::Trace& t = frame.ctx.run.trace;
    Subject s;
    try {
        s.shape = core::attentionShape(t.dims);
    } catch (const core::InputError& error) {
        say(frame, error.what(), Tone::Warning);
        return std::nullopt;
    }
    s.tokens = t.keyLength;
    s.tokensLabel = "this sentence's " + std::to_string(t.keyLength) + " tokens";
    s.title = "This seeded layer: 1 layer, d_model = " + std::to_string(t.dims.dModel) + ", h = " + std::to_string(t.dims.heads) +
              ", d_k = " + std::to_string(t.dims.dK) + ", float32; GQA with h/4 K/V heads for comparison";
    return s;
}

}  // namespace

void drawKvSharingView(LessonFrame& frame) {
    say(frame, "Each query head keeps its own W_i^Q, but K and V can be shared: in grouped-query attention (GQA) h/h_kv query heads "
               "read one K/V head, in multi-query attention (MQA) all h read a single one. W^K and W^V shrink to d_model × h_kv·d_k, and "
               "so does the KV cache: the K and V rows a decoder keeps for every past token so that a new token needs only its own "
               "query row. Counts are the matrices' entries (biases left out); bytes are K + V for one token.");
    if (const core::TrainedModel* model = openModel(frame)) {
        subjectView(frame, modelSubject(*model));
    } else {
        if (!offerBundledDecoder(frame, "Open a Llama, Qwen or Mistral folder (File ▸ Open model…) to see its own numbers here, or attnviz's "
                                        "own decoder: 8 query heads share 2 K/V heads.", true)) {
            say(frame, "Open a Llama, Qwen or Mistral folder (File ▸ Open model…) to see its own numbers here.", Tone::Dim);
        }
    }
    if (!frame.ctx.run.spec.trainedModel()) {
        if (std::optional<Subject> s = seededSubject(frame)) subjectView(frame, *s);
    }
}

}  // namespace attnviz::ui
