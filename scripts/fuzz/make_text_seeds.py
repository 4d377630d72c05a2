#!/usr/bin/env python3
"""Writes Fuzz/seeds/models-text: tiny models with STRING tensors and hash tables, so that
model-load and model-invoke start from models that reach the string layout checks, the
text and lookup kernels and the Smart Reply operators (spec/text-ops.md); the real Smart
Reply model (10 MB) is past the seed size limits. Also writes string arrays (<U, |S) to
Fuzz/seeds/npy.

    scripts/fixtures/.venv/bin/python scripts/fuzz/make_text_seeds.py
"""
import io
import pathlib
import struct
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "scripts" / "fixtures"))
from flatmodel import FlatModel, table  # noqa: E402
from tflite.BuiltinOperator import BuiltinOperator as B  # noqa: E402
from tflite.BuiltinOptions import BuiltinOptions as O  # noqa: E402
from tflite.TensorType import TensorType as T  # noqa: E402

OUT = ROOT / "Fuzz" / "seeds" / "models-text"


def smart_reply_chain():
    """Normalize → SKIP_GRAM → ExtractFeatures → LSH_PROJECTION → Predict → HASHTABLE_LOOKUP,
    the Smart Reply model's graph with a model keyed by every 4 × 6-bit signature."""
    rng = np.random.default_rng(3)
    m = FlatModel()
    text = m.tensor("text", "string", [1])
    normal = m.tensor("normal", "string", [1])
    grams = m.tensor("grams", "string", [0])
    ids = m.tensor("ids", "int32", [1])
    weights = m.tensor("weights", "float32", [1])
    seeds = m.tensor("seeds", "float32", [4, 6], data=rng.uniform(-3, 3, (4, 6)))
    signatures = m.tensor("signatures", "int32", [4])
    keys = m.tensor("keys", "int32", [256], data=np.arange(256, dtype=np.int32))
    labels = m.tensor("labels", "int32", [256, 2], data=rng.integers(0, 4, (256, 2)))
    scores = m.tensor("scores", "float32", [256, 2], data=rng.uniform(0, 1, (256, 2)))
    label = m.tensor("label", "int32", [3])
    score = m.tensor("score", "float32", [3])
    ids_table = m.tensor("reply_ids", "int32", [4], data=np.arange(4, dtype=np.int32))
    texts = m.tensor("reply_texts", "string", [4], data=["yes", "no", "ok", "thanks"])
    reply = m.tensor("reply", "string", [3])
    hit = m.tensor("hit", "uint8", [3])
    m.custom("Normalize", [text], [normal])
    m.op(B.SKIP_GRAM, [normal], [grams], options=(O.SkipGramOptions, table(
        "SkipGramOptions", NgramSize=3, MaxSkipSize=2, IncludeAllNgrams=True)))
    m.custom("ExtractFeatures", [grams], [ids, weights])
    m.op(B.LSH_PROJECTION, [seeds, ids, weights], [signatures],
         options=(O.LSHProjectionOptions, table("LSHProjectionOptions", Type=1)))
    m.custom("Predict", [signatures, keys, labels, scores], [label, score], struct.pack("<if", 3, 0.0))
    m.op(B.HASHTABLE_LOOKUP, [label, ids_table, texts], [reply, hit])
    return m.finish(inputs=[text], outputs=[reply, score])


def hashtable(key, value):
    m = FlatModel()
    handle = m.tensor("table", "resource", [1])
    m.op(B.HASHTABLE, [], [handle], options=(O.HashtableOptions, table(
        "HashtableOptions", TableId=1, KeyDtype=getattr(T, key.upper()), ValueDtype=getattr(T, value.upper()))))
    words = ["a", "bb", "ccc"]
    keys = m.tensor("keys", key, [3], data=words if key == "string" else np.array([1, 2, 3], np.int64))
    values = m.tensor("values", value, [3], data=words if value == "string" else np.array([1, 2, 3], np.int64))
    m.op(B.HASHTABLE_IMPORT, [handle, keys, values], [])
    query = m.tensor("query", key, [2])
    default = m.tensor("default", value, [1], data=["?"] if value == "string" else np.array([-1], np.int64))
    found = m.tensor("found", value, [2])
    m.op(B.HASHTABLE_FIND, [handle, query, default], [found])
    size = m.tensor("size", "int64", [1])
    m.op(B.HASHTABLE_SIZE, [handle], [size])
    return m.finish(inputs=[query], outputs=[found, size])


def lsh_strings():
    m = FlatModel()
    seeds = m.tensor("seeds", "float32", [2, 8], data=np.linspace(-1, 1, 16))
    x = m.tensor("x", "string", [2])
    y = m.tensor("y", "int32", [16])
    m.op(B.LSH_PROJECTION, [seeds, x], [y], options=(O.LSHProjectionOptions, table("LSHProjectionOptions", Type=2)))
    return m.finish(inputs=[x], outputs=[y])


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    models = {
        "smart_reply_chain": smart_reply_chain(),
        "hashtable_string_int64": hashtable("string", "int64"),
        "hashtable_int64_string": hashtable("int64", "string"),
        "lsh_projection_strings": lsh_strings(),
    }
    for name, content in models.items():
        (OUT / f"{name}.tflite").write_bytes(content)
    npy = ROOT / "Fuzz" / "seeds" / "npy"
    for name, array in {"unicode": np.array(["ab", "h\u00e9llo"]), "bytes": np.array([b"x", b"\xff\xfe"]),
                        "unicode_scalar": np.array("hi")}.items():
        buffer = io.BytesIO()
        np.save(buffer, array)
        (npy / f"strings_{name}.npy").write_bytes(buffer.getvalue())


if __name__ == "__main__":
    main()
