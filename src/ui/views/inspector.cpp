// inspector.cpp — recomputes one cell from its operands and says why it has its value. See inspector.h.
//
// Index names: r = row (a query or key token, or an input feature), c = column, j = the summed index,
// i = head. Every product is recomputed in double from the Trace's own operands, so the listed terms add up
// to the value on screen.
#include "ui/views/inspector.h"

#include "core/names.h"
#include "ui/views/matrix_info.h"
#include "ui/views/number_format.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace attnviz::ui {
namespace {

using core::TensorId;

MatrixRef tensorRef(TensorId tensor, int head = 0) { return {MatrixSource::Trace, tensor, head}; }

Highlight row(MatrixRef m, int r) { return {m, Highlight::Kind::Row, r, 0}; }
Highlight column(MatrixRef m, int c) { return {m, Highlight::Kind::Column, 0, c}; }
Highlight cellOf(MatrixRef m, int r, int c) { return {m, Highlight::Kind::Cell, r, c}; }

std::string quoted(const std::string& token) { return "“" + token + "”"; }

std::string index2(int r, int c) {
    std::string text = "[";  // appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "[" + to_string(…)
    text += std::to_string(r);
    text += ", ";
    text += std::to_string(c);
    text += "]";
    return text;
}

// Everything a per-tensor explainer needs, gathered once.
struct Context {
    const core::ModelRun& run;
    const core::Trace& trace;
    int batch;
    CellRef cell;
    MatrixInfo info;

