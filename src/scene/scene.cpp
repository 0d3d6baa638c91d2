// scene.cpp — each stage's maps, operators and formula, from the core's tensor table. See scene.h.
#include "scene/scene.h"

#include <array>

namespace attnviz::scene {
namespace {

using core::StageId;
using core::TensorId;

// The product sign, as the textbooks write it between matrices.
constexpr const char* kTimes = "×";

Term op(std::string glyph) { return Operator{std::move(glyph)}; }

Map withColorbar(Map map, Colorbar side) {
    map.colorbar = side;
    return map;
}

Figure productFigure(Map left, std::vector<Product::Pair> pairs, std::string formula, std::string hint) {
    return {Product{std::move(left), std::move(pairs)}, std::move(formula), std::move(hint)};
}

Figure lineFigure(std::vector<Term> terms, std::string formula, std::string hint = {}) {
    return {Line{std::move(terms)}, std::move(formula), std::move(hint)};
}

Scene embedScene(const core::Trace& trace, const SceneChoices& choices) {
    Map embeddings = traceMap(trace, TensorId::X), positions = embeddings;
    embeddings.source = Source::TokenEmbeddings;
    positions.source = Source::Positions;
    // A trained model's X is not E + P but the residual stream some blocks later: the arrow says so.
    const std::optional<int> blocks = choices.blocksBeforeX;
    const std::string arrow = !blocks ? "=" : "→ " + std::to_string(*blocks) + (*blocks == 1 ? " block →" : " blocks →");
    Scene scene{StageId::Embed, {}, std::nullopt};
    scene.figures.push_back(lineFigure({embeddings, op("+"), positions, op(arrow), traceMap(trace, TensorId::X)},
                                       !blocks ? "X = E[ids] + P" : "E[ids] + P, then the blocks before this layer"));
    return scene;
}

Scene projectScene(const core::Trace& trace, const SceneChoices& choices) {
    const TensorId input = trace.cross ? TensorId::XQuery : TensorId::X;
    Scene scene{StageId::Project, {}, std::nullopt};
    const Map x = withColorbar(traceMap(trace, TensorId::X), Colorbar::Below);
    if (!choices.projection && !trace.cross) {
        scene.figures.push_back(productFigure(
            x,
            {{traceMap(trace, TensorId::WQ), traceMap(trace, TensorId::Q)},
             {traceMap(trace, TensorId::WK), traceMap(trace, TensorId::K)},
             {traceMap(trace, TensorId::WV), traceMap(trace, TensorId::V)}},
            "Q, K, V = X W^Q, X W^K, X W^V",
            "One X, three weight matrices: every row of X becomes a query, a key and a value."));
    }
    const TensorId out = choices.projection.value_or(TensorId::Q);
    const TensorId weights = out == TensorId::Q ? TensorId::WQ : out == TensorId::K ? TensorId::WK : TensorId::WV;
    const std::string name(core::tensorInfo(out).symbol), w(core::tensorInfo(weights).symbol);
    const std::string narrow = choices.projection ? "" : "Q alone (K and V are the same product). ";
    scene.figures.push_back(productFigure(withColorbar(traceMap(trace, out == TensorId::Q ? input : TensorId::X), Colorbar::Below),
                                          {{traceMap(trace, weights), traceMap(trace, out)}}, name + " = X " + w,
                                          narrow + "The same " + w + " multiplies every row of X; its coloured column blocks are the heads' W_i."));
    return scene;
}

Scene scoresScene(const core::Trace& trace, int head) {
    const std::string i = subscript(head);
    Scene scene{StageId::Scores, {}, std::nullopt};
    scene.figures.push_back(productFigure(withColorbar(traceMap(trace, TensorId::QHeads, head), Colorbar::Below),
                                          {{traceMap(trace, TensorId::KHeads, head, true), traceMap(trace, TensorId::Scores, head)}},
                                          "S" + i + " = Q" + i + " K" + i + "ᵀ",
                                          "Each cell compares one query row with one key row (a dot product of d_k numbers)."));
    return scene;
}

Scene scaleScene(const core::Trace& trace, int head) {
    Map scaled = traceMap(trace, TensorId::ScaledScores, head);
    scaled.rangeOf = TensorId::Scores;  // the same colours per value: the shrink shows
    Scene scene{StageId::Scale, {}, Side{}};
    scene.figures.push_back(lineFigure({traceMap(trace, TensorId::Scores, head), op("÷√d_k"), scaled}, ""));
    return scene;
}

Scene maskScene(const core::Trace& trace, int head) {
    Scene scene{StageId::Mask, {}, std::nullopt};
    const Map scaled = traceMap(trace, TensorId::ScaledScores, head), masked = traceMap(trace, TensorId::MaskedScores, head);
    if (!trace.has(TensorId::Mask)) {
        scene.figures.push_back(lineFigure({scaled, op("unchanged →"), masked}, ""));
        return scene;
    }
    scene.figures.push_back(lineFigure({scaled, op("where"), withColorbar(traceMap(trace, TensorId::Mask), Colorbar::None), op("→"), masked}, ""));
    return scene;
}

Scene softmaxScene(const core::Trace& trace, int head) {
    Map weights = traceMap(trace, TensorId::AttentionWeights, head);
    weights.rowSums = true;
    Scene scene{StageId::Softmax, {}, Side{}};
    scene.figures.push_back(lineFigure({traceMap(trace, TensorId::MaskedScores, head), op("softmax →"), weights}, ""));
    return scene;
}

Scene weightedSumScene(const core::Trace& trace, int head) {
    const std::string i = subscript(head);
    Scene scene{StageId::WeightedSum, {}, Side{0.26f, 170.0f, "Every head's Z_i, side by side:"}};
    scene.figures.push_back(productFigure(withColorbar(traceMap(trace, TensorId::AttentionWeights, head), Colorbar::Below),
                                          {{traceMap(trace, TensorId::VHeads, head), traceMap(trace, TensorId::ZHeads, head)}},
                                          "Z" + i + " = A" + i + " V" + i,
                                          "Row r of Z" + i + " is the average of V" + i + "'s rows, weighted by row r of A" + i + "."));
    return scene;
}

Scene outputScene(const core::Trace& trace) {
    Scene scene{StageId::Output, {}, Side{0.36f, 320.0f, "The output O next to the input X: the same shape, l × d_model."}};
    scene.figures.push_back(productFigure(withColorbar(traceMap(trace, TensorId::Concat), Colorbar::Below),
                                          {{traceMap(trace, TensorId::WO), traceMap(trace, TensorId::Output)}}, "O = Z W^O",
                                          "W^O's row blocks (head colours) mix the heads' outputs into each output feature."));
    return scene;
}

}  // namespace

bool Map::isWeight() const {
    return source == Source::Trace &&
           (tensor == TensorId::WQ || tensor == TensorId::WK || tensor == TensorId::WV || tensor == TensorId::WO);
}

std::string subscript(int number) {
    static constexpr std::array<const char*, 10> kDigits{"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
    if (number < 0) return "₋" + subscript(-number);
    std::string digits = std::to_string(number), out;
    for (char c : digits) out += kDigits[static_cast<std::size_t>(c - '0')];
    return out;
}

Map traceMap(const core::Trace& trace, TensorId tensor, int head, bool transposed) {
    Map map;
    map.tensor = tensor;
    map.head = head;
    map.transposed = transposed;
    const core::Tensor& t = trace[tensor];
    const core::TensorAxes axes = core::tensorAxes(tensor, trace);
    map.rows = transposed ? t.cols() : t.rows();
    map.cols = transposed ? t.rows() : t.cols();
    map.rowAxis = transposed ? axes.cols : axes.rows;
    map.colAxis = transposed ? axes.rows : axes.cols;
    return map;
}

std::optional<Scene> stageScene(StageId stage, const core::Trace& trace, const SceneChoices& choices) {
    const int head = choices.head;
    switch (stage) {
        case StageId::Embed: return embedScene(trace, choices);
        case StageId::Project: return projectScene(trace, choices);
        case StageId::Scores: return scoresScene(trace, head);
        case StageId::Scale: return scaleScene(trace, head);
        case StageId::Mask: return maskScene(trace, head);
        case StageId::Softmax: return softmaxScene(trace, head);
        case StageId::WeightedSum: return weightedSumScene(trace, head);
        case StageId::Output: return outputScene(trace);
        case StageId::Tokens: case StageId::SplitHeads: case StageId::Concat: case StageId::Count: break;
    }
    return std::nullopt;
}

}  // namespace attnviz::scene
