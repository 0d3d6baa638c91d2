// scene.cpp — each stage's maps, operators and formula, from the core's tensor table. See scene.h.
#include "scene/scene.h"

#include "core/display_text.h"
#include "core/tokenizer.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace attnviz::scene {
namespace {

using core::StageId;
using core::TensorId;

Term op(std::string glyph) { return Operator{std::move(glyph)}; }

Map withColorbar(Map map, Colorbar side) {
    map.colorbar = side;
    return map;
}

Figure productFigure(Map left, std::vector<Product::Pair> pairs, std::string formula, std::string hint, std::vector<Note> notes = {}) {
    return {Product{std::move(left), std::move(pairs)}, std::move(formula), std::move(hint), std::move(notes)};
}

Figure lineFigure(std::vector<Term> terms, std::string formula, std::string hint = {}, std::vector<Note> notes = {}) {
    return {Line{std::move(terms)}, std::move(formula), std::move(hint), std::move(notes)};
}

bool groupedQuery(const core::Dimensions& dims) { return dims.kvHeads > 0 && dims.kvHeads < dims.heads; }
int headsPerKeyValueHead(const core::Dimensions& dims) { return groupedQuery(dims) ? dims.heads / dims.kvHeads : 1; }

// Q and W^Q's column blocks in the colours of the K/V heads they share (each head its own without sharing).
Map inKeyValueColours(Map map, const core::Dimensions& dims) {
    map.headsPerColour = headsPerKeyValueHead(dims);
    return map;
}

// One head's tile of a per-head tensor: framed in a head's colour, without column numbers (the fused map beside
// it has them). Its values are the fused tensor's, so their range is too: one colorbar serves both.
Map headTile(const core::Trace& trace, TensorId tensor, int head, int colour) {
    Map tile = traceMap(trace, tensor, head);
    tile.frame = colour;
    tile.colLabels = false;
    tile.rowLabels = false;
    tile.colorbar = Colorbar::None;
    return tile;
}

// "whole → part₀ part₁ …": a fused map and its first `count` heads' tiles, titled `symbol`ᵢ. Query heads are framed
// in the colour of the K/V head they share; K and V have their own h_kv heads.
Line splitLine(const core::Trace& trace, TensorId whole, TensorId parts, int count, const std::string& symbol) {
    const core::Dimensions& dims = trace.dims;
    const bool keyValue = parts != TensorId::QHeads && parts != TensorId::QHeadsBeforeRope;
    Map fused = traceMap(trace, whole);
    fused.colorbar = Colorbar::None;  // the tiles' colorbar, at the right end, serves both
    if (!keyValue) fused = inKeyValueColours(fused, dims);
    Line line{{fused, op("→")}};
    const int shown = std::min(count, kMaxTiles);
    for (int i = 0; i < shown; ++i) {
        const int head = keyValue ? i * headsPerKeyValueHead(dims) : i;  // the trace names K_i and V_i by query head
        Map tile = headTile(trace, parts, head, keyValue ? i : core::keyValueHead(dims, i));
        tile.title = symbol + subscript(i);
        tile.rowLabels = i == 0;
        if (i == shown - 1) tile.colorbar = Colorbar::Right;
        line.terms.emplace_back(std::move(tile));
    }
    return line;
}

// Split lines one after another in one line; the token labels stay on the first line's maps, the rows line up.
std::vector<Term> joined(const std::vector<Line>& lines) {
    std::vector<Term> terms;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        for (Term term : lines[i].terms) {
            if (Map* map = std::get_if<Map>(&term); map != nullptr && i > 0) map->rowLabels = false;
            terms.push_back(std::move(term));
        }
    }
    return terms;
}

std::string headCount(int shown, int count) {
    return shown < count ? " (the first " + std::to_string(shown) + " of " + std::to_string(count) + " heads)" : "";
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
    // A wide d_model leaves three maps side by side too thin: X alone.
    scene.figures.push_back(lineFigure({traceMap(trace, TensorId::X)}, !blocks ? "X = E[ids] + P" : "X, after the blocks before this layer",
                                       "One row per token; d_model is too wide to show E[ids] and P beside it."));
    return scene;
}

// A map beside one that labels the same rows.
Map unlabelled(Map map) {
    map.rowLabels = false;
    return map;
}

