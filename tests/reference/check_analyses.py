#!/usr/bin/python3
"""Recomputes an `attnviz dump --rollout --head-roles` folder's analyses from its own dumped attention, in float64
NumPy, and checks them within 1e-6 (issue 35).

Usage: /usr/bin/python3 tests/reference/check_analyses.py DIR

  rollout.npy      Abnar & Zuidema (2020): per layer A_bar = 0.5 * mean over heads of A + 0.5 * I, rows renormalised,
                   R_0 = A_bar_0, R_i = A_bar_i @ R_(i-1); from all_attention_weights.npy, each sentence unpadded.
  head_roles.json  TransformerLens's head_detector (transformer_lens/head_detector.py), transcribed: its
                   previous-token, duplicate-token and induction detection patterns and the "mul" measure
                   sum(A * P) / sum(A) (exclude_bos = exclude_current_token = False), plus first-token (P[:, 0] = 1)
                   and self (P = I), each lower-triangular; on sentence 0 (all_attention_weights.npy) or on the
                   repeated random tokens (repeated_tokens_attention.npy), as its "measured_on" says.
Exit status 0 when everything matches, 1 otherwise (each problem on one line).
"""
import json
import pathlib
import sys

import numpy as np

TOLERANCE = 1e-6


def rollout(attention, sentence, length):
    """attention: n x b x h x l x l -> n x length x length."""
    rolled, out = np.eye(length), []
    for layer in attention[:, sentence, :, :length, :length].astype(np.float64):
        mixed = 0.5 * layer.mean(axis=0) + 0.5 * np.eye(length)
        mixed /= mixed.sum(axis=1, keepdims=True)
        rolled = mixed @ rolled
        out.append(rolled)
    return np.stack(out)


def previous_token_pattern(tokens):
    pattern = np.zeros((len(tokens), len(tokens)))
    pattern[1:, :-1] = np.eye(len(tokens) - 1)
    return np.tril(pattern)


def duplicate_token_pattern(tokens):
    repeated = np.tile(np.asarray(tokens), (len(tokens), 1))
    equal = np.equal(repeated, repeated.T).astype(float)
    np.fill_diagonal(equal, 0)
    return np.tril(equal)


def induction_pattern(tokens):
    shifted = np.roll(duplicate_token_pattern(tokens), 1, axis=1)
    shifted[:, 0] = 0
    return np.tril(shifted)


PATTERNS = {
    "previous_token": previous_token_pattern,
    "duplicate_token": duplicate_token_pattern,
    "induction": induction_pattern,
    "first_token": lambda tokens: np.tril(np.eye(len(tokens))[[0] * len(tokens)]),
    "self": lambda tokens: np.eye(len(tokens)),
}


def mul_score(attention, pattern):
    return (attention * pattern).sum() / attention.sum()


def check(folder):
    problems = []
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    attention = np.load(folder / "all_attention_weights.npy")
    ours = np.load(folder / "rollout.npy")
    for sentence, length in enumerate(manifest["lengths"]):
        largest = np.abs(ours[:, sentence, :length, :length] - rollout(attention, sentence, length)).max()
        print(f"rollout, sentence {sentence}: largest difference {largest:.3g}")
        if largest > TOLERANCE:
            problems.append(f"rollout.npy sentence {sentence}: differs by {largest}")
    roles = json.loads((folder / "head_roles.json").read_text(encoding="utf-8"))
    sources = {"sentence": (attention[:, 0], roles["sentence_token_ids"]),
               "repeated_random_tokens": (np.load(folder / "repeated_tokens_attention.npy")[:, 0], roles["repeated_random_tokens"])}
    largest = 0.0
    for head in roles["heads"]:
        for role, score in head["scores"].items():
            maps, tokens = sources[roles["measured_on"][role]]
            length = len(tokens)
            expected = mul_score(maps[head["layer"], head["head"], :length, :length].astype(np.float64), PATTERNS[role](tokens))
            largest = max(largest, abs(score - expected))
            if abs(score - expected) > TOLERANCE:
                problems.append(f"head_roles.json {head['layer']}.{head['head']} {role}: {score}, NumPy says {expected}")
    print(f"head roles: {len(roles['heads'])} heads, largest difference {largest:.3g}")
    return problems


def main():
    problems = check(pathlib.Path(sys.argv[1]))
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
