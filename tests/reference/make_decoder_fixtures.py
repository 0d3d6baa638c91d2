#!/usr/bin/python3
"""Writes tiny Llama-family decoders (HF model_type llama, mistral, qwen2, qwen3) in HuggingFace's folder layout, and
what an independent float64 PyTorch forward computes on them: every layer's hidden states and attention weights of each
sentence, and the next-token logits at every position of the first.

Run with Debian's Python (python3-numpy, python3-torch):  /usr/bin/python3 tests/reference/make_decoder_fixtures.py
It rewrites tests/reference/decoders/ (a few hundred KB); tests/core/test_transformer_reference.cpp reads it.

The forward below is transcribed from HuggingFace transformers, not from attnviz (each piece cites its source):
  models/llama/modeling_llama.py   LlamaRMSNorm.forward, LlamaRotaryEmbedding.forward, rotate_half,
                                   apply_rotary_pos_emb, repeat_kv, eager_attention_forward, LlamaAttention.forward,
                                   LlamaMLP.forward, LlamaDecoderLayer.forward, LlamaModel.forward, LlamaForCausalLM
  models/qwen2/modeling_qwen2.py   Qwen2Attention: q/k/v_proj with bias=True, o_proj without
  models/qwen3/modeling_qwen3.py   Qwen3Attention.forward: q_norm / k_norm (RMSNorm over head_dim) on the
                                   projections viewed as heads, before RoPE; head_dim from the config
  modeling_rope_utils.py           _compute_default_rope_parameters, _compute_llama3_parameters
  masking_utils.py                 causal_mask_function (kv <= q), sliding_window_overlay (kv > q - W)
  configuration_qwen2.py           layer_types: "sliding_attention" for layers >= max_window_layers when
                                   use_sliding_window
Hidden states are what output_hidden_states returns: the embeddings, the input of each later layer, and last the
output of the final norm. Attention weights are one map per query head (repeat_kv shares K/V heads).

Every weight is a multiple of 2^-7 below 2 in magnitude (make_transformer_fixtures.quantized), so F32, F16 and BF16
store it exactly. Each folder carries GPT-2-style vocab.json + merges.txt (262 byte-level pieces) so attnviz can open
it as a model; the tests feed token ids directly.
"""
import json
import math
import os
import shutil
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_transformer_fixtures import gpt2_tokenizer_files, quantized, write_safetensors  # noqa: E402

OUT = os.path.join(HERE, "decoders")

# A ragged batch: 7 tokens (longer than the sliding windows below) and 4.
IDS = [[5, 17, 42, 9, 100, 3, 255], [7, 8, 250, 261]]
VOCAB = 262

