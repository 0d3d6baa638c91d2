#!/usr/bin/python3
"""Trains attnviz's own small model, attnviz-tiny-bert, and writes it in HuggingFace's BERT layout to
assets/models/attnviz-tiny-bert/ (config.json, model.safetensors, vocab.txt, tokenizer_config.json, heads.json; its
README.md is written by hand), its held-out test sets to tests/data/bundled_model/ and its loss curve to docs/models/loss.png.

    /usr/bin/python3 tools/train/train_bundled_model.py             # train and write everything (about 4 minutes)
    /usr/bin/python3 tools/train/train_bundled_model.py --evaluate  # no training: measure the committed files again

Debian's python3-torch and python3-numpy, CPU only (--evaluate needs NumPy alone, plus torch only to import).

What it learns and why (the model card, docs/models.md, says the same for teachers):
  * Data: sentences this script makes from word lists (no download). Coreference sentences in the Illustrated
    Transformer's pattern — "The animal didn't cross the street because it was too tired" — where the adjective
    decides what "it" is (tired → the animal, wide → the street); description sentences ("The road was icy.")
    that say which adjectives describe creatures and which describe places; and simple narrative sentences.
  * Objective: masked-word prediction (BERT's) on every sentence, plus two pointer losses on single heads: on
    coreference sentences, layer 1 head 0's row for "it" must put its weight on the noun "it" refers to; on every
    sentence, layer 0 head 1 must look at the previous token. So those two heads are taught, honestly so: GPT-2 and
    BERT learn their heads from plain text alone. The third catalogued head was not supervised: it is the head that,
    after training, best does one nameable job on held-out text, and its figure is measured there.
  * Held out: the default sentence and its "wide" variant, and words that never appear in a coreference sentence
    during training (they do appear in description sentences, which is how the model knows what they describe).

Deterministic: fixed seeds, one thread, torch.use_deterministic_algorithms; a rerun gives the same weights within
float tolerance. About four minutes on one core of a shared machine.
"""
import json
import math
import os
import random
import struct
import sys
import time
import unicodedata

import numpy as np
import torch

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MODEL_DIR = os.path.join(ROOT, "assets", "models", "attnviz-tiny-bert")
HELD_OUT_DIR = os.path.join(ROOT, "tests", "data", "bundled_model")
LOSS_PNG = os.path.join(ROOT, "docs", "models", "loss.png")

SEED = 20261124
CONFIG = {"model_type": "bert", "architectures": ["BertForMaskedLM"], "num_hidden_layers": 2, "hidden_size": 64,
          "num_attention_heads": 4, "intermediate_size": 256, "max_position_embeddings": 64, "type_vocab_size": 2,
          "layer_norm_eps": 1e-12, "hidden_act": "gelu", "position_embedding_type": "absolute"}
COREF_LAYER, COREF_HEAD = 1, 0
PREVIOUS_LAYER, PREVIOUS_HEAD, PREVIOUS_WEIGHT = 0, 1, 0.5
STEPS, BATCH, LEARNING_RATE = 3000, 64, 2e-3

# [SECTION] words

CREATURES = ["animal", "dog", "cat", "horse", "cow", "boy", "girl", "man", "woman", "child", "bird", "fox", "rabbit",
             "goat", "sheep", "farmer", "teacher", "soldier", "driver", "puppy", "kitten", "duck", "bear", "deer"]
PLACES = ["street", "road", "river", "bridge", "field", "hill", "wall", "fence", "lake", "path", "forest", "valley",
          "hallway", "square", "highway", "ditch", "canal", "stream", "mountain", "park", "garden", "yard"]
VERBS = ["cross", "climb", "jump over", "walk across", "swim across", "run across", "enter", "pass", "reach", "go over",
         "get across", "climb over"]
CREATURE_ADJECTIVES = ["tired", "scared", "hungry", "sleepy", "lazy", "weak", "nervous", "sick", "afraid", "exhausted",
                       "slow", "clumsy", "shy", "upset"]
PLACE_ADJECTIVES = ["wide", "busy", "icy", "steep", "narrow", "crowded", "muddy", "slippery", "deep", "long", "high",
                    "dangerous", "rough", "flooded"]
