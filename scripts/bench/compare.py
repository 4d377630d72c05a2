#!/usr/bin/env python3
"""Runs `tflite bench --json` and LiteRT (XNNPACK, and builtin kernels without delegates)
alternately on the same models, prints a Markdown table of medians and ratios.

usage: compare.py TFLITE_BINARY MODEL... [--threads 1 2] [--rounds N] [--seconds S]
                  [--ours-env NAME=VALUE ...] [--ours-arg ARG ...]
                  [--tuned-binary PATH [--tuned-env NAME=VALUE ...]]

--ours-env and --ours-arg add a second run of ours with those environment variables (e.g.
OPENBLAS_CORETYPE=SkylakeX, for an OpenBLAS too old to pick its AVX-512 kernels itself)
and `tflite bench` arguments (e.g. `--requantization float32`), as an extra column.
--tuned-binary adds a column for a second build of ours (compare.sh --target-cpu builds one
for this CPU), run with the --tuned-env variables. A second table gives load times and
memory, ours against LiteRT with XNNPACK.

Each round runs every engine once per (model, thread count), in the order
ours, XNNPACK, builtin, so the machine's load falls on all three alike. A run is one
process timing `runs` invocations after a warm-up; its median is one sample, and the
table gives the median of the rounds' samples. `runs` is chosen per model so a run
takes about S seconds of invocations.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import platform
import statistics
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent


def load_average() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "unknown"


def cpu_model() -> str:
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def bench_arguments(model: str) -> list:
    """`--signature` and `--input` arguments from MODEL.bench.json beside the model, if any:
    {"signature": KEY, "inputs": [FILE.npy, ...]} (paths relative to the JSON file), for a
    model timed through one signature on given inputs (a decoder's `decode` step)."""
    sidecar = pathlib.Path(model + ".bench.json")
    if not sidecar.exists():
        return []
    spec = json.loads(sidecar.read_text())
    args = ["--signature", spec["signature"]] if spec.get("signature") else []
    for name in spec.get("inputs", []):
        args += ["--input", str(sidecar.parent / name)]
    return args


def ours(binary: str, model: str, threads: int, runs: int, warmup: int, env=None, args=()):
    r = subprocess.run([binary, "bench", model, "--json", "--threads", str(threads), "--runs", str(runs),
                        "--warmup", str(warmup), *bench_arguments(model), *args], capture_output=True, text=True,
                       env=dict(os.environ, **env) if env else None)
    if r.returncode != 0:
        message = (r.stderr or r.stdout).strip().splitlines()
        return None, (message[-1] if message else f"exit {r.returncode}")
    return json.loads(r.stdout), None


def litert(model: str, threads: int, runs: int, warmup: int, mode: str):
    r = subprocess.run([sys.executable, str(HERE / "litert_bench.py"), model, "--threads", str(threads),
                        "--runs", str(runs), "--warmup", str(warmup), "--mode", mode, *bench_arguments(model)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        message = r.stderr.strip().splitlines()
        return None, (message[-1] if message else f"exit {r.returncode}")
    return json.loads(r.stdout.strip().splitlines()[-1]), None


def print_load_table(models, threads: int, loads: dict) -> None:
    """Load time (file to ready to invoke) and memory, ours against LiteRT with XNNPACK.

    Peak RSS is the whole process's; "model" is peak minus the RSS measured just before
    loading the model (our runtime and libraries, or Python with LiteRT imported), which
    is what the model itself costs in each engine."""
    def mb(x):
        return f"{x / 2**20:.1f}"

    print(f"\nLoad and memory ({threads} thread{'s' if threads > 1 else ''}; load: median of the rounds, ms; "
          "RSS: MiB, largest over the rounds)\n")
    print("| model | ours load | XNNPACK load | ours / XNNPACK | ours peak RSS (model) | XNNPACK peak RSS (model) | ours model / XNNPACK model |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for model in models:
        o, x = loads.get((model, threads, "ours")), loads.get((model, threads, "xnnpack"))
        if not o or not x:
            continue
        ol, xl = statistics.median(v[0] for v in o), statistics.median(v[0] for v in x)
        op, xp = max(v[1] for v in o), max(v[1] for v in x)
        om, xm = max(v[1] - v[2] for v in o), max(v[1] - v[2] for v in x)
        print(f"| {pathlib.Path(model).stem} | {ol:.2f} | {xl:.2f} | {ol / xl:.2f}x | {mb(op)} ({mb(om)}) | "
              f"{mb(xp)} ({mb(xm)}) | {om / xm if xm > 0 else float('nan'):.2f}x |")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("models", nargs="+")
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=float, default=0.6)
    p.add_argument("--json", help="also write the samples here")
    p.add_argument("--ours-env", nargs="*", default=[], metavar="NAME=VALUE")
    p.add_argument("--ours-arg", action="append", default=[], metavar="ARG",
                   help="a `tflite bench` argument for the extra column (repeat for each word)")
    p.add_argument("--tuned-binary", help="a second build of ours (e.g. for this CPU), an extra column")
    p.add_argument("--tuned-env", nargs="*", default=[], metavar="NAME=VALUE")
    a = p.parse_args()
    ours_env = dict(item.split("=", 1) for item in a.ours_env)
    tuned_env = dict(item.split("=", 1) for item in a.tuned_env)

    load_before = load_average()
    second = bool(ours_env or a.ours_arg)
    engines = ["ours", "xnnpack", "builtin"] + (["ours_env"] if second else []) + (["tuned"] if a.tuned_binary else [])
    samples: dict = {}
    # Load time and memory of each (model, threads, engine) sample.
    loads: dict = {}
    errors: dict = {}
    # The kernel level, the host's level and OpenBLAS's core that each of our columns ran.
    builds: dict = {}
    runs_for: dict = {}
    for model in a.models:
        # Calibrate the run length on LiteRT's builtin kernels (always supported).
        probe, _ = litert(model, 1, 3, 1, "builtin")
        per = probe["median_ms"] if probe else 10.0
        runs_for[model] = max(10, min(2000, int(a.seconds * 1e3 / max(per, 1e-3))))
    for r in range(a.rounds):
        for model in a.models:
            runs = runs_for[model]
            warmup = max(2, runs // 10)
            for t in a.threads:
                # The order rotates from round to round, so that no engine always holds the
                # same place in the sequence (first after a change of thread count, or after
                # the same other engine): whatever such a place costs on a shared machine
                # then falls on every engine alike.
                shift = r % len(engines)
                for e in engines[shift:] + engines[:shift]:
                    key = (model, t, e)
                    if key in errors:
                        continue
                    if e == "ours":
                        result, err = ours(a.binary, model, t, runs, warmup)
                    elif e == "ours_env":
                        result, err = ours(a.binary, model, t, runs, warmup, ours_env, a.ours_arg)
                    elif e == "tuned":
                        result, err = ours(a.tuned_binary, model, t, runs, warmup, tuned_env)
                    else:
                        result, err = litert(model, t, runs, warmup, e)
                    if err:
                        errors[key] = err
                    else:
                        if e in ("ours", "ours_env", "tuned"):
                            builds[e] = (result.get("kernel_level", "?"), result.get("host_kernel_level", "?"),
                                         result.get("blas_core", "?"))
                        samples.setdefault(key, []).append(result["median_ms"])
                        loads.setdefault(key, []).append((result["load_ms"], result["peak_rss_bytes"],
                                                          result["baseline_rss_bytes"]))
        print(f"round {r + 1}/{a.rounds} done (load {load_average()})", file=sys.stderr)
    load_after = load_average()

    def med(key):
        s = samples.get(key)
        return statistics.median(s) if s else None

    def cell(v):
        return f"{v:.3f}" if v is not None and v < 1 else (f"{v:.2f}" if v is not None else "n/a")

    def ratio(x, y):
        return f"{x / y:.2f}x" if x is not None and y else "n/a"

    print(f"CPU: {cpu_model()}, {os.cpu_count()} logical CPUs; load average {load_before} before, {load_after} after")
    print(f"{a.rounds} rounds; each sample is the median of one process's timed invocations; ms, median of samples")
    print(f"(engines alternate within each round, their order rotating from round to round: {', '.join(engines)})")
    for e, (level, host, core) in sorted(builds.items()):
        print(f"{e}: kernel level {level} (this CPU's best: {host}), OpenBLAS core {core}")
    print()
    extra = " ".join(a.ours_env + a.ours_arg)
    head = "| model | threads | ours | LiteRT XNNPACK | LiteRT builtin | ours / XNNPACK | ours / builtin |"
    rule = "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    if second:
        head += f" ours, {extra} | that / XNNPACK | that / builtin |"
        rule += " ---: | ---: | ---: |"
    if a.tuned_binary:
        label = " ".join(["tuned"] + a.tuned_env)
        head += f" ours, {label} | that / XNNPACK | that / builtin |"
        rule += " ---: | ---: | ---: |"
    print(head)
    print(rule)
    notes = []
    for model in a.models:
        name = pathlib.Path(model).stem
        for t in a.threads:
            o, x, b = (med((model, t, e)) for e in engines[:3])
            row = f"| {name} | {t} | {cell(o)} | {cell(x)} | {cell(b)} | {ratio(o, x)} | {ratio(o, b)} |"
            if second:
                v = med((model, t, "ours_env"))
                row += f" {cell(v)} | {ratio(v, x)} | {ratio(v, b)} |"
            if a.tuned_binary:
                v = med((model, t, "tuned"))
                row += f" {cell(v)} | {ratio(v, x)} | {ratio(v, b)} |"
            print(row)
            for e in engines:
                if (model, t, e) in errors and t == a.threads[0]:
                    notes.append(f"- {name}, {e}: {errors[(model, t, e)]}")
    if len(a.threads) > 1:
        t1, t2 = a.threads[0], a.threads[1]
        print(f"\nThread scaling ({t1} -> {t2} threads: time at {t1} / time at {t2}; above 1 is faster)\n")
        cols = [e for e in engines if e != "builtin"]
        print("| model | " + " | ".join(cols) + " |")
        print("| --- |" + " ---: |" * len(cols))
        for model in a.models:
            cells = []
            for e in cols:
                x, y = med((model, t1, e)), med((model, t2, e))
                cells.append(f"{x / y:.2f}x" if x and y else "n/a")
            print(f"| {pathlib.Path(model).stem} | " + " | ".join(cells) + " |")
    print_load_table(a.models, a.threads[0], loads)
    if notes:
        print("\nNot measured:")
        print("\n".join(notes))
    if a.json:
        out = {"load_before": load_before, "load_after": load_after, "cpu": cpu_model(),
               "samples": [{"model": m, "threads": t, "engine": e, "median_ms": v}
                           for (m, t, e), v in samples.items()],
               "loads": [{"model": m, "threads": t, "engine": e, "load_ms_peak_rss_baseline_rss": v}
                         for (m, t, e), v in loads.items()],
               "errors": [{"model": m, "threads": t, "engine": e, "error": v} for (m, t, e), v in errors.items()]}
        pathlib.Path(a.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
