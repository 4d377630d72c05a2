"""A small SSD-style detector ending in TFLite_Detection_PostProcess.

MobileNet-v1-style backbone (conv + depthwise/pointwise blocks, ReLU6) at
128x128, box and class heads on the 8x8 and 4x4 feature maps (3 anchors per
cell, 240 anchors), LOGISTIC on the class logits, then the custom post-process
op, emitted by the converter for a tf.function whose `experimental_implements`
names it (as make_models.py's ssd_postprocess).

Weights are seeded and calibrated on photo crops layer by layer: each conv's
pre-activation channels are scaled to std gamma ~ U(0.5, 0.8) around
beta ~ N(1.5, 0.5) (BN statistics of the batch folded into the conv, see
models_keras for why the shift); box regressions get std 0.5, class logits
std 1.5 with a background bias of +1 and an object bias of -2, so a handful of
anchors per class pass the score threshold.
"""
from __future__ import annotations

import zlib

import numpy as np
import tensorflow as tf

SIZE = 128
CLASSES = 3
ANCHORS_PER_CELL = 3
POST = dict(max_detections=10, max_classes_per_detection=1, detections_per_class=100,
            use_regular_nms=False, nms_score_threshold=0.4, nms_iou_threshold=0.5,
            y_scale=10.0, x_scale=10.0, h_scale=5.0, w_scale=5.0, num_classes=CLASSES)
# (kind, stride, out channels); "fa"/"fb" mark the feature maps the heads read.
BACKBONE = [("conv", 2, 16), ("dw", 2, None), ("pw", 1, 32), ("dw", 2, None), ("pw", 1, 64),
            ("dw", 2, None), ("pw", 1, 64, "fa"), ("dw", 2, None), ("pw", 1, 96, "fb")]


def _rng(name, stream):
    return np.random.default_rng([zlib.crc32(name.encode()), stream])


def anchors():
    rows = []
    for grid in (8, 4):
        for r in range(grid):
            for c in range(grid):
                for s, aspect in ((1.5, 1.0), (2.5, 0.6), (2.5, 1.6)):
                    side = s / grid
                    rows.append(((r + 0.5) / grid, (c + 0.5) / grid,
                                 side * np.sqrt(aspect), side / np.sqrt(aspect)))
    return np.asarray(rows, np.float32)


def _implements():
    def attr(k, v):
        if isinstance(v, bool):
            return f'attr {{ key: "{k}" value {{ b: {str(v).lower()} }} }}'
        if isinstance(v, int):
            return f'attr {{ key: "{k}" value {{ i: {v} }} }}'
        return f'attr {{ key: "{k}" value {{ f: {v!r} }} }}'
    return " ".join(['name: "TFLite_Detection_PostProcess"'] + [attr(k, v) for k, v in POST.items()])


def _conv(x, kind, w, b, stride):
    if kind == "dw":
        y = tf.nn.depthwise_conv2d(x, w, [1, stride, stride, 1], "SAME")
    else:
        y = tf.nn.conv2d(x, w, stride, "SAME")
    return tf.nn.bias_add(y, b)


def calibrated_weights(name, calib):
    """Seeded He-normal weights, then per-channel scale / bias from the calibration batch."""
    rng = _rng(name, 0)
    x = tf.constant(calib)
    chans = 3
    layers, feats = [], {}
    for spec in BACKBONE:
        kind, stride, out = spec[:3]
        if kind == "dw":
            w = rng.standard_normal((3, 3, chans, 1)) * np.sqrt(2.0 / 9)
            out = chans
        else:
            k = 3 if kind == "conv" else 1
            w = rng.standard_normal((k, k, chans, out)) * np.sqrt(2.0 / (k * k * chans))
        w = w.astype(np.float32)
        pre = _conv(x, kind, w, np.zeros(out, np.float32), stride).numpy().astype(np.float64)
        mu, sd = pre.mean((0, 1, 2)), pre.std((0, 1, 2)) + 1e-6
        g, beta = rng.uniform(0.5, 0.8, out), rng.normal(1.5, 0.5, out)
        scale = g / sd
        w = (w * (scale.reshape(1, 1, -1, 1) if kind == "dw" else scale)).astype(np.float32)
        b = (beta - mu * scale).astype(np.float32)
        x = tf.nn.relu6(_conv(x, kind, w, b, stride))
        layers.append((kind, stride, w, b))
        if len(spec) > 3:
            feats[spec[3]] = x
        chans = out
    heads = {}
    for f in ("fa", "fb"):
        c = feats[f].shape[-1]
        for head, n, std, bias in (("box", 4, 0.5, np.zeros(4)),
                                   ("cls", CLASSES + 1, 1.5, np.array([1.0] + [-2.0] * CLASSES))):
            w = (rng.standard_normal((1, 1, c, ANCHORS_PER_CELL * n)) * np.sqrt(1.0 / c)).astype(np.float32)
            pre = tf.nn.conv2d(feats[f], w, 1, "SAME").numpy().astype(np.float64)
            mu, sd = pre.mean((0, 1, 2)), pre.std((0, 1, 2)) + 1e-6
            scale = std / sd
            b = np.tile(bias, ANCHORS_PER_CELL) - mu * scale
            heads[(f, head)] = ((w * scale).astype(np.float32), b.astype(np.float32))
    return layers, heads


