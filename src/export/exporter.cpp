// exporter.cpp — plan → check → draw → encode → atomic write, and the PNG metadata. See exporter.h.
#include "export/exporter.h"

#include "core/transformer/heads_off.h"

#include "core/names.h"
#include "core/parallel.h"
#include "export/compare_figure.h"
#include "export/export_error.h"
#include "export/pdf_painter.h"
#include "export/prediction_figure.h"
#include "export/quiz_figure.h"
#include "export/svg_painter.h"
#include "io/atomic_file.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cerrno>
#include <exception>
#include <system_error>

#include <unistd.h>

namespace attnviz::exporting {
namespace {

namespace fs = std::filesystem;
using core::StageId;

constexpr std::string_view kVersion = ATTNVIZ_VERSION;
constexpr int kBaseDotsPerInch = 96;

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

// Creates the directory if missing; refuses a path that is a file, and (for non-root users) one we may not write.
void prepareDirectory(const fs::path& outDir) {
    std::error_code error;
    if (fs::exists(outDir, error) && !fs::is_directory(outDir, error)) {
        throw ExportError("the output path " + quoted(outDir) + " is a file, not a directory.");
    }
    if (!fs::exists(outDir, error)) {
        fs::create_directories(outDir, error);
        if (error) throw io::FileError("Cannot create the directory " + quoted(outDir) + ": " + error.message() + ".");
    }
    if (::access(outDir.c_str(), W_OK | X_OK) != 0) {
        throw io::FileError("Cannot write into " + quoted(outDir) + ": " + std::system_category().message(errno) + ".");
    }
}

void refuseExisting(const fs::path& outDir, const std::vector<PlannedFigure>& planned) {
    for (const PlannedFigure& figure : planned) {
        const fs::path path = outDir / figure.fileName;
        std::error_code error;
        if (fs::exists(path, error)) {
            throw ExportError(quoted(path) + " already exists; use --force to overwrite it (nothing was written).");
        }
    }
}

// The kinds drawn as 16:9 slides, kSlideZoom times larger than a figure.
bool isSlide(FigureKind kind) { return kind == FigureKind::Slide || kind == FigureKind::Next || kind == FigureKind::Compare || kind == FigureKind::Quiz; }

std::string stageWord(const PlannedFigure& planned) {
    if (planned.kind == FigureKind::Poster) return "all";
    if (planned.kind == FigureKind::Next) return "none";
    const core::Stage& s = planned.ropeStep ? core::ropeStep() : core::stage(planned.stage);
    return std::to_string(s.number()) + " " + std::string(s.key);
}

}  // namespace

void writeFigure(const fs::path& path, const core::ModelRun& run, const PlannedFigure& planned, const Figure& figure,
                 const FigureStyle& style) {
    switch (planned.format) {
        case FigureFormat::Png: writePng(path, figure.image, figureMetadata(run, planned, figure, style)); return;
        case FigureFormat::Svg: io::writeFileAtomically(path, paintSvg(figure.image.drawing(), figure.title)); return;
        case FigureFormat::Pdf: io::writeFileAtomically(path, paintPdf(figure.image.drawing(), figure.title, figure.pdfPageWidth)); return;
    }
}

Figure drawPlannedFigure(const core::ModelRun& run, const PlannedFigure& planned, const FigureStyle& style) {
    switch (planned.kind) {
        case FigureKind::Matrix:
            return drawMatrixFigure(run, planned.stage, *planned.matrix, planned.head, planned.batch, style);
        case FigureKind::Stage: return drawStageFigure(run, planned.stage, planned.head, planned.batch, style, planned.ropeStep);
        case FigureKind::Heads: return drawHeadsFigure(run, planned.stage, *planned.matrix, planned.batch, style);
        case FigureKind::Poster: return drawPosterFigure(run, planned.head, planned.batch, style);
        case FigureKind::Slide: return drawSlideFigure(run, planned.stage, planned.head, planned.batch, style, planned.ropeStep);
        case FigureKind::Lines: return drawLinesFigure(run, planned.head, planned.batch, style);
        case FigureKind::Next: return drawPredictionFigure(run, planned.batch, planned.temperature, style);
        case FigureKind::Compare: return drawCompareFigure(run, planned.head, planned.batch, style);
        case FigureKind::Quiz:
            return drawQuizFigure(quizQuestion(run, planned.question, static_cast<std::uint64_t>(planned.questionNumber), planned.head, planned.batch),
                                  planned.revealed, style);
    }
    throw ExportError("unknown figure kind");
}

PngMetadata figureMetadata(const core::ModelRun& run, const PlannedFigure& planned, const Figure& figure,
                           const FigureStyle& style) {
    const core::Dimensions& d = run.dims;
    std::string description;
    for (const std::string& sentence : run.spec.sentences) description += (description.empty() ? "" : "\n") + sentence;
    PngMetadata metadata;
    metadata.dotsPerInch = kBaseDotsPerInch * style.scale * (isSlide(planned.kind) ? kSlideZoom : 1);
    metadata.text = {
        {"Title", figure.title},
        {"Software", "attnviz " + std::string(kVersion)},
        {"Description", description},
        {"attnviz.version", std::string(kVersion)},
        {"attnviz.sentences", nlohmann::json(run.spec.sentences).dump()},
        {"attnviz.tokens", nlohmann::json(run.tokens).dump()},
        {"attnviz.d_model", std::to_string(d.dModel)},
        {"attnviz.h", std::to_string(d.heads)},
        {"attnviz.d_k", std::to_string(d.dK)},
        {"attnviz.d_v", std::to_string(d.dV)},
        {"attnviz.mask", std::string(core::nameOf(run.trace.mask))},
        {"attnviz.kind", std::string(kindName(planned.kind))},
        {"attnviz.stage", stageWord(planned)},
        {"attnviz.sentence", std::to_string(planned.batch)},
    };
    if (const core::SeededLayer* seeded = run.spec.seeded()) metadata.text.push_back({"attnviz.seed", std::to_string(seeded->seed)});
    if (run.trace.cross) {
        metadata.text.push_back({"attnviz.decoder_sentences", nlohmann::json(run.spec.seeded()->decoderSentences).dump()});
        metadata.text.push_back({"attnviz.query_tokens", nlohmann::json(run.queryTokens).dump()});
    }
    if (!run.spec.headsOff.empty()) metadata.text.push_back({"attnviz.heads_off", core::headsOffText(run.spec.headsOff)});
    if (planned.matrix) metadata.text.push_back({"attnviz.matrix", std::string(core::tensorInfo(*planned.matrix).key)});
    if (planned.kind != FigureKind::Heads && planned.kind != FigureKind::Next) metadata.text.push_back({"attnviz.head", std::to_string(planned.head)});
    if (planned.kind == FigureKind::Next) metadata.text.push_back({"attnviz.temperature", nlohmann::json(planned.temperature).dump()});
    if (planned.kind == FigureKind::Quiz) {
        metadata.text.push_back({"attnviz.question", std::string(core::questionKey(planned.question))});
        metadata.text.push_back({"attnviz.revealed", planned.revealed ? "true" : "false"});
    }
    if (run.spec.compareWith && run.spec.compareKind == core::CompareKind::Sentence) {
        metadata.text.push_back({"attnviz.compare_with", nlohmann::json(*run.spec.compareWith).dump()});
    } else if (run.spec.compareWith) {
        metadata.text.push_back({"attnviz.compare", std::string(core::nameOf(run.spec.compareKind))});
    }
    return metadata;
}

std::vector<fs::path> exportFigures(const core::ModelRun& run, const ExportRequest& request, const fs::path& outDir,
                                    bool force, const std::function<void(const fs::path&)>& onWritten) {
    const std::vector<PlannedFigure> planned = planExport(run, request);
    if (!force) refuseExisting(outDir, planned);
    prepareDirectory(outDir);

    // Figures are independent: draw and write them on every core. After the first failure no new figure is
    // started; the files already written are reported (in plan order), then the first error is rethrown.
    const int count = static_cast<int>(planned.size());
    std::vector<std::exception_ptr> errors(planned.size());
    std::vector<char> done(planned.size(), 0);
    std::atomic<bool> failed{false};
    core::parallelFor(count, count > 1, [&](int i) {
        if (failed) return;
        const auto at = static_cast<std::size_t>(i);
        try {
            const Figure drawn = drawPlannedFigure(run, planned[at], request.style);
            writeFigure(outDir / planned[at].fileName, run, planned[at], drawn, request.style);
            done[at] = 1;
        } catch (...) {
            errors[at] = std::current_exception();
            failed = true;
        }
    });
    std::vector<fs::path> written;
    for (std::size_t i = 0; i < planned.size(); ++i) {
        if (!done[i]) continue;
        written.push_back(outDir / planned[i].fileName);
        if (onWritten) onWritten(written.back());
    }
    for (const std::exception_ptr& error : errors) {
        if (error) std::rethrow_exception(error);
    }
    return written;
}

}  // namespace attnviz::exporting
