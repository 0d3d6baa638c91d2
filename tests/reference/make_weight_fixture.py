#!/usr/bin/python3
"""A trained-weights fixture for attnviz: PyTorch-layout parameters exported by the snippet in
docs/loading-weights.md, plus the outputs NumPy expects from them. Run with Debian's NumPy:

    /usr/bin/python3 tests/reference/make_weight_fixture.py

It writes tests/reference/fixtures_weights/:
  w_q w_k w_v w_o b_q b_k b_v b_o embeddings .npy, vocab.txt, session.json   what the doc's snippet writes
  config.json                                                               sentences, tokens, sizes
  x and every tensor make_fixtures.py names (q … output), float32           what attnviz must compute
tests/io/test_weight_files.cpp opens session.json with io::openSession, runs core::runModel and compares.

The snippet is executed as it stands in the doc (its first ```python block), so the doc cannot drift from what
is tested. Its math is checked three ways: make_fixtures.forward on the exported (transposed) files; a direct
NumPy forward with PyTorch's conventions (x·Wᵀ + b on the untransposed parameters, q scaled before the product);
and nn.MultiheadAttention itself when PyTorch is installed.
What this script deliberately does not do: tokenize (the sentences are lowercase words split at spaces, which
attnviz's tokenizer splits the same way; the test checks the tokens) or cover cross-attention or causal masks
(make_fixtures.py does).
"""
import json
import math
import pathlib
import shutil

import numpy as np

import make_fixtures

HERE = pathlib.Path(__file__).resolve().parent
DOC = HERE.parent.parent / "docs" / "loading-weights.md"
OUT = HERE / "fixtures_weights"

D_MODEL, HEADS = 8, 2
VOCABULARY = ["[PAD]", "[UNK]", "the", "cat", "sat", "on", "mat", "a", "dog", "ran"]
SENTENCES = ["the cat sat on the mat", "a zebra ran"]  # "zebra" is unknown: it takes the [UNK] row
NUMPY_SEED = 20240611


# [SECTION] the doc's snippet, and a stand-in for the torch modules it reads

def load_snippet():
    """The first ```python block of docs/loading-weights.md, executed: its functions by name."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("```python\n") + len("```python\n")
    code = text[start:text.index("\n```", start)]
    names = {}
    exec(compile(code, str(DOC), "exec"), names)
    return names


class Namespace:
    def __init__(self, **fields):
        self.__dict__.update(fields)


def pytorch_parameters(rng):
    """nn.MultiheadAttention's parameters in PyTorch's own layout (out × in), as NumPy float32 arrays."""
    E = D_MODEL
    f32 = np.float32
    return Namespace(embed_dim=E, num_heads=HEADS,
                     in_proj_weight=(rng.standard_normal((3 * E, E)) / math.sqrt(E)).astype(f32),
                     in_proj_bias=rng.uniform(-0.1, 0.1, 3 * E).astype(f32),
                     out_proj=Namespace(weight=(rng.standard_normal((E, E)) / math.sqrt(E)).astype(f32),
                                        bias=rng.uniform(-0.1, 0.1, E).astype(f32)))


# [SECTION] the inputs attnviz builds: X = E[ids] + PE, zero rows after each sentence

def token_ids(sentence):
    index = {token: row for row, token in enumerate(VOCABULARY)}
    return [index.get(token, index["[UNK]"]) for token in sentence.split(" ")]


def positional_encoding(length, d_model):
    """Vaswani et al. §3.5: PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(same angle)."""
    pe = np.zeros((length, d_model))
    for pos in range(length):
        for j in range(d_model):
            angle = pos / 10000 ** (2 * (j // 2) / d_model)
            pe[pos, j] = math.sin(angle) if j % 2 == 0 else math.cos(angle)
    return pe


def padded_x(embeddings, lengths):
    """b × l × d_model in float32 as attnviz adds them (float32 row + float32 position), then float64."""
    x = np.zeros((len(SENTENCES), max(lengths), D_MODEL), dtype=np.float32)
    pe = positional_encoding(max(lengths), D_MODEL).astype(np.float32)
    for b, sentence in enumerate(SENTENCES):
        ids = token_ids(sentence)
        x[b, :len(ids)] = embeddings[ids] + pe[:len(ids)]
    return x.astype(np.float64)


# [SECTION] independent checks of the snippet's transposes

def softmax(scores):
    exps = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exps / exps.sum(axis=-1, keepdims=True)


def pytorch_convention_output(params, rows):
    """nn.MultiheadAttention's forward on one unpadded sentence (l × E), from the untransposed parameters."""
    E, h = params.embed_dim, params.num_heads
    d = E // h
    W, bias = params.in_proj_weight.astype(np.float64), params.in_proj_bias.astype(np.float64)
    q, k, v = (rows @ W[i * E:(i + 1) * E].T + bias[i * E:(i + 1) * E] for i in range(3))
    q = q / math.sqrt(d)  # PyTorch scales the queries, not the scores
    heads = [softmax(q[:, i * d:(i + 1) * d] @ k[:, i * d:(i + 1) * d].T) @ v[:, i * d:(i + 1) * d] for i in range(h)]
    return np.concatenate(heads, axis=1) @ params.out_proj.weight.astype(np.float64).T + params.out_proj.bias


