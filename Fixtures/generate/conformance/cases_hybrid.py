"""Hybrid (dynamic-range quantized) single-op cases: float32 activations, int8 weights.

`converters.build_hybrid` converts with DEFAULT optimizations and no representative
dataset. The converter then stores constant weights of at least 1024 elements as int8
(per channel: CONV_2D / FULLY_CONNECTED / TRANSPOSE_CONV along dimension 0,
DEPTHWISE_CONV_2D along 3; BATCH_MATMUL per tensor) and the op reads them directly:
LiteRT quantizes the float input at run time (per batch row or per image), multiplies
int8 by int8 and rescales to float. GATHER is the exception: an int8 GATHER on the
weights followed by a DEQUANTIZE. Weights here are large enough to be quantized.
"""
import numpy as np
import tensorflow as tf

from common import Case, In, weights
from converters import build_hybrid
from cases_float import ACTS


def H(op, cid, params, inputs, fn, **kw):
    return Case(op=op, case_id=f"hyb_{cid}", dtype="hybrid", params=params, inputs=inputs,
                build=build_hybrid, fn=fn, **kw)


def _row_signs(shape):
    """Rows that pin the input quantization's corner cases: all zeros (scale 1),
    all positive (zero point -128), all negative (zero point 127), mixed."""
    r = np.random.default_rng(20240611)
    rows = [np.zeros(shape[1]), r.uniform(0.1, 2.0, shape[1]), r.uniform(-3.0, -0.5, shape[1]),
            r.uniform(-1.0, 4.0, shape[1])]
    return np.stack(rows).astype(np.float32)


def fc_cases():
    out = []
    for cid, b, i, o, act, bias, extra in [
        ("64to32", 3, 64, 32, "NONE", True, {}),
        ("128to16_relu", 4, 128, 16, "RELU", True, {}),
        ("48to40_relu6_nobias", 2, 48, 40, "RELU6", False, {}),
        ("32to48_n1to1", 5, 32, 48, "RELU_N1_TO_1", True, {}),
        ("64to24_per_tensor", 3, 64, 24, "NONE", True, {"quantization": "per_tensor"}),
        ("64to32_symmetric", 3, 64, 32, "NONE", True, {"asymmetric_inputs": False}),
        ("64to20_per_tensor_symmetric", 2, 64, 20, "RELU", True,
         {"quantization": "per_tensor", "asymmetric_inputs": False}),
    ]:
        def fn(r, x, i=i, o=o, act=act, bias=bias):
            y = tf.matmul(x, tf.constant(weights(r, (i, o))))
            if bias:
                y = y + tf.constant(r.uniform(-0.5, 0.5, o).astype(np.float32))
            return ACTS[act](y)
        params = dict(batch=b, in_features=i, out_features=o, activation=act, bias=bias,
                      quantization=extra.get("quantization", "per_channel"),
                      asymmetric_inputs=extra.get("asymmetric_inputs", True))
        out.append(H("FULLY_CONNECTED", cid, params, [In((b, i), -2, 2)], fn,
                     extra={k: v for k, v in extra.items() if k == "asymmetric_inputs"}))
    for cid, asym in [("row_signs", True), ("row_signs_symmetric", False)]:
        out.append(H("FULLY_CONNECTED", cid,
                     dict(batch=4, in_features=40, out_features=32, rows="zeros, positive, negative, mixed",
                          asymmetric_inputs=asym),
                     [In((4, 40), values=_row_signs((4, 40)))],
                     lambda r, x: tf.matmul(x, tf.constant(weights(r, (40, 32)))),
                     extra={"asymmetric_inputs": asym}))
    out.append(H("FULLY_CONNECTED", "rank3_keep_dims", dict(input=(2, 3, 64), out_features=24, keep_num_dims=True),
                 [In((2, 3, 64))], lambda r, x: tf.tensordot(x, tf.constant(weights(r, (64, 24))), axes=1)))
    return out


def conv_cases():
    out = []
    # (id, input NHWC, kernel, out_c, stride, padding, dilation, act, quantization)
    specs = [
        ("k3_s1_same", (1, 8, 8, 16), (3, 3), 16, 1, "SAME", 1, "NONE", "per_channel"),
        ("k3_s2_valid_relu6", (1, 9, 9, 12), (3, 3), 24, 2, "VALID", 1, "RELU6", "per_channel"),
        ("k1_s1_relu", (1, 5, 5, 64), (1, 1), 32, 1, "VALID", 1, "RELU", "per_channel"),
        ("k3_dil2_same", (1, 9, 9, 8), (3, 3), 16, 1, "SAME", 2, "NONE", "per_channel"),
        ("k5_s2_same_batch2", (2, 7, 7, 8), (5, 5), 8, 2, "SAME", 1, "RELU_N1_TO_1", "per_channel"),
        ("k3_s1_same_per_tensor", (1, 7, 7, 16), (3, 3), 16, 1, "SAME", 1, "NONE", "per_tensor"),
        ("k3_s2_same_per_tensor_batch2", (2, 8, 7, 12), (3, 3), 12, 2, "SAME", 1, "RELU", "per_tensor"),
        ("k3_out1ch", (1, 6, 6, 128), (3, 3), 1, 1, "SAME", 1, "NONE", "per_channel"),
    ]
    for cid, shape, (kh, kw), oc, s, pad, dil, act, quant in specs:
        def fn(r, x, kh=kh, kw=kw, ic=shape[3], oc=oc, s=s, pad=pad, dil=dil, act=act):
            w = tf.constant(weights(r, (kh, kw, ic, oc)))
            b = tf.constant(r.uniform(-0.5, 0.5, oc).astype(np.float32))
            y = tf.nn.conv2d(x, w, strides=[1, s, s, 1], padding=pad, dilations=[1, dil, dil, 1])
            return ACTS[act](y + b)
        out.append(H("CONV_2D", cid, dict(input=shape, kernel=[kh, kw], out_channels=oc, stride=s, padding=pad,
                                           dilation=dil, activation=act, quantization=quant),
                     [In(shape)], fn))
    return out


