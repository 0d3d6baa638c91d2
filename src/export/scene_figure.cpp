// scene_figure.cpp — laying a stage's scene out with the exporter's type and painting it on a Canvas.
// See scene_figure.h.
//
// [SECTION]s: the exported scene · what each map shows · the layout's metrics · the block.
#include "export/scene_figure.h"

#include "export/notation.h"

#include "scene/token_layout.h"

#include "colormap/head_colors.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>

namespace attnviz::exporting {
namespace {

using core::StageId;
using core::TensorId;

int ceilToInt(float value) { return static_cast<int>(std::ceil(value)); }

// [SECTION] The exported scene

// Every map of the scene, in order; `SceneT` is scene::Scene or const scene::Scene.
template <typename SceneT, typename Visit>
void forEachMap(SceneT& scene, Visit visit) {
    for (auto& figure : scene.figures) {
        const auto visitLine = [&](auto& line) {
            for (auto& term : line.terms) {
                if (auto* map = std::get_if<scene::Map>(&term)) visit(*map);
            }
        };
        if (auto* line = std::get_if<scene::Line>(&figure.composition)) {
            visitLine(*line);
            continue;
        }
        if (auto* stack = std::get_if<scene::Stack>(&figure.composition)) {
            for (auto& stacked : stack->lines) visitLine(stacked);
            continue;
        }
        if (std::holds_alternative<scene::Tokens>(figure.composition)) continue;  // boxes, no maps
        auto& product = std::get<scene::Product>(figure.composition);
        visit(product.left);
        for (auto& pair : product.pairs) {
            visit(pair.top);
            visit(pair.result);
        }
    }
}

// [SECTION] What each map shows

// The panel of one map: its symbol and shape as title and caption (the stage's words say the rest). Every map has
// its shape, as on screen: a map beside one whose rows it shares (the RoPE step's q and k after the first, Q K V in
// stage 2's fused line) in numbers ("13 × 128"), which are narrower than its cells, where "l × h·d_k = 13 × 128"
// would push its neighbours apart. Tiles (a head's, stage 2's compact weights) are narrower still: their symbol alone.
PanelContent mapContent(const core::ModelRun& run, const scene::Map& map, int batch, const FigureStyle& style) {
    if (map.source != scene::Source::Trace) return embeddingContent(run, map.source == scene::Source::Positions, batch, style);
    std::optional<colormap::Range> range;
    if (map.rangeOf) range = screenRange(run, *map.rangeOf, chosenColormap(*map.rangeOf, style));
    PanelContent content = panelContent(run, {map.tensor, map.head, map.transposed}, batch, style, range, true);
    content.title = map.title.empty() ? matrixSymbol(map.tensor, std::to_string(map.head)) + (map.transposed ? "^T" : "")
                                      : map.title + (map.transposed ? "^T" : "");
    content.captions.resize(map.frame || map.compactWeight ? 0 : 1);  // every map its shape; a tile its symbol alone
    if (!map.rowLabels && !content.captions.empty()) {
        content.captions.front() = std::to_string(content.values.rows()) + " \u00D7 " + std::to_string(content.values.cols());
    }
    if (!map.frame && !map.compactWeight) markNarrowRange(content, map.tensor);  // trimmed with the captions: back under the shape
    content.rowSums = map.rowSums;
    content.headsPerColour = map.headsPerColour;
    content.frameColour = map.frame;
    content.focusRow = map.focusRow;
    return content;
}

// A slide's maps (`oneLineTitle`) put their shape beside their title: a line of the slide's height goes to the cells.
PanelContent contentOf(const core::ModelRun& run, const scene::Map& map, int batch, const FigureStyle& style, bool oneLineTitle) {
    PanelContent content = mapContent(run, map, batch, style);
    content.firstCaptionBesideTitle = oneLineTitle;
    return content;
}

// The colorbar where the scene puts it (at the right, or under the cells); the layout reserves what decorations() reports.
PanelOptions optionsOf(const scene::Map& map, int cellWidth, int cellHeight, int cellDivisions, bool cellValues) {
    PanelOptions options;
    options.cellWidth = cellWidth;
    options.cellHeight = cellHeight;
    options.cellDivisions = cellDivisions;
    options.colorbar = map.colorbar != scene::Colorbar::None;
    options.colorbarBelow = map.colorbar == scene::Colorbar::Below;
    options.cellValues = cellValues;
    options.rowLabels = map.rowLabels;
    return options;
}

// Cells in whole base pixels, or whole 1/divisions of one: the layout's rounded down (a hair of slack so 12.0 stays 12).
int wholeCell(float extent, int count, int divisions) {
    return std::max(1, static_cast<int>(std::floor(extent / static_cast<float>(count) * static_cast<float>(divisions) + 1e-3f)));
}

// Each map's content, made once, and the room its decorations take: first at labelled cells, where every label is
// drawn, and at the sides as much as at 1-pixel cells, where a title wider than the cells sticks out most; then
// (measureAt) as drawn at the cells a first layout gave it.
class Panels {
public:
    Panels(const core::ModelRun& run, int batch, const FigureStyle& style, int cellDivisions, bool oneLineTitles)
        : run_(run), batch_(batch), style_(style), divisions_(cellDivisions), oneLineTitles_(oneLineTitles) {}

