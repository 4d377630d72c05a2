"""Small edits of .tflite flatbuffers shared by the fixture generators.

Used where no converter produces the case we need, or to compute a reference through
an arithmetically identical twin model. Every edit goes through TensorFlow's own schema
object API, so the result is a well-formed model.
"""
from __future__ import annotations

import flatbuffers
import numpy as np
from tensorflow.lite.python import schema_py_generated as schema


def load(model: bytes):
    return schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(model, 0))


def save_model(m) -> bytes:
    b = flatbuffers.Builder(1024)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def edit(model: bytes, f) -> bytes:
    m = load(model)
    f(m)
    return save_model(m)


def to_uint8(m) -> None:
    """Turns an int8 model into its uint8 twin: every INT8 tensor becomes UINT8 with zero
    point + 128 and constant bytes flipped (q + 128). For ops whose 8-bit arithmetic only
    sees `q - zero_point` (and clamps to the type's range), the twin's output is the int8
    model's output + 128, code for code."""
    for sg in m.subgraphs:
        for t in sg.tensors:
            if t.type == schema.TensorType.INT8:
                t.type = schema.TensorType.UINT8
                t.quantization.zeroPoint = [int(z) + 128 for z in t.quantization.zeroPoint]
                buf = m.buffers[t.buffer]
                if buf.data is not None and len(buf.data) > 0:
                    buf.data = (np.asarray(buf.data, dtype=np.uint8) ^ 0x80).astype(np.uint8)


def int8_to_uint8_codes(a: np.ndarray) -> np.ndarray:
    return a.view(np.uint8) ^ 0x80


def uint8_to_int8_codes(a: np.ndarray) -> np.ndarray:
    return (a ^ 0x80).view(np.int8)
