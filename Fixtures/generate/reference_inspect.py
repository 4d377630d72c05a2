#!/usr/bin/env python3
"""Writes Fixtures/models/<name>.expected.json for every .tflite in Fixtures/models.

The JSON is what `tflite inspect --json` must print for that model, so tests can
compare the two. It is computed here by an independent reader, the PyPI `tflite`
package (generated FlatBuffers object API), never by our own code, and every field
LiteRT also reports (tensor indices, names, dtypes, shapes, quantization, signatures,
operator names and wiring) is asserted against LiteRT's Interpreter before writing.

Schema (see Fixtures/models/README.md):
  version, description, subgraphs, tensors (of subgraph 0), inputs, outputs,
  signatures, operators, op_histogram, constant_bytes, metadata, min_runtime_version
Usage: reference_inspect.py [model.tflite ...]   (default: all of Fixtures/models)
"""
from __future__ import annotations

import json
import os
import pathlib
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import flatbuffers.flexbuffers as flexbuffers
import numpy as np
import tflite

MODELS = pathlib.Path(__file__).resolve().parent.parent / "models"


def enum_names(enum_class) -> dict[int, str]:
    return {v: k for k, v in vars(enum_class).items()
            if not k.startswith("_") and isinstance(v, int)}


OPS = enum_names(tflite.BuiltinOperator)
TYPES = enum_names(tflite.TensorType)
ACTIVATIONS = enum_names(tflite.ActivationFunctionType)
OPTIONS = enum_names(tflite.BuiltinOptions)


def text(b: bytes | None) -> str | None:
    return None if b is None else b.decode("utf-8")


def op_name(model, op) -> str:
    code = model.OperatorCodes(op.OpcodeIndex())
    # Old files keep the code in the int8 `deprecated_builtin_code`; new ones write
    # 127 (PLACEHOLDER_FOR_GREATER_OP_CODES) there and the real code in `builtin_code`.
    value = max(code.BuiltinCode(), code.DeprecatedBuiltinCode())
    if value not in OPS:
        raise SystemExit(f"operator code {value} is unknown to the tflite package")
    name = OPS[value]
    if name == "CUSTOM":
        return f"CUSTOM:{text(code.CustomCode())}"
    return name


def op_version(model, op) -> int:
    return model.OperatorCodes(op.OpcodeIndex()).Version()


def fused_activation(op) -> str | None:
    """The options table's fused activation, when its type has that field."""
    kind = op.BuiltinOptionsType()
    table = op.BuiltinOptions()
    if kind == 0 or table is None:
        return None
    options = getattr(tflite, OPTIONS[kind])()
    options.Init(table.Bytes, table.Pos)
    if not hasattr(options, "FusedActivationFunction"):
        return None
    return ACTIVATIONS[options.FusedActivationFunction()]


def custom_options(op):
    if op.CustomOptionsLength() == 0:
        return None
    if op.CustomOptionsFormat() != tflite.CustomOptionsFormat.FLEXBUFFERS:
        raise SystemExit(f"custom options format {op.CustomOptionsFormat()} is not FlexBuffers")
    return flexbuffers.Loads(bytes(op.CustomOptionsAsNumpy()))


def quantization(tensor):
    q = tensor.Quantization()
    if q is None or q.ScaleLength() == 0:
        return None
    return {
        # float() of a float32 is exact; json writes the shortest repr of that double.
        "scale": [float(np.float32(s)) for s in q.ScaleAsNumpy()],
        "zero_point": [int(z) for z in q.ZeroPointAsNumpy()] if q.ZeroPointLength() else [],
        "quantized_dimension": int(q.QuantizedDimension()),
    }


def tensor_entry(sg, index: int) -> dict:
    t = sg.Tensors(index)
    static = [int(d) for d in t.ShapeAsNumpy()] if t.ShapeLength() else []
    signature = [int(d) for d in t.ShapeSignatureAsNumpy()] if t.ShapeSignatureLength() else []
    shape = list(static)
    if len(signature) == len(static):
        shape = [-1 if s == -1 else d for d, s in zip(static, signature)]
    return {
        "index": index,
        "name": text(t.Name()),
        "type": TYPES[t.Type()],
        "shape": shape,
        "static_shape": static,
        "quantization": quantization(t),
    }