    const PanelContent& content(const scene::Map& map) const { return entry(map).content; }
    const PanelInsets& insets(const scene::Map& map) const { return entry(map).insets; }
    // Each map's decorations as drawn at the cells `layout` gave it, for a second layout that fits them closely.
    void measureAt(const scene::Layout& layout) {
        for (const scene::PlacedMap& placed : layout.maps) {
            const scene::Map& m = placed.map;
            Entry& e = entry(m);
            const PanelOptions cells = optionsOf(m, wholeCell(placed.cells.width(), m.cols, divisions_), wholeCell(placed.cells.height(), m.rows, divisions_),
                                                 divisions_, false);
            e.insets = MatrixPanel(e.content, cells).insets();
        }
    }

private:
    struct Entry {
        PanelContent content;
        PanelInsets insets;
    };
    using Key = std::tuple<int, int, int, bool, bool, bool, int, std::string, int>;

    Entry& entry(const scene::Map& m) const {  // made on first use: the cache is mutable
        const Key key{static_cast<int>(m.source), static_cast<int>(m.tensor), m.head, m.transposed, m.rowSums, m.rowLabels,
                      static_cast<int>(m.colorbar), m.title, m.frame.value_or(-1)};
        if (auto found = entries_.find(key); found != entries_.end()) return found->second;
        Entry made{contentOf(run_, m, batch_, style_, oneLineTitles_), {}};
        const int labelled = ceilToInt(labelledCellSize()) * divisions_;
        const PanelInsets small = MatrixPanel(made.content, optionsOf(m, 1, 1, divisions_, false)).insets();
        const PanelInsets large = MatrixPanel(made.content, optionsOf(m, labelled, labelled, divisions_, false)).insets();
        made.insets = {std::max(small.left, large.left), large.top, std::max(small.right, large.right), large.bottom};
        return entries_.emplace(key, std::move(made)).first->second;
    }

