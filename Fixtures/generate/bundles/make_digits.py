#!/usr/bin/env python3
"""Trains the digit labeler and packages it as an AutoML Vision Edge image-labeling bundle.

  Fixtures/bundles/digits/{manifest.json, dict.txt, model.tflite, REPORT.json}
  Fixtures/images/digits/<index>_<label>.png

Data: scikit-learn's bundled `load_digits` (1797 8x8 images, values 0..16), split once
with a fixed seed. Each digit becomes a 32x32 RGB byte image (values scaled to 0..255,
bilinear upscale, rounded, grey copied to R, G, B); that is what the model trains and is
scored on. The PNGs are those 32x32 images doubled to 64x64 by pixel replication, so an
image labeler must resize them, and any resize that samples pixel centres (bilinear or
nearest with half-pixel centres, area averaging, TF's legacy nearest) gives back exactly
the 32x32 bytes; the script checks that by reading every PNG back.

Model: MobileNet-style (conv3x3/2, three depthwise-separable blocks, relu6, global
average pool, dense, softmax) trained in float on bytes / 255, then TF2 full-integer
quantization with uint8 input and uint8 output, as AutoML exports it: input bytes are
the raw RGB values (scale 1/255, zero point 0), output is softmax * 256 as uint8.
"""
from __future__ import annotations

import common  # noqa: F401  (sets up determinism first)

import sys

import numpy as np
import tensorflow as tf
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

from common import (BUNDLES, frozen, IMAGES, invoke, read_png, reference_interpreter, seed_everything,
                    tensor_description, op_names, write_json, write_png)

SEED = 20250301
SIZE = 32            # model input
PNG_SIZE = 64        # demo images, resized to SIZE by the labeler
PNG_COUNT = 20
EPOCHS = 40
MAX_BYTES = 100 * 1024
OUT = BUNDLES / "digits"
PNG_DIR = IMAGES / "digits"


def to_rgb_bytes(digits8: np.ndarray) -> np.ndarray:
    """[n, 8, 8] values 0..16 -> [n, 32, 32, 3] uint8 (bilinear, half-pixel centres)."""
    x = digits8.astype(np.float32)[..., None] * (255.0 / 16.0)
    x = tf.image.resize(x, (SIZE, SIZE), method="bilinear", antialias=False).numpy()
    x = np.clip(np.round(x), 0, 255).astype(np.uint8)
    return np.repeat(x, 3, axis=-1)


def resize_half_pixel_bilinear(img: np.ndarray, size: int) -> np.ndarray:
    """The labeler's resize, written out: output pixel i samples input coordinate
    (i + 0.5) * in/out - 0.5, bilinear between the two nearest pixels (clamped at the
    edges), rounded half up to a byte."""
    h, w, _ = img.shape

    def axis(n_in):
        src = (np.arange(size) + 0.5) * (n_in / size) - 0.5
        src = np.clip(src, 0, n_in - 1)
        lo = np.floor(src).astype(int)
        hi = np.minimum(lo + 1, n_in - 1)
        return lo, hi, src - lo

    y0, y1, fy = axis(h)
    x0, x1, fx = axis(w)
    f = img.astype(np.float64)
    top = f[y0][:, x0] * (1 - fx)[None, :, None] + f[y0][:, x1] * fx[None, :, None]
    bot = f[y1][:, x0] * (1 - fx)[None, :, None] + f[y1][:, x1] * fx[None, :, None]
    out = top * (1 - fy)[:, None, None] + bot * fy[:, None, None]
    return np.floor(out + 0.5).astype(np.uint8)


def build_model() -> tf.keras.Model:
    L = tf.keras.layers
    inp = L.Input((SIZE, SIZE, 3), name="image")
    x = L.Conv2D(16, 3, strides=2, padding="same", name="conv")(inp)      # 16x16
    x = L.BatchNormalization()(x)
    x = L.ReLU(6.0)(x)
    for i, (stride, out) in enumerate([(1, 32), (2, 48), (2, 64)]):        # 16, 8, 4
        x = L.DepthwiseConv2D(3, strides=stride, padding="same", name=f"dw{i}")(x)
        x = L.BatchNormalization()(x)
        x = L.ReLU(6.0)(x)
        x = L.Conv2D(out, 1, name=f"pw{i}")(x)
        x = L.BatchNormalization()(x)
        x = L.ReLU(6.0)(x)
    x = L.GlobalAveragePooling2D()(x)
    x = L.Dropout(0.2)(x)
    out = L.Dense(10, activation="softmax", name="probabilities")(x)
    return tf.keras.Model(inp, out)


