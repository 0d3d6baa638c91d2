#!/usr/bin/python3
"""Checks that NumPy reads an `attnviz dump` folder as the manifest says, with no extra code.

Usage: /usr/bin/python3 tests/reference/check_dump.py DIR [DIR ...]

For every folder: manifest.json parses; every file it lists loads with numpy.load(allow_pickle=False) as a
C-ordered float32 array of the listed shape; every .npy in the folder is listed; and two relations hold that
need the files' meanings to be right: attention rows sum to 1 (0 for fully masked rows in safe mode), and
output = concat @ w_o (+ b_o). It does not recompute the forward pass: make_fixtures.py and the C++
reference test do that. Exit status 0 when every folder passes, 1 otherwise (each problem printed on one line).
"""
import json
import pathlib
import sys

import numpy as np


def check_folder(folder):
    problems = []
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    arrays = {}
    for entry in manifest["files"]:
        name = entry["file"]
        array = np.load(folder / name, allow_pickle=False)
        arrays[entry["tensor"]] = array
        if array.dtype != np.dtype("<f4"):
            problems.append(f"{name}: dtype {array.dtype}, expected float32 '<f4'")
        if list(array.shape) != entry["shape"]:
            problems.append(f"{name}: shape {list(array.shape)}, manifest says {entry['shape']}")
        if not array.flags["C_CONTIGUOUS"]:
            problems.append(f"{name}: not in C order")
    listed = {entry["file"] for entry in manifest["files"]}
    for path in sorted(folder.glob("*.npy")):
        if path.name not in listed:
            problems.append(f"{path.name}: in the folder but not in manifest.json")
    problems += check_relations(manifest, arrays)
    return problems


def check_relations(manifest, arrays):
    problems = []
    weights = arrays["attention_weights"].astype(np.float64)  # b × h × l_q × l_k
    row_sums = weights.sum(axis=-1)                            # b × h × l_q
    expected_sums = np.ones_like(row_sums)
    if manifest["parameters"]["softmax"] == "safe":
        for batch, row in manifest["fully_masked_rows"]:
            expected_sums[batch, :, row] = 0.0
    if not np.allclose(row_sums, expected_sums, atol=1e-5):
        problems.append(f"attention_weights: a row sums to {row_sums.flat[np.argmax(np.abs(row_sums - expected_sums))]}")
    output = arrays["concat"].astype(np.float64) @ arrays["w_o"].astype(np.float64)  # b × l_q × d_model
    if "b_o" in arrays:
        output += arrays["b_o"]
    if not np.allclose(arrays["output"], output, rtol=1e-4, atol=1e-5):
        problems.append(f"output: differs from concat @ w_o by up to {np.max(np.abs(arrays['output'] - output))}")
    return problems


def main(folders):
    if not folders:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    failed = False
    for folder in map(pathlib.Path, folders):
        try:
            problems = check_folder(folder)
        except (OSError, ValueError, KeyError) as error:
            problems = [f"cannot read the dump: {error!r}"]
        for problem in problems:
            print(f"{folder}: {problem}")
        if problems:
            failed = True
        else:
            print(f"{folder}: every file loads with the manifest's shape")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
