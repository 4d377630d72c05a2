#!/usr/bin/env python3
"""Turns `swift package benchmark --format markdown` output into one table per kernel:
kernel level, p50 wall time, p50 instructions, arithmetic rate, the peak of the kernel's
level beside it, the fraction of that peak, and the speed-up over the portable level.

usage: ... | kernel_table.py --ghz 4.4 --flags "$(grep -m1 ^flags /proc/cpuinfo)"

Benchmark names end in "<level> t<threads>". Each level's peak per core and cycle is what
its widest multiply-accumulate instructions allow, assuming two vector multiply pipes
(Skylake and later, Zen 2 and later; Haswell has one for integer multiplies, so there the
int8 peaks are twice too high):
  portable (x86-64 baseline, SSE2): float32 2 pipes x 4 lanes x 1 FLOP (no FMA: mulps and
    addps are separate instructions, so a multiply-add takes two slots); int8 2 pipes x
    pmaddwd's 8 16-bit multiply-accumulates x 2 OP.
  avx2 (x86-64-v3): float32 2 FMA pipes x 8 lanes x 2 FLOP; int8 2 pipes x vpmaddwd's 16
    16-bit multiply-accumulates x 2 OP (the AVX2 kernels widen 8-bit codes to 16 bits and
    use vpmaddwd, which is exact; vpmaddubsw's 8-bit pairs can saturate).
  avx512 (AVX-512 + VNNI): float32 2 FMA pipes x 16 lanes x 2 FLOP; int8 2 pipes x
    vpdpbusd's 64 8-bit multiply-accumulates x 2 OP. CPUs that run 512-bit instructions
    as two 256-bit halves (AMD Zen 4) reach half of these.
The header also states the CPU's own ceiling from its flags. GEMM-based kernels call OpenBLAS,
which picks its own instruction set whatever the level: the float 1x1 and im2col
convolutions and FC at every level, and the 8-bit ones where the level has no integer
GEMM for them (all at portable; at avx2 CONV_2D has its own vpmaddwd GEMM), whose exact
integer sums go through float sgemm in chunks small enough to stay exact. Those rows
measure OpenBLAS, and portable ones can exceed the portable peak.
"""
from __future__ import annotations

import argparse
import re
import sys


# Per level: (float32 FLOP, int8 OP) per core per cycle, and how that is reached.
LEVEL_PEAKS = {
    "portable": (2 * 4 * 1, 2 * 8 * 2, "SSE2: mulps+addps, pmaddwd"),
    "avx2": (2 * 8 * 2, 2 * 16 * 2, "AVX2: 2 FMA pipes, vpmaddwd"),
    "avx512": (2 * 16 * 2, 2 * 64 * 2, "AVX-512: 2 FMA pipes, vpdpbusd"),
}


def cpu_peaks(ghz: float, flags: str) -> tuple[float, float, str]:
    """The CPU's own ceiling per core: float32 FMA at its widest vectors, int8 at VNNI."""
    f = set(flags.split())
    if "avx512f" in f:
        lanes, unit = 16, "AVX-512"
    elif "avx2" in f and "fma" in f:
        lanes, unit = 8, "AVX2+FMA"
    else:
        lanes, unit = 4, "SSE"
    # 8-bit multiply-accumulates per instruction: vpdpbusd on zmm 64; on ymm (AVX-VNNI),
    # or vpmaddubsw's saturating pairs on ymm, 32.
    int8_macs = 64 if "avx512_vnni" in f else 32
    return ghz * 2 * lanes * 2, ghz * 2 * int8_macs * 2, unit


def split_name(name: str) -> tuple[str, str, int]:
    """(kernel, level, threads) of "<kernel> <level> t<threads>"."""
    m = re.match(r"^(.*) (\S+) t(\d+)$", name)
    if not m:
        return name, "", 1
    return m.group(1), m.group(2), int(m.group(3))


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
    if not a.ghz > 0:
        p.error(f"--ghz must be a positive clock, not {a.ghz}")
    fp32, int8, unit = cpu_peaks(a.ghz, a.flags)
    rows = parse(sys.stdin.read())
    print(f"Clock {a.ghz:.2f} GHz. Level peaks per core: "
          + "; ".join(f"{level} float32 {f * a.ghz:.0f} GFLOP/s, int8 {i * a.ghz:.0f} GOP/s ({how})"
                      for level, (f, i, how) in LEVEL_PEAKS.items())
          + f". This CPU's ceiling: float32 {fp32:.0f} GFLOP/s ({unit}), int8 {int8:.0f} GOP/s. "
          "Rates are 2 x multiply-accumulates per second at the p50 time; uint8 and int8 kernels "
          "are compared with the int8 peak; a 'tN' kernel's peak is N cores'. GEMM-based kernels "
          "run OpenBLAS (its own instruction set) for float, and for 8-bit where the level has no integer GEMM "
          "(all at portable).\n")
    print("| kernel | level | threads | p50 µs | p50 instructions | GFLOP/s (GOP/s) | level peak | % of level peak | x portable |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    walls: dict[tuple[str, int, str], float] = {}
    entries = []
    for name, metrics in rows.items():
        kernel, level, threads = split_name(name)
        wall = next((v for k, v in metrics.items() if k.startswith("Time (wall clock)")), "")
        walls[(kernel, threads, level)] = number(wall) if wall else float("nan")
        entries.append((kernel, threads, list(LEVEL_PEAKS).index(level) if level in LEVEL_PEAKS else -1,
                        name, level, wall, metrics))
    # Levels of one kernel side by side.
    for kernel, threads, _, name, level, wall, metrics in sorted(entries, key=lambda e: e[:3]):
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
        speedup = ""
        base = walls.get((kernel, threads, "portable"), float("nan"))
        mine = walls.get((kernel, threads, level), float("nan"))
        if level != "portable" and base == base and mine == mine and mine > 0:
            speedup = f"{base / mine:.2f}"
        rate_cell = peak_cell = share_cell = ""
        if rate is not None and rate == rate:
            rate_cell = f"{rate:.1f}"
            if level in LEVEL_PEAKS:
                # 8-bit kernels against the int8 peak; "tN" benchmarks use N cores.
                per_cycle = LEVEL_PEAKS[level][1 if kernel.startswith(("int8", "uint8")) else 0]
                peak = per_cycle * a.ghz * threads
                peak_cell, share_cell = f"{peak:.0f}", f"{100 * rate / peak:.0f}%"
        print(f"| {kernel} | {level} | {threads} | {wall} | {instr} | {rate_cell} | {peak_cell} | {share_cell} | {speedup} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