// Grouped-query attention in words: how much narrower W^K and W^V are.
std::string sharingHint(const core::Dimensions& dims) {
    if (!groupedQuery(dims)) return "";
    const int group = headsPerKeyValueHead(dims);
    return " K and V have h_kv = " + core::counted(dims.kvHeads, "head", "heads") + ", each shared by " +
           std::to_string(group) + " query heads: W^K and W^V are " + std::to_string(group) + "× narrower than W^Q.";
}

// "X × W^Q W^K W^V = Q K V": the three weights as compact tiles (their shapes and head blocks; no colorbar), the
// three results beside them on X's rows (X's token labels serve them), colorbars under the maps so the line keeps
// its width for the maps.
std::vector<Term> togetherInOneLine(const core::Trace& trace) {
    const core::Dimensions& dims = trace.dims;
    const auto weight = [&](TensorId id, bool first) {
        Map w = withColorbar(traceMap(trace, id), Colorbar::None);  // a scale under a tile this narrow would not read
        w.compactWeight = true;
        w.rowLabels = first;
        return id == TensorId::WQ ? inKeyValueColours(w, dims) : w;
    };
    const auto result = [&](TensorId id) {
        // K and V of grouped-query attention are a few columns wide: their scales at the side, where they have room.
        const bool narrow = id != TensorId::Q && groupedQuery(dims);
        Map r = unlabelled(withColorbar(traceMap(trace, id), narrow ? Colorbar::Right : Colorbar::Below));
        return id == TensorId::Q ? inKeyValueColours(r, dims) : r;
    };
    return {withColorbar(traceMap(trace, TensorId::X), Colorbar::Below), op("×"), weight(TensorId::WQ, true), weight(TensorId::WK, false),
            weight(TensorId::WV, false), op("="), result(TensorId::Q), result(TensorId::K), result(TensorId::V)};
}

Scene projectScene(const core::Trace& trace, const SceneChoices& choices) {
    const core::Dimensions& dims = trace.dims;
    const TensorId input = trace.cross ? TensorId::XQuery : TensorId::X;
    Scene scene{StageId::Project, {}, std::nullopt};
    const Map x = withColorbar(traceMap(trace, TensorId::X), Colorbar::Below);
    const auto query = [&](TensorId id) { return inKeyValueColours(traceMap(trace, id), dims); };
    const std::vector<Note> notes = sharingNotes(dims);
    if (!choices.projection && !trace.cross) {
        scene.figures.push_back(productFigure(
            x,
            {{query(TensorId::WQ), query(TensorId::Q)},
             {traceMap(trace, TensorId::WK), traceMap(trace, TensorId::K)},
             {traceMap(trace, TensorId::WV), traceMap(trace, TensorId::V)}},
            "Q, K, V = X W^Q, X W^K, X W^V",
            "One X, three weight matrices: every row of X becomes a query, a key and a value." + sharingHint(dims), notes));
        // When the three products do not fit (a projector's screen): the fused projection in one line,
        // X × [W^Q W^K W^V] = [Q K V], the weights small (their shapes and head blocks still read), X once.
        scene.figures.push_back(lineFigure(togetherInOneLine(trace), "Q, K, V = X W^Q, X W^K, X W^V",
                                           "X [W^Q W^K W^V] = [Q K V]: one X, three weight matrices side by side; every row of X "
                                           "becomes a query, a key and a value." + sharingHint(dims), notes));
        // Grouped-query attention's point is K and V's fewer heads: when the products do not fit, the three results.
        if (groupedQuery(dims)) scene.figures.push_back(lineFigure({query(TensorId::Q), unlabelled(traceMap(trace, TensorId::K)),
                                                                    unlabelled(traceMap(trace, TensorId::V))},
                                                                   "Q, K, V = X W^Q, X W^K, X W^V", sharingHint(dims), notes));
    }
    const TensorId out = choices.projection.value_or(TensorId::Q);
    const TensorId weights = out == TensorId::Q ? TensorId::WQ : out == TensorId::K ? TensorId::WK : TensorId::WV;
    const std::string name(core::tensorInfo(out).symbol), w(core::tensorInfo(weights).symbol);
    const std::string narrow = choices.projection ? "" : "Q alone (K and V are the same product). ";
    const bool isQuery = out == TensorId::Q;
    scene.figures.push_back(productFigure(withColorbar(traceMap(trace, isQuery ? input : TensorId::X), Colorbar::Below),
                                          {{isQuery ? query(weights) : traceMap(trace, weights), isQuery ? query(out) : traceMap(trace, out)}},
                                          name + " = X " + w,
                                          narrow + "The same " + w + " multiplies every row of X; its coloured column blocks are the heads' W_i." +
                                              sharingHint(dims),
                                          notes));
    return scene;
}

