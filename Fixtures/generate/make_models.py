#!/usr/bin/env python3
"""Makes the small, deterministic .tflite fixtures with TensorFlow.

Each model exercises one path of the runtime that the real face detectors do not:

  mobilenet_float.tflite          float32 MobileNet-style net (CONV_2D, DEPTHWISE_CONV_2D,
                                  AVERAGE_POOL_2D, RESHAPE, FULLY_CONNECTED, SOFTMAX)
  mobilenet_int8.tflite           the same weights, TF2 full-integer quantization: int8 in/out,
                                  per-channel int8 weights, int32 biases
  mobilenet_uint8_legacy.tflite   the same weights, TF1 quantization-aware graph (fake-quant
                                  ops) converted with inference_type=uint8: asymmetric
                                  per-tensor uint8 weights with non-zero zero points
  float16_weights.tflite          the float net with float16 weights (DEQUANTIZE feeds them)
  ssd_postprocess.tflite          a tiny SSD head whose last op is the custom
                                  TFLite_Detection_PostProcess, made by the converter from a
                                  tf.function carrying experimental_implements

Weights come from a seeded NumPy generator, calibration data likewise, and TF op
determinism is on, so every run writes the same bytes: the script converts every model
twice and fails if the two flatbuffers differ. Every model is then loaded and invoked in
LiteRT (the interpreter we compare against), which must accept it.
"""
from __future__ import annotations

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_DETERMINISTIC_OPS", "1")

import pathlib
import sys
import tempfile

import numpy as np
import tensorflow as tf

SEED = 20240611
OUT = pathlib.Path(__file__).resolve().parent.parent / "models"
INPUT_SHAPE = (1, 32, 32, 3)
NUM_LABELS = 10
MAX_BYTES = 200 * 1024

tf.config.experimental.enable_op_determinism()


def seeded(tag: int) -> np.random.Generator:
    """A generator per purpose, so adding one model never shifts another's numbers."""
    return np.random.default_rng([SEED, tag])


# --------------------------------------------------------------------------------------
# The MobileNet-style net, written once over plain ops so the float, float16 and legacy
# fake-quant graphs share the same weights and topology.
# --------------------------------------------------------------------------------------

# (kind, kernel, stride, out_channels); depthwise blocks keep their channel count.
LAYERS = [
    ("conv", 3, 2, 8),    # 32x32x3  -> 16x16x8
    ("dw", 3, 1, None),   # 16x16x8
    ("pw", 1, 1, 16),     # 16x16x16
    ("dw", 3, 2, None),   # 8x8x16
    ("pw", 1, 1, 32),     # 8x8x32
]


def mobilenet_weights() -> list[tuple[np.ndarray, np.ndarray]]:
    """He-initialised kernels and small biases; layout is TF's (HWIO / HWC1)."""
    rng = seeded(1)
    channels = INPUT_SHAPE[-1]
    params = []
    for kind, k, _, out in LAYERS:
        if kind == "dw":
            w = rng.standard_normal((k, k, channels, 1)) * np.sqrt(2.0 / (k * k))
            out = channels
        else:
            w = rng.standard_normal((k, k, channels, out)) * np.sqrt(2.0 / (k * k * channels))
        b = rng.uniform(-0.1, 0.1, out)
        params.append((w.astype(np.float32), b.astype(np.float32)))
        channels = out
    fc_w = rng.standard_normal((channels, NUM_LABELS)) * np.sqrt(1.0 / channels)
    fc_b = rng.uniform(-0.1, 0.1, NUM_LABELS)
    params.append((fc_w.astype(np.float32), fc_b.astype(np.float32)))
    return params


def mobilenet_logits(x, params, weight_fq=None, act_fq=None):
    """conv3x3/s2 -> (depthwise3x3 + pointwise1x1)x2, relu6 after each -> avg pool ->
    fully connected. The optional hooks insert fake-quant nodes (TF1 QAT)."""
    weight_fq = weight_fq or (lambda w, name: w)
    act_fq = act_fq or (lambda t, lo, hi, name: t)
    for i, ((kind, _, stride, _), (w, b)) in enumerate(zip(LAYERS, params)):
        w = weight_fq(tf.constant(w), f"w{i}")
        if kind == "dw":
            x = tf.nn.depthwise_conv2d(x, w, [1, stride, stride, 1], "SAME")
        else:
            x = tf.nn.conv2d(x, w, stride, "SAME")
        x = act_fq(tf.nn.relu6(tf.nn.bias_add(x, tf.constant(b))), 0.0, 6.0, f"a{i}")
    x = tf.nn.avg_pool2d(x, ksize=x.shape[1:3], strides=1, padding="VALID")
    x = act_fq(x, 0.0, 6.0, "pool")
    x = tf.reshape(x, [1, x.shape[-1]])
    fc_w, fc_b = params[-1]
    return tf.matmul(x, weight_fq(tf.constant(fc_w), "fc")) + tf.constant(fc_b)


