#!/usr/bin/env python3
"""Times LiteRT on one model, like `tflite bench --json`: prints one JSON object.

usage: litert_bench.py MODEL --threads N --runs N --warmup N --mode xnnpack|builtin

xnnpack: ai_edge_litert's default (the XNNPACK delegate applied by default);
builtin: OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES (LiteRT's own optimized kernels).
Inputs are seeded pseudo-random values: floats in [-1, 1), integers over their range.
"""
from __future__ import annotations

import argparse
import json
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
    a = p.parse_args()

    kwargs = {}
    if a.mode == "builtin":
        kwargs["experimental_op_resolver_type"] = litert.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES
    baseline = resident_bytes()
    start = time.perf_counter()
    interp = litert.Interpreter(model_path=a.model, num_threads=a.threads, **kwargs)
    interp.allocate_tensors()
    load = time.perf_counter() - start

    rng = np.random.default_rng(0x5EED)
    for d in interp.get_input_details():
        dt = d["dtype"]
        if np.issubdtype(dt, np.floating):
            x = rng.uniform(-1, 1, d["shape"]).astype(dt)
        else:
            info = np.iinfo(dt)
            x = rng.integers(info.min, info.max, d["shape"], endpoint=True).astype(dt)
        interp.set_tensor(d["index"], x)

    for _ in range(a.warmup):
        interp.invoke()
    times = []
    for _ in range(a.runs):
        t = time.perf_counter()
        interp.invoke()
        times.append(time.perf_counter() - t)
    times.sort()
    print(json.dumps({"median_ms": times[len(times) // 2] * 1e3, "min_ms": times[0] * 1e3,
                      "load_ms": load * 1e3,
                      "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                      "baseline_rss_bytes": baseline, "runs": a.runs, "threads": a.threads, "mode": a.mode}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
