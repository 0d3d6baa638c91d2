// export_command.cpp — `attnviz export`: run the model headless and write heatmap figures as PNG, SVG or PDF.
//
// Prints each path written, one per line, on stdout as it is written. On a bad option value, a combination
// that makes no figure, an existing file without --force, or a file problem: one line
// "attnviz export: <what is wrong and what is allowed>" on stderr, exit code 1 (kExitRunError), and no file is written (checks
// run before the first figure is drawn).
// What this file deliberately does not do: parse the command line (cli_options.cpp, main.cpp), draw, or
// choose file names (src/export).
#include "app/cli_options.h"

#include "export/export_error.h"
#include "export/exporter.h"
#include "export/pdf_painter.h"
#include "export/text.h"
#include "io/atomic_file.h"
#include "io/memory_budget.h"

#include <iostream>

namespace attnviz::app {
namespace {

// The CLI's words → a checked request; throws exporting::ExportError naming the bad value.
exporting::ExportRequest toRequest(const ExportOptions& options) {
    exporting::ExportRequest request;
    request.stage = exporting::parseStage(options.stage);
    request.ropeStep = exporting::namesRopeStep(options.stage);
    request.matrix = exporting::parseMatrix(options.matrix);
    request.head = options.head;
    request.kind = exporting::parseKind(options.kind);
    request.temperature = options.temperature;
    request.format = exporting::parseFormat(options.format);
    request.style.scale = exporting::checkScale(options.scale);
    request.style.background = exporting::parseBackground(options.background);
    request.style.colormap = exporting::parseColormap(options.colormap);
    request.style.probabilityScale = exporting::parseProbabilityScale(options.probabilityRange);
    if (options.cellSize != 0 && (options.cellSize < exporting::kMinCellSize || options.cellSize > exporting::kMaxCellSize)) {
        throw exporting::ExportError("--cell-size must be 0 (automatic) or " + std::to_string(exporting::kMinCellSize) +
                                     " to " + std::to_string(exporting::kMaxCellSize) + " pixels (got " +
                                     std::to_string(options.cellSize) + ").");
    }
    request.style.cellSize = options.cellSize;
    request.style.cellValues = options.cellValues;
    return request;
}

int fail(const std::string& message) {
    std::cerr << "attnviz export: " << message << '\n';
    return kExitRunError;
}

}  // namespace

int runExport(const core::ModelSpec& typed, const ExportOptions& options) {
    try {
        const exporting::ExportRequest request = toRequest(options);
        core::ModelSpec spec = typed;
        if (!options.ablate.empty()) spec.headsOff = parseHeadAblations(options.ablate);
        const core::ModelRun run = core::runModel(spec);
        exporting::exportFigures(run, request, options.out, options.force,
                                 [](const std::filesystem::path& path) { std::cout << path.string() << '\n' << std::flush; });
        return 0;
    } catch (const exporting::ExportError& error) {
        return fail(error.what());
    } catch (const core::InputError& error) {
        return fail(error.what());
    } catch (const io::FileError& error) {
        return fail(error.what());
    } catch (const exporting::FontError& error) {
        return fail(error.what());
    } catch (const exporting::PngError& error) {
        return fail(error.what());
    } catch (const exporting::PdfError& error) {
        return fail(error.what());
    } catch (const std::bad_alloc&) {
        return fail(io::outOfMemoryMessage());
    }
}

}  // namespace attnviz::app
