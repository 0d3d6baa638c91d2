#!/usr/bin/python3
"""Writes tiny GPT-2 and BERT checkpoints in HuggingFace's folder layout, and what an independent PyTorch
implementation of each architecture computes on them: the hidden states and attention weights of every layer.

Run with Debian's Python (python3-numpy, python3-torch):  /usr/bin/python3 tests/reference/make_transformer_fixtures.py
It rewrites tests/reference/models/ (a few hundred KB); tests/core/test_transformer_reference.cpp reads it.

The PyTorch code below follows HuggingFace's modeling_gpt2.py and modeling_bert.py, written out here so attnviz's C++
is checked against something it does not share: GPT-2 is pre-LN with Conv1D weights stored in × out, gelu_new and a
causal mask, ln_f at the end; BERT is post-LN with nn.Linear weights stored out × in, exact GELU, learned positions
plus token type 0 and an embedding LayerNorm. Hidden states are what output_hidden_states returns (n_layers + 1
entries: the embeddings, each block's output, and for GPT-2 the last one after ln_f).

Every weight is a multiple of 2^-7 below 2 in magnitude, so F32, F16 and BF16 store it exactly: the folders below
keep the same numbers in different dtypes and under both naming variants, and share one set of expectations.
"""
import json
import math
import os
import shutil
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "train"))
import model_files  # noqa: E402  (safetensors and GPT-2's byte alphabet, shared with the training scripts)
OUT = os.path.join(HERE, "models")

# Two sentences of different lengths (run one at a time: the expectations are per sentence, unpadded).
GPT2_IDS = [[5, 17, 42, 9, 100, 3, 255], [7, 8, 250, 261]]
BERT_IDS = [[2, 10, 11, 12, 13, 3], [2, 40, 41, 3]]


def quantized(shape, std, generator, mean=0.0):
    values = torch.randn(*shape, generator=generator) * std + mean
    return (torch.round(values * 128.0) / 128.0).clamp(-1.9921875, 1.9921875)


# [SECTION] safetensors, written by hand (Debian has no safetensors package)

def write_safetensors(path, tensors, dtype):
    """tensors: name -> float32 torch tensor, each exact in dtype ("F32", "F16" or "BF16")."""
    model_files.write_safetensors(path, {name: t.numpy() for name, t in tensors.items()}, dtype,
                                  "make_transformer_fixtures.py", exact=True)


# [SECTION] GPT-2

GPT2 = {"model_type": "gpt2", "n_layer": 3, "n_embd": 32, "n_head": 4, "n_inner": None, "n_positions": 16,
        "n_ctx": 16, "vocab_size": 262, "layer_norm_epsilon": 1e-5, "activation_function": "gelu_new"}


def gpt2_weights(generator):
    c = GPT2
    d, f = c["n_embd"], 4 * c["n_embd"]
    w = {"wte.weight": quantized((c["vocab_size"], d), 0.3, generator), "wpe.weight": quantized((c["n_positions"], d), 0.1, generator),
         "ln_f.weight": quantized((d,), 0.1, generator, 1.0), "ln_f.bias": quantized((d,), 0.1, generator)}
    for i in range(c["n_layer"]):
        p = f"h.{i}."
        w[p + "ln_1.weight"] = quantized((d,), 0.1, generator, 1.0)
        w[p + "ln_1.bias"] = quantized((d,), 0.1, generator)
        w[p + "attn.c_attn.weight"] = quantized((d, 3 * d), 0.25, generator)  # Conv1D: in x out
        w[p + "attn.c_attn.bias"] = quantized((3 * d,), 0.1, generator)
        w[p + "attn.c_proj.weight"] = quantized((d, d), 0.2, generator)
        w[p + "attn.c_proj.bias"] = quantized((d,), 0.1, generator)
        w[p + "ln_2.weight"] = quantized((d,), 0.1, generator, 1.0)
        w[p + "ln_2.bias"] = quantized((d,), 0.1, generator)
        w[p + "mlp.c_fc.weight"] = quantized((d, f), 0.2, generator)
        w[p + "mlp.c_fc.bias"] = quantized((f,), 0.1, generator)
        w[p + "mlp.c_proj.weight"] = quantized((f, d), 0.1, generator)
        w[p + "mlp.c_proj.bias"] = quantized((d,), 0.1, generator)
    return w


