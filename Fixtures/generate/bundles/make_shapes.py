#!/usr/bin/env python3
"""Trains the shape detector and packages it as an AutoML Vision Edge object-detection bundle.

  Fixtures/bundles/shapes/{tflite_metadata.json, dict.txt, model.tflite, REPORT.json}
  Fixtures/images/shapes/scene_<n>.png, Fixtures/images/shapes/boxes.json

Scenes: 320x320 RGB, a noisy, low-frequency textured background with one to four
filled shapes (circle, square, triangle) of contrasting colour, drawn from a seeded
generator; the ground-truth boxes are the drawn pixels' extents.

Model: an SSD. The uint8 input (raw RGB bytes, scale 1/255) is averaged 4x4 down to
80x80 by the model itself, a MobileNet-style trunk gives 10x10 and 5x5 feature maps, and
a 3x3 conv head per map predicts SSD box encodings and softmax class scores (background
first) for 4 anchors per cell. The last op is the custom TFLite_Detection_PostProcess,
made the way make_models.py makes ssd_postprocess.tflite: a stub tf.function carrying
`experimental_implements`, which the converter swaps for the op. TF2 full-integer
quantization; the post-process gets float (dequantized) box encodings, scores and anchors.

Training runs on the 80x80 averages (what the model's first op computes), so it stays
small: the trunk never sees 320x320 during training.
"""
from __future__ import annotations

import common  # noqa: F401  (sets up determinism first)

import sys
import time

import numpy as np
import tensorflow as tf

from common import (BUNDLES, IMAGES, invoke, op_names, read_png, reference_interpreter,
                    seed_everything, tensor_description, write_json, write_png)

SEED = 20250302
SIZE = 320
POOL = 4                      # 320 -> 80 inside the model
CLASSES = ["circle", "square", "triangle"]
TRAIN_SCENES = 3000
EVAL_SCENES = 100
PNG_SCENES = 6
EPOCHS = 30
BATCH = 32
MAX_BYTES = 500 * 1024
OUT = BUNDLES / "shapes"
PNG_DIR = IMAGES / "shapes"
INPUT_NAME = "normalized_input_image_tensor"

POSTPROCESS = dict(
    max_detections=10,
    max_classes_per_detection=1,
    detections_per_class=100,
    use_regular_nms=False,
    nms_score_threshold=0.1,
    nms_iou_threshold=0.5,
    num_classes=len(CLASSES),
    y_scale=10.0,
    x_scale=10.0,
    h_scale=5.0,
    w_scale=5.0,
)

# Feature maps: (grid size, base scale, next scale). Each cell gets the base scale at
# aspect ratios 1, 2 and 1/2, plus the geometric mean of base and next at ratio 1.
FEATURE_MAPS = [(10, 0.16, 0.30), (5, 0.30, 0.50)]
ANCHORS_PER_CELL = 4
# Depthwise-separable blocks (stride, channels): 40 40 20 20 10 10 5; the 10x10 and 5x5
# maps come from blocks 4 and 5.
BLOCKS = [(1, 32), (2, 48), (1, 48), (2, 64), (1, 64), (2, 96)]
MAP_BLOCKS = (4, 5)


# ---------------------------------------------------------------------------------------
# Scenes
# ---------------------------------------------------------------------------------------

def background(rng: np.random.Generator) -> np.ndarray:
    """Smooth colour field (a random 5x5 grid, bilinearly enlarged), optional stripes,
    and per-pixel noise."""
    grid = rng.uniform(0, 255, (5, 5, 3)).astype(np.float32)
    field = tf.image.resize(grid[None], (SIZE, SIZE), method="bilinear").numpy()[0]
    field = 0.5 * field + 0.5 * rng.uniform(0, 255, 3)
    if rng.random() < 0.5:
        yy, xx = np.mgrid[0:SIZE, 0:SIZE]
        angle, period = rng.uniform(0, np.pi), rng.uniform(8, 40)
        stripes = np.sin((xx * np.cos(angle) + yy * np.sin(angle)) * 2 * np.pi / period)
        field += (stripes * rng.uniform(10, 40))[..., None]
    field += rng.normal(0, rng.uniform(4, 20), field.shape)
    return field


