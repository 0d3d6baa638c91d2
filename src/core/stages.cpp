// stages.cpp — the forward pass as a list of teachable steps (the table in docs/design.md), and shape substitution.
#include "core/stages.h"

#include "core/model.h"
#include "core/transformer/trained_model.h"

#include <algorithm>
#include <charconv>

namespace attnviz::core {
namespace {

using enum TensorId;

std::vector<Stage> buildStages() {
    return {
        {StageId::Tokens, "tokens", "Tokens",
         "sentence -> ids",
         "ids = torch.tensor(ids)  # {b} x {l}",
         "ids = np.array(ids)  # {b} x {l}",
         "The sentence is split into words and punctuation; each token becomes one row of every matrix that follows.",
         {}},
        {StageId::Embed, "embed", "Embedding",
         "X = E[ids] + PE",
         "x = self.lut(ids)  # {b} x {l} x {d_model}",
         "x = E[ids] + pe[:{l}]  # {b} x {l} x {d_model}",
         "Each token is looked up in the embedding table (the same word always gets the same row) and its position is added.",
         {X}},
        {StageId::Project, "project", "Project to Q, K, V",
         "Q = X W^Q,  K = X W^K,  V = X W^V",
         "query, key, value = [l(x) for l, x in zip(self.linears, (x, x, x))]  # {b} x {l} x {d_model}",
         "q, k, v = x @ W_q, x @ W_k, x @ W_v  # {b} x {l} x {d_model}",
         "A linear layer multiplies every row of X by the same weight matrix: row t of Q is row t of X times W^Q. "
         "W^Q is h blocks of d_k columns side by side, one per head.",
         {X, WQ, Q, WK, K, WV, V}},
        {StageId::SplitHeads, "split", "Split into heads",
         "Q_i = Q[:, i*d_k:(i+1)*d_k] = X W_i^Q",
         "query = query.view({b}, -1, {h}, {d_k}).transpose(1, 2)  # {b} x {h} x {l} x {d_k}",
         "q = q.reshape({b}, -1, {h}, {d_k}).transpose(0, 2, 1, 3)  # {b} x {h} x {l} x {d_k}",
         "Splitting is only a reshape: head i takes its own d_k columns of Q. Every head saw all of X; "
         "the narrowing to d_k came from its block W_i^Q.",
         {Q, QHeads, KHeads, VHeads}},
        {StageId::Scores, "scores", "Scores",
         "S_i = Q_i K_i^T",
         "scores = torch.matmul(query, key.transpose(-2, -1))  # {b} x {h} x {l_q} x {l_k}",
         "scores = q @ k.transpose(0, 1, 3, 2)  # {b} x {h} x {l_q} x {l_k}",
         "Each query row is compared with each key row by a dot product: a large score means the query matches that key.",
         {QHeads, KHeads, Scores}},
        {StageId::Scale, "scale", "Scale",
         "S_i / sqrt(d_k)",
         "scores = scores / math.sqrt({d_k})  # {b} x {h} x {l_q} x {l_k}",
         "scores = scores / np.sqrt({d_k})  # {b} x {h} x {l_q} x {l_k}",
         "Dot products of d_k numbers grow like sqrt(d_k); dividing keeps the softmax from saturating into one-hot rows.",
         {Scores, ScaledScores}},
        {StageId::Mask, "mask", "Mask",
         "S_i[mask == 0] = fill",
         "scores = scores.masked_fill(mask == 0, {fill})  # mask broadcasts to {b} x {h} x {l_q} x {l_k}",
         "scores = np.where(mask == 0, {fill}, scores)  # mask broadcasts to {b} x {h} x {l_q} x {l_k}",
         "Positions a query must not see (padding, or later tokens in a decoder) get a huge negative score, "
         "so softmax gives them zero weight.",
         {ScaledScores, Mask, MaskedScores}},
        {StageId::Softmax, "softmax", "Softmax",
         "A_i = softmax(S_i / sqrt(d_k))",
         "p_attn = scores.softmax(dim=-1)  # {b} x {h} x {l_q} x {l_k}",
         "e = np.exp(scores - scores.max(-1, keepdims=True)); p_attn = e / e.sum(-1, keepdims=True)",
         "Each row of scores becomes weights that are positive and sum to 1: how much this query attends to every key.",
         {MaskedScores, AttentionWeights}},
        {StageId::WeightedSum, "weighted_sum", "Weighted sum",
         "Z_i = A_i V_i",
         "x = torch.matmul(p_attn, value)  # {b} x {h} x {l_q} x {d_v}",
         "x = p_attn @ v  # {b} x {h} x {l_q} x {d_v}",
         "Each output row of a head is the average of the value rows, weighted by that query's attention.",
         {AttentionWeights, VHeads, ZHeads}},
        {StageId::Concat, "concat", "Concatenate heads",
         "Z = [Z_0 | ... | Z_{h-1}]",
         "x = x.transpose(1, 2).contiguous().view({b}, -1, {h} * {d_v})  # {b} x {l_q} x {h_dv}",
         "x = x.transpose(0, 2, 1, 3).reshape({b}, -1, {h} * {d_v})  # {b} x {l_q} x {h_dv}",
         "The heads' outputs are placed side by side again: a reshape, the inverse of the split.",
         {ZHeads, Concat}},
        {StageId::Output, "output", "Output projection",
         "O = Z W^O",
         "return self.linears[-1](x)  # {b} x {l_q} x {d_model}",
         "out = x @ W_o  # {b} x {l_q} x {d_model}",
         "W^O mixes the heads' results into one d_model-wide row per token: the output has the same shape as X.",
         {Concat, WO, Output, X}},
    };
}

// HF transformers' rotate-half form (modeling_llama.py apply_rotary_pos_emb): the pair of coordinate j is
// (j, j + d_k/2), the paper's (2j, 2j+1) with the columns reordered; cos and sin hold m·θ_j for each position m.
Stage buildRopeStep() {
    return {StageId::SplitHeads, "rope", "RoPE",
            "q'_m = R(θ, m) q_m,   k'_n = R(θ, n) k_n,   θ_j = rope_theta^(−2j/d_k)",
            "q_embed = (q * cos) + (rotate_half(q) * sin)  # {b} x {h} x {l} x {d_k}; k_embed the same with k",
            "half = {d_k} // 2; q = q * cos + np.concatenate([-q[..., half:], q[..., :half]], -1) * sin  # {b} x {h} x {l} x {d_k}",
            "RoPE turns pair j of q_m (coordinates 2j, 2j+1; HF's rotate_half pairs j with j + d_k/2) by the angle m·θ_j, "
            "and of k_n by n·θ_j. The two turns leave (m − n)·θ between them: a score q'_m · k'_n depends on the offset "
            "m − n, not on where the two tokens stand.",
            {QHeadsBeforeRope, QHeads, KHeadsBeforeRope, KHeads}};
}

void replaceAll(std::string& text, std::string_view from, std::string_view to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
}

}  // namespace

const std::vector<Stage>& stages() {
    static const std::vector<Stage> list = buildStages();
    return list;
}

const Stage& stage(StageId id) { return stages()[static_cast<std::size_t>(id)]; }

const Stage& ropeStep() {
    static const Stage step = buildRopeStep();
    return step;
}

std::optional<StageId> findStage(std::string_view numberOrKey) {
    int number = -1;
    const auto [end, error] = std::from_chars(numberOrKey.data(), numberOrKey.data() + numberOrKey.size(), number);
    if (error == std::errc{} && end == numberOrKey.data() + numberOrKey.size()) {
        if (number >= 0 && number < kStageCount) return static_cast<StageId>(number);
        return std::nullopt;
    }
    for (const Stage& s : stages()) {
        if (s.key == numberOrKey) return s.id;
    }
    return std::nullopt;
}

std::optional<TensorId> perHeadTensor(StageId id) {
    switch (id) {
        case StageId::SplitHeads: return QHeads;
        case StageId::Scores: return Scores;
        case StageId::Scale: return ScaledScores;
        case StageId::Mask: return MaskedScores;
        case StageId::Softmax: return AttentionWeights;
        case StageId::WeightedSum: case StageId::Concat: return ZHeads;
        default: return std::nullopt;
    }
}

std::string substituteShapes(std::string_view text, const Trace& trace) {
    const Dimensions& d = trace.dims;
    std::string result(text);
    replaceAll(result, "{b}", std::to_string(trace.batch));
    replaceAll(result, "{h_dv}", std::to_string(d.heads * d.dV));
    replaceAll(result, "{h}", std::to_string(d.heads));
    replaceAll(result, "{l_q}", std::to_string(trace.queryLength));
    replaceAll(result, "{l_k}", std::to_string(trace.keyLength));
    replaceAll(result, "{l}", std::to_string(trace.queryLength));
    replaceAll(result, "{d_model}", std::to_string(d.dModel));
    replaceAll(result, "{d_k}", std::to_string(d.dK));
    replaceAll(result, "{d_v}", std::to_string(d.dV));
    return result;
}

std::string codeLine(const Stage& stage, const Trace& trace, bool numpy) {
    std::string_view line = numpy ? stage.numpy : stage.pytorch;
    if (trace.cross) {
        switch (stage.id) {
            case StageId::Tokens:
                line = numpy ? "ids_dec, ids_enc = np.array(ids_dec), np.array(ids_enc)  # {b} x {l_q}, {b} x {l_k}"
                             : "ids_dec, ids_enc = torch.tensor(ids_dec), torch.tensor(ids_enc)  # {b} x {l_q}, {b} x {l_k}";
                break;
            case StageId::Embed:
                line = numpy ? "x_dec, x_enc = E[ids_dec] + pe[:{l_q}], E[ids_enc] + pe[:{l_k}]  # {b} x {l_q} x {d_model}, {b} x {l_k} x {d_model}"
                             : "x_dec, x_enc = self.embed(ids_dec), self.embed(ids_enc)  # {b} x {l_q} x {d_model}, {b} x {l_k} x {d_model}";
                break;
            case StageId::Project:
                line = numpy ? "q, k, v = x_dec @ W_q, x_enc @ W_k, x_enc @ W_v  # {b} x {l_q} x {d_model}, {b} x {l_k} x {d_model} (twice)"
                             : "query, key, value = [l(x) for l, x in zip(self.linears, (x_dec, x_enc, x_enc))]  # {b} x {l_q} / {l_k} x {d_model}";
                break;
            default: break;
        }
    }
    std::string code = substituteShapes(line, trace);
    const bool infinity = trace.fill == MaskFill::MinusInfinity;
    replaceAll(code, "{fill}", infinity ? (numpy ? "-np.inf" : "float('-inf')") : "-1e9");  // the fill this run used
    return code;
}

int followedQueryRow(const ModelRun& run, int batch, int head) {
    const int last = run.trace.queryLengths.at(static_cast<std::size_t>(batch)) - 1;
    const TrainedLayer* trained = run.spec.trained();
    const NamedHead* named = trained ? trained->model->namedHead(trained->layer, head) : nullptr;
    if (named == nullptr || named->name.find("coreference") == std::string::npos || run.resplitHeads) return last;
    const auto& tokens = run.queryTokens.at(static_cast<std::size_t>(batch));
    const auto it = std::find(tokens.begin(), tokens.end(), "it");
    return it != tokens.end() ? static_cast<int>(it - tokens.begin()) : last;
}

std::string symbolicShape(TensorId id, const Trace& trace) {
    const std::string lq = trace.cross ? "l_q" : "l";
    const std::string lk = trace.cross ? "l_k" : "l";
    // K and V have h_kv heads when the layer groups its queries (grouped-query attention).
    const std::string kv = trace.dims.kvHeads > 0 && trace.dims.kvHeads != trace.dims.heads ? "h_kv" : "h";
    switch (id) {
        case X: return "b × " + lk + " × d_model";
        case XQuery: return "b × l_q × d_model";
        case WQ: return "d_model × h·d_k";
        case WK: return "d_model × " + kv + "·d_k";
        case WV: return "d_model × " + kv + "·d_v";
        case WO: return "h·d_v × d_model";
        case Q: return "b × " + lq + " × h·d_k";
        case K: return "b × " + lk + " × " + kv + "·d_k";
        case V: return "b × " + lk + " × " + kv + "·d_v";
        case QHeads: case QHeadsBeforeRope: return "b × h × " + lq + " × d_k";
        case KHeads: case KHeadsBeforeRope: return "b × " + kv + " × " + lk + " × d_k";
        case VHeads: return "b × " + kv + " × " + lk + " × d_v";
        case Scores: case ScaledScores: case MaskedScores: case AttentionWeights: return "b × h × " + lq + " × " + lk;
        case Mask:
            return trace[Mask].dim(2) == 1 ? "b × 1 × 1 × " + lk : "b × 1 × " + lq + " × " + lk;
        case ZHeads: return "b × h × " + lq + " × d_v";
        case Concat: return "b × " + lq + " × h·d_v";
        case Output: return "b × " + lq + " × d_model";
        case Count: break;
    }
    return {};
}

}  // namespace attnviz::core