def buffer_size(model, index: int) -> int:
    buf = model.Buffers(index)
    if buf is None:
        return 0
    if buf.DataLength():
        return buf.DataLength()
    # Models over 2 GB keep buffers outside the flatbuffer, addressed by offset/size.
    return int(buf.Size()) if buf.Offset() > 1 else 0


def constant_bytes(model, sg) -> int:
    seen, total = set(), 0
    for i in range(sg.TensorsLength()):
        b = sg.Tensors(i).Buffer()
        if b != 0 and b not in seen:
            seen.add(b)
            total += buffer_size(model, b)
    return total


# Bytes per element of the fixed-size TensorType codes (others count as 0).
ELEMENT_SIZE = {0: 4, 1: 2, 2: 4, 3: 1, 4: 8, 6: 1, 7: 2, 8: 8, 9: 1, 10: 8, 11: 16,
                12: 8, 15: 4, 16: 2, 18: 2}


def activation_bytes(model, sg) -> int:
    """Bytes of the static shapes of every tensor that has no constant data."""
    total = 0
    for i in range(sg.TensorsLength()):
        t = sg.Tensors(i)
        if t.Buffer() != 0 and buffer_size(model, t.Buffer()) > 0:
            continue
        n = 1
        for d in range(t.ShapeLength()):
            n *= int(t.Shape(d))
        total += n * ELEMENT_SIZE.get(int(t.Type()), 0)
    return total


def signatures(model) -> list[dict]:
    out = []
    for i in range(model.SignatureDefsLength()):
        s = model.SignatureDefs(i)
        out.append({
            "key": text(s.SignatureKey()),
            "subgraph": int(s.SubgraphIndex()),
            "inputs": {text(s.Inputs(j).Name()): int(s.Inputs(j).TensorIndex())
                       for j in range(s.InputsLength())},
            "outputs": {text(s.Outputs(j).Name()): int(s.Outputs(j).TensorIndex())
                        for j in range(s.OutputsLength())},
        })
    return out


def metadata(model) -> tuple[list[dict], str | None]:
    entries, runtime = [], None
    for i in range(model.MetadataLength()):
        m = model.Metadata(i)
        name = text(m.Name())
        buf = model.Buffers(m.Buffer())
        data = bytes(buf.DataAsNumpy()) if buf is not None and buf.DataLength() else b""
        entries.append({"name": name, "size": len(data)})
        if name == "min_runtime_version":
            runtime = data.split(b"\0", 1)[0].decode("utf-8")
    return entries, runtime


def inspect(data: bytes) -> dict:
    model = tflite.Model.GetRootAsModel(data, 0)
    sg = model.Subgraphs(0)
    operators, histogram = [], {}
    for i in range(sg.OperatorsLength()):
        op = sg.Operators(i)
        name = op_name(model, op)
        histogram[name] = histogram.get(name, 0) + 1
        operators.append({
            "index": i,
            "op": name,
            "version": op_version(model, op),
            "activation": fused_activation(op),
            "inputs": [int(x) for x in op.InputsAsNumpy()] if op.InputsLength() else [],
            "outputs": [int(x) for x in op.OutputsAsNumpy()] if op.OutputsLength() else [],
            "custom_options": custom_options(op),
        })
    meta, runtime = metadata(model)
    return {
        "version": int(model.Version()),
        "description": text(model.Description()),
        "subgraphs": int(model.SubgraphsLength()),
        "tensors": int(sg.TensorsLength()),
        "inputs": [tensor_entry(sg, int(i)) for i in sg.InputsAsNumpy()],
        "outputs": [tensor_entry(sg, int(i)) for i in sg.OutputsAsNumpy()],
        "signatures": signatures(model),
        "operators": operators,
        "op_histogram": dict(sorted(histogram.items())),
        "constant_bytes": constant_bytes(model, sg),
        "activation_bytes": activation_bytes(model, sg),
        "metadata": meta,
        "min_runtime_version": runtime,
    }