def mobilenet_forward(x, params, weight_fq=None, act_fq=None):
    """The logits above, then softmax."""
    x = mobilenet_logits(x, params, weight_fq, act_fq)
    if act_fq is not None:
        # uint8 softmax output is fixed at scale 1/256, zero point 0.
        x = act_fq(x, *LOGIT_RANGE, "logits")
        return act_fq(tf.nn.softmax(x), 0.0, 255.0 / 256.0, "probs")
    return tf.nn.softmax(x)


# Logits range for the legacy model's fake quant: fixed, so the model never depends on
# a measurement, and checked to cover the float logits of the calibration images.
LOGIT_RANGE = (-8.0, 8.0)


def calibration_images(count: int, tag: int) -> np.ndarray:
    """Uniform [-1, 1) images: the input range every quantized variant assumes."""
    return seeded(tag).uniform(-1.0, 1.0, (count, *INPUT_SHAPE[1:])).astype(np.float32)


class MobileNet(tf.Module):
    def __init__(self):
        super().__init__()
        self.params = mobilenet_weights()

    @tf.function(input_signature=[tf.TensorSpec(INPUT_SHAPE, tf.float32, name="image")])
    def serve(self, image):
        return {"probabilities": mobilenet_forward(image, self.params)}


def float_converter() -> tf.lite.TFLiteConverter:
    module = MobileNet()
    fn = module.serve.get_concrete_function()
    return tf.lite.TFLiteConverter.from_concrete_functions([fn], module)


def make_mobilenet_float() -> bytes:
    return float_converter().convert()


def make_mobilenet_int8() -> bytes:
    conv = float_converter()
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    images = calibration_images(16, tag=2)

    def representative():
        for img in images:
            yield [img[None]]

    conv.representative_dataset = representative
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    conv.inference_input_type = tf.int8
    conv.inference_output_type = tf.int8
    return conv.convert()


def make_float16_weights() -> bytes:
    conv = float_converter()
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.target_spec.supported_types = [tf.float16]
    return conv.convert()


def fake_quant(t, lo: float, hi: float, name: str):
    """uint8 fake quantization over [lo, hi]; the converter turns the range into the
    tensor's scale and zero point."""
    return tf.quantization.fake_quant_with_min_max_args(
        t, min=lo, max=hi, num_bits=8, narrow_range=False, name=f"fq_{name}")


def make_mobilenet_uint8_legacy() -> bytes:
    """TF1 graph with fake-quant nodes on every weight and activation, converted the
    legacy way (inference_type=uint8). Weight ranges are each tensor's own min/max
    (widened to include 0), so the uint8 zero points are asymmetric and non-zero."""
    params = mobilenet_weights()
    for img in calibration_images(16, tag=2):
        logits = mobilenet_logits(tf.constant(img[None]), params).numpy()
        if logits.min() < LOGIT_RANGE[0] or logits.max() > LOGIT_RANGE[1]:
            raise SystemExit(f"logits {logits.min()}..{logits.max()} fall outside {LOGIT_RANGE}")

    names = [f"w{i}" for i in range(len(params) - 1)] + ["fc"]
    ranges = {n: (float(min(0.0, w.min())), float(max(0.0, w.max())))
              for n, (w, _) in zip(names, params)}

    def weight_fq(w, name):
        return fake_quant(w, *ranges[name], name)

    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        image = v1.placeholder(tf.float32, INPUT_SHAPE, name="image")
        # Input range [-1, 127/128]: uint8 q maps to (q - 128) / 128, matching the stats.
        x = fake_quant(image, -1.0, 127.0 / 128.0, "image")
        probs = tf.identity(mobilenet_forward(x, params, weight_fq, fake_quant),
                            name="probabilities")
        with v1.Session(graph=graph) as sess:
            conv = v1.lite.TFLiteConverter.from_session(sess, [image], [probs])
            conv.inference_type = tf.uint8
            conv.inference_input_type = tf.uint8
            conv.quantized_input_stats = {"image": (128.0, 128.0)}
            return conv.convert()


