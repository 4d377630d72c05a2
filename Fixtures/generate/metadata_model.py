#!/usr/bin/env python3
"""Attaches TFLite metadata (metadata_schema.fbs, identifier M001) to the float classifier.

Writes Tests/VisionTests/Resources/mobilenet_float_metadata.tflite: Fixtures/models/
mobilenet_float.tflite plus a buffer holding a metadata FlatBuffer and a model metadata
entry "TFLITE_METADATA" pointing at it, the way tflite_support's MetadataPopulator stores
it. The tflite_support package is not used (it is not installable here): the metadata
FlatBuffer is built field by field with the flatbuffers Builder, slots as in the schema:

  ModelMetadata     name 0, description 1, version 2, subgraph_metadata 3, author 4,
                    license 5, associated_files 6, min_parser_version 7
  SubGraphMetadata  name 0, description 1, input_tensor_metadata 2,
                    output_tensor_metadata 3, associated_files 4
  TensorMetadata    name 0, description 1, dimension_names 2, content 3,
                    process_units 4, stats 5, associated_files 6
  ProcessUnit       options_type 0 (u8), options 1; union ids NormalizationOptions 1,
                    ScoreCalibrationOptions 2, ScoreThresholdingOptions 3
  NormalizationOptions mean 0, std 1      ScoreThresholdingOptions global_score_threshold 0
  Stats             max 0, min 1          AssociatedFile name 0, description 1, type 2, locale 3

The input declares per-channel mean (120, 110, 100) and std (60, 70, 80), chosen to differ
from every default so a test can tell they were applied. The model edit goes through
TensorFlow's schema object API (tflite_edit.py). The output is deterministic.

Run with the fixture virtualenv:
  Fixtures/generate/.venv/bin/python Fixtures/generate/metadata_model.py
"""
from __future__ import annotations

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import pathlib
import sys

import flatbuffers
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import tflite_edit  # noqa: E402
from tensorflow.lite.python import schema_py_generated as schema  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SOURCE = ROOT / "Fixtures/models/mobilenet_float.tflite"
OUT = ROOT / "Tests/VisionTests/Resources/mobilenet_float_metadata.tflite"

MEAN = [120.0, 110.0, 100.0]
STD = [60.0, 70.0, 80.0]
SCORE_THRESHOLD = 0.05
TENSOR_AXIS_LABELS = 2


def table(b: flatbuffers.Builder, fields: list[tuple[str, int, object]]) -> int:
    """One table from (kind, slot, value) fields; kinds: off, u8, i8, f32. None is absent."""
    present = [f for f in fields if f[2] is not None]
    b.StartObject(max((slot for _, slot, _ in fields), default=-1) + 1)
    for kind, slot, value in present:
        if kind == "off":
            b.PrependUOffsetTRelativeSlot(slot, value, 0)
        elif kind == "u8":
            b.PrependUint8Slot(slot, value, 0)
        elif kind == "i8":
            b.PrependInt8Slot(slot, value, 0)
        elif kind == "f32":
            b.PrependFloat32Slot(slot, value, 0.0)
        else:
            raise ValueError(kind)
    return b.EndObject()


def floats(b: flatbuffers.Builder, values: list[float]) -> int:
    b.StartVector(4, len(values), 4)
    for v in reversed(values):
        b.PrependFloat32(v)
    return b.EndVector()


def offsets(b: flatbuffers.Builder, items: list[int]) -> int:
    b.StartVector(4, len(items), 4)
    for item in reversed(items):
        b.PrependUOffsetTRelative(item)
    return b.EndVector()


def string(b: flatbuffers.Builder, s: str | None) -> int | None:
    return None if s is None else b.CreateString(s)


def process_unit(b: flatbuffers.Builder, type_id: int, options: int) -> int:
    return table(b, [("u8", 0, type_id), ("off", 1, options)])


