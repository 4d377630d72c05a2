#!/usr/bin/env python3
"""Checks that our `tflite run` computes what LiteRT's reference kernels compute on the
benchmark models, so a timing compares two engines doing the same work.

usage: check_outputs.py TFLITE_BINARY MODEL... [--seed N] [--keep DIR] [--intermediates]

For each model: one seeded input per model input (floats uniform in [-1, 1), integers
uniform over their type's range, as litert_bench.py), written as .npy; `tflite run`
writes our outputs; LiteRT runs with OpResolverType.BUILTIN_REF (its reference kernels,
where our fixtures' expected outputs come from). Integer outputs must be identical, float
outputs equal within 1e-4 absolute + 1e-4 relative. For a TFLite_Detection_PostProcess
model (a [1] float output holding the detection count), the boxes, classes and scores
are compared over the first `count` detections only: slots past the count are not
written by LiteRT's kernel, so they hold whatever the buffer held. Prints one line per
model and exits non-zero if any differs.

--intermediates also compares every operator's output: both engines run a twin of the
model that lists them all as model outputs (through scripts/fixtures/tflite_edit.py). A
classifier's last softmax over 1000 random classes is nearly all zero codes in 8 bits, so
its output alone says little; the layers before it say more. Float intermediates are held
to the tolerance times the tensor's largest magnitude: deep in a float net, an element
that sums to near zero keeps the rounding error of its large terms, and summation order
is where two correct engines differ.
"""
from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType

RTOL = ATOL = 1e-4