    const core::ModelRun& run_;
    int batch_;
    const FigureStyle& style_;
    int divisions_;
    bool oneLineTitles_;
    mutable std::map<Key, Entry> entries_;
};

// [SECTION] The layout's metrics: the exporter's type

constexpr float kOperatorWordSize = 15.0f;
constexpr float kFormulaSize = 17.0f;
constexpr float kHintSize = 13.0f;
constexpr float kHeadingSize = 15.0f;
constexpr float kTokenSize = 16.0f;
constexpr float kMathAxisEm = 0.3f;  // height of "=" and "−" bars above the baseline
constexpr float kHintLineSpacing = 1.15f;

struct Type {
    float size;
    FontFace face;
};

// Symbols big, words smaller (as the operators between matrices always were).
Type typeOf(scene::TextRole role, std::string_view text) {
    switch (role) {
        case scene::TextRole::Operator: return {text.size() <= 3 ? kOperatorSize : kOperatorWordSize, FontFace::Regular};
        case scene::TextRole::Formula: return {kFormulaSize, FontFace::Regular};
        case scene::TextRole::Heading: return {kHeadingSize, FontFace::Bold};
        case scene::TextRole::Token: return {kTokenSize, FontFace::Regular};
        case scene::TextRole::Label: return {kLabelSize, FontFace::Regular};  // every token label's size
        case scene::TextRole::Hint: break;
    }
    return {kHintSize, FontFace::Regular};
}

float lineHeight(Type type) { return formulaLineMetrics(type.size, type.face).height() * kHintLineSpacing; }

// Words as typed, not formula markup: a token ("x_1"), a label, a heading that quotes the sentence.
bool plain(scene::TextRole role) {
    return role == scene::TextRole::Token || role == scene::TextRole::Label || role == scene::TextRole::Heading;
}
// Roles that wrap to their box: the hint and the notes, a heading.
bool wraps(scene::TextRole role) { return role == scene::TextRole::Hint || role == scene::TextRole::Heading; }

// Text is formula markup (text.h): d_k and W^Q typeset as on screen, except the plain roles.
class ExportMetrics : public scene::Metrics {
public:
    explicit ExportMetrics(const Panels& panels) : panels_(panels) {}
    scene::Insets decorations(const scene::Map& map) const override {
        const PanelInsets& in = panels_.insets(map);
        return {static_cast<float>(in.left), static_cast<float>(in.top), static_cast<float>(in.right),
                static_cast<float>(in.bottom)};
    }
    float textWidth(std::string_view text, scene::TextRole role) const override {
        const Type type = typeOf(role, text);
        return plain(role) ? exporting::textWidth(text, type.size, type.face) : formulaWidth(text, type.size, type.face);
    }
    float textHeight(std::string_view text, scene::TextRole role, float wrapWidth) const override {
        const Type type = typeOf(role, text);
        if (plain(role) && !wraps(role)) return std::ceil(lineMetrics(type.size, type.face).height());
        if (!wraps(role) || wrapWidth <= 0.0f) return formulaLineMetrics(type.size, type.face).height();
        return static_cast<float>(wrapText(text, wrapWidth, type.size, type.face).size()) * lineHeight(type);
    }

private:
    const Panels& panels_;
};

// [SECTION] The block

// Every placed map as a MatrixPanel with whole-pixel cells, every placed text, from (0, 0).
class SceneBlock : public Block {
public:
    SceneBlock(const scene::Layout& layout, const Panels& panels, const FigureStyle& style, int cellDivisions) {
        for (const scene::PlacedMap& placed : layout.maps) placeMap(placed, panels, style, cellDivisions);
        tokens_ = layout.tokens;
        for (const scene::PlacedText& text : layout.texts) {
            texts_.push_back(text);
            texts_.back().box.x1 = text.box.x0 + inkWidth(text);  // a hint's box spans the layout; its ink, its longest line
        }
        moveToOrigin();
    }
    int width() const override { return width_; }
    int height() const override { return height_; }
    // The maps' cells' area, in cell divisions squared: which of two layouts gives the maps more room.
    long long cellArea() const { return cellArea_; }
    std::size_t mapCount() const { return panels_.size(); }
    void draw(Canvas& canvas, int x, int y, int scale, const Theme& theme, std::vector<PlacedHeatmap>& placed) const override {
        for (const Placed& p : panels_) {
            const HeatmapPlacement where = p.panel.draw(canvas, x + p.x, y + p.y, scale, theme);
            if (p.request) placed.push_back({p.request->tensor, p.request->head, p.request->transposed, where});
        }
        for (const scene::PlacedToken& token : tokens_) drawToken(canvas, token, x, y, scale, theme);
        for (const scene::PlacedText& text : texts_) drawPlacedText(canvas, text, static_cast<float>(x), static_cast<float>(y), scale, theme);
    }

private:
    struct Placed {
        MatrixPanel panel;
        std::optional<MatrixRequest> request;  // nullopt: E[ids] or PE, not a Trace tensor
        int x = 0, y = 0;                      // the panel's top-left, base pixels
    };

