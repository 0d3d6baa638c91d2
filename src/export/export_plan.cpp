// export_plan.cpp — from a request to the list of files, and the CLI words to a request. See export_plan.h.
#include "export/export_plan.h"

#include "export/export_error.h"
#include "export/notation.h"
#include "export/prediction_figure.h"
#include "export/quiz_figure.h"

#include "scene/scene.h"

#include <algorithm>
#include <cstdio>

namespace attnviz::exporting {
namespace {

using core::StageId;
using core::TensorId;

std::string joined(const std::vector<std::string>& words) {
    std::string text;
    for (std::size_t i = 0; i < words.size(); ++i) text += (i == 0 ? "" : ", ") + words[i];
    return text;
}

std::string stageKeys() {
    std::vector<std::string> keys;
    for (const core::Stage& s : core::stages()) keys.push_back(std::string(s.key));
    return joined(keys);
}

std::string tensorKeys(const std::vector<TensorId>& ids) {
    std::vector<std::string> keys;
    for (TensorId id : ids) keys.push_back(std::string(core::tensorInfo(id).key));
    return joined(keys);
}

std::vector<TensorId> allTensors() {
    std::vector<TensorId> ids;
    for (int i = 0; i < core::kTensorCount; ++i) ids.push_back(static_cast<TensorId>(i));
    return ids;
}

bool shows(const core::Stage& s, TensorId id) { return std::find(s.shows.begin(), s.shows.end(), id) != s.shows.end(); }

// The stage that computes a matrix: the first that shows it (x_query, shown by none, belongs to embed).
StageId homeStage(TensorId id) {
    for (const core::Stage& s : core::stages()) {
        if (shows(s, id)) return s.id;
    }
    return StageId::Embed;
}

std::vector<StageId> selectedStages(const ExportRequest& request) {
    if (request.stage) return {*request.stage};
    std::vector<StageId> ids;
    for (const core::Stage& s : core::stages()) ids.push_back(s.id);
    return ids;
}

std::string stagePrefix(StageId id) {
    char number[8];
    std::snprintf(number, sizeof number, "%02d", static_cast<int>(id));
    return std::string(number) + "-" + std::string(core::stage(id).key);
}

std::string sentenceSuffix(const core::ModelRun& run, int batch) {
    return run.trace.batch > 1 ? "-s" + std::to_string(batch) : "";
}

std::string headSuffix(int head) { return "-head" + std::to_string(head); }

void checkHead(const core::ModelRun& run, const ExportRequest& request) {
    if (!request.head) return;
    const int heads = run.dims.heads;
    if (*request.head < 0 || *request.head >= heads) {
        throw ExportError("--head " + std::to_string(*request.head) + " does not exist; this model has " +
                          std::to_string(heads) + " heads, so use 0-" + std::to_string(heads - 1) + ".");
    }
    if (request.kind == FigureKind::Heads) {
        throw ExportError("--head picks one head, but --kind heads draws all of them; leave out --head.");
    }
}

void checkMatrixExists(const core::ModelRun& run, TensorId id) {
    if (run.trace.has(id)) return;
    if (id == TensorId::Mask) {
        throw ExportError("--matrix mask: this run applies no mask; add --mask padding, causal or both.");
    }
    throw ExportError("--matrix " + std::string(core::tensorInfo(id).key) +
                      ": this matrix exists only in cross-attention (--cross).");
}

// --stage S --matrix M: S must show M.
void checkStageShows(const ExportRequest& request) {
    if (!request.stage || !request.matrix) return;
    const core::Stage& s = core::stage(*request.stage);
    const TensorId id = *request.matrix;
    if (shows(s, id)) return;
    throw ExportError("--matrix " + std::string(core::tensorInfo(id).key) + " is not shown by stage " +
                      std::string(s.key) +
                      (s.shows.empty() ? ", which shows no matrix (only tokens)" : ", which shows " + tensorKeys(s.shows)) +
                      ".");
}

// --stage rope: a model with rotary positions, and a figure kind that draws a whole stage.
void checkRopeStep(const core::ModelRun& run, const ExportRequest& request) {
    if (!request.ropeStep) return;
    if (!scene::hasRopeStep(run.trace)) {
        throw ExportError("--stage rope needs a model with rotary positions (a Llama, Mistral or Qwen folder); this model has none.");
    }
    if (request.matrix || request.kind == FigureKind::Heads || request.kind == FigureKind::Lines) {
        throw ExportError("--stage rope is one figure of the RoPE step; use --kind stage or slide, without --matrix.");
    }
}

// --kind next draws the model's prediction, which no stage, matrix or head changes; --temperature changes nothing
// else. A run that predicts nothing (the seeded layer, a BERT without its head, no [MASK]) is refused here, before
// any figure is drawn.
void checkPrediction(const core::ModelRun& run, const ExportRequest& request) {
    if (request.kind != FigureKind::Next) {
        if (request.temperature) throw ExportError("--temperature is for --kind next (the model's prediction); leave it out for --kind " + kindName(request.kind) + ".");
        return;
    }
    if (request.stage || request.ropeStep || request.matrix || request.head) {
        throw ExportError("--kind next draws what the model predicts after the whole sentence, not a stage; leave out --stage, --matrix and --head.");
    }
    if (request.temperature) checkTemperature(*request.temperature);
    for (int batch = 0; batch < run.trace.batch; ++batch) predictedPosition(run, batch);
}

// --kind compare draws one head's attention weights of A and B: it needs B (--compare-with, or --compare), and no
// stage or matrix picks anything in it. --compare(-with) without --kind compare would be silently ignored: refused.
void checkComparison(const core::ModelRun& run, const ExportRequest& request) {
    if (request.kind != FigureKind::Compare) {
        if (run.compared) throw ExportError("--compare and --compare-with are for --kind compare; leave them out for --kind " + kindName(request.kind) + ".");
        return;
    }
    if (!run.compared) throw ExportError("--kind compare needs a B: add --compare-with \"…\" (a second sentence), or --compare heads-off or untrained.");
    if (request.stage || request.ropeStep || request.matrix) {
        throw ExportError("--kind compare draws one head's attention weights of both sentences; leave out --stage and --matrix.");
    }
}

void checkCombination(const core::ModelRun& run, const ExportRequest& request) {
    checkPrediction(run, request);
    checkComparison(run, request);
    checkHead(run, request);
    checkRopeStep(run, request);
    if (request.matrix && (request.kind == FigureKind::Stage || request.kind == FigureKind::Slide)) {
        throw ExportError("--matrix picks one matrix, but --kind stage and slide draw the whole stage; use --kind matrix or heads.");
    }
    if (request.kind == FigureKind::Quiz && (request.matrix || request.ropeStep)) {
        throw ExportError("--kind quiz asks the run's questions, one pair of slides each; leave out --matrix (--stage picks the questions about a stage).");
    }
    if (request.kind == FigureKind::Poster && (request.stage || request.matrix)) {
        throw ExportError("--kind poster draws every stage; leave out --stage and --matrix.");
    }
    checkStageShows(request);
    if (request.matrix) checkMatrixExists(run, *request.matrix);
}

// [SECTION] One kind at a time. Each appends the figures of one sentence.

void planMatrices(const core::ModelRun& run, const ExportRequest& request, int batch, std::vector<PlannedFigure>& out) {
    const int head = request.head.value_or(0);
    const auto add = [&](StageId stage, TensorId id) {
        std::string name = stagePrefix(stage) + "-" + std::string(core::tensorInfo(id).key);
        if (isPerHead(id)) name += headSuffix(head);
        out.push_back({name + sentenceSuffix(run, batch) + ".png", FigureKind::Matrix, stage, id, head, batch});
    };
    if (request.matrix) {
        add(request.stage.value_or(homeStage(*request.matrix)), *request.matrix);
        return;
    }
    for (StageId stage : selectedStages(request)) {
        const core::Stage& s = core::stage(stage);
        if (s.shows.empty()) {
            out.push_back({stagePrefix(stage) + sentenceSuffix(run, batch) + ".png", FigureKind::Stage, stage, {}, head,
                           batch});
        }
        for (TensorId id : s.shows) {
            const bool home = request.stage || homeStage(id) == stage;
            if (home && run.trace.has(id)) add(stage, id);
        }
        if (stage == StageId::Embed && !request.stage && run.trace.cross) add(stage, TensorId::XQuery);
    }
}

// The RoPE step's one figure: 03-rope-head0.png (slide-03-rope-head0.png), whatever the kind of stage figure.
void planRopeStep(const core::ModelRun& run, const ExportRequest& request, int batch, std::vector<PlannedFigure>& out) {
    const int head = request.head.value_or(0);
    const FigureKind kind = request.kind == FigureKind::Slide ? FigureKind::Slide : FigureKind::Stage;
    const std::string name = std::string(kind == FigureKind::Slide ? "slide-" : "") + "03-" + std::string(core::ropeStep().key) + headSuffix(head);
    PlannedFigure figure{name + sentenceSuffix(run, batch) + ".png", kind, StageId::SplitHeads, {}, head, batch};
    figure.ropeStep = true;
    out.push_back(std::move(figure));
}

void planStages(const core::ModelRun& run, const ExportRequest& request, int batch, std::vector<PlannedFigure>& out) {
    const int head = request.head.value_or(0);
    for (StageId stage : selectedStages(request)) {
        std::string name = stagePrefix(stage);
        if (stageShowsOneHead(stage, run.trace)) name += headSuffix(head);
        out.push_back({name + sentenceSuffix(run, batch) + ".png", FigureKind::Stage, stage, {}, head, batch});
    }
}

// One 16:9 slide per stage, in the deck's order: slide-00-tokens.png, slide-01-embed.png, …
void planSlides(const core::ModelRun& run, const ExportRequest& request, int batch, std::vector<PlannedFigure>& out) {
    const int head = request.head.value_or(0);
    for (StageId stage : selectedStages(request)) {
        std::string name = "slide-" + stagePrefix(stage);
        if (stageShowsOneHead(stage, run.trace)) name += headSuffix(head);
        out.push_back({name + sentenceSuffix(run, batch) + ".png", FigureKind::Slide, stage, {}, head, batch});
    }
}

std::string stagesWithHeads() {
    std::vector<std::string> keys;
    for (const core::Stage& s : core::stages()) {
        if (core::perHeadTensor(s.id)) keys.push_back(std::string(s.key));
    }
    return joined(keys);
}

void planHeads(const core::ModelRun& run, const ExportRequest& request, int batch, std::vector<PlannedFigure>& out) {
    if (request.matrix) {
        const TensorId id = *request.matrix;
        if (!isPerHead(id)) {
            throw ExportError("--matrix " + std::string(core::tensorInfo(id).key) +
                              " is not split into heads; --kind heads takes one of " +
                              tensorKeys({TensorId::QHeads, TensorId::KHeads, TensorId::VHeads, TensorId::Scores,
                                          TensorId::ScaledScores, TensorId::MaskedScores, TensorId::AttentionWeights,
                                          TensorId::ZHeads}) +
                              ".");
        }
        const StageId stage = request.stage.value_or(homeStage(id));
        out.push_back({stagePrefix(stage) + "-" + std::string(core::tensorInfo(id).key) + "-heads" +
                           sentenceSuffix(run, batch) + ".png",
                       FigureKind::Heads, stage, id, 0, batch});
        return;
    }
    for (StageId stage : selectedStages(request)) {
        const std::optional<TensorId> id = core::perHeadTensor(stage);
        if (!id) {
            if (!request.stage) continue;
            throw ExportError("Stage " + std::string(core::stage(stage).key) +
                              " has no per-head matrices; --kind heads works for " + stagesWithHeads() + ".");
        }
        out.push_back({stagePrefix(stage) + "-heads" + sentenceSuffix(run, batch) + ".png", FigureKind::Heads, stage, id,
                       0, batch});
    }
}

void planLines(const core::ModelRun& run, const ExportRequest& request, int batch, std::vector<PlannedFigure>& out) {
    const int head = request.head.value_or(0);
    out.push_back({stagePrefix(StageId::Softmax) + "-lines" + headSuffix(head) + sentenceSuffix(run, batch) + ".png", FigureKind::Lines,
                   StageId::Softmax, {}, head, batch});
}

// The prediction slide: next.png (next-s1.png for the second sentence).
void planNext(const core::ModelRun& run, const ExportRequest& request, int batch, std::vector<PlannedFigure>& out) {
    PlannedFigure figure{"next" + sentenceSuffix(run, batch) + ".png", FigureKind::Next, StageId::Output, {}, 0, batch};
    figure.temperature = request.temperature.value_or(1.0f);
    out.push_back(std::move(figure));
}

// The compare slide: compare-head0.png.
void planCompare(const core::ModelRun& run, const ExportRequest& request, int batch, std::vector<PlannedFigure>& out) {
    const int head = request.head.value_or(0);
    out.push_back({"compare" + headSuffix(head) + sentenceSuffix(run, batch) + ".png", FigureKind::Compare, StageId::Softmax, {}, head, batch});
}

// The quiz: for each question sentence `batch` offers (about --stage, when given) a question slide and an answer
// slide, quiz-01-attended-question.png and quiz-01-attended-answer.png (a sentence that offers none has none:
// planExport refuses a run whose sentences offer none).
void planQuiz(const core::ModelRun& run, const ExportRequest& request, int batch, std::vector<PlannedFigure>& out) {
    const int head = request.head.value_or(0);
    const std::vector<core::QuestionKind> kinds = quizKinds(run, batch, head, request.stage);
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        char number[8];
        std::snprintf(number, sizeof number, "%02d", static_cast<int>(i + 1));
        const std::string stem = "quiz-" + std::string(number) + "-" + std::string(core::questionKey(kinds[i]));
        for (bool revealed : {false, true}) {
            PlannedFigure figure{stem + (revealed ? "-answer" : "-question") + sentenceSuffix(run, batch) + ".png", FigureKind::Quiz, StageId::Softmax, {}, head, batch};
            figure.question = kinds[i];
            figure.questionNumber = static_cast<int>(i);
            figure.revealed = revealed;
            figure.stage = quizQuestion(run, kinds[i], i, head, batch).stage;
            out.push_back(std::move(figure));
        }
    }
}

void planPoster(const core::ModelRun& run, const ExportRequest& request, int batch, std::vector<PlannedFigure>& out) {
    const int head = request.head.value_or(0);
    out.push_back({"poster" + headSuffix(head) + sentenceSuffix(run, batch) + ".png", FigureKind::Poster,
                   StageId::Tokens, {}, head, batch});
}

}  // namespace

