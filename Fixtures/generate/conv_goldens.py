"""Golden outputs of the convolution and pooling kernels, computed with TensorFlow.

Prints Swift array literals pasted into Tests/TFLiteRuntimeTests/*Tests.swift. Inputs
follow `pattern(count, k)`, which the Swift tests reproduce exactly (small dyadic
values), so only outputs are pasted. Run with the fixtures venv:
    Fixtures/generate/.venv/bin/python Fixtures/generate/conv_goldens.py
"""
import numpy as np
import tensorflow as tf


def pattern(count, k):
    """Element i is ((i * 37 + k) % 19 - 9) / 8, exact in float32."""
    i = np.arange(count, dtype=np.int64)
    return (((i * 37 + k) % 19) - 9).astype(np.float32) / 8


def show(name, array):
    values = ", ".join(f"{v:.7g}" for v in np.asarray(array, dtype=np.float32).ravel())
    print(f"// {name}: shape {list(np.shape(array))}\n[{values}]\n")


def conv(name, in_shape, ohwi, stride, padding, dilation=1):
    x = pattern(int(np.prod(in_shape)), 1).reshape(in_shape)
    w = pattern(int(np.prod(ohwi)), 5).reshape(ohwi)
    y = tf.nn.conv2d(x, np.transpose(w, (1, 2, 3, 0)), strides=stride, padding=padding, dilations=dilation)
    show(name, y)


def depthwise(name, in_shape, kh, kw, multiplier, stride, padding, dilation=1):
    x = pattern(int(np.prod(in_shape)), 1).reshape(in_shape)
    # TFLite's [1, kh, kw, in*M] has the memory order of TF's [kh, kw, in, M].
    w = pattern(kh * kw * in_shape[3] * multiplier, 5).reshape(kh, kw, in_shape[3], multiplier)
    y = tf.nn.depthwise_conv2d(x, w, strides=[1, stride, stride, 1], padding=padding, dilations=[dilation, dilation])
    show(name, y)


def transpose_conv(name, in_shape, ohwi, out_shape, stride, padding):
    x = pattern(int(np.prod(in_shape)), 1).reshape(in_shape)
    w = pattern(int(np.prod(ohwi)), 5).reshape(ohwi)
    y = tf.nn.conv2d_transpose(x, np.transpose(w, (1, 2, 0, 3)), out_shape, strides=stride, padding=padding)
    show(name, y)


def pool(name, kind, in_shape, k, stride, padding):
    x = pattern(int(np.prod(in_shape)), 1).reshape(in_shape)
    f = tf.nn.avg_pool2d if kind == "avg" else tf.nn.max_pool2d
    show(name, f(x, k, stride, padding))


conv("conv SAME stride 2, input [1,5,7,3], filter [4,3,3,3]", [1, 5, 7, 3], [4, 3, 3, 3], 2, "SAME")
conv("conv SAME dilation 2, input [1,6,5,2], filter [3,3,2,2]", [1, 6, 5, 2], [3, 3, 2, 2], 1, "SAME", 2)
conv("conv VALID stride 2x1, input [2,5,4,2], filter [2,2,3,2]", [2, 5, 4, 2], [2, 2, 3, 2], [2, 1], "VALID")
depthwise("depthwise SAME stride 2 M=3, input [1,5,5,2], 3x3", [1, 5, 5, 2], 3, 3, 3, 2, "SAME")
depthwise("depthwise SAME dilation 2 M=1, input [1,6,7,3], 3x3", [1, 6, 7, 3], 3, 3, 1, 1, "SAME", 2)
transpose_conv("transpose SAME stride 2, input [1,3,4,2], weights [3,3,3,2], output [1,5,7,3]",
               [1, 3, 4, 2], [3, 3, 3, 2], [1, 5, 7, 3], 2, "SAME")
transpose_conv("transpose VALID stride 2, input [1,2,3,2], weights [2,3,2,2], output [1,5,7,2]",
               [1, 2, 3, 2], [2, 3, 2, 2], [1, 5, 7, 2], 2, "VALID")
pool("avg pool SAME 3x3 stride 2, input [1,5,6,2]", "avg", [1, 5, 6, 2], 3, 2, "SAME")
pool("max pool SAME 2x2 stride 2, input [1,5,5,2]", "max", [1, 5, 5, 2], 2, 2, "SAME")
