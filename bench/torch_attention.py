#!/usr/bin/python3
"""torch_attention.py — our forward pass against PyTorch's F.multi_head_attention_forward on the same weights.

For each (l, d_model, h) it writes an input X and Xavier-uniform weights as .npy files (our convention: out = X W,
so PyTorch gets the transposes), times PyTorch on CPU with 2 threads, runs bench_vs_torch (our side) on the same
files, checks that the outputs (and each head's attention weights) agree within 1e-4, and prints our time as a
ratio to PyTorch's. The two sides alternate, round after round, so a noisy neighbour slows both alike; each side's
time is the median of its runs, and the ratio is the median of the per-round ratios.

PyTorch is timed three ways, because our forward pass keeps every intermediate and theirs keeps what you ask for:
  default      need_weights=True, average_attn_weights=True (the function's defaults; A averaged over heads)
  per-head A   need_weights=True, average_attn_weights=False (every head's l × l weights, as we keep them)
  output only  need_weights=False (no weights returned; the least work PyTorch does)
The issue's target (our time <= 0.6 x PyTorch's) is judged against the default call.

Needs Debian's python3-torch and libopenblas0-pthread (not in scripts/setup: they are large):
    apt-get install -y --no-install-recommends python3-torch libopenblas0-pthread
Run (scripts/bench does both when `/usr/bin/python3 -c 'import torch'` works):
    /usr/bin/python3 bench/torch_attention.py --ours build/release/bench/bench_vs_torch
    /usr/bin/python3 bench/torch_attention.py --ours build/release/bench/bench_vs_torch --openblas-coretype SkylakeX
The first is PyTorch as Debian ships it on this machine; the second gives its BLAS the AVX-512 kernels (docs/performance.md says why both).
Exit status 1 when a result differs by more than the tolerance (the ratio is a figure to report, not a test).
"""
import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import tempfile
import time

# OpenBLAS picks its kernels when torch loads it, from the CPU or from OPENBLAS_CORETYPE. By default the variable is
# removed (OpenBLAS's own detection: on CPUs newer than Debian's OpenBLAS 0.3.21 knows, such as this machine's
# model 207, that is the SSE3 "Prescott" kernel, 5x slower than AVX-512); --openblas-coretype NAME sets it
# (SkylakeX: the AVX-512 kernels, what OpenBLAS uses on CPUs it recognises). Either way, start again before
# torch is imported, so the choice applies.
def _coretype_from_argv():
    for index, argument in enumerate(sys.argv):
        if argument == "--openblas-coretype" and index + 1 < len(sys.argv):
            return sys.argv[index + 1]
        if argument.startswith("--openblas-coretype="):
            return argument.split("=", 1)[1]
    return None


_wanted = _coretype_from_argv()
if os.environ.get("OPENBLAS_CORETYPE") != _wanted:
    if _wanted is None:
        del os.environ["OPENBLAS_CORETYPE"]
    else:
        os.environ["OPENBLAS_CORETYPE"] = _wanted
    os.execv(sys.executable, [sys.executable] + sys.argv)

import numpy as np
import torch
import torch.nn.functional as F

SHAPES = [(512, 512, 8), (1024, 768, 12)]
TOLERANCE = 1e-4
TARGET = 0.6


def xavier(rng, fan_in, fan_out):
    bound = np.sqrt(6.0 / (fan_in + fan_out))
    return rng.uniform(-bound, bound, size=(fan_in, fan_out)).astype(np.float32)


def openblas_core():
    """The kernel family OpenBLAS chose ("Prescott", "Haswell", "SkylakeX", ...), or "?" without OpenBLAS."""
    try:
        library = ctypes.CDLL("libopenblas.so.0")
        library.openblas_get_corename.restype = ctypes.c_char_p
        return library.openblas_get_corename().decode()
    except (OSError, AttributeError):
        return "?"


def write_inputs(directory, l, d_model, seed):
    rng = np.random.default_rng(seed)
    arrays = {"x": rng.uniform(-1.0, 1.0, size=(l, d_model)).astype(np.float32)}
    for name in ("w_q", "w_k", "w_v", "w_o"):
        arrays[name] = xavier(rng, d_model, d_model)
    for name, array in arrays.items():
        np.save(os.path.join(directory, name + ".npy"), array)
    return arrays