// [SECTION] Parsing the CLI's words

bool namesRopeStep(std::string_view stageText) { return stageText == core::ropeStep().key; }

std::optional<StageId> parseStage(std::string_view text) {
    if (text == "all") return std::nullopt;
    if (namesRopeStep(text)) return StageId::SplitHeads;
    if (const std::optional<StageId> id = core::findStage(text)) return id;
    throw ExportError("unknown stage '" + std::string(text) + "'; use all, a number 0-" +
                      std::to_string(core::kStageCount - 1) + ", or one of " + stageKeys() + ", " + std::string(core::ropeStep().key) + ".");
}

std::optional<TensorId> parseMatrix(std::string_view text) {
    if (text.empty()) return std::nullopt;
    if (const std::optional<TensorId> id = core::findTensor(text)) return id;
    throw ExportError("unknown matrix '" + std::string(text) + "'; use one of " + tensorKeys(allTensors()) + ".");
}

std::string kindName(FigureKind kind) {
    switch (kind) {
        case FigureKind::Stage: return "stage";
        case FigureKind::Heads: return "heads";
        case FigureKind::Poster: return "poster";
        case FigureKind::Slide: return "slide";
        case FigureKind::Lines: return "lines";
        case FigureKind::Next: return "next";
        case FigureKind::Compare: return "compare";
        case FigureKind::Quiz: return "quiz";
        case FigureKind::Matrix: break;
    }
    return "matrix";
}

