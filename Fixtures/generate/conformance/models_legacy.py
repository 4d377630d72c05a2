"""Legacy uint8 MobileNet v1: the calibrated Keras model re-expressed as a
tf.compat.v1 graph with fake-quant ops, converted with inference_type=uint8.

BatchNormalization is folded into the preceding conv (as the legacy
quantization-aware graphs did), weights get their own asymmetric per-tensor
fake-quant range (converters.fq_const), activations the ReLU6 range [0, 6],
the logits a range calibrated on the photo crops, softmax the fixed
(1/256, 0) its uint8 kernel requires.  The input is fake-quantized to
[-1, 127/128] (uint8 code q is (q - 128) / 128).
"""
from __future__ import annotations

import numpy as np
import tensorflow as tf

from converters import _nudged, fq, fq_const


def _folded(layers, i):
    """Kernel and bias of conv layer i with the BN at i+1 folded in."""
    layer = layers[i]
    ws = layer.get_weights()
    kernel = ws[0].astype(np.float64)
    bias = ws[1].astype(np.float64) if len(ws) > 1 else np.zeros(kernel.shape[-2 if isinstance(
        layer, tf.keras.layers.DepthwiseConv2D) else -1])
    nxt = layers[i + 1] if i + 1 < len(layers) else None
    if isinstance(nxt, tf.keras.layers.BatchNormalization):
        gamma, beta, mean, var = (w.astype(np.float64) for w in nxt.get_weights())
        s = gamma / np.sqrt(var + nxt.epsilon)
        if isinstance(layer, tf.keras.layers.DepthwiseConv2D):
            kernel = kernel * s.reshape(1, 1, -1, 1)
        else:
            kernel = kernel * s
        bias = (bias - mean) * s + beta
    return kernel.astype(np.float32), bias.astype(np.float32)


def _plan(model):
    """(layer, kind, folded weights or None) for every layer; read eagerly
    (Keras 3 weights cannot be read inside a tf.compat.v1 graph)."""
    layers = model.layers
    plan = []
    for i, layer in enumerate(layers):
        kind = type(layer).__name__
        plan.append((layer, kind, _folded(layers, i) if kind in ("Conv2D", "DepthwiseConv2D") else None))
    return plan


def _graph(plan, x, fake_quant, logit_range=None):
    """The Keras MobileNet v1 as plain TF ops; returns (logits, probs)."""
    logits = None
    for layer, kind, folded in plan:
        if kind in ("InputLayer", "BatchNormalization", "Dropout"):
            continue
        if kind == "ZeroPadding2D":
            (t, b), (l, r) = layer.padding
            x = tf.pad(x, [[0, 0], [t, b], [l, r], [0, 0]])
        elif kind in ("Conv2D", "DepthwiseConv2D"):
            k, b = folded
            w = fq_const(k) if fake_quant else tf.constant(k)
            pad = layer.padding.upper()
            s = layer.strides[0]
            if kind == "Conv2D":
                x = tf.nn.conv2d(x, w, s, pad)
            else:
                x = tf.nn.depthwise_conv2d(x, w, [1, s, s, 1], pad)
            x = tf.nn.bias_add(x, tf.constant(b))
            if layer.name == "conv_preds":
                logits = x
                if fake_quant:
                    x = fq(x, *logit_range)
        elif kind == "ReLU":
            if layer.max_value != 6.0:
                raise ValueError(f"{layer.name}: ReLU max {layer.max_value}")
            x = tf.nn.relu6(x)
            if fake_quant:
                x = fq(x, 0.0, 6.0)
        elif kind == "GlobalAveragePooling2D":
            x = tf.nn.avg_pool2d(x, ksize=x.shape[1:3], strides=1, padding="VALID")
            if fake_quant:
                x = fq(x, 0.0, 6.0)
            if not layer.keepdims:
                x = tf.reshape(x, [x.shape[0], x.shape[-1]])
        elif kind == "Reshape":
            x = tf.reshape(x, [x.shape[0], *layer.target_shape])
        elif kind == "Activation":
            x = tf.nn.softmax(x)
            if fake_quant:
                x = fq(x, 0.0, 255.0 / 256.0)
        else:
            raise ValueError(f"unhandled layer {layer.name} ({kind})")
    return logits, x


def legacy_uint8_mobilenet_v1(model, batch, size, calib) -> bytes:
    shape = (batch, size, size, 3)
    plan = _plan(model)
    # Logit range: the float graph on the calibration crops, nudged to uint8.
    g = tf.Graph()
    with g.as_default():
        ph = tf.compat.v1.placeholder(tf.float32, shape)
        logits, _ = _graph(plan, ph, fake_quant=False)
        with tf.compat.v1.Session(graph=g) as sess:
            vals = np.concatenate([sess.run(logits, {ph: calib[i:i + batch]}) for i in range(0, len(calib), batch)])
    logit_range = _nudged(float(min(vals.min(), 0.0)), float(max(vals.max(), 0.0)))[0]
    g = tf.Graph()
    with g.as_default():
        image = tf.compat.v1.placeholder(tf.float32, shape, name="image")
        x = fq(image, -1.0, 127.0 / 128.0)
        _, probs = _graph(plan, x, fake_quant=True, logit_range=logit_range)
        with tf.compat.v1.Session(graph=g) as sess:
            conv = tf.compat.v1.lite.TFLiteConverter.from_session(sess, [image], [probs])
            conv.inference_type = tf.uint8
            conv.inference_input_type = tf.uint8
            conv.quantized_input_stats = {"image": (128.0, 128.0)}
            return conv.convert()
