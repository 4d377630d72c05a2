#!/usr/bin/env python3
"""Runs all 14 models of the mediapipe 0.10.14 wheel through `tflite run` and compares
the builtin-only ones with LiteRT (BUILTIN_REF and XNNPACK) on the same input.

    check_wheel_models.py WHEEL_DIR TFLITE_BINARY

WHEEL_DIR: the unpacked wheel (see make_references.py). The input of every model is
Fixtures/images/astronaut.png resized to the model's input, in [0, 1]. Prints one
Markdown row per model: whether our runtime loaded and ran it, and for the builtin-only
models the largest difference from BUILTIN_REF relative to each output's range, next to
XNNPACK's. The three models with custom operators are not run by LiteRT (it has no
kernels for them); their references are in Fixtures/mediapipe (MediaPipeModelTests).
Not needed by `swift test`; the wheel's other 11 models are not committed.
"""
from __future__ import annotations

import pathlib
import subprocess
import sys
import tempfile

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import make_references as mr  # noqa: E402


def relative_error(a, b):
    worst = 0.0
    for x, y in zip(a, b):
        x, y = x.astype(np.float64).reshape(-1), y.astype(np.float64).reshape(-1)
        scale = max(float(y.max() - y.min()), abs(float(y.max())), 1e-12)
        worst = max(worst, float(np.abs(x - y).max()) / scale)
    return worst


def main() -> int:
    wheel, tflite = pathlib.Path(sys.argv[1]), sys.argv[2]
    print("| model | ours | ours vs BUILTIN_REF | XNNPACK vs BUILTIN_REF |")
    print("| --- | --- | --- | --- |")
    failures = 0
    for path in sorted(wheel.glob("mediapipe/modules/*/*.tflite")):
        m = mr.te.load(path.read_bytes())
        sg = m.subgraphs[0]
        shape = list(sg.tensors[sg.inputs[0]].shape)
        x = mr.photo_u8(shape[1], shape[2]).astype(np.float32) / np.float32(255)
        custom = any(c.customCode for c in m.operatorCodes)
        with tempfile.TemporaryDirectory() as tmp:
            np.save(f"{tmp}/in.npy", x)
            run = subprocess.run([tflite, "run", str(path), "-i", f"{tmp}/in.npy", "-o", tmp], capture_output=True, text=True)
            if run.returncode != 0:
                failures += 1
                print(f"| {path.name} | failed: {run.stderr.strip()[:120]} | | |")
                continue
            ours = [np.load(f"{tmp}/output_{i}.npy") for i in range(len(sg.outputs))]
        if custom:
            print(f"| {path.name} | runs | (custom ops: see Fixtures/mediapipe) | |")
            continue
        _, ref = mr.run_litert(path.read_bytes(), [x], "BUILTIN_REF")
        _, opt = mr.run_litert(path.read_bytes(), [x], "BUILTIN")
        print(f"| {path.name} | runs | {relative_error(ours, ref):.2e} | {relative_error(opt, ref):.2e} |")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
