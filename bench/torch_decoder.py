#!/usr/bin/python3
"""attnviz's Llama-family pass against Debian's PyTorch, on a random F32 checkpoint of one of two real shapes:
  * smollm2 (default): SmolLM2-135M (model_type llama, 30 layers, d_model 576, 9 query heads sharing 3 K/V heads,
    SwiGLU width 1536, vocabulary 49152, tied embeddings; 540 MB);
  * qwen2.5: Qwen2.5-0.5B (model_type qwen2, 24 layers, d_model 896, 14 query heads sharing 2 K/V heads of 64,
    SwiGLU width 4864, vocabulary 151936, q/k/v biases, tied embeddings; 2.0 GB).
The script writes the checkpoint once into ~/.cache/attnviz/bench/<shape>-shaped/ (never committed) with the tiny
GPT-2-style tokenizer files of tests/reference (the bench feeds ids directly); `--bf16` also writes a BF16 copy
beside it (<shape>-shaped-bf16/, for the GUI's peak RSS with widened weights) and prints both folders.

    taskset -c 0 /usr/bin/python3 bench/torch_decoder.py build/release/bench/bench_transformer [repeats] [--shape qwen2.5]

Both sides on one core (taskset; PyTorch with one thread). Prints, as figures measured in this run (the machine is
shared and noisy):
  * opening the folder as the app does, in seconds, and ÷ reading model.safetensors' bytes once;
  * a forward pass of 64 tokens through every layer: ours ÷ PyTorch's (the medians and the fastest of the repeats), and the largest
    difference between the two final hidden states.
PyTorch's side is the plain-torch Llama forward of tests/reference/make_decoder_fixtures.py in float32.
"""
import argparse
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
SHAPES = {
    "smollm2": {"model_type": "llama", "num_hidden_layers": 30, "hidden_size": 576, "num_attention_heads": 9, "num_key_value_heads": 3,
                "intermediate_size": 1536, "max_position_embeddings": 8192, "rms_norm_eps": 1e-5, "rope_theta": 100000.0,
                "vocab_size": 49152, "hidden_act": "silu", "tie_word_embeddings": True, "rope_scaling": None},
    # Qwen2.5-0.5B's config.json (its sliding window is off: use_sliding_window false).
    "qwen2.5": {"model_type": "qwen2", "num_hidden_layers": 24, "hidden_size": 896, "num_attention_heads": 14, "num_key_value_heads": 2,
                "intermediate_size": 4864, "max_position_embeddings": 32768, "rms_norm_eps": 1e-6, "rope_theta": 1000000.0,
                "vocab_size": 151936, "hidden_act": "silu", "tie_word_embeddings": True, "rope_scaling": None,
                "use_sliding_window": False, "sliding_window": 32768, "max_window_layers": 24},
}
FOLDER_NAMES = {"smollm2": "smollm2-135m-shaped", "qwen2.5": "qwen2.5-0.5b-shaped"}
CONFIG = SHAPES["smollm2"]
FOLDER = os.path.join(CACHE, "bench", FOLDER_NAMES["smollm2"])
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
        if c["model_type"] == "qwen2":  # modeling_qwen2.py: q/k/v_proj with bias=True, o_proj without
            shapes.update({p + "self_attn.q_proj.bias": (q,), p + "self_attn.k_proj.bias": (kv,), p + "self_attn.v_proj.bias": (kv,)})
    return shapes


def tensor_values(name, shape, rng):
    return (np.ones(shape) if name.endswith("norm.weight") else rng.normal(0.0, 0.02, shape)).astype("<f4")