# Never in a coreference sentence during training (they do appear in description sentences).
HELD_OUT_CREATURES = ["donkey", "tiger", "lion", "pig", "wolf", "mouse", "student", "doctor", "nurse", "baby"]
HELD_OUT_PLACES = ["trail", "alley", "creek", "meadow", "tunnel", "avenue", "pond", "ridge", "lane", "beach"]
HELD_OUT_VERBS = ["leap over", "wade across", "step over", "approach", "ride across", "sprint across"]
HELD_OUT_CREATURE_ADJECTIVES = ["frightened", "weary", "sad", "ill", "timid", "drowsy", "anxious", "cautious"]
HELD_OUT_PLACE_ADJECTIVES = ["rocky", "windy", "wet", "noisy", "frozen", "shallow", "bumpy", "congested"]
# Nowhere in training and not in the vocabulary: spelled out in letter pieces. Measured, not promised — a limit.
SPELLED_OUT_CREATURES = ["giraffe", "camel", "zebra", "monkey", "parrot", "chicken", "pilot", "waiter"]
SPELLED_OUT_PLACES = ["boulevard", "swamp", "glacier", "corridor", "plaza", "harbor", "desert", "roof"]

DEFAULT = "The animal didn't cross the street because it was too tired"
DEFAULT_WIDE = "The animal didn't cross the street because it was too wide"

# {A} creature, {P} place, {V} verb, {J} adjective; the flag says whether the creature comes first.
COREF_TEMPLATES = [
    ("The {A} didn't {V} the {P} because it was too {J}", True),
    ("The {A} did not {V} the {P} because it was too {J}.", True),
    ("The {A} couldn't {V} the {P} because it was very {J}.", True),
    ("The {A} wouldn't {V} the {P} as it was so {J}", True),
    ("The {A} refused to {V} the {P} since it was too {J}.", True),
    ("The {P} was not crossed by the {A} because it was too {J}", False),
    ("The {P} stopped the {A} because it was too {J}.", False),
    ("In the end the {A} did not {V} the {P}, because it was too {J}.", True),
]
DESCRIPTIONS = ["The {N} was {J}.", "The {N} looked {J}.", "That {N} is very {J}.", "A {J} {N}.", "The {N} seemed {J} today."]
NARRATIVE = ["The {A} saw the {P}.", "A {A} walked to the {P}.", "The {A} liked the {P} and the {B}.",
             "The {A} and the {B} sat near the {P}.", "Yesterday the {A} went to the {P}.", "The {P} is near the {Q}."]


def coreference(template, creature, place, verb, adjective, refers_to_creature):
    text = template.format(A=creature, P=place, V=verb, J=adjective)
    return {"text": text, "referent": creature if refers_to_creature else place, "other": place if refers_to_creature else creature}


def training_sentences(rng):
    creature_adjectives, place_adjectives = CREATURE_ADJECTIVES, PLACE_ADJECTIVES
    coref = []
    while len(coref) < 24000:
        template, _ = rng.choice(COREF_TEMPLATES)
        creature_side = rng.random() < 0.5
        adjective = rng.choice(creature_adjectives if creature_side else place_adjectives)
        example = coreference(template, rng.choice(CREATURES), rng.choice(PLACES), rng.choice(VERBS), adjective, creature_side)
        if example["text"].rstrip(".") in (DEFAULT, DEFAULT_WIDE):
            continue
        coref.append(example)
    plain = []
    all_creatures, all_places = CREATURES + HELD_OUT_CREATURES, PLACES + HELD_OUT_PLACES
    for _ in range(12000):
        if rng.random() < 0.5:
            noun = rng.choice(all_creatures)
            adjective = rng.choice(CREATURE_ADJECTIVES + HELD_OUT_CREATURE_ADJECTIVES)
        else:
            noun = rng.choice(all_places)
            adjective = rng.choice(PLACE_ADJECTIVES + HELD_OUT_PLACE_ADJECTIVES)
        plain.append(rng.choice(DESCRIPTIONS).format(N=noun, J=adjective))
    for _ in range(6000):
        plain.append(rng.choice(NARRATIVE).format(A=rng.choice(all_creatures), B=rng.choice(all_creatures),
                                                   P=rng.choice(all_places), Q=rng.choice(all_places)))
    return coref, plain


