// history.cpp — the undo stack and the names of its steps. See history.h.
#include "ui/session/history.h"

#include "core/names.h"
#include "core/transformer/heads_off.h"
#include "ui/views/number_format.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace attnviz::ui {
namespace {

// [SECTION] Naming a change

std::string onOff(bool on) { return on ? "on" : "off"; }

std::string maskName(core::MaskKind kind) { return std::string(core::nameOf(kind)); }

std::string softmaxName(core::SoftmaxMode mode) { return mode == core::SoftmaxMode::PyTorch ? "as PyTorch" : "safe"; }
std::string sizeName(int size) { return size == 0 ? "auto" : std::to_string(size); }
std::string scaleName(const std::optional<float>& scale) { return scale ? formatValue(*scale) : "1/√d_k"; }

std::string modelName(const core::TrainedModel* model) { return model ? model->name : "random weights"; }
int layerOf(const core::ModelSpec& spec) { return spec.trained() ? spec.trained()->layer : 0; }

// The first characters of a sentence, quoted.

std::string quoted(const std::string& text) {
    constexpr std::size_t kShown = 24;
    if (text.size() <= kShown) return "“" + text + "”";
    std::size_t cut = kShown;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
    return "“" + text.substr(0, cut) + "…”";
}

std::string sentencesChange(const char* name, const std::vector<std::string>& a, const std::vector<std::string>& b) {
    if (a.size() != b.size()) return std::string(name) + "s " + std::to_string(a.size()) + " → " + std::to_string(b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] != b[i]) return std::string(name) + " " + quoted(b[i]);
    }
    return {};
}

std::string cellName(const core::CellEdit& e) {
    const bool input = e.matrix == core::TensorId::X || e.matrix == core::TensorId::XQuery;
    const std::string sentence = input && e.batch > 0 ? " (sentence " + std::to_string(e.batch + 1) + ")" : "";
    return std::string(core::tensorInfo(e.matrix).symbol) + sentence + "[" + std::to_string(e.row) + ", " + std::to_string(e.col) + "]";
}

bool sameCell(const core::CellEdit& a, const core::CellEdit& b) {
    return a.matrix == b.matrix && a.batch == b.batch && a.row == b.row && a.col == b.col;
}

std::string editsChange(const std::vector<core::CellEdit>& before, const std::vector<core::CellEdit>& after) {
    if (before == after) return {};
    if (after.empty()) return before.size() == 1 ? "reset " + cellName(before.front()) : "reset edits";
    std::vector<core::CellEdit> added;
    for (const core::CellEdit& e : after) {
        if (std::find(before.begin(), before.end(), e) == before.end()) added.push_back(e);
    }
    if (added.size() == 1) return cellName(added.front()) + " = " + formatValue(added.front().value);
    std::vector<core::CellEdit> removed;
    for (const core::CellEdit& e : before) {
        const auto kept = [&](const core::CellEdit& a) { return sameCell(a, e); };
        if (std::none_of(after.begin(), after.end(), kept)) removed.push_back(e);
    }
    if (added.empty() && removed.size() == 1) return "reset " + cellName(removed.front());
    if (added.empty()) return "drop " + std::to_string(removed.size()) + " cell edits";
    return std::to_string(added.size()) + " cell edits";
}

std::string weightsChange(const InputsSnapshot& a, const InputsSnapshot& b) {
    const core::SeededLayer &x = core::seededChoices(a.spec), &y = core::seededChoices(b.spec);
    if (a.weightFiles == b.weightFiles && x.customWeights == y.customWeights && x.embeddingTable == y.embeddingTable) return {};
    const io::WeightFiles& f = b.weightFiles;
    if (!f.hasWeights() && !f.hasEmbeddings()) return "use seeded weights";
    const std::filesystem::path any = f.hasWeights() ? f.wq : f.embeddings;
    return "load weights from " + any.parent_path().filename().string();
}

template <typename T, typename Name>
void compare(std::vector<std::string>& out, const char* label, const T& a, const T& b, Name name) {
    if (!(a == b)) out.push_back(std::string(label) + " " + name(a) + " → " + name(b));
}

