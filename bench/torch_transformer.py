#!/usr/bin/python3
"""attnviz's trained-model pass against Debian's PyTorch, on a GPT-2-small-shaped checkpoint (12 layers, d_model
768, 12 heads, vocabulary 50257, 1024 positions) with random weights, which this script writes once into
~/.cache/attnviz/bench/gpt2-small-shaped/ (about 500 MB; never committed) with GPT-2's real tokenizer files from
scripts/fetch-reference-vocab's cache.

    /usr/bin/python3 bench/torch_transformer.py build/release/bench/bench_transformer [repeats]

Prints, as ratios measured in this run (the machine is shared and noisy):
  * opening the folder as the app does ÷ reading model.safetensors' bytes once (the baseline), and the seconds;
  * a forward pass of 64 tokens through all 12 layers: ours ÷ PyTorch's (2 threads, the same weights and ids), the
    medians of the repeats, and the largest difference between the two final hidden states.
"""
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "attnviz")
FOLDER = os.path.join(CACHE, "bench", "gpt2-small-shaped")
REFERENCE = os.path.join(CACHE, "reference", "gpt2")
CONFIG = {"model_type": "gpt2", "n_layer": 12, "n_embd": 768, "n_head": 12, "n_inner": None, "n_positions": 1024,
          "vocab_size": 50257, "layer_norm_epsilon": 1e-5, "activation_function": "gelu_new"}
TOKENS = 64


def tensor_shapes():
    d, f = CONFIG["n_embd"], 4 * CONFIG["n_embd"]
    shapes = {"wte.weight": (CONFIG["vocab_size"], d), "wpe.weight": (CONFIG["n_positions"], d), "ln_f.weight": (d,), "ln_f.bias": (d,)}
    for i in range(CONFIG["n_layer"]):
        p = f"h.{i}."
        shapes.update({p + "ln_1.weight": (d,), p + "ln_1.bias": (d,), p + "attn.c_attn.weight": (d, 3 * d), p + "attn.c_attn.bias": (3 * d,),
                       p + "attn.c_proj.weight": (d, d), p + "attn.c_proj.bias": (d,), p + "ln_2.weight": (d,), p + "ln_2.bias": (d,),
                       p + "mlp.c_fc.weight": (d, f), p + "mlp.c_fc.bias": (f,), p + "mlp.c_proj.weight": (f, d), p + "mlp.c_proj.bias": (d,)})
    return shapes


def write_checkpoint():
    if os.path.exists(os.path.join(FOLDER, "model.safetensors")):
        return
    os.makedirs(FOLDER, exist_ok=True)
    rng = np.random.default_rng(0)
    header, offset, arrays = {}, 0, []
    for name, shape in tensor_shapes().items():
        values = (np.ones(shape) if name.endswith("ln_1.weight") or name.endswith("ln_2.weight") or name == "ln_f.weight"
                  else rng.normal(0.0, 0.02, shape)).astype("<f4")
        header[name] = {"dtype": "F32", "shape": list(shape), "data_offsets": [offset, offset + values.nbytes]}
        arrays.append(values)
        offset += values.nbytes
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(os.path.join(FOLDER, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        for values in arrays:
            f.write(values.tobytes())
    with open(os.path.join(FOLDER, "config.json"), "w") as f:
        json.dump(CONFIG, f)
    for name in ("vocab.json", "merges.txt"):
        with open(os.path.join(REFERENCE, name), "rb") as source, open(os.path.join(FOLDER, name), "wb") as target:
            target.write(source.read())


def load_weights():
    with open(os.path.join(FOLDER, "model.safetensors"), "rb") as f:
        data = f.read()
    length = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + length])
    start = 8 + length
    return {n: torch.from_numpy(np.frombuffer(data[start + e["data_offsets"][0]:start + e["data_offsets"][1]], dtype="<f4").reshape(e["shape"]).copy())
            for n, e in header.items()}


def torch_forward(w, ids):
    d, heads, eps = CONFIG["n_embd"], CONFIG["n_head"], CONFIG["layer_norm_epsilon"]
    dk, l = d // heads, len(ids)
    causal = torch.tril(torch.ones(l, l, dtype=torch.bool))
    h = w["wte.weight"][ids] + w["wpe.weight"][:l]
    for i in range(CONFIG["n_layer"]):
        p = f"h.{i}."
        x = torch.nn.functional.layer_norm(h, (d,), w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
        q, k, v = (torch.addmm(w[p + "attn.c_attn.bias"], x, w[p + "attn.c_attn.weight"])).split(d, dim=-1)
        q, k, v = (t.view(l, heads, dk).transpose(0, 1) for t in (q, k, v))
        a = torch.softmax((q @ k.transpose(-1, -2) / math.sqrt(dk)).masked_fill(~causal, float("-inf")), dim=-1)
        h = h + torch.addmm(w[p + "attn.c_proj.bias"], (a @ v).transpose(0, 1).reshape(l, d), w[p + "attn.c_proj.weight"])
        m = torch.nn.functional.layer_norm(h, (d,), w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
        inner = torch.addmm(w[p + "mlp.c_fc.bias"], m, w[p + "mlp.c_fc.weight"])
        h = h + torch.addmm(w[p + "mlp.c_proj.bias"], torch.nn.functional.gelu(inner, approximate="tanh"), w[p + "mlp.c_proj.weight"])
    return torch.nn.functional.layer_norm(h, (d,), w["ln_f.weight"], w["ln_f.bias"], eps)


def main():
    binary, repeats = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 15
    write_checkpoint()
    torch.set_num_threads(2)
    ids = np.random.default_rng(1).integers(0, CONFIG["vocab_size"], TOKENS)
    started = time.perf_counter()
    with open(os.path.join(FOLDER, "model.safetensors"), "rb") as f:
        while f.read(1 << 24):
            pass
    read_ms = (time.perf_counter() - started) * 1000.0
    with tempfile.TemporaryDirectory() as out:
        np.save(os.path.join(out, "ids.npy"), ids.astype(np.float32))
        lines = subprocess.run([binary, FOLDER, os.path.join(out, "ids.npy"), str(repeats), out], check=True, capture_output=True, text=True).stdout.split("\n")
        ours_last = np.load(os.path.join(out, "ours_last_hidden.npy"))
    open_ms = float(next(l.split()[1] for l in lines if l.startswith("open_ms")))
    ours = sorted(float(l.split()[1]) for l in lines if l.startswith("ms "))
    w = load_weights()
    with torch.no_grad():
        torch_forward(w, torch.from_numpy(ids))
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            last = torch_forward(w, torch.from_numpy(ids))
            times.append((time.perf_counter() - t) * 1000.0)
    times.sort()
    ours_median, torch_median = ours[len(ours) // 2], times[len(times) // 2]
    print(f"open: {open_ms / 1000.0:.2f} s = {open_ms / read_ms:.2f} × reading the file once ({read_ms:.0f} ms)   (target ≤ 1 s)")
    print(f"forward of {TOKENS} tokens through 12 layers: ours {ours_median:.1f} ms, torch {torch_median:.1f} ms: ours ÷ torch = {ours_median / torch_median:.2f}   (target ≤ 0.5)")
    print(f"largest difference of the final hidden states: {np.abs(last.numpy() - ours_last).max():.2e}")


if __name__ == "__main__":
    main()