def uses_held_out_words(text):
    """Whether a sentence has a word no coreference sentence had in training (a verb counts by its first word)."""
    held_out = set(HELD_OUT_CREATURES + HELD_OUT_PLACES + HELD_OUT_CREATURE_ADJECTIVES + HELD_OUT_PLACE_ADJECTIVES)
    held_out |= {verb.split()[0] for verb in HELD_OUT_VERBS}
    return any(word in held_out for word in basic_tokens(text))


def held_out_sentences(rng, seen):
    """240 coreference sentences never trained on: each uses at least one held-out word, or is a new combination."""
    examples, texts = [], set(seen)
    while len(examples) < 240:
        template, _ = rng.choice(COREF_TEMPLATES)
        creature_side = rng.random() < 0.5
        unseen = len(examples) % 2 == 0  # every other sentence has held-out words
        creature = rng.choice(HELD_OUT_CREATURES if unseen and rng.random() < 0.6 else CREATURES)
        place = rng.choice(HELD_OUT_PLACES if unseen and rng.random() < 0.6 else PLACES)
        verb = rng.choice(HELD_OUT_VERBS if unseen and rng.random() < 0.5 else VERBS)
        pool = (HELD_OUT_CREATURE_ADJECTIVES if creature_side else HELD_OUT_PLACE_ADJECTIVES) if unseen and rng.random() < 0.6 else \
            (CREATURE_ADJECTIVES if creature_side else PLACE_ADJECTIVES)
        example = coreference(template, creature, place, verb, rng.choice(pool), creature_side)
        if example["text"] in texts:
            continue
        texts.add(example["text"])
        examples.append(example)
    return examples


# [SECTION] tokenizer: BERT's basic tokenizer + WordPiece, uncased (what the app's C++ tokenizer does)

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def is_punctuation(ch):
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def basic_tokens(text):
    words = []
    for word in text.lower().split():
        word = "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")
        current = ""
        for ch in word:
            if is_punctuation(ch):
                if current:
                    words.append(current)
                words.append(ch)
                current = ""
            else:
                current += ch
        if current:
            words.append(current)
    return words


def word_pieces(word, vocab):
    if len(word) > 100:
        return ["[UNK]"]
    pieces, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start:
            piece = ("##" if start > 0 else "") + word[start:end]
            if piece in vocab:
                break
            end -= 1
        if end == start:
            return ["[UNK]"]
        pieces.append(piece)
        start = end
    return pieces


