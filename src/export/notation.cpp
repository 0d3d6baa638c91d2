// notation.cpp — titles, axes and default colormaps of every Trace tensor. See notation.h.
#include "export/notation.h"

#include "core/names.h"
#include "core/transformer/trained_model.h"

#include <cmath>
#include <cstdio>

namespace attnviz::exporting {
namespace {

using core::TensorId;

std::string sub(std::string_view symbol, std::string_view head) { return std::string(symbol) + "_" + std::string(head); }

// The input rows of the query side: X in self-attention, the decoder's X_dec in cross-attention.
std::string queryInput(const core::Trace& trace) { return trace.cross ? "X_dec" : "X"; }

bool usesDefaultScale(const core::Trace& trace) {
    const float standard = 1.0f / std::sqrt(static_cast<float>(trace.dims.dK));
    return std::fabs(trace.dims.scale - standard) <= 1e-6f * standard;
}

// The mask's name in a figure: "both" spelled out as "padding + causal".
std::string maskName(core::MaskKind kind) {
    if (kind != core::MaskKind::Both) return std::string(core::nameOf(kind));
    return std::string(core::nameOf(core::MaskKind::Padding)) + " + " + std::string(core::nameOf(core::MaskKind::Causal));
}

AxisNotation tokens(AxisKind kind, std::string role) { return {kind, std::move(role), 0}; }
AxisNotation features(std::string role, int headBlock = 0) { return {AxisKind::Index, std::move(role), headBlock}; }

}  // namespace

MatrixNotation matrixNotation(TensorId id, const core::Trace& trace) {
    const int dK = trace.dims.dK, dV = trace.dims.dV;
    const AxisNotation queryTokens = tokens(AxisKind::QueryTokens, trace.cross ? "decoder tokens" : "tokens");
    const AxisNotation keyTokens = tokens(AxisKind::KeyTokens, trace.cross ? "encoder tokens" : "tokens");
    switch (id) {
        case TensorId::X: return {keyTokens, features("features")};
        case TensorId::XQuery: return {queryTokens, features("features")};
        case TensorId::WQ: case TensorId::WK:
            return {features("input features"), features("output features, one block of d_k per head", dK)};
        case TensorId::WV: return {features("input features"), features("output features, one block of d_v per head", dV)};
        case TensorId::WO: return {features("one block of d_v per head", dV), features("output features")};
        case TensorId::Q: return {queryTokens, features("features, one block of d_k per head", dK)};
        case TensorId::K: return {keyTokens, features("features, one block of d_k per head", dK)};
        case TensorId::V: return {keyTokens, features("features, one block of d_v per head", dV)};
        case TensorId::QHeads: case TensorId::QHeadsBeforeRope: return {queryTokens, features("this head's d_k features")};
        case TensorId::KHeads: case TensorId::KHeadsBeforeRope: return {keyTokens, features("this head's d_k features")};
        case TensorId::VHeads: return {keyTokens, features("this head's d_v features")};
        case TensorId::Mask: {
            const bool broadcastRow = trace[TensorId::Mask].rows() == 1;
            return {broadcastRow ? features("one row, broadcast to every query") : tokens(AxisKind::QueryTokens, "queries"),
                    tokens(AxisKind::KeyTokens, "keys")};
        }
        case TensorId::Scores: case TensorId::ScaledScores: case TensorId::MaskedScores:
        case TensorId::AttentionWeights:
            return {tokens(AxisKind::QueryTokens, "queries"), tokens(AxisKind::KeyTokens, "keys")};
        case TensorId::ZHeads: return {queryTokens, features("this head's d_v features")};
        case TensorId::Concat: return {queryTokens, features("features, one block of d_v per head", dV)};
        case TensorId::Output: return {queryTokens, features("features")};
        case TensorId::Count: break;
    }
    return {};
}

std::string scaleText(const core::Trace& trace) {
    if (usesDefaultScale(trace)) return "/ sqrt(d_k)";
    char number[32];
    std::snprintf(number, sizeof number, "%.4g", static_cast<double>(trace.dims.scale));
    return std::string("* ") + number;
}

std::string matrixSymbol(TensorId id, std::string_view head) {
    switch (id) {
        case TensorId::QHeads: return sub("Q", head);
        case TensorId::KHeads: return sub("K", head);
        case TensorId::VHeads: return sub("V", head);
        case TensorId::Scores: return sub("S", head);
        case TensorId::ScaledScores: return sub("S", head) + " / sqrt(d_k)";
        case TensorId::MaskedScores: return sub("S", head) + " masked";
        case TensorId::AttentionWeights: return sub("A", head);
        case TensorId::ZHeads: return sub("Z", head);
        default: return std::string(core::tensorInfo(id).symbol);
    }
}

std::string matrixTitle(TensorId id, std::string_view head, const core::Trace& trace, const core::ModelSpec& spec) {
    const std::string i(head);
    const core::TrainedLayer* trained = spec.trained();
    const std::string embedding = trained ? " = " + core::trainedInput(*trained->model, trained->layer)
                                  : spec.seeded()->positional ? " = E[ids] + PE"
                                                    : " = E[ids]";
    switch (id) {
        case TensorId::X: return "X" + embedding;
        case TensorId::XQuery: return "X_dec" + embedding;
        case TensorId::WQ: return "W^Q  (query weights)";
        case TensorId::WK: return "W^K  (key weights)";
        case TensorId::WV: return "W^V  (value weights)";
        case TensorId::WO: return "W^O  (output weights)";
        case TensorId::Q: return "Q = " + queryInput(trace) + " W^Q";
        case TensorId::K: return "K = X W^K";
        case TensorId::V: return "V = X W^V";
        case TensorId::QHeads: return "Q_" + i + " = " + queryInput(trace) + " W_" + i + "^Q";
        case TensorId::KHeads: return "K_" + i + " = X W_" + i + "^K";
        case TensorId::VHeads: return "V_" + i + " = X W_" + i + "^V";
        case TensorId::Scores: return "S_" + i + " = Q_" + i + " K_" + i + "^T";
        case TensorId::ScaledScores: return "S_" + i + " " + scaleText(trace);
        case TensorId::Mask: return "mask (" + std::string(maskName(trace.mask)) + ")";
        case TensorId::MaskedScores:
            if (trace.mask == core::MaskKind::None) return "S_" + i + " " + scaleText(trace) + ", no mask applied";
            return "S_" + i + " " + scaleText(trace) + ", masked with " + std::string(core::shownText(trace.fill));
        case TensorId::AttentionWeights:
            return "A_" + i + " = softmax(Q_" + i + " K_" + i + "^T " + scaleText(trace) + ")";
        case TensorId::ZHeads: return "Z_" + i + " = A_" + i + " V_" + i;
        case TensorId::Concat: return "Z = [Z_0 | ... | Z_{" + std::to_string(trace.dims.heads - 1) + "}]";
        case TensorId::Output: return "O = Z W^O";
        case TensorId::QHeadsBeforeRope: return "Q_" + i + " before RoPE";
        case TensorId::KHeadsBeforeRope: return "K_" + i + " before RoPE";
        case TensorId::Count: break;
    }
    return {};
}

colormap::Colormap defaultColormap(TensorId id) {
    return id == TensorId::AttentionWeights ? colormap::Colormap::Viridis : colormap::Colormap::Coolwarm;
}

colormap::RangeKind rangeKind(TensorId id, colormap::Colormap map) {
    if (id == TensorId::AttentionWeights) return colormap::RangeKind::Probability;
    return colormap::isDiverging(map) ? colormap::RangeKind::Symmetric : colormap::RangeKind::MinMax;
}


}  // namespace attnviz::exporting
