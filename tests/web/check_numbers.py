#!/usr/bin/python3
"""check_numbers.py PAGE_DIR ATTNVIZ OUT_DIR [--perturb] — the page computes the desktop's numbers.

For each sentence of same_numbers_sentences.txt (five: the first screen's, another coreference pair, accents and
NFD, quotes and punctuation, a longer one), types it into the page (headless chromium through devtools.py, as a
user types) and reads the page's run out of it (attnviz_page_numbers(), src/app/web/page_numbers.h), runs the
desktop's `ATTNVIZ dump --sentence S` into OUT_DIR/dump-N, and checks that the bundled model's (attnviz-mini-bert,
the page's default) tokens are the same and its hidden states ((n_layers + 1) × 1 × l × d_model) and the maps it
draws (the featured layer's attention weights, 1 × h × l × l) equal the dump's hidden_states.npy and
attention_weights.npy within 1e-5 (absolute). --perturb adds 2e-5 to one of the page's numbers first: the check must then fail.
Exits 0 when all hold, 1 naming the first sentence, tensor and index that differ. Debian's python3 (numpy).
"""
import json
import os
import subprocess
import sys

import numpy

import attnviz_page
from devtools import Chromium, DevToolsError, serve_folder

SENTENCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "same_numbers_sentences.txt")
TOLERANCE = 1e-5
PERTURBATION = 2e-5
# The page's numbers (src/app/web/page_numbers.h) and the dump's files that hold the same tensors. (The page keeps
# every layer's maps only while its model view is open; every layer's output is in the hidden states.)
TENSORS = {"hidden_states": "hidden_states.npy", "attention_weights": "attention_weights.npy"}


def desktop_dump(attnviz, sentence, folder):
    """The desktop's manifest.json and tensors for `sentence` (attnviz dump into `folder`)."""
    done = subprocess.run([attnviz, "dump", "--sentence", sentence, "--out", folder, "--force"],
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise AssertionError(f"attnviz dump --sentence {sentence!r} failed: {done.stderr.strip()}")
    with open(os.path.join(folder, "manifest.json")) as file:
        manifest = json.load(file)
    return manifest, {key: numpy.load(os.path.join(folder, name)) for key, name in TENSORS.items()}


def largest_difference(sentence, key, page_tensor, desktop):
    """The largest |page − desktop| of one tensor; AssertionError naming where, when over TOLERANCE or shaped apart."""
    page = numpy.asarray(page_tensor["data"], dtype=numpy.float64).reshape(page_tensor["shape"])
    if page.shape != desktop.shape:
        raise AssertionError(f"{sentence!r}: {key} is {page.shape} in the page, {desktop.shape} on the desktop")
    gap = numpy.abs(page - desktop.astype(numpy.float64))
    worst = numpy.unravel_index(numpy.argmax(gap), gap.shape)
    if not gap[worst] <= TOLERANCE:  # also catches NaN
        raise AssertionError(f"{sentence!r}: {key}{list(worst)} is {page[worst]:.8g} in the page, {desktop[worst]:.8g} "
                             f"on the desktop (|difference| {gap[worst]:.3g} > {TOLERANCE:g})")
    return float(gap[worst])


def main():
    arguments = [argument for argument in sys.argv[1:] if argument != "--perturb"]
    perturb = len(arguments) != len(sys.argv) - 1
    if len(arguments) != 3:
        sys.exit("usage: check_numbers.py PAGE_DIR ATTNVIZ OUT_DIR [--perturb]")
    folder, attnviz, out = arguments[0], os.path.abspath(arguments[1]), os.path.abspath(arguments[2])
    with open(SENTENCES, encoding="utf-8") as file:
        sentences = [line.rstrip("\n") for line in file if line.strip()]
    page = None
    with serve_folder(folder) as url, Chromium() as browser:
        try:
            page, _ = attnviz_page.open_page(browser, url)
            worst = 0.0
            for index, sentence in enumerate(sentences, 1):
                numbers = attnviz_page.type_sentence(page, sentence)
                if perturb and index == 1:
                    numbers["hidden_states"]["data"][0] += PERTURBATION
                manifest, desktop = desktop_dump(attnviz, sentence, os.path.join(out, f"dump-{index}"))
                if numbers["tokens"] != manifest["tokens"]:
                    raise AssertionError(f"{sentence!r}: the page's tokens {numbers['tokens']} are not the desktop's {manifest['tokens']}")
                if numbers["layer"] != manifest["model"]["layer"]:
                    raise AssertionError(f"the page steps through layer {numbers['layer']}, the dump {manifest['model']['layer']}")
                for key in TENSORS:
                    worst = max(worst, largest_difference(sentence, key, numbers[key], desktop[key]))
        except (AssertionError, DevToolsError) as failure:
            print(f"check_numbers: {failure}", file=sys.stderr)
            if page is not None:
                print("check_numbers: the page's console:\n  " + "\n  ".join(page.console[-10:]), file=sys.stderr)
            return 1
    print(f"check_numbers: the page's hidden states and attention weights equal the desktop dump's on "
          f"{len(sentences)} sentences (largest |difference| {worst:.2g}, tolerance {TOLERANCE:g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