// Heads switched off (issue 35): "head 1.3 off", "head 1.3 on", "every head on", or the whole list when more changed.
std::string headsOffChange(const std::vector<core::HeadAblation>& before, const std::vector<core::HeadAblation>& after) {
    if (before == after) return {};
    if (after.empty()) return "every head on";
    std::vector<core::HeadAblation> changed;
    for (const core::HeadAblation& a : after) {
        if (core::headOffMode(before, a.layer, a.head) != a.mode) changed.push_back(a);
    }
    std::vector<core::HeadAblation> switchedOn;
    for (const core::HeadAblation& b : before) {
        if (!core::headOffMode(after, b.layer, b.head)) switchedOn.push_back(b);
    }
    const auto name = [](const core::HeadAblation& a) { return "head " + std::to_string(a.layer) + "." + std::to_string(a.head); };
    if (changed.size() == 1 && switchedOn.empty()) return name(changed.front()) + " " + core::headOffLabel(changed.front().mode);
    if (changed.empty() && switchedOn.size() == 1) return name(switchedOn.front()) + " on";
    return "heads off: " + core::headsOffText(after);
}

// "question 3 revealed", "question 3's counts", "questions cleared".
std::string questionsChange(const std::vector<io::AskedQuestion>& before, const std::vector<io::AskedQuestion>& after) {
    if (before == after) return "";
    if (after.empty()) return "questions cleared";
    const std::string number = "question " + std::to_string(after.size());
    return after.size() > before.size() ? number + " revealed" : number + "'s answers";
}

std::vector<std::string> changes(const InputsSnapshot& before, const InputsSnapshot& after) {
    const core::ModelSpec &specA = before.spec, &specB = after.spec;
    const core::SeededLayer &a = core::seededChoices(specA), &b = core::seededChoices(specB);
    const core::AttentionConfig &x = specA.attention, &y = specB.attention;
    const auto number = [](auto v) { return std::to_string(v); };
    std::vector<std::string> out;
    for (std::string s : {sentencesChange("sentence", specA.sentences, specB.sentences),
                          sentencesChange("decoder sentence", a.decoderSentences, b.decoderSentences)}) {
        if (!s.empty()) out.push_back(std::move(s));
    }
    compare(out, "model", specA.trainedModel(), specB.trainedModel(), modelName);
    compare(out, "layer", layerOf(specA), layerOf(specB), number);
    compare(out, "d_model", x.dModel, y.dModel, number);
    compare(out, "heads", x.heads, y.heads, number);
    compare(out, "d_k", x.dK, y.dK, sizeName);
    compare(out, "d_v", x.dV, y.dV, sizeName);
    compare(out, "seed", a.seed, b.seed, number);
    compare(out, "mask", x.mask, y.mask, maskName);
    compare(out, "fill", x.fill, y.fill, [](core::MaskFill fill) { return std::string(core::shownText(fill)); });
    compare(out, "softmax", x.softmax, y.softmax, softmaxName);
    compare(out, "scale", x.scale, y.scale, scaleName);
    compare(out, "padded queries masked", x.maskPaddedQueries, y.maskPaddedQueries, onOff);
    compare(out, "positional encoding", a.positional, b.positional, onOff);
    compare(out, "[CLS]", a.prependCls, b.prependCls, onOff);
    compare(out, "biases", a.biases, b.biases, onOff);
    compare(out, "token limit", specA.tokenLimit, specB.tokenLimit, number);
    compare(out, "encoder layer first", a.encoderSelfAttentionFirst, b.encoderSelfAttentionFirst, onOff);
    compare(out, "decoder layer first", a.decoderCausalSelfAttentionFirst, b.decoderCausalSelfAttentionFirst, onOff);
    compare(out, "compare with", specA.compareWith, specB.compareWith,
            [](const std::optional<std::string>& sentence) { return sentence ? "\u201C" + core::clipped(*sentence, 40) + "\u201D" : std::string("off"); });
    compare(out, "compare against", specA.compareKind, specB.compareKind, [](core::CompareKind kind) { return std::string(core::nameOf(kind)); });
    for (std::string s : {weightsChange(before, after), editsChange(a.cellEdits, b.cellEdits), headsOffChange(specA.headsOff, specB.headsOff),
                          questionsChange(before.asked, after.asked)}) {
        if (!s.empty()) out.push_back(std::move(s));
    }
    return out;
}

// [SECTION] Comparing

bool sameSnapshots(const InputsSnapshot& a, const InputsSnapshot& b) { return a.spec == b.spec && a.weightFiles == b.weightFiles && a.asked == b.asked; }