    // Cells rounded down, centred in the layout's room: the room a rounding gives back is shared on both sides.
    void placeMap(const scene::PlacedMap& placed, const Panels& panels, const FigureStyle& style, int divisions) {
        const scene::Map& m = placed.map;
        const int cw = wholeCell(placed.cells.width(), m.cols, divisions), ch = wholeCell(placed.cells.height(), m.rows, divisions);
        cellArea_ += static_cast<long long>(cw) * m.cols * ch * m.rows;
        const float part = 1.0f / static_cast<float>(divisions);
        const float x = placed.cells.x0 + (placed.cells.width() - static_cast<float>(cw * m.cols) * part) / 2.0f;
        const float y = placed.cells.y0 + (placed.cells.height() - static_cast<float>(ch * m.rows) * part) / 2.0f;
        MatrixPanel panel(panels.content(m), optionsOf(m, cw, ch, divisions, style.cellValues));
        const int px = static_cast<int>(std::lround(x)) - panel.heatmapLeft(), py = static_cast<int>(std::lround(y)) - panel.heatmapTop();
        std::optional<MatrixRequest> request;
        if (m.source == scene::Source::Trace) request = MatrixRequest{m.tensor, m.head, m.transposed};
        panels_.push_back({std::move(panel), request, px, py});
    }

    // Everything from (0, 0): a decoration the layout under-measured moves the whole picture, never off it.
    void moveToOrigin() {
        float left = 0.0f, top = 0.0f;
        for (const Placed& p : panels_) left = std::min(left, static_cast<float>(p.x)), top = std::min(top, static_cast<float>(p.y));
        for (const scene::PlacedText& t : texts_) left = std::min(left, t.box.x0), top = std::min(top, t.box.y0);
        for (const scene::PlacedToken& t : tokens_) left = std::min(left, t.box.x0), top = std::min(top, t.box.y0);
        const int dx = -static_cast<int>(std::floor(left)), dy = -static_cast<int>(std::floor(top));
        for (Placed& p : panels_) {
            p.x += dx;
            p.y += dy;
            width_ = std::max(width_, p.x + p.panel.width());
            height_ = std::max(height_, p.y + p.panel.height());
        }
        for (scene::PlacedText& text : texts_) {
            text.box = {text.box.x0 + dx, text.box.y0 + dy, text.box.x1 + dx, text.box.y1 + dy};
            text.swatchBox = {text.swatchBox.x0 + dx, text.swatchBox.y0 + dy, text.swatchBox.x1 + dx, text.swatchBox.y1 + dy};
            width_ = std::max(width_, ceilToInt(text.box.x1));
            height_ = std::max(height_, ceilToInt(text.box.y1));
        }
        for (scene::PlacedToken& token : tokens_) {
            token.box = {std::round(token.box.x0 + dx), std::round(token.box.y0 + dy), std::round(token.box.x1 + dx), std::round(token.box.y1 + dy)};
            width_ = std::max(width_, ceilToInt(token.box.x1) + 1);  // + 1: the outline's width
            height_ = std::max(height_, ceilToInt(token.box.y1) + 1);
        }
    }

    // A token's box, its text centred at the top (bold when it is a model's special token), its id and position
    // under it, as the screen draws them.
    static void drawToken(Canvas& canvas, const scene::PlacedToken& token, int x, int y, int scale, const Theme& theme) {
        const scene::Rect& b = token.box;
        const PixelRect rect{(x + static_cast<int>(b.x0)) * scale, (y + static_cast<int>(b.y0)) * scale, static_cast<int>(b.width()) * scale,
                             static_cast<int>(b.height()) * scale};
        canvas.fillRect(rect, theme.tokenBox);
        canvas.strokeRect(rect, theme.frame, scale);
        Type text = typeOf(scene::TextRole::Token, token.token.text), label = typeOf(scene::TextRole::Label, "");
        text.size *= token.textScale;
        label.size *= token.labelScale;
        const FontFace face = token.token.kind == scene::Token::Kind::Special ? FontFace::Bold : text.face;
        const LineMetrics textLine = lineMetrics(text.size, face), labelLine = lineMetrics(label.size, label.face);
        const float textH = std::ceil(textLine.height()), labelH = std::ceil(labelLine.height());
        const float middle = static_cast<float>(x) + (b.x0 + b.x1) / 2.0f;
        const float gap = scene::tokenTextGap(1.0f);  // base pixels, as the layout measured
        float top = static_cast<float>(y) + (b.y0 + b.y1) / 2.0f - (textH + gap + labelH * static_cast<float>(token.lines.size())) / 2.0f;
        const auto centred = [&](const std::string& words, Type type, FontFace f, float ascent, Rgba8 colour) {
            const float width = exporting::textWidth(words, type.size, f);
            drawText(canvas, (middle - width / 2.0f) * static_cast<float>(scale), (top + ascent) * static_cast<float>(scale), words,
                     {type.size * static_cast<float>(scale), f, colour});
        };
        const bool padding = token.token.kind == scene::Token::Kind::Padding;
        centred(token.token.text, text, face, textLine.ascent, padding ? theme.secondaryText : theme.text);
        top += textH + gap;
        for (const std::string& line : token.lines) {
            centred(line, label, label.face, labelLine.ascent, theme.secondaryText);
            top += labelH;
        }
    }

