// sentence_notes.cpp — what the screen says about the sentence with a trained model. See sentence_notes.h.
#include "ui/views/sentence_notes.h"

#include "core/head_reading.h"
#include "core/sentence_words.h"
#include "core/stages.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

namespace attnviz::ui {
namespace {

// A sentence through a model's tokenizer, with its words.
struct SentenceReading {
    core::Encoding encoding;
    std::vector<core::SentenceWord> words;
};

// The last sentence read and what it gave (nullopt: the tokenizer refused it). The notes are drawn at every frame,
// two or three a frame, and a pasted megabyte took seconds to tokenize each time under the gui_text fuzzer (issue
// 31): a sentence is read once. The tokenizer is held, so a new one cannot take its address.
struct LastReading {
    std::shared_ptr<const core::Tokenizer> tokenizer;
    std::string sentence;
    std::optional<SentenceReading> reading;
};

std::optional<SentenceReading> encodeSentence(const core::Tokenizer& tokenizer, const std::string& sentence) {
    SentenceReading reading;
    try {
        reading.encoding = tokenizer.encode(sentence);
    } catch (const core::InputError&) {
        return std::nullopt;
    }
    reading.words = core::sentenceWords(reading.encoding, tokenizer.typedWords(sentence));
    return reading;
}

// Sentence `batch` through the run's model's tokenizer again (once: see LastReading), with its words; null for the
// seeded layer or when the tokens are not the run's (the run shows another sentence). Valid until the next call.
const SentenceReading* readSentence(const core::ModelRun& run, int batch) {
    if (!run.spec.trainedModel() || batch < 0 || batch >= static_cast<int>(run.spec.sentences.size()) ||
        batch >= static_cast<int>(run.tokens.size())) {
        return nullptr;
    }
    const std::string& sentence = run.spec.sentences[static_cast<std::size_t>(batch)];
    const std::shared_ptr<const core::Tokenizer>& tokenizer = run.spec.trainedModel()->tokenizer;
    thread_local LastReading last;
    if (last.tokenizer != tokenizer || last.sentence != sentence) last = {tokenizer, sentence, encodeSentence(*tokenizer, sentence)};
    if (!last.reading || last.reading->encoding.labels != run.tokens[static_cast<std::size_t>(batch)]) return nullptr;
    return &*last.reading;
}

// Layer `layer`, head `head`'s padded l × l map of sentence `batch`: from every layer's A when the run kept them
// (the model view was open), else from the stepped layer's Trace (the same numbers); none when neither has it.
std::optional<core::MatrixView> attentionMap(const core::ModelRun& run, int batch, int layer, int head) {
    const core::Tensor& all = run.modelPass->attentionWeights;  // n_layers × b × h × l × l, or empty
    if (!all.empty()) {
        if (layer < 0 || layer >= all.dim(0) || head < 0 || head >= all.dim(2)) return std::nullopt;
        return all.slice((layer * all.dim(1) + batch) * all.dim(2) + head);
    }
    const core::Tensor& stepped = run.trace[core::TensorId::AttentionWeights];  // b × h × l × l
    if (!run.spec.trained() || layer != run.spec.trained()->layer || run.resplitHeads || stepped.empty() || head < 0 || head >= stepped.dim(1)) return std::nullopt;
    return stepped.slice(batch * stepped.dim(1) + head);
}

bool isCoreferenceHead(const core::NamedHead& head) { return head.name.find("coreference") != std::string::npos; }

const core::NamedHead* focusedNamedHead(const ViewContext& ctx) {
    const core::TrainedLayer* trained = ctx.run.spec.trained();
    if (!trained || ctx.run.resplitHeads) return nullptr;
    return trained->model->namedHead(trained->layer, ctx.state.head);
}

}  // namespace

std::string vocabularyNoticeOf(const core::ModelRun& run, int batch) {
    const SentenceReading* reading = readSentence(run, batch);
    return reading ? core::vocabularyNotice(core::vocabularyFit(reading->words)) : std::string();
}

std::string onThisSentence(const core::ModelRun& run, int batch, const core::NamedHead& named, int query) {
    const SentenceReading* reading = readSentence(run, batch);
    if (!reading || !run.modelPass) return {};
    const std::optional<core::MatrixView> found = attentionMap(run, batch, named.layer, named.head);
    const int length = static_cast<int>(reading->encoding.labels.size());
    if (!found || length > found->cols()) return {};
    core::AttentionRows map(static_cast<std::size_t>(length), std::vector<float>(static_cast<std::size_t>(length)));
    for (int q = 0; q < length; ++q) {
        for (int k = 0; k < length; ++k) map[static_cast<std::size_t>(q)][static_cast<std::size_t>(k)] = (*found)(q, k);
    }
    return core::headReading(reading->encoding, reading->words, map, query, isCoreferenceHead(named));
}

int defaultQueryRow(const core::ModelRun& run, int batch, const core::NamedHead& named) {
    if (isCoreferenceHead(named)) return -1;  // the reading finds "it" itself, or says the sentence has none
    const auto& tokens = run.queryTokens.at(static_cast<std::size_t>(batch));
    const std::vector<int> text = run.spec.trainedModel() ? core::visibleTokens(*run.spec.trainedModel(), tokens) : std::vector<int>{};
    return text.empty() ? run.trace.queryLengths.at(static_cast<std::size_t>(batch)) - 1 : text.back();
}

int focusedQueryRow(const ViewContext& ctx) {
    if (ctx.explanation) {
        const MatrixRef& m = ctx.explanation->cell.matrix;
        const bool square = m.tensor == core::TensorId::Scores || m.tensor == core::TensorId::ScaledScores ||
                            m.tensor == core::TensorId::MaskedScores || m.tensor == core::TensorId::AttentionWeights;
        if (square && m.head == ctx.state.head) return ctx.explanation->cell.row;
    }
    return core::followedQueryRow(ctx.run, ctx.state.batch, ctx.state.head);  // the row the stages outline
}

std::string namedHeadReading(const ViewContext& ctx) {
    const core::NamedHead* named = focusedNamedHead(ctx);
    if (named == nullptr) return {};
    const std::string reading = onThisSentence(ctx.run, ctx.state.batch, *named, focusedQueryRow(ctx));
    return reading.empty() ? std::string() : "On this sentence, head " + std::to_string(ctx.state.head) + " (" + named->name + "): " + reading + ".";
}

}  // namespace attnviz::ui
