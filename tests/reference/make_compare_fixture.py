#!/usr/bin/python3
"""The reference for two runs side by side (issue 35 item 2): A - B of the stepped layer's attention weights,
computed in float64 NumPy from two separate `attnviz dump` runs of the bundled model (one per sentence; or one
sentence with a head switched off and with every head on; or one sentence through the model and through it
untrained), never from attnviz's compare code.

Usage: /usr/bin/python3 tests/reference/make_compare_fixture.py BUILD/attnviz

Writes tests/reference/compare/:
  tired_wide.json             the two sentences, their tokens, the layer dumped and the aligned length
  tired_wide_difference.npy   h x l x l float64: A - B, every head, on the positions both sentences have
  longer_difference.npy       the same for a pair of different lengths (B one word longer), on the shared prefix
  heads_off_difference.npy    A = "...tired" with head HEADS_OFF switched off (dump --ablate), B = every head on
  untrained_difference.npy    A = "...tired" through the model, B = through it untrained (dump --untrained)
tests/core/test_compare.cpp checks core::compareSentences against them within 1e-6.
"""
import json
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent / "compare"
TIRED = "The animal didn't cross the street because it was too tired"
WIDE = "The animal didn't cross the street because it was too wide"
LONGER = "The animal didn't cross the street because it was far too wide"
HEADS_OFF = "0.1"  # the previous-token head the coreference head (2.0) reads: its rows move in the stepped layer 2


def dumped(attnviz, sentence, folder, *options):
    """The stepped layer's attention weights (h x l x l, float64) and tokens of one sentence's own dump."""
    subprocess.run([attnviz, "dump", "--sentence", sentence, "--out", str(folder), *options], check=True, stdout=subprocess.DEVNULL)
    manifest = json.loads((folder / "manifest.json").read_text())
    weights = np.load(folder / "attention_weights.npy").astype(np.float64)[0]
    return weights, manifest


def difference(a, b):
    aligned = min(a.shape[-1], b.shape[-1])
    return a[:, :aligned, :aligned] - b[:, :aligned, :aligned]


def main():
    attnviz = sys.argv[1]
    HERE.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        root = pathlib.Path(scratch)
        (a, manifest_a), (b, manifest_b), (c, manifest_c) = (dumped(attnviz, s, root / n) for s, n in
                                                              ((TIRED, "a"), (WIDE, "b"), (LONGER, "c")))
        off, _ = dumped(attnviz, TIRED, root / "off", "--ablate", HEADS_OFF)
        untrained, _ = dumped(attnviz, TIRED, root / "untrained", "--untrained")
    np.save(HERE / "tired_wide_difference.npy", difference(a, b))
    np.save(HERE / "longer_difference.npy", difference(a, c))
    np.save(HERE / "heads_off_difference.npy", difference(off, a))
    np.save(HERE / "untrained_difference.npy", difference(a, untrained))
    facts = {"a": TIRED, "b": WIDE, "longer": LONGER, "tokens_a": manifest_a.get("tokens"), "tokens_b": manifest_b.get("tokens"),
             "tokens_longer": manifest_c.get("tokens"), "layer": manifest_a.get("model", {}).get("layer"),
             "aligned": min(a.shape[-1], b.shape[-1]), "aligned_longer": min(a.shape[-1], c.shape[-1]), "heads_off": HEADS_OFF}
    (HERE / "tired_wide.json").write_text(json.dumps(facts, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
