#!/usr/bin/python3
"""Writes what the models predict, computed by an independent float64 PyTorch forward, for attnviz's prediction
panel and `dump`: the top ten tokens with their probabilities at three temperatures, at every position.

Run with Debian's Python (python3-numpy, python3-torch):  /usr/bin/python3 tests/reference/make_prediction_fixtures.py
It writes tests/reference/predictions/ (a few hundred KB); tests/core/test_prediction.cpp reads it.

  <decoder>_top10.json   the decoder folders of make_decoder_fixtures.py (their weights regenerated from its seed, in
                         its order) and make_transformer_fixtures.py's GPT-2 (tied to wte): next-token top ten at
                         every position of the first sentence
  bert-mlm/              a tiny BERT in bert-base-uncased's BertForMaskedLM layout ("bert." names plus
                         cls.predictions.*, the decoder tied to the word embeddings), and bert-mlm_logits.npy /
                         bert-mlm_top10.json: the masked-word head at every position of one sentence holding [MASK]

The masked-word head is transcribed from transformers' models/bert/modeling_bert.py: BertPredictionHeadTransform
(dense, ACT2FN["gelu"] = the exact erf GELU, LayerNorm with layer_norm_eps) and BertLMPredictionHead (decoder: a
Linear without bias whose weight is tied to embeddings.word_embeddings, plus its own `bias`). The top k is
softmax(logits / T) in float64, sorted by probability (ties: the lower id).
"""
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_decoder_fixtures as decoders  # noqa: E402
import make_transformer_fixtures as models  # noqa: E402

OUT = os.path.join(HERE, "predictions")
TEMPERATURES = [0.7, 1.0, 2.0]
K = 10
# [CLS] t h e [MASK] s a t [SEP] in the fixture vocabulary (4 = [MASK]).
MASKED_IDS = [2, 24, 12, 9, 4, 23, 5, 24, 3]


def top_k(logits):
    """{temperature: [[{"id", "probability"} x K] per position]} from l x vocab float64 logits."""
    result = {}
    for t in TEMPERATURES:
        probabilities = torch.softmax(logits / t, dim=-1)
        rows = []
        for row in probabilities:
            order = sorted(range(row.shape[0]), key=lambda v: (-row[v].item(), v))[:K]
            rows.append([{"id": v, "probability": row[v].item()} for v in order])
        result[str(t)] = rows
    return result


def save_json(name, value):
    with open(os.path.join(OUT, name), "w") as f:
        json.dump(value, f)


def decoder_predictions():
    generator = torch.Generator().manual_seed(20261125)  # make_decoder_fixtures.main's, drawn in the same order
    for name, (config, _dtype, _shards) in decoders.MODELS.items():
        weights = {key: value.double() for key, value in decoders.decoder_weights(config, generator).items()}
        _hidden, _attention, logits = decoders.decoder_forward(config, weights, decoders.IDS[0])
        save_json(f"{name}_top10.json", top_k(logits))


def gpt2_predictions():
    generator = torch.Generator().manual_seed(20261124)  # make_transformer_fixtures.main's: GPT-2 is drawn first
    weights = {key: value.double() for key, value in models.gpt2_weights(generator).items()}
    hidden, _attention = models.gpt2_forward(weights, models.GPT2_IDS[0])
    logits = hidden[-1] @ weights["wte.weight"].T  # GPT2LMHeadModel: lm_head tied to wte
    np.save(os.path.join(OUT, "gpt2_logits.npy"), logits.numpy().astype(np.float32))
    save_json("gpt2_top10.json", top_k(logits))


def masked_lm_head(w, hidden):
    """modeling_bert.py BertPredictionHeadTransform.forward, then BertLMPredictionHead.forward."""
    d, eps = models.BERT["hidden_size"], models.BERT["layer_norm_eps"]
    x = hidden @ w["cls.predictions.transform.dense.weight"].T + w["cls.predictions.transform.dense.bias"]
    x = torch.nn.functional.gelu(x)
    x = torch.nn.functional.layer_norm(x, (d,), w["cls.predictions.transform.LayerNorm.weight"], w["cls.predictions.transform.LayerNorm.bias"], eps)
    return x @ w["embeddings.word_embeddings.weight"].T + w["cls.predictions.bias"]


def bert_mlm_weights():
    """The bert-mlm folder's weights: make_transformer_fixtures' BERT plus cls.predictions.*, from their own seed."""
    generator = torch.Generator().manual_seed(20261126)
    w = models.bert_weights(generator)
    d, vocab = models.BERT["hidden_size"], models.BERT["vocab_size"]
    w["cls.predictions.transform.dense.weight"] = models.quantized((d, d), 0.25, generator)
    w["cls.predictions.transform.dense.bias"] = models.quantized((d,), 0.1, generator)
    w["cls.predictions.transform.LayerNorm.weight"] = models.quantized((d,), 0.1, generator, 1.0)
    w["cls.predictions.transform.LayerNorm.bias"] = models.quantized((d,), 0.1, generator)
    w["cls.predictions.bias"] = models.quantized((vocab,), 0.3, generator)
    return w


def bert_predictions():
    w = bert_mlm_weights()
    folder = os.path.join(OUT, "bert-mlm")
    os.makedirs(folder, exist_ok=True)
    config = dict(models.BERT, architectures=["BertForMaskedLM"])
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    stored = {("bert." + k if not k.startswith("cls.") else k): v for k, v in w.items()}
    models.write_safetensors(os.path.join(folder, "model.safetensors"), stored, "F32")
    models.bert_tokenizer_files(folder)
    exact = {key: value.double() for key, value in w.items()}
    hidden, _attention = models.bert_forward(exact, MASKED_IDS)
    logits = masked_lm_head(exact, hidden[-1])
    np.save(os.path.join(OUT, "bert-mlm_logits.npy"), logits.numpy().astype(np.float32))
    save_json("bert-mlm_top10.json", top_k(logits))
    save_json("bert-mlm_ids.json", MASKED_IDS)


def main():
    torch.manual_seed(0)
    os.makedirs(OUT, exist_ok=True)
    decoder_predictions()
    gpt2_predictions()
    bert_predictions()
    print("wrote", OUT)


if __name__ == "__main__":
    main()