def build_vocabulary(texts):
    words = sorted({w for text in texts for w in basic_tokens(text)})
    characters = [chr(c) for c in range(ord("a"), ord("z") + 1)] + [str(d) for d in range(10)]
    punctuation = [c for c in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"]
    pieces = SPECIALS + sorted(set(characters + punctuation + words)) + ["##" + c for c in characters]
    return {piece: index for index, piece in enumerate(pieces)}


def encode(text, vocab):
    pieces = ["[CLS]"] + [p for w in basic_tokens(text) for p in word_pieces(w, vocab)] + ["[SEP]"]
    return [vocab[p] for p in pieces], pieces


# [SECTION] the model: HuggingFace's BERT, parameter for parameter

class Bert(torch.nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        c = CONFIG
        d, f = c["hidden_size"], c["intermediate_size"]
        self.heads, self.eps = c["num_attention_heads"], c["layer_norm_eps"]
        self.word = torch.nn.Embedding(vocab_size, d)
        self.position = torch.nn.Embedding(c["max_position_embeddings"], d)
        self.token_type = torch.nn.Embedding(c["type_vocab_size"], d)
        self.embedding_norm = torch.nn.LayerNorm(d, eps=self.eps)
        self.layers = torch.nn.ModuleList()
        for _ in range(c["num_hidden_layers"]):
            layer = torch.nn.ModuleDict({"query": torch.nn.Linear(d, d), "key": torch.nn.Linear(d, d), "value": torch.nn.Linear(d, d),
                                         "output": torch.nn.Linear(d, d), "attention_norm": torch.nn.LayerNorm(d, eps=self.eps),
                                         "intermediate": torch.nn.Linear(d, f), "mlp_output": torch.nn.Linear(f, d),
                                         "output_norm": torch.nn.LayerNorm(d, eps=self.eps)})
            self.layers.append(layer)
        self.prediction_bias = torch.nn.Parameter(torch.zeros(vocab_size))
        for module in self.modules():
            if isinstance(module, (torch.nn.Linear, torch.nn.Embedding)):
                torch.nn.init.normal_(module.weight, std=0.02)
            if isinstance(module, torch.nn.Linear):
                torch.nn.init.zeros_(module.bias)

    def forward(self, ids, padding):
        """ids, padding: batch × l (padding True on [PAD]). Returns the MLM logits and every layer's attention."""
        b, l = ids.shape
        d, heads = self.word.embedding_dim, self.heads
        dk = d // heads
        positions = torch.arange(l).unsqueeze(0)
        h = self.embedding_norm(self.word(ids) + self.position(positions) + self.token_type(torch.zeros_like(ids)))
        bias = torch.zeros(b, 1, 1, l).masked_fill(padding[:, None, None, :], torch.finfo(torch.float32).min)
        attentions = []
        for layer in self.layers:
            split = lambda x: x.view(b, l, heads, dk).transpose(1, 2)
            q, k, v = split(layer["query"](h)), split(layer["key"](h)), split(layer["value"](h))
            weights = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(dk) + bias, dim=-1)
            attentions.append(weights)
            context = (weights @ v).transpose(1, 2).reshape(b, l, d)
            a = layer["attention_norm"](layer["output"](context) + h)
            h = layer["output_norm"](layer["mlp_output"](torch.nn.functional.gelu(layer["intermediate"](a))) + a)
        logits = h @ self.word.weight.T + self.prediction_bias
        return logits, attentions

    def hf_tensors(self):
        """Every parameter under HuggingFace's BertForMaskedLM name (nn.Linear weights stay out × in)."""
        t = {"bert.embeddings.word_embeddings.weight": self.word.weight, "bert.embeddings.position_embeddings.weight": self.position.weight,
             "bert.embeddings.token_type_embeddings.weight": self.token_type.weight,
             "bert.embeddings.LayerNorm.weight": self.embedding_norm.weight, "bert.embeddings.LayerNorm.bias": self.embedding_norm.bias,
             "cls.predictions.bias": self.prediction_bias}
        names = {"query": "attention.self.query", "key": "attention.self.key", "value": "attention.self.value",
                 "output": "attention.output.dense", "attention_norm": "attention.output.LayerNorm",
                 "intermediate": "intermediate.dense", "mlp_output": "output.dense", "output_norm": "output.LayerNorm"}
        for i, layer in enumerate(self.layers):
            for ours, theirs in names.items():
                t[f"bert.encoder.layer.{i}.{theirs}.weight"] = layer[ours].weight
                t[f"bert.encoder.layer.{i}.{theirs}.bias"] = layer[ours].bias
        return {name: value.detach().float().contiguous() for name, value in t.items()}


# [SECTION] batches

VOCAB = {}


def make_example(text, coref=None):
    ids, pieces = encode(text, VOCAB)
    example = {"ids": ids, "it": -1, "referent": -1}
    if coref is not None:
        it = pieces.index("it")
        example["it"] = it
        example["referent"] = pieces.index(word_pieces(coref["referent"], VOCAB)[0])
    return example


def batch_of(examples, rng):
    length = max(len(e["ids"]) for e in examples)
    ids = torch.zeros(len(examples), length, dtype=torch.long)
    for row, e in enumerate(examples):
        ids[row, :len(e["ids"])] = torch.tensor(e["ids"])
    padding = ids == VOCAB["[PAD]"]
    special = padding | (ids == VOCAB["[CLS]"]) | (ids == VOCAB["[SEP]"]) | (ids == VOCAB["it"])
    chosen = (torch.rand(ids.shape, generator=rng) < 0.15) & ~special
    inputs = ids.masked_fill(chosen, VOCAB["[MASK]"])
    targets = ids.masked_fill(~chosen, -100)
    it = torch.tensor([e["it"] for e in examples])
    referent = torch.tensor([e["referent"] for e in examples])
    return inputs, padding, targets, it, referent


# [SECTION] saving

def write_safetensors(path, tensors):
    header, blobs, offset = {"__metadata__": {"format": "pt", "made_by": "tools/train/train_bundled_model.py"}}, [], 0
    for name in sorted(tensors):
        raw = tensors[name].numpy().astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(tensors[name].shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    length = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + length])
    start, tensors = 8 + length, {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        begin, end = entry["data_offsets"]
        tensors[name] = np.frombuffer(data[start + begin:start + end], dtype="<f4").reshape(entry["shape"])
    return tensors


# [SECTION] an independent NumPy forward over the files on disk

def numpy_attention(tensors, ids):
    """Every layer's A (layers × heads × l × l) for one sentence, from the saved tensors alone."""
    c = CONFIG
    d, heads, eps = c["hidden_size"], c["num_attention_heads"], c["layer_norm_eps"]
    dk, l = d // heads, len(ids)

    def norm(x, name):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + eps) * tensors[name + ".weight"] + tensors[name + ".bias"]

    def linear(x, name):
        return x @ tensors[name + ".weight"].T + tensors[name + ".bias"]

    def erf(x):
        return np.vectorize(math.erf)(x)

    p = "bert.embeddings."
    h = norm(tensors[p + "word_embeddings.weight"][ids] + tensors[p + "position_embeddings.weight"][:l] + tensors[p + "token_type_embeddings.weight"][0],
             p + "LayerNorm")
    attentions = []
    for i in range(c["num_hidden_layers"]):
        p = f"bert.encoder.layer.{i}."
        q, k, v = (linear(h, p + f"attention.self.{n}").reshape(l, heads, dk).transpose(1, 0, 2) for n in ("query", "key", "value"))
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(dk)
        weights = np.exp(scores - scores.max(-1, keepdims=True))
        weights /= weights.sum(-1, keepdims=True)
        attentions.append(weights)
        a = norm(linear((weights @ v).transpose(1, 0, 2).reshape(l, d), p + "attention.output.dense") + h, p + "attention.output.LayerNorm")
        inner = linear(a, p + "intermediate.dense")
        h = norm(linear(0.5 * inner * (1.0 + erf(inner / math.sqrt(2.0))), p + "output.dense") + a, p + "output.LayerNorm")
    return np.stack(attentions)