    static float inkWidth(const scene::PlacedText& text) {
        const Type type = typeOf(text.role, text.text);
        if (!wraps(text.role)) return formulaWidth(text.text, type.size, type.face);
        float widest = 0.0f;  // measured as wrapText measures, so wrapping to it again gives the same lines
        for (const std::string& line : wrapText(text.text, text.box.width(), type.size, type.face)) {
            widest = std::max(widest, exporting::textWidth(line, type.size, type.face));
        }
        return std::ceil(widest) + 1.0f;
    }

    static void drawPlacedText(Canvas& canvas, const scene::PlacedText& text, float x, float y, int scale, const Theme& theme) {
        const Type type = typeOf(text.role, text.text);
        const float s = static_cast<float>(scale);
        if (text.swatch) {  // a legend entry: its head's colour left of the words
            const scene::Rect& box = text.swatchBox;
            canvas.fillRect({static_cast<int>(std::lround((x + box.x0) * s)), static_cast<int>(std::lround((y + box.y0) * s)),
                             static_cast<int>(std::lround(box.width() * s)), static_cast<int>(std::lround(box.height() * s))},
                            opaque(colormap::headColor(*text.swatch)));
        }
        if (text.role == scene::TextRole::Operator) {
            const float middle = y + (text.box.y0 + text.box.y1) / 2.0f;
            drawFormula(canvas, (x + text.box.x0) * s, (middle + kMathAxisEm * type.size) * s, text.text,
                        {type.size * s, type.face, theme.operatorText});
            return;
        }
        const bool hint = text.role == scene::TextRole::Hint;
        const std::vector<std::string> lines = wraps(text.role) ? wrapText(text.text, text.box.width(), type.size, type.face) : std::vector{text.text};
        const float ascent = formulaLineMetrics(type.size, type.face).ascent;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const float baseline = y + text.box.y0 + ascent + static_cast<float>(i) * lineHeight(type);
            const TextStyle look{type.size * s, type.face, hint ? theme.secondaryText : theme.text};
            if (plain(text.role)) drawText(canvas, (x + text.box.x0) * s, baseline * s, lines[i], look);
            else drawFormula(canvas, (x + text.box.x0) * s, baseline * s, lines[i], look);
        }
    }

    std::vector<Placed> panels_;
    std::vector<scene::PlacedToken> tokens_;
    std::vector<scene::PlacedText> texts_;
    int width_ = 0, height_ = 0;
    long long cellArea_ = 0;
};

// The same scene with every colorbar under its map: a slide whose width binds its maps gives them the width the
// bars took beside them, and the height the slide had left.
scene::Scene withColorbarsBelow(scene::Scene made) {
    forEachMap(made, [](scene::Map& map) {
        if (map.colorbar == scene::Colorbar::Right) map.colorbar = scene::Colorbar::Below;
    });
    return made;
}

// The boxes a layout is tried in, as multiples of the room (sceneBlock): larger first, since cells rounded down may
// still fit; a little smaller last, when decorations drawn at the cells a layout chose outgrow what it measured.
constexpr float kBoxScales[] = {1.4f, 1.25f, 1.12f, 1.05f, 1.0f, 0.97f, 0.94f, 0.9f};

// The stage's scene without its side content and formulas (the figure's header writes the stage's own).
scene::Scene forFigure(scene::Scene made) {
    made.side.reset();
    for (scene::Figure& figure : made.figures) figure.formula.clear();
    return made;
}

std::optional<scene::Scene> figureScene(const core::Trace& trace, StageId stage, const scene::SceneChoices& choices) {
    std::optional<scene::Scene> made = scene::stageScene(stage, trace, choices);
    if (!made) return std::nullopt;
    return forFigure(std::move(*made));
}

}  // namespace