def torch_call(arrays, h, mode):
    """A closure running F.multi_head_attention_forward once in `mode`; returns (output, weights)."""
    x = torch.from_numpy(arrays["x"]).unsqueeze(1)  # l × batch 1 × d_model, PyTorch's (L, N, E)
    in_proj = torch.from_numpy(np.concatenate([arrays["w_q"].T, arrays["w_k"].T, arrays["w_v"].T])).contiguous()
    out_proj = torch.from_numpy(arrays["w_o"].T.copy())
    d_model = x.shape[-1]
    need_weights = mode != "output only"
    average = mode == "default"

    def call():
        return F.multi_head_attention_forward(
            x, x, x, d_model, h, in_proj, None, None, None, False, 0.0, out_proj, None,
            training=False, need_weights=need_weights, average_attn_weights=average)

    return call


def time_torch(call, repeats):
    with torch.inference_mode():
        call()  # warm-up
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            call()
            times.append((time.perf_counter() - start) * 1e3)
    return times


def time_ours(ours, directory, h, repeats):
    result = subprocess.run([ours, directory, str(h), str(repeats)], check=True, capture_output=True, text=True)
    return [float(line.split()[1]) for line in result.stdout.splitlines() if line.startswith("ms ")]


def check(directory, arrays, h):
    """Largest |ours - PyTorch's| of the output and of every head's attention weights."""
    with torch.inference_mode():
        output, weights = torch_call(arrays, h, "per-head A")()
    ours_output = np.load(os.path.join(directory, "ours_output.npy"))
    ours_weights = np.load(os.path.join(directory, "ours_attention_weights.npy"))
    output_diff = float(np.abs(ours_output - output[:, 0, :].numpy()).max())
    weights_diff = float(np.abs(ours_weights - weights[0].numpy()).max())
    return output_diff, weights_diff


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ours", default="build/release/bench/bench_vs_torch", help="path of the bench_vs_torch binary")
    parser.add_argument("--rounds", type=int, default=5, help="alternations of PyTorch and ours per shape")
    parser.add_argument("--repeats", type=int, default=5, help="timed calls per side per round")
    parser.add_argument("--threads", type=int, default=2, help="torch.set_num_threads")
    parser.add_argument("--openblas-coretype", metavar="NAME", help="OPENBLAS_CORETYPE for torch (default: unset)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    print(f"PyTorch {torch.__version__}, {torch.get_num_threads()} threads, CPU, OpenBLAS kernel {openblas_core()}; "
          f"ours: {args.ours}")
    modes = ["default", "per-head A", "output only"]
    failed = False
    summary = []
    for l, d_model, h in SHAPES:
        with tempfile.TemporaryDirectory(prefix="attnviz-vs-torch-") as directory:
            arrays = write_inputs(directory, l, d_model, seed=l + d_model + h)
            calls = {mode: torch_call(arrays, h, mode) for mode in modes}
            torch_times = {mode: [] for mode in modes}
            ours_times = []
            ratios = {mode: [] for mode in modes}
            for _ in range(args.rounds):
                round_ours = time_ours(args.ours, directory, h, args.repeats)
                ours_times += round_ours
                for mode in modes:
                    round_torch = time_torch(calls[mode], args.repeats)
                    torch_times[mode] += round_torch
                    ratios[mode].append(statistics.median(round_ours) / statistics.median(round_torch))
            output_diff, weights_diff = check(directory, arrays, h)
        ok = output_diff <= TOLERANCE and weights_diff <= TOLERANCE
        failed |= not ok
        print(f"\n(l, d_model, h) = ({l}, {d_model}, {h}): max |ours - torch| output {output_diff:.2e}, "
              f"attention weights {weights_diff:.2e} ({'ok' if ok else 'FAIL'}, tolerance {TOLERANCE:g})")
        print(f"  ours                     {statistics.median(ours_times):9.2f} ms (median of {len(ours_times)})")
        for mode in modes:
            ratio = statistics.median(ratios[mode])
            print(f"  torch {mode:<18} {statistics.median(torch_times[mode]):9.2f} ms   ours / torch = {ratio:.3f}")
        summary.append((l, d_model, h, statistics.median(ratios["default"])))
    print(f"\n{'(l, d_model, h)':<20} {'ours / torch (default call)':>28} {'target':>8}")
    for l, d_model, h, ratio in summary:
        verdict = "met" if ratio <= TARGET else "NOT met"
        print(f"{f'({l}, {d_model}, {h})':<20} {ratio:>28.3f} {f'<= {TARGET}':>8} {verdict}")
    print("(ratio = median over rounds of ours median / torch median, the two timed alternately in this run)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