FigureFormat parseFormat(std::string_view text) {
    if (text == "png") return FigureFormat::Png;
    if (text == "svg") return FigureFormat::Svg;
    if (text == "pdf") return FigureFormat::Pdf;
    throw ExportError("unknown --format '" + std::string(text) + "'; use png, svg or pdf.");
}

FigureKind parseKind(std::string_view text) {
    if (text == "matrix") return FigureKind::Matrix;
    if (text == "stage") return FigureKind::Stage;
    if (text == "heads") return FigureKind::Heads;
    if (text == "poster") return FigureKind::Poster;
    if (text == "slide") return FigureKind::Slide;
    if (text == "lines") return FigureKind::Lines;
    if (text == "next") return FigureKind::Next;
    if (text == "compare") return FigureKind::Compare;
    if (text == "quiz") return FigureKind::Quiz;
    throw ExportError("unknown --kind '" + std::string(text) + "'; use matrix, stage, heads, poster, slide, lines, next, compare or quiz.");
}

Background parseBackground(std::string_view text) {
    if (text == "light") return Background::Light;
    if (text == "dark") return Background::Dark;
    if (text == "transparent") return Background::Transparent;
    throw ExportError("unknown --background '" + std::string(text) + "'; use light, dark or transparent.");
}

std::optional<colormap::Colormap> parseColormap(std::string_view text) {
    if (text.empty()) return std::nullopt;
    if (const std::optional<colormap::Colormap> map = colormap::findColormap(text)) return map;
    std::vector<std::string> names;
    for (colormap::Colormap map : colormap::allColormaps()) names.push_back(std::string(colormap::name(map)));
    throw ExportError("unknown --colormap '" + std::string(text) + "'; use one of " + joined(names) + ".");
}

