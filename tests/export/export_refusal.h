// export_refusal.h — how the export tests check a request that must be refused: exportFigures throws ExportError
// and leaves nothing at the output folder; the test then reads the error's one sentence.
#pragma once

#include "export/export_error.h"
#include "export/exporter.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

namespace attnviz::test {

// The sentence exportFigures refuses `request` with (writing into `out`, which must not appear); "" and a failed
// check when it is not refused.
inline std::string exportRefusal(const core::ModelRun& run, const exporting::ExportRequest& request, const std::filesystem::path& out) {
    try {
        exporting::exportFigures(run, request, out, false);
    } catch (const exporting::ExportError& error) {
        CHECK_FALSE(std::filesystem::exists(out));
        return error.what();
    }
    FAIL("not refused");
    return {};
}

}  // namespace attnviz::test
