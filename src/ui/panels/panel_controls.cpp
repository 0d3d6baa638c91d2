// panel_controls.cpp — the left panel: the model (a trained checkpoint, the bundled model or random weights), the
// sentence (recomputed on every keystroke); for a trained model its layer and head count; for the seeded layer
// size presets, d_model, the head count (only values that divide d_model), seed, positional encoding, [CLS], the
// mask and what softmax does with it; colormaps, and "Export…".
//
// It edits AppState::spec and computes nothing itself: App sees the spec differ from the last one and recomputes.
#include "ui/panels/panels.h"
#include "core/display_text.h"
#include "ui/widgets/wide_characters.h"

#include "core/attention.h"
#include "core/names.h"
#include "io/hub_cache.h"
#include "io/model_library.h"
#include "ui/panels/panel_get_model.h"
#include "ui/session/session_menu.h"
#include "ui/panels/panel_compare.h"
#include "ui/views/sentence_notes.h"
#include "ui/widgets/widget_label.h"


#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

namespace attnviz::ui {
namespace {

struct Preset {
    const char* name;
    int dModel;
    int heads;
};
constexpr std::array<Preset, 4> kPresets{{{"tiny", 8, 2}, {"small", 64, 8}, {"paper", 512, 8}, {"GPT-2", 768, 12}}};

const ImVec4 kErrorColor{0.75f, 0.1f, 0.1f, 1.0f};
const ImVec4 kHintColor{0.35f, 0.35f, 0.35f, 1.0f};

void heading(const Fonts& fonts, const char* text) {
    ImGui::Spacing();
    ImGui::PushFont(font(fonts.bold));
    ImGui::TextUnformatted(text);
    ImGui::PopFont();
}

// The valid head count nearest to `wanted` (the largest not above it, else the smallest).
int nearestValidHeads(int dModel, int wanted) {
    const std::vector<int> valid = core::validHeadCounts(dModel);
    int best = valid.front();
    for (int h : valid) {
        if (h <= wanted) best = h;
    }
    return best;
}

void sentenceField(AppState& state, const RunStatus& status) {
    auto& sentences = state.spec.sentences;
    const auto index = static_cast<std::size_t>(std::clamp(state.batch, 0, static_cast<int>(sentences.size()) - 1));
    if (state.focusSentence) {
        ImGui::SetKeyboardFocusHere();
        state.focusSentence = false;
    }
    core::SeededLayer* seeded = state.spec.seeded();
    const bool cross = seeded && !seeded->decoderSentences.empty();
    if (cross) ImGui::TextColored(kHintColor, "encoder (keys and values):");
    ImGui::SetNextItemWidth(-FLT_MIN);
    inputTextKeepingWideCharacters("##sentence", sentences[index]);
    if (cross && index < seeded->decoderSentences.size()) {  // cross-attention: the queries' sentence too
        ImGui::TextColored(kHintColor, "decoder (queries):");
        ImGui::SetNextItemWidth(-FLT_MIN);
        inputTextKeepingWideCharacters("##decoder sentence", seeded->decoderSentences[index]);
    }
    if (!status.error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
        ImGui::TextWrapped("%s", core::clipped(status.error).c_str());
        ImGui::PopStyleColor();
    } else if (status.run != nullptr) {
        const auto& tokens = status.run->tokens.at(static_cast<std::size_t>(std::clamp(state.batch, 0, status.run->trace.batch - 1)));
        ImGui::TextColored(kHintColor, "%zu tokens%s", tokens.size(), status.computing ? " · computing…" : "");
    } else if (status.computing) {
        ImGui::TextColored(kHintColor, "computing…");
    }
}

// [SECTION] Model

const char* kModelCard = "Model card";

// The model in use, and the others one click away.
void modelPicker(AppState& state) {
    const core::TrainedModel* model = state.spec.trainedModel();
    const bool ownDecoder = showsBundledDecoder(state);
    const std::string current = model ? model->name + (model->bundled || ownDecoder ? " (attnviz's own)" : "") : "untrained (random) weights";
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (!ImGui::BeginCombo("##model", widgetLabel(current).c_str())) return;
    SessionRequest& request = state.session.request;
    if (ImGui::Selectable("attnviz's own small model (trained BERT)", model && model->bundled)) request = {SessionAction::UseBundledModel};
    if (io::bundledDecoderFolder()) {
        if (ImGui::Selectable("attnviz's own small decoder (trained Llama)", ownDecoder)) requestBundledDecoder(state);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("attnviz-mini-llama: predicts the next word; has a previous-token and an induction head");
    }
    if (ImGui::Selectable("untrained (random) weights", model == nullptr)) request = {SessionAction::UseRandomModel};
    for (const std::filesystem::path& folder : state.session.recentModels) {
        if (ImGui::Selectable(widgetLabel(core::clipped(io::modelFolderTitle(folder))).c_str(), model && model->folder == folder.string())) {
            request = {SessionAction::OpenRecentModel, folder};
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", core::clipped(folder.string()).c_str());
    }
    // The Hugging Face cache's models that are not in the recent list already.
    for (const io::CachedModel& cached : cachedModelsForMenu(ImGui::IsWindowAppearing())) {
        const bool recent = std::find(state.session.recentModels.begin(), state.session.recentModels.end(), cached.snapshot) != state.session.recentModels.end();
        if (recent) continue;
        const std::string label = cached.repoId + "  (" + cached.family + ", " + io::formatBytes(cached.bytes) + ", cached)";
        if (ImGui::Selectable(widgetLabel(core::clipped(label)).c_str(), model && model->folder == cached.snapshot.string())) {
            request = {SessionAction::OpenRecentModel, cached.snapshot};
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("In the Hugging Face cache: %s", cached.snapshot.string().c_str());
    }
    if (ImGui::Selectable("get a model from the Hub…")) request = {SessionAction::GetModel};
    if (ImGui::Selectable("open a GPT-2 or BERT folder…")) request = {SessionAction::OpenModel};
    ImGui::EndCombo();
}

void modelCardPopup(const core::TrainedModel& model) {
    ImGui::SetNextWindowSize({ImGui::GetFontSize() * 40.0f, ImGui::GetFontSize() * 30.0f}, ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal(kModelCard, nullptr)) return;
    ImGui::TextWrapped("%s", core::clipped(model.card.empty() ? "This model folder has no README.md." : model.card).c_str());
    if (ImGui::Button("Close")) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

// A trained model: its sizes (fixed), the layer to step through, and the head count (a re-split, with a warning).
void trainedControls(AppState& state, core::TrainedLayer& trained, const RunStatus& status, float scale) {
    const core::TrainedModel& model = *trained.model;
    const core::TransformerConfig& config = model.config();
    ImGui::PushStyleColor(ImGuiCol_Text, kHintColor);
    ImGui::TextWrapped("%s · %d layers · d_model %d · %d heads", model.familyName().c_str(), config.layers, config.dModel, config.heads);
    const bool grouped = config.traits().groupedQueryAttention;
    if (grouped) ImGui::TextWrapped("%d K/V heads · d_k %d · RoPE", config.keyValueHeads(), config.headWidth());
    ImGui::PopStyleColor();
    if (model.bundled) {
        ImGui::TextWrapped("attnviz's own small model; one head was taught to point \"it\" at a noun.");
        if (ImGui::SmallButton("model card")) ImGui::OpenPopup(kModelCard);
        modelCardPopup(model);
    }
    const float width = std::round(120.0f * scale);
    ImGui::SetNextItemWidth(width);
    int layer = trained.layer;
    if (ImGui::SliderInt("layer", &layer, 0, config.layers - 1)) trained.layer = std::clamp(layer, 0, config.layers - 1);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The layer whose attention the stages step through (0 is the first)");
    core::AttentionConfig& a = state.spec.attention;
    if (grouped) {  // grouped K/V heads and RoPE belong to the trained heads: no re-split
        ImGui::PushStyleColor(ImGuiCol_Text, kHintColor);
        ImGui::TextWrapped("mask: causal (a decoder: no token sees later ones)%s",
                           config.slidingWindows.empty() ? "" : ", with a sliding window on some layers");
        ImGui::PopStyleColor();
        return;
    }
    ImGui::SetNextItemWidth(width);
    const std::string shown = std::to_string(a.heads) + (a.heads == config.heads ? " (trained)" : " (re-split)");
    if (ImGui::BeginCombo("heads h", widgetLabel(shown).c_str())) {
        for (int h : core::validHeadCounts(config.dModel)) {
            const std::string label = std::to_string(h) + (h == config.heads ? "  the model's own" : "  re-split");
            if (ImGui::Selectable(widgetLabel(label).c_str(), h == a.heads)) a.heads = h;
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("Another count cuts the same trained W^Q, W^K, W^V into other heads: Q, K and V do not change,\n"
                          "but the heads are no longer the ones the model learned.");
    }
    if (status.run != nullptr) ImGui::TextColored(kHintColor, "d_k = d_model / h = %d", status.run->trace.dims.dK);
    ImGui::PushStyleColor(ImGuiCol_Text, kHintColor);
    const std::string name(config.traits().name);
    ImGui::TextWrapped("%s", (config.traits().decoder ? "mask: causal (" + name + " is a decoder: no token sees later ones)"
                                                      : "mask: none for one sentence, padding for a batch (" + name + " sees both sides)").c_str());
    ImGui::PopStyleColor();
}

void sizeControls(AppState& state, const RunStatus& status, float scale) {
    core::AttentionConfig& a = state.spec.attention;
    const float buttonWidth = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) / 2.0f;
    for (std::size_t i = 0; i < kPresets.size(); ++i) {
        const Preset& p = kPresets[i];
        const bool active = a.dModel == p.dModel && a.heads == p.heads;
        const std::string label = std::string(p.name) + " " + std::to_string(p.dModel) + "/" + std::to_string(p.heads);
        if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        if (ImGui::Button(widgetLabel(label).c_str(), {buttonWidth, 0.0f})) {
            a.dModel = p.dModel;
            a.heads = p.heads;
        }
        if (active) ImGui::PopStyleColor();
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("d_model = %d, h = %d heads (%s)", p.dModel, p.heads, p.name);
        if (i % 2 == 0) ImGui::SameLine();
    }
    const float fieldWidth = std::round(120.0f * scale);
    ImGui::SetNextItemWidth(fieldWidth);
    if (ImGui::InputInt("d_model", &a.dModel, 8, 64)) {
        a.dModel = std::clamp(a.dModel, 1, core::kMaxDModel);
        a.heads = nearestValidHeads(a.dModel, a.heads);
    }
    ImGui::SetNextItemWidth(fieldWidth);
    if (ImGui::BeginCombo("heads h", widgetLabel(std::to_string(a.heads)).c_str())) {
        for (int h : core::validHeadCounts(a.dModel)) {
            if (ImGui::Selectable(widgetLabel(std::to_string(h)).c_str(), h == a.heads)) a.heads = h;
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Only head counts that divide d_model, so that d_k = d_model / h is whole.");
    if (status.run != nullptr && a.dK == 0) {
        ImGui::TextColored(kHintColor, "d_k = d_model / h = %d", status.run->trace.dims.dK);
    } else if (status.run != nullptr) {
        ImGui::TextColored(kHintColor, "d_k = %d, d_v = %d (set freely)", status.run->trace.dims.dK, status.run->trace.dims.dV);
    }
}

// A combo box over `choices`, (value, name) pairs: a std::array of pairs, or one of core/names.h's tables.
template <typename Enum, typename Choices>
void enumCombo(const char* label, Enum& value, const Choices& choices, float width) {
    std::string_view current;  // the first name unless `value` has its own
    for (const auto& [v, name] : choices) {
        if (v == value || current.empty()) current = name;
    }
    ImGui::SetNextItemWidth(width);
    if (ImGui::BeginCombo(widgetLabel(label).c_str(), widgetLabel(current).c_str())) {
        for (const auto& [v, name] : choices) {
            if (ImGui::Selectable(widgetLabel(name).c_str(), v == value)) value = v;
        }
        ImGui::EndCombo();
    }
}

void optionControls(AppState& state, core::SeededLayer& seeded, float scale) {
    core::ModelSpec& spec = state.spec;
    const float width = std::round(120.0f * scale);
    ImGui::SetNextItemWidth(width);
    const std::uint64_t step = 1;
    ImGui::InputScalar("seed", ImGuiDataType_U64, &seeded.seed, &step);
    ImGui::Checkbox("positional encoding", &seeded.positional);
    ImGui::Checkbox("[CLS] first", &seeded.prependCls);
    enumCombo("mask", spec.attention.mask, core::kMaskKindNames, width);
    using core::MaskFill;
    enumCombo("fill", spec.attention.fill,
                         std::array<std::pair<MaskFill, const char*>, 2>{{{MaskFill::MinusBillion, core::shownText(MaskFill::MinusBillion).data()}, {MaskFill::MinusInfinity, core::shownText(MaskFill::MinusInfinity).data()}}},
                         width);
    using core::SoftmaxMode;
    enumCombo("softmax", spec.attention.softmax,
                         std::array<std::pair<SoftmaxMode, const char*>, 2>{{{SoftmaxMode::Safe, "safe"}, {SoftmaxMode::PyTorch, "as PyTorch"}}},
                         width);
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("What softmax does with a row whose every key is masked:\nsafe → zeros; as PyTorch → uniform with −1e9, NaN with −∞.");
    }
}

void viewControls(AppState& state, const RunStatus& status, float scale) {
    const float width = std::round(120.0f * scale);
    using colormap::Colormap;
    enumCombo("probabilities", state.sequential,
              std::array<std::pair<Colormap, const char*>, 3>{{{Colormap::Viridis, "viridis"}, {Colormap::Cividis, "cividis"}, {Colormap::Magma, "magma"}}},
              width);
    using colormap::ProbabilityScale;
    enumCombo("colour range", state.probabilityScale,
              std::array<std::pair<ProbabilityScale, const char*>, 3>{{{ProbabilityScale::MapMax, "0 … map max"},
                                                                       {ProbabilityScale::RowMax, "row max"},
                                                                       {ProbabilityScale::Fixed, "fixed 0 … 1"}}},
              width);
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("Which range the probabilities' colours span:\n0 … map max: the largest weight of each map is the brightest colour;\n"
                          "row max: each row on its own, so every query's favourite key is bright;\nfixed 0 … 1: comparable across maps and models.");
    }
    enumCombo("signed values", state.diverging,
              std::array<std::pair<Colormap, const char*>, 2>{{{Colormap::Coolwarm, "coolwarm"}, {Colormap::RdBu, "RdBu"}}}, width);
    ImGui::Checkbox("numbers in cells", &state.showValues);
    if (status.run != nullptr && status.run->trace.batch > 1) {
        ImGui::SetNextItemWidth(width);
        ImGui::SliderInt("sentence shown", &state.batch, 0, status.run->trace.batch - 1);
    }
}

}  // namespace

void drawControls(AppState& state, const RunStatus& status, const Fonts& fonts, float scale) {
    heading(fonts, "Model");
    modelPicker(state);
    if (core::TrainedLayer* trained = state.spec.trained()) trainedControls(state, *trained, status, scale);
    heading(fonts, "Sentence");
    sentenceField(state, status);
    compareField(state, status);
    if (core::SeededLayer* seeded = state.spec.seeded()) {
        ImGui::TextColored(kHintColor, "Random weights: attention is nearly uniform.");
        heading(fonts, "Sizes");
        sizeControls(state, status, scale);
        heading(fonts, "Inputs");
        optionControls(state, *seeded, scale);
        drawWeightsAndEdits(state);
    }
    heading(fonts, "View");
    viewControls(state, status, scale);
    ImGui::Spacing();
    if (!state.status.empty()) ImGui::TextWrapped("%s", core::clipped(state.status).c_str());
    const std::string notice = status.run != nullptr ? vocabularyNoticeOf(*status.run, state.batch) : std::string();
    if (notice.empty()) return;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.65f, 0.35f, 0.0f, 1.0f));
    ImGui::TextWrapped("%s", core::clipped(notice).c_str());
    ImGui::PopStyleColor();
}

}  // namespace attnviz::ui