def plain_held_out(rng):
    """Held-out text for the other heads: description and narrative sentences made with another seed."""
    creatures, places = CREATURES + HELD_OUT_CREATURES, PLACES + HELD_OUT_PLACES
    sentences = []
    for _ in range(120):
        sentences.append(rng.choice(NARRATIVE).format(A=rng.choice(creatures), B=rng.choice(creatures), P=rng.choice(places), Q=rng.choice(places)))
        noun, adjectives = (rng.choice(creatures), HELD_OUT_CREATURE_ADJECTIVES) if rng.random() < 0.5 else (rng.choice(places), HELD_OUT_PLACE_ADJECTIVES)
        sentences.append(rng.choice(DESCRIPTIONS).format(N=noun, J=rng.choice(adjectives)))
    return sentences


# What a catalogued head is expected to look at, for a query at position q of a sentence of n pieces (with [CLS]
# first and [SEP] last): the key's position.
EXPECTED_KEYS = {
    "previous token": lambda q, n: q - 1 if q > 0 else None,
    "next token": lambda q, n: q + 1 if q + 1 < n else None,
    "[SEP]": lambda q, n: n - 1,
    "[CLS]": lambda q, n: 0,
    "itself": lambda q, n: q,
}
WHAT = {
    "previous token": "Each token looks at the token just before it: the model's way of knowing word order.",
    "next token": "Each token looks at the token just after it.",
    "[SEP]": "Most tokens rest their weight on [SEP], the end of the sentence, when nothing else matters to this head (a 'no-op', as Clark et al. 2019 found in BERT).",
    "[CLS]": "Most tokens rest their weight on [CLS], the start of the sentence.",
    "itself": "Each token looks mostly at itself.",
}