# --------------------------------------------------------------------------------------
# The SSD-style detector.
# --------------------------------------------------------------------------------------

SSD = dict(
    max_detections=10,
    max_classes_per_detection=1,
    detections_per_class=100,
    use_regular_nms=False,
    nms_score_threshold=0.3,
    nms_iou_threshold=0.5,
    num_classes=3,
    y_scale=10.0,
    x_scale=10.0,
    h_scale=5.0,
    w_scale=5.0,
)
SSD_GRID = 4          # 4x4 feature map
SSD_ANCHORS_PER_CELL = 2


def ssd_implements_signature() -> str:
    """The NameAttrList text the MLIR converter reads to build the custom op's
    FlexBuffer options (ints as `i`, floats as `f`, the flag as `b`)."""
    parts = ['name: "TFLite_Detection_PostProcess"']
    for key, value in SSD.items():
        if isinstance(value, bool):
            parts.append(f'attr {{ key: "{key}" value {{ b: {str(value).lower()} }} }}')
        elif isinstance(value, int):
            parts.append(f'attr {{ key: "{key}" value {{ i: {value} }} }}')
        else:
            parts.append(f'attr {{ key: "{key}" value {{ f: {value!r} }} }}')
    return " ".join(parts)


def ssd_anchors() -> np.ndarray:
    """[num_anchors, 4] as (y_center, x_center, h, w), normalised: two box sizes per
    cell of a 4x4 grid."""
    rows = []
    for r in range(SSD_GRID):
        for c in range(SSD_GRID):
            for size in (0.25, 0.5):
                rows.append(((r + 0.5) / SSD_GRID, (c + 0.5) / SSD_GRID, size, size))
    return np.array(rows, dtype=np.float32)


class TinySSD(tf.Module):
    def __init__(self):
        super().__init__()
        rng = seeded(3)
        a = SSD_ANCHORS_PER_CELL
        classes = SSD["num_classes"] + 1  # column 0 is background
        self.c1 = (rng.standard_normal((3, 3, 3, 8)) * 0.4).astype(np.float32)
        self.c2 = (rng.standard_normal((3, 3, 8, 16)) * 0.2).astype(np.float32)
        self.c3 = (rng.standard_normal((3, 3, 16, 16)) * 0.15).astype(np.float32)
        self.box = (rng.standard_normal((1, 1, 16, a * 4)) * 0.2).astype(np.float32)
        # Class weights centred over input channels (the relu6 features are all
        # positive, so otherwise one class wins everywhere) and negative per-class
        # biases, so the detections mix classes and many anchors score under the
        # threshold.
        cls = rng.standard_normal((1, 1, 16, a * classes)) * 0.3
        self.cls = (cls - cls.mean(axis=2, keepdims=True)).astype(np.float32)
        self.cls_bias = np.tile(np.array([-1.0, -1.6, -0.6, -1.0], np.float32), a)
        self.anchors = ssd_anchors()

    @tf.function(experimental_implements=ssd_implements_signature())
    def postprocess(self, box_encodings, class_predictions, anchors):
        # No TF op computes this; the converter replaces the whole body with the custom
        # op. The placeholders give the outputs their static shapes.
        n = SSD["max_detections"]
        boxes = tf.zeros([1, n, 4], tf.float32, name="boxes")
        classes = tf.zeros([1, n], tf.float32, name="classes")
        scores = tf.zeros([1, n], tf.float32, name="scores")
        num = tf.zeros([1], tf.float32, name="num_detections")
        return boxes, classes, scores, num

    @tf.function(input_signature=[tf.TensorSpec(INPUT_SHAPE, tf.float32, name="image")])
    def serve(self, image):
        x = tf.nn.relu6(tf.nn.conv2d(image, self.c1, 2, "SAME"))   # 16x16
        x = tf.nn.relu6(tf.nn.conv2d(x, self.c2, 2, "SAME"))       # 8x8
        x = tf.nn.relu6(tf.nn.conv2d(x, self.c3, 2, "SAME"))       # 4x4
        num_anchors = SSD_GRID * SSD_GRID * SSD_ANCHORS_PER_CELL
        box = tf.reshape(tf.nn.conv2d(x, self.box, 1, "SAME"), [1, num_anchors, 4])
        cls = tf.reshape(tf.nn.bias_add(tf.nn.conv2d(x, self.cls, 1, "SAME"), self.cls_bias),
                         [1, num_anchors, SSD["num_classes"] + 1])
        boxes, classes, scores, num = self.postprocess(
            box, tf.sigmoid(cls), tf.constant(self.anchors, name="anchors"))
        return {"detection_boxes": boxes, "detection_classes": classes,
                "detection_scores": scores, "num_detections": num}


