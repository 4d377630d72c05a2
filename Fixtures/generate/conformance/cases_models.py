"""Whole-model conformance cases in Fixtures/conformance/models/.

    cases_models.py [--only SUBSTRING] [--jobs N]

Each family builds (or loads) its models once and yields one case per dtype
path; a case folder has the op-level layout (model.tflite, input_<i>.npy,
expected_<i>.npy, optional optimized_<i>.npy, case.json) under
models/<model>/<dtype prefix>/.  References come from LiteRT's BUILTIN_REF
kernels run in a child process, cross-checked as in generate.py: quantized
models are compared with their float model on the dequantized inputs, and a
reference far from it while the optimized kernels are close is rejected.
Informative outputs are required (family-specific `validate`, plus the
near-constant rule for outputs that are not detections).

Without --only, models/ is deleted and rebuilt and models/index.json is
rewritten; with --only, the matching families are rebuilt in place and their
entries in models/index.json replaced.
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import dataclasses
import json
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from typing import Callable, Optional

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import GENERATOR_VERSION, near_constant  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
OUT = os.path.join(ROOT, "Fixtures", "conformance", "models")
FAMILIES = ("mobilenet_v1_025_128", "mobilenet_v2_035_96", "mobilenet_v3_small_050_96",
            "ssd_mobilenet_tiny", "face_detection_short_range", "face_detection_full_range",
            "audio_logmel", "audio_sqrtmel")


@dataclasses.dataclass
class ModelCase:
    model: str                    # family / model name (the case's `op`)
    dtype: str                    # float32 | int8 | uint8
    params: dict
    content: bytes
    inputs: list                  # arrays already in the model's input dtypes
    tolerance: str
    # Quantized cases: the float model and its inputs for the cross-check.
    float_content: Optional[bytes] = None
    float_inputs: Optional[list] = None
    validate: Optional[Callable] = None      # validate(outputs) -> reason or None
    detection: bool = False                   # outputs exempt from the near-constant rule

    @property
    def path(self):
        from common import PREFIX
        return f"{self.model}/{PREFIX[self.dtype]}"


def quantize_inputs(info, arrays):
    """Float arrays -> the model's input dtypes (round to nearest, clamp)."""
    from modelinfo import NP_DTYPES
    out = []
    for t, a in zip(info["inputs"], arrays):
        dt = NP_DTYPES[t["dtype"]]
        if t["scale"]:
            lim = np.iinfo(dt)
            q = np.round(a.astype(np.float64) / t["scale"][0]) + t["zero_point"][0]
            out.append(np.clip(q, lim.min, lim.max).astype(dt))
        else:
            out.append(a.astype(dt))
    return out


def dequantize(t, a):
    if not t["scale"]:
        return a.astype(np.float32)
    return ((a.astype(np.float64) - t["zero_point"][0]) * t["scale"][0]).astype(np.float32)


