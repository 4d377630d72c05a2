#!/usr/bin/env python3
"""Writes the whole-model benchmark inputs into a cache folder (default Benchmarks/models/).

  mobilenet_v1_float.tflite   tf.keras.applications.MobileNet(alpha=1.0), 224x224x3, float32
  mobilenet_v2_float.tflite   tf.keras.applications.MobileNetV2(alpha=1.0), 224x224x3, float32
  mobilenet_v1_int8.tflite    the same nets, full-integer int8 (int8 input and output,
  mobilenet_v2_int8.tflite    per-channel int8 weights), calibrated on seeded random images
  mobilenet_v1_uint8.tflite   the same nets, legacy uint8: asymmetric per-tensor uint8
  mobilenet_v2_uint8.tflite   activations and weights, int32 biases, uint8 input and output

Weights are random (weights=None) from a fixed Keras seed, and no weights need
downloading. Each batch normalization is then set to the mean and variance its input
has on seeded random images, layer after layer: with the initializers' scales alone the
activations shrink through the net until they underflow (denormals, then zeros), which
is neither what a trained net computes nor a fair speed test. A model already present
is kept (delete Benchmarks/models/ to remake them).

The uint8 models are what TF1's quantization-aware training exported (TF2's converter no
longer writes uint8): the converter makes an int8 model with per-tensor weights, and
`Fixtures/generate/tflite_edit.to_uint8` turns it into its uint8 twin (zero points + 128,
constant bytes flipped), which computes the same codes + 128. The weights must be
per-tensor: legacy uint8 models never had per-channel weights, and LiteRT's uint8
kernels take one scale and zero point.
"""
from __future__ import annotations

import os
import pathlib
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

HERE = pathlib.Path(__file__).resolve().parent
# tflite_edit lives with the fixture generators.
sys.path.insert(0, str(HERE.parents[1] / "Fixtures" / "generate"))

SEED = 1234
SHAPE = (1, 224, 224, 3)
KINDS = ("float", "int8", "uint8")


def calibrate_batch_norms(model, images) -> None:
    """Sets every batch normalization's moving mean and variance to its input's statistics
    on `images`, in layer order (so each sees the already calibrated layers before it)."""
    import tensorflow as tf

    for layer in model.layers:
        if isinstance(layer, tf.keras.layers.BatchNormalization):
            a = tf.keras.Model(model.inputs, layer.input)(images, training=False).numpy()
            axes = tuple(range(a.ndim - 1))
            gamma, beta, _, _ = layer.get_weights()
            layer.set_weights([gamma, beta, a.mean(axis=axes), a.var(axis=axes)])


def build(name: str):
    import numpy as np
    import tensorflow as tf

    tf.keras.utils.set_random_seed(SEED)
    if name == "v1":
        model = tf.keras.applications.MobileNet(input_shape=SHAPE[1:], alpha=1.0, weights=None)
    else:
        model = tf.keras.applications.MobileNetV2(input_shape=SHAPE[1:], alpha=1.0, weights=None)
    images = np.random.default_rng(SEED).uniform(-1, 1, (4,) + SHAPE[1:]).astype(np.float32)
    calibrate_batch_norms(model, images)
    return model


def representative(shape):
    import numpy as np

    rng = np.random.default_rng(SEED)

    def images():
        for _ in range(8):
            yield [rng.uniform(-1, 1, shape).astype(np.float32)]
    return images


def quantize(converter, shape, kind: str) -> None:
    """Full-integer settings for `kind`: int8 (per-channel weights) or uint8 (converted as
    int8 with per-tensor weights; the caller then applies to_uint8), with an int8 input."""
    import tensorflow as tf

    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    converter.representative_dataset = representative(shape)
    converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    converter.inference_input_type = tf.int8
    if kind == "uint8":
        converter._experimental_disable_per_channel = True


def to_uint8(data: bytes) -> bytes:
    import tflite_edit

    return tflite_edit.edit(data, tflite_edit.to_uint8)


def convert(model, kind: str) -> bytes:
    import tensorflow as tf
    # Freeze the variables into constants (a plain concrete function would keep them as
    # resource variables, which LiteRT reads through VAR_HANDLE/READ_VARIABLE ops).
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

    spec = tf.TensorSpec(SHAPE, tf.float32)
    fn = convert_variables_to_constants_v2(tf.function(lambda x: model(x, training=False)).get_concrete_function(spec))
    converter = tf.lite.TFLiteConverter.from_concrete_functions([fn])
    if kind != "float":
        quantize(converter, SHAPE, kind)
        converter.inference_output_type = tf.int8
    data = converter.convert()
    if kind == "uint8":
        data = to_uint8(data)
        check_legacy_uint8(data, float_tail=False)
    return data


def check_legacy_uint8(data: bytes, float_tail: bool) -> None:
    """Fails unless the model is legacy uint8: every non-constant tensor UINT8, weights
    UINT8 with one scale and zero point, INT32 constants only (biases and shapes), no INT8
    left anywhere. With float_tail, the outputs of DEQUANTIZE and of the post-process and
    the anchors may be FLOAT32 (the detector's tail after its uint8 body)."""
    import tflite_edit
    from tensorflow.lite.python import schema_py_generated as schema

    names = {v: k for k, v in vars(schema.TensorType).items() if not k.startswith("_")}
    ops = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}
    m = tflite_edit.load(data)
    sg = m.subgraphs[0]
    const = lambda i: m.buffers[sg.tensors[i].buffer].data is not None  # noqa: E731
    float_ok: set[int] = set()
    for op in sg.operators:
        code = m.operatorCodes[op.opcodeIndex]
        name = ops.get(max(code.builtinCode, code.deprecatedBuiltinCode), "?")
        if float_tail and (name == "DEQUANTIZE" or code.customCode == b"TFLite_Detection_PostProcess"):
            float_ok.update(op.outputs)
            float_ok.update(i for i in op.inputs if const(i))  # the anchors
        if name in ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED"):
            w, b = op.inputs[1], op.inputs[2]
            if names[sg.tensors[w].type] != "UINT8" or len(sg.tensors[w].quantization.scale) != 1:
                raise SystemExit(f"{name} weights {sg.tensors[w].name.decode()} are not per-tensor uint8")
            if b >= 0 and names[sg.tensors[b].type] != "INT32":
                raise SystemExit(f"{name} bias {sg.tensors[b].name.decode()} is not int32")
    for i, t in enumerate(sg.tensors):
        kind = names[t.type]
        if kind == "UINT8" or (kind == "INT32" and const(i)) or (kind == "FLOAT32" and i in float_ok):
            continue
        raise SystemExit(f"tensor {t.name.decode()} is {kind}, not legacy uint8")


def write(path: pathlib.Path, data: bytes) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(data)
    tmp.rename(path)
    print(f"wrote {path} ({len(data):,} bytes)", file=sys.stderr)


def main() -> int:
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else HERE.parent / "models")
    out.mkdir(parents=True, exist_ok=True)
    for net in ("v1", "v2"):
        wanted = [(kind, out / f"mobilenet_{net}_{kind}.tflite") for kind in KINDS]
        missing = [(kind, path) for kind, path in wanted if not path.exists()]
        if missing:
            model = build(net)
            for kind, path in missing:
                write(path, convert(model, kind))
    return 0


if __name__ == "__main__":
    sys.exit(main())
