#!/usr/bin/python3
"""What an independent float64 PyTorch forward computes on attnviz's bundled decoder (assets/models/attnviz-mini-llama)
for two sentences: every layer's hidden states and attention weights, and the next-token logits at every position of
the first. The forward is make_decoder_fixtures.py's (transcribed from HuggingFace transformers' modeling_llama.py);
the token ids come from the training script's own Python tokenizer (tools/train/train_bundled_decoder.py), not from
attnviz.

Run with Debian's Python (python3-numpy, python3-torch):  /usr/bin/python3 tests/reference/make_bundled_decoder_reference.py
It writes tests/reference/decoders/attnviz-mini-llama_*.npy and attnviz-mini-llama_ids.json (about 300 KB);
tests/core/test_transformer_reference.cpp reads them. Run it again whenever the bundled decoder is retrained.
"""
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tools", "train"))
from make_decoder_fixtures import OUT, decoder_forward  # noqa: E402
from train_bundled_decoder import MODEL_DIR, Tokenizer  # noqa: E402
from train_bundled_model import read_safetensors  # noqa: E402

NAME = "attnviz-mini-llama"
SENTENCES = ["The animal didn't cross the street because it was too", "Once upon a time there was a little girl."]


def main():
    config = json.load(open(os.path.join(MODEL_DIR, "config.json")))
    merges = json.load(open(os.path.join(MODEL_DIR, "tokenizer.json")))["model"]["merges"]
    tokenizer = Tokenizer([tuple(m.split(" ")) for m in merges])
    ids = [tokenizer.encode(s) for s in SENTENCES]
    weights = {k: torch.from_numpy(v.astype(np.float64)) for k, v in read_safetensors(os.path.join(MODEL_DIR, "model.safetensors")).items()}
    with open(os.path.join(OUT, f"{NAME}_ids.json"), "w") as f:
        json.dump(ids, f)
    for index, sentence in enumerate(ids):
        hidden, attentions, logits = decoder_forward(config, weights, sentence)
        np.save(os.path.join(OUT, f"{NAME}_hidden_{index}.npy"), hidden.numpy().astype(np.float32))
        np.save(os.path.join(OUT, f"{NAME}_attention_{index}.npy"), attentions.numpy().astype(np.float32))
        if index == 0:
            np.save(os.path.join(OUT, f"{NAME}_logits.npy"), logits.numpy().astype(np.float32))
    print("wrote", OUT, ids)


if __name__ == "__main__":
    main()
