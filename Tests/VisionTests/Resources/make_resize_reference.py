"""Writes TensorFlow references for the vision pipeline's bilinear resize.

    /path/to/Fixtures/generate/.venv/bin/python Tests/VisionTests/Resources/make_resize_reference.py

resize_src.rgb: a 13x11 (width x height) random RGB8 image.
resize_<W>x<H>.f32: tf.image.resize(src, (H, W), method="bilinear", antialias=False) as
little-endian float32, H x W x 3 — TF's half-pixel-centers bilinear, what the Swift side
documents and implements.
resize_crop_<W>x<H>.f32: the same on the center crop the Swift side uses for an output of
that aspect ratio (largest centered region: cropW = min(W, round(H * outW / outH)), ...).
"""
import os

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(7)
SRC_W, SRC_H = 13, 11
src = rng.integers(0, 256, size=(SRC_H, SRC_W, 3), dtype=np.uint8)
src.tofile(os.path.join(HERE, "resize_src.rgb"))

for out_w, out_h in [(5, 7), (29, 17), (13, 11), (1, 1)]:
    out = tf.image.resize(src[np.newaxis].astype(np.float32), (out_h, out_w), method="bilinear", antialias=False)
    np.asarray(out[0], dtype="<f4").tofile(os.path.join(HERE, f"resize_{out_w}x{out_h}.f32"))

for out_w, out_h in [(4, 4), (8, 3)]:
    crop_w = min(SRC_W, int(np.floor(SRC_H * out_w / out_h + 0.5)))
    crop_h = min(SRC_H, int(np.floor(SRC_W * out_h / out_w + 0.5)))
    x0, y0 = (SRC_W - crop_w) // 2, (SRC_H - crop_h) // 2
    crop = src[y0:y0 + crop_h, x0:x0 + crop_w]
    out = tf.image.resize(crop[np.newaxis].astype(np.float32), (out_h, out_w), method="bilinear", antialias=False)
    np.asarray(out[0], dtype="<f4").tofile(os.path.join(HERE, f"resize_crop_{out_w}x{out_h}.f32"))
print("ok")