def shape_mask(kind: int, cy: float, cx: float, size: float, aspect: float,
               flip: bool) -> np.ndarray:
    from skimage.draw import disk, polygon

    mask = np.zeros((SIZE, SIZE), bool)
    h, w = size * aspect, size
    if kind == 0:
        rr, cc = disk((cy, cx), size / 2, shape=mask.shape)
    elif kind == 1:
        rr, cc = polygon([cy - size / 2, cy - size / 2, cy + size / 2, cy + size / 2],
                         [cx - size / 2, cx + size / 2, cx + size / 2, cx - size / 2], mask.shape)
    else:
        top, bottom = (cy + h / 2, cy - h / 2) if flip else (cy - h / 2, cy + h / 2)
        rr, cc = polygon([top, bottom, bottom], [cx, cx - w / 2, cx + w / 2], mask.shape)
    mask[rr, cc] = True
    return mask


def scene(rng: np.random.Generator):
    """One scene: uint8 [320, 320, 3], boxes [n, 4] (ymin, xmin, ymax, xmax, normalised,
    pixel-edge exact), classes [n]."""
    img = background(rng)
    boxes, classes = [], []
    for _ in range(rng.integers(1, 5)):
        for _attempt in range(20):
            kind = int(rng.integers(0, 3))
            size = rng.uniform(48, 140)
            aspect = rng.uniform(0.8, 1.25) if kind == 2 else 1.0
            half = max(size, size * aspect) / 2
            cy, cx = rng.uniform(half, SIZE - half, 2)
            mask = shape_mask(kind, cy, cx, size, aspect, bool(rng.random() < 0.5))
            rows, cols = np.nonzero(mask)
            box = np.array([rows.min(), cols.min(), rows.max() + 1, cols.max() + 1]) / SIZE
            if all(iou(box, b) < 0.05 for b in boxes):
                break
        else:
            continue
        base = img[mask].mean(axis=0)
        while True:   # a colour that stands out from what lies under the shape
            colour = rng.uniform(0, 255, 3)
            if np.abs(colour - base).sum() > 150:
                break
        img[mask] = colour + rng.normal(0, 6, (mask.sum(), 3))
        boxes.append(box)
        classes.append(kind)
    return (np.clip(np.round(img), 0, 255).astype(np.uint8),
            np.array(boxes, np.float32).reshape(-1, 4), np.array(classes, np.int64))


def scenes(tag: int, count: int):
    for i in range(count):
        yield scene(np.random.default_rng([SEED, tag, i]))


def pool(img: np.ndarray) -> np.ndarray:
    """What the model's first op sees after its AVERAGE_POOL_2D: 4x4 means of bytes/255."""
    x = img.astype(np.float32) / 255.0
    return x.reshape(SIZE // POOL, POOL, SIZE // POOL, POOL, 3).mean(axis=(1, 3))


# ---------------------------------------------------------------------------------------
# Anchors and SSD targets
# ---------------------------------------------------------------------------------------

def anchors() -> np.ndarray:
    """[500, 4] (y_center, x_center, h, w), normalised; map by map, row, column, anchor."""
    rows = []
    for n, scale, nxt in FEATURE_MAPS:
        for r in range(n):
            for c in range(n):
                cy, cx = (r + 0.5) / n, (c + 0.5) / n
                for h, w in [(scale, scale), (scale / np.sqrt(2), scale * np.sqrt(2)),
                             (scale * np.sqrt(2), scale / np.sqrt(2)),
                             (np.sqrt(scale * nxt), np.sqrt(scale * nxt))]:
                    rows.append((cy, cx, h, w))
    return np.array(rows, np.float32)


def iou(a: np.ndarray, b: np.ndarray) -> float:
    h = min(a[2], b[2]) - max(a[0], b[0])
    w = min(a[3], b[3]) - max(a[1], b[1])
    if h <= 0 or w <= 0:
        return 0.0
    inter = h * w
    return float(inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter))


def iou_matrix(boxes: np.ndarray, corners: np.ndarray) -> np.ndarray:
    y0 = np.maximum(boxes[:, None, 0], corners[None, :, 0])
    x0 = np.maximum(boxes[:, None, 1], corners[None, :, 1])
    y1 = np.minimum(boxes[:, None, 2], corners[None, :, 2])
    x1 = np.minimum(boxes[:, None, 3], corners[None, :, 3])
    inter = np.clip(y1 - y0, 0, None) * np.clip(x1 - x0, 0, None)
    area_b = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    area_c = (corners[:, 2] - corners[:, 0]) * (corners[:, 3] - corners[:, 1])
    return inter / (area_b[:, None] + area_c[None, :] - inter)


