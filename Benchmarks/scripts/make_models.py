#!/usr/bin/env python3
"""Writes the whole-model benchmark inputs into a cache folder (default Benchmarks/models/).

  mobilenet_v1_float.tflite   tf.keras.applications.MobileNet(alpha=1.0), 224x224x3, float32
  mobilenet_v2_float.tflite   tf.keras.applications.MobileNetV2(alpha=1.0), 224x224x3, float32
  mobilenet_v1_int8.tflite    the same nets, full-integer int8 (int8 input and output,
  mobilenet_v2_int8.tflite    per-channel int8 weights), calibrated on seeded random images

Weights are random (weights=None) from a fixed Keras seed, and no weights need
downloading. Each batch normalization is then set to the mean and variance its input
has on seeded random images, layer after layer: with the initializers' scales alone the
activations shrink through the net until they underflow (denormals, then zeros), which
is neither what a trained net computes nor a fair speed test. A model already present
is kept (delete Benchmarks/models/ to remake them).
"""
from __future__ import annotations

import os
import pathlib
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

SEED = 1234
SHAPE = (1, 224, 224, 3)


def build(name: str):
    import numpy as np
    import tensorflow as tf

    tf.keras.utils.set_random_seed(SEED)
    if name == "v1":
        model = tf.keras.applications.MobileNet(input_shape=SHAPE[1:], alpha=1.0, weights=None)
    else:
        model = tf.keras.applications.MobileNetV2(input_shape=SHAPE[1:], alpha=1.0, weights=None)
    images = np.random.default_rng(SEED).uniform(-1, 1, (4,) + SHAPE[1:]).astype(np.float32)
    for layer in model.layers:
        if isinstance(layer, tf.keras.layers.BatchNormalization):
            a = tf.keras.Model(model.inputs, layer.input)(images, training=False).numpy()
            axes = tuple(range(a.ndim - 1))
            gamma, beta, _, _ = layer.get_weights()
            layer.set_weights([gamma, beta, a.mean(axis=axes), a.var(axis=axes)])
    return model


def convert(model, int8: bool) -> bytes:
    import numpy as np
    import tensorflow as tf
    # Freeze the variables into constants (a plain concrete function would keep them as
    # resource variables, which LiteRT reads through VAR_HANDLE/READ_VARIABLE ops).
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

    spec = tf.TensorSpec(SHAPE, tf.float32)
    fn = convert_variables_to_constants_v2(tf.function(lambda x: model(x, training=False)).get_concrete_function(spec))
    converter = tf.lite.TFLiteConverter.from_concrete_functions([fn])
    if int8:
        rng = np.random.default_rng(SEED)

        def representative():
            for _ in range(8):
                yield [rng.uniform(-1, 1, SHAPE).astype(np.float32)]

        converter.optimizations = [tf.lite.Optimize.DEFAULT]
        converter.representative_dataset = representative
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        converter.inference_input_type = tf.int8
        converter.inference_output_type = tf.int8
    return converter.convert()


def main() -> int:
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[1] / "models")
    out.mkdir(parents=True, exist_ok=True)
    for net in ("v1", "v2"):
        wanted = [(kind, out / f"mobilenet_{net}_{kind}.tflite") for kind in ("float", "int8")]
        if all(path.exists() for _, path in wanted):
            continue
        model = build(net)
        for kind, path in wanted:
            if path.exists():
                continue
            data = convert(model, int8=(kind == "int8"))
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(data)
            tmp.rename(path)
            print(f"wrote {path} ({len(data):,} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
