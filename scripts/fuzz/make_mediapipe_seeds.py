#!/usr/bin/env python3
"""Writes Fuzz/seeds/models-mediapipe: one tiny model per MediaPipe custom operator (and
two chains), so that model-load and model-invoke start from models that reach the
operators' custom-option parsing and kernels (spec/mediapipe-ops.md); and the transform
operators' FlexBuffers options to Fuzz/seeds/flexbuffer. Each is a few KB,
under model-invoke's 64 KB seed limit (the real MediaPipe models are larger).

    scripts/fixtures/.venv/bin/python scripts/fuzz/make_mediapipe_seeds.py
"""
import pathlib
import sys

import numpy as np
from flatbuffers import flexbuffers

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "scripts" / "fixtures"))
import tflite_edit as te  # noqa: E402
from tensorflow.lite.python import schema_py_generated as schema  # noqa: E402

OUT = ROOT / "Fuzz" / "seeds" / "models-mediapipe"


class Graph:
    def __init__(self):
        self.m = schema.ModelT()
        self.m.version = 3
        self.m.buffers = [schema.BufferT()]
        self.m.operatorCodes = []
        self.sg = schema.SubGraphT()
        self.sg.tensors, self.sg.operators, self.sg.inputs, self.sg.outputs = [], [], [], []
        self.m.subgraphs = [self.sg]

    def tensor(self, shape, data=None):
        t = schema.TensorT()
        t.shape = list(shape)
        t.type = schema.TensorType.FLOAT32
        t.name = f"t{len(self.sg.tensors)}".encode()
        t.buffer = 0
        if data is not None:
            b = schema.BufferT()
            b.data = np.frombuffer(np.asarray(data, dtype=np.float32).tobytes(), dtype=np.uint8)
            self.m.buffers.append(b)
            t.buffer = len(self.m.buffers) - 1
        self.sg.tensors.append(t)
        return len(self.sg.tensors) - 1

    def input(self, shape):
        i = self.tensor(shape)
        self.sg.inputs.append(i)
        return i

    def custom(self, name, inputs, outputs, options: bytes, version=1):
        code = schema.OperatorCodeT()
        code.builtinCode = code.deprecatedBuiltinCode = schema.BuiltinOperator.CUSTOM
        code.customCode = name.encode()
        code.version = version
        self.m.operatorCodes.append(code)
        op = schema.OperatorT()
        op.opcodeIndex = len(self.m.operatorCodes) - 1
        op.inputs, op.outputs = list(inputs), list(outputs)
        op.customOptions = np.frombuffer(options, dtype=np.uint8) if options else None
        op.customOptionsFormat = schema.CustomOptionsFormat.FLEXBUFFERS
        self.sg.operators.append(op)

    def save(self, name, outputs):
        self.sg.outputs = list(outputs)
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / f"{name}.tflite").write_bytes(te.save_model(self.m))


def ints(*values) -> bytes:
    return np.asarray(values, dtype="<i4").tobytes()


POOL = ints(2, 2, 2, 2, 2, 0, 0, 0, 0, 0)   # VALID, stride 2, filter 2, no activation
L2TM = flexbuffers.Dumps({"left_rotation_idx": 0, "right_rotation_idx": 3, "target_rotation_radians": 0.0,
                          "subset_idxs": [0, 1, 2, 3, 4], "output_height": 4, "output_width": 4,
                          "scale_x": 1.5, "scale_y": 1.5})
TTB = flexbuffers.Dumps({"output_height": 4, "output_width": 4})
L2TM_V1 = flexbuffers.Dumps({"input_hw": [6, 6], "output_hw": [4, 4], "dimensions": 3, "landmarks_range": 8,
                             "bbox_size_multiplier": 1.5, "left_rotation_idx": 0, "right_rotation_idx": 3,
                             "subset": [0, 1, 2, 3, 4]})
TT_V1 = flexbuffers.Dumps({"mode": "bilinear", "output_size": [4, 4]})
TL_V1 = flexbuffers.Dumps({"dimensions": 2, "scale": 0.5})


def flexbuffer_seeds():
    """The FlexBuffers options of the transform operators, for the flexbuffer target."""
    out = ROOT / "Fuzz" / "seeds" / "flexbuffer"
    (out / "mediapipe_landmarks2transformmatrix.flex").write_bytes(bytes(L2TM))
    (out / "mediapipe_transformtensorbilinear.flex").write_bytes(bytes(TTB))


def main():
    flexbuffer_seeds()
    rng = np.random.default_rng(16)
    g = Graph()
    x = g.input([1, 4, 4, 2])
    w = g.tensor([3, 2, 2, 2], rng.standard_normal(24))
    b = g.tensor([3], [0.5, -0.5, 0.25])
    y = g.tensor([1, 8, 8, 3])
    g.custom("Convolution2DTransposeBias", [x, w, b], [y], ints(1, 2, 2))
    g.save("mediapipe-transpose-conv-bias", [y])

    g = Graph()
    x = g.input([1, 4, 4, 2])
    y, k = g.tensor([1, 2, 2, 2]), g.tensor([1, 2, 2, 2])
    z = g.tensor([1, 4, 4, 2])
    g.custom("MaxPoolingWithArgmax2D", [x], [y, k], POOL)
    g.custom("MaxUnpooling2D", [y, k], [z], POOL)
    g.save("mediapipe-pool-unpool", [z, k])

    g = Graph()
    x, k = g.input([1, 2, 2, 2]), g.input([1, 2, 2, 2])
    z = g.tensor([1, 4, 4, 2])
    g.custom("MaxUnpooling2D", [x, k], [z], POOL)
    g.save("mediapipe-unpool", [z])

    g = Graph()
    lm = g.input([1, 8, 3])
    feature = g.input([1, 6, 6, 4])
    m = g.tensor([1, 4, 4])
    s = g.tensor([1, 4, 4, 4])
    g.custom("Landmarks2TransformMatrix", [lm], [m], L2TM, version=2)
    g.custom("TransformTensorBilinear", [feature, m], [s], TTB, version=2)
    g.save("mediapipe-landmarks-transform-tensor", [m, s])

    g = Graph()
    points, matrix = g.input([1, 5, 2]), g.input([1, 4, 4])
    out = g.tensor([1, 5, 2])
    g.custom("TransformLandmarks", [points, matrix], [out], b"", version=2)
    g.save("mediapipe-transform-landmarks", [out])

    g = Graph()
    lm = g.input([1, 1, 1, 24])
    feature, points = g.input([1, 6, 6, 4]), g.input([1, 1, 1, 10])
    m, s, moved = g.tensor([1, 4, 4]), g.tensor([1, 4, 4, 4]), g.tensor([1, 1, 1, 10])
    g.custom("Landmarks2TransformMatrix", [lm], [m], L2TM_V1, version=1)
    g.custom("TransformTensor", [feature, m], [s], TT_V1, version=1)
    g.custom("TransformLandmarks", [points, m], [moved], TL_V1, version=1)
    g.save("mediapipe-transforms-v1", [m, s, moved])

    g = Graph()
    feature, matrix = g.input([1, 6, 6, 4]), g.input([1, 4, 4])
    s = g.tensor([1, 4, 4, 4])
    g.custom("TransformTensorBilinear", [feature, matrix], [s], TTB, version=2)
    g.save("mediapipe-transform-tensor", [s])


if __name__ == "__main__":
    main()
