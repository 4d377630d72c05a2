"""Held-out accuracy (digits) and mAP@0.5 (shapes) computed by OUR runtime, next to LiteRT's.

Runs the committed bundles on the same held-out inputs the bundle scripts evaluate with
LiteRT's reference kernels: through our `tflite run` command (a Swift build of this
repository) and through LiteRT BUILTIN_REF, compares every raw output, and writes
Fixtures/bundles/EVALUATION.json. Usage: evaluate_ours.sh (builds tflite in release first).
"""
from __future__ import annotations

import common  # noqa: F401  (determinism settings, paths)

import json
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import make_digits
import make_shapes
from common import BUNDLES, invoke, reference_interpreter


def run_ours(tflite: str, model: pathlib.Path, x: np.ndarray, work: pathlib.Path) -> list[np.ndarray]:
    """Our runtime through the CLI: one .npy in, output_<i>.npy out."""
    inp = work / "input.npy"
    np.save(inp, x)
    out = work / "out"
    subprocess.run([tflite, "run", str(model), "--input", str(inp), "--output-dir", str(out)],
                   check=True, stdout=subprocess.DEVNULL)
    outputs = []
    while (out / f"output_{len(outputs)}.npy").exists():
        outputs.append(np.load(out / f"output_{len(outputs)}.npy"))
    return outputs


def digits(tflite: str, work: pathlib.Path) -> dict:
    data = load_digits()
    idx = np.arange(len(data.target))
    _, test_idx = train_test_split(idx, test_size=0.3, random_state=make_digits.SEED, stratify=data.target)
    test_idx = np.sort(test_idx)
    images = make_digits.to_rgb_bytes(data.images)[test_idx]
    labels = data.target[test_idx]
    model = BUNDLES / "digits" / "model.tflite"
    # One batched run of ours (the graph takes any batch); LiteRT image by image.
    ours = run_ours(tflite, model, images, work)[0]
    it = reference_interpreter(model.read_bytes())
    ref = np.concatenate([invoke(it, img[None])[0] for img in images])
    agree = bool(np.array_equal(ours, ref))
    return {"heldout_count": int(len(labels)),
            "accuracy_ours": round(float(np.mean(np.argmax(ours, 1) == labels)), 6),
            "accuracy_litert_reference": round(float(np.mean(np.argmax(ref, 1) == labels)), 6),
            "raw_outputs_identical": agree,
            "max_lsb_difference": int(np.max(np.abs(ours.astype(np.int32) - ref.astype(np.int32))))}


def shapes(tflite: str, work: pathlib.Path) -> dict:
    model = BUNDLES / "shapes" / "model.tflite"
    it = reference_interpreter(model.read_bytes())
    gts, dets_ours, dets_ref = [], [], []
    identical = True
    for i, (img, boxes, classes) in enumerate(make_shapes.scenes(3, make_shapes.EVAL_SCENES)):
        ours = run_ours(tflite, model, img[None], work)
        ref = invoke(it, img[None])
        n = int(ref[3][0])
        # Only the first `count` slots are defined (TFLite leaves the rest stale).
        same = int(ours[3][0]) == n and all(np.array_equal(a[0, :n], b[0, :n]) for a, b in zip(ours[:3], ref[:3]))
        identical = identical and same
        gts.append((boxes, classes))
        dets_ours += [(i, s, b, c) for b, s, c in make_shapes.detections(ours)]
        dets_ref += [(i, s, b, c) for b, s, c in make_shapes.detections(ref)]
    classes = range(len(make_shapes.CLASSES))
    ap_ours = [make_shapes.average_precision(dets_ours, gts, c) for c in classes]
    ap_ref = [make_shapes.average_precision(dets_ref, gts, c) for c in classes]
    return {"heldout_scenes": make_shapes.EVAL_SCENES,
            "map_50_ours": round(float(np.mean(ap_ours)), 6),
            "map_50_litert_reference": round(float(np.mean(ap_ref)), 6),
            "detections_identical": identical}


def main(argv: list[str]) -> int:
    tflite = argv[1] if len(argv) > 1 else ".build/release/tflite"
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        report = {"runtime": "swift-tflite `tflite run`", "reference": "ai-edge-litert 2.3.0 BUILTIN_REF",
                  "digits": digits(tflite, work), "shapes": shapes(tflite, work)}
    (BUNDLES / "EVALUATION.json").write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))
    ok = report["digits"]["raw_outputs_identical"] and report["shapes"]["detections_identical"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
