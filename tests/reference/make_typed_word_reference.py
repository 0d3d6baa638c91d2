#!/usr/bin/python3
"""What an independent float64 PyTorch forward of attnviz's bundled decoder (assets/models/attnviz-mini-llama) says
about words a student types for "What will the model predict after …too?" (ask mode, core/typed_prediction.h): each
word cut into pieces by the training script's own Python tokenizer as it follows the sentence and a space, and its
first piece's rank (1 = most likely; ties: the lower id first) and probability under softmax over the whole
vocabulary at the sentence's last position. The forward is make_decoder_fixtures.py's; nothing comes from attnviz.

Run with Debian's Python (python3-numpy, python3-torch):  /usr/bin/python3 tests/reference/make_typed_word_reference.py
It writes tests/reference/decoders/attnviz-mini-llama_typed_words.json; tests/core/test_typed_prediction.cpp reads it.
Run it again whenever the bundled decoder is retrained.
"""
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tools", "train"))
from make_decoder_fixtures import OUT, decoder_forward  # noqa: E402
from train_bundled_decoder import MODEL_DIR, Tokenizer  # noqa: E402
from train_bundled_model import read_safetensors  # noqa: E402

SENTENCE = "The animal didn't cross the street because it was too"
WORDS = ["tired", "hungry", "big", "elephantine", "Tuesday", "x"]


def main():
    config = json.load(open(os.path.join(MODEL_DIR, "config.json")))
    merges = json.load(open(os.path.join(MODEL_DIR, "tokenizer.json")))["model"]["merges"]
    tokenizer = Tokenizer([tuple(m.split(" ")) for m in merges])
    weights = {k: torch.from_numpy(v.astype(np.float64)) for k, v in read_safetensors(os.path.join(MODEL_DIR, "model.safetensors")).items()}
    context = tokenizer.encode(SENTENCE)
    _, _, logits = decoder_forward(config, weights, context)
    last = logits[-1].numpy().astype(np.float64)
    probabilities = np.exp(last - last.max())
    probabilities /= probabilities.sum()
    top = int(np.argmax(last))
    words = WORDS + [tokenizer.decode([top]).strip()]  # the model's own top-1 word, typed
    cases = []
    for word in words:
        ids = tokenizer.encode(SENTENCE + " " + word)
        assert ids[: len(context)] == context, word
        pieces = ids[len(context):]
        first = pieces[0]
        rank = 1 + int(np.sum(last > last[first])) + int(np.sum(last[:first] == last[first]))
        cases.append({"word": word, "ids": pieces, "rank": rank, "probability": float(probabilities[first])})
    out = {"sentence": SENTENCE, "vocabulary": int(last.shape[0]), "words": cases}
    with open(os.path.join(OUT, "attnviz-mini-llama_typed_words.json"), "w") as f:
        json.dump(out, f, indent=1)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