def targets(boxes: np.ndarray, classes: np.ndarray, anc: np.ndarray):
    """Per anchor: encoded box [4] and class (0 background, -1 ignored, k+1 shape k).
    Positive at IoU >= 0.5 and for each box its best anchor; negative under 0.4."""
    enc = np.zeros((len(anc), 4), np.float32)
    label = np.zeros(len(anc), np.int64)
    if len(boxes) == 0:
        return enc, label
    corners = np.stack([anc[:, 0] - anc[:, 2] / 2, anc[:, 1] - anc[:, 3] / 2,
                        anc[:, 0] + anc[:, 2] / 2, anc[:, 1] + anc[:, 3] / 2], 1)
    m = iou_matrix(boxes, corners)
    best_box = m.argmax(0)
    best_iou = m.max(0)
    best_box[m.argmax(1)] = np.arange(len(boxes))
    best_iou[m.argmax(1)] = 1.0
    label[(best_iou >= 0.4) & (best_iou < 0.5)] = -1
    pos = best_iou >= 0.5
    label[pos] = classes[best_box[pos]] + 1
    g = boxes[best_box]
    gy, gx = (g[:, 0] + g[:, 2]) / 2, (g[:, 1] + g[:, 3]) / 2
    gh, gw = g[:, 2] - g[:, 0], g[:, 3] - g[:, 1]
    p = POSTPROCESS
    enc[:, 0] = (gy - anc[:, 0]) / anc[:, 2] * p["y_scale"]
    enc[:, 1] = (gx - anc[:, 1]) / anc[:, 3] * p["x_scale"]
    enc[:, 2] = np.log(gh / anc[:, 2]) * p["h_scale"]
    enc[:, 3] = np.log(gw / anc[:, 3]) * p["w_scale"]
    enc[~pos] = 0
    return enc, label


# ---------------------------------------------------------------------------------------
# Model
# ---------------------------------------------------------------------------------------