def _run(content, inputs, resolver, n_out):
    from generate import collect_child, run_child
    tmp = tempfile.mkdtemp(prefix="confm_")
    try:
        mp = os.path.join(tmp, "model.tflite")
        with open(mp, "wb") as f:
            f.write(content)
        paths = []
        for i, a in enumerate(inputs):
            p = os.path.join(tmp, f"in_{i}.npy")
            np.save(p, a)
            paths.append(p)
        return collect_child(*run_child(mp, paths, resolver), n_out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def lsb_errors(info, results, fout):
    """Max distance of each quantized result from the float model's outputs, in output LSB."""
    errs = []
    for res in results:
        if res is None:
            errs.append(None)
            continue
        worst = 0.0
        for t, q, f in zip(info["outputs"], res, fout):
            if not t["scale"] or q.shape != f.shape:
                continue
            scale, zp = t["scale"][0], t["zero_point"][0]
            lim = np.iinfo(q.dtype)
            real = (q.astype(np.float64) - zp) * scale
            f = np.clip(f.astype(np.float64), (lim.min - zp) * scale, (lim.max - zp) * scale)
            worst = max(worst, float(np.max(np.abs(real - f)) / scale))
        errs.append(round(worst, 3))
    return errs


def write_case(case: ModelCase) -> dict:
    from generate import OPT, REF, _io_entry, _max_abs_diff
    from modelinfo import inspect
    key = {"op": case.model, "case_id": case.path, "dtype": case.dtype}
    info = inspect(case.content)
    n_out = len(info["outputs"])
    ref, ref_ops, ref_err = _run(case.content, case.inputs, REF, n_out)
    opt, opt_ops, opt_err = _run(case.content, case.inputs, OPT, n_out)
    if opt is None:
        return {**key, "skipped": f"optimized kernels failed: {opt_err} (reference: {ref_err})"}
    aborted = ref is None
    float_err = rejected = None
    if case.float_content is not None:
        finfo = inspect(case.float_content)
        fout, _, ferr = _run(case.float_content, case.float_inputs, OPT, len(finfo["outputs"]))
        if fout is None:
            return {**key, "skipped": f"float model failed: {ferr}"}
        ref_e, opt_e = lsb_errors(info, [ref, opt], fout)
        float_err = {"reference": ref_e, "optimized": opt_e}
        if ref_e is not None and opt_e is not None and ref_e > max(4.0, 3.0 * opt_e):
            rejected = (f"BUILTIN_REF output is {ref_e} LSB from the float model, "
                        f"optimized kernels {opt_e} LSB")
    use_opt = aborted or rejected is not None
    expected = opt if use_opt else ref
    if not case.detection:
        for i, a in enumerate(expected):
            why = near_constant(a)
            if why:
                return {**key, "skipped": f"output {i}: {why}"}
    if case.validate is not None:
        why = case.validate([dequantize(t, a) for t, a in zip(info["outputs"], expected)])
        if why:
            return {**key, "skipped": why}

    cdir = os.path.join(OUT, case.path)
    shutil.rmtree(cdir, ignore_errors=True)
    os.makedirs(cdir)
    with open(os.path.join(cdir, "model.tflite"), "wb") as f:
        f.write(case.content)
    for i, a in enumerate(case.inputs):
        np.save(os.path.join(cdir, f"input_{i}.npy"), a)
    outputs = []
    for i, (t, a) in enumerate(zip(info["outputs"], expected)):
        np.save(os.path.join(cdir, f"expected_{i}.npy"), a)
        entry = _io_entry(t, f"expected_{i}.npy")
        if list(a.shape) != t["shape"]:
            entry["shape"] = list(a.shape)
            entry["model_shape"] = t["shape"]
        producer = next(((o["op"], k) for o in info["ops"] for k, ot in enumerate(o["outputs"])
                         if ot["index"] == t["index"]), None)
        if producer is not None and producer[0] == "TFLite_Detection_PostProcess":
            entry["op_output"] = producer[1]  # which output of the post-process op this is
        if rejected is not None and not np.array_equal(opt[i], ref[i]):
            np.save(os.path.join(cdir, f"rejected_reference_{i}.npy"), ref[i])
            entry["rejected_reference_file"] = f"rejected_reference_{i}.npy"
        elif not aborted and not np.array_equal(opt[i], ref[i]):
            np.save(os.path.join(cdir, f"optimized_{i}.npy"), opt[i])
            entry["optimized_file"] = f"optimized_{i}.npy"
        outputs.append(entry)
    diff = 0.0 if aborted else _max_abs_diff(opt, ref)
    meta = {
        "op": case.model,
        "case_id": case.path,
        "dtype": case.dtype,
        "params": case.params,
        "tolerance": case.tolerance,
        "generator_version": GENERATOR_VERSION,
        "reference": OPT if use_opt else REF,
        "reference_aborted": aborted,
        "optimized_max_abs_diff": diff,
        "model_ops": [o["op"] for o in info["ops"]],
        "inputs": [_io_entry(t, f"input_{i}.npy") for i, t in enumerate(info["inputs"])],
        "outputs": outputs,
    }
    if aborted:
        meta["reference_error"] = ref_err
    if rejected:
        meta["reference_rejected"] = rejected
    if float_err is not None:
        meta["float_model_error_lsb"] = float_err
    with open(os.path.join(cdir, "case.json"), "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")
    size = sum(os.path.getsize(os.path.join(cdir, n)) for n in os.listdir(cdir))
    return {**key, "path": f"models/{case.path}", "tolerance": case.tolerance, "reference": meta["reference"],
            "reference_aborted": aborted, "reference_rejected": rejected is not None,
            "optimized_max_abs_diff": diff, "float_model_error_lsb": float_err, "bytes": size,
            "ref_ops": ref_ops, "opt_ops": opt_ops}


def family_cases(name):
    if name.startswith("mobilenet"):
        from models_keras import mobilenet_cases
        return mobilenet_cases(name)
    if name.startswith("ssd"):
        from models_ssd import ssd_cases
        return ssd_cases(name)
    if name.startswith("face_detection"):
        from models_face import face_cases
        return face_cases(name)
    if name.startswith("audio"):
        from models_audio import audio_cases
        return audio_cases(name)
    raise ValueError(name)


def worker(names):
    import tensorflow as tf
    tf.get_logger().setLevel("ERROR")
    results = []
    for name in names:
        t0 = time.time()
        for case in family_cases(name):
            r = write_case(case)
            status = "SKIP " + r["skipped"] if "skipped" in r else (
                "ABORT" if r["reference_aborted"] else "REJECTED-REF" if r["reference_rejected"] else "ok")
            if r.get("float_model_error_lsb"):
                status += f" float-err {r['float_model_error_lsb']}"
            if "bytes" in r:
                status += f" ({r['bytes'] / 1e6:.2f} MB)"
            print(f"models/{case.path} ({case.dtype}): {status}", flush=True)
            results.append(r)
        print(f"{name}: {time.time() - t0:.0f}s", flush=True)
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--jobs", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    ap.add_argument("--module", default="", help="an op-level cases module (generate.py's): no model family")
    args = ap.parse_args()
    if args.module:
        return
    names = [n for n in FAMILIES if not args.only or args.only in f"models/{n}" or f"models/{n}".startswith(args.only)]
    if not names:
        return
    if not args.only:
        shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT, exist_ok=True)
    t0 = time.time()
    shards = [names[k::args.jobs] for k in range(args.jobs)]
    ctx = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(args.jobs, mp_context=ctx) as ex:
        results = [r for f in [ex.submit(worker, s) for s in shards if s] for r in f.result()]
    done = sorted((r for r in results if "skipped" not in r), key=lambda r: r["path"])
    skipped = sorted((r for r in results if "skipped" in r), key=lambda r: r["case_id"])
    index = {
        "generator_version": GENERATOR_VERSION,
        "cases": [{k: r[k] for k in ("path", "op", "dtype", "tolerance", "reference", "reference_aborted",
                                      "reference_rejected", "optimized_max_abs_diff",
                                      "float_model_error_lsb")} for r in done],
        "skipped": [{k: r[k] for k in ("op", "case_id", "dtype", "skipped")} for r in skipped],
    }
    if args.only and os.path.exists(os.path.join(OUT, "index.json")):
        with open(os.path.join(OUT, "index.json")) as f:
            old = json.load(f)
        rebuilt = set(names)
        index["cases"] = sorted([e for e in old["cases"] if e["op"] not in rebuilt] + index["cases"],
                                key=lambda e: e["path"])
        index["skipped"] = sorted([e for e in old.get("skipped", []) if e["op"] not in rebuilt] + index["skipped"],
                                  key=lambda e: e["case_id"])
    with open(os.path.join(OUT, "index.json"), "w") as f:
        json.dump(index, f, indent=1)
        f.write("\n")
    total = sum(r["bytes"] for r in done)
    print(f"{len(done)} model cases written ({total / 1e6:.2f} MB), {len(skipped)} skipped, "
          f"{time.time() - t0:.0f}s", flush=True)
    for r in skipped:
        print(f"skipped models/{r['case_id']} ({r['dtype']}): {r['skipped']}")


if __name__ == "__main__":
    main()
