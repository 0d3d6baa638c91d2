#!/usr/bin/python3
"""Reference fixtures for attnviz's forward pass, computed by an independent, plain NumPy implementation.

Written from the math (Vaswani et al. 2017, §3.2) and PyTorch's semantics (the Annotated Transformer's
MultiHeadedAttention; nn.MultiheadAttention for the -inf fill), not from attnviz's C++. Run it with Debian's
NumPy to regenerate every folder under fixtures/:

    /usr/bin/python3 tests/reference/make_fixtures.py

Each fixtures/<name>/ holds
  config.json       every parameter (sizes, mask, fill, softmax mode, scale, lengths, the NumPy seed)
  inputs            x.npy (b × l_k × d_model, zero rows after each sentence's length), x_query.npy (cross only,
                    b × l_q × d_model), w_q w_k (d_model × h·d_k), w_v (d_model × h·d_v), w_o (h·d_v × d_model),
                    and b_q b_k b_v b_o (1-D) when the layer has biases
  expected values   q k v, q_heads k_heads v_heads, scores, scaled_scores, mask (absent for mask "none"),
                    masked_scores, attention_weights, z_heads, concat, output — named like attnviz's TensorInfo
                    keys, with PyTorch's shapes, stored as float32 but computed in float64 from the float32 inputs.
  lessons           (LESSON_FIXTURES only) naive_attention_weights, naive_output: core::naiveSlicingAttention;
                    pooled_mean, pooled_cls (b × d_model): the pooled vectors of core::poolAndClassify.
tests/core/test_reference.cpp feeds the inputs to core::forward and compares every expected tensor, and the
lessons' computations on that Trace.

What this script deliberately does not do: tokenize or embed (X is random here), or copy attnviz's weight init
(the weights are random normals that the test feeds in).
"""
import json
import math
import pathlib
import shutil
import zlib

import numpy as np

FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"

# One entry per fixture. Omitted keys take DEFAULTS; "query_lengths" makes it cross-attention.
CONFIGS = [
    dict(name="default", description="The app's default sizes: one 11-token sentence, d_model 64, 8 heads.",
         d_model=64, heads=8, lengths=[11]),
    dict(name="l1", description="A single token: every score matrix is 1 × 1 and every weight is 1.",
         d_model=16, heads=4, lengths=[1]),
    dict(name="odd", description="Odd sizes: d_model 6, 3 heads of d_k = 2, 5 tokens.",
         d_model=6, heads=3, lengths=[5]),
    dict(name="padding", description="A batch of 3 sentences of lengths 5, 3, 7, padded to 7, with a padding mask.",
         d_model=16, heads=4, lengths=[5, 3, 7], mask="padding"),
    dict(name="causal", description="A causal mask on one 6-token sentence.",
         d_model=16, heads=4, lengths=[6], mask="causal"),
    dict(name="both", description="Padding and causal masks together on a batch of 2 (lengths 6 and 4).",
         d_model=16, heads=4, lengths=[6, 4], mask="both"),
    dict(name="cross", description="Cross-attention: 4 decoder queries attend to 6 encoder keys.",
         d_model=16, heads=4, lengths=[6], query_lengths=[4]),
    dict(name="cross_padding", description="Cross-attention on a batch of 2 with a key-side padding mask.",
         d_model=16, heads=2, lengths=[6, 3], query_lengths=[4, 5], mask="padding"),
    dict(name="free_dk_dv", description="Free head sizes d_k = 5, d_v = 2 (h·d_v != d_model) with biases.",
         d_model=12, heads=3, d_k=5, d_v=2, biases=True, lengths=[7]),
    dict(name="fill_inf", description="Padding + causal masks filled with -inf, PyTorch softmax mode.",
         d_model=16, heads=4, lengths=[6, 4], mask="both", fill="-inf", softmax="pytorch"),
    dict(name="custom_scale", description="An explicit score scale of 0.3 instead of 1/sqrt(d_k), causal, biases.",
         d_model=8, heads=2, lengths=[5], mask="causal", scale=0.3, biases=True),
]

DEFAULTS = dict(d_k=None, d_v=None, mask="none", fill="-1e9", softmax="safe", scale=None, biases=False,
                query_lengths=None)

# Fixtures that also get the lessons' computations (core/lessons.h), written beside the forward pass's files:
# naive_attention_weights, naive_output (naive slicing) and pooled_mean, pooled_cls (b × d_model).
LESSON_FIXTURES = {"padding", "cross_padding"}

FILL_VALUES = {"-1e9": -1e9, "-inf": -math.inf}


# [SECTION] the forward pass, one step per stage of docs/design.md, float64 throughout

def linear(rows, weight, bias):
    """rows: ... × n, weight: n × m, bias: m or None → ... × m (the same weight for every row)."""
    out = rows @ weight
    return out if bias is None else out + bias