// Stage 3: Q, K and V cut into heads, each fused map beside its heads' tiles; when the three lines cost token
// labels, Q and K (K and V share a shape), under grouped-query attention the three in one line, then Q alone.
Scene splitScene(const core::Trace& trace) {
    const core::Dimensions& dims = trace.dims;
    const bool rope = hasRopeStep(trace);  // the split comes before the rotation: the heads as cut from Q and K
    const TensorId queryHeads = rope ? TensorId::QHeadsBeforeRope : TensorId::QHeads;
    const TensorId keyHeads = rope ? TensorId::KHeadsBeforeRope : TensorId::KHeads;
    const int kv = dims.kvHeads > 0 ? dims.kvHeads : dims.heads;
    const Line q = splitLine(trace, TensorId::Q, queryHeads, dims.heads, "Q");
    const Line k = splitLine(trace, TensorId::K, keyHeads, kv, "K");
    const Line v = splitLine(trace, TensorId::V, TensorId::VHeads, kv, "V");
    const std::string formula = "Q_i = Q[:, i·d_k : (i+1)·d_k]";
    const std::string hint = ".view(b, l, h, d_k).transpose(1, 2): head i takes columns i·d_k … (i+1)·d_k − 1" + headCount(std::min(dims.heads, kMaxTiles), dims.heads) +
                             "." + sharingHint(dims);
    std::vector<Note> notes = sharingNotes(dims);
    Scene scene{StageId::SplitHeads, {}, std::nullopt};
    scene.figures.push_back({Stack{{q, k, v}}, formula, hint, notes});
    scene.figures.push_back({Stack{{q, k}}, formula, hint, notes});
    // Grouped-query attention's point is K and V's fewer heads: on a short screen they join Q's line.
    if (groupedQuery(dims) && !trace.cross) scene.figures.push_back({Line{joined({q, k, v})}, formula, hint, notes});
    notes.push_back({groupedQuery(dims) ? "K and V split the same way, into their " + std::to_string(kv) + " heads (shown when there is room for them)."
                                        : "K and V split into K_i and V_i the same way (shown when there is room for them).", std::nullopt});
    scene.figures.push_back({q, formula, hint, notes});
    return scene;
}

// Stage 3's RoPE step: the focused head's q rows and its K/V head's k rows before and after the rotation.
Scene ropeScene(const core::Trace& trace, int head) {
    const int kv = core::keyValueHead(trace.dims, head);
    const auto named = [&](TensorId tensor, std::string title) {
        Map map = traceMap(trace, tensor, head);
        map.title = std::move(title);
        map.colorbar = Colorbar::None;
        return map;
    };
    const std::string q = "Q" + subscript(head), k = "K" + subscript(kv);
    Map qAfter = named(TensorId::QHeads, q + " after"), kAfter = named(TensorId::KHeads, k + " after");
    qAfter.rangeOf = TensorId::QHeadsBeforeRope;  // one colour per value: only the turning changes the colours
    kAfter.rangeOf = TensorId::KHeadsBeforeRope;
    qAfter.colorbar = kAfter.colorbar = Colorbar::Right;  // q's colours and k's have their own scales
    Map qBefore = named(TensorId::QHeadsBeforeRope, q + " before"), kBefore = named(TensorId::KHeadsBeforeRope, k + " before");
    qAfter.rowLabels = kBefore.rowLabels = kAfter.rowLabels = false;
    const std::vector<Note> caption{{"After RoPE a score q_m · k_n depends on the offset m − n between the two tokens, not on where they stand.", std::nullopt}};
    const std::string formula = "q_m ← R(m·θ) q_m,   k_n ← R(n·θ) k_n";
    const std::string hint = "RoPE turns the (x_j, x_{j+d_k/2}) pairs of each q and k row by the angle p·θ_j at position p; X is left alone.";
    Scene scene{StageId::SplitHeads, {}, Side{0.4f, 190.0f, "Head " + std::to_string(head) + "'s q, pair by pair: grey before RoPE, coloured after, each token at its own position"}};
    scene.figures.push_back(lineFigure({qBefore, op("RoPE →"), qAfter, kBefore, op("RoPE →"), kAfter}, formula, hint, caption));
    scene.figures.push_back(lineFigure({qBefore, op("RoPE →"), qAfter}, formula, hint, caption));
    return scene;
}

