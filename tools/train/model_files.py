"""HuggingFace's file formats written by hand (Debian has no safetensors package), shared by the scripts that train
attnviz's bundled models (tools/train/) and those that make the test fixtures (tests/reference/):

    write_safetensors(path, {name: array}, "F32" | "F16" | "BF16", made_by)   # every tensor in one dtype
    read_safetensors(path) → {name: float32 NumPy array}                      # F32, F16 and I64 tensors
    byte_alphabet() → {byte: character}                                       # GPT-2's byte-level BPE alphabet
"""
import json
import struct

import numpy as np


def tensor_bytes(values, dtype, exact):
    """The little-endian bytes of `values` (any float array) in dtype; exact: refuse a value the dtype rounds."""
    values = np.ascontiguousarray(values, dtype="<f4")
    if dtype == "F32":
        return values.tobytes()
    if dtype == "F16":
        stored = values.astype("<f2")
        rounded = stored.astype("<f4")
    else:  # BF16: the upper half of the float32 bits, rounded to nearest even
        bits = values.view("<u4").astype(np.uint64)
        upper = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype("<u2")
        stored, rounded = upper, (upper.astype("<u4") << 16).view("<f4")
    if exact and not np.array_equal(rounded, values):
        raise ValueError(f"a value is not exact in {dtype}")
    return stored.tobytes()


def write_safetensors(path, tensors, dtype, made_by, exact=False):
    """tensors: name → array (written in name order); dtype "F32", "F16" or "BF16" for every tensor."""
    header, blobs, offset = {"__metadata__": {"format": "pt", "made_by": made_by}}, [], 0
    for name in sorted(tensors):
        try:
            raw = tensor_bytes(tensors[name], dtype, exact)
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from None
        header[name] = {"dtype": dtype, "shape": list(np.shape(tensors[name])), "data_offsets": [offset, offset + len(raw)]}
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
    start, tensors, types = 8 + length, {}, {"F16": "<f2", "F32": "<f4", "I64": "<i8"}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        begin, end = entry["data_offsets"]
        tensors[name] = np.frombuffer(data[start + begin:start + end], dtype=types[entry["dtype"]]).reshape(entry["shape"]).astype(np.float32)
    return tensors


def byte_alphabet():
    """GPT-2's bytes_to_unicode: byte → a printable character (the printable Latin-1 bytes stand for themselves, the
    others for chr(256), chr(257), … in byte order)."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    chars, extra = {}, 0
    for b in range(256):
        if b in printable:
            chars[b] = chr(b)
        else:
            chars[b] = chr(256 + extra)
            extra += 1
    return chars
