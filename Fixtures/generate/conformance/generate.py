"""Regenerate the op-level conformance corpus in Fixtures/conformance/.

    generate.py [--only SUBSTRING] [--module NAME] [--jobs N]

Without --only or --module the whole corpus (except Fixtures/conformance/models/,
which holds whole-model cases made elsewhere) is deleted and rebuilt, and
index.json is rewritten.  With --only, matching cases are rebuilt in place
and index.json is left alone (development aid).  With --module (a cases_*.py
module name), that module's cases (those matching --only, if given too) are
rebuilt in place and their entries in index.json replaced, the rest of the
corpus untouched.
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tflite_edit

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
OUT = os.path.join(ROOT, "Fixtures", "conformance")
RUNNER = os.path.join(HERE, "run_model.py")
KEEP = {"models", "expected-failures.txt"}  # whole-model cases; the reviewed failure list
sys.path.insert(0, HERE)

from common import GENERATOR_VERSION, near_constant  # noqa: E402

REF = "BUILTIN_REF"
OPT = "BUILTIN_WITHOUT_DEFAULT_DELEGATES"
QUANT_DTYPES = {"int8", "uint8", "int16"}


def all_cases(module=""):
    if module:
        import importlib
        return importlib.import_module(module).cases()
    import cases_float
    import cases_int8
    import cases_uint8
    import cases_fp16
    import cases_detection
    import cases_hybrid
    import cases_index_shape
    cases = []
    for mod in (cases_float, cases_int8, cases_uint8, cases_fp16, cases_detection, cases_hybrid, cases_index_shape):
        cases.extend(mod.cases())
    seen = set()
    for c in cases:
        key = (c.op, c.case_id)
        if key in seen:
            raise ValueError(f"duplicate case {key}")
        seen.add(key)
    return cases


# ------------------------------------------------------------------ helpers

def _input_arg_index(name: str, count: int, position: int) -> int:
    m = re.search(r"(?:^|[_/])in(\d+)(?::\d+)?$", name)
    if m and int(m.group(1)) < count:
        return int(m.group(1))
    return position


def make_inputs(case, info):
    from modelinfo import NP_DTYPES
    rng = case.rng(1)
    arrays = []
    for pos, t in enumerate(info["inputs"]):
        spec = case.inputs[_input_arg_index(t["name"], len(case.inputs), pos)]
        dt = NP_DTYPES[t["dtype"]]
        shape = tuple(t["shape"])
        if t["dtype"] in QUANT_DTYPES and t["scale"]:
            scale, zp = t["scale"][0], t["zero_point"][0]
            info_ = np.iinfo(dt)
            if spec.values is not None:
                real = np.asarray(spec.values, np.float32)
                q = np.round(real / scale) + zp
            elif case.input_mode == "codes":
                q = rng.integers(info_.min, info_.max + 1, size=shape)
            else:
                real = rng.uniform(spec.lo, spec.hi, size=shape)
                q = np.round(real / scale) + zp
            arrays.append(np.clip(q, info_.min, info_.max).astype(dt).reshape(shape))
        elif spec.values is not None:
            arrays.append(np.asarray(spec.values).astype(dt).reshape(shape))
        elif np.dtype(dt).kind == "b":
            arrays.append(rng.integers(0, 2, size=shape).astype(dt))
        elif np.dtype(dt).kind in "iu":
            arrays.append(rng.integers(int(spec.lo), int(spec.hi) + 1, size=shape).astype(dt))
        else:
            arrays.append(rng.uniform(spec.lo, spec.hi, size=shape).astype(dt))
    return arrays


def target_dtype(case):
    if case.op_input_dtype:
        return case.op_input_dtype
    return {"float16_weights": "float32", "hybrid": "float32"}.get(case.dtype, case.dtype)


def verify_ops(case, info):
    """Reason string if the model is not the single-op model we intended."""
    names = [o["op"] for o in info["ops"]]
    want = target_dtype(case)
    hits = []
    for o in info["ops"]:
        if o["op"] != case.op:
            continue
        first = next((t for t in o["inputs"] if t is not None and not t["constant"]), None)
        dt = first["dtype"] if first is not None else o["outputs"][0]["dtype"]
        if dt == want:
            hits.append(o)
    if not hits:
        return f"no {case.op} reading {want}; model has {names}"
    if case.dtype == "hybrid" and not any(t is not None and t["constant"] and t["dtype"] == "int8"
                                          for o in hits for t in o["inputs"]):
        return f"{case.op} has no int8 constant operand (weights not quantized); model has {names}"
    allowed = {case.op, *case.aux_ops}
    if case.dtype == "float16_weights":
        allowed.add("DEQUANTIZE")
        if not any(o["op"] == "DEQUANTIZE" and o["inputs"][0]["dtype"] == "float16" for o in info["ops"]):
            return f"no float16 DEQUANTIZE; model has {names}"
    extra = sorted(set(names) - allowed)
    if extra:
        return f"unexpected ops {extra}; model has {names}"
    return None


# Ops whose int8 result equals the uint8 twin's result - 128 (see tflite_edit.to_uint8).
TWIN_EXACT_OPS = {"SUM"}


def twin_reference(content, input_paths, n_out):
    """BUILTIN_REF outputs of the uint8 twin of an int8 model, mapped back to int8 codes."""
    from tflite_edit import edit, int8_to_uint8_codes, to_uint8, uint8_to_int8_codes
    tmp = tempfile.mkdtemp(prefix="twin_")
    try:
        model_path = os.path.join(tmp, "twin.tflite")
        with open(model_path, "wb") as f:
            f.write(edit(content, to_uint8))
        paths = []
        for i, p in enumerate(input_paths):
            a = np.load(p)
            if a.dtype == np.int8:
                a = int8_to_uint8_codes(a)
            paths.append(os.path.join(tmp, f"in_{i}.npy"))
            np.save(paths[-1], a)
        outs, _, _ = collect_child(*run_child(model_path, paths, REF), n_out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if outs is None:
        return None
    return [uint8_to_int8_codes(o) if o.dtype == np.uint8 else o for o in outs]


def run_child(model_path, input_paths, resolver):
    tmp = tempfile.mkdtemp(prefix="conf_")
    proc = subprocess.Popen([sys.executable, RUNNER, model_path, resolver, tmp, *input_paths],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return proc, tmp


def collect_child(proc, tmp, n_out):
    out, err = proc.communicate()
    try:
        if proc.returncode != 0:
            tail = err.decode(errors="replace").strip().splitlines()[-3:]
            return None, None, {"returncode": proc.returncode, "stderr": tail}
        outs = [np.load(os.path.join(tmp, f"out_{i}.npy")) for i in range(n_out)]
        with open(os.path.join(tmp, "ops.json")) as f:
            ops = json.load(f)
        return outs, ops, None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _io_entry(t, file):
    e = {"file": file, "name": t["name"], "dtype": t["dtype"], "shape": t["shape"]}
    if t["scale"]:
        e["scale"] = t["scale"][0]
        e["zero_point"] = t["zero_point"][0]
    return e


def _max_abs_diff(a_list, b_list):
    m = 0.0
    for a, b in zip(a_list, b_list):
        if a.shape != b.shape:
            return float("inf")
        if a.size:
            m = max(m, float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64)))))
    return m


def _run_float_model(case, info, inputs):
    """The case body converted without quantization and run (optimized kernels) on the
    (dequantized) inputs: (model info, outputs), outputs None when not comparable."""
    import dataclasses
    from converters import build_float
    from modelinfo import inspect, patch_softmax_beta
    fcase = dataclasses.replace(case, build=build_float)
    content = build_float(fcase, case.rng(0))
    beta = case.extra.get("softmax_beta", 1.0)
    if beta != 1.0:
        content = patch_softmax_beta(content, beta)
    finfo = inspect(content)
    if len(finfo["outputs"]) != len(info["outputs"]):
        return None, None
    by_arg = {}
    for pos, (t, a) in enumerate(zip(info["inputs"], inputs)):
        k = _input_arg_index(t["name"], len(case.inputs), pos)
        if t["scale"]:
            a = ((a.astype(np.float64) - t["zero_point"][0]) * t["scale"][0]).astype(np.float32)
        by_arg[k] = a
    tmp = tempfile.mkdtemp(prefix="conf_f_")
    try:
        model_path = os.path.join(tmp, "float.tflite")
        with open(model_path, "wb") as f:
            f.write(content)
        paths = []
        for pos, t in enumerate(finfo["inputs"]):
            p = os.path.join(tmp, f"in_{pos}.npy")
            np.save(p, by_arg[_input_arg_index(t["name"], len(case.inputs), pos)].reshape(t["shape"]))
            paths.append(p)
        fout, _, err = collect_child(*run_child(model_path, paths, OPT), len(finfo["outputs"]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return finfo, fout


def float_model_error(case, info, inputs, results):
    """How far each quantized result is from the float model, in output LSBs.

    The float model is the same op body and the same seeded constants,
    converted without quantization and run (optimized kernels) on the
    dequantized inputs.  Weight quantization alone costs a few LSB; a
    result tens of LSB away is a broken kernel, not rounding.
    Returns one max error per entry of `results` (None when not comparable).
    """
    finfo, fout = _run_float_model(case, info, inputs)
    if fout is None:
        return [None for _ in results]
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
            # Saturation at the calibrated output range is not an error.
            f = np.clip(f.astype(np.float64), (lim.min - zp) * scale, (lim.max - zp) * scale)
            worst = max(worst, float(np.max(np.abs(real - f)) / scale))
        errs.append(round(worst, 3))
    return errs


def float_model_abs_diff(case, info, inputs, result):
    """Hybrid cases: max |result - float model| over all outputs (the error a
    float-weights implementation would show), or None when not comparable."""
    finfo, fout = _run_float_model(case, info, inputs)
    if fout is None or len(fout) != len(result):
        return None
    return _max_abs_diff(result, [f.reshape(r.shape) if f.size == r.size else f for f, r in zip(fout, result)])


def process_case(case):
    """Build, verify and write one case.  Returns an index entry or a skip."""
    from modelinfo import inspect, patch_softmax_beta
    key = {"op": case.op, "case_id": case.case_id, "dtype": case.dtype}
    try:
        content = case.build(case, case.rng(0))
    except Exception as e:  # converter refused the graph
        return {**key, "skipped": f"conversion failed: {type(e).__name__}: {str(e).splitlines()[0][:200]}"}
    beta = case.extra.get("softmax_beta", 1.0)
    if beta != 1.0:
        content = patch_softmax_beta(content, beta)
    info = inspect(content)
    reason = verify_ops(case, info)
    if reason:
        return {**key, "skipped": reason}
    inputs = make_inputs(case, info)

    rel = f"{case.op}/{case.case_id}"
    cdir = os.path.join(OUT, rel)
    shutil.rmtree(cdir, ignore_errors=True)
    os.makedirs(cdir)
    model_path = os.path.join(cdir, "model.tflite")
    with open(model_path, "wb") as f:
        f.write(content)
    input_paths = []
    for i, a in enumerate(inputs):
        p = os.path.join(cdir, f"input_{i}.npy")
        np.save(p, a)
        input_paths.append(p)

    n_out = len(info["outputs"])
    ref_p = run_child(model_path, input_paths, REF)
    opt_p = run_child(model_path, input_paths, OPT)
    ref, ref_ops, ref_err = collect_child(*ref_p, n_out)
    opt, opt_ops, opt_err = collect_child(*opt_p, n_out)

    def fail(msg):
        shutil.rmtree(cdir, ignore_errors=True)
        return {**key, "skipped": msg}

    if opt is None:
        return fail(f"optimized kernels failed too: {opt_err} (reference: {ref_err})")
    aborted = ref is None
    float_err = None
    rejected = None
    if case.dtype in ("int8", "uint8") and case.extra.get("float_check", True):
        ref_e, opt_e = float_model_error(case, info, inputs, [ref, opt])
        float_err = {"reference": ref_e, "optimized": opt_e}
        # A reference result far from the float model while the optimized
        # kernels agree with it is a reference-kernel bug; don't enshrine it.
        if ref_e is not None and opt_e is not None and ref_e > max(4.0, 3.0 * opt_e):
            rejected = (f"BUILTIN_REF output is {ref_e} LSB from the float model, "
                        f"optimized kernels {opt_e} LSB")
    # A reference kernel known to disagree with TensorFlow's definition of the op and
    # with LiteRT's own optimized kernel (the case names the defect): the optimized
    # result is the expected one where it differs from the reference by more than the
    # float tolerance (where the defect does not show, the reference stands).
    defect = case.extra.get("reference_defect")
    bound = 1e-5 * max([1.0] + [float(np.max(np.abs(a))) for a in (ref or []) if a.size])
    if defect and ref is not None and rejected is None and _max_abs_diff(ref, opt) > bound:
        rejected = f"BUILTIN_REF {defect} ({_max_abs_diff(ref, opt):.3g} from the optimized kernels)"
    # For ops whose int8 arithmetic only sees q - zero_point, BUILTIN_REF on the uint8
    # twin computes exactly what the int8 reference kernel should have.
    # LiteRT 2.3.0's int8 SUM reads the int8 codes as uint8: sometimes grossly wrong
    # (rejected above), sometimes off by a few LSB, which the float check cannot tell
    # from rounding. So those ops always take the twin, and a reference that disagrees
    # with it is rejected.
    twin = None
    if case.dtype == "int8" and {o["op"] for o in info["ops"]} <= TWIN_EXACT_OPS and ref is not None:
        twin = twin_reference(content, input_paths, n_out)
        if twin is not None and rejected is None and any(not np.array_equal(a, b) for a, b in zip(twin, ref)):
            rejected = ("BUILTIN_REF differs from the same arithmetic on the uint8 twin model "
                        f"({_max_abs_diff(twin, ref)} LSB): its int8 SUM reads int8 codes as uint8")
    use_opt = (aborted or rejected is not None) and twin is None
    expected = twin if twin is not None else (opt if use_opt else ref)
    hybrid_err = None
    if case.dtype == "hybrid" and not use_opt:
        hybrid_err = float_model_abs_diff(case, info, inputs, ref)
    for i, a in enumerate(expected):
        why = None if case.allow_constant_output else near_constant(a)
        if why:
            return fail(f"output {i}: {why}")

    if case.validate is not None:
        why = case.validate(expected)
        if why:
            return fail(why)

    diff = 0.0 if aborted else _max_abs_diff(opt, twin if twin is not None else ref)
    outputs = []
    target = next(o for o in info["ops"] if o["op"] == case.op)
    slots = {t["index"]: k for k, t in enumerate(target["outputs"])}
    for i, (t, a) in enumerate(zip(info["outputs"], expected)):
        np.save(os.path.join(cdir, f"expected_{i}.npy"), a)
        entry = _io_entry(t, f"expected_{i}.npy")
        if list(a.shape) != t["shape"]:
            # The file's shape is dynamic (e.g. custom op outputs); give the runtime shape.
            entry["shape"] = list(a.shape)
            entry["model_shape"] = t["shape"]
        if t["index"] in slots:
            entry["op_output"] = slots[t["index"]]  # which output of the op this is
        if rejected is not None and not np.array_equal(expected[i], ref[i]):
            # expected_ holds a different result; keep the rejected reference beside it
            np.save(os.path.join(cdir, f"rejected_reference_{i}.npy"), ref[i])
            entry["rejected_reference_file"] = f"rejected_reference_{i}.npy"
        if not np.array_equal(opt[i], expected[i]):
            np.save(os.path.join(cdir, f"optimized_{i}.npy"), opt[i])
            entry["optimized_file"] = f"optimized_{i}.npy"
        outputs.append(entry)

    tolerance = case.tolerance or (
        "float" if any(t["dtype"] in ("float32", "float16") for t in info["outputs"]) else "exact")
    meta = {
        "op": case.op,
        "case_id": case.case_id,
        "dtype": case.dtype,
        "params": case.params,
        "tolerance": tolerance,
        "generator_version": GENERATOR_VERSION,
        "reference": OPT if use_opt else REF,
        **({"reference_method": "BUILTIN_REF on the uint8 twin model (int8 codes and zero points + 128)"}
           if twin is not None else {}),
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
    if hybrid_err is not None:
        meta["float_model_max_abs_diff"] = hybrid_err
    with open(os.path.join(cdir, "case.json"), "w") as f:
        json.dump(meta, f, indent=2, sort_keys=False)
        f.write("\n")
    return {**key, "path": rel, "tolerance": tolerance, "reference": meta["reference"],
            "reference_aborted": aborted, "reference_rejected": rejected is not None,
            "optimized_max_abs_diff": diff, "float_model_error_lsb": float_err,
            "ref_ops": ref_ops, "opt_ops": opt_ops}


def worker(shard, nshards, only, module=""):
    cases = [c for i, c in enumerate(all_cases(module)) if i % nshards == shard]
    if only:
        cases = [c for c in cases if only in f"{c.op}/{c.case_id}"]
    results = []
    for c in cases:
        t0 = time.time()
        r = process_case(c)
        r["seconds"] = round(time.time() - t0, 2)
        status = "SKIP " + r["skipped"] if "skipped" in r else (
            "ABORT" if r["reference_aborted"] else "REJECTED-REF" if r["reference_rejected"] else "ok")
        if "float_model_error_lsb" in r and r["float_model_error_lsb"]:
            status += f" float-err {r['float_model_error_lsb']}"
        print(f"[{shard}] {c.op}/{c.case_id} ({c.dtype}): {status}", flush=True)
        results.append(r)
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--module", default="")
    ap.add_argument("--jobs", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    args = ap.parse_args()

    partial = bool(args.only or args.module)
    if not partial:
        os.makedirs(OUT, exist_ok=True)
        for name in os.listdir(OUT):
            if name in KEEP:
                continue
            p = os.path.join(OUT, name)
            shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)

    t0 = time.time()
    ctx = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(args.jobs, mp_context=ctx) as ex:
        futs = [ex.submit(worker, k, args.jobs, args.only, args.module) for k in range(args.jobs)]
        results = [r for f in futs for r in f.result()]

    done = sorted((r for r in results if "skipped" not in r), key=lambda r: r["path"])
    skipped = sorted((r for r in results if "skipped" in r), key=lambda r: (r["op"], r["case_id"]))
    for r in done:
        if r["ref_ops"] is not None and r["ref_ops"] != r["opt_ops"]:
            print(f"warning: {r['path']}: resolvers disagree on ops {r['ref_ops']} vs {r['opt_ops']}")
    entries = [{k: r[k] for k in ("path", "op", "dtype", "tolerance", "reference",
                                   "reference_aborted", "reference_rejected", "optimized_max_abs_diff")}
               for r in done]
    skips = [{k: r[k] for k in ("op", "case_id", "dtype", "skipped")} for r in skipped]
    if args.module:
        with open(os.path.join(OUT, "index.json")) as f:
            old = json.load(f)
        ours = {(r["op"], r["case_id"]) for r in results}
        kept = [e for e in old["cases"] if (e["op"], e["path"].split("/", 1)[1]) not in ours]
        kept_skips = [e for e in old.get("skipped", []) if (e["op"], e["case_id"]) not in ours]
        index = {"generator_version": GENERATOR_VERSION,
                 "cases": sorted(kept + entries, key=lambda e: e["path"]),
                 "skipped": sorted(kept_skips + skips, key=lambda e: (e["op"], e["case_id"]))}
    elif not partial:
        index = {"generator_version": GENERATOR_VERSION, "cases": entries, "skipped": skips}
    else:
        index = None
    if index is not None:
        with open(os.path.join(OUT, "index.json"), "w") as f:
            json.dump(index, f, indent=1)
            f.write("\n")
    print(f"{len(done)} cases written, {len(skipped)} skipped, "
          f"{sum(r['reference_aborted'] for r in done)} reference aborts, "
          f"{time.time() - t0:.0f}s", flush=True)
    for r in skipped:
        print(f"skipped {r['op']}/{r['case_id']} ({r['dtype']}): {r['skipped']}")


if __name__ == "__main__":
    main()
