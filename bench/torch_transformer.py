#!/usr/bin/python3
"""attnviz's trained-model pass against Debian's PyTorch (eager float32, one thread: torch.set_num_threads(1)).

    /usr/bin/python3 bench/torch_transformer.py build/release/bench/bench_transformer [--model gpt2|minilm]
        [--tokens N] [--repeats R] [--rounds K] [--memory]

Models: `gpt2` is a GPT-2-small-shaped checkpoint (12 layers, d_model 768, 12 heads, vocabulary 50257, 1024
positions) with random weights, which this script writes once into ~/.cache/attnviz/bench/gpt2-small-shaped/ (about
500 MB; never committed) with GPT-2's real tokenizer files from scripts/fetch-reference-vocab's cache; `minilm` is
the real all-MiniLM-L6-v2 folder that script caches (a BERT: 6 layers, 384, 12 heads; F16 weights, computed in F32).
Ids are random, the mask the model's own (causal for GPT-2, none for BERT's one sentence).

Prints, as ratios measured in this run (the machine is shared and noisy): K rounds, each R passes of ours
(bench_transformer: "lean", every layer through the lean pass with no attention weights kept, and "app", layer 0
stepped with its full Trace and every layer's attention weights kept for the model view) and then R of PyTorch's;
per round the medians' ratios of wall time and of CPU time (all threads: ours uses every core, PyTorch one; on a
loaded machine a 2-thread process also gets twice the time slices), then the median and range over the rounds; the largest difference
of the final hidden states; with --memory, the peak RSS of ours (each pass kind alone) and of this process.
Unset OPENBLAS_CORETYPE when timing (OpenBLAS then picks its kernel itself).
"""
import argparse
import json
import math
import os
import resource
import struct
import subprocess
import tempfile
import time

import numpy as np
import torch

CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "attnviz")
FOLDER = os.path.join(CACHE, "bench", "gpt2-small-shaped")
REFERENCE = os.path.join(CACHE, "reference", "gpt2")
CONFIG = {"model_type": "gpt2", "n_layer": 12, "n_embd": 768, "n_head": 12, "n_inner": None, "n_positions": 1024,
          "vocab_size": 50257, "layer_norm_epsilon": 1e-5, "activation_function": "gelu_new"}
MINILM = os.path.join(CACHE, "reference", "all-MiniLM-L6-v2")


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


def load_weights(folder):
    with open(os.path.join(folder, "model.safetensors"), "rb") as f:
        data = f.read()
    length = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + length])
    start = 8 + length
    dtypes = {"F32": "<f4", "F16": "<f2"}
    return {n: torch.from_numpy(np.frombuffer(data[start + e["data_offsets"][0]:start + e["data_offsets"][1]], dtype=dtypes[e["dtype"]])
                                .astype(np.float32).reshape(e["shape"]))
            for n, e in header.items() if n != "__metadata__" and e["dtype"] in dtypes}


def gpt2_forward(w, ids):
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



def bert_forward(w, ids, config):
    """modeling_bert.py's BertModel for one unpadded sentence, token type 0, no mask (post-LN, exact GELU)."""
    d, heads, eps, l = config["hidden_size"], config["num_attention_heads"], config["layer_norm_eps"], len(ids)
    dk = d // heads
    e = "embeddings."
    h = w[e + "word_embeddings.weight"][ids] + w[e + "position_embeddings.weight"][:l] + w[e + "token_type_embeddings.weight"][0]
    h = torch.nn.functional.layer_norm(h, (d,), w[e + "LayerNorm.weight"], w[e + "LayerNorm.bias"], eps)
    linear = torch.nn.functional.linear
    for i in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        q, k, v = (linear(h, w[p + f"attention.self.{n}.weight"], w[p + f"attention.self.{n}.bias"]).view(l, heads, dk).transpose(0, 1)
                   for n in ("query", "key", "value"))
        a = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(dk), dim=-1)
        z = (a @ v).transpose(0, 1).reshape(l, d)
        h = torch.nn.functional.layer_norm(h + linear(z, w[p + "attention.output.dense.weight"], w[p + "attention.output.dense.bias"]), (d,),
                                           w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"], eps)
        inner = torch.nn.functional.gelu(linear(h, w[p + "intermediate.dense.weight"], w[p + "intermediate.dense.bias"]))
        h = torch.nn.functional.layer_norm(h + linear(inner, w[p + "output.dense.weight"], w[p + "output.dense.bias"]), (d,),
                                           w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], eps)
    return h