def augment(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Shifts of up to 2 pixels: the digits are small, so this is enough to generalise."""
    out = np.empty_like(x)
    for i, img in enumerate(x):
        dy, dx = rng.integers(-2, 3, size=2)
        out[i] = np.roll(img, (dy, dx), axis=(0, 1))
    return out


def train(x_train: np.ndarray, y_train: np.ndarray) -> tf.keras.Model:
    seed_everything(SEED)
    model = build_model()
    # Cosine decay to zero: the last epochs settle the batch-norm statistics, which a
    # constant rate leaves noisy (held-out accuracy swung by 5 points between epochs).
    steps = -(-len(x_train) // 32) * EPOCHS
    model.compile(optimizer=tf.keras.optimizers.Adam(
                      tf.keras.optimizers.schedules.CosineDecay(3e-3, steps)),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    rng = np.random.default_rng([SEED, 1])
    xf = x_train.astype(np.float32) / 255.0
    for epoch in range(EPOCHS):
        order = rng.permutation(len(xf))
        model.fit(augment(xf[order], rng), y_train[order], batch_size=32, epochs=1,
                  shuffle=False, verbose=0)
    return model


def convert(model: tf.keras.Model, calibration: np.ndarray) -> bytes:
    @tf.function(input_signature=[tf.TensorSpec((1, SIZE, SIZE, 3), tf.float32, name="image")])
    def serve(image):
        return {"probabilities": model(image, training=False)}

    conv = tf.lite.TFLiteConverter.from_concrete_functions([frozen(serve)])
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    conv.inference_input_type = tf.uint8
    conv.inference_output_type = tf.uint8
    images = calibration.astype(np.float32) / 255.0

    def representative():
        for img in images:
            yield [img[None]]

    conv.representative_dataset = representative
    return conv.convert()


def main() -> int:
    data = load_digits()
    idx = np.arange(len(data.target))
    train_idx, test_idx = train_test_split(idx, test_size=0.3, random_state=SEED,
                                           stratify=data.target)
    test_idx = np.sort(test_idx)
    images = to_rgb_bytes(data.images)
    labels = data.target.astype(np.int64)

    model = train(images[train_idx], labels[train_idx])
    float_acc = float(np.mean(np.argmax(model.predict(images[test_idx] / 255.0, verbose=0), 1)
                              == labels[test_idx]))
    # Calibrate on training images only; they include pure 0 and 255 pixels, so the
    # input's quantization is exactly bytes / 255.
    rng = np.random.default_rng([SEED, 2])
    tflite_model = convert(model, images[rng.choice(train_idx, 200, replace=False)])
    if len(tflite_model) > MAX_BYTES:
        raise SystemExit(f"digits: {len(tflite_model)} bytes is over {MAX_BYTES}")

    it = reference_interpreter(tflite_model)
    ind, outd = it.get_input_details()[0], it.get_output_details()[0]
    if ind["dtype"] != np.uint8 or outd["dtype"] != np.uint8:
        raise SystemExit("digits: input and output must be uint8")
    if not (np.isclose(ind["quantization"][0], 1 / 255) and ind["quantization"][1] == 0):
        raise SystemExit(f"digits: input quantization {ind['quantization']} is not bytes/255")

    # Demo PNGs: the first PNG_COUNT held-out digits, two of each class if possible.
    chosen = []
    for k in range(10):
        chosen += [int(i) for i in test_idx[labels[test_idx] == k][:PNG_COUNT // 10]]
    chosen.sort()
    OUT.mkdir(parents=True, exist_ok=True)
    PNG_DIR.mkdir(parents=True, exist_ok=True)
    for old in PNG_DIR.glob("*.png"):
        old.unlink()
    png_files = {}
    for i in chosen:
        big = np.repeat(np.repeat(images[i], 2, axis=0), 2, axis=1)
        name = f"{i}_{labels[i]}.png"
        write_png(PNG_DIR / name, big)
        back = read_png(PNG_DIR / name)
        if back.shape != (PNG_SIZE, PNG_SIZE, 3) or not np.array_equal(back, big):
            raise SystemExit(f"digits: {name} does not read back")
        if not np.array_equal(resize_half_pixel_bilinear(back, SIZE), images[i]):
            raise SystemExit(f"digits: {name} does not resize back to the model input")
        png_files[i] = name

    correct = 0
    per_image = []
    for i in test_idx:
        (scores,) = invoke(it, images[i][None])
        predicted = int(np.argmax(scores[0]))   # ties go to the lowest index
        correct += predicted == labels[i]
        if i in png_files:
            per_image.append({"file": f"Fixtures/images/digits/{png_files[i]}",
                              "label": int(labels[i]), "predicted": predicted,
                              "scores_uint8": [int(v) for v in scores[0]]})
    accuracy = correct / len(test_idx)
    if accuracy <= 0.9:
        raise SystemExit(f"digits: held-out accuracy {accuracy:.3f} is not above 0.9")

    (OUT / "model.tflite").write_bytes(tflite_model)
    (OUT / "dict.txt").write_text("".join(f"{k}\n" for k in range(10)))
    write_json(OUT / "manifest.json", {"modelType": "IMAGE_LABELING", "modelFile": "model.tflite",
                                       "labelsFile": "dict.txt"})
    write_json(OUT / "REPORT.json", {
        "dataset": "sklearn.datasets.load_digits, 30% stratified hold-out "
                   f"(train_test_split random_state={SEED})",
        "preprocess": {
            "model_input": [1, SIZE, SIZE, 3],
            "digit_to_bytes": "value * 255/16, tf.image.resize bilinear (half-pixel centres) "
                              "8x8 -> 32x32, rounded half to even, grey copied to R, G, B",
            "png": "the 32x32 bytes doubled to 64x64 by pixel replication",
            "png_to_input": "bilinear resize with half-pixel centres 64x64 -> 32x32; the "
                            "replicated pixels make it exact (also for nearest/area resizes, "
                            "but not for align-corners sampling)",
            "input_bytes": "raw RGB bytes, no normalisation (input scale 1/255, zero point 0)",
        },
        "interpreter": "ai-edge-litert 2.3.0, OpResolverType.BUILTIN_REF",
        "input": tensor_description(ind),
        "output": tensor_description(outd),
        "ops": op_names(tflite_model),
        "heldout_count": int(len(test_idx)),
        "accuracy": round(float(accuracy), 6),
        "float_model_accuracy": round(float_acc, 6),
        "predicted_is": "argmax of scores_uint8, lowest index on ties",
        "per_image": per_image,
    })
    print(f"digits: {len(tflite_model)} bytes, held-out accuracy {accuracy:.4f} "
          f"(float {float_acc:.4f}) on {len(test_idx)} images")
    return 0


if __name__ == "__main__":
    sys.exit(main())
