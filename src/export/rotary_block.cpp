// rotary_block.cpp — the RoPE step's turning pairs on a Canvas. See rotary_block.h.
#include "export/rotary_block.h"

#include "export/export_error.h"
#include "export/text.h"
#include "export/theme.h"

#include "core/decoder_lessons.h"
#include "core/display_text.h"
#include "scene/scene.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace attnviz::exporting {
namespace {

constexpr int kPairs = 4;
constexpr int kGap = 28;  // base pixels between two squares
constexpr int kMinSide = 80;  // base pixels: a smaller square's arrows and token labels run together
constexpr int kMaxLabelledPositions = 12;
constexpr float kHeadingSize = 13.0f;
constexpr Rgba8 kGuide{200, 200, 200, 255};
constexpr Rgba8 kBefore{150, 150, 150, 200};

// Light blue at position 0 to dark blue at the last (the screen's colours).
Rgba8 positionColour(int position, int count) {
    const float t = count > 1 ? static_cast<float>(position) / static_cast<float>(count - 1) : 1.0f;
    const auto mix = [t](float a, float b) { return static_cast<std::uint8_t>(a + (b - a) * t); };
    return {mix(150, 10), mix(190, 40), mix(240, 120), 255};
}

std::string thetaCaption(int j, float theta) {
    char value[32];
    std::snprintf(value, sizeof value, "%.3g", static_cast<double>(theta));
    return "pair " + std::to_string(j) + ":  \u03B8" + scene::subscript(j) + " = " + value;
}

class RotaryPairsBlock : public Block {
public:
    RotaryPairsBlock(core::RotaryPairs pairs, std::vector<std::string> tokens, int head, RotaryGrid grid)
        : pairs_(std::move(pairs)), tokens_(std::move(tokens)), grid_(grid) {
        grid_.columns = std::clamp(grid_.columns, 1, std::max(1, pairs_.pairCount()));
        for (int j = 0; j < pairs_.pairCount(); ++j) {
            captionWidth_ = std::max(captionWidth_, static_cast<int>(std::ceil(textWidth(thetaCaption(j, pairs_.frequencies(j)), kLabelSize, FontFace::Regular))));
        }
        const std::string heading = "Head " + std::to_string(head) + "'s q, pair by pair: grey before RoPE, coloured after, each token at its own position";
        heading_ = grid_.headingWraps ? wrapText(heading, static_cast<float>(squaresWidth()), kHeadingSize, FontFace::Bold) : std::vector{heading};
    }
    int width() const override {
        int widest = squaresWidth();
        for (const std::string& line : heading_) widest = std::max(widest, static_cast<int>(std::ceil(textWidth(line, kHeadingSize, FontFace::Bold))));
        return widest;
    }
    int height() const override { return headingHeight() + rows() * (grid_.side + captionHeight()) + (rows() - 1) * kGap / 2; }
    void draw(Canvas& canvas, int x, int y, int scale, const Theme& theme, std::vector<PlacedHeatmap>&) const override {
        const float s = static_cast<float>(scale);
        const LineMetrics heading = lineMetrics(kHeadingSize, FontFace::Bold);
        for (std::size_t i = 0; i < heading_.size(); ++i) {
            drawText(canvas, static_cast<float>(x) * s, (static_cast<float>(y) + heading.ascent + static_cast<float>(i) * headingLineHeight()) * s,
                     heading_[i], {kHeadingSize * s, FontFace::Bold, theme.text});
        }
        for (int j = 0; j < pairs_.pairCount(); ++j) {
            const int left = x + (j % grid_.columns) * pitch();
            const int top = y + headingHeight() + (j / grid_.columns) * (grid_.side + captionHeight() + kGap / 2);
            square(canvas, left, top, j, s);
            drawText(canvas, static_cast<float>(left) * s, (static_cast<float>(top + grid_.side + 6) + lineMetrics(kLabelSize, FontFace::Regular).ascent) * s,
                     thetaCaption(j, pairs_.frequencies(j)), {kLabelSize * s, FontFace::Regular, theme.secondaryText});
        }
    }

private:
    int rows() const { return (pairs_.pairCount() + grid_.columns - 1) / grid_.columns; }
    int pitch() const { return std::max(grid_.side, captionWidth_) + kGap; }  // a square's θ caption never runs into the next
    int squaresWidth() const { return (grid_.columns - 1) * pitch() + std::max(grid_.side, captionWidth_); }
    static float headingLineHeight() { return std::ceil(lineMetrics(kHeadingSize, FontFace::Bold).height()); }
    int headingHeight() const { return static_cast<int>(headingLineHeight() * static_cast<float>(heading_.size())) + 10; }
    static int captionHeight() { return static_cast<int>(std::ceil(lineMetrics(kLabelSize, FontFace::Regular).height())) + 8; }

    static void line(Canvas& canvas, float x0, float y0, float x1, float y1, float width, Rgba8 colour, float s) {
        canvas.drawLine({x0 * s, y0 * s, x1 * s, y1 * s, width * s, colour});
    }
    // A line from `from` to `to` with a two-stroke head at `to`.
    static void arrow(Canvas& canvas, float fx, float fy, float tx, float ty, float width, Rgba8 colour, float s) {
        line(canvas, fx, fy, tx, ty, width, colour, s);
        const float dx = tx - fx, dy = ty - fy, length = std::hypot(dx, dy);
        if (length < 4.0f) return;
        const float ux = dx / length, uy = dy / length, head = std::min(6.0f + width, length * 0.4f);
        line(canvas, tx, ty, tx - ux * head - uy * head * 0.45f, ty - uy * head + ux * head * 0.45f, width, colour, s);
        line(canvas, tx, ty, tx - ux * head + uy * head * 0.45f, ty - uy * head - ux * head * 0.45f, width, colour, s);
    }