# --------------------------------------------------------------------------------------
# Cross-check against LiteRT.
# --------------------------------------------------------------------------------------

def check(cond: bool, what: str) -> None:
    if not cond:
        raise AssertionError(what)


def check_tensor(name: str, ours: dict, theirs: dict) -> None:
    where = f"{name}: tensor {ours['index']}"
    check(ours["index"] == theirs["index"], f"{where}: index")
    check(ours["name"] == theirs["name"], f"{where}: name {ours['name']} vs {theirs['name']}")
    check(ours["type"] == np.dtype(theirs["dtype"]).name.upper(), f"{where}: type")
    check(ours["static_shape"] == [int(d) for d in theirs["shape"]], f"{where}: shape")
    check(ours["shape"] == [int(d) for d in theirs["shape_signature"]], f"{where}: signature")
    qp = theirs["quantization_parameters"]
    if ours["quantization"] is None:
        check(len(qp["scales"]) == 0, f"{where}: LiteRT sees quantization")
    else:
        q = ours["quantization"]
        check(q["scale"] == [float(s) for s in qp["scales"]], f"{where}: scales")
        check(q["zero_point"] == [int(z) for z in qp["zero_points"]], f"{where}: zero points")
        check(q["quantized_dimension"] == int(qp["quantized_dimension"]), f"{where}: axis")


def cross_check(name: str, path: pathlib.Path, doc: dict) -> None:
    from ai_edge_litert.interpreter import Interpreter

    it = Interpreter(model_path=str(path))
    ins, outs = it.get_input_details(), it.get_output_details()
    check(len(ins) == len(doc["inputs"]) and len(outs) == len(doc["outputs"]), f"{name}: io count")
    for ours, theirs in zip(doc["inputs"] + doc["outputs"], ins + outs):
        check_tensor(name, ours, theirs)

    theirs = it.get_signature_list()
    check(sorted(theirs) == sorted(s["key"] for s in doc["signatures"]), f"{name}: signature keys")
    for s in doc["signatures"]:
        check(sorted(theirs[s["key"]]["inputs"]) == sorted(s["inputs"]), f"{name}: sig inputs")
        check(sorted(theirs[s["key"]]["outputs"]) == sorted(s["outputs"]), f"{name}: sig outputs")

    # LiteRT's per-node view (a private helper, so only used when present).
    if hasattr(it, "_get_ops_details"):
        nodes = it._get_ops_details()
        check(len(nodes) == len(doc["operators"]), f"{name}: operator count")
        for ours, node in zip(doc["operators"], nodes):
            expected = ours["op"].split(":", 1)[-1]
            check(node["op_name"] == expected, f"{name}: op {ours['index']} {node['op_name']}")
            check([int(x) for x in node["inputs"]] == ours["inputs"], f"{name}: op {ours['index']} inputs")
            check([int(x) for x in node["outputs"]] == ours["outputs"], f"{name}: op {ours['index']} outputs")


def to_json(value, indent: str = "") -> str:
    """json.dumps with indent 2, except that lists of numbers stay on one line
    (shapes, indices, scales), which keeps the files short and diffs readable."""
    inner = indent + "  "
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{json.dumps(k)}: {to_json(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list):
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            return json.dumps(value)
        items = [inner + to_json(v, inner) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return json.dumps(value)


def main(argv: list[str]) -> int:
    paths = [pathlib.Path(p) for p in argv[1:]] or sorted(MODELS.glob("*.tflite"))
    for path in paths:
        doc = inspect(path.read_bytes())
        cross_check(path.name, path, doc)
        out = path.with_name(path.name[: -len(".tflite")] + ".expected.json")
        text_out = to_json(doc) + "\n"
        if json.loads(text_out) != doc:
            raise AssertionError(f"{out.name}: the JSON writer lost information")
        out.write_text(text_out)
        print(f"wrote {out.name}: {len(doc['operators'])} operators, {doc['op_histogram']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
