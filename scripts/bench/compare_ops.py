#!/usr/bin/env python3
"""Times every one-operator model of `make_op_models.py` with `tflite bench` and with
LiteRT (XNNPACK, and its builtin kernels without delegates), alternately in one run, at
each thread count, and prints one Markdown table sorted by the ratio of ours to LiteRT's
best (the faster of its two engines for that case and thread count), worst first.

usage: compare_ops.py TFLITE_BINARY FOLDER [--threads 1 2] [--rounds N] [--seconds S]
                      [--only SUBSTRING ...] [--json FILE]

Beside each case: the bytes its operators read and write per invocation as GB/s (for
the elementwise and data-movement operators, against this machine's memory bandwidth,
measured at the start by copying 64 MiB arrays with 1 and with 2 processes), or its
multiply-accumulates as GOP/s (against the FMA peak for float32, the 8-bit
multiply-accumulate peak of our kernel level for the quantized paths; nominal clock from
/proc/cpuinfo, two vector pipes per core, scaled by the thread count). `kernel_table.py`
gives the per-level peaks. A bandwidth above 100% means the tensors stayed in cache.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import pathlib
import statistics
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from compare import cpu_model, litert, load_average, ours  # noqa: E402
from kernel_table import LEVEL_PEAKS  # noqa: E402


def _copy_bandwidth(seconds: float, out) -> None:
    import numpy as np
    a = np.ones(16 << 20, np.float32)
    b = np.empty_like(a)
    np.copyto(b, a)
    moved, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        np.copyto(b, a)
        moved += 2 * a.nbytes
    out.put(moved / (time.perf_counter() - start))


def memory_bandwidth(processes: int, seconds: float = 0.5) -> float:
    """Bytes per second read plus written by `processes` concurrent 64 MiB copies (best of 3)."""
    best = 0.0
    for _ in range(3):
        q = multiprocessing.Queue()
        ps = [multiprocessing.Process(target=_copy_bandwidth, args=(seconds, q)) for _ in range(processes)]
        for p in ps:
            p.start()
        total = sum(q.get() for _ in ps)
        for p in ps:
            p.join()
        best = max(best, total)
    return best


def clock_ghz() -> float:
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("cpu MHz"):
                return float(line.split(":", 1)[1]) / 1000
    except OSError:
        pass
    return 0.0


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("folder")
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=float, default=0.3)
    p.add_argument("--only", nargs="*", default=[], help="cases whose name contains one of these")
    p.add_argument("--json", help="also write the samples here")
    a = p.parse_args()
    folder = pathlib.Path(a.folder)
    index = json.loads((folder / "ops.json").read_text())
    names = sorted(n for n in index if (folder / f"{n}.tflite").exists()
                   and (not a.only or any(s in n for s in a.only)))
    models = {n: str(folder / f"{n}.tflite") for n in names}

    bandwidth = {t: memory_bandwidth(t) for t in a.threads}
    load_before = load_average()
    engines = ["ours", "xnnpack", "builtin"]
    samples: dict = {}
    errors: dict = {}
    builds: dict = {}
    runs_for = {}
    for n in names:
        probe, _ = litert(models[n], 1, 3, 1, "builtin")
        per = probe["median_ms"] if probe else 1.0
        runs_for[n] = max(20, min(5000, int(a.seconds * 1e3 / max(per, 1e-3))))
    for r in range(a.rounds):
        for n in names:
            runs = runs_for[n]
            warmup = max(3, runs // 10)
            for t in a.threads:
                shift = (r + len(samples)) % len(engines)
                for e in engines[shift:] + engines[:shift]:
                    key = (n, t, e)
                    if key in errors:
                        continue
                    if e == "ours":
                        result, err = ours(a.binary, models[n], t, runs, warmup)
                    else:
                        result, err = litert(models[n], t, runs, warmup, e)
                    if err:
                        errors[key] = err
                        continue
                    if e == "ours":
                        builds["ours"] = (result.get("kernel_level", "?"), result.get("host_kernel_level", "?"),
                                          result.get("blas_core", "?"))
                    samples.setdefault(key, []).append(result["median_ms"])
        print(f"round {r + 1}/{a.rounds} done (load {load_average()})", file=sys.stderr)
    load_after = load_average()

    level = builds.get("ours", ("avx2",))[0]
    float_peak, int8_peak, how = LEVEL_PEAKS.get(level, LEVEL_PEAKS["avx2"])
    ghz = clock_ghz()

    def med(key):
        s = samples.get(key)
        return statistics.median(s) if s else None

    rows = []
    for n in names:
        info = index[n]
        for t in a.threads:
            o, x, b = (med((n, t, e)) for e in engines)
            lite = [(v, e) for v, e in ((x, "XNNPACK"), (b, "builtin")) if v is not None]
            best = min(lite) if lite else (None, "")
            ratio = o / best[0] if o is not None and best[0] else None
            if info["macs"]:
                peak = (float_peak if info["path"] in ("f32", "hyb") else int8_peak) * ghz * t
                rate = f"{2 * info['macs'] / (o * 1e-3) / 1e9:.1f} GOP/s" if o else "n/a"
                limit = f"{peak:.0f} GOP/s" if ghz else "n/a"
                share = f"{2 * info['macs'] / (o * 1e-3) / 1e9 / peak:.0%}" if o and ghz else ""
            else:
                rate = f"{info['bytes'] / (o * 1e-3) / 1e9:.1f} GB/s" if o else "n/a"
                limit = f"{bandwidth[t] / 1e9:.1f} GB/s"
                share = f"{info['bytes'] / (o * 1e-3) / bandwidth[t]:.0%}" if o else ""
            rows.append((ratio if ratio is not None else float("inf"), n, t, o, x, b, best, rate, limit, share))
    rows.sort(key=lambda r: (-r[0], r[1], r[2]))

    def cell(v):
        return "n/a" if v is None else (f"{v:.4f}" if v < 0.01 else f"{v:.3f}" if v < 1 else f"{v:.2f}")

    lv = builds.get("ours", ("?", "?", "?"))
    print(f"CPU: {cpu_model()}, {os.cpu_count()} logical CPUs, {ghz:.2f} GHz nominal; "
          f"load average {load_before} before, {load_after} after")
    print(f"ours: kernel level {lv[0]} (this CPU's best: {lv[1]}), OpenBLAS core {lv[2]}")
    print("memory bandwidth (64 MiB copies, read + write): "
          + ", ".join(f"{bandwidth[t] / 1e9:.1f} GB/s with {t} process{'es' if t > 1 else ''}" for t in a.threads))
    print(f"peaks per core at {lv[0]}: float32 {float_peak} FLOP/cycle, 8-bit {int8_peak} OP/cycle ({how})")
    print(f"{a.rounds} rounds; each sample is the median of one process's timed invocations; ms, median of samples; "
          "engines alternate, their order rotating")
    print()
    print("| case | threads | ours | XNNPACK | builtin | ours / best | ours' rate | limit | of limit |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for ratio, n, t, o, x, b, best, rate, limit, share in rows:
        rtext = "n/a" if ratio == float("inf") else f"{ratio:.2f}x {'(X)' if best[1] == 'XNNPACK' else '(b)'}"
        print(f"| {n} | {t} | {cell(o)} | {cell(x)} | {cell(b)} | {rtext} | {rate} | {limit} | {share} |")
    notes = [f"- {n} ({e}, {t} thread{'s' if t > 1 else ''}): {err}" for (n, t, e), err in sorted(errors.items())]
    if notes:
        print("\nNot measured:")
        print("\n".join(notes))
    if a.json:
        pathlib.Path(a.json).write_text(json.dumps({
            "load_before": load_before, "load_after": load_after, "cpu": cpu_model(),
            "samples": [{"model": m, "threads": t, "engine": e, "median_ms": v} for (m, t, e), v in samples.items()],
            "errors": [{"model": m, "threads": t, "engine": e, "error": v} for (m, t, e), v in errors.items()]},
            indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