# Each folder switches on the features named in its name; d_ff small to keep the files small.
MODELS = {
    # Llama 3 / SmolLM: GQA 8:2, explicit head_dim 6 (three RoPE frequencies: one kept, one in llama3's smoothed
    # band, one slowed by `factor`), tied embeddings.
    "llama-gqa-llama3": ({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 48, "num_attention_heads": 8,
                          "num_key_value_heads": 2, "head_dim": 6, "intermediate_size": 24, "max_position_embeddings": 32,
                          "rms_norm_eps": 1e-5, "rope_theta": 10000.0, "vocab_size": VOCAB, "hidden_act": "silu",
                          "tie_word_embeddings": True, "attention_bias": False,
                          "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                           "high_freq_factor": 4.0, "original_max_position_embeddings": 512}}, "F32", 1),
    # Multi-query (one K/V head), its own lm_head, BF16.
    "llama-mqa-bf16": ({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 32, "num_attention_heads": 4,
                        "num_key_value_heads": 1, "intermediate_size": 24, "max_position_embeddings": 32, "rms_norm_eps": 1e-6,
                        "rope_theta": 500.0, "vocab_size": VOCAB, "hidden_act": "silu", "tie_word_embeddings": False,
                        "rope_scaling": None}, "BF16", 1),
    # Qwen2: q/k/v biases, sliding window 3 on layer 1 only (max_window_layers 1), two shards with an index.
    "qwen2-bias-window-sharded": ({"model_type": "qwen2", "num_hidden_layers": 2, "hidden_size": 32, "num_attention_heads": 4,
                                   "num_key_value_heads": 2, "intermediate_size": 24, "max_position_embeddings": 32,
                                   "rms_norm_eps": 1e-6, "rope_theta": 1000.0, "vocab_size": VOCAB, "hidden_act": "silu",
                                   "tie_word_embeddings": False, "use_sliding_window": True, "sliding_window": 3,
                                   "max_window_layers": 1}, "F32", 2),
    # Qwen3: per-head q/k RMSNorm, head_dim 12 with 4 heads (h·head_dim = 48 ≠ hidden_size 32), F16.
    "qwen3-qknorm-headdim": ({"model_type": "qwen3", "num_hidden_layers": 2, "hidden_size": 32, "num_attention_heads": 4,
                              "num_key_value_heads": 2, "head_dim": 12, "intermediate_size": 24, "max_position_embeddings": 32,
                              "rms_norm_eps": 1e-6, "rope_theta": 1000000.0, "vocab_size": VOCAB, "hidden_act": "silu",
                              "tie_word_embeddings": True, "attention_bias": False, "use_sliding_window": False}, "F16", 1),
    # Mistral: sliding window 4 on every layer (the 7-token sentence is longer), F16.
    "mistral-window": ({"model_type": "mistral", "num_hidden_layers": 2, "hidden_size": 32, "num_attention_heads": 4,
                        "num_key_value_heads": 2, "intermediate_size": 24, "max_position_embeddings": 32, "rms_norm_eps": 1e-5,
                        "rope_theta": 10000.0, "vocab_size": VOCAB, "hidden_act": "silu", "tie_word_embeddings": False,
                        "sliding_window": 4}, "F16", 1),
}


# [SECTION] the config's derived values

def head_dim(c):
    return c.get("head_dim") or c["hidden_size"] // c["num_attention_heads"]


def has_qkv_bias(c):
    return c["model_type"] == "qwen2" or c.get("attention_bias", False)


def has_o_bias(c):
    return c["model_type"] != "qwen2" and c.get("attention_bias", False)


def layer_windows(c):
    """configuration_mistral.py: sliding_window on every layer; configuration_qwen2.py / _qwen3.py: layer_types."""
    n = c["num_hidden_layers"]
    if c["model_type"] == "mistral":
        return [c.get("sliding_window")] * n
    if c["model_type"] in ("qwen2", "qwen3") and c.get("use_sliding_window"):
        return [c["sliding_window"] if i >= c["max_window_layers"] else None for i in range(n)]
    return [None] * n


# [SECTION] weights, HF names (nn.Linear: out x in)

def decoder_weights(c, generator):
    d, f, hd = c["hidden_size"], c["intermediate_size"], head_dim(c)
    q, kv = c["num_attention_heads"] * hd, c["num_key_value_heads"] * hd
    w = {"model.embed_tokens.weight": quantized((VOCAB, d), 0.5, generator),
         "model.norm.weight": quantized((d,), 0.1, generator, 1.0)}
    if not c["tie_word_embeddings"]:
        w["lm_head.weight"] = quantized((VOCAB, d), 0.3, generator)
    for i in range(c["num_hidden_layers"]):
        p = f"model.layers.{i}."
        w[p + "input_layernorm.weight"] = quantized((d,), 0.1, generator, 1.0)
        w[p + "post_attention_layernorm.weight"] = quantized((d,), 0.1, generator, 1.0)
        w[p + "self_attn.q_proj.weight"] = quantized((q, d), 0.15, generator)
        w[p + "self_attn.k_proj.weight"] = quantized((kv, d), 0.15, generator)
        w[p + "self_attn.v_proj.weight"] = quantized((kv, d), 0.3, generator)
        w[p + "self_attn.o_proj.weight"] = quantized((d, q), 0.2, generator)
        if has_qkv_bias(c):
            w[p + "self_attn.q_proj.bias"] = quantized((q,), 0.2, generator)
            w[p + "self_attn.k_proj.bias"] = quantized((kv,), 0.2, generator)
            w[p + "self_attn.v_proj.bias"] = quantized((kv,), 0.2, generator)
        if has_o_bias(c):
            w[p + "self_attn.o_proj.bias"] = quantized((d,), 0.1, generator)
        if c["model_type"] == "qwen3":
            w[p + "self_attn.q_norm.weight"] = quantized((hd,), 0.2, generator, 1.0)
            w[p + "self_attn.k_norm.weight"] = quantized((hd,), 0.2, generator, 1.0)
        w[p + "mlp.gate_proj.weight"] = quantized((f, d), 0.25, generator)
        w[p + "mlp.up_proj.weight"] = quantized((f, d), 0.25, generator)
        w[p + "mlp.down_proj.weight"] = quantized((d, f), 0.2, generator)
    return w


# [SECTION] the float64 forward, transcribed from transformers

def rms_norm(x, weight, eps):
    """modeling_llama.py LlamaRMSNorm.forward: x * rsqrt(mean(x^2) + eps), times weight."""
    variance = x.pow(2).mean(-1, keepdim=True)
    return weight * (x * torch.rsqrt(variance + eps))


def inverse_frequencies(c):
    """modeling_rope_utils.py _compute_default_rope_parameters, and _compute_llama3_parameters for rope_type llama3."""
    dim = head_dim(c)
    inv_freq = 1.0 / (c.get("rope_theta", 10000.0) ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim))
    scaling = c.get("rope_scaling")
    if not scaling or scaling.get("rope_type", scaling.get("type")) == "default":
        return inv_freq
    factor, low, high = scaling["factor"], scaling["low_freq_factor"], scaling["high_freq_factor"]
    old_context_len = scaling["original_max_position_embeddings"]
    low_freq_wavelen, high_freq_wavelen = old_context_len / low, old_context_len / high
    wavelen = 2 * math.pi / inv_freq
    inv_freq_llama = torch.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
    smooth_factor = (old_context_len / wavelen - low) / (high - low)
    smoothed_inv_freq = (1 - smooth_factor) * inv_freq_llama / factor + smooth_factor * inv_freq_llama
    is_medium_freq = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)
    return torch.where(is_medium_freq, smoothed_inv_freq, inv_freq_llama)


