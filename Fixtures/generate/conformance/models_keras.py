"""Keras MobileNets (v1, v2, v3-small) with seeded, calibrated random weights.

`tf.keras.applications` builds the architecture (weights=None); the weights
are then drawn from a seeded NumPy stream (so the model does not depend on
Keras' initializers or seeds) and calibrated on real photo crops:

* every BatchNormalization layer gets the mean / variance of its own input on
  a calibration batch.  One forward pass in training mode with momentum 0
  does exactly that, layer after layer (each BN normalizes with the batch
  statistics, which it also stores as its moving statistics), so every
  conv + BN outputs zero-mean, unit-variance channels on photos instead of
  vanishing or exploding through the depth of the net;
* bias-only layers of the head (no BN behind them: the classifier, v3's
  1024-wide conv) are rescaled so each output channel has mean 0 and a set
  standard deviation over the calibration images: the logits then depend on
  the image, and the top-1 class differs between photos.
"""
from __future__ import annotations

import numpy as np
import tensorflow as tf

NUM_CLASSES = 100
BATCH = 4            # test inputs per case: the top-1 class must vary across them


def _init_weights(model, rng):
    """He-normal kernels, zero biases, BN gamma ~ U(0.5, 0.8), beta ~ N(1.5, 0.5).

    With beta around 0 a deep random net is chaotic: a 1 % input perturbation
    changes every top-1 class, so the int8 model (whose rounding is such a
    perturbation at every layer) has nothing in common with the float model
    and the float-model cross-check is blind.  Centering the normalized
    activations at 1.5 (std ~0.65) keeps ReLU6 / hard-swish mostly in their
    graded region, with clamping on a few percent of the values: the net is
    still nonlinear but errors no longer explode with depth.
    """
    for layer in model.layers:
        ws = layer.get_weights()
        if not ws:
            continue
        if isinstance(layer, tf.keras.layers.BatchNormalization):
            c = ws[0].shape[0]
            gamma = rng.uniform(0.5, 0.8, c)
            beta = rng.normal(1.5, 0.5, c)
            layer.set_weights([gamma.astype(np.float32), beta.astype(np.float32),
                               np.zeros(c, np.float32), np.ones(c, np.float32)])
            continue
        new = []
        for w in ws:
            if w.ndim == 1:
                new.append(np.zeros_like(w))
                continue
            if isinstance(layer, tf.keras.layers.DepthwiseConv2D):
                fan_in = w.shape[0] * w.shape[1]
            else:
                fan_in = int(np.prod(w.shape[:-1]))
            new.append((rng.standard_normal(w.shape) * np.sqrt(2.0 / fan_in)).astype(np.float32))
        layer.set_weights(new)


def _calibrate_batchnorm(model, images):
    bns = [l for l in model.layers if isinstance(l, tf.keras.layers.BatchNormalization)]
    momenta = [b.momentum for b in bns]
    for b in bns:
        b.momentum = 0.0
    model(tf.constant(images), training=True)
    for b, m in zip(bns, momenta):
        b.momentum = m


def _standardize(model, name, images, std):
    """Rescale a 1x1 conv / dense layer so its pre-activation channels have mean 0, std `std`."""
    layer = model.get_layer(name)
    feats = tf.keras.Model(model.inputs, layer.input)(tf.constant(images), training=False).numpy()
    feats = feats.reshape(feats.shape[0], -1)
    kernel, bias = layer.get_weights()
    k2 = kernel.reshape(-1, kernel.shape[-1]).astype(np.float64)
    pre = feats.astype(np.float64) @ k2 + bias
    mu, sd = pre.mean(0), pre.std(0) + 1e-6
    k2 = k2 * (std / sd)
    bias = (bias - mu) * (std / sd)
    layer.set_weights([k2.reshape(kernel.shape).astype(np.float32), bias.astype(np.float32)])


ARCHS = {
    # name: (constructor, input size, bias-only head layers with their target std)
    "mobilenet_v1_025_128": (lambda: tf.keras.applications.MobileNet(
        input_shape=(128, 128, 3), alpha=0.25, weights=None, classes=NUM_CLASSES), 128,
        [("conv_preds", 2.0)]),
    "mobilenet_v2_035_96": (lambda: tf.keras.applications.MobileNetV2(
        input_shape=(96, 96, 3), alpha=0.35, weights=None, classes=NUM_CLASSES), 96,
        [("predictions", 2.0)]),
    "mobilenet_v3_small_050_96": (lambda: tf.keras.applications.MobileNetV3Small(
        input_shape=(96, 96, 3), alpha=0.5, minimalistic=False, weights=None,
        classes=NUM_CLASSES, include_preprocessing=False), 96,
        [("conv_2", 1.5), ("logits", 2.0)]),
}


