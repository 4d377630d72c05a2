#!/usr/bin/env python3
"""Writes one-operator models of real networks' layers into a folder (default
Benchmarks/models/ops/), for `compare_ops.sh` to time each against LiteRT:

  scripts/bench/make_op_models.py [--only SUBSTRING] [FOLDER]
  scripts/bench/compare_ops.sh                      # makes them, times them, prints the table

Every operator with a kernel in the runtime that a converter emits gets a case on each
dtype path the runtime runs it on (`f32` float32, `int8` full-integer with per-channel
weights, `uint8` the legacy asymmetric form, `hyb` dynamic-range int8 weights with float
activations, `i16` 16-bit activations with int8 weights), at a shape one of these networks
runs it at: MobileNet v1/v2/v3 at 224, the SSD MobileNet v2 detector at 320 (1917 or 3000
anchors, 91 classes), the MediaPipe face detectors and selfie segmentation, an audio front
end, and a transformer encoder (64 or 128 tokens, width 128 or 768, 4 heads). Names are
`<path>_<operator>_<shape>`; weights are seeded. `ops.json` beside the models records, for
each model, its operator, path, origin, the bytes its operator reads and writes and, for
the operators that multiply-accumulate, the count (`compare_ops.py` turns them into
GB/s or GOP/s). A model already present is kept (delete it to remake it).
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "fixtures"))

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

tf.get_logger().setLevel("ERROR")

SEED = 7


class Op:
    """One operator case: `fn(rng, *inputs)` builds the TensorFlow body (constants from
    `rng`), `shapes` the inputs (batch included) with their calibration range, `paths` the
    dtype paths, `macs` the multiply-accumulates (0 for memory-bound operators), `flat` a
    hand-built model instead (`flat(path) -> bytes`)."""

    def __init__(self, op, name, origin, shapes=(), fn=None, paths=("f32",), macs=0, lo=-1.0, hi=1.0,
                 flat=None, post=None):
        self.op, self.name, self.origin = op, name, origin
        self.shapes, self.fn, self.paths, self.macs = list(shapes), fn, paths, macs
        self.lo, self.hi, self.flat, self.post = lo, hi, flat, post


def weight(rng, *shape):
    fan_in = int(np.prod(shape[:-1])) if len(shape) > 1 else 1
    return tf.constant((rng.uniform(-1, 1, shape) * (1.5 / np.sqrt(max(fan_in, 1)))).astype(np.float32))


def conv(filters, k, stride=1, act=None, cin=None):
    def f(rng, x):
        c = int(x.shape[-1])
        y = tf.nn.conv2d(x, weight(rng, k, k, c, filters), stride, "SAME") + weight(rng, filters) * 0.1
        return act(y) if act else y
    return f


def depthwise(k, stride=1, act=None):
    def f(rng, x):
        c = int(x.shape[-1])
        y = tf.nn.depthwise_conv2d(x, weight(rng, k, k, c, 1), [1, stride, stride, 1], "SAME") + weight(rng, c) * 0.1
        return act(y) if act else y
    return f


def dense(units, act=None):
    def f(rng, x):
        y = tf.matmul(x, weight(rng, int(x.shape[-1]), units)) + weight(rng, units) * 0.1
        return act(y) if act else y
    return f


relu6 = tf.nn.relu6


def conv_macs(h, w, cin, cout, k, stride=1):
    return (h // stride) * (w // stride) * cin * cout * k * k


def layer_norm(rng, x):
    """Keras LayerNormalization as the converter lowers it: MEAN, SQUARED_DIFFERENCE,
    MEAN, ADD, RSQRT, MUL, SUB/MUL/ADD."""
    gamma, beta = weight(rng, int(x.shape[-1])) + 1, weight(rng, int(x.shape[-1]))
    mean = tf.reduce_mean(x, -1, keepdims=True)
    var = tf.reduce_mean(tf.math.squared_difference(x, mean), -1, keepdims=True)
    return (x - mean) * tf.math.rsqrt(var + 1e-3) * gamma + beta


# ----------------------------------------------------------------------------- flat models

def flat_unary(code, in_type, out_type, shape, in_q=None, out_q=None):
    """One operator between an input and an output of the given types and quantization."""
    def build(path):
        from flatmodel import FlatModel
        m = FlatModel()
        x = m.tensor("x", in_type, shape, **(dict(scale=in_q[0], zero_point=in_q[1]) if in_q else {}))
        y = m.tensor("y", out_type, shape, **(dict(scale=out_q[0], zero_point=out_q[1]) if out_q else {}))
        m.op(code, [x], [y])
        return m.finish(inputs=[x], outputs=[y])
    return build


def detection(regular: bool, anchors: int = 1917, classes: int = 90):
    """TFLite_Detection_PostProcess over the SSD's anchors and scores (the COCO class
    count plus background), fast or regular NMS, converted from an `experimental_implements`
    function as the detectors are."""
    def build(path):
        sys.path.insert(0, str(HERE.parent / "fixtures" / "conformance"))
        from cases_detection import _signature
        rng = np.random.default_rng(SEED)
        side = int(np.ceil(np.sqrt(anchors)))
        ys, xs = np.meshgrid(np.linspace(0.05, 0.95, side), np.linspace(0.05, 0.95, side), indexing="ij")
        centers = np.stack([ys.reshape(-1), xs.reshape(-1)], 1)[:anchors]
        sizes = rng.uniform(0.1, 0.4, (anchors, 2))
        anchor_table = tf.constant(np.concatenate([centers, sizes], 1).astype(np.float32))
        p = dict(max_detections=100 if regular else 10, max_classes_per_detection=1, detections_per_class=100,
                 use_regular_nms=regular, nms_score_threshold=0.5, nms_iou_threshold=0.6, y_scale=10.0,
                 x_scale=10.0, h_scale=5.0, w_scale=5.0, num_classes=classes)

        @tf.function(experimental_implements=_signature(p))
        def post(box, cls, anc):
            z = tf.constant(0.0)
            return z, z, z, z

        module = tf.Module()
        module.f = tf.function(lambda b, c: post(b, c, anchor_table), autograph=False, input_signature=[
            tf.TensorSpec((1, anchors, 4), tf.float32, name="in0"),
            tf.TensorSpec((1, anchors, classes + 1), tf.float32, name="in1")])
        converter = tf.lite.TFLiteConverter.from_concrete_functions([module.f.get_concrete_function()], module)
        converter.allow_custom_ops = True
        return converter.convert()
    return build


# ----------------------------------------------------------------------------- the cases

def cases() -> list:
    S = tf.nn.sigmoid
    ops = [
        # Convolutions (MobileNet v1/v2/v3, SSD, face detectors, selfie segmentation).
        Op("CONV_2D", "stem3x3s2_224x224x3_32", "MobileNet v1/v2 stem", [(1, 224, 224, 3)], conv(32, 3, 2, relu6),
           ("f32", "int8", "uint8"), conv_macs(224, 224, 3, 32, 3, 2)),
        Op("CONV_2D", "stem5x5s2_128x128x3_24", "face detector stem", [(1, 128, 128, 3)],
           conv(24, 5, 2, tf.nn.relu), ("f32", "int8"), conv_macs(128, 128, 3, 24, 5, 2)),
        Op("CONV_2D", "pw_112x112x16_96", "MobileNet v2 expansion", [(1, 112, 112, 16)], conv(96, 1, act=relu6),
           ("f32", "int8", "uint8"), conv_macs(112, 112, 16, 96, 1)),
        Op("CONV_2D", "pw_56x56x144_24", "MobileNet v2 projection", [(1, 56, 56, 144)], conv(24, 1),
           ("f32", "int8"), conv_macs(56, 56, 144, 24, 1)),
        Op("CONV_2D", "pw_14x14x384_64", "MobileNet v2 projection", [(1, 14, 14, 384)], conv(64, 1),
           ("f32", "int8"), conv_macs(14, 14, 384, 64, 1)),
        Op("CONV_2D", "pw_7x7x960_160", "MobileNet v2 projection", [(1, 7, 7, 960)], conv(160, 1),
           ("f32", "int8"), conv_macs(7, 7, 960, 160, 1)),
        Op("CONV_2D", "pw_20x20x576_546", "SSD class head", [(1, 20, 20, 576)], conv(546, 1),
           ("f32", "int8"), conv_macs(20, 20, 576, 546, 1)),
        Op("CONV_2D", "conv3x3_64x64x32_32", "selfie segmentation decoder", [(1, 64, 64, 32)],
           conv(32, 3, act=tf.nn.relu), ("f32", "int8", "hyb"), conv_macs(64, 64, 32, 32, 3)),
        Op("DEPTHWISE_CONV_2D", "dw3x3_112x112x32", "MobileNet v1/v2", [(1, 112, 112, 32)], depthwise(3, act=relu6),
           ("f32", "int8", "uint8"), 112 * 112 * 32 * 9),
        Op("DEPTHWISE_CONV_2D", "dw3x3_56x56x144", "MobileNet v2", [(1, 56, 56, 144)], depthwise(3, act=relu6),
           ("f32", "int8"), 56 * 56 * 144 * 9),
        Op("DEPTHWISE_CONV_2D", "dw3x3_14x14x576", "MobileNet v2", [(1, 14, 14, 576)], depthwise(3, act=relu6),
           ("f32", "int8"), 14 * 14 * 576 * 9),
        Op("DEPTHWISE_CONV_2D", "dw3x3s2_112x112x96", "MobileNet v2", [(1, 112, 112, 96)],
           depthwise(3, 2, relu6), ("f32", "int8"), 56 * 56 * 96 * 9),
        Op("DEPTHWISE_CONV_2D", "dw5x5_28x28x120", "MobileNet v3 large", [(1, 28, 28, 120)],
           depthwise(5, act=tf.nn.relu), ("f32", "int8"), 28 * 28 * 120 * 25),
        Op("DEPTHWISE_CONV_2D", "dw5x5s2_28x28x240", "MobileNet v3 large", [(1, 28, 28, 240)],
           depthwise(5, 2), ("f32", "int8"), 14 * 14 * 240 * 25),
        Op("DEPTHWISE_CONV_2D", "dw5x5_7x7x960", "MobileNet v3 large", [(1, 7, 7, 960)], depthwise(5),
           ("f32", "int8"), 7 * 7 * 960 * 25),
        Op("FULLY_CONNECTED", "1x1280_1000", "MobileNet v2 classifier", [(1, 1280)], dense(1000),
           ("f32", "int8", "hyb"), 1280 * 1000),
        Op("FULLY_CONNECTED", "64x128_128", "transformer encoder projection", [(64, 128)], dense(128),
           ("f32", "int8", "hyb"), 64 * 128 * 128),
        Op("FULLY_CONNECTED", "64x128_256", "transformer encoder feed-forward", [(64, 128)], dense(256),
           ("f32", "int8", "hyb"), 64 * 128 * 256),
        Op("FULLY_CONNECTED", "64x256_128", "transformer encoder feed-forward", [(64, 256)], dense(128),
           ("f32", "int8", "hyb"), 64 * 256 * 128),
        Op("FULLY_CONNECTED", "128x768_768", "BERT-base projection", [(128, 768)], dense(768),
           ("f32", "int8", "hyb"), 128 * 768 * 768),
        Op("BATCH_MATMUL", "4x64x32_4x32x64", "attention scores", [(4, 64, 32), (4, 32, 64)],
           lambda rng, a, b: tf.matmul(a, b), ("f32", "int8", "i16"), 4 * 64 * 32 * 64),
        Op("BATCH_MATMUL", "4x64x64_4x64x32", "attention values", [(4, 64, 64), (4, 64, 32)],
           lambda rng, a, b: tf.matmul(a, b), ("f32", "int8", "i16"), 4 * 64 * 64 * 32, lo=0.0),
        Op("TRANSPOSE_CONV", "2x_32x32x64_32", "selfie segmentation upsampling", [(1, 32, 32, 64)],
           lambda rng, x: tf.nn.conv2d_transpose(x, weight(rng, 2, 2, 32, 64), (1, 64, 64, 32), 2, "SAME"),
           ("f32", "int8"), 64 * 64 * 32 * 64),
        # Pooling.
        Op("MAX_POOL_2D", "2x2_64x64x28", "face detector", [(1, 64, 64, 28)],
           lambda rng, x: tf.nn.max_pool2d(x, 2, 2, "VALID"), ("f32", "int8")),
        Op("MAX_POOL_2D", "3x3s2_112x112x64", "ResNet-style stem pool", [(1, 112, 112, 64)],
           lambda rng, x: tf.nn.max_pool2d(x, 3, 2, "SAME"), ("f32", "int8", "uint8")),
        Op("AVERAGE_POOL_2D", "7x7_7x7x1024", "MobileNet v1 global pool", [(1, 7, 7, 1024)],
           lambda rng, x: tf.nn.avg_pool2d(x, 7, 7, "VALID"), ("f32", "int8", "uint8")),
        Op("AVERAGE_POOL_2D", "3x3_56x56x64", "selfie segmentation", [(1, 56, 56, 64)],
           lambda rng, x: tf.nn.avg_pool2d(x, 3, 1, "SAME"), ("f32", "int8")),
        # Elementwise arithmetic.
        Op("ADD", "56x56x24", "MobileNet v2 residual", [(1, 56, 56, 24)] * 2, lambda rng, a, b: a + b,
           ("f32", "int8", "uint8")),
        Op("ADD", "64x128_128", "transformer bias / residual (broadcast)", [(1, 64, 128)],
           lambda rng, a: a + weight(rng, 1, 1, 128), ("f32", "int8")),
        Op("ADD", "1917x91_91", "broadcast over anchors", [(1, 1917, 91)], lambda rng, a: a + weight(rng, 1, 1, 91),
           ("f32",)),
        Op("SUB", "128x768_128x1", "layer norm centering", [(1, 128, 768), (1, 128, 1)],
           lambda rng, a, b: a - b, ("f32", "int8")),
        Op("MUL", "56x56x144", "elementwise product", [(1, 56, 56, 144)] * 2, lambda rng, a, b: a * b,
           ("f32", "int8", "uint8")),
        Op("MUL", "28x28x120_120", "MobileNet v3 squeeze-excite scale", [(1, 28, 28, 120), (1, 1, 1, 120)],
           lambda rng, a, b: a * b, ("f32", "int8"), lo=0.0),
        Op("MUL", "56x56x144_144", "squeeze-excite scale", [(1, 56, 56, 144), (1, 1, 1, 144)],
           lambda rng, a, b: a * b, ("f32", "int8"), lo=0.0),
        Op("DIV", "128x768_128x1", "normalization", [(1, 128, 768), (1, 128, 1)],
           lambda rng, a, b: a / b, ("f32",), lo=0.5, hi=2.0),
        Op("SQUARED_DIFFERENCE", "128x768_128x1", "layer norm variance", [(1, 128, 768), (1, 128, 1)],
           lambda rng, a, b: tf.math.squared_difference(a, b), ("f32", "int8")),
        Op("MAXIMUM", "56x56x144", "elementwise maximum", [(1, 56, 56, 144)] * 2, lambda rng, a, b: tf.maximum(a, b),
           ("f32", "int8")),
        Op("MINIMUM", "56x56x144", "elementwise minimum", [(1, 56, 56, 144)] * 2, lambda rng, a, b: tf.minimum(a, b),
           ("f32", "int8")),
        # Activations.
        Op("TANH", "1917x91", "SSD scores", [(1, 1917, 91)], lambda rng, x: tf.tanh(x), ("f32", "int8", "i16"),
           lo=-4.0, hi=4.0),
        Op("LOGISTIC", "3000x91", "SSD class scores", [(3000, 91)], lambda rng, x: S(x), ("f32", "int8", "uint8"),
           lo=-8.0, hi=8.0),
        Op("HARD_SWISH", "112x112x16", "MobileNet v3 stem", [(1, 112, 112, 16)],
           lambda rng, x: x * relu6(x + 3) / 6, ("f32", "int8"), lo=-6.0, hi=6.0),
        Op("LEAKY_RELU", "1917x91", "detector head", [(1, 1917, 91)], lambda rng, x: tf.nn.leaky_relu(x, 0.1),
           ("f32", "int8")),
        Op("PRELU", "128x128x16", "selfie segmentation, face mesh", [(1, 128, 128, 16)],
           lambda rng, x: tf.nn.relu(x) - weight(rng, 1, 1, 16) * tf.nn.relu(-x), ("f32", "int8")),
        Op("RELU", "112x112x32", "standalone activation", [(1, 112, 112, 32)], lambda rng, x: tf.nn.relu(x),
           ("f32", "int8")),
        Op("RELU6", "112x112x32", "standalone activation", [(1, 112, 112, 32)], lambda rng, x: tf.nn.relu6(x * 4),
           ("f32",)),
        Op("ELU", "64x256", "feed-forward activation", [(1, 64, 256)], lambda rng, x: tf.nn.elu(x), ("f32",)),
        Op("GELU", "64x256", "transformer encoder feed-forward", [(1, 64, 256)],
           lambda rng, x: tf.nn.gelu(x, approximate=False), ("f32", "int8"), lo=-4.0, hi=4.0),
        Op("GELU", "tanh_64x256", "transformer feed-forward (tanh form)", [(1, 64, 256)],
           lambda rng, x: tf.nn.gelu(x, approximate=True), ("f32",), lo=-4.0, hi=4.0),
        Op("SOFTMAX", "1x1000", "classifier", [(1, 1000)], lambda rng, x: tf.nn.softmax(x * 4), ("f32", "int8")),
        Op("SOFTMAX", "4x64x64", "transformer encoder attention", [(1, 4, 64, 64)],
           lambda rng, x: tf.nn.softmax(x * 4), ("f32", "int8")),
        Op("SOFTMAX", "4x128x128", "attention over 128 tokens", [(1, 4, 128, 128)],
           lambda rng, x: tf.nn.softmax(x * 4), ("f32",)),
        Op("LOG_SOFTMAX", "1x1000", "classifier", [(1, 1000)], lambda rng, x: tf.nn.log_softmax(x * 4),
           ("f32", "int8")),
        Op("EXP", "128x768", "elementwise math", [(1, 128, 768)], lambda rng, x: tf.exp(x), ("f32",)),
        Op("LOG", "99x16", "audio front end log-mel", [(1, 99, 16)], lambda rng, x: tf.math.log(x + 1e-6),
           ("f32",), lo=0.0, hi=4.0),
        Op("LOG", "128x768", "elementwise math", [(1, 128, 768)], lambda rng, x: tf.math.log(x), ("f32",),
           lo=0.01, hi=4.0),
        Op("SQRT", "128x768", "elementwise math", [(1, 128, 768)], lambda rng, x: tf.sqrt(x), ("f32",),
           lo=0.0, hi=4.0),
        Op("RSQRT", "128x768", "layer norm scale", [(1, 128, 768)], lambda rng, x: tf.math.rsqrt(x), ("f32", "int8"),
           lo=0.05, hi=4.0),
        Op("ABS", "128x768", "elementwise math", [(1, 128, 768)], lambda rng, x: tf.abs(x), ("f32", "int8")),
        Op("NEG", "128x768", "elementwise math", [(1, 128, 768)], lambda rng, x: -x, ("f32",)),
        Op("SQUARE", "128x768", "elementwise math", [(1, 128, 768)], lambda rng, x: tf.square(x), ("f32",)),
        Op("SIN", "128x768", "positional encoding", [(1, 128, 768)], lambda rng, x: tf.sin(x * 3), ("f32",)),
        # Layer norms as converted (several operators).
        Op("LAYER_NORM", "128x768", "transformer layer norm (MEAN, SQUARED_DIFFERENCE, RSQRT, ...)",
           [(1, 128, 768)], layer_norm, ("f32", "int8")),
        Op("LAYER_NORM", "64x128", "transformer encoder layer norm", [(1, 64, 128)], layer_norm, ("f32", "int8")),
        # Quantization.
        Op("QUANTIZE", "f32_int8_320x320x3", "detector input", flat=flat_unary(114, "float32", "int8", (1, 320, 320, 3),
                                                                                 out_q=(1 / 128, 0)), paths=("any",)),
        Op("QUANTIZE", "uint8_int8_320x320x3", "uint8-input SSD", flat=flat_unary(
            114, "uint8", "int8", (1, 320, 320, 3), in_q=(1 / 128, 128), out_q=(1 / 128, 0)), paths=("any",)),
        Op("QUANTIZE", "int8_int8_40x40x128", "rescale before a concatenation", flat=flat_unary(
            114, "int8", "int8", (1, 40, 40, 128), in_q=(0.0473, -3), out_q=(0.0712, 6)), paths=("any",)),
        Op("DEQUANTIZE", "int8_1917x91", "SSD scores", flat=flat_unary(
            6, "int8", "float32", (1, 1917, 91), in_q=(1 / 256, -128)), paths=("any",)),
        Op("DEQUANTIZE", "int8_2034x4", "SSD box encodings", flat=flat_unary(
            6, "int8", "float32", (1, 2034, 4), in_q=(0.05, 3)), paths=("any",)),
        Op("DEQUANTIZE", "uint8_1917x91", "legacy SSD scores", flat=flat_unary(
            6, "uint8", "float32", (1, 1917, 91), in_q=(1 / 256, 0)), paths=("any",)),
        # Reductions.
        Op("MEAN", "7x7x1280", "MobileNet v2 global pool", [(1, 7, 7, 1280)],
           lambda rng, x: tf.reduce_mean(x, [1, 2], keepdims=True), ("f32", "int8", "uint8")),
        Op("MEAN", "28x28x120", "MobileNet v3 squeeze-excite", [(1, 28, 28, 120)],
           lambda rng, x: tf.reduce_mean(x, [1, 2], keepdims=True), ("f32", "int8")),
        Op("MEAN", "128x768_last", "layer norm mean", [(1, 128, 768)],
           lambda rng, x: tf.reduce_mean(x, -1, keepdims=True), ("f32", "int8")),
        Op("SUM", "128x768_last", "reduction", [(1, 128, 768)], lambda rng, x: tf.reduce_sum(x, -1), ("f32",)),
        Op("REDUCE_MAX", "128x768_last", "reduction", [(1, 128, 768)], lambda rng, x: tf.reduce_max(x, -1),
           ("f32", "int8")),
        Op("ARG_MAX", "1x1001", "classifier", [(1, 1001)], lambda rng, x: tf.argmax(x, -1, output_type=tf.int32),
           ("f32", "int8")),
        Op("ARG_MAX", "256x256x2", "segmentation mask", [(1, 256, 256, 2)],
           lambda rng, x: tf.argmax(x, -1, output_type=tf.int32), ("f32",)),
        # Data movement.
        Op("TRANSPOSE", "64x4x32", "attention heads", [(1, 64, 4, 32)],
           lambda rng, x: tf.transpose(x, [0, 2, 1, 3]), ("f32", "int8")),
        Op("TRANSPOSE", "128x12x64", "BERT-base attention heads", [(1, 128, 12, 64)],
           lambda rng, x: tf.transpose(x, [0, 2, 1, 3]), ("f32", "int8")),
        Op("CONCATENATION", "1200x91_600x91_117x91", "SSD score maps", [(1, 1200, 91), (1, 600, 91), (1, 117, 91)],
           lambda rng, a, b, c: tf.concat([a, b, c], 1), ("f32", "int8")),
        Op("CONCATENATION", "40x40x64_40x40x64", "channel concatenation", [(1, 40, 40, 64)] * 2,
           lambda rng, a, b: tf.concat([a, b], -1), ("f32", "int8")),
        Op("PAD", "64x64x24_ch32", "face detector channel pad", [(1, 64, 64, 24)],
           lambda rng, x: tf.pad(x, [[0, 0], [0, 0], [0, 0], [0, 8]]), ("f32", "int8")),
        Op("PAD", "112x112x32_hw", "stride-2 convolution padding", [(1, 112, 112, 32)],
           lambda rng, x: tf.pad(x, [[0, 0], [0, 1], [0, 1], [0, 0]]), ("f32", "int8")),
        Op("MIRROR_PAD", "64x64x32", "image-to-image padding", [(1, 64, 64, 32)],
           lambda rng, x: tf.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], "REFLECT"), ("f32",)),
        Op("STRIDED_SLICE", "64x384_q", "query from a fused projection", [(1, 64, 384)],
           lambda rng, x: x[:, :, 128:256], ("f32", "int8")),
        Op("SLICE", "1917x91_90", "scores without background", [(1, 1917, 91)],
           lambda rng, x: tf.slice(x, [0, 0, 1], [1, 1917, 90]), ("f32",)),
        Op("SPLIT", "64x384_3", "query, key, value", [(1, 64, 384)], lambda rng, x: tf.split(x, 3, -1),
           ("f32", "int8")),
        Op("GATHER", "512x128_64", "token embedding", [(512, 128)],
           lambda rng, x: tf.gather(x, tf.constant(rng.integers(0, 512, 64).astype(np.int32))), ("f32", "int8")),
        Op("RESIZE_BILINEAR", "40x40x128_80x80", "feature pyramid upsampling", [(1, 40, 40, 128)],
           lambda rng, x: tf.image.resize(x, (80, 80), "bilinear"), ("f32", "int8", "uint8")),
        Op("RESIZE_BILINEAR", "32x32x16_256x256", "selfie segmentation mask", [(1, 32, 32, 16)],
           lambda rng, x: tf.compat.v1.image.resize_bilinear(x, (256, 256), align_corners=True), ("f32", "int8")),
        Op("RESIZE_NEAREST_NEIGHBOR", "40x40x128_80x80", "feature pyramid upsampling", [(1, 40, 40, 128)],
           lambda rng, x: tf.image.resize(x, (80, 80), "nearest"), ("f32", "int8")),
        Op("DEPTH_TO_SPACE", "56x56x64_2", "sub-pixel upsampling", [(1, 56, 56, 64)],
           lambda rng, x: tf.nn.depth_to_space(x, 2), ("f32", "int8")),
        Op("SPACE_TO_DEPTH", "112x112x16_2", "space to depth", [(1, 112, 112, 16)],
           lambda rng, x: tf.nn.space_to_depth(x, 2), ("f32",)),
        Op("TILE", "1x64x128_4", "repeat", [(1, 64, 128)], lambda rng, x: tf.tile(x, [4, 1, 1]), ("f32",)),
        Op("PACK", "4x64x128", "stack heads", [(64, 128)] * 4, lambda rng, a, b, c, d: tf.stack([a, b, c, d]),
           ("f32",)),
        Op("CAST", "1917x91_int32", "float to integer", [(1, 1917, 91)],
           lambda rng, x: tf.cast(x * 100, tf.int32), ("f32",)),
        Op("L2_NORMALIZATION", "64x128", "embedding normalization", [(64, 128)],
           lambda rng, x: tf.math.l2_normalize(x, -1), ("f32", "int8")),
        # Post-process of the SSD detectors.
        Op("TFLite_Detection_PostProcess", "fast_1917x91", "SSD MobileNet v2 (fast NMS)", flat=detection(False),
           paths=("any",)),
        Op("TFLite_Detection_PostProcess", "regular_1917x91", "SSD MobileNet v2 (regular NMS)", flat=detection(True),
           paths=("any",)),
    ]
    return ops


# ----------------------------------------------------------------------------- conversion

def representative(case: Op):
    def gen():
        rng = np.random.default_rng(SEED)
        for _ in range(8):
            yield [rng.uniform(case.lo, case.hi, s).astype(np.float32) for s in case.shapes]
        ends = []
        for s in case.shapes:
            a = np.full(s, case.lo, np.float32).reshape(-1)
            a[1::2] = case.hi
            ends.append(a.reshape(s))
        yield ends
    return gen


def convert(case: Op, path: str) -> bytes:
    if case.flat is not None:
        return case.flat(path)
    rng = np.random.default_rng(SEED)
    signature = [tf.TensorSpec(s, tf.float32, name=f"in{k}") for k, s in enumerate(case.shapes)]
    module = tf.Module()
    module.f = tf.function(lambda *xs: case.fn(rng, *xs), input_signature=signature, autograph=False)
    converter = tf.lite.TFLiteConverter.from_concrete_functions([module.f.get_concrete_function()], module)
    if path == "hyb":
        converter.optimizations = [tf.lite.Optimize.DEFAULT]
    elif path in ("int8", "uint8", "i16"):
        converter.optimizations = [tf.lite.Optimize.DEFAULT]
        converter.representative_dataset = representative(case)
        if path == "i16":
            converter.target_spec.supported_ops = [
                tf.lite.OpsSet.EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8]
            converter.inference_input_type = converter.inference_output_type = tf.int16
        else:
            converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
            converter.inference_input_type = converter.inference_output_type = tf.int8
    data = converter.convert()
    if path == "uint8":
        # The int8 model's uint8 twin (zero points + 128, constant codes flipped), the form
        # of legacy quantized models.
        import tflite_edit
        data = tflite_edit.edit(data, tflite_edit.to_uint8)
    return data


def operator_bytes(data: bytes) -> tuple:
    """(operator names, bytes read and written by the model's operators): every operator's
    input and output tensors, constants included, each counted once per use."""
    from tensorflow.lite.python import schema_py_generated as schema
    m = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(data, 0))
    sizes = {schema.TensorType.FLOAT32: 4, schema.TensorType.INT32: 4, schema.TensorType.INT64: 8,
             schema.TensorType.INT16: 2, schema.TensorType.FLOAT16: 2, schema.TensorType.BOOL: 1}
    sg = m.subgraphs[0]
    total, names = 0, []
    for op in sg.operators:
        code = m.operatorCodes[op.opcodeIndex]
        builtin = max(code.builtinCode, code.deprecatedBuiltinCode)
        names.append(code.customCode.decode() if code.customCode else
                     next(k for k, v in vars(schema.BuiltinOperator).items() if v == builtin))
        for i in list(op.inputs) + list(op.outputs):
            if i < 0:
                continue
            t = sg.tensors[i]
            total += int(np.prod(t.shape)) * sizes.get(t.type, 1) if t.shape is not None else 0
    return names, total


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("folder", nargs="?", default=str(HERE.parents[1] / "Benchmarks" / "models" / "ops"))
    p.add_argument("--only", default="", help="make only the models whose name contains this")
    a = p.parse_args()
    folder = pathlib.Path(a.folder)
    folder.mkdir(parents=True, exist_ok=True)
    index_path = folder / "ops.json"
    index = json.loads(index_path.read_text()) if index_path.exists() else {}
    for case in cases():
        for path in case.paths:
            name = f"{path}_{case.op.lower()}_{case.name}" if path != "any" else f"{case.op.lower()}_{case.name}"
            if a.only and a.only not in name:
                continue
            file = folder / f"{name}.tflite"
            if not file.exists():
                try:
                    data = convert(case, path)
                except Exception as e:  # a converter that cannot make this path
                    print(f"skipped {name}: {type(e).__name__}: {str(e).splitlines()[0][:200]}", file=sys.stderr)
                    continue
                file.write_bytes(data)
                print(f"wrote {file}", file=sys.stderr)
            names, moved = operator_bytes(file.read_bytes())
            index[name] = {"operator": case.op, "path": path, "origin": case.origin, "operators": names,
                           "bytes": moved, "macs": case.macs}
    index_path.write_text(json.dumps(index, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