def rotary_cos_sin(c, length):
    """modeling_llama.py LlamaRotaryEmbedding.forward: freqs = positions x inv_freq, emb = cat(freqs, freqs)."""
    positions = torch.arange(length, dtype=torch.float64)
    freqs = torch.outer(positions, inverse_frequencies(c))
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()  # attention_scaling is 1.0 for default and llama3


def rotate_half(x):
    """modeling_llama.py rotate_half."""
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin):
    """modeling_llama.py apply_rotary_pos_emb (cos, sin broadcast over heads)."""
    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


def repeat_kv(x, n_rep):
    """modeling_llama.py repeat_kv: (kv_heads, l, hd) -> (kv_heads * n_rep, l, hd), each K/V head n_rep times in a row."""
    return x[:, None].expand(x.shape[0], n_rep, *x.shape[1:]).reshape(x.shape[0] * n_rep, *x.shape[1:])


def linear(x, w, name):
    y = x @ w[name + ".weight"].T
    return y + w[name + ".bias"] if name + ".bias" in w else y


def attention(c, w, p, x, window, z_hook=None):
    """modeling_llama.py LlamaAttention.forward + eager_attention_forward; Qwen3Attention.forward's q_norm / k_norm."""
    length, hd = x.shape[0], head_dim(c)
    heads, kv_heads = c["num_attention_heads"], c["num_key_value_heads"]
    q = linear(x, w, p + "self_attn.q_proj").view(length, heads, hd)
    k = linear(x, w, p + "self_attn.k_proj").view(length, kv_heads, hd)
    v = linear(x, w, p + "self_attn.v_proj").view(length, kv_heads, hd).transpose(0, 1)
    if c["model_type"] == "qwen3":
        q = rms_norm(q, w[p + "self_attn.q_norm.weight"], c["rms_norm_eps"])
        k = rms_norm(k, w[p + "self_attn.k_norm.weight"], c["rms_norm_eps"])
    q, k = q.transpose(0, 1), k.transpose(0, 1)
    cos, sin = (t.to(q.dtype) for t in rotary_cos_sin(c, length))  # float64 here; float32 in bench/torch_decoder.py
    q, k = apply_rotary_pos_emb(q, k, cos, sin)
    k, v = repeat_kv(k, heads // kv_heads), repeat_kv(v, heads // kv_heads)
    # masking_utils.py: causal_mask_function (kv <= q) and, on a sliding layer, sliding_window_overlay (kv > q - W)
    qi, ki = torch.arange(length)[:, None], torch.arange(length)[None, :]
    allowed = ki <= qi
    if window is not None:
        allowed &= ki > qi - window
    scores = (q @ k.transpose(-1, -2)) * hd ** -0.5
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    out = (weights @ v).transpose(0, 1).reshape(length, heads * hd)
    out = z_hook(out) if z_hook else out
    return linear(out, w, p + "self_attn.o_proj"), weights


def mlp(w, p, x):
    """modeling_llama.py LlamaMLP.forward: down_proj(act_fn(gate_proj(x)) * up_proj(x)), act_fn = silu."""
    return linear(torch.nn.functional.silu(linear(x, w, p + "mlp.gate_proj")) * linear(x, w, p + "mlp.up_proj"), w, p + "mlp.down_proj")


def decoder_forward(c, w, ids, with_logits=True, z_hook=None):
    """modeling_llama.py LlamaModel.forward with LlamaDecoderLayer.forward (pre-norm residual blocks), then
    LlamaForCausalLM's lm_head (the embedding table when tie_word_embeddings; skipped without `with_logits`).
    z_hook(layer, z), when given, sees each layer's concatenated head outputs before o_proj and returns what o_proj
    gets (make_analysis_fixtures.py switches heads off with it)."""
    eps = c["rms_norm_eps"]
    h = w["model.embed_tokens.weight"][ids]
    hidden, attentions = [], []
    for i, window in enumerate(layer_windows(c)):
        p = f"model.layers.{i}."
        hidden.append(h)
        attended, weights = attention(c, w, p, rms_norm(h, w[p + "input_layernorm.weight"], eps), window,
                                      (lambda z, layer=i: z_hook(layer, z)) if z_hook else None)
        attentions.append(weights)
        h = h + attended
        h = h + mlp(w, p, rms_norm(h, w[p + "post_attention_layernorm.weight"], eps))
    h = rms_norm(h, w["model.norm.weight"], eps)
    hidden.append(h)
    head = w["model.embed_tokens.weight"] if c["tie_word_embeddings"] else w["lm_head.weight"]
    return torch.stack(hidden), torch.stack(attentions), h @ head.T if with_logits else None


# [SECTION] the folders

def write_shards(folder, tensors, dtype, count):
    """model.safetensors, or `count` shards named as transformers names them plus model.safetensors.index.json."""
    if count == 1:
        write_safetensors(os.path.join(folder, "model.safetensors"), tensors, dtype)
        return
    names = sorted(tensors)
    weight_map = {}
    for shard in range(count):
        file = f"model-{shard + 1:05d}-of-{count:05d}.safetensors"
        part = {name: tensors[name] for name in names[shard::count]}
        write_safetensors(os.path.join(folder, file), part, dtype)
        weight_map.update({name: file for name in part})
    with open(os.path.join(folder, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": 0}, "weight_map": weight_map}, f, indent=2)


def main():
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(20261125)
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    with open(os.path.join(OUT, "ids.json"), "w") as f:
        json.dump(IDS, f)
    for name, (config, dtype, shards) in MODELS.items():
        folder = os.path.join(OUT, name)
        os.makedirs(folder)
        with open(os.path.join(folder, "config.json"), "w") as f:
            json.dump(config, f, indent=2)
        weights = decoder_weights(config, generator)
        write_shards(folder, weights, dtype, shards)
        gpt2_tokenizer_files(folder)
        exact = {key: value.double() for key, value in weights.items()}
        for index, ids in enumerate(IDS):
            hidden, attentions, logits = decoder_forward(config, exact, ids)
            np.save(os.path.join(OUT, f"{name}_hidden_{index}.npy"), hidden.numpy().astype(np.float32))
            np.save(os.path.join(OUT, f"{name}_attention_{index}.npy"), attentions.numpy().astype(np.float32))
            if index == 0:  # l x vocab, every position of the first sentence
                np.save(os.path.join(OUT, f"{name}_logits.npy"), logits.numpy().astype(np.float32))
    print("wrote", OUT)


if __name__ == "__main__":
    main()
