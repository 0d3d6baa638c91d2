#!/usr/bin/python3
"""Writes what issue 35's analyses must give on the tiny GPT-2, BERT (with its masked-word head) and Llama fixtures,
computed by independent float64 PyTorch forwards (make_transformer_fixtures.py's, make_decoder_fixtures.py's and
make_prediction_fixtures.py's masked-word head, the weights regenerated from their seeds in their order).

Run with Debian's Python (python3-numpy, python3-torch):  /usr/bin/python3 tests/reference/make_analysis_fixtures.py
It writes tests/reference/analyses/ (a few hundred KB); tests/core/test_analyses.cpp reads it.

  <model>_ids.json                 the sentence (token ids) every file below is about
  <model>_ablations.json           {"zero": [[layer, head], ...], "mean": [[layer, head], ...]}: the heads switched off
  <model>_ablated_zero_hidden.npy  (n_layers + 1) x l x d_model: output_hidden_states with the "zero" heads' slices of
                                   the concatenated head outputs set to 0 before the output projection (a hook on what
                                   c_proj / attention.output.dense / o_proj receives)
  <model>_ablated_mean_hidden.npy  the same with the "mean" heads' slices replaced by their mean over the sentence
  <model>_lens_logprobs.npy        (n_layers + 1) x l x vocab: the logit lens, log_softmax of each hidden state put
                                   through the final norm (GPT-2 ln_f, Llama model.norm; BERT has none) and the LM head
                                   (BERT: the masked-word head). The last hidden state is already after the final
                                   norm (output_hidden_states), so it is NOT normed again.
"""
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_decoder_fixtures as decoders  # noqa: E402
import make_prediction_fixtures as predictions  # noqa: E402
import make_transformer_fixtures as models  # noqa: E402

OUT = os.path.join(HERE, "analyses")
ABLATIONS = {"zero": [[1, 2], [0, 0]], "mean": [[0, 1], [1, 3]]}


def switch_off(heads, mode, width):
    """A z_hook: the listed (layer, head) slices of z (l x h*d_k) zeroed or replaced by their column means."""
    def hook(layer, z):
        z = z.clone()
        for off_layer, head in heads:
            if off_layer == layer:
                block = z[:, head * width:(head + 1) * width]
                z[:, head * width:(head + 1) * width] = 0.0 if mode == "zero" else block.mean(dim=0, keepdim=True)
        return z
    return hook


def save(name, array):
    np.save(os.path.join(OUT, name), np.asarray(array, dtype=np.float32))


def write_model(name, forward, head_width, ids, lens_head, final_norm):
    """forward(ids, z_hook) -> (n + 1) x l x d hidden states; lens_head(rows) -> logits; final_norm(rows) -> rows."""
    for mode, heads in ABLATIONS.items():
        save(f"{name}_ablated_{mode}_hidden.npy", forward(ids, switch_off(heads, mode, head_width)).numpy())
    hidden = forward(ids, None)
    lens = []
    for index, rows in enumerate(hidden):
        last = index == len(hidden) - 1
        lens.append(torch.log_softmax(lens_head(rows if last else final_norm(rows)), dim=-1))
    save(f"{name}_lens_logprobs.npy", torch.stack(lens).numpy())
    with open(os.path.join(OUT, f"{name}_ids.json"), "w") as f:
        json.dump(ids, f)
    with open(os.path.join(OUT, f"{name}_ablations.json"), "w") as f:
        json.dump(ABLATIONS, f)


def gpt2():
    generator = torch.Generator().manual_seed(20261124)  # make_transformer_fixtures.main's: GPT-2 is drawn first
    w = {key: value.double() for key, value in models.gpt2_weights(generator).items()}
    c = models.GPT2
    d = c["n_embd"]
    norm = lambda rows: torch.nn.functional.layer_norm(rows, (d,), w["ln_f.weight"], w["ln_f.bias"], c["layer_norm_epsilon"])
    write_model("gpt2", lambda ids, hook: models.gpt2_forward(w, ids, hook)[0], d // c["n_head"], models.GPT2_IDS[0],
                lambda rows: rows @ w["wte.weight"].T, norm)


def bert():
    w = {key: value.double() for key, value in predictions.bert_mlm_weights().items()}
    d = models.BERT["hidden_size"]
    write_model("bert-mlm", lambda ids, hook: models.bert_forward(w, ids, hook)[0], d // models.BERT["num_attention_heads"],
                predictions.MASKED_IDS, lambda rows: predictions.masked_lm_head(w, rows), lambda rows: rows)


def llama():
    generator = torch.Generator().manual_seed(20261125)  # make_decoder_fixtures.main's: llama-gqa-llama3 is drawn first
    name = "llama-gqa-llama3"
    c = decoders.MODELS[name][0]
    w = {key: value.double() for key, value in decoders.decoder_weights(c, generator).items()}
    head = w["model.embed_tokens.weight"] if c["tie_word_embeddings"] else w["lm_head.weight"]
    write_model(name, lambda ids, hook: decoders.decoder_forward(c, w, ids, False, hook)[0], decoders.head_dim(c), decoders.IDS[0],
                lambda rows: rows @ head.T, lambda rows: decoders.rms_norm(rows, w["model.norm.weight"], c["rms_norm_eps"]))


def main():
    torch.manual_seed(0)
    os.makedirs(OUT, exist_ok=True)
    gpt2()
    bert()
    llama()
    print("wrote", OUT)


if __name__ == "__main__":
    main()