def gelu_new(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


def gpt2_forward(w, ids, z_hook=None):
    """z_hook(layer, z), when given, sees each layer's concatenated head outputs z (l x h*d_k) before c_proj and
    returns what c_proj gets: make_analysis_fixtures.py switches heads off with it."""
    c = GPT2
    d, heads, eps = c["n_embd"], c["n_head"], c["layer_norm_epsilon"]
    dk, length = d // heads, len(ids)
    h = w["wte.weight"][ids] + w["wpe.weight"][:length]
    hidden, attentions = [], []
    causal = torch.tril(torch.ones(length, length, dtype=torch.bool))
    for i in range(c["n_layer"]):
        p = f"h.{i}."
        hidden.append(h)
        x = torch.nn.functional.layer_norm(h, (d,), w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
        q, k, v = (x @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]).split(d, dim=-1)
        q, k, v = (t.view(length, heads, dk).transpose(0, 1) for t in (q, k, v))
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(dk)
        weights = torch.softmax(scores.masked_fill(~causal, torch.finfo(torch.float32).min), dim=-1)
        attentions.append(weights)
        z = (weights @ v).transpose(0, 1).reshape(length, d)
        z = z_hook(i, z) if z_hook else z
        h = h + z @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"]
        m = torch.nn.functional.layer_norm(h, (d,), w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
        h = h + gelu_new(m @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"]) @ w[p + "mlp.c_proj.weight"] + w[p + "mlp.c_proj.bias"]
    hidden.append(torch.nn.functional.layer_norm(h, (d,), w["ln_f.weight"], w["ln_f.bias"], eps))
    return torch.stack(hidden), torch.stack(attentions)


def gpt2_tokenizer_files(folder):
    """The 256 byte pieces, a few merges and <|endoftext|>: 262 pieces, as the config says."""
    stand_in = model_files.byte_alphabet()
    vocab = {stand_in[b]: b for b in range(256)}
    merges = [("Ġ", "t"), ("h", "e"), ("Ġt", "he"), ("a", "t"), ("Ġ", "c")]
    for rank, (left, right) in enumerate(merges):
        vocab[left + right] = 256 + rank
    vocab["<|endoftext|>"] = 261
    with open(os.path.join(folder, "vocab.json"), "w", encoding="utf-8") as f:
        json.dump(vocab, f, ensure_ascii=False)
    with open(os.path.join(folder, "merges.txt"), "w", encoding="utf-8") as f:
        f.write("#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in merges))


# [SECTION] BERT

BERT = {"model_type": "bert", "num_hidden_layers": 3, "hidden_size": 32, "num_attention_heads": 4, "intermediate_size": 64,
        "max_position_embeddings": 16, "vocab_size": 64, "type_vocab_size": 2, "layer_norm_eps": 1e-12, "hidden_act": "gelu",
        "position_embedding_type": "absolute"}


def bert_weights(generator):
    c = BERT
    d, f = c["hidden_size"], c["intermediate_size"]
    w = {"embeddings.word_embeddings.weight": quantized((c["vocab_size"], d), 0.3, generator),
         "embeddings.position_embeddings.weight": quantized((c["max_position_embeddings"], d), 0.1, generator),
         "embeddings.token_type_embeddings.weight": quantized((c["type_vocab_size"], d), 0.1, generator),
         "embeddings.LayerNorm.weight": quantized((d,), 0.1, generator, 1.0), "embeddings.LayerNorm.bias": quantized((d,), 0.1, generator)}
    for i in range(c["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        for name in ("query", "key", "value"):  # nn.Linear: out x in
            w[p + f"attention.self.{name}.weight"] = quantized((d, d), 0.25, generator)
            w[p + f"attention.self.{name}.bias"] = quantized((d,), 0.1, generator)
        w[p + "attention.output.dense.weight"] = quantized((d, d), 0.2, generator)
        w[p + "attention.output.dense.bias"] = quantized((d,), 0.1, generator)
        w[p + "attention.output.LayerNorm.weight"] = quantized((d,), 0.1, generator, 1.0)
        w[p + "attention.output.LayerNorm.bias"] = quantized((d,), 0.1, generator)
        w[p + "intermediate.dense.weight"] = quantized((f, d), 0.2, generator)
        w[p + "intermediate.dense.bias"] = quantized((f,), 0.1, generator)
        w[p + "output.dense.weight"] = quantized((d, f), 0.15, generator)
        w[p + "output.dense.bias"] = quantized((d,), 0.1, generator)
        w[p + "output.LayerNorm.weight"] = quantized((d,), 0.1, generator, 1.0)
        w[p + "output.LayerNorm.bias"] = quantized((d,), 0.1, generator)
    return w


def bert_forward(w, ids, z_hook=None):
    """z_hook as gpt2_forward's, before attention.output.dense."""
    c = BERT
    d, heads, eps = c["hidden_size"], c["num_attention_heads"], c["layer_norm_eps"]
    dk, length = d // heads, len(ids)
    linear = lambda x, name: x @ w[name + ".weight"].T + w[name + ".bias"]
    norm = lambda x, name: torch.nn.functional.layer_norm(x, (d,), w[name + ".weight"], w[name + ".bias"], eps)
    e = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:length] + w["embeddings.token_type_embeddings.weight"][0]
    h = norm(e, "embeddings.LayerNorm")
    hidden, attentions = [h], []
    for i in range(c["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        q, k, v = (linear(h, p + f"attention.self.{n}").view(length, heads, dk).transpose(0, 1) for n in ("query", "key", "value"))
        weights = torch.softmax((q @ k.transpose(-1, -2)) / math.sqrt(dk), dim=-1)
        attentions.append(weights)
        context = (weights @ v).transpose(0, 1).reshape(length, d)
        context = z_hook(i, context) if z_hook else context
        a = norm(linear(context, p + "attention.output.dense") + h, p + "attention.output.LayerNorm")
        inner = torch.nn.functional.gelu(linear(a, p + "intermediate.dense"))  # exact erf GELU
        h = norm(linear(inner, p + "output.dense") + a, p + "output.LayerNorm")
        hidden.append(h)
    return torch.stack(hidden), torch.stack(attentions)


def bert_tokenizer_files(folder):
    pieces = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + [chr(c) for c in range(ord("a"), ord("z") + 1)]
    pieces += ["##" + chr(c) for c in range(ord("a"), ord("z") + 1)] + ["the", "cat", "sat", "."]
    pieces += [f"[unused{i}]" for i in range(BERT["vocab_size"] - len(pieces))]
    with open(os.path.join(folder, "vocab.txt"), "w", encoding="utf-8") as f:
        f.write("".join(p + "\n" for p in pieces))
    with open(os.path.join(folder, "tokenizer_config.json"), "w") as f:
        json.dump({"do_lower_case": True}, f)


# [SECTION] the folders

def bert_original_names(w):
    """bert-base-uncased's own file: "bert." prefix, LayerNorm gamma/beta, plus heads attnviz ignores."""
    renamed = {}
    for name, value in w.items():
        if "LayerNorm" in name:
            name = name.replace(".weight", ".gamma").replace(".bias", ".beta")
        renamed["bert." + name] = value
    d = BERT["hidden_size"]
    renamed["bert.pooler.dense.weight"] = torch.zeros(d, d)
    renamed["bert.pooler.dense.bias"] = torch.zeros(d)
    renamed["cls.predictions.bias"] = torch.zeros(BERT["vocab_size"])
    return renamed


def gpt2_original_names(w):
    """transformers' GPT2LMHeadModel: "transformer." prefix, causal-mask buffers and lm_head, which attnviz ignores."""
    renamed = {"transformer." + name: value for name, value in w.items()}
    for i in range(GPT2["n_layer"]):
        renamed[f"transformer.h.{i}.attn.bias"] = torch.tril(torch.ones(16, 16)).view(1, 1, 16, 16)
        renamed[f"transformer.h.{i}.attn.masked_bias"] = torch.tensor(-1e4)
    renamed["lm_head.weight"] = w["wte.weight"].clone()
    return renamed


def write_folder(name, config, tensors, dtype, tokenizer_files):
    folder = os.path.join(OUT, name)
    os.makedirs(folder)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    write_safetensors(os.path.join(folder, "model.safetensors"), tensors, dtype)
    tokenizer_files(folder)


def save_expectations(family, forward, weights, id_lists):
    for index, ids in enumerate(id_lists):
        hidden, attentions = forward(weights, ids)
        np.save(os.path.join(OUT, f"{family}_hidden_{index}.npy"), hidden.numpy().astype(np.float32))
        np.save(os.path.join(OUT, f"{family}_attention_{index}.npy"), attentions.numpy().astype(np.float32))
    with open(os.path.join(OUT, f"{family}_ids.json"), "w") as f:
        json.dump(id_lists, f)


def main():
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(20261124)
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    gpt2 = gpt2_weights(generator)
    write_folder("gpt2-hf-names", GPT2, gpt2_original_names(gpt2), "F32", gpt2_tokenizer_files)
    write_folder("gpt2-plain-bf16", GPT2, gpt2, "BF16", gpt2_tokenizer_files)
    save_expectations("gpt2", gpt2_forward, gpt2, GPT2_IDS)
    bert = bert_weights(generator)
    write_folder("bert-original-names", BERT, bert_original_names(bert), "F32", bert_tokenizer_files)
    write_folder("bert-plain-f16", BERT, bert, "F16", bert_tokenizer_files)
    save_expectations("bert", bert_forward, bert, BERT_IDS)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
