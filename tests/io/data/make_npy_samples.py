#!/usr/bin/python3
"""Writes the small .npy files tests/io/test_npy.cpp compares against: what numpy.save really produces.

The float32 C-order samples must equal io::encodeNpy's output byte for byte; the others (float64, version 2.0,
int32, big-endian, Fortran order) check what io::readNpy accepts and how it refuses.
This script does not test anything itself. Run it with Debian's NumPy:  /usr/bin/python3 make_npy_samples.py
"""
import pathlib

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent

# Non-square and asymmetric, so a transposed or column-major write cannot pass: row 0 is [0.5, -1, 2].
ASYMMETRIC_2X3 = np.array([[0.5, -1.0, 2.0], [3.25, 4.0, -5.75]])


def save(name, array):
    np.save(HERE / name, array, allow_pickle=False)


def main():
    save("f4_asymmetric_2x3.npy", ASYMMETRIC_2X3.astype("<f4"))
    save("f4_rank3_2x3x4.npy", (np.arange(24).reshape(2, 3, 4) * 0.25 - 1.0).astype("<f4"))
    save("f4_vector_5.npy", np.array([1.0, -2.0, 0.0, 1e-3, 65504.0], dtype="<f4"))
    save("f4_scalar.npy", np.array(3.5, dtype="<f4"))
    save("f4_empty_12345x0.npy", np.zeros((12345, 0), dtype="<f4"))
    save("f8_asymmetric_2x3.npy", ASYMMETRIC_2X3.astype("<f8"))
    with open(HERE / "f4_version2_2x3.npy", "wb") as f:
        np.lib.format.write_array(f, ASYMMETRIC_2X3.astype("<f4"), version=(2, 0))
    save("i4_2x3.npy", np.arange(6, dtype="<i4").reshape(2, 3))
    save("f4_big_endian_2x3.npy", ASYMMETRIC_2X3.astype(">f4"))
    save("f4_fortran_2x3.npy", np.asfortranarray(ASYMMETRIC_2X3.astype("<f4")))


if __name__ == "__main__":
    main()
