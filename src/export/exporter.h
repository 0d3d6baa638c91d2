// exporter.h — the whole export: plan the files, refuse to overwrite, draw each figure, write it as PNG with
// metadata, SVG or PDF (atomically), report each path. Shared by `attnviz export` and the GUI's export buttons.
//
// Nothing lost: every file goes to a temporary name in the output directory and is renamed when complete; if
// any planned file exists and `force` is false, nothing is drawn or written; an unwritable directory fails
// before the first figure is drawn. Figures are drawn and written in parallel (one per core); onWritten
// still sees the paths in plan order, once every figure is done.
// What this file deliberately does not do: parse command lines or print (callers get each path through
// onWritten and show errors themselves).
#pragma once

#include "export/export_plan.h"
#include "export/figure.h"
#include "export/png_writer.h"

#include <filesystem>
#include <functional>
#include <vector>

namespace attnviz::exporting {

// Draws one planned figure.
Figure drawPlannedFigure(const core::ModelRun& run, const PlannedFigure& planned, const FigureStyle& style);

// tEXt/iTXt metadata of a figure (Title, Software, Description, and attnviz.* keys: sentences, tokens, d_model,
// h, d_k, d_v, seed, mask, stage, matrix, head, sentence, kind, version) and pHYs at 96 · scale DPI.
PngMetadata figureMetadata(const core::ModelRun& run, const PlannedFigure& planned, const Figure& figure,
                           const FigureStyle& style);

// Writes a drawn figure in its planned format (PNG with figureMetadata, SVG, PDF), atomically. Throws PngError,
// PdfError or io::FileError.
void writeFigure(const std::filesystem::path& path, const core::ModelRun& run, const PlannedFigure& planned, const Figure& figure,
                 const FigureStyle& style);

// Throws ExportError (a request that makes no figure, an existing file without force, an output path that is
// not a directory), io::FileError (cannot create the directory or write a file) or FontError. Files written
// before a failure stay complete; none is ever left half-written.
std::vector<std::filesystem::path> exportFigures(
    const core::ModelRun& run, const ExportRequest& request, const std::filesystem::path& outDir, bool force,
    const std::function<void(const std::filesystem::path&)>& onWritten = {});

}  // namespace attnviz::exporting
