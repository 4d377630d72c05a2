#!/usr/bin/env python3
"""Times LiteRT on one model, like `tflite bench --json`: prints one JSON object.

usage: litert_bench.py MODEL --threads N --runs N --warmup N --mode xnnpack|builtin
                        [--signature KEY] [--input FILE.npy ...]

xnnpack: ai_edge_litert's default (the XNNPACK delegate applied by default);
builtin: OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES (LiteRT's own optimized kernels).
Inputs are seeded pseudo-random values: floats in [-1, 1), integers over their range,
or the given --input arrays (in the order of the subgraph's inputs). With --signature the
signature's subgraph is timed: its inputs are set once through the signature runner, then
each timed invoke runs that subgraph alone, as `tflite bench --signature` does.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import resource
import sys
import time

import numpy as np
from ai_edge_litert import interpreter as litert


def resident_bytes() -> int:
    """Resident memory now (after the imports, before the model): Linux /proc/self/statm."""
    try:
        import os
        return int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--runs", type=int, default=50)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--mode", choices=["xnnpack", "builtin"], default="xnnpack")
    p.add_argument("--signature")
    p.add_argument("--input", action="append", default=[])
    a = p.parse_args()

    kwargs = {}
    if a.mode == "builtin":
        kwargs["experimental_op_resolver_type"] = litert.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES
    baseline = resident_bytes()
    start = time.perf_counter()
    interp = litert.Interpreter(model_path=a.model, num_threads=a.threads, **kwargs)
    interp.allocate_tensors()
    load = time.perf_counter() - start

    invoke = interp.invoke
    if a.signature:
        sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "conformance"))
        from run_model import signature_orders
        names = signature_orders(open(a.model, "rb").read())[a.signature][0]
        runner = interp.get_signature_runner(a.signature)
        runner(**{name: np.load(path) for name, path in zip(names, a.input)})
        wrapper, subgraph = runner._interpreter_wrapper, runner._subgraph_index

        def invoke():
            wrapper.Invoke(subgraph)
    else:
        rng = np.random.default_rng(0x5EED)
        for k, d in enumerate(interp.get_input_details()):
            dt = d["dtype"]
            if k < len(a.input):
                x = np.load(a.input[k])
            elif np.issubdtype(dt, np.floating):
                x = rng.uniform(-1, 1, d["shape"]).astype(dt)
            else:
                info = np.iinfo(dt)
                x = rng.integers(info.min, info.max, d["shape"], endpoint=True).astype(dt)
            interp.set_tensor(d["index"], x)

    for _ in range(a.warmup):
        invoke()
    times = []
    for _ in range(a.runs):
        t = time.perf_counter()
        invoke()
        times.append(time.perf_counter() - t)
    times.sort()
    print(json.dumps({"median_ms": times[len(times) // 2] * 1e3, "min_ms": times[0] * 1e3,
                      "load_ms": load * 1e3,
                      "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                      "baseline_rss_bytes": baseline, "runs": a.runs, "threads": a.threads, "mode": a.mode}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
