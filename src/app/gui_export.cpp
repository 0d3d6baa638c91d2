// gui_export.cpp — see gui_export.h.
#include "app/gui_export.h"

#include "export/export_error.h"
#include "export/exporter.h"
#include "io/atomic_file.h"

#include "core/compare.h"
#include "core/transformer/prediction.h"

#include <algorithm>

#include <cstdlib>

namespace attnviz::app {
namespace {

// While two sentences are compared the stage view shows A, B and A − B: Export… writes that slide, unless the two
// cannot be lined up (cross-attention: the view says why) or the prediction is asked for.
bool exportsComparison(const core::ModelRun& run, const ui::ExportRequest& wanted) {
    if (!run.compared || wanted.prediction) return false;
    try {
        core::compareSentences(run, wanted.batch, wanted.head);
        return true;
    } catch (const core::InputError&) {
        return false;
    }
}

// One figure per stage ("X · W^Q = Q" side by side), like the CLI's --kind stage, or one 16:9 slide per stage; or
// the prediction's slide (--kind next) at the temperature on screen; or the comparison's slide (--kind compare) for
// the head on screen.
exporting::ExportRequest toExportRequest(bool comparison, const ui::ExportRequest& wanted) {
    exporting::ExportRequest request;
    if (wanted.prediction) {
        request.kind = exporting::FigureKind::Next;
        request.temperature = std::clamp(wanted.temperature, core::kMinTemperature, core::kMaxTemperature);
        request.style.scale = 1;  // 1920 × 1080, a slide's size
    } else if (comparison) {
        request.kind = exporting::FigureKind::Compare;
        request.head = wanted.head;
        request.style.scale = 1;  // a slide
    } else {
        if (!wanted.allStages) request.stage = wanted.stage;
        request.head = wanted.head;
        request.ropeStep = wanted.ropeStep;
        request.kind = wanted.slides ? exporting::FigureKind::Slide : exporting::FigureKind::Stage;
        if (wanted.slides) request.style.scale = 1;  // 1920 × 1080, a slide's size
    }
    request.style.probabilityScale = wanted.probabilityScale;
    request.format = wanted.format == ui::ExportFormat::Svg   ? exporting::FigureFormat::Svg
                     : wanted.format == ui::ExportFormat::Pdf ? exporting::FigureFormat::Pdf
                                                              : exporting::FigureFormat::Png;
    return request;
}

std::string describe(const std::vector<std::filesystem::path>& written, const std::filesystem::path& directory, bool downloads) {
    if (downloads) return written.size() == 1 ? "Downloading " + written.front().filename().string() : "Downloading " + std::to_string(written.size()) + " figures";
    if (written.size() == 1) return "Wrote " + written.front().string();
    return "Wrote " + std::to_string(written.size()) + " figures to " + directory.string();
}

}  // namespace

ui::ExportHook makeExportHook(std::filesystem::path downloads) {
    return [downloads](const core::ModelRun& run, const ui::ExportRequest& wanted) -> std::string {
        const std::filesystem::path directory = !downloads.empty()        ? downloads
                                                : wanted.directory.empty() ? defaultExportDirectory()
                                                                           : std::filesystem::path(wanted.directory);
        try {
            // Figures of the same stage are meant to be refreshed after a change, so re-exporting replaces them.
            const bool comparison = exportsComparison(run, wanted);
            if (!run.compared || comparison) {
                return describe(exporting::exportFigures(run, toExportRequest(comparison, wanted), directory, true), directory, !downloads.empty());
            }
            core::ModelRun alone = run;  // A's figures, as with compare off
            alone.compared.reset();
            return describe(exporting::exportFigures(alone, toExportRequest(false, wanted), directory, true), directory, !downloads.empty());
        } catch (const std::exception& error) {  // ExportError, FontError, io::FileError, PngError, PdfError
            return std::string("Export failed: ") + error.what();
        }
    };
}

std::filesystem::path defaultExportDirectory() {
    if (const char* pictures = std::getenv("XDG_PICTURES_DIR"); pictures != nullptr && *pictures != '\0') {
        return std::filesystem::path(pictures) / "attnviz";
    }
    if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
        return std::filesystem::path(home) / "Pictures" / "attnviz";
    }
    return std::filesystem::temp_directory_path() / "attnviz";
}

}  // namespace attnviz::app