def torch_output(params, x, lengths):
    """The real nn.MultiheadAttention on the padded batch, or None when PyTorch is not installed."""
    try:
        import torch
    except ImportError:
        return None
    mha = torch.nn.MultiheadAttention(D_MODEL, HEADS, bias=True, batch_first=True).double()
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.from_numpy(params.in_proj_weight.astype(np.float64)))
        mha.in_proj_bias.copy_(torch.from_numpy(params.in_proj_bias.astype(np.float64)))
        mha.out_proj.weight.copy_(torch.from_numpy(params.out_proj.weight.astype(np.float64)))
        mha.out_proj.bias.copy_(torch.from_numpy(params.out_proj.bias.astype(np.float64)))
        padding = torch.arange(x.shape[1])[None, :] >= torch.tensor(lengths)[:, None]  # True = ignore
        inputs = torch.from_numpy(x)
        out, _ = mha(inputs, inputs, inputs, key_padding_mask=padding, need_weights=False)
    return out.numpy()


def check_agree(name, got, expected):
    if not np.allclose(got, expected, rtol=1e-9, atol=1e-12):
        raise SystemExit(f"{name}: largest difference {np.abs(got - expected).max()}")


# [SECTION] writing

def load_exported(folder):
    """The exported weights, as make_fixtures.forward takes them (float64 from the float32 files)."""
    names = ("w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o")
    return {name: np.load(folder / f"{name}.npy").astype(np.float64) for name in names}


def main():
    snippet = load_snippet()
    rng = np.random.default_rng(NUMPY_SEED)
    params = pytorch_parameters(rng)
    embedding = Namespace(weight=rng.standard_normal((len(VOCABULARY), D_MODEL)).astype(np.float32))

    shutil.rmtree(OUT, ignore_errors=True)
    snippet["export_attention"](params, embedding, VOCABULARY, OUT)
    snippet["write_session"](OUT, SENTENCES, D_MODEL, HEADS, biases=True, mask="padding")

    lengths = [len(sentence.split(" ")) for sentence in SENTENCES]
    x = padded_x(np.load(OUT / "embeddings.npy"), lengths)
    cfg = make_fixtures.resolve(dict(name="weights", description="Trained-layout weights from the doc's snippet.",
                                     d_model=D_MODEL, heads=HEADS, lengths=lengths, mask="padding", biases=True))
    expected = make_fixtures.forward(cfg, x, None, load_exported(OUT))

    for b, length in enumerate(lengths):
        check_agree(f"sentence {b}: exported files vs PyTorch conventions", expected["output"][b, :length],
                    pytorch_convention_output(params, x[b, :length]))
    torch_out = torch_output(params, x, lengths)
    if torch_out is None:
        print("PyTorch is not installed: checked against NumPy's PyTorch-convention forward only.")
    else:
        for b, length in enumerate(lengths):
            check_agree(f"sentence {b}: exported files vs nn.MultiheadAttention", expected["output"][b, :length],
                        torch_out[b, :length])
        print("Checked against nn.MultiheadAttention.")

    make_fixtures.save(OUT, "x", x)
    for name, array in expected.items():
        make_fixtures.save(OUT, name, array)
    config = dict(sentences=SENTENCES, tokens=[s.split(" ") for s in SENTENCES], lengths=lengths,
                  d_model=D_MODEL, heads=HEADS, mask="padding", biases=True, numpy_seed=NUMPY_SEED)
    (OUT / "config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    size = sum(path.stat().st_size for path in OUT.iterdir())
    print(f"{OUT.relative_to(HERE.parent.parent)}: {len(list(OUT.iterdir()))} files, {size / 1024:.1f} KiB")


if __name__ == "__main__":
    main()
