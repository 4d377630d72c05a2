#!/usr/bin/env python3
"""References for MediaPipe's custom operators, written without running our code.

    make_references.py WHEEL_DIR

WHEEL_DIR holds the unpacked `mediapipe==0.10.14` wheel (`pip download --no-deps
mediapipe==0.10.14` for CPython 3.11, then unzip), whose `mediapipe/modules/*/*.tflite`
are the 14 models. Writes Fixtures/mediapipe/:

  models/<name>.tflite        the three models with custom operators, unchanged
  SOURCES.md                  provenance (wheel, path, SHA-256, license)
  <name>/input_u8.npy         the model input as 8-bit RGB (the float input is u8 / 255)
  <name>/reference_<i>.npy    reference outputs
  <name>/case.json            how each reference was made, and LiteRT XNNPACK's distance
                              from BUILTIN_REF on the same model (the tolerance floor)
  ops/<op>/...                op-by-op NumPy references of the transform operators
  face_landmark_with_attention/input_u8.npy   the face crop the whole model runs on

Then `mediapipe_reference.py` (run with the wheel installed) adds MediaPipe's own outputs
for the three models.

Convolution2DTransposeBias (selfie segmentation): the model is rewritten so that the
custom operator becomes TRANSPOSE_CONV with the same weights, strides, padding and the
bias as its fourth input (spec/mediapipe-ops.md shows the two agree), and the rewritten
model runs in LiteRT with BUILTIN_REF kernels (and with its default XNNPACK kernels, for
the tolerance floor).

Transform operators (face_landmark_with_attention): NumPy code below follows MediaPipe's
kernels line by line (google-ai-edge/mediapipe, mediapipe/util/tflite/operations/,
cited per function); their inputs are a real face mesh (LiteRT BUILTIN_REF running the
builtin-only `face_landmark.tflite` on the photo) and the options stored in the model.
"""
from __future__ import annotations

import hashlib
import json
import os
import pathlib
import shutil
import sys
import tempfile

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "conformance"))
import tflite_edit as te  # noqa: E402
from tensorflow.lite.python import schema_py_generated as schema  # noqa: E402

ROOT = HERE.parent.parent.parent
OUT = ROOT / "Fixtures" / "mediapipe"
CUSTOM_MODELS = {
    "selfie_segmentation": "mediapipe/modules/selfie_segmentation/selfie_segmentation.tflite",
    "selfie_segmentation_landscape": "mediapipe/modules/selfie_segmentation/selfie_segmentation_landscape.tflite",
    "face_landmark_with_attention": "mediapipe/modules/face_landmark/face_landmark_with_attention.tflite",
}


def photo_u8(height: int, width: int, box=None) -> np.ndarray:
    """scikit-image's astronaut (Fixtures/images/astronaut.png), optionally cropped to
    box = (top, left, bottom, right), resized with TF's bilinear resize, as uint8 RGB."""
    import tensorflow as tf
    img = tf.io.decode_png(tf.io.read_file(str(ROOT / "Fixtures" / "images" / "astronaut.png")), channels=3)
    if box is not None:
        t, l, b, r = box
        img = img[t:b, l:r]
    img = tf.image.resize(tf.cast(img, tf.float32)[None], (height, width), method="bilinear", antialias=True)
    return np.clip(np.round(img.numpy()), 0, 255).astype(np.uint8)


def run_litert(content: bytes, inputs, resolver: str, preserve=False):
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    it = Interpreter(model_content=content, experimental_op_resolver_type=OpResolverType[resolver],
                     num_threads=1, experimental_preserve_all_tensors=preserve)
    it.allocate_tensors()
    for d, a in zip(it.get_input_details(), inputs):
        it.set_tensor(d["index"], a)
    it.invoke()
    return it, [it.get_tensor(d["index"]) for d in it.get_output_details()]


# MARK: - Convolution2DTransposeBias → TRANSPOSE_CONV