def build_keras(arch, rng, calib_images):
    """The architecture with seeded weights, calibrated on `calib_images`."""
    ctor, _, heads = ARCHS[arch]
    tf.keras.backend.clear_session()
    model = ctor()
    _init_weights(model, rng)
    _calibrate_batchnorm(model, calib_images)
    for name, std in heads:
        _standardize(model, name, calib_images, std)
    return model


def concrete(model, batch, size):
    """Fixed-shape inference function of `model` (training=False), weights frozen.

    Keras 3 variables are not found through a tf.Module, so the converter would
    keep them as resource variables (VAR_HANDLE / READ_VARIABLE); freezing the
    concrete function turns them into constants first.
    """
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    f = tf.function(lambda image: model(image, training=False), autograph=False,
                    input_signature=[tf.TensorSpec((batch, size, size, 3), tf.float32, name="image")])
    return convert_variables_to_constants_v2(f.get_concrete_function()), None


def convert_float(model, batch, size) -> bytes:
    cf, module = concrete(model, batch, size)
    return tf.lite.TFLiteConverter.from_concrete_functions([cf], module).convert()


def convert_int8(model, batch, size, rep_images) -> bytes:
    """TF2 full-integer quantization: int8 in/out, per-channel int8 weights."""
    cf, module = concrete(model, batch, size)
    conv = tf.lite.TFLiteConverter.from_concrete_functions([cf], module)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]

    def rep():
        for i in range(0, len(rep_images), batch):
            yield [rep_images[i:i + batch]]
    conv.representative_dataset = rep
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    conv.inference_input_type = tf.int8
    conv.inference_output_type = tf.int8
    return conv.convert()


def _rng(name, stream):
    import zlib
    return np.random.default_rng([zlib.crc32(name.encode()), stream])


def classifier_check(min_distinct_top1=3):
    """Rejects softmax outputs that carry no information about the image."""
    def check(outputs):
        p = outputs[0].reshape(outputs[0].shape[0], -1)
        top1 = p.argmax(1)
        if len(set(top1.tolist())) < min(min_distinct_top1, p.shape[0]):
            return f"top-1 class barely varies across the batch: {top1.tolist()}"
        n = p.shape[1]
        if float(p.max(1).min()) < 2.0 / n:
            return f"a near-uniform softmax row (max {float(p.max(1).min()):.4f}, 1/N = {1 / n:.4f})"
        return None
    return check


def mobilenet_cases(arch):
    """float32 and int8 cases of a Keras MobileNet (and legacy uint8 for v1)."""
    from cases_models import ModelCase
    import models_data
    size = ARCHS[arch][1]
    calib = models_data.crops(_rng(arch, 2), 32, size)
    test = models_data.crops(_rng(arch, 1), BATCH, size)
    model = build_keras(arch, _rng(arch, 0), calib)
    params = {"architecture": arch, "input": [BATCH, size, size, 3], "classes": NUM_CLASSES,
              "weights": "seeded He-normal, BN statistics and head calibrated on photo crops",
              "inputs": "crops of scikit-image photos, [-1, 1]"}
    fcontent = convert_float(model, BATCH, size)
    yield ModelCase(arch, "float32", params, fcontent, [test], "model", validate=classifier_check())
    icontent = convert_int8(model, BATCH, size, calib)
    iinputs = quantize_inputs_for(icontent, [test])
    finputs = [dequantize_like(icontent, iinputs)]
    yield ModelCase(arch, "int8", {**params, "quantization": "TF2 full-integer, per-channel weights"},
                    icontent, iinputs, "exact", float_content=fcontent, float_inputs=finputs,
                    validate=classifier_check())
    if arch.startswith("mobilenet_v1"):
        from models_legacy import legacy_uint8_mobilenet_v1
        ucontent = legacy_uint8_mobilenet_v1(model, BATCH, size, calib)
        uinputs = quantize_inputs_for(ucontent, [test])
        yield ModelCase(arch, "uint8", {**params, "quantization": "legacy uint8 (fake-quant graph, "
                                        "asymmetric per-tensor weights)"},
                        ucontent, uinputs, "exact", float_content=fcontent,
                        float_inputs=[dequantize_like(ucontent, uinputs)], validate=classifier_check())


def quantize_inputs_for(content, arrays):
    from cases_models import quantize_inputs
    from modelinfo import inspect
    return quantize_inputs(inspect(content), arrays)


def dequantize_like(content, arrays):
    from cases_models import dequantize
    from modelinfo import inspect
    info = inspect(content)
    return dequantize(info["inputs"][0], arrays[0])