def ours(binary, folder, ids_path, repeats, out, which="both"):
    lines = subprocess.run([binary, folder, ids_path, str(repeats), out, which], check=True, capture_output=True, text=True).stdout.split("\n")
    pick = lambda key: sorted(float(x.split()[1]) for x in lines if x.startswith(key + " "))
    return pick("open_ms"), pick("lean_ms"), pick("app_ms"), pick("lean_cpu_ms"), pick("app_cpu_ms")


def peak_rss_mib(command):
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, check=True, capture_output=True, text=True)
    return int(result.stderr.strip().split("\n")[-1]) / 1024.0


def median(values):
    return sorted(values)[len(values) // 2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--model", choices=("gpt2", "minilm"), default="gpt2")
    parser.add_argument("--tokens", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--memory", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(1)
    if args.model == "gpt2":
        write_checkpoint()
        folder, vocab = FOLDER, CONFIG["vocab_size"]
        forward = gpt2_forward
    else:
        folder = MINILM
        with open(os.path.join(folder, "config.json")) as f:
            config = json.load(f)
        vocab = config["vocab_size"]
        forward = lambda w, ids: bert_forward(w, ids, config)  # noqa: E731
    ids = np.random.default_rng(1).integers(0, vocab, args.tokens)
    w = load_weights(folder)
    ratios = {"lean": [], "app": []}
    cpu_ratios = {"lean": [], "app": []}  # CPU seconds of all threads: ours may use every core, PyTorch one
    with tempfile.TemporaryDirectory() as out, torch.no_grad():
        ids_path = os.path.join(out, "ids.npy")
        np.save(ids_path, ids.astype(np.float32))
        forward(w, torch.from_numpy(ids))
        for round_ in range(args.rounds):
            open_ms, lean, app, lean_cpu, app_cpu = ours(args.binary, folder, ids_path, args.repeats, out)
            times, cpu_times = [], []
            for _ in range(args.repeats):
                t, c = time.perf_counter(), time.process_time()
                last = forward(w, torch.from_numpy(ids))
                times.append((time.perf_counter() - t) * 1000.0)
                cpu_times.append((time.process_time() - c) * 1000.0)
            torch_ms, torch_cpu = median(times), median(cpu_times)
            ratios["lean"].append(median(lean) / torch_ms)
            ratios["app"].append(median(app) / torch_ms)
            cpu_ratios["lean"].append(median(lean_cpu) / torch_cpu)
            cpu_ratios["app"].append(median(app_cpu) / torch_cpu)
            print(f"round {round_ + 1}: torch {torch_ms:.1f} ms, ours lean {median(lean):.1f} ms ({ratios['lean'][-1]:.2f}), "
                  f"app {median(app):.1f} ms ({ratios['app'][-1]:.2f}); CPU time ratios lean {cpu_ratios['lean'][-1]:.2f}, "
                  f"app {cpu_ratios['app'][-1]:.2f}; open {open_ms[0]:.0f} ms", flush=True)
        ours_last = np.load(os.path.join(out, "ours_last_hidden.npy"))
        print(f"{args.model}, {args.tokens} tokens, PyTorch {torch.__version__} on 1 thread: ours ÷ torch, median (range) of {args.rounds} rounds: "
              f"lean {median(ratios['lean']):.2f} ({min(ratios['lean']):.2f}–{max(ratios['lean']):.2f}), "
              f"app {median(ratios['app']):.2f} ({min(ratios['app']):.2f}–{max(ratios['app']):.2f})   (target lean ≤ 0.5)")
        print(f"CPU time (all threads) ours ÷ torch, median (range): lean {median(cpu_ratios['lean']):.2f} "
              f"({min(cpu_ratios['lean']):.2f}–{max(cpu_ratios['lean']):.2f}), app {median(cpu_ratios['app']):.2f} "
              f"({min(cpu_ratios['app']):.2f}–{max(cpu_ratios['app']):.2f})")
        print(f"largest difference of the final hidden states: {np.abs(last.numpy() - ours_last).max():.2e}")
        if args.memory:
            for which in ("lean", "app"):
                print(f"peak RSS, ours {which} (open + 2 passes): {peak_rss_mib([args.binary, folder, ids_path, '1', out, which]):.0f} MiB")
            print(f"peak RSS, this PyTorch process (weights loaded as float32 + passes): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0:.0f} MiB")

if __name__ == "__main__":
    main()
