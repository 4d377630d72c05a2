#!/usr/bin/env python3
"""Turns `swift package benchmark --format markdown` output into one table per kernel:
p50 wall time, p50 instructions, arithmetic rate, fraction of one core's peak.

usage: ... | kernel_table.py --ghz 4.4 --flags "$(grep -m1 ^flags /proc/cpuinfo)"

Peaks per core, from the clock and the widest vector unit the CPU reports:
float32: 2 FMA pipes x lanes (16 with AVX-512, 8 with AVX2+FMA, 4 with SSE) x 2 FLOP;
int8: 2 pipes x 64 multiply-accumulates (AVX-512 VNNI vpdpbusd) x 2 OP, 32 with
AVX-VNNI/AVX2. The float peak is what XNNPACK's and OpenBLAS's best kernels aim at; our
Swift kernels are built for baseline x86-64 (SSE2) unless built with -target-cpu, and
OpenBLAS picks its own kernel (its Haswell AVX2 one on this Zen 5 CPU).
"""
from __future__ import annotations

import argparse
import re
import sys


def peaks(ghz: float, flags: str) -> tuple[float, float, str]:
    f = set(flags.split())
    if "avx512f" in f:
        lanes, unit = 16, "AVX-512"
    elif "avx2" in f and "fma" in f:
        lanes, unit = 8, "AVX2+FMA"
    else:
        lanes, unit = 4, "SSE"
    int8_macs = 64 if "avx512_vnni" in f else 32
    return ghz * 2 * lanes * 2, ghz * 2 * int8_macs * 2, unit


def parse(text: str):
    rows = {}
    name = None
    for line in text.splitlines():
        m = re.match(r"^### (.+)$", line)
        if m:
            name = m.group(1).strip()
            rows[name] = {}
            continue
        if name and line.startswith("|") and not line.startswith("|:") and "Metric" not in line:
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) >= 4:
                rows[name][cells[0]] = cells[3]   # p50
    return rows


def number(cell: str) -> float:
    try:
        return float(cell.replace(",", ""))
    except ValueError:
        return float("nan")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--ghz", type=float, required=True)
    p.add_argument("--flags", default="")
    a = p.parse_args()
    fp32, int8, unit = peaks(a.ghz, a.flags)
    rows = parse(sys.stdin.read())
    print(f"Clock {a.ghz:.2f} GHz; one core's peak: float32 {fp32:.0f} GFLOP/s ({unit} FMA), "
          f"int8 {int8:.0f} GOP/s (uint8 and int8 kernels are compared with it). Rates are 2 x "
          f"multiply-accumulates per second at the p50 time; a 'tN' kernel's peak is N cores'.\n")
    print("| kernel | p50 µs | p50 instructions | GFLOP/s (GOP/s) | % of peak |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, metrics in rows.items():
        wall = next((v for k, v in metrics.items() if k.startswith("Time (wall clock)")), "")
        instr_key = next((k for k in metrics if k.startswith("Instructions")), None)
        instr = ""
        if instr_key:
            scale = {"(K)": "K", "(M)": "M", "(G)": "G"}
            suffix = next((s for k, s in scale.items() if k in instr_key), "")
            instr = metrics[instr_key] + suffix
        rate_key = next((k for k in metrics if k.startswith("MFLOP/s")), None)
        # ordo-one/benchmark scales large values and says so in the label: "MFLOP/s (K)".
        factor = {"(K)": 1e3, "(M)": 1e6, "(G)": 1e9}
        rate = None
        if rate_key:
            rate = number(metrics[rate_key]) * next((v for k, v in factor.items() if k in rate_key), 1) / 1e3
        if rate is not None and rate == rate:
            # 8-bit kernels against the int8 peak; "tN" benchmarks use N cores.
            peak = int8 if name.startswith(("int8", "uint8")) else fp32
            suffix = re.search(r" t(\d+)$", name)
            peak *= int(suffix.group(1)) if suffix else 1
            print(f"| {name} | {wall} | {instr} | {rate:.1f} | {100 * rate / peak:.0f}% |")
        else:
            print(f"| {name} | {wall} | {instr} | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
