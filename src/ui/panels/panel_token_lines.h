// panel_token_lines.h — the right panel's token lines (BertViz's head view) with the lines it found in the run
// on screen: one head's weights above the drawing threshold (the strongest 256 at most), kept until the run,
// head or sentence changes, so a frame draws them without reading all l² weights again (1M a frame at l = 1024).
#pragma once

#include "ui/views/view_context.h"

#include <optional>
#include <vector>

namespace attnviz::ui {

class TokenLinesPanel {
public:
    // Lines from query tokens (left) to key tokens (right), opacity by the focused head's attention weight.
    void draw(ViewContext& ctx, float height);
    // The run on screen changed: the lines found in the old one go.
    void clear() { found_.reset(); }

private:
    struct Line {
        int query = 0;
        int key = 0;
        float weight = 0.0f;
    };
    struct Found {
        int head = 0;
        int batch = 0;
        std::vector<Line> lines;  // row-major order of A
    };
    const std::vector<Line>& linesOf(const ViewContext& ctx, const render::MatrixSlice& weights);

    std::optional<Found> found_;
};

}  // namespace attnviz::ui