def depthwise_cases():
    out = []
    specs = [
        ("k3_m1_s1_same", (1, 8, 8, 128), (3, 3), 1, 1, "SAME", 1, "NONE"),
        ("k3_m2_s2_same_relu", (1, 9, 9, 64), (3, 3), 2, 2, "SAME", 1, "RELU"),
        ("k5_m1_batch2_relu6", (2, 7, 7, 48), (5, 5), 1, 1, "SAME", 1, "RELU6"),
        ("k3_dil2_valid", (1, 9, 9, 128), (3, 3), 1, 1, "VALID", 2, "NONE"),
    ]
    for cid, shape, (kh, kw), m, s, pad, dil, act in specs:
        def fn(r, x, kh=kh, kw=kw, ic=shape[3], m=m, s=s, pad=pad, dil=dil, act=act):
            w = tf.constant(weights(r, (kh, kw, ic, m), scale=1.5 / np.sqrt(kh * kw)))
            b = tf.constant(r.uniform(-0.5, 0.5, ic * m).astype(np.float32))
            y = tf.nn.depthwise_conv2d(x, w, strides=[1, s, s, 1], padding=pad, dilations=[dil, dil])
            return ACTS[act](y + b)
        out.append(H("DEPTHWISE_CONV_2D", cid, dict(input=shape, kernel=[kh, kw], depth_multiplier=m, stride=s,
                                                     padding=pad, dilation=dil, activation=act),
                     [In(shape)], fn))
    return out


def batch_matmul_cases():
    out = []
    for cid, a, b, ta, tb, asym in [("3d", (2, 3, 64), (2, 64, 32), False, False, True),
                                    ("adj_y", (2, 4, 48), (2, 40, 48), False, True, True),
                                    ("adj_x", (2, 64, 3), (2, 64, 24), True, False, True),
                                    ("4d_bcast", (2, 2, 3, 40), (2, 1, 40, 16), False, False, True),
                                    ("3d_symmetric", (2, 3, 64), (2, 64, 32), False, False, False)]:
        def fn(r, x, b=b, ta=ta, tb=tb):
            return tf.linalg.matmul(x, tf.constant(weights(r, b, scale=1.5 / np.sqrt(b[-1] if tb else b[-2]))),
                                    transpose_a=ta, transpose_b=tb)
        out.append(H("BATCH_MATMUL", cid, dict(lhs=a, rhs=b, adj_x=ta, adj_y=tb, asymmetric_inputs=asym),
                     [In(a)], fn, extra={"asymmetric_inputs": asym}))
    return out


def transpose_conv_cases():
    out = []
    for cid, shape, k, oc, s, pad, bias in [("k3_s2_same", (1, 5, 5, 16), 3, 16, 2, "SAME", True),
                                            ("k4_s2_valid_nobias", (1, 4, 4, 12), 4, 8, 2, "VALID", False),
                                            ("k3_s1_same_batch2", (2, 4, 3, 32), 3, 12, 1, "SAME", True)]:
        h, w = shape[1], shape[2]
        oh, ow = (h * s, w * s) if pad == "SAME" else ((h - 1) * s + k, (w - 1) * s + k)

        def fn(r, x, k=k, oc=oc, ic=shape[3], s=s, pad=pad, bias=bias, os_=(shape[0], oh, ow, oc)):
            wgt = tf.constant(weights(r, (k, k, oc, ic), scale=1.0 / np.sqrt(k * k * ic / (s * s))))
            y = tf.nn.conv2d_transpose(x, wgt, os_, strides=[1, s, s, 1], padding=pad)
            if bias:
                y = y + tf.constant(r.uniform(-0.5, 0.5, oc).astype(np.float32))
            return y
        out.append(H("TRANSPOSE_CONV", cid, dict(input=shape, kernel=[k, k], out_channels=oc, stride=s,
                                                  padding=pad, bias=bias), [In(shape)], fn))
    return out


def gather_cases():
    # The converter does not make GATHER hybrid: it gathers int8 rows, then DEQUANTIZEs.
    return [H("GATHER", "int8_table_dequantize", dict(params=(512, 8), indices="input int32 (6,)", axis=0),
              [In((6,), 0, 511, dtype="int32")],
              lambda r, i: tf.gather(tf.constant(weights(r, (512, 8), scale=1.0)), i),
              aux_ops=("DEQUANTIZE",), op_input_dtype="int32")]


def cases():
    return fc_cases() + conv_cases() + depthwise_cases() + batch_matmul_cases() + transpose_conv_cases() + gather_cases()
