// lesson_cross.cpp — "where do Q, K and V come from on the decoder side?": cross-attention. An encoder sentence and a decoder sentence;
// optionally the encoder's self-attention first (its output O_enc becomes the X that K and V are made from)
// and the decoder's causal self-attention first (its output is what Q is made from). Then the l_dec × l_enc
// score and weight maps, decoder tokens down the rows and encoder tokens along the columns.
//
// What it deliberately does not do: run any layer (core::runModel runs the encoder and decoder layers into
// ModelRun::encoderTrace / decoderTrace); it copies the few matrices of those layers it draws.
#include "ui/lessons/lesson_catalog.h"
#include "ui/widgets/wide_characters.h"
#include "ui/lessons/lesson_views.h"
#include "ui/views/matrix_info.h"
#include "ui/widgets/widget_label.h"


#include <cmath>

namespace attnviz::ui {
namespace {

using core::TensorId;

MatrixRef ref(TensorId tensor, int head = 0) { return {MatrixSource::Trace, tensor, head}; }

// What the cross view computes: head i's weights in the self-attention layers before the cross-attention (the
// encoder's, l_enc × l_enc, and the decoder's causal one, l_dec × l_dec), masked as in their layer.
enum Matrix { kEncoderWeights, kDecoderWeights };

MatrixRef layerWeights(LessonFrame& frame, Matrix matrix, const core::Trace& layer, int head, const std::string& name) {
    const int batch = frame.ctx.state.batch;
    const core::Axis tokens = matrix == kEncoderWeights ? core::Axis::KeyTokens : core::Axis::QueryTokens;
    const ComputedSpec spec{name, matrix == kEncoderWeights ? "l_enc × l_enc" : "l_dec × l_dec", tokens, tokens, true,
                            core::symbolicShape(TensorId::AttentionWeights, layer), layer[TensorId::AttentionWeights].shapeString()};
    const auto mask = [&] { return layer[TensorId::Mask].empty() ? core::Matrix() : core::Matrix(layer[TensorId::Mask].slice(batch, 0)); };
    return computedRef(computedMatrix(frame, matrix, head, 0, spec, [&] { return core::Matrix(layer[TensorId::AttentionWeights].slice(batch, head)); }, mask));
}

// "A₂ suffix" (appending: GCC 12 warns falsely on "A" + std::string temporaries, -Wrestrict).
std::string named(const char* symbol, int head, const char* suffix = "") {
    std::string name = symbol;
    name += subscript(head);
    name += suffix;
    return name;
}

HeatmapOptions band(const std::string& caption, bool rowLabels) { return compactMap(caption, rowLabels, false); }

// [SECTION] Controls

void sentenceFields(AppState& state) {
    const auto index = static_cast<std::size_t>(state.batch);
    const float labelWidth = ImGui::CalcTextSize("Encoder (keys, values)").x;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Encoder (keys, values)");
    ImGui::SameLine(labelWidth + ImGui::GetStyle().ItemSpacing.x * 4.0f);
    ImGui::SetNextItemWidth(-FLT_MIN);
    inputTextKeepingWideCharacters("##encoder", state.spec.sentences[index]);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Decoder (queries)");
    ImGui::SameLine(labelWidth + ImGui::GetStyle().ItemSpacing.x * 4.0f);
    ImGui::SetNextItemWidth(-FLT_MIN);
    inputTextKeepingWideCharacters("##decoder", state.spec.seeded()->decoderSentences[index]);
}

void layerSwitches(AppState& state) {
    core::SeededLayer& seeded = *state.spec.seeded();
    const char* decoderFirst = "decoder causal self-attention first";
    const char* back = "back to self-attention";
    ImGui::Checkbox("encoder self-attention first (K, V from its output)", &seeded.encoderSelfAttentionFirst);
    sameLineIfFits(checkboxWidth(decoderFirst), 20.0f);
    ImGui::Checkbox(widgetLabel(decoderFirst).c_str(), &seeded.decoderCausalSelfAttentionFirst);
    sameLineIfFits(buttonWidth(back), 20.0f);
    if (ImGui::Button(widgetLabel(back).c_str())) seeded.decoderSentences.clear();
}

// [SECTION] Plain words

void explain(LessonFrame& frame) {
    const core::ModelRun& run = frame.ctx.run;
    const core::Trace& t = run.trace;
    const std::string lq = std::to_string(t.queryLength), lk = std::to_string(t.keyLength);
    say(frame, "Q comes from the decoder's l_dec = " + lq + " tokens, K and V from the encoder's l_enc = " + lk +
                   " tokens, so every score and weight map is l_dec × l_enc = " + lq + " × " + lk + " (l_q × l_k in the titles)" +
                   ": a row per decoder token, a column per encoder token. Each row of A_i still sums to 1, over the encoder's tokens.");
    say(frame, run.encoderTrace ? "The encoder's self-attention runs first (its own weights, l_enc × l_enc maps); its output O_enc is the X "
                                  "this layer makes K = X W^K and V = X W^V from, as in a real Transformer."
                                : "K and V are made from the encoder's embeddings directly; in a real Transformer they come from the "
                                  "encoder's output — tick “encoder self-attention first”.",
        Tone::Point);
    if (run.decoderTrace) {
        say(frame, "The decoder first attends to itself with a causal mask (token t sees tokens 0 … t of the decoder); its output O_dec is what "
                   "Q = X_dec W^Q is made from.",
            Tone::Point);
    }
}

// [SECTION] Maps

// "A_enc → O_enc → K_i, V_i": the encoder side of head i; returns the y below it.
float encoderBand(LessonFrame& frame, const Box& box, int head) {
    std::vector<MapItem> maps;
    std::vector<std::string> between;
    const core::Trace* encoder = frame.ctx.run.encoderTrace ? &*frame.ctx.run.encoderTrace : nullptr;
    if (encoder != nullptr) {
        const std::string name = named("A", head, " encoder");
        maps.push_back({layerWeights(frame, kEncoderWeights, *encoder, head, name), band(name, true)});
        between.push_back("→");
    }
    maps.push_back({ref(TensorId::X), band(encoder ? "O_enc = X" : "X_enc", encoder == nullptr), 0.16f});
    between.push_back("→");
    maps.push_back({ref(TensorId::KHeads, head), band(named("K", head), false)});
    between.push_back("");
    maps.push_back({ref(TensorId::VHeads, head), band(named("V", head), false)});
    return showMapRow(frame, box, maps, between);
}

// "A_dec → O_dec → Q_i": the decoder side of head i; returns the y below it.
float decoderBand(LessonFrame& frame, const Box& box, int head) {
    std::vector<MapItem> maps;
    std::vector<std::string> between;
    const core::Trace* decoder = frame.ctx.run.decoderTrace ? &*frame.ctx.run.decoderTrace : nullptr;
    if (decoder != nullptr) {
        const std::string name = named("A", head, " decoder");
        maps.push_back({layerWeights(frame, kDecoderWeights, *decoder, head, name), band(name, true)});
        between.push_back("→");
    }
    maps.push_back({ref(TensorId::XQuery), band(decoder ? "O_dec" : "X_dec", decoder == nullptr), 0.16f});
    between.push_back("→");
    maps.push_back({ref(TensorId::QHeads, head), band(named("Q", head), false)});
    return showMapRow(frame, box, maps, between);
}

// S_i → softmax → A_i of the cross-attention, l_dec × l_enc each, as a scene laid out by the stages' rules.
void crossMaps(LessonFrame& frame, const Box& box, int head) {
    const core::Trace& t = frame.ctx.run.trace;
    scene::Map scores = scene::traceMap(t, TensorId::Scores, head);
    scores.colorbar = scene::Colorbar::Below;
    scores.title = named("S", head, " = ") + named("Q", head, " ") + named("K", head, "ᵀ");
    scene::Map weights = scene::traceMap(t, TensorId::AttentionWeights, head);
    weights.rowSums = true;
    weights.title = named("A", head);
    const scene::Figure figure{scene::Line{{scores, scene::Operator{"softmax →"}, weights}}, "", "", {}};
    showScene(frame, {core::StageId::Softmax, {figure}, std::nullopt}, box);
}

void notCross(LessonFrame& frame) {
    say(frame, "This run is self-attention: Q, K and V all come from the same sentence. Cross-attention needs a second sentence for the decoder.");
    if (ImGui::Button("Add a decoder sentence")) prepareLesson(frame.ctx.state, Lesson::Cross);
}

}  // namespace

void drawCrossLesson(LessonFrame& frame) {
    AppState& state = frame.ctx.state;
    const auto sentence = static_cast<std::size_t>(state.batch);
    const std::vector<std::string>& decoderSentences = core::seededChoices(state.spec).decoderSentences;
    if (!frame.ctx.run.trace.cross || sentence >= decoderSentences.size() || sentence >= state.spec.sentences.size()) {
        notCross(frame);
        return;
    }
    sentenceFields(state);
    layerSwitches(state);
    ImGui::Spacing();
    explain(frame);
    ImGui::Spacing();
    const int head = state.head;
    Box box = remainingBox(frame);
    const float gap = std::round(14.0f * frame.ctx.scale);
    Box top = takeTop(box, box.height() * 0.36f);  // the pipeline to Q, K and V: context for the maps below
    const float line = ImGui::GetFontSize() + 4.0f;
    float below = 0.0f;
    if (frame.ctx.state.zoom > 1.0f) {
        // Zoomed in, the two sides stack, each across the whole width (their maps stacked too, the page scrolling).
        sayAt(frame, top.min, top.width(), "Encoder side → K and V", Tone::Point);
        const float encoder = encoderBand(frame, {{top.min.x, top.min.y + line}, top.max}, head) + gap;
        sayAt(frame, {top.min.x, encoder}, top.width(), "Decoder side → Q", Tone::Point);
        below = std::max(box.min.y, decoderBand(frame, {{top.min.x, encoder + line}, {top.max.x, std::max(top.max.y, encoder + line + top.height())}}, head)) + gap;
    } else {
        const Box left = takeLeft(top, top.width() * 0.55f);
        sayAt(frame, left.min, left.width(), "Encoder side → K and V", Tone::Point);
        sayAt(frame, {top.min.x + gap, top.min.y}, top.width(), "Decoder side → Q", Tone::Point);
        // The bands' token rows may grow below their share to keep their labels: the maps go below the taller band.
        const float encoder = encoderBand(frame, {{left.min.x, left.min.y + line}, {left.max.x - gap, left.max.y}}, head);
        const float decoder = decoderBand(frame, {{top.min.x + gap, top.min.y + line}, top.max}, head);
        below = std::max({box.min.y, encoder, decoder}) + gap;
    }
    // S_i and A_i keep square cells (token × token): as tall as the width lets them be, up to half the screen, the
    // page scrolling; zoomed out, that height times the zoom, as the box is (remainingBox), so the maps never grow
    // as the zoom goes down.
    const float wanted = std::min(0.45f * box.width(), 0.5f * ImGui::GetMainViewport()->WorkSize.y);
    const float height = std::max(box.height(), wanted * std::min(frame.ctx.state.zoom, 1.0f));
    crossMaps(frame, {{box.min.x, below}, {box.max.x, std::max(box.max.y, below + height)}}, head);
}

}  // namespace attnviz::ui
