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


def freeze_inputs(values):
    """An edit that turns graph inputs into constants: `values` maps an argument number k
    (the input named `in<k>`, as the conformance converters name them) to the array it
    holds from then on. Used for ops whose
    output shape depends on an input value (RANGE, FILL's dims...): the converter folds
    such ops away when their inputs are constant in TensorFlow, so the model is converted
    with placeholders and the values are written in afterwards."""
    def apply(m) -> None:
        sg = m.subgraphs[0]
        frozen = []
        import re
        by_arg = {}
        for i in sg.inputs:
            hit = re.search(r"(?:^|[_/])in(\d+)(?::\d+)?$", sg.tensors[i].name.decode())
            if hit:
                by_arg[int(hit.group(1))] = i
        for arg, array in sorted(values.items()):
            tensor_index = by_arg[arg]
            t = sg.tensors[tensor_index]
            buf = schema.BufferT()
            buf.data = np.frombuffer(np.ascontiguousarray(array).tobytes(), dtype=np.uint8)
            m.buffers.append(buf)
            t.buffer = len(m.buffers) - 1
            t.shape = np.asarray(array.shape, dtype=np.int32)
            t.shapeSignature = None
            frozen.append(tensor_index)
        sg.inputs = [i for i in sg.inputs if i not in frozen]
        for sig in m.signatureDefs or []:
            sig.inputs = [x for x in sig.inputs if x.tensorIndex not in frozen]
    return apply