// Whether `a` and `b` differ in their sentences (the compared one too) and in nothing else.
bool onlyTextDiffers(const InputsSnapshot& a, const InputsSnapshot& b) {
    const std::vector<std::string>& decoderA = core::seededChoices(a.spec).decoderSentences;
    const std::vector<std::string>& decoderB = core::seededChoices(b.spec).decoderSentences;
    if (a.spec.sentences == b.spec.sentences && decoderA == decoderB && a.spec.compareWith == b.spec.compareWith) return false;
    if (a.spec.sentences.size() != b.spec.sentences.size() || decoderA.size() != decoderB.size()) return false;
    if (a.spec.compareWith.has_value() != b.spec.compareWith.has_value()) return false;  // compare toggled: a step
    InputsSnapshot sameText = b;
    sameText.spec.sentences = a.spec.sentences;
    sameText.spec.compareWith = a.spec.compareWith;
    if (core::SeededLayer* seeded = sameText.spec.seeded()) seeded->decoderSentences = decoderA;
    return sameSnapshots(a, sameText);
}

// Whether the typist just finished a word: some sentence grew and now ends in a space.
bool endsWord(const InputsSnapshot& before, const InputsSnapshot& after) {
    const auto grewToSpace = [](const std::vector<std::string>& a, const std::vector<std::string>& b) {
        for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
            if (b[i].size() > a[i].size() && std::isspace(static_cast<unsigned char>(b[i].back()))) return true;
        }
        return false;
    };
    return grewToSpace(before.spec.sentences, after.spec.sentences) ||
           grewToSpace(core::seededChoices(before.spec).decoderSentences, core::seededChoices(after.spec).decoderSentences);
}

}  // namespace

std::string describeChange(const InputsSnapshot& before, const InputsSnapshot& after) {
    const std::vector<std::string> list = changes(before, after);
    if (list.empty()) return "change";
    std::string label = list[0];
    if (list.size() > 1) label += ", " + list[1];
    if (list.size() > 2) label += ", …";
    return label;
}

bool matches(const AppState& state, const InputsSnapshot& snapshot) {
    return state.spec == snapshot.spec && state.session.weightFiles == snapshot.weightFiles && state.ask.asked == snapshot.asked;
}

void applySnapshot(const InputsSnapshot& snapshot, AppState& state) {
    state.spec = snapshot.spec;
    state.session.weightFiles = snapshot.weightFiles;
    state.ask.asked = snapshot.asked;
}

// [SECTION] History

History::History(const AppState& state) { reset(state); }

void History::reset(const AppState& state) {
    InputsSnapshot first = snapshot(state);
    steps_.clear();
    steps_.push_back({std::move(first), {}});
    current_ = 0;
    typing_.reset();
}

InputsSnapshot History::snapshot(const AppState& state) const { return {state.spec, state.session.weightFiles, state.ask.asked}; }

const InputsSnapshot& History::newest() const { return typing_ ? *typing_ : steps_[current_].inputs; }

void History::observe(const AppState& state, double seconds) {
    if (matches(state, newest())) {
        if (typing_ && seconds - lastKeystroke_ >= kTypingPause) commitTyping();
        return;
    }
    InputsSnapshot now = snapshot(state);
    if (onlyTextDiffers(newest(), now)) {
        const bool wordEnded = endsWord(newest(), now);
        typing_ = std::move(now);
        lastKeystroke_ = seconds;
        if (wordEnded) commitTyping();
        return;
    }
    commitTyping();
    push(std::move(now));
}

void History::commitTyping() {
    if (!typing_) return;
    InputsSnapshot typed = std::move(*typing_);
    typing_.reset();
    if (!sameSnapshots(typed, steps_[current_].inputs)) push(std::move(typed));  // typed and deleted again: no step
}

void History::push(InputsSnapshot inputs) {
    steps_.erase(steps_.begin() + static_cast<std::ptrdiff_t>(current_) + 1, steps_.end());  // the redo branch
    std::string label = describeChange(steps_[current_].inputs, inputs);
    steps_.push_back({std::move(inputs), std::move(label)});
    if (steps_.size() > kMaxSteps + 1) steps_.pop_front();
    current_ = steps_.size() - 1;
}

bool History::canUndo() const { return typing_ || current_ > 0; }
bool History::canRedo() const { return !typing_ && current_ + 1 < steps_.size(); }

std::string History::undoLabel() const {
    if (typing_ && !sameSnapshots(*typing_, steps_[current_].inputs)) return describeChange(steps_[current_].inputs, *typing_);
    return current_ > 0 ? steps_[current_].label : std::string();
}

std::string History::redoLabel() const { return canRedo() ? steps_[current_ + 1].label : std::string(); }

void History::undo(AppState& state) {
    commitTyping();
    if (current_ == 0) return;
    --current_;
    applySnapshot(steps_[current_].inputs, state);
}

void History::redo(AppState& state) {
    if (!canRedo()) return;
    ++current_;
    applySnapshot(steps_[current_].inputs, state);
}

}  // namespace attnviz::ui
