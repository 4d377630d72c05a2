"""Read back a converted model with the independent `tflite` schema package.

Used to verify that the converter produced the op we meant (it fuses and
rewrites freely) and to learn the input/output quantization.
"""
from __future__ import annotations

import numpy as np
import tflite

_OP_NAMES = {v: k for k, v in vars(tflite.BuiltinOperator).items() if not k.startswith("_")}
_TYPE_NAMES = {v: k.lower() for k, v in vars(tflite.TensorType).items() if not k.startswith("_")}


def _tensor(sub, idx):
    t = sub.Tensors(idx)
    q = t.Quantization()
    scale, zp, qdim = [], [], 0
    if q is not None and q.ScaleLength() > 0:
        scale = [float(s) for s in q.ScaleAsNumpy()]
        zp = [int(z) for z in q.ZeroPointAsNumpy()]
        qdim = int(q.QuantizedDimension())
    return {
        "index": idx,
        "name": t.Name().decode(),
        "dtype": _TYPE_NAMES[t.Type()],
        "shape": [int(d) for d in t.ShapeAsNumpy()] if t.ShapeLength() else [],
        "scale": scale,
        "zero_point": zp,
        "quantized_dimension": qdim,
        "constant": t.Buffer() != 0 and len(_buffer(sub, t)) > 0,
    }


_MODEL = None


def _buffer(sub, t):
    buf = _MODEL.Buffers(t.Buffer())
    return buf.DataAsNumpy() if buf.DataLength() else b""


def inspect(content: bytes) -> dict:
    global _MODEL
    model = tflite.Model.GetRootAsModel(content, 0)
    _MODEL = model
    if model.SubgraphsLength() != 1:
        raise ValueError(f"expected one subgraph, got {model.SubgraphsLength()}")
    sub = model.Subgraphs(0)
    ops = []
    for i in range(sub.OperatorsLength()):
        op = sub.Operators(i)
        code = model.OperatorCodes(op.OpcodeIndex())
        builtin = max(int(code.BuiltinCode()), int(code.DeprecatedBuiltinCode()))
        name = _OP_NAMES.get(builtin, str(builtin))
        if name == "CUSTOM":
            name = code.CustomCode().decode()
        ins = [_tensor(sub, int(t)) if t >= 0 else None for t in op.InputsAsNumpy()]
        outs = [_tensor(sub, int(t)) for t in op.OutputsAsNumpy()]
        ops.append({"op": name, "version": int(code.Version()), "inputs": ins, "outputs": outs})
    return {
        "ops": ops,
        "inputs": [_tensor(sub, int(t)) for t in sub.InputsAsNumpy()],
        "outputs": [_tensor(sub, int(t)) for t in sub.OutputsAsNumpy()],
    }


NP_DTYPES = {"float32": np.float32, "int8": np.int8, "uint8": np.uint8,
             "int32": np.int32, "int64": np.int64, "int16": np.int16,
             "bool": np.bool_, "float16": np.float16}


def patch_softmax_beta(content: bytes, beta: float) -> bytes:
    """Overwrite SoftmaxOptions.beta of every SOFTMAX op in place.

    The converter never emits beta != 1 from a TF graph (softmax(x * b)
    stays MUL + SOFTMAX), so beta cases rewrite the one float field in the
    flatbuffer.  The field is always present because 1.0 differs from the
    schema default 0.0; nothing else moves.
    """
    import struct
    buf = bytearray(content)
    model = tflite.Model.GetRootAsModel(buf, 0)
    sub = model.Subgraphs(0)
    patched = 0
    for i in range(sub.OperatorsLength()):
        op = sub.Operators(i)
        code = model.OperatorCodes(op.OpcodeIndex())
        if max(code.BuiltinCode(), code.DeprecatedBuiltinCode()) != tflite.BuiltinOperator.SOFTMAX:
            continue
        table = op.BuiltinOptions()
        field = table.Offset(4) if table is not None else 0
        if field == 0:
            raise ValueError("SOFTMAX without an explicit beta field")
        struct.pack_into("<f", buf, table.Pos + field, beta)
        patched += 1
    if patched == 0:
        raise ValueError("no SOFTMAX op to patch")
    return bytes(buf)


# vtable slot of asymmetric_quantize_inputs in each options table (schema field ids 3 and 2).
_ASYMMETRIC_FIELD = {"FULLY_CONNECTED": (tflite.BuiltinOperator.FULLY_CONNECTED, 10),
                     "BATCH_MATMUL": (tflite.BuiltinOperator.BATCH_MATMUL, 8)}


def patch_asymmetric_inputs(content: bytes, value: bool) -> bytes:
    """Overwrite asymmetric_quantize_inputs of every FULLY_CONNECTED / BATCH_MATMUL op.

    The TF2 converter always writes true for dynamic-range models; older models
    carry false (symmetric per-row input quantization). The byte is present
    because true differs from the schema default; nothing else moves.
    """
    buf = bytearray(content)
    model = tflite.Model.GetRootAsModel(buf, 0)
    sub = model.Subgraphs(0)
    patched = 0
    for i in range(sub.OperatorsLength()):
        op = sub.Operators(i)
        code = model.OperatorCodes(op.OpcodeIndex())
        builtin = max(code.BuiltinCode(), code.DeprecatedBuiltinCode())
        slot = next((f for b, f in _ASYMMETRIC_FIELD.values() if b == builtin), None)
        if slot is None:
            continue
        table = op.BuiltinOptions()
        field = table.Offset(slot) if table is not None else 0
        if field == 0:
            raise ValueError("asymmetric_quantize_inputs is not stored explicitly")
        buf[table.Pos + field] = 1 if value else 0
        patched += 1
    if patched == 0:
        raise ValueError("no FULLY_CONNECTED / BATCH_MATMUL op to patch")
    return bytes(buf)