def seeded_inputs(details, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    inputs = []
    for d in details:
        dt = np.dtype(d["dtype"])
        if np.issubdtype(dt, np.floating):
            inputs.append(rng.uniform(-1, 1, d["shape"]).astype(dt))
        else:
            info = np.iinfo(dt)
            inputs.append(rng.integers(info.min, info.max, d["shape"], endpoint=True).astype(dt))
    return inputs


def reference(model: str, inputs: list[np.ndarray]) -> list[np.ndarray]:
    it = Interpreter(model_path=model, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    for d, x in zip(it.get_input_details(), inputs):
        it.set_tensor(d["index"], x)
    it.invoke()
    return [it.get_tensor(d["index"]).copy() for d in it.get_output_details()]


def ours(binary: str, model: str, inputs: list[np.ndarray], folder: pathlib.Path) -> list[np.ndarray]:
    for stale in folder.glob("output_*.npy"):   # a kept folder's earlier run
        stale.unlink()
    args = [binary, "run", model, "--output-dir", str(folder)]
    for i, x in enumerate(inputs):
        path = folder / f"input_{i}.npy"
        np.save(path, x)
        args += ["--input", str(path)]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"tflite run failed: {(r.stderr or r.stdout).strip()}")
    outputs = sorted(folder.glob("output_*.npy"), key=lambda p: int(p.stem.split("_")[1]))
    return [np.load(p) for p in outputs]


def with_intermediates(model: str, folder: pathlib.Path) -> str:
    """Writes the model's twin whose outputs are its own, then every other operator output."""
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts" / "fixtures"))
    import tflite_edit

    def list_all(m):
        for sg in m.subgraphs[:1]:
            seen = set(sg.outputs)
            extra = [t for op in sg.operators for t in op.outputs if t >= 0 and t not in seen]
            sg.outputs = list(sg.outputs) + list(dict.fromkeys(extra))
    twin = folder / ("all_outputs_" + pathlib.Path(model).name)
    twin.write_bytes(tflite_edit.edit(pathlib.Path(model).read_bytes(), list_all))
    return str(twin)


def detection_count(outputs: list[np.ndarray]) -> int | None:
    """The count of a post-process's outputs (boxes [1,N,4], classes, scores [1,N], count [1])."""
    if len(outputs) < 4 or outputs[3].shape != (1,) or outputs[0].ndim != 3 or outputs[0].shape[2] != 4:
        return None
    return int(outputs[3][0])


def compare_one(g: np.ndarray, w: np.ndarray, tensor_relative: bool = False) -> tuple[bool, bool, float, str]:
    """(within tolerance, identical, max |difference|, description). Integers must be
    identical; floats within ATOL + RTOL x |reference|, or with tensor_relative, ATOL +
    RTOL x the tensor's largest |reference|."""
    if g.shape != w.shape or g.dtype != w.dtype:
        return False, False, float("inf"), f"{g.dtype}{list(g.shape)}, reference {w.dtype}{list(w.shape)}"
    diff = np.abs(g.astype(np.float64) - w.astype(np.float64))
    worst = float(diff.max(initial=0.0))
    if np.issubdtype(w.dtype, np.integer):
        differ = int(np.count_nonzero(diff))
        return differ == 0, differ == 0, worst, f"{w.dtype} " + (
            "identical" if differ == 0 else f"{differ} of {w.size} differ, max |diff| {worst:g}")
    scale = np.abs(w).max(initial=0.0) if tensor_relative else np.abs(w)
    bad = int(np.count_nonzero(~(diff <= ATOL + RTOL * scale)))
    identical = bool(np.array_equal(g, w))
    note = f"{w.dtype} " + ("bit-identical" if identical else f"max |diff| {worst:.3g}")
    return bad == 0, identical, worst, note + (f", {bad} of {w.size} outside tolerance" if bad else "")


def compare(got: list[np.ndarray], want: list[np.ndarray], model_outputs: int) -> tuple[bool, str]:
    """Compares the model's own outputs one by one, then any further (intermediate) outputs
    as a group."""
    if len(got) != len(want):
        return False, f"{len(got)} outputs, reference has {len(want)}"
    count = detection_count(want[:model_outputs])
    if count is not None and detection_count(got) != count:
        return False, f"detection count {detection_count(got)}, reference {count}"
    notes, ok = [f"{count} detections"] if count is not None else [], True
    for i, (g, w) in enumerate(zip(got[:model_outputs], want)):
        if count is not None and i < 3:
            g, w = g[:, :count], w[:, :count]
        same, _, _, note = compare_one(g, w)
        ok &= same
        notes.append(f"out{i} {note}")
    rest = [compare_one(g, w, tensor_relative=True) for g, w in zip(got[model_outputs:], want[model_outputs:])]
    if rest:
        bad = [f"#{model_outputs + i} {note}" for i, (same, _, _, note) in enumerate(rest) if not same]
        exact = sum(identical for _, identical, _, _ in rest)
        worst = max(diff for _, _, diff, _ in rest)
        ok &= not bad
        notes.append(f"{len(rest)} intermediate tensors: {exact} identical"
                     + (f", the others within tolerance (max |diff| {worst:.3g})" if exact < len(rest) and not bad else "")
                     + (f"; differ: {', '.join(bad[:5])}" if bad else ""))
    return ok, "; ".join(notes)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("models", nargs="+")
    p.add_argument("--seed", type=int, default=0x5EED)
    p.add_argument("--keep", help="write the inputs and our outputs under this folder")
    p.add_argument("--intermediates", action="store_true", help="also compare every operator's output")
    a = p.parse_args()
    failed = 0
    for model in a.models:
        probe = Interpreter(model_path=model)
        inputs = seeded_inputs(probe.get_input_details(), a.seed)
        with tempfile.TemporaryDirectory() as tmp:
            folder = pathlib.Path(a.keep) / pathlib.Path(model).stem if a.keep else pathlib.Path(tmp)
            folder.mkdir(parents=True, exist_ok=True)
            run = with_intermediates(model, folder) if a.intermediates else model
            try:
                ok, note = compare(ours(a.binary, run, inputs, folder), reference(run, inputs),
                                   len(probe.get_output_details()))
            except RuntimeError as e:
                ok, note = False, str(e)
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {pathlib.Path(model).name}: {note}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