// K_i or V_i of query head `head`, named by the K/V head it reads (under GQA "K₁" for query head 5).
Map keyValueOf(const core::Trace& trace, TensorId tensor, int head, bool transposed = false) {
    Map map = traceMap(trace, tensor, head, transposed);
    map.title = std::string(tensor == TensorId::VHeads ? "V" : "K") + subscript(core::keyValueHead(trace.dims, head));
    return map;
}

// " Query head 5 shares K/V head 1." under grouped-query attention, else nothing.
std::string sharedHeadNote(const core::Dimensions& dims, int head) {
    if (!groupedQuery(dims)) return "";
    return " Query head " + std::to_string(head) + " shares K/V head " + std::to_string(core::keyValueHead(dims, head)) + ".";
}

Scene scoresScene(const core::Trace& trace, int head) {
    const std::string i = subscript(head), kv = subscript(core::keyValueHead(trace.dims, head));
    Scene scene{StageId::Scores, {}, std::nullopt};
    scene.figures.push_back(productFigure(withColorbar(traceMap(trace, TensorId::QHeads, head), Colorbar::Below),
                                          {{keyValueOf(trace, TensorId::KHeads, head, true), traceMap(trace, TensorId::Scores, head)}},
                                          "S" + i + " = Q" + i + " K" + kv + "ᵀ",
                                          "Each cell compares one query row with one key row (a dot product of d_k numbers)." +
                                              sharedHeadNote(trace.dims, head)));
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
    const std::string i = subscript(head), kv = subscript(core::keyValueHead(trace.dims, head));
    Scene scene{StageId::WeightedSum, {}, Side{0.26f, 170.0f, "Every head's Z_i, side by side:"}};
    scene.figures.push_back(productFigure(withColorbar(traceMap(trace, TensorId::AttentionWeights, head), Colorbar::Below),
                                          {{keyValueOf(trace, TensorId::VHeads, head), traceMap(trace, TensorId::ZHeads, head)}},
                                          "Z" + i + " = A" + i + " V" + kv,
                                          "Row r of Z" + i + " is the average of V" + kv + "'s rows, weighted by row r of A" + i + "." +
                                              sharedHeadNote(trace.dims, head)));
    return scene;
}

// Stage 9: the heads' Z_i side by side → Z, head i's columns in block i.
Scene concatScene(const core::Trace& trace) {
    const int heads = trace.dims.heads, shown = std::min(heads, kMaxTiles);
    Line line;
    for (int i = 0; i < shown; ++i) {
        Map tile = headTile(trace, TensorId::ZHeads, i, i);
        tile.rowLabels = i == 0;
        line.terms.emplace_back(std::move(tile));
    }
    line.terms.push_back(op("→"));
    line.terms.emplace_back(traceMap(trace, TensorId::Concat));
    std::string parts = "Z" + subscript(0) + " … Z" + subscript(heads - 1);
    Scene scene{StageId::Concat, {}, std::nullopt};
    scene.figures.push_back({line, "Z = [" + parts + "]",
                             ".transpose(1, 2).contiguous().view(b, l, h·d_v): head i's columns become block i of Z" + headCount(shown, heads) + ".",
                             {}});
    return scene;
}

Scene outputScene(const core::Trace& trace) {
    Scene scene{StageId::Output, {}, Side{0.36f, 320.0f, "The output O next to the input X: the same shape, l × d_model."}};
    scene.figures.push_back(productFigure(withColorbar(traceMap(trace, TensorId::Concat), Colorbar::Below),
                                          {{traceMap(trace, TensorId::WO), traceMap(trace, TensorId::Output)}}, "O = Z W^O",
                                          "W^O's row blocks (head colours) mix the heads' outputs into each output feature."));
    return scene;
}


// [SECTION] Stage 0: the tokens

// [CLS], [SEP], <s>, </s>, <|begin_of_text|>: a model's own marks, not pieces of the text.
bool special(std::string_view token) {
    const auto bracketed = [&](std::string_view open, std::string_view close) {
        return token.size() > open.size() + close.size() && token.substr(0, open.size()) == open &&
               token.substr(token.size() - close.size()) == close;
    };
    const bool upperInBrackets = bracketed("[", "]") && std::all_of(token.begin() + 1, token.end() - 1, [](char c) {
        return std::isupper(static_cast<unsigned char>(c)) != 0 || c == '_';
    });
    return token == core::kClsToken || upperInBrackets || bracketed("<|", "|>") || token == "<s>" || token == "</s>";
}