    // Pair j's square: its frame, the circle the vectors' lengths reach, the axes, an arrow per position.
    void square(Canvas& canvas, int left, int top, int j, float s) const {
        const float x0 = static_cast<float>(left), y0 = static_cast<float>(top), side = static_cast<float>(grid_.side);
        const float cx = x0 + side / 2.0f, cy = y0 + side / 2.0f, radius = side * 0.40f;
        canvas.strokeRect({static_cast<int>(x0 * s), static_cast<int>(y0 * s), static_cast<int>(side * s), static_cast<int>(side * s)}, kGuide,
                          static_cast<int>(s));
        constexpr int kSegments = 64;
        for (int i = 0; i < kSegments; ++i) {
            const double a0 = 2.0 * std::numbers::pi * i / kSegments, a1 = 2.0 * std::numbers::pi * (i + 1) / kSegments;
            line(canvas, cx + radius * static_cast<float>(std::cos(a0)), cy + radius * static_cast<float>(std::sin(a0)),
                 cx + radius * static_cast<float>(std::cos(a1)), cy + radius * static_cast<float>(std::sin(a1)), 1.0f, kGuide, s);
        }
        line(canvas, x0 + 2.0f, cy, x0 + side - 2.0f, cy, 1.0f, kGuide, s);
        line(canvas, cx, y0 + 2.0f, cx, y0 + side - 2.0f, 1.0f, kGuide, s);
        const int count = pairs_.positionCount();
        double longest = 0.0;
        for (int p = 0; p < count; ++p) longest = std::max(longest, std::hypot(pairs_.beforeX(p, j), pairs_.beforeY(p, j)));
        const float unit = longest > 0.0 ? radius / static_cast<float>(longest) : 0.0f;
        const auto px = [&](double v) { return cx + static_cast<float>(v) * unit; };
        const auto py = [&](double v) { return cy - static_cast<float>(v) * unit; };
        for (int p = 0; p < count; ++p) arrow(canvas, cx, cy, px(pairs_.beforeX(p, j)), py(pairs_.beforeY(p, j)), 1.0f, kBefore, s);
        for (int p = 0; p < count; ++p) arrow(canvas, cx, cy, px(pairs_.afterX(p, j)), py(pairs_.afterY(p, j)), 1.6f, positionColour(p, count), s);
        if (count > kMaxLabelledPositions) return;
        for (int p = 0; p < count; ++p) {
            const float tx = px(pairs_.afterX(p, j)), ty = py(pairs_.afterY(p, j));
            const std::string& label = tokens_[static_cast<std::size_t>(p)];
            const float w = textWidth(label, kTickSize, FontFace::Regular);
            // Just beyond the tip, outwards from the centre, kept inside the square.
            const float lx = std::clamp(tx + (tx - cx) * 0.12f - w / 2.0f, x0 + 2.0f, x0 + side - 2.0f - w);
            const float ly = std::clamp(ty + (ty - cy) * 0.12f + kTickSize * 0.35f, y0 + kTickSize + 2.0f, y0 + side - 3.0f);
            drawText(canvas, lx * s, ly * s, label, {kTickSize * s, FontFace::Regular, positionColour(p, count)});
        }
    }

    core::RotaryPairs pairs_;
    std::vector<std::string> tokens_;
    RotaryGrid grid_;
    int captionWidth_ = 0;              // the widest "pair j:  θⱼ = …", base pixels
    std::vector<std::string> heading_;  // its lines
};

}  // namespace

namespace {

struct TurnedPairs {
    core::RotaryPairs pairs;
    std::vector<std::string> tokens;  // one per position, as displayed
};

TurnedPairs turnedPairs(const core::ModelRun& run, int head, int batch) {
    const int pairs = std::min(kPairs, run.trace.dims.dK / 2);
    std::optional<core::RotaryPairs> turned = core::rotaryPairsOfRun(run, batch, head, false, pairs);
    if (!turned) throw ExportError("The RoPE step needs a model with rotary positions (a Llama, Mistral or Qwen folder); this model has none.");
    std::vector<std::string> tokens;
    for (const std::string& token : run.queryTokens.at(static_cast<std::size_t>(batch))) tokens.push_back(core::labelText(token));
    tokens.resize(static_cast<std::size_t>(turned->positionCount()));
    return {std::move(*turned), std::move(tokens)};
}

}  // namespace

std::unique_ptr<Block> rotaryPairsBlock(const core::ModelRun& run, int head, int batch, RotaryGrid grid) {
    TurnedPairs turned = turnedPairs(run, head, batch);
    return std::make_unique<RotaryPairsBlock>(std::move(turned.pairs), std::move(turned.tokens), head, grid);
}

std::unique_ptr<Block> rotaryPairsBlockIn(const core::ModelRun& run, int head, int batch, int maxWidth, int maxHeight) {
    const TurnedPairs turned = turnedPairs(run, head, batch);
    std::unique_ptr<Block> block;
    for (int side = RotaryGrid{}.side; side >= kMinSide; side -= 2) {
        for (int columns = 1; columns <= turned.pairs.pairCount(); ++columns) {
            block = std::make_unique<RotaryPairsBlock>(turned.pairs, turned.tokens, head, RotaryGrid{side, columns, true});
            if (block->width() <= maxWidth && block->height() <= maxHeight) return block;
        }
    }
    return block;  // the smallest squares in one row, though they do not fit
}

}  // namespace attnviz::exporting