def stats(b: flatbuffers.Builder, maximum: list[float], minimum: list[float]) -> int:
    mx, mn = floats(b, maximum), floats(b, minimum)
    return table(b, [("off", 0, mx), ("off", 1, mn)])


def metadata_flatbuffer() -> bytes:
    b = flatbuffers.Builder(1024)

    # Input 0: the image, with its normalization and the resulting value range.
    norm = table(b, [("off", 0, floats(b, MEAN)), ("off", 1, floats(b, STD))])
    in_units = offsets(b, [process_unit(b, 1, norm)])
    in_stats = stats(b, [(255 - m) / s for m, s in zip(MEAN, STD)], [-m / s for m, s in zip(MEAN, STD)])
    dims = offsets(b, [b.CreateString(n) for n in ["batch", "height", "width", "channel"]])
    in_name, in_desc = string(b, "image"), string(b, "RGB image, 32x32, normalized per channel")
    image = table(b, [("off", 0, in_name), ("off", 1, in_desc), ("off", 2, dims),
                      ("off", 4, in_units), ("off", 5, in_stats)])

    # Output 0: class probabilities, a score threshold and a labels file.
    threshold = table(b, [("f32", 0, SCORE_THRESHOLD)])
    out_units = offsets(b, [process_unit(b, 3, threshold)])
    out_stats = stats(b, [1.0], [0.0])
    label_file = table(b, [("off", 0, string(b, "labels.txt")), ("off", 1, string(b, "Ten class names")),
                           ("i8", 2, TENSOR_AXIS_LABELS), ("off", 3, string(b, "en"))])
    out_files = offsets(b, [label_file])
    out_name, out_desc = string(b, "probabilities"), string(b, "Probability of each of the 10 classes")
    probabilities = table(b, [("off", 0, out_name), ("off", 1, out_desc), ("off", 4, out_units),
                              ("off", 5, out_stats), ("off", 6, out_files)])

    sg_name = string(b, "main")
    inputs, outputs = offsets(b, [image]), offsets(b, [probabilities])
    subgraph = table(b, [("off", 0, sg_name), ("off", 2, inputs), ("off", 3, outputs)])

    fields = {
        0: string(b, "swift-tflite metadata test classifier"),
        1: string(b, "A float MobileNet-style classifier of 32x32 RGB images into 10 classes."),
        2: string(b, "v1"),
        3: offsets(b, [subgraph]),
        4: string(b, "swift-tflite"),
        5: string(b, "Apache-2.0"),
        7: string(b, "1.0.0"),
    }
    root = table(b, [("off", slot, value) for slot, value in sorted(fields.items())])
    b.Finish(root, file_identifier=b"M001")
    return bytes(b.Output())


def attach(model_bytes: bytes, metadata: bytes) -> bytes:
    def edit(m) -> None:
        buffer = schema.BufferT()
        buffer.data = np.frombuffer(metadata, dtype=np.uint8)
        m.buffers.append(buffer)
        entry = schema.MetadataT()
        entry.name = "TFLITE_METADATA"
        entry.buffer = len(m.buffers) - 1
        m.metadata = (m.metadata or []) + [entry]

    return tflite_edit.edit(model_bytes, edit)


def main() -> None:
    metadata = metadata_flatbuffer()
    out = attach(SOURCE.read_bytes(), metadata)
    assert out == attach(SOURCE.read_bytes(), metadata_flatbuffer()), "output is not deterministic"
    assert len(out) < 100 * 1024
    # LiteRT must still load and run it.
    from ai_edge_litert.interpreter import Interpreter  # noqa: E402

    interpreter = Interpreter(model_content=out)
    interpreter.allocate_tensors()
    interpreter.set_tensor(interpreter.get_input_details()[0]["index"], np.zeros((1, 32, 32, 3), np.float32))
    interpreter.invoke()
    OUT.write_bytes(out)
    print(f"wrote {OUT.relative_to(ROOT)}: {len(out)} bytes, metadata {len(metadata)} bytes")


if __name__ == "__main__":
    main()
