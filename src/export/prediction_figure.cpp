// prediction_figure.cpp — the prediction slide: its title, the sentence row, the bars and the source sentence, stacked
// and centred on a 16:9 canvas. See prediction_figure.h.
#include "export/prediction_figure.h"

#include "export/blocks.h"
#include "export/export_error.h"
#include "export/text.h"

#include "core/transformer/heads_off.h"
#include "core/transformer/prediction.h"
#include "core/transformer/prediction_words.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnviz::exporting {
namespace {

// Base pixels; the slide draws them kSlideZoom times larger (so 13 px here is 26 px at 1080p).
constexpr float kTitleSize = 22.0f;
constexpr float kTokenSize = 14.0f;
constexpr float kSubtitleSize = 14.0f;
constexpr float kSourceSize = 13.0f;
constexpr float kLargestBarLabel = 16.0f;
constexpr int kGap = 14;
constexpr int kSmallGap = 6;
constexpr int kMaxTitleLines = 2;
constexpr int kMaxBarRow = 32, kMinBarRow = 18;  // a bar's row, bar and gap

const core::TrainedModel& trainedModel(const core::ModelRun& run) { return *run.spec.trainedModel(); }

// [SECTION] The sentence row: token boxes wrapped into at most two rows; a sentence too long for them loses the tokens
// farthest from the highlighted one, an "…" standing where they were.
class TokenRowBlock : public Block {
public:
    TokenRowBlock(const std::vector<std::string>& tokens, int highlighted) {
        first_ = 0;
        last_ = static_cast<int>(tokens.size()) - 1;
        for (const std::string& token : tokens) widths_.push_back(boxWidth(token));
        tokens_ = tokens;
        highlighted_ = highlighted;
        while (!place() && last_ > first_) {
            if (highlighted_ - first_ >= last_ - highlighted_) ++first_;
            else --last_;
        }
    }
    int width() const override { return width_; }
    int height() const override { return height_; }
    void draw(Canvas& canvas, int x, int y, int scale, const Theme& theme, std::vector<PlacedHeatmap>&) const override {
        const LineMetrics metrics = lineMetrics(kTokenSize, FontFace::Regular);
        for (const Placed& item : placed_) {
            const PixelRect box{(x + item.x) * scale, (y + item.y) * scale, item.width * scale, boxHeight() * scale};
            const bool ellipsis = item.token < 0, shown = item.token == highlighted_;
            if (!ellipsis) canvas.fillRect(box, shown ? kPredictedFromColour : theme.tokenBox);
            const std::string& text = ellipsis ? kEllipsis : tokens_[static_cast<std::size_t>(item.token)];
            const Rgba8 ink = ellipsis ? theme.secondaryText : shown ? themeFor(Background::Light).text : theme.text;
            const FontFace face = shown ? FontFace::Bold : FontFace::Regular;
            drawText(canvas, static_cast<float>((x + item.x + kPadX) * scale), static_cast<float>((y + item.y + kPadY) * scale) + metrics.ascent * scale,
                     text, {kTokenSize * scale, face, ink});
        }
    }

private:
    static constexpr int kPadX = 6, kPadY = 4, kBoxGap = 6, kMaxRows = 2;
    inline static const std::string kEllipsis = "\u2026";
    struct Placed {
        int token = -1;  // −1: the "…" of tokens left out
        int x = 0, y = 0, width = 0;
    };

    static int boxWidth(const std::string& text) {
        return static_cast<int>(std::ceil(std::max(textWidth(text, kTokenSize, FontFace::Bold), textWidth(text, kTokenSize, FontFace::Regular)))) + 2 * kPadX;
    }
    static int boxHeight() { return static_cast<int>(std::ceil(lineMetrics(kTokenSize, FontFace::Regular).height())) + 2 * kPadY; }

    // Lays tokens first_ … last_ out in rows of kSlideContentWidth; false when they need more than kMaxRows.
    bool place() {
        std::vector<Placed> items;
        if (first_ > 0) items.push_back({-1, 0, 0, boxWidth(kEllipsis)});
        for (int t = first_; t <= last_; ++t) items.push_back({t, 0, 0, widths_[static_cast<std::size_t>(t)]});
        if (last_ < static_cast<int>(tokens_.size()) - 1) items.push_back({-1, 0, 0, boxWidth(kEllipsis)});
        int x = 0, row = 0, widest = 0;
        for (Placed& item : items) {
            if (x > 0 && x + item.width > kSlideContentWidth) {
                x = 0;
                ++row;
            }
            item.x = x;
            item.y = row * (boxHeight() + kBoxGap);
            x += item.width + kBoxGap;
            widest = std::max(widest, item.x + item.width);
        }
        if (row >= kMaxRows && last_ > first_) return false;
        placed_ = std::move(items);
        width_ = widest;
        height_ = (row + 1) * boxHeight() + row * kBoxGap;
        return true;
    }