class Detector(tf.Module):
    def __init__(self, layers, heads, batch=1):
        super().__init__()
        self.layers, self.heads, self.anchors = layers, heads, anchors()
        self.serve = tf.function(self._serve, autograph=False, input_signature=[
            tf.TensorSpec((batch, SIZE, SIZE, 3), tf.float32, name="image")])

    @tf.function(experimental_implements=_implements())
    def postprocess(self, box, cls, anc):
        n = POST["max_detections"]
        return (tf.zeros([1, n, 4]), tf.zeros([1, n]), tf.zeros([1, n]), tf.zeros([1]))

    def heads_out(self, image):
        x, feats = image, {}
        for (kind, stride, w, b), spec in zip(self.layers, BACKBONE):
            x = tf.nn.relu6(_conv(x, kind, tf.constant(w), tf.constant(b), stride))
            if len(spec) > 3:
                feats[spec[3]] = x
        boxes, logits = [], []
        for f in ("fa", "fb"):
            for head, n, out in (("box", 4, boxes), ("cls", CLASSES + 1, logits)):
                w, b = self.heads[(f, head)]
                y = tf.nn.bias_add(tf.nn.conv2d(feats[f], tf.constant(w), 1, "SAME"), tf.constant(b))
                out.append(tf.reshape(y, [image.shape[0], -1, n]))
        return tf.concat(boxes, 1), tf.sigmoid(tf.concat(logits, 1))

    def _serve(self, image):
        box, scores = self.heads_out(image)
        return self.postprocess(box, scores, tf.constant(self.anchors))


def convert(module, quantized=False, rep=None):
    cf = module.serve.get_concrete_function()
    conv = tf.lite.TFLiteConverter.from_concrete_functions([cf], module)
    conv.allow_custom_ops = True
    if quantized:
        conv.optimizations = [tf.lite.Optimize.DEFAULT]
        conv.representative_dataset = lambda: ([rep[i:i + 1]] for i in range(len(rep)))
        conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        conv.inference_input_type = tf.uint8
    return conv.convert()


def detection_check(outputs):
    """At least max_detections boxes (fast NMS leaves later slots unwritten), several
    distinct scores and more than one class."""
    num = next(o for o in outputs if o.size == 1)
    n = POST["max_detections"]
    if int(num.reshape(-1)[0]) != n:
        return f"fast NMS selected {int(num.reshape(-1)[0])} < max_detections {n}"
    vecs = [o.reshape(-1) for o in outputs if o.size == n]
    scores = next((v for v in vecs if v.min() > 0 and not np.all(v == np.round(v))), None)
    classes = next((v for v in vecs if np.all(v == np.round(v))), None)
    if scores is None or len(set(scores.tolist())) < n // 2:
        return f"detection scores not distinct: {scores}"
    if classes is None or len(set(classes.tolist())) < 2:
        return f"one class only: {classes}"
    return None


def ssd_cases(name):
    from cases_models import ModelCase, quantize_inputs
    from modelinfo import inspect
    import models_data
    calib = models_data.crops(_rng(name, 2), 32, SIZE)
    test = models_data.crops(_rng(name, 1), 1, SIZE)
    layers, heads = calibrated_weights(name, calib)
    module = Detector(layers, heads)
    params = {"input": [1, SIZE, SIZE, 3], "anchors": int(anchors().shape[0]), "post_process": POST,
              "weights": "seeded He-normal, per-channel scale/shift calibrated on photo crops",
              "inputs": "a crop of a scikit-image photo, [-1, 1]"}
    fcontent = convert(module)
    yield ModelCase(name, "float32", params, fcontent, [test], "model", validate=detection_check,
                    detection=True)
    qcontent = convert(module, quantized=True, rep=calib)
    yield ModelCase(name, "uint8", {**params, "quantization": "TF2 full-integer int8 body, uint8 input "
                                    "(QUANTIZE to int8), post-process on DEQUANTIZEd scores/boxes"},
                    qcontent, quantize_inputs(inspect(qcontent), [test]), "exact",
                    validate=detection_check, detection=True)
