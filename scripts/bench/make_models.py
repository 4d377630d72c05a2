#!/usr/bin/env python3
"""Writes the whole-model benchmark inputs into a cache folder (default Benchmarks/models/).

  mobilenet_v1_float.tflite   tf.keras.applications.MobileNet(alpha=1.0), 224x224x3, float32
  mobilenet_v2_float.tflite   tf.keras.applications.MobileNetV2(alpha=1.0), 224x224x3, float32
  mobilenet_v1_int8.tflite    the same nets, full-integer int8 (int8 input and output,
  mobilenet_v2_int8.tflite    per-channel int8 weights), calibrated on seeded random images
  mobilenet_v1_uint8.tflite   the same nets, legacy uint8: asymmetric per-tensor uint8
  mobilenet_v2_uint8.tflite   activations and weights, int32 biases, uint8 input and output
  ssd_mobilenet_v2_320_float.tflite  an SSD detector at 320x320x3: MobileNetV2(alpha=1.0)
                              backbone, 1x1 box and class heads on its 20x20x576 and
                              10x10x1280 maps (6 anchors a cell, 3000 anchors, 90 classes
                              + background), LOGISTIC on the class logits, then the custom
                              TFLite_Detection_PostProcess (fast NMS, 10 detections); float32
  ssd_mobilenet_v2_320_uint8.tflite  the same detector, legacy uint8 body and input
  ssd_mobilenet_v2_320_int8.tflite   the same detector, full-integer int8 body (per-channel
                              weights), int8 input
  kws_lstm_{float,hybrid,int8}.tflite   a keyword spotter: 98 frames x 40 features ->
                              tf-keras LSTM(128) -> Dense(12) + softmax, batch 1, fused
                              into UNIDIRECTIONAL_SEQUENCE_LSTM; float32, dynamic-range
                              (int8 weights, float activations) and full-integer int8
  text_lstm_{float,hybrid,int8}.tflite  a text classifier: 64 token ids (taken mod 5000,
                              so any int32 is a token) -> Embedding(5000, 64) -> LSTM(64)
                              -> Dense(4) + softmax, batch 1, same forms
  kws_svdf_float.tflite       a streaming keyword spotter: one [1, 40] feature frame per
                              invoke, SVDF(256 units, rank 2, memory 32) + relu,
                              SVDF(128 units, rank 1, memory 16) + relu, dense(12), softmax
                              (the conformance corpus's svdf_keyword_spotter at a micro_speech
                              scale; scripts/fixtures/conformance/models_kws.py); float32
  kws_svdf_int8.tflite        the same, quantized by TFLite's calibrator and quantizer (int8
                              activations, int16 SVDF state), int8 input and output

Weights are random (weights=None) from a fixed Keras seed, and no weights need
downloading. Each batch normalization is then set to the mean and variance its input
has on seeded random images, layer after layer: with the initializers' scales alone the
activations shrink through the net until they underflow (denormals, then zeros), which
is neither what a trained net computes nor a fair speed test. A model already present
is kept (delete Benchmarks/models/ to remake them).

The uint8 models are what TF1's quantization-aware training exported (TF2's converter no
longer writes uint8): the converter makes an int8 model with per-tensor weights, and
`scripts/fixtures/tflite_edit.to_uint8` turns it into its uint8 twin (zero points + 128,
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
# tflite_edit lives with the fixture generators, the keyword spotter with the conformance ones.
sys.path.insert(0, str(HERE.parents[1] / "scripts" / "fixtures"))
sys.path.insert(0, str(HERE.parents[1] / "scripts" / "fixtures" / "conformance"))

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


# --------------------------------------------------------------------------------------
# The SSD detector at 320x320. The post-process op comes from a tf.function whose
# `experimental_implements` names it: the converter replaces its body with the custom op
# (the technique of our scripts/fixtures/make_models.py `ssd_postprocess` and
# scripts/fixtures/conformance/models_ssd.py).
# --------------------------------------------------------------------------------------

SSD_SHAPE = (1, 320, 320, 3)
SSD_CLASSES = 90                      # plus a background column 0, as the COCO detectors
SSD_ANCHORS_PER_CELL = 6
# MobileNetV2 layers the heads read (stride 16: block 13's expansion; stride 32: the last
# 1x1 conv), with their grid sizes and SSD anchor scales.
SSD_MAPS = (("block_13_expand_relu", 20, 0.2), ("out_relu", 10, 0.55))
SSD_POST = dict(max_detections=10, max_classes_per_detection=1, detections_per_class=100,
                use_regular_nms=False, nms_score_threshold=0.5, nms_iou_threshold=0.6,
                y_scale=10.0, x_scale=10.0, h_scale=5.0, w_scale=5.0, num_classes=SSD_CLASSES)
SSD_PASSING = 0.02  # share of anchors whose best class passes the score threshold


def ssd_anchors():
    """[3000, 4] as (y_center, x_center, h, w), normalised: per cell, aspect ratios 1, 2,
    1/2, 3, 1/3 at the map's scale s, and aspect 1 at sqrt(s * s_next), as SSD's."""
    import numpy as np

    rows = []
    scales = [s for _, _, s in SSD_MAPS] + [0.9]
    for (_, grid, s), s_next in zip(SSD_MAPS, scales[1:]):
        shapes = [(s, a) for a in (1.0, 2.0, 0.5, 3.0, 1 / 3)] + [(np.sqrt(s * s_next), 1.0)]
        for r in range(grid):
            for c in range(grid):
                for size, aspect in shapes:
                    rows.append(((r + 0.5) / grid, (c + 0.5) / grid,
                                 size / np.sqrt(aspect), size * np.sqrt(aspect)))
    return np.asarray(rows, np.float32)


def ssd_implements() -> str:
    """The NameAttrList text the converter reads to build the custom op's FlexBuffer
    options (ints as `i`, floats as `f`, the flag as `b`)."""
    def attr(k, v):
        kind = "b" if isinstance(v, bool) else "i" if isinstance(v, int) else "f"
        value = str(v).lower() if isinstance(v, bool) else repr(v)
        return f'attr {{ key: "{k}" value {{ {kind}: {value} }} }}'
    return " ".join(['name: "TFLite_Detection_PostProcess"'] + [attr(k, v) for k, v in SSD_POST.items()])


def ssd_build():
    """The Keras net up to the post-process: (box encodings [1, 3000, 4], class scores
    [1, 3000, 91] after the sigmoid), batch norms and heads calibrated."""
    import numpy as np
    import tensorflow as tf

    L = tf.keras.layers
    # Keras numbers its unnamed layers per process; a fresh session gives the tensors the
    # same names whichever models this process built before.
    tf.keras.backend.clear_session()
    tf.keras.utils.set_random_seed(SEED)
    base = tf.keras.applications.MobileNetV2(input_shape=SSD_SHAPE[1:], alpha=1.0,
                                             include_top=False, weights=None)
    boxes, logits, heads = [], [], []
    for layer, grid, _ in SSD_MAPS:
        feature = base.get_layer(layer).output
        box = L.Conv2D(SSD_ANCHORS_PER_CELL * 4, 1, name=f"box_{grid}")
        cls = L.Conv2D(SSD_ANCHORS_PER_CELL * (SSD_CLASSES + 1), 1, name=f"class_{grid}")
        boxes.append(L.Reshape((-1, 4))(box(feature)))
        logits.append(L.Reshape((-1, SSD_CLASSES + 1))(cls(feature)))
        heads += [(box, feature), (cls, feature)]
    logit = L.Concatenate(axis=1, name="class_logits")(logits)
    model = tf.keras.Model(base.input, [L.Concatenate(axis=1, name="box_encodings")(boxes),
                                        L.Activation("sigmoid", name="class_scores")(logit)])

    images = np.random.default_rng(SEED).uniform(-1, 1, (4,) + SSD_SHAPE[1:]).astype(np.float32)
    calibrate_batch_norms(model, images)
    calibrate_heads(model, heads, logit, images)
    return model


def calibrate_heads(model, heads, logit, images) -> None:
    """Scales the head convs so box encodings have std 1 and SSD_PASSING of the anchors
    have an object class over the score threshold on `images`. `heads` lists (box conv,
    its input), (class conv, its input) per feature map; `logit` is the concatenated class
    logits."""
    import numpy as np
    import tensorflow as tf

    # Each head output channel gets std 1 (boxes) or 1.5 (class logits) on the calibration
    # images around 0, background logits around +1.
    for conv, feature in heads:
        kernel, _ = conv.get_weights()
        x = tf.keras.Model(model.inputs, feature)(images, training=False)
        pre = tf.nn.conv2d(x, kernel, 1, "SAME").numpy().astype(np.float64)
        mu, sd = pre.mean((0, 1, 2)), pre.std((0, 1, 2)) + 1e-6
        is_box = conv.name.startswith("box")
        scale = (1.0 if is_box else 1.5) / sd
        target = np.zeros(sd.shape) if is_box else np.tile([1.0] + [0.0] * SSD_CLASSES, SSD_ANCHORS_PER_CELL)
        conv.set_weights([(kernel * scale).astype(np.float32), (target - mu * scale).astype(np.float32)])
    # One shift of every object logit puts the threshold at the (1 - SSD_PASSING) quantile
    # of the anchors' best object logit.
    best = tf.keras.Model(model.inputs, logit)(images, training=False).numpy()[..., 1:].max(-1)
    threshold = np.log(SSD_POST["nms_score_threshold"] / (1 - SSD_POST["nms_score_threshold"]))
    shift = threshold - np.quantile(best, 1 - SSD_PASSING)
    for conv, _ in heads[1::2]:
        kernel, bias = conv.get_weights()
        bias = bias.reshape(SSD_ANCHORS_PER_CELL, SSD_CLASSES + 1)
        bias[:, 1:] += shift
        conv.set_weights([kernel, bias.reshape(-1).astype(np.float32)])


def ssd_module(net):
    """The detector for the converter: the net frozen into constants (the converter would
    keep a tracked Keras model's weights as resource variables, and freezing the whole
    detector would inline the post-process placeholder), then the post-process."""
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

    frozen = convert_variables_to_constants_v2(
        tf.function(lambda x: net(x, training=False)).get_concrete_function(tf.TensorSpec(SSD_SHAPE, tf.float32)))

    class Detector(tf.Module):
        def __init__(self):
            super().__init__()
            self.net, self.anchors = frozen, ssd_anchors()

        @tf.function(experimental_implements=ssd_implements())
        def postprocess(self, box_encodings, class_scores, anchors):
            # No TF op computes this; the converter replaces the body with the custom op,
            # and these placeholders give the outputs their static shapes.
            n = SSD_POST["max_detections"]
            return (tf.zeros([1, n, 4], name="boxes"), tf.zeros([1, n], name="classes"),
                    tf.zeros([1, n], name="scores"), tf.zeros([1], name="num_detections"))

        @tf.function(input_signature=[tf.TensorSpec(SSD_SHAPE, tf.float32, name="image")])
        def serve(self, image):
            box, scores = self.net(image)
            return self.postprocess(box, scores, tf.constant(self.anchors, name="anchors"))

    return Detector()


def ssd_convert(module, kind: str) -> bytes:
    import tensorflow as tf

    converter = tf.lite.TFLiteConverter.from_concrete_functions([module.serve.get_concrete_function()], module)
    converter.allow_custom_ops = True
    if kind != "float":
        quantize(converter, SSD_SHAPE, kind)   # the post-process outputs stay float32
    data = outputs_in_op_order(converter.convert())
    if kind == "uint8":
        data = to_uint8(data)
        check_legacy_uint8(data, float_tail=True)
    ssd_check(data)
    return data


def outputs_in_op_order(data: bytes) -> bytes:
    """Lists the model outputs as the post-process writes them (boxes, classes, scores,
    count), as detection models ship; the converter lists them in another order."""
    import tflite_edit

    def reorder(m):
        sg = m.subgraphs[0]
        sg.outputs = list(sg.operators[-1].outputs)
    return tflite_edit.edit(data, reorder)


def ssd_check(data: bytes) -> None:
    """The last op is the post-process, and LiteRT finds max_detections boxes of more than
    one class on a seeded random image."""
    import numpy as np
    import tflite_edit
    from ai_edge_litert.interpreter import Interpreter

    m = tflite_edit.load(data)
    last = m.subgraphs[0].operators[-1]
    if m.operatorCodes[last.opcodeIndex].customCode != b"TFLite_Detection_PostProcess":
        raise SystemExit("ssd: the last op is not TFLite_Detection_PostProcess")
    it = Interpreter(model_content=data)
    it.allocate_tensors()
    d = it.get_input_details()[0]
    x = np.random.default_rng(SEED + 1).uniform(-1, 1, d["shape"])
    if d["dtype"] != np.float32:
        scale, zero = d["quantization"]
        info = np.iinfo(d["dtype"])
        x = np.clip(np.round(x / scale) + zero, info.min, info.max)
    it.set_tensor(d["index"], x.astype(d["dtype"]))
    it.invoke()
    out = [it.get_tensor(o["index"]) for o in it.get_output_details()]
    count = next(o for o in out if o.size == 1).item()
    classes = next(o for o in out if o.shape == (1, SSD_POST["max_detections"]) and np.all(o == np.round(o)))
    if count != SSD_POST["max_detections"] or len(set(classes.ravel().tolist())) < 2:
        raise SystemExit(f"ssd: weak detections on a random image: count {count}, classes {classes}")


LSTM_KINDS = ("float", "hybrid", "int8")


def lstm_model(name: str):
    """The two recurrent benchmark nets (tf-keras, whose LSTM the converter fuses), seeded
    uniform weights, and their input spec."""
    import numpy as np
    import tensorflow as tf
    import tf_keras as keras

    rng = np.random.default_rng(SEED)
    if name == "kws_lstm":
        inp = keras.Input(batch_shape=(1, 98, 40))
        x = keras.layers.LSTM(128)(inp)
        spec = tf.TensorSpec((1, 98, 40), tf.float32)
    else:
        inp = keras.Input(batch_shape=(1, 64), dtype="int32")
        # Any int32 is a valid token (the benchmark harnesses draw integers over the type).
        x = keras.layers.Lambda(lambda t: tf.math.floormod(t, 5000))(inp)
        x = keras.layers.Embedding(5000, 64)(x)
        x = keras.layers.LSTM(64)(x)
        spec = tf.TensorSpec((1, 64), tf.int32)
    model = keras.Model(inp, keras.layers.Dense(12 if name == "kws_lstm" else 4, activation="softmax")(x))
    weights = [rng.uniform(-1, 1, w.shape).astype(np.float32) / np.sqrt(max(w.shape[0], 1))
               if w.ndim == 2 else rng.uniform(-0.3, 0.3, w.shape).astype(np.float32)
               for w in model.get_weights()]
    if name == "text_lstm":
        # Embedding rows of about unit size, so the LSTM's cell state spans a usual range.
        weights[0] = rng.uniform(-1, 1, weights[0].shape).astype(np.float32)
    model.set_weights(weights)
    return model, spec


def lstm_convert(model, spec, kind: str) -> bytes:
    import numpy as np
    import tensorflow as tf

    fn = tf.function(lambda x: model(x), input_signature=[spec])
    converter = tf.lite.TFLiteConverter.from_concrete_functions([fn.get_concrete_function()], model)
    if kind != "float":
        converter.optimizations = [tf.lite.Optimize.DEFAULT]
    if kind == "int8":
        rng = np.random.default_rng(SEED)

        def samples():
            for _ in range(16):
                if spec.dtype == tf.int32:
                    yield [rng.integers(0, 5000, spec.shape).astype(np.int32)]
                else:
                    yield [np.tanh(np.cumsum(rng.normal(0, 0.3, spec.shape), axis=1) / 3).astype(np.float32)]
        converter.representative_dataset = samples
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        if spec.dtype == tf.float32:
            converter.inference_input_type = tf.int8
        converter.inference_output_type = tf.int8
    return converter.convert()


def write(path: pathlib.Path, data: bytes) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(data)
    tmp.rename(path)
    print(f"wrote {path} ({len(data):,} bytes)", file=sys.stderr)


KWS_LAYERS = [(256, 2, 32), (128, 1, 16)]  # (units, rank, memory)
KWS_CLASSES = 12


def kws(kind: str) -> bytes:
    """The streaming SVDF keyword spotter, float or int8 (calibrated on a seeded stream of
    300 synthetic feature frames)."""
    import models_kws
    from cases_recurrent import quantize_int8

    data = models_kws.build_float("kws_svdf", KWS_LAYERS, KWS_CLASSES)
    if kind == "int8":
        frames = models_kws.frames(models_kws._rng("kws_svdf", 2), 300)
        data = quantize_int8(data, [[f] for f in frames])
    return data


def main() -> int:
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else HERE.parents[1] / "Benchmarks" / "models")
    out.mkdir(parents=True, exist_ok=True)
    for net in ("v1", "v2"):
        wanted = [(kind, out / f"mobilenet_{net}_{kind}.tflite") for kind in KINDS]
        missing = [(kind, path) for kind, path in wanted if not path.exists()]
        if missing:
            model = build(net)
            for kind, path in missing:
                write(path, convert(model, kind))
    missing = [(kind, out / f"ssd_mobilenet_v2_320_{kind}.tflite") for kind in KINDS]
    missing = [(kind, path) for kind, path in missing if not path.exists()]
    if missing:
        module = ssd_module(ssd_build())
        for kind, path in missing:
            write(path, ssd_convert(module, kind))
    for name in ("kws_lstm", "text_lstm"):
        missing = [(kind, out / f"{name}_{kind}.tflite") for kind in LSTM_KINDS]
        missing = [(kind, path) for kind, path in missing if not path.exists()]
        if missing:
            model, spec = lstm_model(name)
            for kind, path in missing:
                write(path, lstm_convert(model, spec, kind))
    for kind in ("float", "int8"):
        path = out / f"kws_svdf_{kind}.tflite"
        if not path.exists():
            write(path, kws(kind))
    return 0


if __name__ == "__main__":
    sys.exit(main())
