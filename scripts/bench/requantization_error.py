#!/usr/bin/env python3
"""How far `tflite run --requantization float32` (the opt-in, XNNPACK-style rescaling) is
from LiteRT's reference kernels and from LiteRT with XNNPACK, on the benchmark models.

usage: requantization_error.py TFLITE_BINARY MODEL... [--seeds N] [--intermediates]

For each model and each of N seeded inputs (as check_outputs.py makes them), compares the
model's outputs in LSB: largest |difference| and how many elements differ, against
BUILTIN_REF and against the default interpreter (XNNPACK delegate). Also runs the exact
(default) mode against the reference, which must be identical. Prints one line per model.
--intermediates compares every operator's output too (a classifier's 8-bit softmax over
1000 random classes is nearly all zeros, so its output alone says little).
"""
from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
from ai_edge_litert.interpreter import Interpreter

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check_outputs import ours, reference, seeded_inputs, with_intermediates  # noqa: E402


def xnnpack(model: str, inputs: list[np.ndarray]) -> list[np.ndarray]:
    it = Interpreter(model_path=model, num_threads=1)
    it.allocate_tensors()
    for d, x in zip(it.get_input_details(), inputs):
        it.set_tensor(d["index"], x)
    it.invoke()
    return [it.get_tensor(d["index"]).copy() for d in it.get_output_details()]


def distance(got: list[np.ndarray], want: list[np.ndarray]) -> tuple[float, int, int]:
    worst, differ, total = 0.0, 0, 0
    for g, w in zip(got, want):
        if not np.issubdtype(w.dtype, np.integer):
            continue   # a dequantized or post-processed output: not in LSB
        d = np.abs(g.astype(np.int64) - w.astype(np.int64))
        worst, differ, total = max(worst, float(d.max(initial=0))), differ + int(np.count_nonzero(d)), total + d.size
    return worst, differ, total


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("models", nargs="+")
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--intermediates", action="store_true")
    a = p.parse_args()
    bad = 0
    for model in a.models:
        probe = Interpreter(model_path=model)
        sums = {"exact-ref": [0.0, 0, 0], "f32-ref": [0.0, 0, 0], "f32-xnn": [0.0, 0, 0], "xnn-ref": [0.0, 0, 0]}
        for seed in range(a.seeds):
            inputs = seeded_inputs(probe.get_input_details(), 0x5EED + seed)
            with tempfile.TemporaryDirectory() as tmp:
                run = with_intermediates(model, pathlib.Path(tmp)) if a.intermediates else model
                exact = ours(a.binary, run, inputs, pathlib.Path(tmp))
                folder = pathlib.Path(tmp)
                args = [a.binary, "run", run, "--output-dir", str(folder), "--requantization", "float32"]
                args += sum((["--input", str(folder / f"input_{i}.npy")] for i in range(len(inputs))), [])
                subprocess.run(args, check=True, capture_output=True)
                fast = [np.load(folder / f"output_{i}.npy") for i in range(len(exact))]
                ref, xnn = reference(run, inputs), xnnpack(run, inputs)
            for key, (g, w) in {"exact-ref": (exact, ref), "f32-ref": (fast, ref), "f32-xnn": (fast, xnn),
                                "xnn-ref": (xnn, ref)}.items():
                worst, differ, total = distance(g, w)
                s = sums[key]
                s[0], s[1], s[2] = max(s[0], worst), s[1] + differ, s[2] + total
        bad += sums["exact-ref"][1] != 0
        cells = [f"{k}: max {v[0]:g} LSB, {v[1]} of {v[2]} differ" for k, v in sums.items()]
        print(f"{pathlib.Path(model).name}: " + "; ".join(cells), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
