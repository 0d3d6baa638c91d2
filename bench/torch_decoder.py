#!/usr/bin/python3
"""attnviz's Llama-family pass against Debian's PyTorch, on a SmolLM2-135M-shaped checkpoint (model_type llama, 30
layers, d_model 576, 9 query heads sharing 3 K/V heads, SwiGLU width 1536, vocabulary 49152, tied embeddings) with
random F32 weights, which this script writes once into ~/.cache/attnviz/bench/smollm2-135m-shaped/ (about 540 MB;
never committed) with the tiny GPT-2-style tokenizer files of tests/reference (the bench feeds ids directly).

    taskset -c 0 /usr/bin/python3 bench/torch_decoder.py build/release/bench/bench_transformer [repeats]

Both sides on one core (taskset; PyTorch with one thread). Prints, as figures measured in this run (the machine is
shared and noisy):
  * opening the folder as the app does, in seconds, and ÷ reading model.safetensors' bytes once;
  * a forward pass of 64 tokens through all 30 layers: ours ÷ PyTorch's (the medians of the repeats), and the largest
    difference between the two final hidden states.
PyTorch's side is the plain-torch Llama forward of tests/reference/make_decoder_fixtures.py in float32.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "reference"))
from make_decoder_fixtures import decoder_forward  # noqa: E402
from make_transformer_fixtures import gpt2_tokenizer_files  # noqa: E402

CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "attnviz")
FOLDER = os.path.join(CACHE, "bench", "smollm2-135m-shaped")
CONFIG = {"model_type": "llama", "num_hidden_layers": 30, "hidden_size": 576, "num_attention_heads": 9, "num_key_value_heads": 3,
          "intermediate_size": 1536, "max_position_embeddings": 8192, "rms_norm_eps": 1e-5, "rope_theta": 100000.0,
          "vocab_size": 49152, "hidden_act": "silu", "tie_word_embeddings": True, "rope_scaling": None}
TOKENS = 64


def tensor_shapes():
    c = CONFIG
    d, f, hd = c["hidden_size"], c["intermediate_size"], c["hidden_size"] // c["num_attention_heads"]
    q, kv = c["num_attention_heads"] * hd, c["num_key_value_heads"] * hd
    shapes = {"model.embed_tokens.weight": (c["vocab_size"], d), "model.norm.weight": (d,)}
    for i in range(c["num_hidden_layers"]):
        p = f"model.layers.{i}."
        shapes.update({p + "input_layernorm.weight": (d,), p + "post_attention_layernorm.weight": (d,),
                       p + "self_attn.q_proj.weight": (q, d), p + "self_attn.k_proj.weight": (kv, d), p + "self_attn.v_proj.weight": (kv, d),
                       p + "self_attn.o_proj.weight": (d, q), p + "mlp.gate_proj.weight": (f, d), p + "mlp.up_proj.weight": (f, d),
                       p + "mlp.down_proj.weight": (d, f)})
    return shapes


def write_checkpoint():
    if os.path.exists(os.path.join(FOLDER, "model.safetensors")):
        return
    os.makedirs(FOLDER, exist_ok=True)
    rng = np.random.default_rng(0)
    header, offset, arrays = {}, 0, []
    for name, shape in tensor_shapes().items():
        values = (np.ones(shape) if name.endswith("norm.weight") else rng.normal(0.0, 0.02, shape)).astype("<f4")
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
    gpt2_tokenizer_files(FOLDER)


def load_weights():
    with open(os.path.join(FOLDER, "model.safetensors"), "rb") as f:
        data = f.read()
    length = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + length])
    start = 8 + length
    return {n: torch.from_numpy(np.frombuffer(data[start + e["data_offsets"][0]:start + e["data_offsets"][1]], dtype="<f4").reshape(e["shape"]).copy())
            for n, e in header.items()}


def main():
    binary, repeats = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 9
    write_checkpoint()
    torch.set_num_threads(1)
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
        decoder_forward(CONFIG, w, torch.from_numpy(ids), False)
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            hidden, _, _ = decoder_forward(CONFIG, w, torch.from_numpy(ids), False)
            times.append((time.perf_counter() - t) * 1000.0)
    times.sort()
    ours_median, torch_median = ours[len(ours) // 2], times[len(times) // 2]
    print(f"open: {open_ms / 1000.0:.2f} s = {open_ms / read_ms:.2f} × reading the file once ({read_ms:.0f} ms)   (target ≤ 2 s)")
    print(f"forward of {TOKENS} tokens through 30 layers: ours {ours_median:.1f} ms, torch {torch_median:.1f} ms: "
          f"ours ÷ torch = {ours_median / torch_median:.2f}   (target ≤ 0.6)")
    print(f"largest difference of the final hidden states: {np.abs(hidden[-1].numpy() - ours_last).max():.2e}")


if __name__ == "__main__":
    main()