// One sentence's tokens, padded to `length` (the batch's longest).
TokenRow tokenRow(std::string heading, const std::vector<std::string>& tokens, const std::vector<int>* ids, int length) {
    TokenRow row{std::move(heading), {}};
    for (int i = 0; i < length; ++i) {
        const auto at = static_cast<std::size_t>(i);
        if (at >= tokens.size()) {
            row.tokens.push_back({"<pad>", std::nullopt, i, Token::Kind::Padding});
            continue;
        }
        std::optional<int> id;
        if (ids != nullptr && at < ids->size()) id = (*ids)[at];
        row.tokens.push_back({core::labelText(tokens[at]), id, i, special(tokens[at]) ? Token::Kind::Special : Token::Kind::Piece});
    }
    return row;
}

std::string quoted(const std::string& sentence) {
    const std::size_t most = core::limits::kMaxQuotedSentenceCharacters;
    return "\u201C" + core::clipped(core::displayText(core::clipped(sentence, most)), most) + "\u201D";
}

// What the marks inside the pieces mean, for the marks these tokens carry: a trained tokenizer's pieces read as
// the tokenizer cut them, a space and a word's continuation included.
std::vector<Note> pieceNotes(const Tokens& tokens) {
    bool space = false, continuation = false, bytes = false;
    for (const TokenRow& row : tokens.sentences) {
        for (const Token& token : row.tokens) {
            const std::string_view t = token.text;
            space = space || t.rfind("\u2423", 0) == 0;
            continuation = continuation || (t.size() > 2 && t.rfind("##", 0) == 0);
            bytes = bytes || (t.size() >= 4 && t[0] == '<' && std::isxdigit(static_cast<unsigned char>(t[1])) != 0 &&
                              std::isxdigit(static_cast<unsigned char>(t[2])) != 0 && (t[3] == ' ' || t[3] == '>'));
        }
    }
    std::vector<Note> notes;
    if (space) notes.push_back({"\u2423 = the token begins with a space", std::nullopt});
    if (continuation) notes.push_back({"## = the token continues the word before it", std::nullopt});
    if (bytes) notes.push_back({"<E2 80> = bytes of one character, cut across tokens", std::nullopt});
    return notes;
}

// Stage 0: every sentence's tokens (or the one chosen); under cross-attention the decoder's (queries) and the
// encoder's (keys and values), each under its heading.
Scene tokensScene(const core::ModelRun& run, const SceneChoices& choices) {
    const core::Trace& t = run.trace;
    // The row of E each token takes: a trained model's vocabulary id, or for the seeded layer the id in the
    // vocabulary this batch makes (the same word, the same id: "the" is 0 wherever it stands).
    std::vector<std::vector<std::string>> all = run.tokens;
    if (t.cross) all.insert(all.end(), run.queryTokens.begin(), run.queryTokens.end());
    const std::vector<std::vector<int>> ids = run.tokenIds.empty() ? core::batchVocabularyIds(all) : run.tokenIds;
    const auto idsOf = [&](std::size_t list) { return list < ids.size() ? &ids[list] : nullptr; };
    Tokens tokens;
    for (int b = 0; b < t.batch; ++b) {
        if (choices.sentence && *choices.sentence != b) continue;
        const auto index = static_cast<std::size_t>(b);
        const std::string sentence = t.batch > 1 ? "sentence " + std::to_string(b) + ": " : "";
        if (!t.cross) {
            tokens.sentences.push_back(tokenRow(sentence + quoted(run.spec.sentences.at(index)), run.tokens.at(index), idsOf(index), t.keyLength));
            continue;
        }
        const core::SeededLayer* seeded = run.spec.seeded();  // cross-attention is the seeded layer's
        const std::string decoder = seeded != nullptr && index < seeded->decoderSentences.size() ? " " + quoted(seeded->decoderSentences[index]) : "";
        tokens.sentences.push_back(tokenRow(sentence + "decoder, the queries (l_q = " + std::to_string(t.queryLength) + "):" + decoder,
                                            run.queryTokens.at(index), idsOf(index + static_cast<std::size_t>(t.batch)), t.queryLength));
        tokens.sentences.push_back(tokenRow(sentence + "encoder, the keys and values (l_k = " + std::to_string(t.keyLength) + "): " +
                                                quoted(run.spec.sentences.at(index)),
                                            run.tokens.at(index), idsOf(index), t.keyLength));
    }
    const std::string vocabulary = run.tokenIds.empty() ? "this batch's own vocabulary, in order of first appearance" : "the model's vocabulary";
    std::string hint = "l = " + std::to_string(t.keyLength) + " tokens, b = " + std::to_string(t.batch) + (t.batch == 1 ? " sentence" : " sentences") +
                       ". From here on, every matrix has one row per token. id: the token's row of the embedding table E (" + vocabulary +
                       "); pos: its place in the sentence.";
    if (t.cross) hint = "Queries come from the decoder's tokens, keys and values from the encoder's. " + hint;
    std::vector<Note> notes = pieceNotes(tokens);
    Scene scene{StageId::Tokens, {}, std::nullopt};
    scene.figures.push_back({std::move(tokens), "", std::move(hint), std::move(notes)});
    return scene;
}

}  // namespace