def rewrite_transpose_conv_bias(content: bytes) -> bytes:
    """Every CUSTOM Convolution2DTransposeBias {input, weights, bias} with C-struct options
    {padding, stride_w, stride_h} becomes TRANSPOSE_CONV {output_shape, weights, input, bias}.
    The output shape is the one MediaPipe's Prepare computes (transpose_conv_bias.cc, lines
    171-181); TRANSPOSE_CONV's own padding rule gives the same leading padding for it."""
    m = te.load(content)
    sg = m.subgraphs[0]
    code_index = None
    for i, c in enumerate(m.operatorCodes):
        if c.builtinCode == schema.BuiltinOperator.TRANSPOSE_CONV:
            code_index = i
    if code_index is None:
        code = schema.OperatorCodeT()
        code.builtinCode = schema.BuiltinOperator.TRANSPOSE_CONV
        code.deprecatedBuiltinCode = schema.BuiltinOperator.TRANSPOSE_CONV
        code.version = 3
        m.operatorCodes.append(code)
        code_index = len(m.operatorCodes) - 1
    for op in sg.operators:
        c = m.operatorCodes[op.opcodeIndex]
        if c.customCode is None or c.customCode.decode() != "Convolution2DTransposeBias":
            continue
        padding, stride_w, stride_h = np.frombuffer(bytes(op.customOptions)[:12], dtype="<i4")
        x, w, b = [int(i) for i in op.inputs]
        n, in_h, in_w, _ = sg.tensors[x].shape
        out_c, kh, kw, _ = sg.tensors[w].shape

        def size(i, k, s):
            total = max(0, k - (i - 1) % s - 1) if padding == 1 else 0
            return s * (i - 1) + k - total
        shape = np.array([n, size(in_h, kh, stride_h), size(in_w, kw, stride_w), out_c], dtype=np.int32)
        buf = schema.BufferT()
        buf.data = np.frombuffer(shape.tobytes(), dtype=np.uint8)
        m.buffers.append(buf)
        t = schema.TensorT()
        t.shape = [4]
        t.type = schema.TensorType.INT32
        t.buffer = len(m.buffers) - 1
        t.name = b"transpose_conv_output_shape"
        sg.tensors.append(t)
        op.opcodeIndex = code_index
        op.inputs = [len(sg.tensors) - 1, w, x, b]
        op.customOptions = None
        opts = schema.TransposeConvOptionsT()
        opts.padding = schema.Padding.SAME if padding == 1 else schema.Padding.VALID
        opts.strideW, opts.strideH = int(stride_w), int(stride_h)
        op.builtinOptionsType = schema.BuiltinOptions.TransposeConvOptions
        op.builtinOptions = opts
    return te.save_model(m)


def selfie_case(name: str, content: bytes) -> dict:
    m = te.load(content)
    shape = list(m.subgraphs[0].tensors[m.subgraphs[0].inputs[0]].shape)
    u8 = photo_u8(shape[1], shape[2])
    x = u8.astype(np.float32) / np.float32(255)
    twin = rewrite_transpose_conv_bias(content)
    _, ref = run_litert(twin, [x], "BUILTIN_REF")
    _, opt = run_litert(twin, [x], "BUILTIN")
    d = OUT / name
    d.mkdir(parents=True, exist_ok=True)
    np.save(d / "input_u8.npy", u8)
    for i, r in enumerate(ref):
        np.save(d / f"reference_{i}.npy", r)
    rng = [float(np.max(r) - np.min(r)) for r in ref]
    xnn = [float(np.max(np.abs(a - b))) for a, b in zip(ref, opt)]
    return {"model": f"models/{name}.tflite", "input": "astronaut.png resized to the input (TF bilinear, antialiased), uint8 / 255",
            "reference": "LiteRT BUILTIN_REF on the model with Convolution2DTransposeBias rewritten to TRANSPOSE_CONV + bias",
            "output_range": rng, "xnnpack_max_abs_diff": xnn,
            "mask_mean": [float(np.mean(r)) for r in ref]}


# MARK: - Transform operators, from MediaPipe's source