colormap::ProbabilityScale parseProbabilityScale(std::string_view text) {
    if (const auto scale = colormap::findProbabilityScale(text)) return *scale;
    throw ExportError("unknown --probability-range '" + std::string(text) + "'; use one of map, row, fixed.");
}

int checkScale(int scale) {
    if (scale >= kMinScale && scale <= kMaxScale) return scale;
    throw ExportError("--scale " + std::to_string(scale) + " is out of range; use " + std::to_string(kMinScale) + "-" +
                      std::to_string(kMaxScale) + ".");
}

namespace {

// The planners name .png files; another format swaps the extension.
void inFormat(PlannedFigure& figure, FigureFormat format) {
    figure.format = format;
    if (format == FigureFormat::Png) return;
    const std::string_view extension = format == FigureFormat::Svg ? ".svg" : ".pdf";
    figure.fileName = figure.fileName.substr(0, figure.fileName.size() - extension.size()) + std::string(extension);
}

}  // namespace

std::vector<PlannedFigure> planExport(const core::ModelRun& run, const ExportRequest& request) {
    checkCombination(run, request);
    std::vector<PlannedFigure> figures;
    for (int batch = 0; batch < run.trace.batch; ++batch) {
        if (request.ropeStep) {
            planRopeStep(run, request, batch, figures);
            continue;
        }
        switch (request.kind) {
            case FigureKind::Matrix: planMatrices(run, request, batch, figures); break;
            case FigureKind::Stage: planStages(run, request, batch, figures); break;
            case FigureKind::Heads: planHeads(run, request, batch, figures); break;
            case FigureKind::Poster: planPoster(run, request, batch, figures); break;
            case FigureKind::Slide: planSlides(run, request, batch, figures); break;
            case FigureKind::Lines: planLines(run, request, batch, figures); break;
            case FigureKind::Next: planNext(run, request, batch, figures); break;
            case FigureKind::Compare: planCompare(run, request, batch, figures); break;
            case FigureKind::Quiz: planQuiz(run, request, batch, figures); break;
        }
    }
    if (request.kind == FigureKind::Quiz && figures.empty()) {
        throw ExportError("This run offers no question" + std::string(request.stage ? " about stage " + std::string(core::stage(*request.stage).key) : "") +
                          " at head " + std::to_string(request.head.value_or(0)) + "; a longer sentence, a mask or another stage gives the quiz something to ask.");
    }
    for (PlannedFigure& figure : figures) inFormat(figure, request.format);
    return figures;
}

}  // namespace attnviz::exporting