def head_survey(tensors, sentences):
    """Mean weight on each kind of expected key, for every layer and head, over the inner query rows."""
    c = CONFIG
    totals = np.zeros((len(EXPECTED_KEYS), c["num_hidden_layers"], c["num_attention_heads"]))
    counts = np.zeros(len(EXPECTED_KEYS))
    for text in sentences:
        ids, pieces = encode(text, VOCAB)
        attention = numpy_attention(tensors, ids)
        n = len(ids)
        for k, expected in enumerate(EXPECTED_KEYS.values()):
            for q in range(1, n - 1):
                key = expected(q, n)
                if key is None:
                    continue
                totals[k] += attention[:, :, q, key]
                counts[k] += 1
    return totals / counts[:, None, None]


def catalogue(survey):
    """The coreference head, then the two other heads that best do one nameable job, each with its figure."""
    previous = list(EXPECTED_KEYS).index("previous token")
    heads = [{"name": "coreference (it → its noun)", "layer": COREF_LAYER, "head": COREF_HEAD,
              "what": "The row for \"it\" puts its weight on the noun \"it\" refers to: the animal when it was too tired, the street when it was too wide."},
             {"name": "previous token", "layer": PREVIOUS_LAYER, "head": PREVIOUS_HEAD, "what": WHAT["previous token"],
              "mean_weight_on_expected_key": round(float(survey[previous, PREVIOUS_LAYER, PREVIOUS_HEAD]), 3)}]
    taken = {(COREF_LAYER, COREF_HEAD), (PREVIOUS_LAYER, PREVIOUS_HEAD)}
    ranked = sorted(((survey[k, l, h], name, l, h) for k, name in enumerate(EXPECTED_KEYS)
                     for l in range(survey.shape[1]) for h in range(survey.shape[2])), reverse=True)
    names = {"previous token"}
    for figure, name, layer, head in ranked:
        if (layer, head) in taken or name in names or len(heads) == 3:
            continue
        heads.append({"name": name, "layer": int(layer), "head": int(head), "what": WHAT[name], "mean_weight_on_expected_key": round(float(figure), 3)})
        taken.add((layer, head))
        names.add(name)
    return heads