def make_ssd_postprocess() -> bytes:
    module = TinySSD()
    fn = module.serve.get_concrete_function()
    conv = tf.lite.TFLiteConverter.from_concrete_functions([fn], module)
    conv.allow_custom_ops = True
    data = conv.convert()
    check_ssd_options(data)
    return data


def check_ssd_options(data: bytes) -> None:
    """The custom op must carry exactly our options. The converter writes
    `use_regular_nms` as an int and never writes `detections_per_class` (the kernel
    then uses its default, 100), so a converter that changes either shows up here."""
    import flatbuffers.flexbuffers as flexbuffers
    import tflite

    model = tflite.Model.GetRootAsModel(data, 0)
    sg = model.Subgraphs(0)
    last = sg.Operators(sg.OperatorsLength() - 1)
    code = model.OperatorCodes(last.OpcodeIndex())
    if code.CustomCode() != b"TFLite_Detection_PostProcess":
        raise SystemExit(f"ssd: last op is {code.CustomCode()!r}, not TFLite_Detection_PostProcess")
    got = flexbuffers.Loads(bytes(last.CustomOptionsAsNumpy()))
    want = {k: (int(v) if isinstance(v, bool) else float(np.float32(v)) if isinstance(v, float) else v)
            for k, v in SSD.items() if k != "detections_per_class"}
    if got != want:
        raise SystemExit(f"ssd: custom options {got} differ from {want}")


# --------------------------------------------------------------------------------------

MODELS = {
    "mobilenet_float.tflite": make_mobilenet_float,
    "mobilenet_int8.tflite": make_mobilenet_int8,
    "mobilenet_uint8_legacy.tflite": make_mobilenet_uint8_legacy,
    "float16_weights.tflite": make_float16_weights,
    "ssd_postprocess.tflite": make_ssd_postprocess,
}


def run_in_litert(name: str, data: bytes) -> None:
    """LiteRT must load and invoke the model with its optimised kernels and with the
    reference kernels our expected outputs come from; inputs are seeded and in range."""
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    for resolver in (OpResolverType.AUTO, OpResolverType.BUILTIN_REF):
        run_once(name, Interpreter(model_content=data, experimental_op_resolver_type=resolver))


def run_once(name: str, it) -> None:
    it.allocate_tensors()
    rng = seeded(99)
    for d in it.get_input_details():
        x = rng.uniform(-1.0, 1.0, d["shape"]).astype(np.float32)
        scale, zero = d["quantization"]
        if np.issubdtype(d["dtype"], np.integer):
            info = np.iinfo(d["dtype"])
            x = np.clip(np.round(x / scale) + zero, info.min, info.max)
        it.set_tensor(d["index"], x.astype(d["dtype"]))
    it.invoke()
    for d in it.get_output_details():
        y = it.get_tensor(d["index"])
        if np.issubdtype(y.dtype, np.floating) and not np.all(np.isfinite(y)):
            raise SystemExit(f"{name}: non-finite output {d['name']}")
        # A detector that finds nothing (or everything) would make a weak fixture.
        if name.startswith("ssd") and y.shape == (1,):
            if not 0 < y[0] <= SSD["max_detections"]:
                raise SystemExit(f"{name}: {y[0]} detections")


def main(argv: list[str]) -> int:
    wanted = argv[1:] or list(MODELS)
    OUT.mkdir(parents=True, exist_ok=True)
    for name in wanted:
        make = MODELS[name]
        first = make()
        second = make()
        if first != second:
            raise SystemExit(f"{name}: two conversions differ; the fixture is not deterministic")
        if len(first) > MAX_BYTES:
            raise SystemExit(f"{name}: {len(first)} bytes is over the {MAX_BYTES}-byte budget")
        run_in_litert(name, first)
        (OUT / name).write_bytes(first)
        print(f"made {name} ({len(first)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