    std::vector<std::string> tokens_;
    std::vector<int> widths_;
    int highlighted_ = 0, first_ = 0, last_ = 0;
    std::vector<Placed> placed_;
    int width_ = 0, height_ = 0;
};

// [SECTION] The bars: a row each, the piece right-aligned before its bar, the percentage after it; a light track
// behind each bar marks 100 %.
struct Bar {
    std::string label, percent;
    float probability = 0.0f;
};

class BarsBlock : public Block {
public:
    BarsBlock(std::vector<Bar> bars, int width, int height) : bars_(std::move(bars)), width_(width) {
        const int count = std::max(1, static_cast<int>(bars_.size()));
        row_ = std::clamp(height / count, kMinBarRow, kMaxBarRow);
        labelSize_ = std::min(kLargestBarLabel, std::floor(static_cast<float>(row_) * 0.62f));
        float labels = 0.0f, percents = 0.0f;
        for (const Bar& bar : bars_) {
            labels = std::max(labels, textWidth(bar.label, labelSize_, FontFace::Regular));
            percents = std::max(percents, textWidth(bar.percent, labelSize_, FontFace::Bold));
        }
        labelWidth_ = static_cast<int>(std::ceil(std::min(labels, 0.3f * static_cast<float>(width_))));
        percentWidth_ = static_cast<int>(std::ceil(percents));
        for (Bar& bar : bars_) bar.label = truncateToWidth(bar.label, static_cast<float>(labelWidth_), labelSize_, FontFace::Regular);
        height_ = count * row_;
    }
    int width() const override { return width_; }
    int height() const override { return height_; }
    void draw(Canvas& canvas, int x, int y, int scale, const Theme& theme, std::vector<PlacedHeatmap>&) const override {
        const int trackX = x + labelWidth_ + kLabelGap, track = width_ - labelWidth_ - 2 * kLabelGap - percentWidth_;
        const int thickness = static_cast<int>(std::lround(static_cast<float>(row_) * 0.74f));
        const LineMetrics metrics = lineMetrics(labelSize_, FontFace::Regular);
        for (std::size_t i = 0; i < bars_.size(); ++i) {
            const Bar& bar = bars_[i];
            const int top = y + static_cast<int>(i) * row_ + (row_ - thickness) / 2;
            const int length = std::max(1, static_cast<int>(std::lround(std::clamp(bar.probability, 0.0f, 1.0f) * static_cast<float>(track * scale))));
            canvas.fillRect({trackX * scale, top * scale, track * scale, thickness * scale}, theme.tokenBox);
            canvas.fillRect({trackX * scale, top * scale, length, thickness * scale}, kPredictionBarColour);
            const float baseline = (static_cast<float>(top) + (static_cast<float>(thickness) + metrics.ascent - metrics.descent) / 2.0f) * static_cast<float>(scale);
            const float labelX = static_cast<float>(trackX - kLabelGap) - textWidth(bar.label, labelSize_, FontFace::Regular);
            drawText(canvas, labelX * static_cast<float>(scale), baseline, bar.label, {labelSize_ * scale, FontFace::Regular, theme.text});
            drawText(canvas, static_cast<float>(trackX * scale + length + kLabelGap * scale), baseline, bar.percent,
                     {labelSize_ * scale, FontFace::Bold, theme.text});
        }
    }

private:
    static constexpr int kLabelGap = 10;
    std::vector<Bar> bars_;
    int width_ = 0, height_ = 0, row_ = 0, labelWidth_ = 0, percentWidth_ = 0;
    float labelSize_ = kLargestBarLabel;
};

// [SECTION] The words

std::unique_ptr<Block> textLines(std::vector<std::string> lines, float size, FontFace face, TextRole role) {
    return std::make_unique<TextBlock>(std::move(lines), size, face, role);
}

// 1 → "1", 0.7 → "0.7", 0.05 → "0.05".
std::string temperatureText(float temperature) {
    char text[16];
    std::snprintf(text, sizeof text, "%g", static_cast<double>(temperature));
    return text;
}

// "What does gpt2 predict after “␣mat”?" (BERT: "… predict for [MASK]?"), wrapped in at most two lines: a long token
// is cut short with "…".
std::vector<std::string> titleLines(const core::ModelRun& run, int batch, int position) {
    const bool masked = core::predictionKind(trainedModel(run).transformer) == core::PredictionKind::MaskedWord;
    const std::string token = truncateToWidth(run.tokens.at(static_cast<std::size_t>(batch)).at(static_cast<std::size_t>(position)),
                                              kSlideContentWidth / 2.0f, kTitleSize, FontFace::Bold);
    const std::string title = "What does " + trainedModel(run).name + " predict " +
                              (masked ? std::string("for [MASK]?") : "after \u201C" + token + "\u201D?");
    std::vector<std::string> lines = wrapText(title, static_cast<float>(kSlideContentWidth), kTitleSize, FontFace::Bold);
    if (static_cast<int>(lines.size()) > kMaxTitleLines) {
        lines.resize(kMaxTitleLines);
        lines.back() = truncateToWidth(lines.back() + " \u2026", static_cast<float>(kSlideContentWidth) * 0.9f, kTitleSize, FontFace::Bold);
    }
    return lines;
}

std::string subtitle(const core::ModelRun& run, int batch, std::size_t shown, float temperature) {
    const bool masked = core::predictionKind(trainedModel(run).transformer) == core::PredictionKind::MaskedWord;
    std::string text = "the " + std::to_string(shown) + " most likely " + (masked ? "words for [MASK]" : "next tokens") +
                       "  \u00B7  temperature T = " + temperatureText(temperature);
    if (run.trace.batch > 1) text += "  \u00B7  sentence " + std::to_string(batch) + " of " + std::to_string(run.trace.batch);
    if (!run.spec.headsOff.empty()) text += "  \u00B7  heads off: " + core::headsOffText(run.spec.headsOff);
    return text;
}

int stackedHeight(const std::vector<StackedBlock>& blocks) {
    int height = 0;
    for (const StackedBlock& b : blocks) height += b.gapBefore + b.block->height();
    return height;
}

}  // namespace

