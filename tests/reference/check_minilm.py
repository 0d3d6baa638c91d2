#!/usr/bin/python3
"""Checks attnviz's forward pass of the real all-MiniLM-L6-v2 folder (cached by scripts/fetch-reference-vocab: a BERT
with 6 layers, d_model 384, 12 heads, F16 weights and only tokenizer.json) against an independent float64 PyTorch
BERT: the one in make_transformer_fixtures.py (transcribed from HuggingFace's modeling_bert.py), given this folder's
config.

    /usr/bin/python3 tests/reference/check_minilm.py FOLDER HIDDEN_STATES.npy ID,ID,...

HIDDEN_STATES.npy is attnviz's (n_layers + 1) × 1 × l × d_model for the ids (test_tokenizer_reference.cpp writes it).
Prints the largest difference per layer; exits 1 when any is over 1e-4.
"""
import json
import os
import struct
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_transformer_fixtures as fixtures  # noqa: E402

DTYPES = {"F16": np.float16, "F32": np.float32, "BF16": None}


def read_safetensors(path):
    with open(path, "rb") as f:
        length = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(length))
        data = f.read()
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__" or entry["dtype"] not in ("F16", "F32"):
            continue
        begin, end = entry["data_offsets"]
        array = np.frombuffer(data[begin:end], dtype=DTYPES[entry["dtype"]]).reshape(entry["shape"])
        tensors[name.removeprefix("bert.")] = torch.from_numpy(array.astype(np.float64))
    return tensors


def main():
    folder, hidden_path, ids = sys.argv[1], sys.argv[2], [int(i) for i in sys.argv[3].split(",")]
    with open(os.path.join(folder, "config.json")) as f:
        fixtures.BERT = json.load(f)
    weights = read_safetensors(os.path.join(folder, "model.safetensors"))
    expected, _ = fixtures.bert_forward(weights, ids)
    ours = np.load(hidden_path)[:, 0, : len(ids), :].astype(np.float64)
    worst = 0.0
    for layer in range(expected.shape[0]):
        difference = float(np.abs(ours[layer] - expected[layer].numpy()).max())
        worst = max(worst, difference)
        print(f"hidden state {layer}: largest difference {difference:.2e}")
    print(f"all-MiniLM-L6-v2, {len(ids)} tokens: largest difference {worst:.2e} (limit 1e-4)")
    sys.exit(0 if worst <= 1e-4 else 1)


if __name__ == "__main__":
    main()