def loss_curve(losses, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    steps = [s for s, _, _ in losses]
    figure, axes = plt.subplots(figsize=(8, 4.5), dpi=120)
    axes.plot(steps, [m for _, m, _ in losses], label="masked-word loss", linewidth=1)
    axes.plot(steps, [p for _, _, p in losses], label="pointer loss (coreference head)", linewidth=1)
    axes.set_xlabel("step (batch of 64 sentences)")
    axes.set_ylabel("cross-entropy (nats)")
    axes.set_title("attnviz-tiny-bert: training loss")
    axes.set_yscale("log")
    axes.legend()
    axes.grid(alpha=0.3)
    figure.tight_layout()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    figure.savefig(path)


def piece_spans(text):
    """word → (first, end) of its pieces in encode(text) (the first occurrence; [CLS] is position 0)."""
    spans, position = {}, 1
    for word in basic_tokens(text):
        count = len(word_pieces(word, VOCAB))
        spans.setdefault(word, (position, position + count))
        position += count
    return spans


def coreference_score(tensors, example):
    """(referent above other, weight on the referent, largest weight on the referent) in the coreference head's row
    for "it". A word's weight is the sum over its pieces (for a word in the vocabulary: its one piece's weight)."""
    ids, pieces = encode(example["text"], VOCAB)
    row = numpy_attention(tensors, ids)[COREF_LAYER, COREF_HEAD, pieces.index("it")]
    spans = piece_spans(example["text"])
    referent, other = (float(row[slice(*spans[example[key]])].sum()) for key in ("referent", "other"))
    return referent > other, referent, float(spans[example["referent"]][0] <= np.argmax(row) < spans[example["referent"]][1])


def spelled_out_sentences(rng):
    """200 coreference sentences with nouns outside the vocabulary (training verbs and adjectives)."""
    examples = []
    for _ in range(200):
        template, _ = rng.choice(COREF_TEMPLATES)
        creature_side = rng.random() < 0.5
        adjective = rng.choice(CREATURE_ADJECTIVES if creature_side else PLACE_ADJECTIVES)
        examples.append(coreference(template, rng.choice(SPELLED_OUT_CREATURES), rng.choice(SPELLED_OUT_PLACES),
                                    rng.choice(VERBS), adjective, creature_side))
    return examples


def previous_token_loss(weights, padding):
    """weights: batch × l × l of the previous-token head; every real query after [CLS] should look one back."""
    previous = torch.diagonal(weights, offset=-1, dim1=1, dim2=2)  # batch × (l − 1): A[q, q − 1] for q ≥ 1
    real = ~padding[:, 1:]
    return -(torch.log(previous + 1e-9) * real).sum() / real.sum()


def main():
    torch.set_num_threads(1)
    torch.manual_seed(SEED)
    torch.use_deterministic_algorithms(True)
    rng = random.Random(SEED)
    coref, plain = training_sentences(rng)
    held_out = held_out_sentences(random.Random(SEED + 1), [e["text"] for e in coref])
    global VOCAB
    VOCAB = build_vocabulary([e["text"] for e in coref] + plain + [e["text"] for e in held_out] + [DEFAULT, DEFAULT_WIDE])
    CONFIG["vocab_size"] = len(VOCAB)
    examples = [make_example(e["text"], e) for e in coref] + [make_example(t) for t in plain]
    model = Bert(len(VOCAB))
    optimiser = torch.optim.AdamW(model.parameters(), lr=LEARNING_RATE, weight_decay=0.01)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimiser, lambda step: min(1.0, step / 200) * max(0.05, 1.0 - step / STEPS))
    generator = torch.Generator().manual_seed(SEED)
    losses, started = [], time.time()
    for step in range(STEPS):
        inputs, padding, targets, it, referent = batch_of(rng.sample(examples, BATCH), generator)
        logits, attentions = model(inputs, padding)
        mlm = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), ignore_index=-100)
        has = it >= 0
        rows = attentions[COREF_LAYER][has, COREF_HEAD, it[has]]  # the coreference head's "it" rows
        pointer = -torch.log(rows[torch.arange(rows.shape[0]), referent[has]] + 1e-9).mean() if has.any() else torch.tensor(0.0)
        loss = mlm + pointer + PREVIOUS_WEIGHT * previous_token_loss(attentions[PREVIOUS_LAYER][:, PREVIOUS_HEAD], padding)
        optimiser.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimiser.step()
        schedule.step()
        losses.append((step, mlm.item(), pointer.item()))
        if step % 250 == 0 or step == STEPS - 1:
            print(f"step {step:5d}  masked-word loss {mlm.item():.3f}  pointer loss {pointer.item():.3f}  {time.time() - started:.0f} s", flush=True)
    seconds = time.time() - started
    save(model, held_out, losses, seconds)


def save(model, held_out, losses, seconds):
    os.makedirs(MODEL_DIR, exist_ok=True)
    os.makedirs(HELD_OUT_DIR, exist_ok=True)
    write_safetensors(os.path.join(MODEL_DIR, "model.safetensors"), model.hf_tensors())
    with open(os.path.join(MODEL_DIR, "config.json"), "w") as f:
        json.dump(CONFIG, f, indent=2)
    with open(os.path.join(MODEL_DIR, "vocab.txt"), "w") as f:
        f.write("".join(p + "\n" for p in sorted(VOCAB, key=VOCAB.get)))
    with open(os.path.join(MODEL_DIR, "tokenizer_config.json"), "w") as f:
        json.dump({"do_lower_case": True, "tokenizer_class": "BertTokenizer"}, f, indent=2)
    with open(os.path.join(HELD_OUT_DIR, "coreference_heldout.tsv"), "w") as f:
        f.write("sentence\treferent\tother\n" + "".join(f"{e['text']}\t{e['referent']}\t{e['other']}\n" for e in held_out))
    with open(os.path.join(HELD_OUT_DIR, "training_log.json"), "w") as f:
        json.dump({"seconds": round(seconds, 1), "steps": STEPS, "batch": BATCH, "losses": losses[::25]}, f)
    with open(os.path.join(HELD_OUT_DIR, "plain_heldout.txt"), "w") as f:
        f.write("".join(t + "\n" for t in plain_held_out(random.Random(SEED + 2))))
    figures = measure()
    figures["training_seconds"] = round(seconds, 1)
    with open(os.path.join(MODEL_DIR, "heads.json"), "w") as f:
        json.dump([{k: h[k] for k in ("name", "layer", "head", "what")} for h in figures["heads"]], f, indent=2, ensure_ascii=False)
    with open(os.path.join(HELD_OUT_DIR, "figures.json"), "w") as f:
        json.dump(figures, f, indent=2, ensure_ascii=False)
    loss_curve(losses, LOSS_PNG)
    print(f"trained in {seconds:.0f} s")