def matmul_f32(a, b):
    """Square matrix product as MediaPipe's Mat3/Mat4 compute it: each entry accumulated
    in float32 from 0 in k order (landmarks_to_transform_matrix.cc, lines 73-85, 110-123)."""
    f = np.float32
    a, b = np.array(a, dtype=f), np.array(b, dtype=f)
    n = a.shape[0]
    out = np.zeros((n, n), dtype=f)
    for r in range(n):
        for c in range(n):
            acc = f(0)
            for k in range(n):
                acc = f(acc + f(a[r, k] * b[k, c]))
            out[r, c] = acc
    return out


def landmarks_to_transform_matrix_v2(lm, opts):
    """landmarks_to_transform_matrix.cc, namespace v2 (lines 325-432), in float32."""
    f = np.float32
    lm = lm.reshape(-1, 3).astype(f)
    li, ri = opts["left_rotation_idx"], opts["right_rotation_idx"]
    # EstimateRotationRadians (lines 325-340)
    rot = f(np.arctan2(lm[ri, 1] - lm[li, 1], lm[ri, 0] - lm[li, 0]))
    rot = f(f(opts.get("target_rotation_radians", 0.0)) - rot)
    # EstimateCenterAndSize (lines 342-386): subset pairs, z = 1, rotate by r
    idx = list(opts["subset_idxs"])
    if len(idx) % 2:
        idx.append(idx[-1])
    c, s = f(np.cos(rot)), f(np.sin(rot))

    def dot3(a, b, cc, x, y):
        acc = f(0)
        acc = f(acc + f(a * x))
        acc = f(acc + f(b * y))
        acc = f(acc + f(cc * f(1)))
        return acc
    pts = [(dot3(c, -s, f(0), lm[i, 0], lm[i, 1]), dot3(s, c, f(0), lm[i, 0], lm[i, 1])) for i in idx]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    max_x, min_x, max_y, min_y = xs[0], xs[0], ys[0], ys[0]
    for x, y in zip(xs[1:], ys[1:]):
        if max_x < x: max_x = x
        if max_y < y: max_y = y
        if min_x > x: min_x = x
        if min_y > y: min_y = y
    w, h = f(max_x - min_x), f(max_y - min_y)
    cx, cy = f(f(min_x + max_x) / f(2)), f(f(min_y + max_y) / f(2))
    ci, si = f(np.cos(-rot)), f(np.sin(-rot))
    crop_x, crop_y = dot3(ci, -si, f(0), cx, cy), dot3(si, ci, f(0), cx, cy)
    # LandmarksToTransformMatrixV2 (lines 388-432): t = shift · rotate(-r) · scale · shift2
    r = f(-rot)
    cr, sr = f(np.cos(r)), f(np.sin(r))
    ow, oh = opts["output_width"], opts["output_height"]
    sx = f(f(f(opts["scale_x"]) * w) / f(ow))
    sy = f(f(f(opts["scale_y"]) * h) / f(oh))
    shx, shy = f(-1.0 * (ow / 2.0)), f(-1.0 * (oh / 2.0))
    mats = [
        [[1, 0, 0, crop_x], [0, 1, 0, crop_y], [0, 0, 1, 0], [0, 0, 0, 1]],
        [[cr, -sr, 0, 0], [sr, cr, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
        [[sx, 0, 0, 0], [0, sy, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
        [[1, 0, 0, shx], [0, 1, 0, shy], [0, 0, 1, 0], [0, 0, 0, 1]],
    ]
    t = np.eye(4, dtype=f)
    for mm in mats:
        t = matmul_f32(t, mm)
    return t.reshape(1, 4, 4)


def landmarks_to_transform_matrix_v1(lm, opts):
    """landmarks_to_transform_matrix.cc, namespace v1 (lines 132-218), in float32."""
    f = np.float32
    lm = lm.reshape(-1, 3).astype(f)
    li, ri = opts["left_rotation_idx"], opts["right_rotation_idx"]
    alpha = f(-np.arctan(f(f(lm[ri, 1] - lm[li, 1]) / f(lm[ri, 0] - lm[li, 0]))))
    ca, sa = f(np.cos(alpha)), f(np.sin(alpha))
    idx = list(opts["subset"])
    if len(idx) % 2:
        idx.append(idx[-1])
    max_x = max_y = f(-100000)
    min_x = min_y = f(100000)
    for i in idx:
        x, y = lm[i, 0], lm[i, 1]
        rx, ry = f(f(x * ca) - f(y * sa)), f(f(x * sa) + f(y * ca))
        max_x, max_y, min_x, min_y = max(max_x, rx), max(max_y, ry), min(min_x, rx), min(min_y, ry)
    rng, mult = opts["landmarks_range"], f(opts["bbox_size_multiplier"])
    bw, bh = f(f(max_x - min_x) * mult), f(f(max_y - min_y) * mult)
    mx, my = f((np.float64(max_x) + np.float64(min_x)) / 2.0), f((np.float64(max_y) + np.float64(min_y)) / 2.0)
    cb, sb = f(np.cos(-alpha)), f(np.sin(-alpha))
    rmx, rmy = f(f(mx * cb) - f(my * sb)), f(f(mx * sb) + f(my * cb))
    ih, iw = opts["input_hw"]
    oh, ow = opts["output_hw"]
    scale = [[f(bw / f(rng)), 0, 0], [0, f(bh / f(rng)), 0], [0, 0, 1]]
    rot = [[cb, -sb, f(np.float64(f(rmx / f(rng))) * 2.0 - 1.0)], [sb, cb, f(np.float64(f(rmy / f(rng))) * 2.0 - 1.0)], [0, 0, 1]]
    rel = [[f(2.0 / (ow - 1.0)), 0, -1], [0, f(2.0 / (oh - 1.0)), -1], [0, 0, 1]]
    ab = [[f((iw - 1.0) / 2.0), 0, f((iw - 1.0) / 2.0)], [0, f((ih - 1.0) / 2.0), f((ih - 1.0) / 2.0)], [0, 0, 1]]
    m = matmul_f32(matmul_f32(matmul_f32(ab, rot), scale), rel)
    return np.array([[m[0, 0], m[0, 1], 0, m[0, 2]], [m[1, 0], m[1, 1], 0, m[1, 2]],
                     [m[2, 0], m[2, 1], m[2, 2], 0], [0, 0, 0, 1]], dtype=f).reshape(1, 4, 4)


def transform_tensor_bilinear_v2(data, matrix, out_h, out_w, align_corners=True):
    """transform_tensor_bilinear.cc, namespace v2 (lines 164-254): align-corners
    correction, then bilinear sampling; a point outside [0, W-1] x [0, H-1] gives 0 and a
    neighbour past the edge reads 0. C++ promotes `1.0 - w` to double (lines 241-244).
    Version 1 (lines 38-115) is the same without the correction."""
    f = np.float32
    _, H, W, C = data.shape
    m = matrix.reshape(-1).astype(f)
    xt = [m[0], m[1], m[2], m[3]]
    yt = [m[4], m[5], m[6], m[7]]
    if align_corners:
        xt[3] = f(np.float64(xt[3]) + (np.float64(xt[0]) * 0.5 + np.float64(xt[1]) * 0.5 - 0.5))
        yt[3] = f(np.float64(yt[3]) + (np.float64(yt[0]) * 0.5 + np.float64(yt[1]) * 0.5 - 0.5))
    out = np.zeros((1, out_h, out_w, C), dtype=f)

    def dot(t, x, y):
        return f(f(f(f(t[0] * f(x)) + f(t[1] * f(y))) + f(t[2] * f(0))) + f(t[3] * f(1)))

    def read(h, w):
        if h < 0 or w < 0 or h >= H or w >= W:
            return np.zeros(C, dtype=f)
        return data[0, h, w].astype(f)
    for oy in range(out_h):
        for ox in range(out_w):
            tx, ty = dot(xt, ox, oy), dot(yt, ox, oy)
            if tx < 0.0 or tx > W - 1 or ty < 0.0 or ty > H - 1 or np.isnan(tx) or np.isnan(ty):
                continue
            fx, fy = np.floor(tx), np.floor(ty)
            q11, q21 = read(int(fy), int(fx)), read(int(fy), int(fx) + 1)
            q12, q22 = read(int(fy) + 1, int(fx)), read(int(fy) + 1, int(fx) + 1)
            r, lo = f(tx - fx), f(ty - fy)
            upper = ((1.0 - np.float64(r)) * q11.astype(np.float64) + (r * q21).astype(np.float64)).astype(f)
            lower = ((1.0 - np.float64(r)) * q12.astype(np.float64) + (r * q22).astype(np.float64)).astype(f)
            out[0, oy, ox] = ((lo * lower).astype(np.float64) + (1.0 - np.float64(lo)) * upper.astype(np.float64)).astype(f)
    return out


def transform_landmarks_v2(landmarks, matrix, dims=None, scale=1.0):
    """transform_landmarks.cc, namespace v2 (lines 161-205): x' = m00 x + m01 y + m02·0 + m03,
    y' likewise with row 1; a third coordinate is copied. Version 1 (lines 39-96) reads
    groups of `dims` values of a [1, H, W, C] tensor and scales m03, m13 by `scale`."""
    f = np.float32
    m = matrix.reshape(-1).astype(f)
    dims = dims or landmarks.shape[-1]
    flat = landmarks.astype(f).reshape(-1, dims)
    out = flat.copy()
    tx, ty = f(m[3] * f(scale)), f(m[7] * f(scale))
    for i in range(flat.shape[0]):
        x, y = flat[i, 0], flat[i, 1]
        out[i, 0] = f(f(f(f(m[0] * x) + f(m[1] * y)) + f(m[2] * f(0))) + f(tx * f(1)))
        out[i, 1] = f(f(f(f(m[4] * x) + f(m[5] * y)) + f(m[6] * f(0))) + f(ty * f(1)))
    return out.reshape(landmarks.shape)


def custom_options(content: bytes, name: str):
    import flatbuffers.flexbuffers as fx
    m = te.load(content)
    for op in m.subgraphs[0].operators:
        c = m.operatorCodes[op.opcodeIndex]
        if c.customCode is not None and c.customCode.decode() == name:
            return fx.Loads(bytes(op.customOptions))
    raise SystemExit(f"no {name} in the model")


def transform_cases(wheel: pathlib.Path, attention: bytes) -> dict:
    # A real face mesh: LiteRT BUILTIN_REF on the builtin-only face_landmark.tflite.
    mesh_model = (wheel / "mediapipe/modules/face_landmark/face_landmark.tflite").read_bytes()
    face = photo_u8(192, 192, box=(10, 140, 250, 380))
    _, outs = run_litert(mesh_model, [face.astype(np.float32) / np.float32(255)], "BUILTIN_REF")
    mesh = next(o for o in outs if o.size == 1404).reshape(1, 468, 3).astype(np.float32)
    # The attention model works on landmarks in a 48x48 feature map's units (mesh / 4).
    lm = (mesh / np.float32(4)).astype(np.float32)
    l2t = custom_options(attention, "Landmarks2TransformMatrix")
    ttb = custom_options(attention, "TransformTensorBilinear")
    matrix = landmarks_to_transform_matrix_v2(lm, l2t)
    rng = np.random.default_rng(16)
    feature = rng.standard_normal((1, 48, 48, 32)).astype(np.float32)
    sampled = transform_tensor_bilinear_v2(feature, matrix, ttb["output_height"], ttb["output_width"])
    points = (rng.random((1, 80, 2)) * 16).astype(np.float32)
    moved = transform_landmarks_v2(points, matrix)
    # Version 1 of the three (no model of the wheel uses it): options of our choosing,
    # the mesh in its own 192-pixel space, eye corners for the rotation.
    import flatbuffers.flexbuffers as fx
    v1 = {
        "Landmarks2TransformMatrix": {"input_hw": [48, 48], "output_hw": [16, 16], "dimensions": 3,
                                      "landmarks_range": 192, "bbox_size_multiplier": 1.5,
                                      "left_rotation_idx": 33, "right_rotation_idx": 263,
                                      "subset": [33, 133, 362, 263, 159, 145, 386, 374, 1]},
        "TransformTensor": {"mode": "bilinear", "output_size": [16, 16]},
        "TransformLandmarks": {"dimensions": 2, "scale": 0.25},
    }
    v1_matrix = landmarks_to_transform_matrix_v1(mesh, v1["Landmarks2TransformMatrix"])
    v1_sampled = transform_tensor_bilinear_v2(feature, v1_matrix, 16, 16, align_corners=False)
    v1_moved = transform_landmarks_v2(points.reshape(1, 1, 1, 160), v1_matrix, dims=2, scale=0.25)
    d = OUT / "ops"
    d.mkdir(parents=True, exist_ok=True)
    for name, options in v1.items():
        (d / f"v1_{name}.flex").write_bytes(bytes(fx.Dumps(options)))
    arrays = {"landmarks": lm, "matrix": matrix, "feature": feature, "sampled": sampled,
              "points": points, "moved": moved, "mesh": mesh, "v1_matrix": v1_matrix,
              "v1_sampled": v1_sampled, "v1_moved": v1_moved}
    for k, v in arrays.items():
        np.save(d / f"{k}.npy", v)
    return {"landmarks": "face_landmark.tflite mesh (LiteRT BUILTIN_REF, astronaut face crop) / 4, [1, 468, 3]",
            "matrix": "Landmarks2TransformMatrix v2 of landmarks with the options of face_landmark_with_attention op 192",
            "feature": "standard normal [1, 48, 48, 32], seed 16", "sampled": "TransformTensorBilinear v2 of feature through matrix",
            "points": "uniform [0, 16) [1, 80, 2], same generator", "moved": "TransformLandmarks v2 of points through matrix",
            "options": {"Landmarks2TransformMatrix": l2t, "TransformTensorBilinear": ttb},
            "v1": {"options": v1, "mesh": "the face mesh in 192-pixel units, [1, 468, 3]",
                   "v1_matrix": "Landmarks2TransformMatrix v1 of mesh", "v1_sampled": "TransformTensor v1 of feature",
                   "v1_moved": "TransformLandmarks v1 of points as [1, 1, 1, 160]"},
            "nonzero_sampled_fraction": float(np.mean(sampled != 0))}


def main() -> int:
    wheel = pathlib.Path(sys.argv[1])
    if OUT.exists():
        shutil.rmtree(OUT)
    (OUT / "models").mkdir(parents=True)
    rows, cases = [], {}
    for name, inner in CUSTOM_MODELS.items():
        data = (wheel / inner).read_bytes()
        (OUT / "models" / f"{name}.tflite").write_bytes(data)
        rows.append((name, inner, len(data), hashlib.sha256(data).hexdigest()))
    for name in ("selfie_segmentation", "selfie_segmentation_landscape"):
        cases[name] = selfie_case(name, (OUT / "models" / f"{name}.tflite").read_bytes())
    cases["ops"] = transform_cases(wheel, (OUT / "models" / "face_landmark_with_attention.tflite").read_bytes())
    # The whole attention model's input; its reference comes from MediaPipe itself
    # (mediapipe_reference.py, run next in a venv with the mediapipe wheel).
    face = OUT / "face_landmark_with_attention"
    face.mkdir(parents=True, exist_ok=True)
    np.save(face / "input_u8.npy", photo_u8(192, 192, box=(10, 140, 250, 380)))
    (OUT / "references.json").write_text(json.dumps(cases, indent=2, default=float) + "\n")
    lines = ["# Sources of the MediaPipe models with custom operators", "",
             "Written by `Fixtures/generate/mediapipe/make_references.py`; do not edit by hand.", "",
             "- Package: `mediapipe` 0.10.14 (PyPI wheel for CPython 3.11, manylinux x86-64), Apache License 2.0.",
             "- The files are copied unchanged from the wheel.", "",
             "| file | origin inside the wheel | bytes | SHA-256 |", "| --- | --- | --- | --- |"]
    lines += [f"| `models/{n}.tflite` | `{i}` | {b} | `{h}` |" for n, i, b, h in rows]
    (OUT / "SOURCES.md").write_text("\n".join(lines) + "\n")
    print(json.dumps(cases, indent=1, default=float)[:3000])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
