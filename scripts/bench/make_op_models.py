#!/usr/bin/env python3
"""Writes one-operator models of the benchmark nets' layers into a folder (default
Benchmarks/models/ops/), so that `compare.sh` can time each operator against LiteRT:

  scripts/bench/make_op_models.py Benchmarks/models/ops
  scripts/bench/compare.sh --threads "1 2" Benchmarks/models/ops/*.tflite

A whole-model table says how far apart the engines are; these say where. Each model is a
single layer at the shape MobileNet v1/v2, the SSD detector or the MediaPipe face detectors
run it (names give the input and the operator), with random weights from a fixed seed:
float32 (`f32_*`) and full-integer int8 with per-channel weights (`int8_*`, calibrated on
seeded random inputs). A model already present is kept (delete the folder to remake them).
"""
from __future__ import annotations

import os
import pathlib
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

relu6 = tf.nn.relu6
conv, dw = tf.keras.layers.Conv2D, tf.keras.layers.DepthwiseConv2D

# name: (input shape without batch, layer), the input shapes of the nets' layers.
LAYERS = {
    "stem_conv3x3s2_224x224x3_32": ((224, 224, 3), lambda: conv(32, 3, 2, "same", activation=relu6)),
    "stem_conv5x5s2_128x128x3_24": ((128, 128, 3), lambda: conv(24, 5, 2, "same", activation="relu")),
    "pw_112x112x16_96": ((112, 112, 16), lambda: conv(96, 1, activation=relu6)),
    "pw_56x56x144_24": ((56, 56, 144), lambda: conv(24, 1)),
    "pw_14x14x384_64": ((14, 14, 384), lambda: conv(64, 1)),
    "pw_7x7x960_160": ((7, 7, 960), lambda: conv(160, 1)),
    "pw_20x20x576_546": ((20, 20, 576), lambda: conv(546, 1)),
    "dw3x3_112x112x32": ((112, 112, 32), lambda: dw(3, padding="same", activation=relu6)),
    "dw3x3_56x56x144": ((56, 56, 144), lambda: dw(3, padding="same", activation=relu6)),
    "dw3x3_14x14x576": ((14, 14, 576), lambda: dw(3, padding="same", activation=relu6)),
    "dw3x3s2_112x112x96": ((112, 112, 96), lambda: dw(3, 2, padding="same", activation=relu6)),
    "maxpool2x2_64x64x28": ((64, 64, 28), lambda: tf.keras.layers.MaxPool2D(2)),
    "logistic_3000x91": ((3000, 91), lambda: tf.keras.layers.Activation("sigmoid")),
}
INT8 = [
    "stem_conv3x3s2_224x224x3_32", "pw_112x112x16_96", "pw_56x56x144_24", "pw_14x14x384_64",
    "dw3x3_112x112x32", "dw3x3_14x14x576", "dw3x3s2_112x112x96",
]


def convert(shape, layer, int8: bool) -> bytes:
    tf.keras.utils.set_random_seed(7)
    x = tf.keras.Input(shape=shape, batch_size=1)
    converter = tf.lite.TFLiteConverter.from_keras_model(tf.keras.Model(x, layer()(x)))
    if int8:
        rng = np.random.default_rng(7)

        def calibration():
            for _ in range(8):
                yield [rng.uniform(-1, 1, (1, *shape)).astype(np.float32)]

        converter.optimizations = [tf.lite.Optimize.DEFAULT]
        converter.representative_dataset = calibration
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        converter.inference_input_type = tf.int8
        converter.inference_output_type = tf.int8
    return converter.convert()


def main() -> None:
    folder = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "Benchmarks/models/ops")
    folder.mkdir(parents=True, exist_ok=True)
    for name, (shape, layer) in LAYERS.items():
        for int8 in ([False, True] if name in INT8 else [False]):
            path = folder / f"{'int8' if int8 else 'f32'}_{name}.tflite"
            if not path.exists():
                path.write_bytes(convert(shape, layer, int8))
                print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
