// prediction.h — what a trained model predicts from its last hidden states: a decoder's next token (GPT-2 and the
// Llama family, from the LM head), a BERT folder's fill for a [MASK] (BertForMaskedLM's head), as the top k tokens
// with their probabilities at a temperature.
//
// Shapes: a final hidden row is 1 × d_model (after the final norm for decoders, the last layer's output for BERT),
// logits are 1 × vocab. What this file does not do: tokenize, read files, or grow a sentence (kv_cache.h does).
#pragma once

#include "core/transformer/transformer.h"

#include <string>
#include <vector>

namespace attnviz::core {

enum class PredictionKind {
    None,        // a BERT folder without cls.predictions.*: nothing to predict with
    NextToken,   // decoders: the token after each position
    MaskedWord,  // BERT with an MLM head: the word a [MASK] stands for
};

PredictionKind predictionKind(const TransformerModel& model);

// The masked-word head's logits for one row of BERT's last layer: LayerNorm(gelu(h · W + b)) · Eᵀ + bias
// (modeling_bert.py BertPredictionHeadTransform + BertLMPredictionHead). Throws InputError without a head.
RowVector maskedWordLogits(const TransformerModel& model, const RowVector& lastHidden);

// The prediction head's logits for every row of `hidden` (rows × d_model → rows × vocab): the LM head (decoders) or
// the masked-word head (BERT), as one matrix product, which reads the vocabulary table once for all rows (the logit
// lens: GPT-2's 154 MB table once per layer instead of once per token). Throws InputError for a model that predicts
// nothing.
Matrix predictionHeadLogits(const TransformerModel& model, const Matrix& hidden);

// The model's logits at `position` of `sentence` in `pass`: the next token's (decoders) or the word there
// (BERT with an MLM head). Throws InputError for a model that predicts nothing or a position outside the sentence.
RowVector predictionLogits(const TransformerModel& model, const TransformerPass& pass, int sentence, int position);

struct TokenChoice {
    int id = 0;
    float probability = 0.0f;  // softmax(logits / T) at this token
    float logit = 0.0f;
};

inline constexpr float kMinTemperature = 0.05f;
inline constexpr float kMaxTemperature = 5.0f;

// The k most probable tokens under softmax(logits / temperature), most probable first (ties: the lower id first).
// The softmax runs in double over the whole vocabulary. Throws InputError for a temperature outside
// [kMinTemperature, kMaxTemperature] or k < 1.
std::vector<TokenChoice> topTokens(const RowVector& logits, int k, float temperature);

// The logits at every position of every sentence of `pass`: b × l × vocab, rows past a sentence's length (`lengths`,
// one per sentence) zero. Throws InputError for a model that predicts nothing.
Tensor allPredictionLogits(const TransformerModel& model, const TransformerPass& pass, const std::vector<int>& lengths);

// The text a vocabulary piece stands for, to append to a sentence: byte-level BPE's alphabet back to bytes ("Ġcat" →
// " cat", "Ċ" → "\n"), SentencePiece's "▁" as a space and "<0x0A>" as its byte, WordPiece's "##ing" → "ing". A piece
// that is part of a character (a byte of a split UTF-8 sequence) gives "", which no sentence can end in.
std::string pieceText(const std::string& piece);

// One sentence saying why `model` predicts nothing (PredictionKind::None), for the panel and dump.
std::string whyNoPrediction(const TransformerModel& model);

}  // namespace attnviz::core