def build_trunk() -> tf.keras.Model:
    """80x80x3 in [0, 1] -> box encodings [n, 500, 4], class logits [n, 500, 4]."""
    L = tf.keras.layers
    k = ANCHORS_PER_CELL
    classes = len(CLASSES) + 1
    inp = L.Input((SIZE // POOL, SIZE // POOL, 3), name="pooled")
    x = L.Conv2D(16, 3, strides=2, padding="same", activation=tf.nn.relu6, name="stem")(inp)
    maps = []
    for i, (stride, out) in enumerate(BLOCKS):
        x = L.DepthwiseConv2D(3, strides=stride, padding="same", activation=tf.nn.relu6,
                              name=f"dw{i}")(x)
        x = L.Conv2D(out, 1, activation=tf.nn.relu6, name=f"pw{i}")(x)
        if i in MAP_BLOCKS:
            maps.append(x)
    boxes, logits = [], []
    for m, (f, (n, _, _)) in enumerate(zip(maps, FEATURE_MAPS)):
        boxes.append(L.Reshape((n * n * k, 4))(L.Conv2D(k * 4, 3, padding="same", name=f"box{m}")(f)))
        logits.append(L.Reshape((n * n * k, classes))(
            L.Conv2D(k * classes, 3, padding="same", name=f"cls{m}")(f)))
    return tf.keras.Model(inp, [L.Concatenate(axis=1)(boxes), L.Concatenate(axis=1)(logits)])


def trunk_weights(trunk: tf.keras.Model) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    return {layer.name: tuple(w.numpy() for w in layer.weights)
            for layer in trunk.layers if layer.weights}


def trunk_forward(x, w: dict):
    """The trunk over plain TF ops and constant weights. The converter must see the
    post-process stub as a separate function to replace it; freezing Keras variables
    inlines (and so loses) it, hence this weight-by-weight rebuild for export."""
    def conv(t, name, stride=1, act=True):
        kernel, bias = w[name]
        t = tf.nn.bias_add(tf.nn.conv2d(t, tf.constant(kernel), stride, "SAME"), tf.constant(bias))
        return tf.nn.relu6(t) if act else t

    x = conv(x, "stem", 2)
    maps = []
    for i, (stride, _) in enumerate(BLOCKS):
        kernel, bias = w[f"dw{i}"]
        x = tf.nn.relu6(tf.nn.bias_add(tf.nn.depthwise_conv2d(
            x, tf.constant(kernel), [1, stride, stride, 1], "SAME"), tf.constant(bias)))
        x = conv(x, f"pw{i}")
        if i in MAP_BLOCKS:
            maps.append(x)
    k, classes = ANCHORS_PER_CELL, len(CLASSES) + 1
    boxes = [tf.reshape(conv(f, f"box{m}", act=False), [-1, n * n * k, 4])
             for m, (f, (n, _, _)) in enumerate(zip(maps, FEATURE_MAPS))]
    logits = [tf.reshape(conv(f, f"cls{m}", act=False), [-1, n * n * k, classes])
              for m, (f, (n, _, _)) in enumerate(zip(maps, FEATURE_MAPS))]
    return tf.concat(boxes, 1), tf.concat(logits, 1)


def ssd_loss(enc, label, pred_box, pred_logits):
    """Smooth-L1 on positives plus softmax cross-entropy on positives and the hardest
    negatives (three per positive), both divided by the number of positives."""
    pos = tf.cast(label > 0, tf.float32)
    num_pos = tf.maximum(tf.reduce_sum(pos), 1.0)
    box_loss = tf.reduce_sum(tf.reduce_sum(tf.keras.losses.Huber(reduction="none")(
        enc[..., None], pred_box[..., None]), -1) * pos)
    ce = tf.nn.sparse_softmax_cross_entropy_with_logits(tf.maximum(label, 0), pred_logits)
    neg = tf.cast(label == 0, tf.float32)
    neg_ce = ce * neg - (1.0 - neg) * 1e9      # only negatives compete
    rank = tf.argsort(tf.argsort(neg_ce, axis=1, direction="DESCENDING", stable=True),
                      axis=1, stable=True)
    k = tf.maximum(3.0 * tf.reduce_sum(pos, 1, keepdims=True), 3.0)
    hard = tf.cast(tf.cast(rank, tf.float32) < k, tf.float32) * neg
    cls_loss = tf.reduce_sum(ce * (pos + hard))
    return (box_loss + cls_loss) / num_pos


def train(x: np.ndarray, enc: np.ndarray, label: np.ndarray) -> tf.keras.Model:
    seed_everything(SEED)
    trunk = build_trunk()
    steps = -(-len(x) // BATCH) * EPOCHS
    opt = tf.keras.optimizers.Adam(tf.keras.optimizers.schedules.CosineDecay(3e-3, steps))

    @tf.function
    def step(xb, eb, lb):
        with tf.GradientTape() as tape:
            pb, pl = trunk(xb, training=True)
            loss = ssd_loss(eb, lb, pb, pl)
        grads = tape.gradient(loss, trunk.trainable_variables)
        opt.apply_gradients(zip(grads, trunk.trainable_variables))
        return loss

    # Horizontal flips double the data: mirror the image and the anchor layout.
    anc = anchors()
    flip_index = flipped_anchor_index(anc)
    rng = np.random.default_rng([SEED, 1])
    for epoch in range(EPOCHS):
        start = time.time()
        order = rng.permutation(len(x))
        losses = []
        for b in range(0, len(x), BATCH):
            idx = order[b:b + BATCH]
            xb, eb, lb = x[idx].copy(), enc[idx].copy(), label[idx].copy()
            flip = rng.random(len(idx)) < 0.5
            xb[flip] = xb[flip][:, :, ::-1]
            eb[flip] = eb[flip][:, flip_index] * np.array([1, -1, 1, 1], np.float32)
            lb[flip] = lb[flip][:, flip_index]
            losses.append(float(step(xb, eb, lb)))
        print(f"  epoch {epoch + 1}/{EPOCHS} loss {np.mean(losses):.3f} "
              f"({time.time() - start:.0f}s)", flush=True)
    return trunk


def flipped_anchor_index(anc: np.ndarray) -> np.ndarray:
    """For each anchor, the same-shaped anchor in the mirrored column."""
    index, base = [], 0
    for n, _, _ in FEATURE_MAPS:
        for r in range(n):
            for c in range(n):
                for k in range(ANCHORS_PER_CELL):
                    index.append(base + (r * n + (n - 1 - c)) * ANCHORS_PER_CELL + k)
        base += n * n * ANCHORS_PER_CELL
    return np.array(index)


def implements_signature() -> str:
    """The NameAttrList text the converter turns into the custom op's FlexBuffer options."""
    parts = ['name: "TFLite_Detection_PostProcess"']
    for key, value in POSTPROCESS.items():
        if isinstance(value, bool):
            parts.append(f'attr {{ key: "{key}" value {{ b: {str(value).lower()} }} }}')
        elif isinstance(value, int):
            parts.append(f'attr {{ key: "{key}" value {{ i: {value} }} }}')
        else:
            parts.append(f'attr {{ key: "{key}" value {{ f: {value!r} }} }}')
    return " ".join(parts)


class Detector(tf.Module):
    def __init__(self, trunk: tf.keras.Model):
        super().__init__()
        self.weights = trunk_weights(trunk)
        self.anchors = anchors()

    @tf.function(experimental_implements=implements_signature())
    def postprocess(self, box_encodings, class_predictions, anchors):
        # Replaced as a whole by the custom op; these only give the outputs their shapes.
        n = POSTPROCESS["max_detections"]
        return (tf.zeros([1, n, 4], tf.float32), tf.zeros([1, n], tf.float32),
                tf.zeros([1, n], tf.float32), tf.zeros([1], tf.float32))

    @tf.function(input_signature=[tf.TensorSpec((1, SIZE, SIZE, 3), tf.float32, name=INPUT_NAME)])
    def serve(self, image):
        x = tf.nn.avg_pool2d(image, POOL, POOL, "VALID")
        box, logits = trunk_forward(x, self.weights)
        boxes, classes, scores, count = self.postprocess(box, tf.nn.softmax(logits),
                                                         tf.constant(self.anchors))
        return {"detection_boxes": boxes, "detection_classes": classes,
                "detection_scores": scores, "num_detections": count}


def convert(trunk: tf.keras.Model, calibration: list[np.ndarray]) -> bytes:
    module = Detector(trunk)
    probe = np.random.default_rng([SEED, 4]).uniform(0, 1, (2, SIZE // POOL, SIZE // POOL, 3))
    for ours, keras in zip(trunk_forward(tf.constant(probe, tf.float32), module.weights),
                           trunk(probe, training=False)):
        if not np.allclose(ours.numpy(), keras.numpy(), atol=1e-4):
            raise SystemExit("shapes: the export graph differs from the trained trunk")
    conv = tf.lite.TFLiteConverter.from_concrete_functions(
        [module.serve.get_concrete_function()], module)
    conv.allow_custom_ops = True
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    conv.inference_input_type = tf.uint8

    def representative():
        for img in calibration:
            yield [img[None].astype(np.float32) / 255.0]

    conv.representative_dataset = representative
    return automl_tensor_names(conv.convert())


def automl_tensor_names(model: bytes) -> bytes:
    """Names and orders the graph's ends as an AutoML (TF1 object-detection) export does:
    input `normalized_input_image_tensor`, outputs the post-process op's four in its own
    order, named `TFLite_Detection_PostProcess`, `...:1`, `...:2`, `...:3`. The converter
    would otherwise name them `serving_default_...:0` / `PartitionedCall:k` and list the
    outputs in signature-key order."""
    import flatbuffers
    from tensorflow.lite.python import schema_py_generated as schema

    m = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(model, 0))
    g = m.subgraphs[0]
    last = g.operators[-1]
    if m.operatorCodes[last.opcodeIndex].customCode != b"TFLite_Detection_PostProcess":
        raise SystemExit("shapes: the last op is not TFLite_Detection_PostProcess")
    if sorted(g.outputs) != sorted(last.outputs) or len(g.inputs) != 1:
        raise SystemExit("shapes: the graph's ends are not the image and the op's outputs")
    g.outputs = list(last.outputs)
    g.tensors[g.inputs[0]].name = INPUT_NAME.encode()
    for k, t in enumerate(last.outputs):
        g.tensors[t].name = b"TFLite_Detection_PostProcess" + (f":{k}".encode() if k else b"")
    b = flatbuffers.Builder(len(model) + 1024)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


# ---------------------------------------------------------------------------------------
# Evaluation
# ---------------------------------------------------------------------------------------

def average_precision(dets, gts, cls: int) -> float:
    """VOC-style all-point AP at IoU 0.5 for one class. dets: (image, score, box, class);
    each ground truth matches at most one detection, highest score first."""
    mine = sorted([d for d in dets if d[3] == cls], key=lambda d: -d[1])
    total = sum(int(np.sum(c == cls)) for _, c in gts)
    if total == 0:
        return float("nan")
    used = [np.zeros(len(b), bool) for b, _ in gts]
    tp = np.zeros(len(mine))
    for k, (img, _, box, _) in enumerate(mine):
        boxes, classes = gts[img]
        best, best_j = 0.5, -1
        for j in range(len(boxes)):
            if classes[j] == cls and not used[img][j]:
                o = iou(box, boxes[j])
                if o >= best:
                    best, best_j = o, j
        if best_j >= 0:
            used[img][best_j] = True
            tp[k] = 1
    ctp = np.cumsum(tp)
    recall = ctp / total
    precision = ctp / np.arange(1, len(mine) + 1)
    r = np.concatenate([[0.0], recall, [1.0]])
    p = np.concatenate([[0.0], precision, [0.0]])
    for i in range(len(p) - 2, -1, -1):
        p[i] = max(p[i], p[i + 1])
    return float(np.sum((r[1:] - r[:-1]) * p[1:]))


def detections(outputs):
    """The op's outputs, in tflite_metadata order: boxes, classes, scores, count."""
    boxes, classes, scores, count = outputs
    n = int(count[0])
    return [(boxes[0, i].astype(np.float64), float(scores[0, i]), int(classes[0, i]))
            for i in range(n)]


def check_options(model: bytes) -> None:
    import flatbuffers.flexbuffers as flexbuffers
    import tflite

    m = tflite.Model.GetRootAsModel(model, 0)
    sg = m.Subgraphs(0)
    last = sg.Operators(sg.OperatorsLength() - 1)
    if m.OperatorCodes(last.OpcodeIndex()).CustomCode() != b"TFLite_Detection_PostProcess":
        raise SystemExit("shapes: the last op is not TFLite_Detection_PostProcess")
    got = flexbuffers.Loads(bytes(last.CustomOptionsAsNumpy()))
    for key, value in POSTPROCESS.items():
        if key in got and not np.isclose(float(got[key]), float(value)):
            raise SystemExit(f"shapes: option {key} is {got[key]}, not {value}")


def postprocess_inputs(model: bytes) -> list[dict]:
    """The custom op's three inputs (box encodings, class scores, anchors): float32 from
    DEQUANTIZE ops and a constant, as in TFLite's quantized SSD exports."""
    from tensorflow.lite.python import schema_py_generated as schema

    types = {v: k for k, v in vars(schema.TensorType).items() if not k.startswith("_")}
    m = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(model, 0))
    g = m.subgraphs[0]
    out = []
    for role, t in zip(["box_encodings", "class_predictions", "anchors"], g.operators[-1].inputs):
        tensor = g.tensors[t]
        producer = [m.operatorCodes[op.opcodeIndex].builtinCode for op in g.operators
                    if t in op.outputs]
        out.append({"role": role, "name": tensor.name.decode(), "shape": [int(v) for v in tensor.shape],
                    "dtype": types[tensor.type],
                    "from": "constant" if not producer else
                    {v: k for k, v in vars(schema.BuiltinOperator).items()}[producer[0]]})
    return out


def main() -> int:
    t0 = time.time()
    anc = anchors()
    xs, encs, labels = [], [], []
    for img, boxes, classes in scenes(1, TRAIN_SCENES):
        xs.append(pool(img))
        e, lab = targets(boxes, classes, anc)
        encs.append(e)
        labels.append(lab)
    x, enc, label = np.stack(xs), np.stack(encs), np.stack(labels)
    print(f"shapes: {TRAIN_SCENES} training scenes in {time.time() - t0:.0f}s; "
          f"{(label > 0).sum() / TRAIN_SCENES:.1f} positive anchors per scene", flush=True)

    trunk = train(x, enc, label)
    calibration = [img for img, _, _ in scenes(2, 100)]
    model = convert(trunk, calibration)
    check_options(model)
    if len(model) > MAX_BYTES:
        raise SystemExit(f"shapes: {len(model)} bytes is over {MAX_BYTES}")

    it = reference_interpreter(model)
    ind = it.get_input_details()[0]
    if ind["dtype"] != np.uint8 or not np.isclose(ind["quantization"][0], 1 / 255) \
            or ind["quantization"][1] != 0:
        raise SystemExit(f"shapes: input {ind['dtype']} {ind['quantization']} is not bytes/255")

    OUT.mkdir(parents=True, exist_ok=True)
    PNG_DIR.mkdir(parents=True, exist_ok=True)
    for old in PNG_DIR.glob("*.png"):
        old.unlink()
    gts, dets, per_image, png_boxes = [], [], [], []
    for i, (img, boxes, classes) in enumerate(scenes(3, EVAL_SCENES)):
        if i < PNG_SCENES:
            name = f"scene_{i}.png"
            write_png(PNG_DIR / name, img)
            if not np.array_equal(read_png(PNG_DIR / name), img):
                raise SystemExit(f"shapes: {name} does not read back")
        found = detections(invoke(it, img[None]))
        gts.append((boxes, classes))
        dets += [(i, s, b, c) for b, s, c in found]
        if i < PNG_SCENES:
            file = f"Fixtures/images/shapes/{name}"
            png_boxes.append({"file": file, "objects": [
                {"label": CLASSES[c], "class_index": int(c),
                 "box": [round(float(v), 6) for v in b],
                 "box_pixels": [int(round(float(v) * SIZE)) for v in b]}
                for b, c in zip(boxes, classes)]})
            per_image.append({"file": file, "detections": [
                {"label": CLASSES[c], "class_index": c, "score": round(s, 6),
                 "box": [round(float(v), 6) for v in b]} for b, s, c in found]})
    aps = {CLASSES[c]: average_precision(dets, gts, c) for c in range(len(CLASSES))}
    mean_ap = float(np.mean(list(aps.values())))
    if mean_ap <= 0.7:
        raise SystemExit(f"shapes: mAP@0.5 {mean_ap:.3f} is not above 0.7 ({aps})")

    outputs = it.get_output_details()
    (OUT / "model.tflite").write_bytes(model)
    (OUT / "dict.txt").write_text("".join(f"{c}\n" for c in CLASSES))
    write_json(OUT / "tflite_metadata.json", {
        "inferenceType": "QUANTIZED_UINT8",
        "inputShape": [1, SIZE, SIZE, 3],
        "inputTensor": ind["name"],
        "maxDetections": POSTPROCESS["max_detections"],
        "outputTensorRepresentation": ["bounding_boxes", "class_labels", "class_confidences",
                                       "num_of_boxes"],
        "outputTensors": [d["name"] for d in outputs],
    })
    write_json(PNG_DIR / "boxes.json", {
        "classes": CLASSES,
        "box_format": "[ymin, xmin, ymax, xmax] normalised to the 320x320 image (edges of "
                      "the drawn pixels: max is last pixel + 1); box_pixels the same times 320",
        "images": png_boxes,
    })
    write_json(OUT / "REPORT.json", {
        "scenes": {"train": TRAIN_SCENES, "heldout": EVAL_SCENES,
                   "generator": f"make_shapes.scene, numpy default_rng([{SEED}, split, index]); "
                                "split 1 train, 2 calibration, 3 held-out (PNGs are held-out 0..5)"},
        "interpreter": "ai-edge-litert 2.3.0, OpResolverType.BUILTIN_REF",
        "preprocess": "none: the 320x320 PNG's RGB bytes are the uint8 input",
        "input": tensor_description(ind),
        "outputs": [tensor_description(d) for d in outputs],
        "ops": op_names(model),
        "postprocess_inputs": postprocess_inputs(model),
        "postprocess_options": POSTPROCESS,
        "anchors": {"count": int(len(anc)), "feature_maps": [
            {"grid": n, "scale": s, "next_scale": t} for n, s, t in FEATURE_MAPS],
            "per_cell": "scale at aspect 1, 2 (wide), 1/2 (tall), then sqrt(scale*next) at 1"},
        "metric": "VOC all-point AP at IoU >= 0.5 per class over the held-out scenes, "
                  "from the op's detections (max_detections, score > nms_score_threshold); "
                  "mAP is the mean over classes",
        "ap": {k: round(v, 6) for k, v in aps.items()},
        "map_50": round(mean_ap, 6),
        "per_image": per_image,
    })
    print(f"shapes: {len(model)} bytes, mAP@0.5 {mean_ap:.4f} {aps}, "
          f"{time.time() - t0:.0f}s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