bool Map::isWeight() const {
    return source == Source::Trace &&
           (tensor == TensorId::WQ || tensor == TensorId::WK || tensor == TensorId::WV || tensor == TensorId::WO);
}

bool hasRopeStep(const core::Trace& trace) { return trace.has(TensorId::QHeadsBeforeRope) && trace.has(TensorId::KHeadsBeforeRope); }

std::vector<Note> sharingNotes(const core::Dimensions& dims) {
    std::vector<Note> notes;
    if (!groupedQuery(dims)) return notes;
    const int group = headsPerKeyValueHead(dims);
    for (int kv = 0; kv < dims.kvHeads; ++kv) {
        const int first = kv * group, last = first + group - 1;
        notes.push_back({"query heads " + std::to_string(first) + "–" + std::to_string(last) + " share K/V head " + std::to_string(kv), kv});
    }
    return notes;
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

namespace {

// The focused query row outlined in every map whose rows are the queries (Q_i, S_i, A_i, Z_i).
void focusQueryRow(Scene& scene, int row) {
    const auto focus = [row](Map& map) {
        if (map.rowAxis == core::Axis::QueryTokens && row < map.rows) map.focusRow = row;
    };
    const auto focusLine = [&](Line& line) {
        for (Term& term : line.terms) {
            if (Map* map = std::get_if<Map>(&term)) focus(*map);
        }
    };
    for (Figure& figure : scene.figures) {
        if (Line* line = std::get_if<Line>(&figure.composition)) focusLine(*line);
        if (Stack* stack = std::get_if<Stack>(&figure.composition)) {
            for (Line& line : stack->lines) focusLine(line);
        }
        if (Product* product = std::get_if<Product>(&figure.composition)) {
            focus(product->left);
            for (Product::Pair& pair : product->pairs) focus(pair.result);
        }
    }
}

std::optional<Scene> sceneOfStage(StageId stage, const core::Trace& trace, const SceneChoices& choices) {
    const int head = choices.head;
    switch (stage) {
        case StageId::Embed: return embedScene(trace, choices);
        case StageId::Project: return projectScene(trace, choices);
        case StageId::Scores: return scoresScene(trace, head);
        case StageId::Scale: return scaleScene(trace, head);
        case StageId::Mask: return maskScene(trace, head);
        case StageId::Softmax: return softmaxScene(trace, head);
        case StageId::WeightedSum: return weightedSumScene(trace, head);
        case StageId::SplitHeads: return choices.ropeStep && hasRopeStep(trace) ? ropeScene(trace, head) : splitScene(trace);
        case StageId::Concat: return concatScene(trace);
        case StageId::Output: return outputScene(trace);
        case StageId::Tokens: case StageId::Count: break;
    }
    return std::nullopt;
}

}  // namespace

Scene stageScene(StageId stage, const core::ModelRun& run, const SceneChoices& choices) {
    if (stage == StageId::Tokens) return tokensScene(run, choices);
    return *stageScene(stage, run.trace, choices);  // every other stage has maps
}

std::optional<Scene> stageScene(StageId stage, const core::Trace& trace, const SceneChoices& choices) {
    std::optional<Scene> scene = sceneOfStage(stage, trace, choices);
    const bool followsQuery = stage >= StageId::Scores && stage <= StageId::WeightedSum;
    if (scene && choices.focusRow && followsQuery) focusQueryRow(*scene, *choices.focusRow);
    return scene;
}

}  // namespace attnviz::scene