# [SECTION] measuring the files on disk (after training, or alone with --evaluate)

def read_held_out():
    with open(os.path.join(HELD_OUT_DIR, "coreference_heldout.tsv")) as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    with open(os.path.join(HELD_OUT_DIR, "plain_heldout.txt")) as f:
        plain = [line.rstrip("\n") for line in f]
    return [{"text": t, "referent": r, "other": o} for t, r, o in rows], plain


def measure():
    """Every figure the model card and the C++ tests quote, from model.safetensors, config.json and vocab.txt as
    saved and the held-out files as written, through the NumPy forward (never the torch model). Prints them."""
    global VOCAB
    with open(os.path.join(MODEL_DIR, "vocab.txt")) as f:
        VOCAB = {line.rstrip("\n"): index for index, line in enumerate(f)}
    with open(os.path.join(MODEL_DIR, "config.json")) as f:
        CONFIG.update(json.load(f))
    tensors = read_safetensors(os.path.join(MODEL_DIR, "model.safetensors"))
    held_out, plain = read_held_out()
    results = [coreference_score(tensors, e) for e in held_out]
    unseen = [r for e, r in zip(held_out, results) if uses_held_out_words(e["text"])]
    print(f"held out: referent above the other noun in {sum(r[0] for r in results)}/{len(results)} "
          f"({sum(r[0] for r in unseen)}/{len(unseen)} of the sentences with held-out words); "
          f"largest weight on the referent in {sum(r[2] for r in results):.0f}/{len(results)}; "
          f"mean weight on the referent {np.mean([r[1] for r in results]):.3f}")
    spelled_out = [coreference_score(tensors, e) for e in spelled_out_sentences(random.Random(SEED + 3))]
    print(f"nouns outside the vocabulary (spelled out in letter pieces): referent above the other noun in "
          f"{sum(r[0] for r in spelled_out)}/{len(spelled_out)} (a limit of this model: chance is half)")
    heads = catalogue(head_survey(tensors, plain))
    for h in heads:
        print(f"layer {h['layer']} head {h['head']}: {h['name']}", h.get("mean_weight_on_expected_key", ""))
    for text in (DEFAULT, DEFAULT_WIDE):
        ids, pieces = encode(text, VOCAB)
        row = numpy_attention(tensors, ids)[COREF_LAYER, COREF_HEAD, pieces.index("it")]
        print(text, "→", pieces[int(np.argmax(row))])
        print("  ids   ", ids)
        print("  row   ", " ".join(f"{p}:{w:.4f}" for p, w in zip(pieces, row)))
    return {"coreference_referent_above_other": sum(int(r[0]) for r in results), "coreference_sentences": len(results),
            "coreference_unseen_words_above_other": sum(int(r[0]) for r in unseen), "coreference_unseen_words_sentences": len(unseen),
            "coreference_largest_on_referent": int(sum(r[2] for r in results)),
            "coreference_mean_weight_on_referent": round(float(np.mean([r[1] for r in results])), 3),
            "spelled_out_nouns_above_other": sum(int(r[0]) for r in spelled_out), "spelled_out_nouns_sentences": len(spelled_out),
            "heads": heads, "parameters": int(sum(v.size for v in tensors.values()))}


def evaluate():
    """--evaluate: measure the committed files again; exit status 1 if a figure differs from figures.json."""
    figures = measure()
    with open(os.path.join(HELD_OUT_DIR, "figures.json")) as f:
        committed = json.load(f)
    differing = [k for k, v in figures.items() if k in committed and committed[k] != v]
    print("figures.json agrees" if not differing else f"figures.json differs in {differing}")
    return 1 if differing else 0

if __name__ == "__main__":
    sys.exit(evaluate() if sys.argv[1:] == ["--evaluate"] else main())