def write_checkpoint(folder, bf16=False):
    """The random checkpoint, F32 (or its BF16 copy: the same values rounded to nearest even), written tensor by
    tensor so the script never holds the whole file; temp + rename."""
    path = os.path.join(folder, "model.safetensors")
    if os.path.exists(path):
        return
    os.makedirs(folder, exist_ok=True)
    size = 2 if bf16 else 4
    header, offset = {}, 0
    for name, shape in tensor_shapes().items():
        nbytes = int(np.prod(shape)) * size
        header[name] = {"dtype": "BF16" if bf16 else "F32", "shape": list(shape), "data_offsets": [offset, offset + nbytes]}
        offset += nbytes
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    rng = np.random.default_rng(0)
    with open(path + ".part", "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        for name, shape in tensor_shapes().items():
            values = tensor_values(name, shape, rng)
            if bf16:
                bits = values.view("<u4").astype(np.uint64)
                values = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype("<u2")
            f.write(values.tobytes())
    os.replace(path + ".part", path)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(CONFIG, f)
    gpt2_tokenizer_files(folder)


def load_weights():
    """Every tensor of the F32 file as a torch tensor, copied once out of a read-only map of the file."""
    data = np.memmap(os.path.join(FOLDER, "model.safetensors"), dtype=np.uint8, mode="r")
    length = struct.unpack("<Q", data[:8].tobytes())[0]
    header = json.loads(data[8:8 + length].tobytes())
    start = 8 + length
    return {n: torch.from_numpy(np.array(data[start + e["data_offsets"][0]:start + e["data_offsets"][1]].view("<f4")).reshape(e["shape"]))
            for n, e in header.items()}


def parse_arguments():
    global CONFIG, FOLDER
    parser = argparse.ArgumentParser(description="attnviz's decoder pass ÷ PyTorch's, one thread each.")
    parser.add_argument("binary", help="build/release/bench/bench_transformer")
    parser.add_argument("repeats", nargs="?", type=int, default=9)
    parser.add_argument("--shape", choices=sorted(SHAPES), default="smollm2")
    parser.add_argument("--bf16", action="store_true", help="also write the BF16 copy and print both folders")
    arguments = parser.parse_args()
    CONFIG = SHAPES[arguments.shape]
    FOLDER = os.path.join(CACHE, "bench", FOLDER_NAMES[arguments.shape])
    return arguments


def main():
    arguments = parse_arguments()
    binary, repeats = arguments.binary, arguments.repeats
    write_checkpoint(FOLDER)
    if arguments.bf16:
        write_checkpoint(FOLDER + "-bf16", bf16=True)
        print(f"folders: {FOLDER} {FOLDER}-bf16")
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
    open_cpu_ms = float(next(l.split()[1] for l in lines if l.startswith("open_cpu_ms")))
    ours = sorted(float(l.split()[1]) for l in lines if l.startswith("lean_ms "))
    ours_cpu = sorted(float(l.split()[1]) for l in lines if l.startswith("lean_cpu_ms "))
    app = sorted(float(l.split()[1]) for l in lines if l.startswith("app_ms "))
    w = load_weights()
    with torch.no_grad():
        decoder_forward(CONFIG, w, torch.from_numpy(ids), False)
        times, cpu_times = [], []
        for _ in range(repeats):
            t, cpu = time.perf_counter(), time.process_time()
            hidden, _, _ = decoder_forward(CONFIG, w, torch.from_numpy(ids), False)
            times.append((time.perf_counter() - t) * 1000.0)
            cpu_times.append((time.process_time() - cpu) * 1000.0)
    times.sort()
    cpu_times.sort()
    ours_median, torch_median = ours[len(ours) // 2], times[len(times) // 2]
    print(f"open: {open_ms / 1000.0:.2f} s = {open_ms / read_ms:.2f} × reading the file once ({read_ms:.0f} ms), CPU time "
          f"{open_cpu_ms / 1000.0:.2f} s   (target ≤ 2 s)")
    print(f"forward of {TOKENS} tokens through {CONFIG['num_hidden_layers']} layers: ours {ours_median:.1f} ms, torch {torch_median:.1f} ms: "
          f"ours ÷ torch = {ours_median / torch_median:.2f}; fastest of each: {ours[0]:.1f} vs {times[0]:.1f} ms = "
          f"{ours[0] / times[0]:.2f}   (target ≤ 0.6)")
    print(f"  CPU time (all threads; what counts when other processes share the core): ours {ours_cpu[len(ours_cpu) // 2]:.1f} ms, "
          f"torch {cpu_times[len(cpu_times) // 2]:.1f} ms: ours ÷ torch = {ours_cpu[len(ours_cpu) // 2] / cpu_times[len(cpu_times) // 2]:.2f}")
    print(f"  the app's pass (layer 0's Trace and every layer's attention weights kept): {app[len(app) // 2]:.1f} ms = "
          f"{app[len(app) // 2] / torch_median:.2f} × torch")
    print(f"largest difference of the final hidden states: {np.abs(hidden[-1].numpy() - ours_last).max():.2e}")


if __name__ == "__main__":
    main()