    render::MatrixSlice slice(const MatrixRef& ref) const { return matrixSlice(run, ref, batch); }
    float at(const MatrixRef& ref, int r, int c) const { return valueAt(slice(ref), r, c); }
    std::string label(Axis axis, int index) const { return axisLabel(run, axis, batch, index); }
};

// Σ_j a(j) · b(j) over n terms: fills terms (largest |product| first), termCount and termSum.
void explainDot(Explanation& e, int n, const std::function<float(int)>& a, const std::function<float(int)>& b,
                const std::function<std::string(int)>& label, float bias = 0.0f) {
    std::vector<DotTerm> all;
    double sum = bias;
    for (int j = 0; j < n; ++j) {
        const DotTerm t{j, label(j), a(j), b(j), a(j) * b(j)};
        sum += static_cast<double>(t.left) * t.right;
        all.push_back(t);
    }
    std::stable_sort(all.begin(), all.end(), [](const DotTerm& x, const DotTerm& y) { return std::fabs(x.product) > std::fabs(y.product); });
    all.resize(std::min<std::size_t>(all.size(), kListedTerms));
    e.terms = std::move(all);
    e.termCount = n;
    e.termSum = static_cast<float>(sum);
}

std::string dimLabel(int j) { return "dim " + std::to_string(j); }

int headOfColumn(int col, int width) { return width > 0 ? col / width : 0; }

// [SECTION] Inputs and weights

// " (id 5044)": a trained model's vocabulary id of the token in row `row`; empty for the seeded model.
std::string idOf(const Context& ctx, int row) {
    const auto& ids = ctx.run.tokenIds;
    if (ctx.batch >= static_cast<int>(ids.size()) || row >= static_cast<int>(ids[static_cast<std::size_t>(ctx.batch)].size())) return {};
    return " (id " + std::to_string(ids[static_cast<std::size_t>(ctx.batch)][static_cast<std::size_t>(row)]) + ")";
}

// A trained model's X is the residual stream entering the stepped layer, not E + P.
void explainTrainedX(const Context& ctx, const core::TrainedLayer& trained, Explanation& e) {
    const int r = ctx.cell.row, c = ctx.cell.col;
    const core::TrainedModel& model = *trained.model;
    const core::FamilyTraits& family = model.config().traits();
    const std::string layer = std::to_string(trained.layer);
    e.formula = "X" + index2(r, c) + " = " + core::trainedInput(model, trained.layer) + index2(r, c) + " = " +
                formatValue(ctx.at({MatrixSource::Trace, TensorId::X, 0}, r, c));
    const std::string after = family.inputNorm.empty() ? "." : ", then normalised by this layer's " + std::string(family.inputNorm) + ".";
    e.notes.push_back("Row " + std::to_string(r) + " of X is token " + quoted(ctx.label(Axis::KeyTokens, r)) + idOf(ctx, r) +
                      " as it enters layer " + layer + (family.positions == core::PositionKind::Rotary ? ": its embedding (RoPE adds no position row)" : ": its embedding plus position") +
                      ", changed by every block before" + after);
}

void explainX(const Context& ctx, Explanation& e) {
    if (const core::TrainedLayer* trained = ctx.run.spec.trained()) {
        explainTrainedX(ctx, *trained, e);
        return;
    }
    const int r = ctx.cell.row, c = ctx.cell.col;
    const MatrixRef embeddings{MatrixSource::TokenEmbeddings, TensorId::X, 0};
    const MatrixRef positions{MatrixSource::Positions, TensorId::X, 0};
    const float emb = ctx.at(embeddings, r, c), pos = ctx.at(positions, r, c);
    e.formula = "X" + index2(r, c) + " = E[" + quoted(ctx.label(Axis::KeyTokens, r)) + "][" + std::to_string(c) + "] + PE" +
                index2(r, c) + " = " + formatValue(emb) + " + " + formatValue(pos);
    e.notes.push_back("Row " + std::to_string(r) + " of X is token " + quoted(ctx.label(Axis::KeyTokens, r)) +
                      ": its embedding row plus the encoding of its position.");
    if (!ctx.run.spec.seeded()->positional) e.notes.push_back("Positional encoding is off, so PE is zero.");
    e.highlights = {cellOf(embeddings, r, c), cellOf(positions, r, c)};
}

void explainEmbedding(const Context& ctx, Explanation& e) {
    const std::string token = quoted(ctx.label(Axis::KeyTokens, ctx.cell.row));
    e.formula = "E[" + token + "][" + std::to_string(ctx.cell.col) + "]";
    if (ctx.run.spec.trainedModel()) {
        e.notes.push_back("Row" + idOf(ctx, ctx.cell.row) + " of " + ctx.run.spec.trainedModel()->name +
                          "'s token embedding table, learned in training: the same row wherever " + token + " appears.");
        return;
    }
    e.notes.push_back("The embedding table's row for " + token + ": the same row wherever " + token +
                      " appears (seeded random numbers standing in for a trained table).");
}

void explainPosition(const Context& ctx, Explanation& e) {
    const int pos = ctx.cell.row, c = ctx.cell.col, i = c / 2;
    if (ctx.run.spec.trainedModel()) {
        e.formula = "P" + index2(pos, c);
        e.notes.push_back("Row " + std::to_string(pos) + " of " + ctx.run.spec.trainedModel()->name +
                          "'s position table, learned in training (not the sinusoids of the original Transformer).");
        return;
    }
    const std::string angle = std::to_string(pos) + " / 10000^(" + std::to_string(2 * i) + "/" + std::to_string(ctx.trace.dims.dModel) + ")";
    e.formula = "PE" + index2(pos, c) + " = " + std::string(c % 2 == 0 ? "sin" : "cos") + "(" + angle + ")";
    e.notes.push_back("Even columns are sines and odd columns cosines of the position at falling frequencies, "
                      "so every position gets a different pattern.");
}

void explainWeight(const Context& ctx, Explanation& e) {
    const TensorId t = ctx.cell.matrix.tensor;
    const core::Dimensions& d = ctx.trace.dims;
    const int r = ctx.cell.row, c = ctx.cell.col;
    e.formula = ctx.info.name + index2(r, c);
    if (t == TensorId::WO) {
        const int i = headOfColumn(r, d.dV);
        e.notes.push_back("Row " + std::to_string(r) + " multiplies column " + std::to_string(r) + " of Z, which head " +
                          std::to_string(i) + " produced; column " + std::to_string(c) + " is output feature " + std::to_string(c) + ".");
        e.highlights = {row(ctx.cell.matrix, r)};
        return;
    }
    const int width = t == TensorId::WV ? d.dV : d.dK;
    const int i = headOfColumn(c, width);
    const std::string small = std::string(t == TensorId::WQ ? "Q" : t == TensorId::WK ? "K" : "V");
    e.notes.push_back("Input feature " + std::to_string(r) + " → output column " + std::to_string(c) + ". Column " +
                      std::to_string(c) + " lies in head " + std::to_string(i) + "'s block: it is column " +
                      std::to_string(c % width) + " of W" + subscript(i) + "^" + small + " (" + std::to_string(d.dModel) +
                      " × " + std::to_string(width) + ").");
    e.highlights = {column(ctx.cell.matrix, c)};
}

// [SECTION] Products

// Q, K or V = X W (+ b): row r of the input times column c of the weights.
void explainProjection(const Context& ctx, Explanation& e, TensorId fused, int col, const std::string& name) {
    const core::Weights& w = ctx.run.weights;
    const TensorId weights = fused == TensorId::Q ? TensorId::WQ : fused == TensorId::K ? TensorId::WK : TensorId::WV;
    const TensorId input = fused == TensorId::Q && ctx.trace.cross ? TensorId::XQuery : TensorId::X;
    const core::RowVector& bias = fused == TensorId::Q ? w.bq : fused == TensorId::K ? w.bk : w.bv;
    const MatrixRef x = tensorRef(input), wm = tensorRef(weights);
    const int r = ctx.cell.row, n = ctx.trace.dims.dModel;
    const render::MatrixSlice xs = ctx.slice(x), ws = ctx.slice(wm);
    explainDot(e, n, [&](int j) { return valueAt(xs, r, j); }, [&](int j) { return valueAt(ws, j, col); }, dimLabel,
               bias.size() > 0 ? bias(col) : 0.0f);
    const std::string xName = input == TensorId::X ? "X" : "X_dec";
    e.formula = name + " = " + xName + "[" + std::to_string(r) + ", :] · " + matrixInfo(ctx.run, wm, ctx.batch).name +
                "[:, " + std::to_string(col) + "]" + (bias.size() > 0 ? " + b" : "");
    e.highlights.push_back(row(x, r));
    e.highlights.push_back(column(wm, col));
}

void explainFused(const Context& ctx, Explanation& e) {
    const TensorId t = ctx.cell.matrix.tensor;
    const core::Dimensions& d = ctx.trace.dims;
    const int width = t == TensorId::V ? d.dV : d.dK;
    explainProjection(ctx, e, t, ctx.cell.col, ctx.info.name + index2(ctx.cell.row, ctx.cell.col));
    const int i = headOfColumn(ctx.cell.col, width);
    e.notes.push_back("The same " + matrixInfo(ctx.run, tensorRef(t == TensorId::Q ? TensorId::WQ : t == TensorId::K ? TensorId::WK : TensorId::WV), ctx.batch).name +
                      " multiplies every row of X: a linear layer acts on each token separately.");
    e.notes.push_back("Column " + std::to_string(ctx.cell.col) + " belongs to head " + std::to_string(i) + " (columns " +
                      std::to_string(i * width) + "–" + std::to_string((i + 1) * width - 1) + ").");
}

void explainSplit(const Context& ctx, Explanation& e) {
    const TensorId t = ctx.cell.matrix.tensor;
    const TensorId fused = t == TensorId::QHeads ? TensorId::Q : t == TensorId::KHeads ? TensorId::K : TensorId::V;
    const core::Dimensions& d = ctx.trace.dims;
    const int width = t == TensorId::VHeads ? d.dV : d.dK;
    const int i = t == TensorId::QHeads ? ctx.cell.matrix.head : core::keyValueHead(d, ctx.cell.matrix.head);  // K/V heads may be shared
    const int fusedCol = i * width + ctx.cell.col;
    explainProjection(ctx, e, fused, fusedCol, ctx.info.name + index2(ctx.cell.row, ctx.cell.col));
    const std::string fusedName = matrixInfo(ctx.run, tensorRef(fused), ctx.batch).name;
    const bool rotated = t != TensorId::VHeads && ctx.trace.has(TensorId::QHeadsBeforeRope);
    if (rotated) {
        e.value = valueAt(ctx.slice(ctx.cell.matrix), ctx.cell.row, ctx.cell.col);
        e.notes.push_back("After the split RoPE turned this row by its position (Qwen3 normalises it first): the sum above is the projection before that.");
    }
    e.notes.push_back(std::string(rotated ? "From " : "A copy of ") + fusedName + index2(ctx.cell.row, fusedCol) + ": splitting into heads only reshapes, "
                      "head " + std::to_string(i) + " keeps columns " + std::to_string(i * width) + "–" +
                      std::to_string((i + 1) * width - 1) + ".");
    e.notes.push_back("Head " + std::to_string(i) + " saw all of X (every one of the " + std::to_string(d.dModel) +
                      " features); the narrowing to " + std::to_string(width) + " came from its weight block.");
    e.highlights.push_back(cellOf(tensorRef(fused), ctx.cell.row, fusedCol));
}

void explainScores(const Context& ctx, Explanation& e) {
    const int i = ctx.cell.matrix.head, r = ctx.cell.row, c = ctx.cell.col;
    const MatrixRef q = tensorRef(TensorId::QHeads, i), k = tensorRef(TensorId::KHeads, i);
    const render::MatrixSlice qs = ctx.slice(q), ks = ctx.slice(k);
    explainDot(e, ctx.trace.dims.dK, [&](int j) { return valueAt(qs, r, j); }, [&](int j) { return valueAt(ks, c, j); }, dimLabel);
    e.formula = ctx.info.name + index2(r, c) + " = Q" + subscript(i) + "[" + std::to_string(r) + ", :] · K" + subscript(i) +
                "[" + std::to_string(c) + ", :]";
    e.notes.push_back("How well query " + quoted(ctx.label(Axis::QueryTokens, r)) + " matches key " +
                      quoted(ctx.label(Axis::KeyTokens, c)) + " in head " + std::to_string(i) + ": a dot product of " +
                      std::to_string(ctx.trace.dims.dK) + " numbers.");
    e.highlights = {row(q, r), row(k, c)};
}

void explainWeightedSum(const Context& ctx, Explanation& e) {
    const int i = ctx.cell.matrix.head, r = ctx.cell.row, c = ctx.cell.col;
    const MatrixRef a = tensorRef(TensorId::AttentionWeights, i), v = tensorRef(TensorId::VHeads, i);
    const render::MatrixSlice as = ctx.slice(a), vs = ctx.slice(v);
    explainDot(e, ctx.trace.keyLength, [&](int j) { return valueAt(as, r, j); }, [&](int j) { return valueAt(vs, j, c); },
               [&](int j) { return quoted(ctx.label(Axis::KeyTokens, j)); });
    e.formula = ctx.info.name + index2(r, c) + " = A" + subscript(i) + "[" + std::to_string(r) + ", :] · V" + subscript(i) +
                "[:, " + std::to_string(c) + "]";
    e.notes.push_back("Feature " + std::to_string(c) + " of the values, averaged over every key with query " +
                      quoted(ctx.label(Axis::QueryTokens, r)) + "'s attention weights.");
    if (std::isnan(e.value)) e.notes.push_back("NaN spreads: a NaN attention weight makes every product with it NaN.");
    e.highlights = {row(a, r), column(v, c)};
}

void explainOutput(const Context& ctx, Explanation& e) {
    const int r = ctx.cell.row, c = ctx.cell.col;
    const MatrixRef z = tensorRef(TensorId::Concat), wo = tensorRef(TensorId::WO);
    const core::RowVector& bias = ctx.run.weights.bo;
    const render::MatrixSlice zs = ctx.slice(z), ws = ctx.slice(wo);
    explainDot(e, ctx.trace.dims.heads * ctx.trace.dims.dV, [&](int j) { return valueAt(zs, r, j); },
               [&](int j) { return valueAt(ws, j, c); },
               [&](int j) { return dimLabel(j) + " (head " + std::to_string(headOfColumn(j, ctx.trace.dims.dV)) + ")"; },
               bias.size() > 0 ? bias(c) : 0.0f);
    e.formula = "O" + index2(r, c) + " = Z[" + std::to_string(r) + ", :] · W^O[:, " + std::to_string(c) + "]" +
                (bias.size() > 0 ? " + b^O" : "");
    e.notes.push_back("W^O mixes every head's output into feature " + std::to_string(c) + " of token " +
                      quoted(ctx.label(Axis::QueryTokens, r)) + "; O has the shape of X.");
    e.highlights = {row(z, r), column(wo, c)};
}

// [SECTION] Scale, mask, softmax, concat

// Why the mask removes key c for query r (empty when it does not).
std::string maskReason(const Context& ctx, int r, int c) {
    const core::Trace& t = ctx.trace;
    const bool padding = t.mask == core::MaskKind::Padding || t.mask == core::MaskKind::Both;
    const bool causal = t.mask == core::MaskKind::Causal || t.mask == core::MaskKind::Both;
    const int length = t.keyLengths.at(static_cast<std::size_t>(ctx.batch));
    if (padding && c >= length) {
        return "Padding mask: key " + std::to_string(c) + " is padding past the end of this sentence (" +
               std::to_string(length) + " tokens), so no query may look at it.";
    }
    if (causal && c > r) {
        return "Causal mask: key " + std::to_string(c) + " " + quoted(ctx.label(Axis::KeyTokens, c)) + " comes after query " +
               std::to_string(r) + " " + quoted(ctx.label(Axis::QueryTokens, r)) + "; a decoder may not look ahead.";
    }
    return {};
}

bool isMasked(const Context& ctx, int r, int c) {
    const core::Tensor& mask = ctx.trace[TensorId::Mask];
    if (mask.empty()) return false;
    const core::MatrixView m = mask.slice(ctx.batch, 0);
    return m(m.rows() == 1 ? 0 : r, c) == 0.0f;
}

void explainScaled(const Context& ctx, Explanation& e) {
    const int i = ctx.cell.matrix.head, r = ctx.cell.row, c = ctx.cell.col;
    const MatrixRef s = tensorRef(TensorId::Scores, i);
    const float scale = ctx.trace.dims.scale;
    e.formula = ctx.info.name + index2(r, c) + " = S" + subscript(i) + index2(r, c) + " × " + formatValue(scale) + " = " +
                formatValue(ctx.at(s, r, c)) + " × " + formatValue(scale);
    e.notes.push_back("Scaling by 1/√d_k = 1/√" + std::to_string(ctx.trace.dims.dK) +
                      " keeps scores of long dot products from pushing softmax into one-hot rows.");
    e.highlights = {cellOf(s, r, c)};
}

void explainMask(const Context& ctx, Explanation& e) {
    const int r = ctx.cell.row, c = ctx.cell.col;
    const bool broadcast = ctx.info.rowAxis == Axis::Broadcast;
    e.formula = "mask" + index2(r, c) + " = " + std::string(e.value == 0.0f ? "0 (masked)" : "1 (kept)");
    const int query = broadcast ? 0 : r;
    const std::string reason = maskReason(ctx, query, c);
    e.masked = e.value == 0.0f;
    e.notes.push_back(e.masked ? reason : "Kept: this query may look at key " + quoted(ctx.label(Axis::KeyTokens, c)) + ".");
    if (broadcast) {
        e.notes.push_back("A padding mask has one row (b × 1 × 1 × l): PyTorch broadcasts it to every head and every query.");
    } else {
        e.notes.push_back("This mask has a row per query (b × 1 × l × l): it broadcasts over the heads only.");
    }
}

void explainMaskedScore(const Context& ctx, Explanation& e) {
    const int i = ctx.cell.matrix.head, r = ctx.cell.row, c = ctx.cell.col;
    const MatrixRef scaled = tensorRef(TensorId::ScaledScores, i);
    e.masked = isMasked(ctx, r, c);
    if (e.masked) {
        e.formula = ctx.info.name + index2(r, c) + " = " + std::string(core::shownText(ctx.trace.fill)) + " (was " + formatValue(ctx.at(scaled, r, c)) + ")";
        e.notes.push_back(maskReason(ctx, r, c));
        e.notes.push_back("The fill " + std::string(core::shownText(ctx.trace.fill)) + " makes exp() of this score 0, so softmax gives the key no weight.");
    } else {
        e.formula = ctx.info.name + index2(r, c) + " = S" + subscript(i) + " / √d_k" + index2(r, c) + " (not masked)";
    }
    e.highlights = {cellOf(scaled, r, c)};
    if (!ctx.trace[TensorId::Mask].empty()) {
        const bool broadcast = ctx.trace[TensorId::Mask].rows() == 1;
        e.highlights.push_back(cellOf(tensorRef(TensorId::Mask), broadcast ? 0 : r, c));
    }
}

SoftmaxDetail softmaxRow(const Context& ctx, int head, int r, int c) {
    const MatrixRef masked = tensorRef(TensorId::MaskedScores, head), weights = tensorRef(TensorId::AttentionWeights, head);
    SoftmaxDetail s;
    s.column = c;
    s.max = -INFINITY;
    const render::MatrixSlice ms = ctx.slice(masked), ws = ctx.slice(weights);
    for (int j = 0; j < ctx.trace.keyLength; ++j) {
        s.scores.push_back(valueAt(ms, r, j));
        s.masked.push_back(isMasked(ctx, r, j));
        s.keys.push_back(ctx.label(Axis::KeyTokens, j));
        s.max = std::max(s.max, s.scores.back());
        s.rowSum += valueAt(ws, r, j);
    }
    for (float score : s.scores) s.sumExp += std::exp(static_cast<double>(score) - s.max);
    return s;
}

void explainSoftmax(const Context& ctx, Explanation& e) {
    const int i = ctx.cell.matrix.head, r = ctx.cell.row, c = ctx.cell.col;
    e.softmax = softmaxRow(ctx, i, r, c);
    e.masked = isMasked(ctx, r, c);
    e.formula = ctx.info.name + index2(r, c) + " = exp(s_" + std::to_string(c) + " − max) / Σ_j exp(s_j − max)";
    e.notes.push_back("How much query " + quoted(ctx.label(Axis::QueryTokens, r)) + " attends to key " +
                      quoted(ctx.label(Axis::KeyTokens, c)) + " in head " + std::to_string(i) + "; the row sums to 1.");
    const bool fullyMasked = ctx.trace.fullyMaskedRows.at(static_cast<std::size_t>(ctx.batch) * ctx.trace.queryLength + r) != 0;
    if (std::isnan(e.value)) {
        e.notes.push_back("NaN: every key of this row is masked with −∞, so every exp() is 0 and softmax computes 0 / 0 "
                          "(PyTorch does the same). Use −1e9 or the safe softmax to avoid it.");
    } else if (fullyMasked && ctx.trace.softmax == core::SoftmaxMode::Safe) {
        e.notes.push_back("Every key of this row is masked; the safe softmax writes zeros (PyTorch would give NaN with −∞ "
                          "or uniform weights with −1e9).");
    } else if (e.masked) {
        e.notes.push_back(maskReason(ctx, r, c) + " Its weight is 0.");
    }
    e.highlights = {row(tensorRef(TensorId::MaskedScores, i), r)};
}

void explainConcat(const Context& ctx, Explanation& e) {
    const int width = ctx.trace.dims.dV, i = headOfColumn(ctx.cell.col, width), r = ctx.cell.row;
    const int inner = ctx.cell.col - i * width;
    e.formula = "Z" + index2(r, ctx.cell.col) + " = Z" + subscript(i) + index2(r, inner);
    e.notes.push_back("Concatenation only moves numbers: columns " + std::to_string(i * width) + "–" +
                      std::to_string((i + 1) * width - 1) + " are head " + std::to_string(i) + "'s output Z" + subscript(i) + ".");
    e.highlights = {cellOf(tensorRef(TensorId::ZHeads, i), r, inner)};
}

void explainTrace(const Context& ctx, Explanation& e) {
    switch (ctx.cell.matrix.tensor) {
        case TensorId::X: explainX(ctx, e); break;
        case TensorId::XQuery: explainEmbedding(ctx, e); break;
        case TensorId::WQ: case TensorId::WK: case TensorId::WV: case TensorId::WO: explainWeight(ctx, e); break;
        case TensorId::Q: case TensorId::K: case TensorId::V: explainFused(ctx, e); break;
        case TensorId::QHeads: case TensorId::KHeads: case TensorId::VHeads: explainSplit(ctx, e); break;
        case TensorId::Scores: explainScores(ctx, e); break;
        case TensorId::ScaledScores: explainScaled(ctx, e); break;
        case TensorId::Mask: explainMask(ctx, e); break;
        case TensorId::MaskedScores: explainMaskedScore(ctx, e); break;
        case TensorId::AttentionWeights: explainSoftmax(ctx, e); break;
        case TensorId::ZHeads: explainWeightedSum(ctx, e); break;
        case TensorId::Concat: explainConcat(ctx, e); break;
        case TensorId::Output: explainOutput(ctx, e); break;
        case TensorId::QHeadsBeforeRope: case TensorId::KHeadsBeforeRope:  // no view shows them yet
        case TensorId::Count: break;
    }
}

std::string whereText(const Context& ctx) {
    const std::string rowLabel = ctx.label(ctx.info.rowAxis, ctx.cell.row);
    const std::string colLabel = ctx.label(ctx.info.colAxis, ctx.cell.col);
    const auto part = [](const char* what, int index, Axis axis, const std::string& label) {
        return std::string(what) + " " + std::to_string(index) + (axis == Axis::Features ? "" : " " + quoted(label));
    };
    return ctx.info.name + ": " + part("row", ctx.cell.row, ctx.info.rowAxis, rowLabel) + ", " +
           part("column", ctx.cell.col, ctx.info.colAxis, colLabel);
}

}  // namespace

std::optional<Explanation> explainCell(const core::ModelRun& run, const CellRef& cell, int batch) {
    if (!hasMatrix(run, cell.matrix) || batch < 0 || batch >= run.trace.batch) return std::nullopt;
    const MatrixInfo info = matrixInfo(run, cell.matrix, batch);
    if (cell.row < 0 || cell.col < 0 || cell.row >= info.rows || cell.col >= info.cols) return std::nullopt;
    const Context ctx{run, run.trace, batch, cell, info};
    Explanation e;
    e.cell = cell;
    e.value = ctx.at(cell.matrix, cell.row, cell.col);
    e.where = whereText(ctx);
    switch (cell.matrix.source) {
        case MatrixSource::TokenEmbeddings: explainEmbedding(ctx, e); break;
        case MatrixSource::Positions: explainPosition(ctx, e); break;
        case MatrixSource::Trace: explainTrace(ctx, e); break;
        case MatrixSource::Computed: break;  // a question view's matrix: its tooltip says its value, nothing more
    }
    return e;
}

}  // namespace attnviz::ui