int predictedPosition(const core::ModelRun& run, int batch) {
    const core::TrainedModel* model = run.spec.trainedModel();
    if (!model || !run.modelPass) throw ExportError(core::seededPredictsNothing("--model"));
    const core::PredictionKind kind = core::predictionKind(model->transformer);
    if (kind == core::PredictionKind::None) throw ExportError(core::whyNoPrediction(model->transformer));
    const std::vector<int>& ids = run.tokenIds.at(static_cast<std::size_t>(batch));
    if (kind == core::PredictionKind::NextToken) return static_cast<int>(ids.size()) - 1;
    const int mask = core::firstMaskPosition(*model->tokenizer, ids);
    if (mask < 0) {
        throw ExportError(model->name + " fills a blanked-out word, and sentence " + std::to_string(batch) +
                          " has none: type [MASK] into --sentence, e.g. \"the [MASK] sat on the mat\".");
    }
    return mask;
}

void checkTemperature(float temperature) {
    if (temperature >= core::kMinTemperature && temperature <= core::kMaxTemperature) return;
    throw ExportError("The temperature " + temperatureText(temperature) + " is out of range; use " + temperatureText(core::kMinTemperature) +
                      " to " + temperatureText(core::kMaxTemperature) + " (1 is the model's own distribution).");
}

Figure drawPredictionFigure(const core::ModelRun& run, int batch, float temperature, const FigureStyle& style) {
    if (batch < 0 || batch >= run.trace.batch) {
        throw ExportError("Sentence " + std::to_string(batch) + " does not exist; the batch has " + std::to_string(run.trace.batch) + ".");
    }
    checkTemperature(temperature);
    const int position = predictedPosition(run, batch);
    const core::TrainedModel& model = trainedModel(run);
    const core::RowVector logits = core::predictionLogits(model.transformer, *run.modelPass, batch, position);
    std::vector<Bar> bars;
    for (const core::TokenChoice& choice : core::topTokens(logits, core::kShownChoices, temperature)) {
        bars.push_back({core::choiceLabel(*model.tokenizer, choice.id), core::percentText(choice.probability), choice.probability});
    }
    const std::vector<std::string> title = titleLines(run, batch, position);

    std::vector<StackedBlock> blocks;
    blocks.push_back({textLines(title, kTitleSize, FontFace::Bold, TextRole::Primary), 0, false});
    blocks.push_back({std::make_unique<TokenRowBlock>(run.tokens.at(static_cast<std::size_t>(batch)), position), kGap, false});
    blocks.push_back({textLines({subtitle(run, batch, bars.size(), temperature)}, kSubtitleSize, FontFace::Regular, TextRole::Secondary), kGap, false});
    std::vector<StackedBlock> source;
    source.push_back({textLines(wrapText(core::predictionSource(model), static_cast<float>(kSlideContentWidth), kSourceSize, FontFace::Regular),
                                kSourceSize, FontFace::Regular, TextRole::Secondary), kGap, false});
    const int room = kSlideContentHeight - stackedHeight(blocks) - stackedHeight(source) - kSmallGap;
    blocks.push_back({std::make_unique<BarsBlock>(std::move(bars), kSlideContentWidth, room), kSmallGap, false});
    for (StackedBlock& b : source) blocks.push_back(std::move(b));

    FigureStyle zoomed = style;
    zoomed.scale = style.scale * kSlideZoom;
    std::string plainTitle;
    for (const std::string& line : title) plainTitle += (plainTitle.empty() ? "" : " ") + line;
    return composeOnCanvas(std::move(blocks), std::move(plainTitle), kSlideWidth / kSlideZoom, kSlideHeight / kSlideZoom, zoomed);
}

}  // namespace attnviz::exporting