std::optional<scene::Scene> exportedScene(const core::Trace& trace, StageId stage, int head, std::optional<int> blocksBeforeX) {
    scene::SceneChoices choices;
    choices.head = head;
    choices.blocksBeforeX = blocksBeforeX;
    return figureScene(trace, stage, choices);
}

scene::Scene exportedScene(const core::ModelRun& run, StageId stage, int head, int batch, bool ropeStep) {
    scene::SceneChoices choices;
    choices.head = head;
    if (const core::TrainedLayer* trained = run.spec.trained()) choices.blocksBeforeX = trained->layer;
    choices.focusRow = core::followedQueryRow(run, batch, head);
    choices.sentence = batch;
    choices.ropeStep = ropeStep;
    return forFigure(scene::stageScene(stage, run, choices));
}

std::vector<MatrixRequest> sceneRequests(const scene::Scene& scene) {
    std::vector<MatrixRequest> requests;
    forEachMap(scene, [&](const scene::Map& map) {
        if (map.source == scene::Source::Trace) requests.push_back({map.tensor, map.head, map.transposed});
    });
    return requests;
}

SceneBox sceneBoxFor(SceneBox box, const FigureStyle& style) {
    if (style.cellSize == 0) return box;
    return {static_cast<float>(kMaxFigureSide), static_cast<float>(kMaxFigureSide), style.cellSize};  // whole base pixels
}

namespace {

// The scene laid out in the largest of the kBoxScales boxes whose picture fits `box`; `oneLineTitles`: each map's
// shape beside its title.
std::unique_ptr<SceneBlock> fittedBlock(const core::ModelRun& run, const scene::Scene& scene, int batch, const FigureStyle& style,
                                        SceneBox box, bool oneLineTitles) {
    Panels panels(run, batch, style, box.cellDivisions, oneLineTitles);
    const ExportMetrics metrics(panels);
    // Token rows keep every label down to the panel's labelled cell; at full size from a row a label fits in.
    const float labelled = labelledCellSize();
    scene::Rules rules;
    const float labelFloor = (labelled + scene::kLabelSlack) / 0.85f;  // so that Rules::labelledCell() == labelled
    rules.labels = {labelFloor, std::max(labelFloor, kLabelSize)};
    rules.largestCell = static_cast<float>(box.largestCell);
    rules.smallestCell = box.smallestCell;
    const auto laidOut = [&](float scale) {
        const scene::Rect room{0.0f, 0.0f, box.width * scale, box.height * scale};
        panels.measureAt(scene::layoutScene(scene, room, metrics, rules));
        return std::make_unique<SceneBlock>(scene::layoutScene(scene, room, metrics, rules), panels, style, box.cellDivisions);
    };
    if (style.cellSize == 0) {
        for (const float scale : kBoxScales) {
            std::unique_ptr<SceneBlock> tried = laidOut(scale);
            if (tried->width() <= box.width && tried->height() <= box.height) return tried;
        }
    }
    return laidOut(1.0f);
}

// Whether `tried` fits the box and gives the maps more room than `best`, never showing a map fewer.
bool roomier(const SceneBlock& tried, const SceneBlock& best, const SceneBox& box) {
    const bool fits = tried.width() <= box.width && tried.height() <= box.height;
    return fits && tried.mapCount() >= best.mapCount() && tried.cellArea() > best.cellArea();
}

}  // namespace

// A slide tries its maps' titles on one line and its colorbars under the maps, and keeps what gives the cells the
// most room: one-line titles give a line of height to maps its height binds, but widen narrow maps (the RoPE
// step's q and k, 6 columns); colorbars below give width to maps its width binds.
std::unique_ptr<Block> sceneBlock(const core::ModelRun& run, const scene::Scene& scene, int batch, const FigureStyle& style,
                                  SceneBox box) {
    std::unique_ptr<SceneBlock> best = fittedBlock(run, scene, batch, style, box, false);
    if (!box.slide || style.cellSize != 0) return best;
    const scene::Scene below = withColorbarsBelow(scene);
    for (const auto& [tried, oneLine] : {std::pair{&scene, true}, {&below, false}, {&below, true}}) {
        std::unique_ptr<SceneBlock> laidOut = fittedBlock(run, *tried, batch, style, box, oneLine);
        if (roomier(*laidOut, *best, box)) best = std::move(laidOut);
    }
    return best;
}

}  // namespace attnviz::exporting
