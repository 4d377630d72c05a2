#!/usr/bin/env python3
"""Runs `tflite bench --json` and LiteRT (XNNPACK, and builtin kernels without delegates)
alternately on the same models, prints a Markdown table of medians and ratios.

usage: compare.py TFLITE_BINARY MODEL... [--threads 1 2] [--rounds N] [--seconds S]
                  [--ours-env NAME=VALUE ...]

--ours-env adds a second run of ours with those environment variables (e.g.
OPENBLAS_CORETYPE=SkylakeX, for an OpenBLAS too old to pick its AVX-512 kernels itself).

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


def ours(binary: str, model: str, threads: int, runs: int, warmup: int, env=None):
    r = subprocess.run([binary, "bench", model, "--json", "--threads", str(threads), "--runs", str(runs),
                        "--warmup", str(warmup)], capture_output=True, text=True,
                       env=dict(os.environ, **env) if env else None)
    if r.returncode != 0:
        message = (r.stderr or r.stdout).strip().splitlines()
        return None, (message[-1] if message else f"exit {r.returncode}")
    return json.loads(r.stdout)["median_ms"], None


def litert(model: str, threads: int, runs: int, warmup: int, mode: str):
    r = subprocess.run([sys.executable, str(HERE / "litert_bench.py"), model, "--threads", str(threads),
                        "--runs", str(runs), "--warmup", str(warmup), "--mode", mode],
                       capture_output=True, text=True)
    if r.returncode != 0:
        message = r.stderr.strip().splitlines()
        return None, (message[-1] if message else f"exit {r.returncode}")
    return json.loads(r.stdout.strip().splitlines()[-1])["median_ms"], None


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("models", nargs="+")
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=float, default=0.6)
    p.add_argument("--json", help="also write the samples here")
    p.add_argument("--ours-env", nargs="*", default=[], metavar="NAME=VALUE")
    a = p.parse_args()
    ours_env = dict(item.split("=", 1) for item in a.ours_env)

    load_before = load_average()
    engines = ["ours", "xnnpack", "builtin"] + (["ours_env"] if ours_env else [])
    samples: dict = {}
    errors: dict = {}
    runs_for: dict = {}
    for model in a.models:
        # Calibrate the run length on LiteRT's builtin kernels (always supported).
        probe, _ = litert(model, 1, 3, 1, "builtin")
        per = probe if probe else 10.0
        runs_for[model] = max(10, min(2000, int(a.seconds * 1e3 / max(per, 1e-3))))
    for r in range(a.rounds):
        for model in a.models:
            runs = runs_for[model]
            warmup = max(2, runs // 10)
            for t in a.threads:
                for e in engines:
                    key = (model, t, e)
                    if key in errors:
                        continue
                    if e == "ours":
                        ms, err = ours(a.binary, model, t, runs, warmup)
                    elif e == "ours_env":
                        ms, err = ours(a.binary, model, t, runs, warmup, ours_env)
                    else:
                        ms, err = litert(model, t, runs, warmup, e)
                    if err:
                        errors[key] = err
                    else:
                        samples.setdefault(key, []).append(ms)
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
    print(f"(engines alternate within each round: {', '.join(engines)})\n")
    extra = " ".join(a.ours_env)
    head = "| model | threads | ours | LiteRT XNNPACK | LiteRT builtin | ours / XNNPACK | ours / builtin |"
    rule = "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    if ours_env:
        head += f" ours, {extra} | that / XNNPACK |"
        rule += " ---: | ---: |"
    print(head)
    print(rule)
    notes = []
    for model in a.models:
        name = pathlib.Path(model).stem
        for t in a.threads:
            o, x, b = (med((model, t, e)) for e in engines[:3])
            row = f"| {name} | {t} | {cell(o)} | {cell(x)} | {cell(b)} | {ratio(o, x)} | {ratio(o, b)} |"
            if ours_env:
                v = med((model, t, "ours_env"))
                row += f" {cell(v)} | {ratio(v, x)} |"
            print(row)
            for e in engines:
                if (model, t, e) in errors and t == a.threads[0]:
                    notes.append(f"- {name}, {e}: {errors[(model, t, e)]}")
    if notes:
        print("\nNot measured:")
        print("\n".join(notes))
    if a.json:
        out = {"load_before": load_before, "load_after": load_after, "cpu": cpu_model(),
               "samples": [{"model": m, "threads": t, "engine": e, "median_ms": v}
                           for (m, t, e), v in samples.items()],
               "errors": [{"model": m, "threads": t, "engine": e, "error": v} for (m, t, e), v in errors.items()]}
        pathlib.Path(a.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