def split_heads(fused, heads):
    """b × l × h·w → b × h × l × w: head i takes columns i·w … (i+1)·w − 1 (PyTorch's view + transpose)."""
    b, l, width = fused.shape
    return fused.reshape(b, l, heads, width // heads).transpose(0, 2, 1, 3)


def concat_heads(split):
    """b × h × l × w → b × l × h·w, the inverse of split_heads."""
    b, h, l, w = split.shape
    return split.transpose(0, 2, 1, 3).reshape(b, l, h * w)


def build_mask(kind, key_lengths, l_q, l_k):
    """1 = keep, 0 = masked. Padding: b × 1 × 1 × l_k; causal and both: b × 1 × l_q × l_k; none: None."""
    if kind == "none":
        return None
    b = len(key_lengths)
    real_key = np.arange(l_k)[None, :] < np.array(key_lengths)[:, None]   # b × l_k
    padding = real_key[:, None, None, :]                                   # b × 1 × 1 × l_k
    causal = np.tril(np.ones((l_q, l_k), dtype=bool))[None, None, :, :]    # 1 × 1 × l_q × l_k: key c ≤ query r
    if kind == "padding":
        keep = padding
    elif kind == "causal":
        keep = np.broadcast_to(causal, (b, 1, l_q, l_k))
    elif kind == "both":
        keep = padding & causal
    else:
        raise ValueError(f"unknown mask {kind!r}")
    return keep.astype(np.float64)


def softmax_rows(masked_scores, mask, mode):
    """Row-wise softmax subtracting the row max. A row whose every key is masked gives zeros in "safe" mode and
    whatever the literal formula gives in "pytorch" mode (uniform with a -1e9 fill, NaN with -inf)."""
    with np.errstate(invalid="ignore"):
        shifted = masked_scores - masked_scores.max(axis=-1, keepdims=True)
        exps = np.exp(shifted)
        weights = exps / exps.sum(axis=-1, keepdims=True)
    if mode == "safe" and mask is not None:
        fully_masked = np.broadcast_to((mask == 0).all(axis=-1, keepdims=True), weights.shape)
        weights = np.where(fully_masked, 0.0, weights)
    return weights


def forward(cfg, x, x_query, weights):
    """Every intermediate of multi-head attention, keyed by attnviz's tensor names."""
    h, d_k = cfg["heads"], cfg["d_k"]
    query_side = x if x_query is None else x_query                   # b × l_q × d_model
    t = {}
    t["q"] = linear(query_side, weights["w_q"], weights.get("b_q"))  # b × l_q × h·d_k
    t["k"] = linear(x, weights["w_k"], weights.get("b_k"))           # b × l_k × h·d_k
    t["v"] = linear(x, weights["w_v"], weights.get("b_v"))           # b × l_k × h·d_v
    t["q_heads"] = split_heads(t["q"], h)                            # b × h × l_q × d_k
    t["k_heads"] = split_heads(t["k"], h)                            # b × h × l_k × d_k
    t["v_heads"] = split_heads(t["v"], h)                            # b × h × l_k × d_v
    t["scores"] = t["q_heads"] @ t["k_heads"].transpose(0, 1, 3, 2)  # b × h × l_q × l_k
    t["scaled_scores"] = t["scores"] * cfg["resolved_scale"]
    mask = build_mask(cfg["mask"], cfg["lengths"], query_side.shape[1], x.shape[1])
    if mask is not None:
        t["mask"] = mask
    keep = np.ones_like(t["scaled_scores"]) if mask is None else np.broadcast_to(mask, t["scaled_scores"].shape)
    t["masked_scores"] = np.where(keep == 1, t["scaled_scores"], FILL_VALUES[cfg["fill"]])
    t["attention_weights"] = softmax_rows(t["masked_scores"], mask, cfg["softmax"])
    t["z_heads"] = t["attention_weights"] @ t["v_heads"]             # b × h × l_q × d_v
    t["concat"] = concat_heads(t["z_heads"])                         # b × l_q × h·d_v
    t["output"] = linear(t["concat"], weights["w_o"], weights.get("b_o"))  # b × l_q × d_model
    return t


# [SECTION] the lessons: naive slicing (the wrong model "do heads split X?" asks about) and pooling

def naive_slicing(cfg, x, x_query, weights):
    """Head i sees only columns i·d_k … (i+1)·d_k − 1 of X and the d_k × d_k diagonal block of W^Q, W^K, W^V
    (no q/k/v biases); masked and softmaxed as the fixture says, fully masked rows as zeros; then W^O (+ b_o)."""
    h, d_k = cfg["heads"], cfg["d_k"]
    query_side = x if x_query is None else x_query
    b, l_q, l_k = query_side.shape[0], query_side.shape[1], x.shape[1]
    mask = build_mask(cfg["mask"], cfg["lengths"], l_q, l_k)
    head_mask = None if mask is None else mask[:, 0]                    # b × (1 or l_q) × l_k
    attention = np.zeros((b, h, l_q, l_k))
    concat = np.zeros((b, l_q, h * d_k))
    for i in range(h):
        cols = slice(i * d_k, (i + 1) * d_k)
        q = query_side[:, :, cols] @ weights["w_q"][cols, cols]          # b × l_q × d_k
        k = x[:, :, cols] @ weights["w_k"][cols, cols]                   # b × l_k × d_k
        v = x[:, :, cols] @ weights["w_v"][cols, cols]
        scores = (q @ k.transpose(0, 2, 1)) * cfg["resolved_scale"]      # b × l_q × l_k
        if head_mask is not None:
            scores = np.where(np.broadcast_to(head_mask, scores.shape) == 1, scores, FILL_VALUES[cfg["fill"]])
        attention[:, i] = softmax_rows(scores, head_mask, "safe")
        concat[:, :, cols] = attention[:, i] @ v
    return {"naive_attention_weights": attention, "naive_output": linear(concat, weights["w_o"], weights.get("b_o"))}


def pooling(cfg, output):
    """[CLS] pooling takes row 0 of O; mean pooling averages each sentence's real (unpadded) query rows."""
    lengths = cfg["query_lengths"] or cfg["lengths"]
    mean = np.stack([output[b, :length].mean(axis=0) for b, length in enumerate(lengths)])
    return {"pooled_mean": mean, "pooled_cls": output[:, 0]}


# [SECTION] inputs: random, rounded to float32 first so NumPy and attnviz start from the same numbers

def as_float32_then_64(array):
    return array.astype(np.float32).astype(np.float64)


def padded_rows(rng, lengths, d_model):
    """b × max(lengths) × d_model, standard normal rows, zeros after each sentence's length."""
    x = np.zeros((len(lengths), max(lengths), d_model))
    for b, length in enumerate(lengths):
        x[b, :length] = rng.standard_normal((length, d_model))
    return as_float32_then_64(x)


def random_weights(rng, cfg):
    """Normal weights with variance 1/fan_in (so activations stay near unit size), uniform biases."""
    d_model, hk, hv = cfg["d_model"], cfg["heads"] * cfg["d_k"], cfg["heads"] * cfg["d_v"]
    shapes = {"w_q": (d_model, hk), "w_k": (d_model, hk), "w_v": (d_model, hv), "w_o": (hv, d_model)}
    weights = {name: as_float32_then_64(rng.standard_normal(shape) / math.sqrt(shape[0])) for name, shape in shapes.items()}
    if cfg["biases"]:
        for name, width in (("b_q", hk), ("b_k", hk), ("b_v", hv), ("b_o", d_model)):
            weights[name] = as_float32_then_64(rng.uniform(-0.1, 0.1, width))
    return weights


def resolve(entry):
    cfg = {"name": entry["name"], "description": entry["description"], **DEFAULTS, **entry}
    cfg["d_k"] = cfg["d_k"] or cfg["d_model"] // cfg["heads"]
    cfg["d_v"] = cfg["d_v"] or cfg["d_model"] // cfg["heads"]
    cfg["cross"] = cfg["query_lengths"] is not None
    cfg["batch"] = len(cfg["lengths"])
    cfg["resolved_scale"] = cfg["scale"] if cfg["scale"] is not None else 1.0 / math.sqrt(cfg["d_k"])
    cfg["numpy_seed"] = zlib.crc32(cfg["name"].encode())  # stable per name, whatever the order of CONFIGS
    return cfg


# [SECTION] writing

def save(folder, name, array):
    np.save(folder / f"{name}.npy", np.ascontiguousarray(array, dtype="<f4"), allow_pickle=False)


def write_fixture(entry):
    cfg = resolve(entry)
    rng = np.random.default_rng(cfg["numpy_seed"])
    x = padded_rows(rng, cfg["lengths"], cfg["d_model"])
    x_query = padded_rows(rng, cfg["query_lengths"], cfg["d_model"]) if cfg["cross"] else None
    weights = random_weights(rng, cfg)
    expected = forward(cfg, x, x_query, weights)
    if cfg["name"] in LESSON_FIXTURES:
        expected.update(naive_slicing(cfg, x, x_query, weights))
        expected.update(pooling(cfg, expected["output"]))

    folder = FIXTURES / cfg["name"]
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    save(folder, "x", x)
    if x_query is not None:
        save(folder, "x_query", x_query)
    for name, array in {**weights, **expected}.items():
        save(folder, name, array)
    (folder / "config.json").write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
    return folder


def main():
    FIXTURES.mkdir(exist_ok=True)
    names = {entry["name"] for entry in CONFIGS}
    for stale in FIXTURES.iterdir():
        if stale.is_dir() and stale.name not in names:
            shutil.rmtree(stale)
    for entry in CONFIGS:
        folder = write_fixture(entry)
        size = sum(path.stat().st_size for path in folder.iterdir())
        print(f"{folder.relative_to(FIXTURES.parent.parent.parent)}: {size / 1024:.1f} KiB")


if __name__ == "__main__":
    main()
