// lesson_catalog.cpp — the lessons as data, and what opening one changes. See lesson_catalog.h.
#include "ui/lessons/lesson_catalog.h"

#include "core/head_measures.h"
#include "core/transformer/prediction.h"
#include "core/transformer/prediction_words.h"
#include "io/model_library.h"
#include "ui/session/session_menu.h"
#include "ui/session/session_actions.h"

#include <algorithm>

namespace attnviz::ui {
namespace {

using core::StageId;

// Padding needs sentences of different lengths, and masks are a self-attention lesson (a causal mask is
// refused in cross-attention).
std::string setUpMasks(AppState& state) {
    core::ModelSpec& spec = state.spec;
    core::SeededLayer& seeded = *spec.seeded();  // setUp switched to the seeded layer
    std::string note;
    if (!seeded.decoderSentences.empty()) {
        seeded.decoderSentences.clear();
        note += "Back to self-attention. ";
    }
    if (spec.sentences.size() == 1) {
        for (std::string_view s : kShortSentences) spec.sentences.emplace_back(s);
        state.lesson.pendingBatch = 1;  // a padded one, once the run has it
        note += "Added 2 shorter sentences, so the batch needs padding; showing sentence 1. ";
    }
    if (spec.attention.mask == core::MaskKind::None) {
        spec.attention.mask = core::MaskKind::Padding;
        note += "Turned the padding mask on.";
    }
    return note;
}

std::string setUpCross(core::ModelSpec& spec) {
    core::SeededLayer& seeded = *spec.seeded();  // setUp switched to the seeded layer
    std::string note;
    if (seeded.decoderSentences.empty()) {
        seeded.decoderSentences.assign(spec.sentences.size(), std::string(kDecoderSentence));
        seeded.encoderSelfAttentionFirst = true;
        note += "Added a decoder sentence (the default one in German) and an encoder layer before the cross-attention. ";
    }
    if (spec.attention.mask == core::MaskKind::Causal || spec.attention.mask == core::MaskKind::Both) {
        spec.attention.mask = spec.attention.mask == core::MaskKind::Both ? core::MaskKind::Padding : core::MaskKind::None;
        note += "A causal mask belongs to the decoder's self-attention, so the cross-attention mask is now padding only.";
    }
    return note;
}

std::string setUpSlicing(core::ModelSpec& spec) {
    if (spec.attention.dK == 0 && spec.attention.dV == 0) return {};
    spec.attention.dK = spec.attention.dV = 0;
    return "Naive slicing needs d_k = d_v = d_model / h: free d_k and d_v are off.";
}

std::string setUpPooling(core::SeededLayer& seeded) {
    if (seeded.prependCls) return {};
    seeded.prependCls = true;
    return "Turned “[CLS] first” on, so every sentence starts with the token BERT classifies from.";
}

// "What does training change?" needs a trained model: attnviz's own when none is open.
std::string setUpTraining(AppState& state) {
    if (state.spec.trainedModel()) return {};
    try {
        if (auto model = io::loadBundledModel()) {
            useTrainedModel(std::move(model), state);
            return "Opened attnviz's own small model, to compare it with its untrained self.";
        }
    } catch (const io::FileError& error) {
        return std::string("attnviz's own model could not be opened: ") + error.what();
    }
    return "This installation has no bundled model: open a GPT-2 or BERT folder (File ▸ Open model…).";
}

// "How does it copy?": attnviz's own decoder (its heads.json names the two heads) on random words repeated twice.
constexpr std::uint64_t kCopySeed = 37;
constexpr int kCopyWords = 12;

// Opens attnviz's own decoder: nullopt when it opened, else the sentence saying why it could not.
std::optional<std::string> openBundledDecoder(AppState& state) {
    const std::optional<std::filesystem::path> folder = io::bundledDecoderFolder();
    if (!folder) return "This installation has no bundled decoder (assets/models/attnviz-mini-llama was not found).";
    try {
        useTrainedModel(io::ModelLibrary().openNow(*folder), state);
        return std::nullopt;
    } catch (const io::FileError& error) {
        return std::string("attnviz's own decoder could not be opened: ") + error.what();
    }
}

std::string setUpCopy(AppState& state) {
    std::string note;
    if (!showsBundledDecoder(state)) {
        if (const std::optional<std::string> failed = openBundledDecoder(state)) return *failed;
        note = "Opened attnviz's own decoder, whose heads.json names a previous-token and an induction head. ";
    }
    const core::TrainedModel* model = state.spec.trainedModel();
    if (model == nullptr) return note;
    state.spec.sentences = {core::repeatedWordSentence(kCopySeed + static_cast<std::uint64_t>(state.lesson.copySeed), kCopyWords, *model->tokenizer)};
    state.batch = 0;
    return note + "The sentence is " + std::to_string(kCopyWords) + " random words, twice.";
}

// "Through the layers" and "Head roles" read the open model's layers and heads; the seeded layer has one layer of
// random weights, so they open attnviz's own decoder instead.
std::string setUpTrainedModel(AppState& state) {
    if (state.spec.trainedModel() != nullptr) return {};
    if (const std::optional<std::string> failed = openBundledDecoder(state)) return *failed;
    return "Opened attnviz's own decoder: the seeded layer has no trained layers to read.";
}

// The other question views teach on the seeded layer, whose every control they use.
std::string setUpSeededLayer(AppState& state) {
    if (!state.spec.trainedModel()) return {};
    const std::string name = state.spec.trainedModel()->name;
    useRandomWeights(state);
    return "This question is shown on the seeded single layer (random weights), whose sizes and masks it changes; "
           "closing it brings " + name + " back. ";
}

std::string setUpFor(Lesson lesson, AppState& state) {
    switch (lesson) {
        case Lesson::Masks: return setUpMasks(state);
        case Lesson::Cross: return setUpCross(state.spec);
        case Lesson::Slicing: return setUpSlicing(state.spec);
        case Lesson::Pooling: return setUpPooling(*state.spec.seeded());
        default: return {};
    }
}

LessonReturn snapshotForLesson(const AppState& state) {
    return {.spec = state.spec, .batch = state.batch, .stage = state.stage, .head = state.head, .allHeads = state.allHeads,
            .modelView = state.modelView, .hideSpecialTokens = state.hideSpecialTokens, .projection = state.projection};
}

void restoreAfterLesson(const LessonReturn& saved, AppState& state) {
    state.spec = saved.spec;
    state.batch = saved.batch;
    state.stage = saved.stage;
    state.head = saved.head;
    state.allHeads = saved.allHeads;
    state.modelView = saved.modelView;
    state.hideSpecialTokens = saved.hideSpecialTokens;
    state.projection = saved.projection;
}

// A Llama-family model turns its own q and k: the rotary view shows them rather than the seeded layer's.
bool turnsItsOwnPositions(const core::ModelSpec& spec) {
    return spec.trainedModel() && spec.trainedModel()->config().traits().positions == core::PositionKind::Rotary;
}

// The open model's own prediction (the seeded layer has none). A masked model fills a blank, so the view opens with
// the sentence's last content word already behind [MASK].
std::string setUpNextToken(AppState& state) {
    if (!fillsABlank(state) || state.batch < 0 || state.batch >= static_cast<int>(state.spec.sentences.size())) return {};
    std::string& sentence = state.spec.sentences[static_cast<std::size_t>(state.batch)];
    const int word = core::lastContentWord(sentence);
    if (sentence.find("[MASK]") != std::string::npos || word < 0) return {};
    const core::MaskableWord hidden = core::maskableWords(sentence)[static_cast<std::size_t>(word)];
    const std::string text = sentence.substr(hidden.start, hidden.length);
    sentence = core::withMask(sentence, hidden);
    return "\"" + text + "\" is hidden behind [MASK]; click another word to hide it instead.";
}

std::string setUp(Lesson lesson, AppState& state) {
    if (lesson == Lesson::Training) return setUpTraining(state);
    if (lesson == Lesson::Rope && turnsItsOwnPositions(state.spec)) return {};
    if (lesson == Lesson::Lines) return {};  // the open model's own head: a trained head's lines are the figure to present
    if (lesson == Lesson::NextToken) return setUpNextToken(state);
    if (lesson == Lesson::Copy) return setUpCopy(state);
    if (lesson == Lesson::Layers || lesson == Lesson::Roles) return setUpTrainedModel(state);
    const std::string switched = setUpSeededLayer(state);
    return switched + setUpFor(lesson, state);
}

}  // namespace

bool fillsABlank(const AppState& state) {
    const core::TrainedModel* model = state.spec.trainedModel();
    return model && core::predictionKind(model->transformer) == core::PredictionKind::MaskedWord;
}

std::string_view lessonQuestion(const LessonInfo& info, const AppState& state) {
    if (info.id == Lesson::NextToken && fillsABlank(state)) return "What word fits the blank?";  // BERT fills a blank; it does not predict on
    return info.question;
}

const std::vector<LessonInfo>& lessons() {
    // Ordered by use, so the bar keeps the most used when the rest go under "More ▾": the two a lecture opens on its
    // own sentence (keys L and P) first.
    static const std::vector<LessonInfo> all{
        {Lesson::Lines, "lines", "Lines", "Which words does each word attend to?", StageId::Softmax},
        {Lesson::NextToken, "next", "Next token", "What does the model predict next?", StageId::Output},
        {Lesson::Masks, "masks", "Masks & padding", "How does a mask work on a batch, and where does NaN come from?", StageId::Mask},
        {Lesson::Cross, "cross", "Cross-attention", "Where do Q, K and V come from on the decoder side?", StageId::Softmax},
        {Lesson::FusedVsHeads, "fused", "3 layers or 3·h?", "Why 3 linear layers for Q, K, V instead of 3·h, one per head?", StageId::SplitHeads},
        {Lesson::Slicing, "slicing", "Do heads split X?", "Does each head get a slice of the embedding?", StageId::Project},
        {Lesson::RowByRow, "rows", "Per row?", "Is a linear layer applied to every row separately?", StageId::Project},
        {Lesson::Scaling, "scaling", "Why ÷√d_k?", "What does the scale do to the softmax?", StageId::Scale},
        {Lesson::Pooling, "pooling", "Pooling", "How do I get one vector per sentence to classify?", StageId::Output},
        {Lesson::Cost, "cost", "Cost", "What does attention cost, and do h heads cost h times more?", StageId::Scores},
        {Lesson::FreeDims, "dims", "Free d_k, d_v", "Must d_k and d_v be d_model / h?", StageId::Output},
        {Lesson::Training, "training", "Trained vs random", "What does training change?", StageId::Softmax},
        {Lesson::Rope, "rope", "RoPE", "Why do rotary positions give relative offsets?", StageId::SplitHeads},
        {Lesson::Copy, "copy", "How does it copy?", "How does a decoder repeat what came before? (induction heads)", StageId::Softmax},
        {Lesson::Layers, "layers", "Through the layers", "What would the model predict after each layer, and where can attention carry a token?", StageId::Softmax},
        {Lesson::Roles, "roles", "Head roles", "What does each head do? (previous-token, induction, sink …)", StageId::Softmax},
    };
    return all;
}

const LessonInfo& lessonInfo(Lesson lesson) {
    const auto& all = lessons();
    const auto found = std::find_if(all.begin(), all.end(), [&](const LessonInfo& info) { return info.id == lesson; });
    return found != all.end() ? *found : all.front();
}

std::optional<Lesson> findLesson(std::string_view key) {
    for (const LessonInfo& info : lessons()) {
        if (info.key == key) return info.id;
    }
    return std::nullopt;
}

std::string lessonKeys() {
    std::string keys;
    for (const LessonInfo& info : lessons()) keys += (keys.empty() ? "" : ", ") + std::string(info.key);
    return keys;
}

void openLesson(AppState& state, Lesson lesson) {
    if (lesson == Lesson::None || state.lesson.open == lesson) {
        closeLesson(state);
        return;
    }
    // Another view replaces the open one on the user's own inputs, not on what the first view changed.
    if (state.lesson.open == Lesson::None) {
        state.lesson.returnTo = snapshotForLesson(state);
    } else if (state.lesson.returnTo) {
        restoreAfterLesson(*state.lesson.returnTo, state);
    }
    state.lesson.open = lesson;
    prepareLesson(state, lesson);
    state.stage = lessonInfo(lesson).home;
    state.allHeads = false;
    state.autoplay = false;
}

void openLessonAtStart(AppState& state, Lesson lesson) {
    openLesson(state, lesson);
    if (state.lesson.returnTo) state.lesson.returnTo->stage = lessonInfo(lesson).home;
}

void prepareLesson(AppState& state, Lesson lesson) { state.lesson.setupNote = setUp(lesson, state); }

void closeLesson(AppState& state) {
    if (state.lesson.open == Lesson::None) return;
    if (state.lesson.returnTo) restoreAfterLesson(*state.lesson.returnTo, state);
    state.lesson.returnTo.reset();
    state.lesson.open = Lesson::None;
    state.lesson.setupNote.clear();
    state.lesson.pendingBatch = -1;
    state.lesson.animateRows = false;
}

}  // namespace attnviz::ui
